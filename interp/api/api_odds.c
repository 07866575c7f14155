/*
** api_odds.c: exact odds behind regula.h (rgi_exact_*): the options checked
** and turned into odds.h's, the enumeration made, and the distribution
** written as `regula odds` prints it (oddstext.c).
*/
#include "regula_front.h"
#include "api_int.h"
#include "evlog.h"
#include "json.h"
#include "odds.h"
#include "setup.h"

#include <stdio.h>
#include <string.h>

#define DEFAULT_LIMIT 1000000ull
#define DEFAULT_DEPTH 200u

struct rg_exact {
  const rg_rules *r;
  uint32_t proc;
  int strat;                /* the strategy's index, or -1 */
  uint64_t limit, depth;
  rg_exact_options opt;     /* the caller's, with the copies below */
  char *answers;            /* a copy of the answers text, or NULL */
  char answers_name[256];   /* and of their name ("" when none) */
  char label[320];          /* how the header names the policy */
  const char *strategy;     /* the strategy's name (r's), or NULL */
  int done;                 /* res holds the enumeration */
  rgi_odds_result res;
  char why[512];            /* rg_exact_errmsg */
  rgi_value *args;           /* the arguments, parsed (for the header) */
};

rg_status rg_exact_new(const rg_rules *r, const rg_exact_options *given, rg_exact **out) {
  rg_exact_options o, *opt = &o;
  const rg_policy *pol = &o.policy;
  const char *name;
  rgi_value *args = NULL;
  rg_exact *x;
  rg_status st;
  char err[1024];
  int pi, si;
  *out = NULL;
  if (rgi_api_options(&o, sizeof o, given) != 0)
    return rgi_api_fail(r, RG_BAD_VALUE, "odds options without their size (set .size, or use "
                                         "RG_OPTIONS)");
  name = opt->proc ? opt->proc : "main";
  if ((st = rgi_api_counted(r, name, pol->kind, pol->strategy, &pi, &si, err, sizeof err)) !=
      RG_OK)
    return rgi_api_fail(r, st, "%s", err);
  if (pol->kind == RG_CHOOSE_ANSWERS && pol->answers && memchr(pol->answers, '\0', pol->answers_len))
    return rgi_api_fail(r, RG_BAD_VALUE, "the answers hold a NUL byte");
  if ((st = rgi_api_parse_args(r, pi, name, opt->args, opt->nargs, &args, err, sizeof err)) !=
      RG_OK)
    return st == RG_NOMEM ? st : rgi_api_fail(r, st, "%s", err);
  if (!(x = rg_malloc(sizeof *x))) {
    rg_free(args);
    return RG_NOMEM;
  }
  memset(x, 0, sizeof *x);
  x->r = r;
  x->proc = (uint32_t)pi;
  x->strat = pol->strategy ? si : -1;
  x->opt = o;
  x->args = args;
  x->limit = opt->limit ? opt->limit : DEFAULT_LIMIT;
  x->depth = opt->depth ? opt->depth : DEFAULT_DEPTH;
  rgi_api_policy_label(x->label, sizeof x->label, r, pol->kind, pol->answers_name, pol->strategy);
  x->strategy = pol->strategy ? rgi_module_str(&r->m, r->m.strategies[si].name) : NULL;
  /* the caller's strings are not kept */
  x->opt.proc = NULL;
  x->opt.args = NULL;
  x->opt.policy.strategy = x->strategy;
  x->opt.policy.answers_name = NULL;
  snprintf(x->answers_name, sizeof x->answers_name, "%s",
           pol->answers_name ? pol->answers_name : "");
  if (pol->kind == RG_CHOOSE_ANSWERS) {
    size_t n = pol->answers ? pol->answers_len : 0;
    if (!(x->answers = rg_malloc(n + 1))) {
      rg_exact_free(x);
      return RG_NOMEM;
    }
    if (n) memcpy(x->answers, pol->answers, n);
    x->answers[n] = '\0';
    x->opt.policy.answers = x->answers;
  }
  *out = x;
  return RG_OK;
}

