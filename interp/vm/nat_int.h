/*
** nat_int.h: what the native tier's two files share (native.c translates
** and runs, nativecache.c compiles, caches and loads).  Private to them.
*/
#ifndef RG_NAT_INT_H
#define RG_NAT_INT_H

#include "native.h"

/* The largest frame (slots) and fast code (instructions) translated: a
** module past them runs in the VM (the C compiler's time grows with them). */
#define NAT_MAX_FRAME 4096
#define NAT_MAX_CODE  1000000

/* A module's native code, loaded. */
struct rgi_native {
  void *dl;                 /* dlopen's handle */
  int fd;                   /* the checked file, open while loaded */
  const rgn_proc *procs;    /* [nprocs]: rgn_procs of the shared object */
  uint32_t nprocs, nfcode;  /* of the module and fast code it was built from */
  uint64_t shape;           /* nat_module_shape of that module */
  double seconds;           /* generating, compiling and loading */
};

/* The procedures of n. */
#define nat_procs(n) ((n)->procs)

/* Writes the C of module m's fused fast code to out and stores the number
** of fast instructions in *nfcode.  Returns 0, -1 when an instruction has
** no translation (the VM runs), -2 when out of memory. */
int nat_source(const rgi_module *m, rg_buf *out, uint32_t *nfcode);

/* The hash of what m's fast code is made from (code, procedures,
** constants, table shapes). */
uint64_t nat_module_shape(const rgi_module *m);

#endif
