/*
** arena.c: bump allocation for compiler memory (see arena.h).
*/
#include "arena.h"
#include "regula_front.h"

#include <stdint.h>
#include <string.h>

struct rgi_block {
  rgi_block *next;
  size_t size;             /* usable bytes after the header */
  max_align_t data[];
};

#define RG_ARENA_BLOCK 65536

void rgi_arena_init(rgi_arena *a, size_t limit) {
  memset(a, 0, sizeof *a);
  a->limit = limit;
}

void rgi_arena_free(rgi_arena *a) {
  rgi_block *b = a->head;
  while (b) {
    rgi_block *next = b->next;
    rg_free(b);
    b = next;
  }
  a->head = NULL;
  a->used = 0;
  a->total = 0;
}

void *rgi_arena_alloc(rgi_arena *a, size_t n) {
  const size_t align = sizeof(max_align_t);
  if (a->failed) return NULL;
  /* 1 TiB on 64-bit hosts; half the address space on 32-bit ones (wasm) */
  if ((uint64_t)n > ((uint64_t)1 << 40) || n > SIZE_MAX / 2) { a->failed = true; return NULL; }
  n = (n + align - 1) & ~(align - 1);
  if (n == 0) n = align;
  if (!a->head || a->head->size - a->used < n) {
    size_t size = n > RG_ARENA_BLOCK ? n : RG_ARENA_BLOCK;
    rgi_block *b;
    if (a->limit && a->total + size > a->limit) { a->failed = true; return NULL; }
    b = rg_malloc(sizeof *b + size);
    if (!b) { a->failed = true; return NULL; }
    b->next = a->head;
    b->size = size;
    a->head = b;
    a->used = 0;
    a->total += size;
  }
  {
    void *p = (char *)a->head->data + a->used;
    a->used += n;
    memset(p, 0, n);
    return p;
  }
}

char *rgi_arena_strndup(rgi_arena *a, const char *s, size_t n) {
  char *p = rgi_arena_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *rgi_arena_strdup(rgi_arena *a, const char *s) {
  return rgi_arena_strndup(a, s, strlen(s));
}