rg_status rg_exact_run(rg_exact *x) {
  const rg_rules *r = x->r;
  const rg_exact_options *opt = &x->opt;
  const rg_policy *pol = &opt->policy;
  rgi_limits lim;
  if (x->done) rgi_odds_free(&x->res);
  memset(&x->res, 0, sizeof x->res);
  x->why[0] = '\0';
  memset(&lim, 0, sizeof lim);
  lim.max_steps = opt->limits.max_steps;
  lim.max_memory = opt->limits.max_memory;
  lim.no_fusion = opt->limits.no_fusion;
  rgi_odds_opts oo = { .m = &r->m, .limits = &lim, .proc = x->proc, .args = x->args,
                      .limit = x->limit, .depth = (uint32_t)x->depth,
                      .all_choices = pol->kind == RG_CHOOSE_RANDOM || pol->strategy,
                      .strategy = pol->strategy ? (uint32_t)x->strat + 1 : 0,
                      .answers = pol->kind != RG_CHOOSE_ANSWERS ? NULL : x->answers,
                      .answers_len = pol->kind == RG_CHOOSE_ANSWERS ? pol->answers_len : 0,
                      .answers_source = x->answers_name[0] ? x->answers_name : "answers",
                      .max_bytes = opt->limits.max_memory };
  rgi_odds_status os = rgi_odds_run(&oo, &x->res);
  x->done = 1;
  switch (os) {
  case RG_ODDS_OK: return RG_OK;
  case RG_ODDS_RUN_FAILED:
    snprintf(x->why, sizeof x->why, "%s", x->res.msg);
    return RG_RUN_ERROR;
  case RG_ODDS_LIMIT:
    snprintf(x->why, sizeof x->why, "more than %llu runs to enumerate the outcomes",
             (unsigned long long)x->limit);
    return RG_RUN_LIMIT;
  case RG_ODDS_TINY:
    snprintf(x->why, sizeof x->why, "the draws between two chance states have more than 2^128 "
                                    "outcomes together; estimate with `regula sim`");
    return RG_RUN_LIMIT;
  case RG_ODDS_OVERFLOW:
    snprintf(x->why, sizeof x->why, "a probability needs a denominator beyond 128 bits; "
                                    "estimate with `regula sim`");
    return RG_RUN_LIMIT;
  case RG_ODDS_MEMORY: {
    size_t max = opt->limits.max_memory ? opt->limits.max_memory : RG_ODDS_MAX_BYTES;
    int mib = max >= ((size_t)1 << 20);
    snprintf(x->why, sizeof x->why, "telling the chance states apart needs more than %llu %s of "
             "memory (the memory limit; %s); estimate with `regula sim`",
             (unsigned long long)(mib ? max >> 20 : max >> 10), mib ? "MiB" : "KiB",
             opt->limits.max_memory ? "raise it with --max-memory"
                                    : "1 GiB unless --max-memory says");
    return RG_RUN_LIMIT;
  }
  case RG_ODDS_LOOP:
    snprintf(x->why, sizeof x->why, "a loop of more than 4000 states is too large to solve "
                                    "exactly; estimate with `regula sim`");
    return RG_RUN_LIMIT;
  case RG_ODDS_ENDLESS:
    snprintf(x->why, sizeof x->why, "some outcomes lead into a loop that no roll, card or "
                                    "choice leaves: the procedure never ends there (`regula run` "
                                    "stops at the step limit)");
    return RG_RUN_LIMIT;
  default:
    snprintf(x->why, sizeof x->why, "out of memory");
    return RG_NOMEM;
  }
}

const char *rg_exact_errmsg(const rg_exact *x) {
  return x->why;
}

int rg_exact_limit_was_runs(const rg_exact *x) {
  return x->done && x->res.status == RG_ODDS_LIMIT;
}

int rg_exact_where(const rg_exact *x, rg_place *where) {
  rg_place p = { "?", 0, 0 };
  int failed = x->done && x->res.status == RG_ODDS_RUN_FAILED;
  if (failed) rgi_api_place(&x->r->m, x->res.pc, &p.path, &p.line, &p.col);
  if (where) *where = p;
  return failed && p.line != 0;
}

rg_status rg_exact_failed_draws(const rg_exact *x, rg_out *out) {
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (!x->done || x->res.status != RG_ODDS_RUN_FAILED) return RG_BAD_VALUE;
  for (uint32_t k = 0; k < x->res.draws; k++)
    rg_printf(o, " %llu/%llu", (unsigned long long)x->res.idx[k] + 1,
              (unsigned long long)x->res.n[k]);
  return rgi_watch_end(&w, RG_OK);
}

