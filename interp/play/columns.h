/*
** columns.h: a result tallied field by field, for sim, sim --variants and
** odds.
**
** A record result is cut into columns, one per field, and a field that is
** itself a record into one per its fields ("final.row"), so that a table or
** a chart shows short values people can read, never whole records cut to
** the same first words.  A field holding a list of records (terrain pieces,
** deployment steps) gives a column per field of its elements
** ("terrain.name"): a run counts once for each value some element has, so
** a share reads "the runs with a Forest among the terrain" and the shares
** of one such column may add up to more than 100%; and one more column,
** "terrain (items)", the list's length.  A record with a form of its own
** (`shown "{col} (row {row})"`), a list of anything else and every other
** type is one column, tallied as a whole.  A result that is not a record is
** one column, "result" (or, a list of records, a column per field).
*/
#ifndef RG_COLUMNS_H
#define RG_COLUMNS_H

#include <stdint.h>

#include "module.h"

#define RG_COLUMN_DEPTH 8     /* most fields between the result and a column */
#define RG_COLUMNS_MAX 256    /* most columns of one result */

/* One column: the fields from the result down to it. */
typedef struct rgi_column {
  char name[160];           /* "terrain.name", "terrain (items)", "result" */
  rgi_type type;             /* its values' type (int for a count) */
  uint32_t depth;           /* steps from the result */
  uint32_t field[RG_COLUMN_DEPTH];   /* step k: this field of a record */
  uint8_t list[RG_COLUMN_DEPTH];     /* step k: of each element of a list of records */
  int any;                  /* some step goes through a list: several values a run */
  int count;                /* the value is the length of the list reached */
} rgi_column;

/* Fills cols[0..*n) (room for RG_COLUMNS_MAX) with the columns of results
** of type t of module m.  Returns 0. */
int rgi_columns_of(const rgi_module *m, rgi_type t, rgi_column *cols, uint32_t *n);

/* Calls fn(ctx, v) for each value of column c in result v (of type *t, the
** one the columns were made for), read from heap[0..nheap): one value, or for a
** column through a list one per element (repeats included: the caller
** counts each distinct value once).  A value out of the heap is skipped.
** Returns 0, or what fn returned when not 0 (which stops the walk). */
int rgi_column_values(const rgi_module *m, const rgi_column *c, const rgi_type *t,
                     const rgi_value *heap, uint32_t nheap, rgi_value v,
                     int (*fn)(void *ctx, rgi_value v), void *ctx);

#endif
