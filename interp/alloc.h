/*
** alloc.h: the one door through which the library asks for heap memory.
**
** Every malloc/realloc/free of interp/ goes through these, so a test build can
** fail the Nth allocation (RG_ALLOC_FAIL_AT in the environment, read by the
** CLI through rg_alloc_fail_at) and check that each failure ends cleanly.
** The counter is the only process-wide state of the library, and it is inert
** unless a test sets it.
*/
#ifndef RG_ALLOC_H
#define RG_ALLOC_H

#include <stddef.h>

/* Like malloc/realloc/free; return NULL when an injected failure fires. */
void *rg_malloc(size_t n);
void *rg_realloc(void *p, size_t n);
void rg_free(void *p);
/* Makes the nth allocation from now on fail (0 turns injection off). */
void rg_alloc_fail_at(unsigned long n);

#endif
