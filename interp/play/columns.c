/*
** columns.c: a result tallied field by field (see columns.h).
*/
#include "columns.h"

#include <stdio.h>
#include <string.h>

/* Whether values of type t are cut into columns: a record without a form
** of its own, or a list of them.  (The module is verified: every type's
** reference, and every record's fields, are in range.) */
static int split(const rgi_module *m, rgi_type t) {
  if (t.kind == RG_K_LIST) t = m->types[t.ref];
  return t.kind == RG_K_RECORD && m->records[t.ref].shown == 0;
}

/* Adds the columns of type t (reached by the steps of *at, named prefix)
** to cols[0..*n).  depth counts the steps. */
static void add(const rgi_module *m, rgi_type t, rgi_column *at, const char *prefix, rgi_column *cols,
                uint32_t *n) {
  if (*n >= RG_COLUMNS_MAX) return;
  /* A list inside a list's elements is one value, not split again: the
  ** values a column hands over a run are then at most the heap's cells (a
  ** list of lists of ... each split would hand over their product). */
  if (!split(m, t) || at->depth >= RG_COLUMN_DEPTH || (at->any && t.kind == RG_K_LIST)) {
    rgi_column *c = &cols[(*n)++];
    *c = *at;
    c->type = t;
    snprintf(c->name, sizeof c->name, "%s", *prefix ? prefix : "result");
    return;
  }
  int list = t.kind == RG_K_LIST;
  if (list) {
    /* first the list's length, then a column per field of its elements */
    rgi_column *c = &cols[(*n)++];
    *c = *at;
    c->count = 1;
    c->type = (rgi_type){ .kind = RG_K_INT };
    snprintf(c->name, sizeof c->name, "%s (items)", *prefix ? prefix : "result");
    t = m->types[t.ref];
  }
  const rgi_record *r = &m->records[t.ref];
  for (uint32_t k = 0; k < r->count; k++) {
    const rgi_field_info *f = &m->fields[r->first + k];
    rgi_column step = *at;
    char name[160];
    step.field[step.depth] = k;
    step.list[step.depth] = (uint8_t)list;
    step.depth++;
    step.any |= list;
    snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "", rgi_module_str(m, f->name));
    add(m, f->type, &step, name, cols, n);
  }
}

int rgi_columns_of(const rgi_module *m, rgi_type t, rgi_column *cols, uint32_t *n) {
  rgi_column top;
  memset(&top, 0, sizeof top);
  *n = 0;
  add(m, t, &top, "", cols, n);
  return 0;
}

/* Takes field f of record value v of record type rt, then walks on from
** step k + 1 (rgi_column_values). */
static int walk(const rgi_module *m, const rgi_column *c, uint32_t k, rgi_type t, const rgi_value *heap,
                uint32_t nheap, rgi_value v, int (*fn)(void *ctx, rgi_value v), void *ctx);

static int take_field(const rgi_module *m, const rgi_column *c, uint32_t k, uint32_t rt,
                      const rgi_value *heap, uint32_t nheap, rgi_value v,
                      int (*fn)(void *ctx, rgi_value v), void *ctx) {
  const rgi_record *r = &m->records[rt];
  uint32_t f = c->field[k];
  if (f >= r->count || v < 0 || (uint64_t)v + r->count > nheap) return 0;
  return walk(m, c, k + 1, m->fields[r->first + f].type, heap, nheap, heap[v + f], fn, ctx);
}

/* The walk of rgi_column_values from step k, at value v of type t. */
static int walk(const rgi_module *m, const rgi_column *c, uint32_t k, rgi_type t, const rgi_value *heap,
                uint32_t nheap, rgi_value v, int (*fn)(void *ctx, rgi_value v), void *ctx) {
  if (k == c->depth) {
    if (!c->count) return fn(ctx, v);
    if (v < 0 || (uint64_t)v >= nheap) return 0;
    return fn(ctx, heap[v]);
  }
  if (c->list[k]) {
    /* field[k] of each element of a list of records */
    if (t.kind != RG_K_LIST || v < 0 || (uint64_t)v >= nheap) return 0;
    rgi_value len = heap[v];
    rgi_type et = m->types[t.ref];
    if (et.kind != RG_K_RECORD || len < 0 || (uint64_t)len > (uint64_t)nheap - (uint64_t)v - 1)
      return 0;
    for (rgi_value i = 0; i < len; i++) {
      int rc = take_field(m, c, k, et.ref, heap, nheap, heap[v + 1 + i], fn, ctx);
      if (rc) return rc;
    }
    return 0;
  }
  if (t.kind != RG_K_RECORD) return 0;
  return take_field(m, c, k, t.ref, heap, nheap, v, fn, ctx);
}

int rgi_column_values(const rgi_module *m, const rgi_column *c, const rgi_type *t,
                     const rgi_value *heap, uint32_t nheap, rgi_value v,
                     int (*fn)(void *ctx, rgi_value v), void *ctx) {
  return walk(m, c, 0, *t, heap, nheap, v, fn, ctx);
}
