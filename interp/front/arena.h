/*
** arena.h: bump allocation for compiler memory.
**
** An arena hands out memory from large blocks and frees it all at once.  The
** compiler keeps its syntax tree, names and scratch tables here, so a compile
** leaks nothing whatever error stops it.  Allocation failure is reported by a
** NULL return and a sticky `failed` flag, never by aborting.
*/
#ifndef RG_ARENA_H
#define RG_ARENA_H

#include <stddef.h>
#include <stdbool.h>

typedef struct rgi_block rgi_block;

typedef struct rgi_arena {
  rgi_block *head;          /* newest block first */
  size_t used;             /* bytes used in head */
  size_t total;            /* bytes obtained from malloc, all blocks */
  size_t limit;            /* 0: no limit; else most bytes to obtain */
  bool failed;             /* an allocation has failed */
} rgi_arena;

/* Sets up an empty arena with an optional byte limit (0 for none). */
void rgi_arena_init(rgi_arena *a, size_t limit);
/* Frees every block of the arena; the arena may be reused after init. */
void rgi_arena_free(rgi_arena *a);
/* Returns n zeroed bytes aligned for any type, or NULL on failure. */
void *rgi_arena_alloc(rgi_arena *a, size_t n);
/* Returns an arena copy of s[0..n) with a NUL after it, or NULL. */
char *rgi_arena_strndup(rgi_arena *a, const char *s, size_t n);
/* Returns an arena copy of the NUL-terminated s, or NULL. */
char *rgi_arena_strdup(rgi_arena *a, const char *s);

#endif
