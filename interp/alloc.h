/*
** alloc.h: the one door through which the library asks for heap memory.
**
** Every malloc/realloc/free of interp/ goes through these: to the caller's
** allocator when one is set (rg_set_allocator, regula.h), else to the C
** library's; and a test can fail the Nth allocation (rg_alloc_fail_at; the
** CLI reads RG_ALLOC_FAIL_AT) and check that each failure ends cleanly.
** The allocator, set once before use, and the atomic failure counter, inert
** unless a test sets it, are the only process-wide state of the library.
*/
#ifndef RG_ALLOC_H
#define RG_ALLOC_H

#include <stddef.h>

/* Like malloc/realloc/free; return NULL when an injected failure fires. */
void *rg_malloc(size_t n);
void *rg_realloc(void *p, size_t n);
void rg_free(void *p);
/* rg_alloc_fail_at and rg_set_allocator: see regula.h. */
#include "regula.h"

#endif