uint64_t rg_exact_runs(const rg_exact *x) {
  return x->done ? x->res.paths : 0;
}

uint64_t rg_exact_expects(const rg_exact *x, rg_place *where) {
  uint64_t n = x->done && x->res.status == RG_ODDS_OK ? x->res.expect_paths : 0;
  rg_place p;
  rgi_api_place(&x->r->m, n ? x->res.expect_pc : UINT32_MAX, &p.path, &p.line, &p.col);
  p.col = 0;
  if (where) *where = p;
  return n;
}

uint32_t rg_exact_outcomes(const rg_exact *x) {
  return x->done && x->res.status == RG_ODDS_OK ? x->res.tally.n : 0;
}

rg_status rg_exact_outcome(const rg_exact *x, uint32_t i, const char **text, uint64_t *num,
                           uint64_t *den) {
  uint32_t *order;
  uint32_t slot;
  rgi_frac f;
  if (i >= rg_exact_outcomes(x)) return RG_NOT_FOUND;
  if (!(order = rg_malloc(x->res.tally.n * sizeof *order))) return RG_NOMEM;
  if (rgi_tally_order(&x->res.tally, order) != 0) {
    rg_free(order);
    return RG_NOMEM;
  }
  slot = order[i];
  rg_free(order);
  f = x->res.probs[slot];
  if (text) *text = x->res.tally.keys[slot].text;
  if (f.num > UINT64_MAX || f.den > UINT64_MAX) {
    if (num) *num = 0;
    if (den) *den = 0;
    return RG_RUN_LIMIT;
  }
  if (num) *num = (uint64_t)f.num;
  if (den) *den = (uint64_t)f.den;
  return RG_OK;
}

/* Writes the distribution, as text or (json) as JSON. */
static rg_status exact_write(const rg_exact *x, int json, rg_out *out) {
  rgi_heading h = { &x->r->m, x->proc, x->args, x->r->sets.data };
  const unsigned char *set = rgi_rules_set_flags(x->r);
  int rc;
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (!x->done || x->res.status != RG_ODDS_OK) return RG_BAD_VALUE;
  if (json) {
    json_t *ph = rgi_placeholders_json(&x->r->m, x->proc, set, x->r->assumed);
    if (!ph) return RG_NOMEM;
    rc = rgi_odds_text(o, &x->res, x->depth, &h, x->label, x->strategy, NULL, ph);
  } else {
    rg_buf ph;
    rg_buf_init(&ph);
    rc = rgi_placeholders_text(&x->r->m, x->proc, set, x->r->assumed, &ph.out) < 0 ||
                 ph.out.failed
             ? -1
             : rgi_odds_text(o, &x->res, x->depth, &h, x->label, NULL, ph.data, NULL);
    rg_buf_free(&ph);
  }
  return rgi_watch_end(&w, rc == 0 ? RG_OK : RG_NOMEM);
}

rg_status rg_exact_write(const rg_exact *x, rg_out *out) {
  return exact_write(x, 0, out);
}

rg_status rg_exact_json(const rg_exact *x, rg_out *out) {
  return exact_write(x, 1, out);
}

rg_status rg_exact_svg(const rg_exact *x, rg_out *out) {
  rgi_heading h = { &x->r->m, x->proc, x->args, x->r->sets.data };
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (!x->done || x->res.status != RG_ODDS_OK) return RG_BAD_VALUE;
  return rgi_watch_end(&w, rgi_odds_chart(o, &x->res, &h, x->label) == 0 ? RG_OK : RG_NOMEM);
}

void rg_exact_free(rg_exact *x) {
  if (!x) return;
  if (x->done) rgi_odds_free(&x->res);
  rg_free(x->args);
  rg_free(x->answers);
  rg_free(x);
}

