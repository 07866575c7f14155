/*
** grow.h: the one way the library grows an array it owns: doubling its
** capacity through rg_realloc (alloc.c), with the sizes checked.
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

#endif
