/*
** test_grow.c: rgi_grow and rgi_index (grow.h), the library's one way to
** grow an array and to index one, and rg_malloc's zero-byte request: each
** case worked out by hand from grow.h's contract.  Cases are named grow-N.
*/
#include <stdio.h>
#include <string.h>

#include "grow.h"
#include "regula_front.h"
#include "check.h"

/* A hash that sends every entry to bucket ctx (an int): they collide. */
static uint64_t same(const void *ctx, uint32_t k) {
  (void)k;
  return (uint64_t)*(const int *)ctx;
}

/* The identity hash: entry k to bucket k. */
static uint64_t ident(const void *ctx, uint32_t k) {
  (void)ctx;
  return k;
}

int main(void) {
  uint32_t cap = 0;
  int *a = rgi_grow(NULL, &cap, 4, sizeof *a), *b;
  CHECK(a && cap == 4, "grow-1 the first size: %u", cap);
  a[3] = 7;
  b = rgi_grow(a, &cap, 4, sizeof *a);
  CHECK(b && cap == 8 && b[3] == 7, "grow-2 doubled, kept: %u", cap);
  a = b;
  /* past a uint32_t count: refused, the array and its count unchanged */
  cap = 0x80000000u;
  CHECK(rgi_grow(a, &cap, 4, sizeof *a) == NULL && cap == 0x80000000u, "grow-3 count overflow");
  cap = 8;
  CHECK(rgi_grow(a, &cap, 4, 0) == NULL && cap == 8, "grow-4 elements of no size");
  CHECK(rgi_grow(a, &cap, 4, SIZE_MAX / 8) == NULL && cap == 8, "grow-5 bytes overflow");
  /* a failed allocation: NULL, the array still the caller's */
  rg_alloc_fail_at(1);
  b = rgi_grow(a, &cap, 4, sizeof *a);
  rg_alloc_fail_at(0);
  CHECK(b == NULL && cap == 8 && a[3] == 7, "grow-6 out of memory");
  rg_free(a);

  {
    int at = 5;
    uint32_t *ix = rgi_index(3, 8, same, &at);
    /* entries 0, 1, 2 all hash to 5: buckets 5, 6, 7 hold 1, 2, 3 */
    CHECK(ix && ix[5] == 1 && ix[6] == 2 && ix[7] == 3 && ix[0] == 0 && ix[4] == 0,
          "grow-7 collisions go to the next free bucket");
    rg_free(ix);
    at = 7;
    ix = rgi_index(2, 4, same, &at);
    CHECK(ix && ix[3] == 1 && ix[0] == 2, "grow-8 past the last bucket wraps to the first");
    rg_free(ix);
    ix = rgi_index(4, 8, ident, NULL);
    CHECK(ix && ix[0] == 1 && ix[3] == 4 && ix[4] == 0, "grow-9 no collisions");
    rg_free(ix);
    CHECK(rgi_index(3, 6, ident, NULL) == NULL, "grow-10 6 buckets: no power of two");
    CHECK(rgi_index(4, 4, ident, NULL) == NULL, "grow-11 no bucket free");
    CHECK(rgi_index(0, 0, ident, NULL) == NULL, "grow-12 no buckets");
    rg_alloc_fail_at(1);
    ix = rgi_index(2, 4, ident, NULL);
    rg_alloc_fail_at(0);
    CHECK(ix == NULL, "grow-13 out of memory");
  }
  {
    /* rg_malloc(0) and rg_realloc(p, 0) give a block (of one byte), not
    ** NULL: a caller tells failure by NULL alone */
    char *p = rg_malloc(0), *q;
    CHECK(p != NULL, "grow-14 malloc of 0 bytes");
    q = rg_realloc(p, 0);
    CHECK(q != NULL, "grow-15 realloc to 0 bytes");
    rg_free(q);
  }
  return check_done("test_grow");
}
