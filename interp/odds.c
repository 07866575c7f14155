/*
** odds.c: the exact distribution of a procedure's result (see odds.h).
*/
#include "odds.h"

#include "alloc.h"

#include <stdio.h>
#include <string.h>

/* Returns the greatest common divisor of a and b (a when b is 0). */
static rg_u128 gcd128(rg_u128 a, rg_u128 b) {
  while (b) {
    rg_u128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* *f += 1/d.  Returns 0, or -1 when a number would not fit. */
static int frac_add_unit(rg_frac *f, rg_u128 d) {
  if (f->num == 0) {
    f->num = 1;
    f->den = d;
    return 0;
  }
  rg_u128 g = gcd128(f->den, d), l, a, b, n;
  if (__builtin_mul_overflow(f->den / g, d, &l)) return -1;
  if (__builtin_mul_overflow(f->num, l / f->den, &a)) return -1;
  b = l / d;
  if (__builtin_add_overflow(a, b, &n)) return -1;
  g = gcd128(n, l);
  f->num = n / g;
  f->den = l / g;
  return 0;
}

char *rg_u128_str(char *buf, rg_u128 x) {
  char tmp[48];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + (int)(x % 10));
    x /= 10;
  } while (x);
  for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
  buf[n] = '\0';
  return buf;
}

char *rg_frac_str(char *buf, const rg_frac *f) {
  char d[48];
  rg_u128_str(buf, f->num);
  strcat(buf, "/");
  strcat(buf, rg_u128_str(d, f->den));
  return buf;
}

long double rg_frac_value(const rg_frac *f) {
  return f->num ? (long double)f->num / (long double)f->den : 0.0L;
}

/* The walk over the tree of draws. */
typedef struct walk {
  uint64_t *idx;            /* outcome taken at each draw of the path */
  uint64_t *n;              /* outcomes of each draw */
  uint32_t cap;
  uint32_t prefix;          /* draws forced from the previous path */
  uint32_t d;               /* draws made in this run */
  uint32_t depth;           /* most draws a path may have */
  int cut;                  /* this run reached the depth */
  int nomem;
  uint64_t expect_paths;    /* paths on which an expectation failed */
  uint32_t expect_pc;       /* where it first did */
  int expect_this;          /* this path failed one already */
} walk;

/* rg_sink expect_fail for walk ctx: counts the path (once) and keeps the
** first failure's pc. */
static void on_expect_fail(void *ctx, const rg_module *m, uint32_t expect, rg_value actual,
                           rg_value expected, uint32_t pc) {
  walk *w = ctx;
  (void)m; (void)expect; (void)actual; (void)expected;
  if (w->expect_this) return;
  w->expect_this = 1;
  if (w->expect_paths++ == 0) w->expect_pc = pc;
}

/* One draw of n outcomes: forced while inside the prefix, else outcome 0. */
static int64_t walk_next(walk *w, uint64_t n) {
  if (w->d >= w->depth) {
    w->cut = 1;
    return -1;
  }
  if (w->d >= w->cap) {
    uint32_t nc = w->cap ? w->cap * 2 : 64;
    uint64_t *ni = rg_realloc(w->idx, (size_t)nc * sizeof *ni);
    if (!ni) { w->nomem = 1; return -1; }
    w->idx = ni;
    uint64_t *nn = rg_realloc(w->n, (size_t)nc * sizeof *nn);
    if (!nn) { w->nomem = 1; return -1; }
    w->n = nn;
    w->cap = nc;
  }
  uint32_t k = w->d++;
  if (k < w->prefix) {
    /* The same prefix makes the same draws: n cannot differ. */
    if (w->n[k] != n || w->idx[k] >= n) return -1;
    return (int64_t)w->idx[k];
  }
  w->n[k] = n;
  w->idx[k] = 0;
  return 0;
}

/* rg_sink chance: a roll or a card is the next draw of walk ctx over its n
** outcomes (walk_next). */
static int64_t on_chance(void *ctx, const rg_module *m, int what, uint32_t index, uint64_t n,
                         uint32_t pc) {
  (void)m; (void)what; (void)index; (void)pc;
  return walk_next(ctx, n);
}

