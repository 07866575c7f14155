/*
** live.h: what a procedure's code still needs at each instruction.
**
** For every instruction of a verified module: the height of the operand
** stack before it (as the verifier proves it) and the locals that are live
** before it, that is, read on some path onward before being written
** (backward dataflow over LOAD and STORE, jumps followed both ways).  Exact
** odds use this to recognise a state it has been in: two chance points
** that differ only in dead locals or in stack slots above the operands
** have the same future.
*/
#ifndef RG_LIVE_H
#define RG_LIVE_H

#include <stdint.h>

#include "module.h"

typedef struct rgi_live {
  const rgi_module *m;       /* borrowed */
  int32_t *height;          /* [ncode]: stack height before each instruction,
                            ** -1 where no path reaches */
  uint64_t *bits;           /* live-in sets, nw[p] words per instruction of p */
  uint64_t *off;            /* [nprocs]: proc p's first set in bits[] */
  uint32_t *nw;             /* [nprocs]: words of one set of proc p */
} rgi_live;

/* Computes heights and live locals of every procedure of the verified
** module m (borrowed; it must outlive l).  Returns 0, or -1 when out of
** memory; free l with rgi_live_free whatever this returns. */
int rgi_live_init(rgi_live *l, const rgi_module *m);

/* Frees what l holds. */
void rgi_live_free(rgi_live *l);

/* Returns 1 when local k of procedure p is live before instruction pc (an
** index into m->code inside p), else 0. */
int rgi_live_local(const rgi_live *l, uint32_t p, uint32_t pc, uint32_t k);

#endif
