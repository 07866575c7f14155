/*
** check.h: what every unit test shares: the counts of checks passed and
** failed, CHECK, the summary line, and a counting allocator over realloc
** and free (lua_Alloc's contract, for rg_set_allocator).  Each test is one
** C file that includes this once; its definitions are static.
*/
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int passed, failed;

/* Counts cond as passed, or as failed with the file, the line and a
** printf-style message. */
#define CHECK(cond, ...) do { \
    if (cond) passed++; \
    else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); \
           putchar('\n'); } \
  } while (0)

/* Prints "name: P passed, F failed"; returns main's exit status (1 when a
** check failed). */
static inline int check_done(const char *name) {
  printf("%s: %d passed, %d failed\n", name, passed, failed);
  return failed != 0;
}

/* What the counting allocator saw: calls counts every request to allocate
** or resize that reached it, allocs the new blocks among them, frees the
** blocks freed, live the blocks not yet freed.  When fail_at is N > 0 the
** N-th request fails (returns NULL) and hit says it came: a round that
** succeeds with hit set swallowed a failure. */
typedef struct check_counts {
  long calls, allocs, frees, live;
  long fail_at;
  int hit;
} check_counts;

/* The counting allocator: ud is the check_counts to count in (the caller
** owns it).  Allocates, resizes and frees with realloc and free. */
static inline void *check_counting(void *ud, void *ptr, size_t size) {
  check_counts *c = ud;
  if (size == 0) {
    if (ptr) { c->frees++; c->live--; }
    free(ptr);
    return NULL;
  }
  if (++c->calls == c->fail_at) {
    c->hit = 1;
    return NULL;
  }
  if (!ptr) { c->allocs++; c->live++; }
  return realloc(ptr, size);
}

#endif