/* rg_sink choose (all_choices): a choice is the next draw of walk ctx over
** its n options (walk_next). */
static int64_t on_choose(void *ctx, const rg_module *m, uint32_t choice, rg_value chooser,
                         const rg_value *options, uint32_t n, uint32_t pc) {
  (void)m; (void)choice; (void)chooser; (void)options; (void)pc;
  return walk_next(ctx, n);
}

/* Adds probability 1/den to slot s of r, growing probs.  Returns 0, or an
** rg_odds_status. */
static rg_odds_status add_prob(rg_odds_result *r, uint32_t *nprobs, int64_t s, rg_u128 den) {
  if (s < 0) return RG_ODDS_NOMEM;
  if ((uint32_t)s >= *nprobs) {
    uint32_t nc = r->tally.cap;
    rg_frac *np = rg_realloc(r->probs, (size_t)nc * sizeof *np);
    if (!np) return RG_ODDS_NOMEM;
    for (uint32_t k = *nprobs; k < nc; k++) np[k] = (rg_frac){ 0, 1 };
    r->probs = np;
    *nprobs = nc;
  }
  return frac_add_unit(&r->probs[s], den) != 0 ? RG_ODDS_OVERFLOW : RG_ODDS_OK;
}

/* The walk of rg_odds_run once its VM is made: returns the status. */
static rg_odds_status enumerate(const rg_odds_opts *o, rg_odds_result *r, rg_vm *vm, walk *w) {
  uint32_t nprobs = 0;
  for (;;) {
    rg_value result = 0;
    rg_u128 den = 1;
    w->d = 0;
    w->cut = 0;
    w->expect_this = 0;
    if (r->paths == o->limit) return RG_ODDS_LIMIT;
    r->paths++;
    rg_status st = rg_vm_call(vm, o->proc, o->args, &result);
    if (w->nomem) return RG_ODDS_NOMEM;
    /* The path's probability: 1 / the product of its draws' outcomes. */
    r->draws = w->d;
    for (uint32_t k = 0; k < w->d; k++)
      if (__builtin_mul_overflow(den, (rg_u128)w->n[k], &den)) return RG_ODDS_TINY;
    if (w->cut) {
      r->cut_paths++;
      if (frac_add_unit(&r->cut, den) != 0) return RG_ODDS_OVERFLOW;
    } else if (st != RG_RUN_OK) {
      const char *msg;
      r->pc = UINT32_MAX;
      msg = rg_vm_error(vm, &r->pc);
      snprintf(r->msg, sizeof r->msg, "%s", msg && *msg ? msg : "the run failed");
      if (r->draws > w->cap) r->draws = w->cap;
      r->idx = w->idx;
      r->n = w->n;
      w->idx = w->n = NULL;
      return RG_ODDS_RUN_FAILED;
    } else {
      uint32_t nheap = 0;
      const rg_value *heap = rg_vm_heap(vm, &nheap);
      rg_odds_status s = add_prob(r, &nprobs, rg_tally_slot(&r->tally, heap, nheap, result), den);
      if (s != RG_ODDS_OK) return s;
    }
    /* Advance the deepest draw with an outcome left. */
    uint32_t k = w->d;
    while (k > 0 && w->idx[k - 1] + 1 >= w->n[k - 1]) k--;
    if (k == 0) return RG_ODDS_OK;
    w->idx[k - 1]++;
    w->prefix = k;
  }
}

rg_odds_status rg_odds_run(const rg_odds_opts *o, rg_odds_result *r) {
  walk w = { .depth = o->depth };
  rg_sink sink = { .ctx = &w, .chance = on_chance, .choose = o->all_choices ? on_choose : NULL,
                   .expect_fail = on_expect_fail };
  rg_vm *vm;
  memset(r, 0, sizeof *r);
  r->cut = (rg_frac){ 0, 1 };
  rg_tally_init(&r->tally, o->m, o->m->procs[o->proc].result);
  vm = rg_vm_new(o->m, o->limits, &sink);
  r->status = vm ? enumerate(o, r, vm, &w) : RG_ODDS_NOMEM;
  r->expect_paths = w.expect_paths;
  r->expect_pc = w.expect_pc;
  rg_vm_free(vm);
  rg_free(w.idx);
  rg_free(w.n);
  return r->status;
}

void rg_odds_free(rg_odds_result *r) {
  rg_tally_free(&r->tally);
  rg_free(r->probs);
  rg_free(r->idx);
  rg_free(r->n);
  memset(r, 0, sizeof *r);
}
