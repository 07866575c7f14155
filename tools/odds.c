/*
** odds.c: `regula odds FILE PROCEDURE ARG...`, the exact distribution of a
** procedure's result.
**
** Every roll of a die and every card drawn is a draw of n equally likely
** outcomes, which the VM asks of the sink's `chance` callback.  The runs
** walk the tree of draws depth-first: a run follows a prefix of forced
** outcome indexes, then takes outcome 0 of every further draw, recording
** each draw's n; the next run advances the deepest draw that has an outcome
** left and drops everything below it.  A path of draws n_1 .. n_k has
** probability 1 / (n_1 * .. * n_k); each result's probability is the sum
** over its paths, kept as an exact fraction (unsigned 128-bit, reduced by
** gcd at every step; a denominator that would not fit stops the command).
**
** Choices take their first option, or with --choices all are enumerated as
** draws too (each option equally likely, as the random policy picks).
**
** A loop that may go on for ever (a roll-off whose ties are rolled again)
** has an infinite tree: a path is cut after --depth draws and its
** probability is reported as unresolved, so the printed fractions are exact
** lower bounds and the unresolved mass is their gap to 1.  (A tie rerolled
** until it breaks leaves (1/6)^k unresolved after k rounds of two d6.)
*/
#include "alloc.h"
#include "cli.h"
#include "tally.h"
#include "value.h"
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define ODDS_DEFAULT_LIMIT 1000000ull
#define ODDS_DEFAULT_DEPTH 200u

const char odds_help[] =
  "Prints the exact distribution of PROCEDURE's result, by running it once\n"
  "for every outcome of every roll and draw: one line per distinct result,\n"
  "in the result's natural order, with its probability as a fraction, as a\n"
  "percent and as a bar.\n"
  "\n"
  "  --limit N          enumerate at most N paths of outcomes (default\n"
  "                     1000000); beyond it use `regula sim`\n"
  "  --depth N          cut a path after N draws (default 200) and report the\n"
  "                     probability of the cut paths as unresolved (loops that\n"
  "                     may never end, such as ties rolled again)\n"
  "  --choices first|all  a choice takes its first option (default), or every\n"
  "                     option in turn, each equally likely\n"
  "\n"
  "Example: regula odds SHEET.rules weather_score 7 Summer\n"
  "Exit: 0, 1 an expectation failed on some path (the first is named), 2 bad\n"
  "arguments, 3 a runtime error on some path, the path limit reached or a\n"
  "denominator too large.\n";

/* A fraction num/den, den > 0, always reduced. */
typedef struct frac {
  u128 num, den;
} frac;

