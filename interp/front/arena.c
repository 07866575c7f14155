/*
** arena.c: bump allocation for compiler memory (see arena.h).
*/
#include "arena.h"
#include "regula.h"

#include <stdint.h>
#include <string.h>

struct rg_block {
  rg_block *next;
  size_t size;             /* usable bytes after the header */
  max_align_t data[];
};

#define RG_ARENA_BLOCK 65536

void rg_arena_init(rg_arena *a, size_t limit) {
  memset(a, 0, sizeof *a);
  a->limit = limit;
}

void rg_arena_free(rg_arena *a) {
  rg_block *b = a->head;
  while (b) {
    rg_block *next = b->next;
    rg_free(b);
    b = next;
  }
  a->head = NULL;
  a->used = 0;
  a->total = 0;
}

void *rg_arena_alloc(rg_arena *a, size_t n) {
  const size_t align = sizeof(max_align_t);
  if (a->failed) return NULL;
  /* 1 TiB on 64-bit hosts; half the address space on 32-bit ones (wasm) */
  if ((uint64_t)n > ((uint64_t)1 << 40) || n > SIZE_MAX / 2) { a->failed = true; return NULL; }
  n = (n + align - 1) & ~(align - 1);
  if (n == 0) n = align;
  if (!a->head || a->head->size - a->used < n) {
    size_t size = n > RG_ARENA_BLOCK ? n : RG_ARENA_BLOCK;
    rg_block *b;
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

char *rg_arena_strndup(rg_arena *a, const char *s, size_t n) {
  char *p = rg_arena_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *rg_arena_strdup(rg_arena *a, const char *s) {
  return rg_arena_strndup(a, s, strlen(s));
}
