/*
** api_odds.c: exact odds behind regula.h (rgi_exact_*): the options checked
** and turned into odds.h's, the enumeration made, and the distribution
** written as `regula odds` prints it (oddstext.c).
*/
#include "regula.h"
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
  uint64_t limit, depth;
  char label[320];          /* how the header names the policy */
  const char *strategy;     /* the strategy's name (r's), or NULL */
  int done;                 /* res holds the enumeration */
  rgi_odds_result res;
  char why[256];            /* RG_RUN_LIMIT: why */
  rgi_value *args;           /* the arguments, parsed (for the header) */
};

rg_status rg_exact_new(const rg_rules *r, const rg_exact_options *opt, char *err, size_t errlen,
                       rg_exact **out) {
  rg_exact_options none;
  const char *name;
  rgi_value *args = NULL;
  rgi_limits lim;
  rg_exact *x;
  rg_status st;
  int pi, si;
  *out = NULL;
  if (errlen) err[0] = '\0';
  if (!opt) {
    memset(&none, 0, sizeof none);
    opt = &none;
  }
  name = opt->proc ? opt->proc : "main";
  if ((st = rgi_api_counted(r, name, opt->policy, opt->strategy, &pi, &si, err, errlen)) != RG_OK)
    return st;
  if (opt->policy == RG_CHOOSE_ANSWERS && opt->answers &&
      memchr(opt->answers, '\0', opt->answers_len)) {
    snprintf(err, errlen, "the answers hold a NUL byte");
    return RG_BAD_VALUE;
  }
  if ((st = rgi_api_parse_args(r, pi, name, opt->args, opt->nargs, &args, err, errlen)) != RG_OK)
    return st;
  if (!(x = rg_malloc(sizeof *x))) {
    rg_free(args);
    return RG_NOMEM;
  }
  memset(x, 0, sizeof *x);
  x->r = r;
  x->proc = (uint32_t)pi;
  x->limit = opt->limit ? opt->limit : DEFAULT_LIMIT;
  x->depth = opt->depth ? opt->depth : DEFAULT_DEPTH;
  rgi_api_policy_label(x->label, sizeof x->label, r, opt->policy, opt->answers_name, opt->strategy);
  x->strategy = opt->strategy ? rgi_module_str(&r->m, r->m.strategies[si].name) : NULL;
  memset(&lim, 0, sizeof lim);
  lim.max_steps = opt->max_steps;
  lim.max_memory = opt->max_memory;
  lim.no_fusion = opt->no_fusion;
  rgi_odds_opts oo = { .m = &r->m, .limits = &lim, .proc = (uint32_t)pi, .args = args,
                      .limit = x->limit, .depth = (uint32_t)x->depth,
                      .all_choices = opt->policy == RG_CHOOSE_RANDOM || opt->strategy,
                      .strategy = opt->strategy ? (uint32_t)si + 1 : 0,
                      .answers = opt->policy != RG_CHOOSE_ANSWERS ? NULL
                                 : opt->answers                     ? opt->answers
                                                                    : "",
                      .answers_len = opt->answers ? opt->answers_len : 0,
                      .answers_source = opt->answers_name ? opt->answers_name : "answers",
                      .max_bytes = opt->max_memory };
  rgi_odds_status os = rgi_odds_run(&oo, &x->res);
  x->args = args;
  x->done = 1;
  *out = x;
  switch (os) {
  case RG_ODDS_OK: return RG_OK;
  case RG_ODDS_RUN_FAILED: return RG_RUN_ERROR;
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
    size_t max = opt->max_memory ? opt->max_memory : RG_ODDS_MAX_BYTES;
    int mib = max >= ((size_t)1 << 20);
    snprintf(x->why, sizeof x->why, "telling the chance states apart needs more than %llu %s of "
             "memory (the memory limit; %s); estimate with `regula sim`",
             (unsigned long long)(mib ? max >> 20 : max >> 10), mib ? "MiB" : "KiB",
             opt->max_memory ? "raise it with --max-memory" : "1 GiB unless --max-memory says");
    return RG_RUN_LIMIT;
  }
  case RG_ODDS_LOOP:
    snprintf(x->why, sizeof x->why, "a loop of more than 4000 states is too large to solve "
                                    "exactly; estimate with `regula sim`");
    return RG_RUN_LIMIT;
  default: return RG_NOMEM;
  }
}

const char *rg_exact_error(const rg_exact *x, int *runs) {
  if (runs) *runs = x->res.status == RG_ODDS_LIMIT;
  return x->why[0] ? x->why : NULL;
}

