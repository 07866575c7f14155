/*
** strategy.c: a player's strategy answering choices (see strategy.h).
*/
#include "strategy.h"

/* The key by which pick p compares option v: v itself, or its field. */
static rgi_value key(const rgi_pick *p, rgi_value v, const rgi_value *heap, uint32_t nheap) {
  if (!p->field) return v;
  if (v < 0 || (uint64_t)v + p->field > nheap) return 0;   /* not a record of the heap */
  return heap[v + p->field - 1];
}

/* Applies pick p to opts[0..n): the option's index, -1 (nothing), or -2 (a
** random pick without rng). */
static int64_t apply(const rgi_pick *p, const rgi_value *opts, uint32_t n, const rgi_value *heap,
                     uint32_t nheap, rgi_rng *rng) {
  int64_t best = -1;
  rgi_value bk = 0;
  switch (p->kind) {
  case RG_PICK_VALUE:
    for (uint32_t k = 0; k < n; k++)
      if (opts[k] == p->value) return k;
    return -1;
  case RG_PICK_MAX:
  case RG_PICK_MIN:
    for (uint32_t k = 0; k < n; k++) {
      rgi_value v = key(p, opts[k], heap, nheap);
      if (best < 0 || (p->kind == RG_PICK_MAX ? v > bk : v < bk)) {
        best = k;
        bk = v;
      }
    }
    return best;
  case RG_PICK_FIRST:
    return 0;
  default:
    return rng ? (int64_t)rgi_rng_below(rng, n) : -2;
  }
}

int64_t rgi_strategy_pick(const rgi_module *m, uint32_t s, uint32_t choice, rgi_value chooser,
                         const rgi_value *opts, uint32_t n, const rgi_value *heap, uint32_t nheap,
                         rgi_rng *rng) {
  if (s >= m->nstrategies || choice >= m->nchoices || n == 0) return -1;
  const rgi_strategy *st = &m->strategies[s];
  uint32_t prompt = m->choices[choice].prompt;
  uint32_t lo = st->first, hi = st->first + st->count;
  /* the picks are sorted by prompt (module.c verifies it): the first of
  ** this prompt's, by binary search */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->picks[mid].prompt < prompt) lo = mid + 1;
    else hi = mid;
  }
  for (uint32_t i = lo; i < st->first + st->count && m->picks[i].prompt == prompt; i++) {
    const rgi_pick *p = &m->picks[i];
    if (p->who_set && p->who != chooser) continue;
    /* the rule that applies: its picks in order */
    for (uint32_t rule = p->rule; i < st->first + st->count && m->picks[i].rule == rule; i++) {
      int64_t k = apply(&m->picks[i], opts, n, heap, nheap, rng);
      if (k != -1) return k;
    }
    return -1;
  }
  return -1;
}
