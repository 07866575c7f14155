/*
** alloc.c: heap allocation with optional failure injection (see alloc.h).
*/
#include "alloc.h"

#include <stdlib.h>

static unsigned long fail_at;     /* 0: never fail */
static unsigned long count;

void rg_alloc_fail_at(unsigned long n) {
  fail_at = n;
  count = 0;
}

/* Returns 1 when this allocation is the one chosen to fail. */
static int should_fail(void) {
  if (!fail_at) return 0;
  return ++count == fail_at;
}

void *rg_malloc(size_t n) {
  if (should_fail()) return NULL;
  return malloc(n ? n : 1);
}

void *rg_realloc(void *p, size_t n) {
  if (should_fail()) return NULL;
  return realloc(p, n ? n : 1);
}

void rg_free(void *p) {
  free(p);
}
