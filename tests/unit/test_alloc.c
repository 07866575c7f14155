/*
** test_alloc.c: the allocator hook (rg_set_allocator in regula.h).
**
** A counting allocator is set before anything else; compiling and running
** rules from regula.h must allocate through it, and free all of it.
*/
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond, ...) do { \
    if (cond) passed++; \
    else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); \
           putchar('\n'); } \
  } while (0)

/* What the allocator saw. */
typedef struct counts {
  long allocs, frees, live;
} counts;

/* A counting allocator over realloc and free (lua_Alloc's contract). */
static void *counting(void *ud, void *ptr, size_t size) {
  counts *c = ud;
  if (size == 0) {
    if (ptr) { c->frees++; c->live--; }
    free(ptr);
    return NULL;
  }
  if (!ptr) { c->allocs++; c->live++; }
  return realloc(ptr, size);
}

int main(void) {
  static counts c;
  static const char text[] =
    "ruleset \"alloc\"\n"
    "table t(n: 1..3) -> int { 1: 10, 2: 20, 3: 30 }\n"
    "procedure main() -> int { let s = 0\n for i in 1..3 { s = s + t[i] }\n return s }\n";
  rg_rules *r = NULL;
  rg_run *run = NULL;
  char result[32] = "";
  CHECK(rg_set_allocator(counting, &c) == RG_OK, "alloc-1 set");
  CHECK(rg_rules_compile("a.rules", text, strlen(text), NULL, &r) == RG_OK, "alloc-1 compile");
  CHECK(c.allocs > 0, "alloc-1 the compile allocated through the hook (%ld)", c.allocs);
  if (r && rg_run_new(r, NULL, &run) == RG_OK && rg_run_call(run, "main", NULL, 0) == RG_OK)
    rg_run_result(run, result, sizeof result);
  CHECK(strcmp(result, "60") == 0, "alloc-2 result '%s'", result);
  rg_run_free(run);
  rg_rules_free(r);
  CHECK(c.live == 0 && c.frees == c.allocs, "alloc-3 all freed: %ld allocs, %ld frees", c.allocs,
        c.frees);
  /* Injected failures end in RG_NOMEM, never a crash or a leak. */
  for (unsigned long k = 1; k < 400; k++) {
    rg_status st;
    r = NULL;
    rg_alloc_fail_at(k);
    st = rg_rules_compile("a.rules", text, strlen(text), NULL, &r);
    rg_alloc_fail_at(0);
    if (st == RG_OK) { rg_rules_free(r); break; }
    CHECK(st == RG_NOMEM && r == NULL, "alloc-4 failure %lu gives %s", k, rg_status_name(st));
  }
  CHECK(c.live == 0, "alloc-4 nothing left after failures: %ld", c.live);
  printf("test_alloc: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
