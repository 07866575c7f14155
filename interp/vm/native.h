/*
** native.h: the native tier, which runs a verified module's procedures as
** machine code (see native.c for the technique and why).
**
** rgi_native_build translates the VM's fused fast code (vm_int.h) of module
** m into C, compiles it with the caller's C compiler into a shared object
** kept in the caller's cache directory, and loads it.  A VM made with
** rgi_limits.native set (and fusion on) runs its calls in that code; every
** instruction the generated code does not do itself, and every failure it
** finds, it hands back to the VM's own handler for that one instruction
** (vm_exec1), so events, errors and their places are the VM's.  When the
** tier cannot be had (no compiler, a compile that fails, a cache that is
** not private, a web build) the VM runs: rgi_native_build says why in a
** note, and nothing is an error.
*/
#ifndef RG_NATIVE_H
#define RG_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#include "module.h"
#include "regula_front.h"
#include "rng.h"

/* What the library and the generated code share, written once: it expands
** into C here and, stringified, into the top of every generated file (so
** the two never disagree; RGN_ABI_VERSION is part of every cache key).
**   rgn_api: the VM's services: exec runs fast instruction k alone on the
**     frame b (vm_exec1); failed does the same for an instruction whose
**     failure the generated code found (and insists on a failure); limit
**     reports limit `what` (0 steps, 1 call depth, 2 memory) at module pc.
**   rgn_env: one call's state: the VM's heap, cells, generator, decks and
**     inputs (the VM's own, so that the VM's handlers and the generated
**     code see one state), the steps left, the call depth, whether rolls
**     and draws are watched (then the VM's handlers make them), whether
**     the sink takes shapes (CALLDRAW, SHAPE), notes and steps, and a
**     returned value.
**   rgn_proc: a procedure: runs on the frame b, returns a status. */
#define RGN_ABI_VERSION 3
#define RGN_ABI \
typedef struct rgn_api { \
  int (*exec)(void *vm, uint32_t k, rgi_value *b); \
  int (*failed)(void *vm, uint32_t k, rgi_value *b); \
  int (*limit)(void *vm, int what, uint32_t pc); \
} rgn_api; \
typedef struct rgn_env { \
  void *vm; \
  const rgn_api *api; \
  rgi_value *heap; \
  uint32_t *heap_top; \
  uint64_t heap_cap; \
  uint32_t nheap; \
  const rgi_value *cells; \
  rgi_rng *rng; \
  rgi_value *deck_cards; \
  const uint32_t *deck_off; \
  uint32_t *deck_left; \
  const rgi_value *inputs; \
  const rgi_value *stack_end; \
  uint64_t steps_left; \
  uint64_t *work_left; \
  int depth, watch, shapes, notes, steps; \
  rgi_value rv; \
} rgn_env; \
typedef int (*rgn_proc)(rgn_env *E, rgi_value *b);

RGN_ABI

/* A module's native code, loaded (opaque outside native.c). */
typedef struct rgi_native rgi_native;

/* Builds (or finds in the cache) and loads the native code of the verified
** module m with the C compiler at path cc (an absolute path), caching it in
** directory cache_dir (made 0700 when missing; refused when it is not the
** user's own and private).  Stores the handle in *out (the caller frees it
** with rgi_native_free; it must outlive every VM that uses it), or NULL when
** the tier cannot be had, with the reason in note[0..notelen) (always set:
** "compiled", "cached" or why not).  Returns RG_OK (also when falling back
** to the VM: *out NULL) or RG_NOMEM. */
rg_status rgi_native_build(const rgi_module *m, const char *cc, const char *cache_dir,
                          rgi_native **out, char *note, size_t notelen);

/* Whether n (not NULL) was built from a module whose code, constants and
** tables are m's, into nfcode fast instructions (so that a VM of m, whose fused fast
** code has nfcode instructions, may run it): 1 or 0. */
int rgi_native_fits(const rgi_native *n, const rgi_module *m, uint32_t nfcode);

/* Unloads n (NULL: nothing).  No VM may use it afterwards. */
void rgi_native_free(rgi_native *n);

#endif
