/*
** grow.h: the one way the library grows an array it owns (doubling its
** capacity through rg_realloc, with the sizes checked) and the one way it
** builds an open-addressing index over such an array (alloc.c).
*/
#ifndef RG_GROW_H
#define RG_GROW_H

#include <stddef.h>
#include <stdint.h>

/* Grows array p of *cap elements of elt bytes to twice as many (first
** when *cap is 0).  Returns the array, moved or not, with *cap updated; or
** NULL, p and *cap unchanged (p still the caller's), when memory runs out or
** the new size would not fit a uint32_t count or a size_t. */
void *rgi_grow(void *p, uint32_t *cap, uint32_t first, size_t elt);

/* Builds an index of entries 0..n-1 in cap buckets (a power of two above
** n): entry k goes to the bucket hash(ctx, k) picks (its low bits), or
** the next free one after it, which holds k + 1 (0: empty).  Returns the
** buckets (rg_malloc'd, the caller's), or NULL when memory runs out or cap
** is no power of two above n. */
uint32_t *rgi_index(uint32_t n, uint32_t cap, uint64_t (*hash)(const void *ctx, uint32_t k),
                    const void *ctx);

#endif
