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

typedef struct rg_block rg_block;

typedef struct rg_arena {
  rg_block *head;          /* newest block first */
  size_t used;             /* bytes used in head */
  size_t total;            /* bytes obtained from malloc, all blocks */
  size_t limit;            /* 0: no limit; else most bytes to obtain */
  bool failed;             /* an allocation has failed */
} rg_arena;

/* Sets up an empty arena with an optional byte limit (0 for none). */
void rg_arena_init(rg_arena *a, size_t limit);
/* Frees every block of the arena; the arena may be reused after init. */
void rg_arena_free(rg_arena *a);
/* Returns n zeroed bytes aligned for any type, or NULL on failure. */
void *rg_arena_alloc(rg_arena *a, size_t n);
/* Returns an arena copy of s[0..n) with a NUL after it, or NULL. */
char *rg_arena_strndup(rg_arena *a, const char *s, size_t n);
/* Returns an arena copy of the NUL-terminated s, or NULL. */
char *rg_arena_strdup(rg_arena *a, const char *s);

#endif