/* Fills ov (and its arrays, [RG_SIMVARS_MAX] each) for the odds xs[0..n):
** their results, questions, labels and placeholders (text into ph[v],
** rg_buf's the caller frees; JSON into phj[v] when json).  Returns RG_OK,
** RG_BAD_VALUE (n, odds not worked out) or RG_NOMEM. */
static rg_status compare_setup(const rg_exact *const *xs, const char *const *names, uint32_t n,
                               int json, rgi_oddsvar *ov, const rgi_odds_result **rs,
                               rgi_heading *hs, const char **labels, const char **text,
                               rg_buf *ph, json_t **phj) {
  rg_status st = RG_OK;
  if (n < 2 || n > RG_SIMVARS_MAX) return RG_BAD_VALUE;
  for (uint32_t v = 0; v < n; v++)
    if (!xs[v] || !xs[v]->done || xs[v]->res.status != RG_ODDS_OK) return RG_BAD_VALUE;
  for (uint32_t v = 0; v < n; v++) {
    const rg_exact *x = xs[v];
    rs[v] = &x->res;
    hs[v] = (rgi_heading){ &x->r->m, x->proc, x->args, x->r->sets.data };
    labels[v] = x->label;
    rg_buf_init(&ph[v]);
    text[v] = NULL;
    phj[v] = NULL;
  }
  for (uint32_t v = 0; v < n && st == RG_OK; v++) {
    const rg_exact *x = xs[v];
    const unsigned char *set = rgi_rules_set_flags(x->r);
    if (json) {
      if (!(phj[v] = rgi_placeholders_json(&x->r->m, x->proc, set, x->r->assumed))) st = RG_NOMEM;
    } else if (rgi_placeholders_text(&x->r->m, x->proc, set, x->r->assumed, &ph[v].out) < 0 ||
               ph[v].out.failed) {
      st = RG_NOMEM;
    } else {
      text[v] = ph[v].data;
    }
  }
  *ov = (rgi_oddsvar){ .n = n, .rs = rs, .hs = hs, .names = names, .policies = labels,
                      .placeholders = text, .phj = phj, .depth = xs[0]->depth };
  return st;
}

/* Writes the odds xs[0..n) side by side, as text or (json) as JSON. */
static rg_status exact_compare(const rg_exact *const *xs, const char *const *names, uint32_t n,
                               int json, rg_out *out) {
  const rgi_odds_result *rs[RG_SIMVARS_MAX];
  rgi_heading hs[RG_SIMVARS_MAX];
  const char *labels[RG_SIMVARS_MAX], *text[RG_SIMVARS_MAX];
  rg_buf ph[RG_SIMVARS_MAX];
  json_t *phj[RG_SIMVARS_MAX];
  rgi_oddsvar ov;
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  rg_status st = compare_setup(xs, names, n, json, &ov, rs, hs, labels, text, ph, phj);
  /* past RG_BAD_VALUE, n is 2..RG_SIMVARS_MAX and ph[0..n) are set up */
  if (st == RG_OK) {
    st = (json ? rgi_oddsvar_json(o, &ov) : rgi_oddsvar_text(o, &ov)) == 0 ? RG_OK : RG_NOMEM;
    st = rgi_watch_end(&w, st);
  } else if (st != RG_BAD_VALUE) {
    for (uint32_t v = 0; v < n; v++) json_decref(phj[v]);
  }
  if (st != RG_BAD_VALUE)
    for (uint32_t v = 0; v < n; v++) rg_buf_free(&ph[v]);
  return st;
}

rg_status rg_exact_compare_svg(const rg_exact *const *xs, const char *const *names, uint32_t n,
                               rg_out *out) {
  const rgi_odds_result *rs[RG_SIMVARS_MAX];
  rgi_heading hs[RG_SIMVARS_MAX];
  const char *labels[RG_SIMVARS_MAX], *text[RG_SIMVARS_MAX];
  rg_buf ph[RG_SIMVARS_MAX];
  json_t *phj[RG_SIMVARS_MAX];
  rgi_oddsvar ov;
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  rg_status st = compare_setup(xs, names, n, 0, &ov, rs, hs, labels, text, ph, phj);
  if (st == RG_OK) st = rgi_watch_end(&w, rgi_oddsvar_chart(o, &ov) == 0 ? RG_OK : RG_NOMEM);
  if (st != RG_BAD_VALUE)
    for (uint32_t v = 0; v < n; v++) rg_buf_free(&ph[v]);
  return st;
}

rg_status rg_exact_compare(const rg_exact *const *xs, const char *const *names, uint32_t n,
                           rg_out *out) {
  return exact_compare(xs, names, n, 0, out);
}

rg_status rg_exact_compare_json(const rg_exact *const *xs, const char *const *names,
                                uint32_t n, rg_out *out) {
  return exact_compare(xs, names, n, 1, out);
}