const char *rg_exact_failure(const rg_exact *x, const char **path, uint32_t *line,
                             uint32_t *col, rg_out *outcomes) {
  if (x->res.status != RG_ODDS_RUN_FAILED) return NULL;
  rgi_api_place(&x->r->m, x->res.pc, path, line, col);
  for (uint32_t k = 0; outcomes && k < x->res.draws; k++)
    rg_printf(outcomes, " %llu/%llu", (unsigned long long)x->res.idx[k] + 1,
              (unsigned long long)x->res.n[k]);
  return x->res.msg;
}

uint64_t rg_exact_runs(const rg_exact *x) {
  return x->res.paths;
}

uint64_t rg_exact_expects(const rg_exact *x, const char **path, uint32_t *line) {
  uint64_t n = x->res.status == RG_ODDS_OK ? x->res.expect_paths : 0;
  rgi_api_place(&x->r->m, n ? x->res.expect_pc : UINT32_MAX, path, line, NULL);
  return n;
}

rg_status rg_exact_write(const rg_exact *x, int json, rg_out *out) {
  rgi_heading h = { &x->r->m, x->proc, x->args, x->r->sets.data };
  const unsigned char *set = rgi_rules_set_flags(x->r);
  int rc;
  if (x->res.status != RG_ODDS_OK) return RG_BAD_VALUE;
  if (json) {
    json_t *ph = rgi_placeholders_json(&x->r->m, x->proc, set, x->r->assumed);
    if (!ph) return RG_NOMEM;
    rc = rgi_odds_text(out, &x->res, x->depth, &h, x->label, x->strategy, NULL, ph);
  } else {
    rg_buf ph;
    rg_buf_init(&ph);
    rc = rgi_placeholders_text(&x->r->m, x->proc, set, x->r->assumed, &ph.out) < 0 ||
                 ph.out.failed
             ? -1
             : rgi_odds_text(out, &x->res, x->depth, &h, x->label, NULL, ph.data, NULL);
    rg_buf_free(&ph);
  }
  return rc == 0 ? RG_OK : RG_NOMEM;
}

rg_status rg_exact_svg(const rg_exact *x, rg_out *out) {
  rgi_heading h = { &x->r->m, x->proc, x->args, x->r->sets.data };
  if (x->res.status != RG_ODDS_OK) return RG_BAD_VALUE;
  return rgi_odds_chart(out, &x->res, &h, x->label) == 0
             ? RG_OK
             : RG_NOMEM;
}

void rg_exact_free(rg_exact *x) {
  if (!x) return;
  if (x->done) rgi_odds_free(&x->res);
  rg_free(x->args);
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
    if (!xs[v] || xs[v]->res.status != RG_ODDS_OK) return RG_BAD_VALUE;
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

rg_status rg_exact_compare(const rg_exact *const *xs, const char *const *names, uint32_t n,
                           int json, rg_out *out) {
  const rgi_odds_result *rs[RG_SIMVARS_MAX];
  rgi_heading hs[RG_SIMVARS_MAX];
  const char *labels[RG_SIMVARS_MAX], *text[RG_SIMVARS_MAX];
  rg_buf ph[RG_SIMVARS_MAX];
  json_t *phj[RG_SIMVARS_MAX];
  rgi_oddsvar ov;
  uint32_t nb = n > RG_SIMVARS_MAX ? 0 : n;
  rg_status st = compare_setup(xs, names, n, json, &ov, rs, hs, labels, text, ph, phj);
  if (st == RG_OK) {
    st = (json ? rgi_oddsvar_json(out, &ov) : rgi_oddsvar_text(out, &ov)) == 0 ? RG_OK : RG_NOMEM;
  } else if (st != RG_BAD_VALUE) {
    for (uint32_t v = 0; v < nb; v++) json_decref(phj[v]);
  }
  if (st != RG_BAD_VALUE)
    for (uint32_t v = 0; v < nb; v++) rg_buf_free(&ph[v]);
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
  uint32_t nb = n > RG_SIMVARS_MAX ? 0 : n;
  rg_status st = compare_setup(xs, names, n, 0, &ov, rs, hs, labels, text, ph, phj);
  if (st == RG_OK) st = rgi_oddsvar_chart(out, &ov) == 0 ? RG_OK : RG_NOMEM;
  if (st != RG_BAD_VALUE)
    for (uint32_t v = 0; v < nb; v++) rg_buf_free(&ph[v]);
  return st;
}
