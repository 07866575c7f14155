/*
** alloc.c: heap allocation through the caller's allocator, with optional
** failure injection (rg_malloc, rg_set_allocator, rg_alloc_fail_at in
** regula.h).
**
** The one door through which the library asks for heap memory: every
** malloc/realloc/free of interp/ goes through rg_malloc, rg_realloc and
** rg_free (the CLI reads RG_ALLOC_FAIL_AT for its fault-injection tests).
**
** The allocator is set once, before the library is used (as sqlite3_config
** does), and only read afterwards.  The failure counter is atomic, so the
** threads of a simulation count their allocations together.
*/
#include "regula_front.h"
#include "grow.h"

#include <jansson.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static rg_alloc_fn alloc_fn;        /* NULL: malloc, realloc, free */
static void *alloc_ud;
static atomic_ulong fail_at;        /* 0: never fail */
static atomic_ulong count;

/* jansson's allocation functions: the library's (so that the JSON the
** library builds and reads is counted, can be made to fail, and goes
** through the caller's allocator). */
static void *json_alloc(size_t n) { return rg_malloc(n); }
static void json_release(void *p) { rg_free(p); }

rg_status rg_set_allocator(rg_alloc_fn fn, void *ud) {
  alloc_fn = fn;
  alloc_ud = ud;
  json_set_alloc_funcs(json_alloc, json_release);
  return RG_OK;
}

void rg_alloc_fail_at(unsigned long n) {
  json_set_alloc_funcs(json_alloc, json_release);
  atomic_store(&count, 0);
  atomic_store(&fail_at, n);
}

/* Returns 1 when this allocation is the one chosen to fail. */
static int should_fail(void) {
  unsigned long at = atomic_load_explicit(&fail_at, memory_order_relaxed);
  if (!at) return 0;
  return atomic_fetch_add(&count, 1) + 1 == at;
}

void *rg_malloc(size_t n) {
  if (should_fail()) return NULL;
  if (alloc_fn) return alloc_fn(alloc_ud, NULL, n ? n : 1);
  return malloc(n ? n : 1);
}

void *rg_realloc(void *p, size_t n) {
  if (should_fail()) return NULL;
  if (alloc_fn) return alloc_fn(alloc_ud, p, n ? n : 1);
  return realloc(p, n ? n : 1);
}

void rg_free(void *p) {
  if (alloc_fn) {
    if (p) alloc_fn(alloc_ud, p, 0);
    return;
  }
  free(p);
}

void *rgi_grow(void *p, uint32_t *cap, uint32_t first, size_t elt) {
  uint64_t n = *cap ? (uint64_t)*cap * 2 : first;
  if (n > UINT32_MAX || elt == 0 || n > SIZE_MAX / elt) return NULL;
  void *q = rg_realloc(p, (size_t)n * elt);
  if (q) *cap = (uint32_t)n;
  return q;
}

uint32_t *rgi_index(uint32_t n, uint32_t cap, uint64_t (*hash)(const void *ctx, uint32_t k),
                    const void *ctx) {
  if (cap == 0 || (cap & (cap - 1)) || n >= cap) return NULL;
  uint32_t *b = rg_malloc((size_t)cap * sizeof *b);
  if (!b) return NULL;
  memset(b, 0, (size_t)cap * sizeof *b);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = (uint32_t)hash(ctx, k) & (cap - 1);
    while (b[i]) i = (i + 1) & (cap - 1);
    b[i] = k + 1;
  }
  return b;
}
