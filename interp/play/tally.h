/*
** tally.h: distinct results of many runs, for exact odds and simulations.
**
** A tally maps each distinct value of one type to a slot (0, 1, ...).  A
** scalar (int, bool, percent, text, distance, member, set) is its own key;
** a list or a record lives on a VM heap that every run resets, so it is
** keyed by its text (rgi_value_format) and, when its elements or fields are
** all scalars, by a copy of them too, which orders it.  Slots are sorted by
** the values' natural order: numbers and members by value, text
** alphabetically, lists and records element by element (then by text).
*/
#ifndef RG_TALLY_H
#define RG_TALLY_H

#include <stdint.h>
#include <stddef.h>

#include "module.h"

typedef struct rgi_tally_key {
  rgi_value v;               /* a scalar's value */
  char *text;               /* the value as people read it (owned) */
  rgi_value *vec;            /* a list's elements or a record's fields, or NULL */
  uint32_t nvec;
} rgi_tally_key;

/* How many small scalar values (0, 1, ...) a tally finds by index. */
#define RG_TALLY_SMALL 64

typedef struct rgi_tally {
  const rgi_module *m;
  rgi_type type;
  int compound;             /* 1: a list or a record (keyed by text) */
  rgi_tally_key *keys;       /* slot k's key */
  uint32_t n, cap;
  uint32_t *hash;           /* open addressing: slot + 1, 0 empty */
  uint32_t hcap;            /* a power of two */
  uint32_t limit;           /* most distinct values kept (0: no limit) */
  uint32_t small[RG_TALLY_SMALL];  /* a scalar v in 0..RG_TALLY_SMALL-1 met before: its
                                  ** slot + 1 (0: not yet), found without hashing */
  /* A list or record seen before is found without its text: by the values
  ** it is made of, read in type order (its "flat" form: lists as their
  ** length then elements, records as their fields, scalars as themselves).
  ** flat[k] names a run of fpool and the slot its text went to; several
  ** flat forms may share a slot (texts cut short). */
  struct rgi_tally_flat { uint64_t hash; uint32_t off, len, slot; } *flat;
  uint32_t nflat, flatcap;
  uint32_t *fhash;          /* open addressing over flat: index + 1, 0 empty */
  uint32_t fhcap;           /* a power of two */
  rgi_value *fpool;          /* the flat forms, end to end */
  uint32_t fpn, fpcap;
} rgi_tally;

/* Sets t up for values of type ty of module m. */
void rgi_tally_init(rgi_tally *t, const rgi_module *m, rgi_type ty);

/* Frees what t holds. */
void rgi_tally_free(rgi_tally *t);

/* Returns the slot of value v (records and lists read from heap[0..nheap)),
** adding it when new; -1 when out of memory, -3 when new and the tally
** already holds `limit` values. */
int64_t rgi_tally_slot(rgi_tally *t, const rgi_value *heap, uint32_t nheap, rgi_value v);

/* Returns the slot of the key with the given text, adding a copy of key
** (text and vec) when new (for merging tallies); -1 when out of memory. */
int64_t rgi_tally_slot_key(rgi_tally *t, const rgi_tally_key *key);

/* Stores in order[0..t->n) the slots sorted by their values' natural
** order.  Returns 0, or -1 when out of memory. */
int rgi_tally_order(const rgi_tally *t, uint32_t *order);

/* Orders the texts of tallies t[0..nt) (several rule sets' values of one
** field) as one list: t[0]'s in their natural order, then each later
** tally's texts not met yet, each right after the text before it in that
** tally's order (first when none), so that a member a revision adds to an
** enum stands where its enum puts it.  Stores the texts (owned by the
** tallies) in out[0..*n) (room for the sum of their n).  Returns 0, or -1
** when out of memory. */
int rgi_tally_union_order(const rgi_tally *const *t, uint32_t nt, const char **out, uint32_t *n);

#endif