/* Returns the greatest common divisor of a and b (a when b is 0). */
static u128 gcd128(u128 a, u128 b) {
  while (b) {
    u128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* *f += 1/d.  Returns 0, or -1 when a number would not fit. */
static int frac_add_unit(frac *f, u128 d) {
  if (f->num == 0) {
    f->num = 1;
    f->den = d;
    return 0;
  }
  u128 g = gcd128(f->den, d), l, a, b, n;
  if (__builtin_mul_overflow(f->den / g, d, &l)) return -1;
  if (__builtin_mul_overflow(f->num, l / f->den, &a)) return -1;
  b = l / d;
  if (__builtin_add_overflow(a, b, &n)) return -1;
  g = gcd128(n, l);
  f->num = n / g;
  f->den = l / g;
  return 0;
}

/* Writes x in decimal into buf (at least 40 bytes); returns buf. */
static char *u128_str(char *buf, u128 x) {
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

/* Returns f as a long double (0 when f is 0). */
static long double frac_value(const frac *f) {
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
  int expect_this;          /* this run failed one already */
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

/* rg_sink choose (--choices all): a choice is the next draw of walk ctx over
** its n options (walk_next). */
static int64_t on_choose(void *ctx, const rg_module *m, uint32_t choice, rg_value chooser,
                         const rg_value *options, uint32_t n, uint32_t pc) {
  (void)m; (void)choice; (void)chooser; (void)options; (void)pc;
  return walk_next(ctx, n);
}

/* regula odds FILE PROCEDURE ARG... [--limit N] [--depth N] [--choices
** first|all]: the exact distribution of the procedure's result. */
int cmd_odds(opts *o) {
  uint64_t limit = ODDS_DEFAULT_LIMIT, depth = ODDS_DEFAULT_DEPTH;
  int all_choices = 0;
  char **pos = o->pos;
  int npos = 0;

  for (int i = 0; i < o->npos; i++) {
    const char *a = o->pos[i];
    const char *v = NULL;
    if (strncmp(a, "--", 2) != 0 || !a[2]) { pos[npos++] = o->pos[i]; continue; }
    if (cli_option(o->pos, o->npos, &i, "--limit", &v)) {
      if (cli_parse_count(v, &limit, 0)) return usage_error("odds", "--limit needs a positive whole number");
    } else if (cli_option(o->pos, o->npos, &i, "--depth", &v)) {
      if (cli_parse_count(v, &depth, 0) || depth > 100000)
        return usage_error("odds", "--depth needs a whole number in 1..100000");
    } else if (cli_option(o->pos, o->npos, &i, "--choices", &v)) {
      if (v && strcmp(v, "all") == 0) all_choices = 1;
      else if (v && strcmp(v, "first") == 0) all_choices = 0;
      else return usage_error("odds", "--choices is first or all");
    } else {
      return usage_error("odds", "unknown option '%s'", a);
    }
  }
  if (npos < 2) return usage_error("odds", npos ? "no procedure given" : "no rule file given");

  loaded l;
  int rc = load(&l, pos[0], 0);
  if (rc != EX_OK) {
    unload(&l);
    return rc;
  }
  const rg_module *m = &l.m;
  rg_value *args = NULL;
  int pi = tally_resolve(m, "odds", pos[1], pos + 2, npos - 2, &args);
  if (pi < 0) {
    unload(&l);
    return pi == -2 ? EX_RUNTIME : EX_BAD;
  }
  const rg_proc *p = &m->procs[pi];

  walk w = { .depth = (uint32_t)depth };
  rg_sink sink = { .ctx = &w, .chance = on_chance, .choose = all_choices ? on_choose : NULL,
                   .expect_fail = on_expect_fail };
  rg_vm *vm = rg_vm_new(m, &o->limits, &sink);
  tally t;
  tally_init(&t, m, p->result);
  frac *probs = NULL;
  uint32_t nprobs = 0;
  frac cut = { 0, 1 };
  uint64_t paths = 0, cut_paths = 0;
  if (!vm) {
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
    goto done;
  }

  for (;;) {
    rg_value result = 0;
    w.d = 0;
    w.cut = 0;
    w.expect_this = 0;
    if (paths == limit) {
      fprintf(stderr,
              "regula: error: more than %llu paths of outcomes to enumerate; raise --limit or "
              "estimate with `regula sim", (unsigned long long)limit);
      for (int k = 0; k < npos; k++) fprintf(stderr, " %s", pos[k]);
      fputs(" --runs 100000`\n", stderr);
      rc = EX_RUNTIME;
      goto done;
    }
    paths++;
    rg_status st = rg_vm_call(vm, (uint32_t)pi, args, &result);
    if (w.nomem) {
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
      goto done;
    }
    /* The path's probability: 1 / the product of its draws' outcomes. */
    u128 den = 1;
    for (uint32_t k = 0; k < w.d; k++) {
      if (__builtin_mul_overflow(den, (u128)w.n[k], &den)) {
        fprintf(stderr, "regula: error: a path of %u draws has a probability too small for "
                        "128-bit fractions; estimate with `regula sim`\n", (unsigned)w.d);
        rc = EX_RUNTIME;
        goto done;
      }
    }
    if (w.cut) {
      cut_paths++;
      if (frac_add_unit(&cut, den) != 0) goto overflow;
    } else if (st != RG_RUN_OK) {
      uint32_t epc = UINT32_MAX;
      const char *msg = rg_vm_error(vm, &epc);
      report_runtime(m, msg && *msg ? msg : "the run failed", epc);
      fprintf(stderr, "regula: on the path of outcomes (1-based):");
      for (uint32_t k = 0; k < w.d && k < w.cap; k++)
        fprintf(stderr, " %llu/%llu", (unsigned long long)w.idx[k] + 1,
                (unsigned long long)w.n[k]);
      fputc('\n', stderr);
      rc = EX_RUNTIME;
      goto done;
    } else {
      uint32_t nheap = 0;
      const rg_value *heap = rg_vm_heap(vm, &nheap);
      int64_t s = tally_slot(&t, heap, nheap, result);
      if (s < 0) {
        fputs("regula: error: out of memory\n", stderr);
        rc = EX_RUNTIME;
        goto done;
      }
      if ((uint32_t)s >= nprobs) {
        uint32_t nc = t.cap;
        frac *np = rg_realloc(probs, (size_t)nc * sizeof *np);
        if (!np) {
          fputs("regula: error: out of memory\n", stderr);
          rc = EX_RUNTIME;
          goto done;
        }
        for (uint32_t k = nprobs; k < nc; k++) np[k] = (frac){ 0, 1 };
        probs = np;
        nprobs = nc;
      }
      if (frac_add_unit(&probs[s], den) != 0) goto overflow;
    }
    /* Advance the deepest draw with an outcome left. */
    uint32_t k = w.d;
    while (k > 0 && w.idx[k - 1] + 1 >= w.n[k - 1]) k--;
    if (k == 0) break;
    w.idx[k - 1]++;
    w.prefix = k;
  }

  {
    uint32_t *order = rg_malloc(((size_t)t.n + 1) * sizeof *order);
    if (!order) {
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
      goto done;
    }
    tally_order(&t, order);
    size_t wtext = 6, wfrac = 11;
    long double maxp = 0;
    char nb[48], db[48], fb[100];
    for (uint32_t k = 0; k < t.n; k++) {
      size_t n = strlen(t.keys[k].text);
      if (n > wtext) wtext = n;
      snprintf(fb, sizeof fb, "%s/%s", u128_str(nb, probs[k].num), u128_str(db, probs[k].den));
      if (strlen(fb) > wfrac) wfrac = strlen(fb);
      if (cut.num) {
        snprintf(fb, sizeof fb, "%s/%s", u128_str(nb, cut.num), u128_str(db, cut.den));
        if (strlen(fb) > wfrac) wfrac = strlen(fb);
      }
      if (frac_value(&probs[k]) > maxp) maxp = frac_value(&probs[k]);
    }
    if (cut.num && wtext < 12) wtext = 12;   /* "(unresolved)" */
    if (wtext > 40) wtext = 40;
    printf("%-*s  %*s  %7s\n", (int)wtext, "result", (int)wfrac, "probability", "percent");
    for (uint32_t j = 0; j < t.n; j++) {
      uint32_t k = order[j];
      long double pv = frac_value(&probs[k]);
      int bar = maxp > 0 ? (int)(pv / maxp * 40.0L + 0.5L) : 0;
      snprintf(fb, sizeof fb, "%s/%s", u128_str(nb, probs[k].num), u128_str(db, probs[k].den));
      printf("%-*s  %*s  %6.2Lf%%  ", (int)wtext, t.keys[k].text, (int)wfrac, fb, pv * 100.0L);
      for (int b = 0; b < bar; b++) putchar('#');
      putchar('\n');
    }
    if (cut.num) {
      snprintf(fb, sizeof fb, "%s/%s", u128_str(nb, cut.num), u128_str(db, cut.den));
      printf("%-*s  %*s  %6.2Lf%%\n", (int)wtext, "(unresolved)", (int)wfrac, fb,
             frac_value(&cut) * 100.0L);
    }
    printf("%llu path%s enumerated", (unsigned long long)paths, paths == 1 ? "" : "s");
    if (cut_paths)
      printf("; %llu cut after %llu draws: their probability is unresolved, the fractions "
             "above are exact lower bounds", (unsigned long long)cut_paths,
             (unsigned long long)depth);
    printf("\n");
    rg_free(order);
  }
  rc = EX_OK;
  if (w.expect_paths) {
    /* A failed expectation is a finding (exit 1), as in every command. */
    const char *path;
    uint32_t line, col;
    fflush(stdout);
    if (locate(m, w.expect_pc, &path, &line, &col) == 0)
      fprintf(stderr, "%s:%u: an expectation failed\n", path, line);
    fprintf(stderr, "regula: expectations failed on %llu of %llu paths\n",
            (unsigned long long)w.expect_paths, (unsigned long long)paths);
    rc = EX_FINDINGS;
  }
  goto done;

overflow:
  fputs("regula: error: a probability needs a denominator beyond 128 bits; estimate with "
        "`regula sim`\n", stderr);
  rc = EX_RUNTIME;
done:
  rg_free(probs);
  rg_free(w.idx);
  rg_free(w.n);
  tally_free(&t);
  rg_vm_free(vm);
  rg_free(args);
  unload(&l);
  return rc;
}
