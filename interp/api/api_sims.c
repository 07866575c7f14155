/*
** api_sims.c: simulations behind regula.h: rgi_sims_* (the options checked
** and turned into sim.h's, the runs made a slice at a time and merged, the
** tallies written as `regula sim` prints them: text, JSON, a chart) and
** rgi_simvars_* (variants compared run by run, simvar.h, as `regula sim
** --variants` prints them).
*/
#include "regula_front.h"
#include "api_int.h"
#include "evlog.h"
#include "json.h"
#include "setup.h"
#include "sim.h"
#include "simvar.h"
#include "value.h"

#include <stdio.h>
#include <string.h>

struct rg_sims {
  const rg_rules *r;
  rg_sims_options opt;      /* the caller's, with the copies below */
  rgi_limits limits;
  uint32_t proc;
  int strategy;             /* 1 + the strategy answering first; 0: none */
  rgi_value *args;           /* the arguments, parsed */
  char *answers;            /* a copy of the answers text, or NULL */
  char *answers_name;
  char label[320];          /* how the header names the policy */
  int started;              /* acc holds the runs so far */
  rgi_sim_result acc;
  int failed;               /* a run failed: fail holds it */
  rgi_sim_result fail;
  char err[512];            /* the first failed run, as rg_sims_errmsg says it */
  uint32_t **order;         /* rg_sims_value: each column's slots in natural order */
  uint32_t norder;          /*   for this many columns, */
  uint64_t order_runs;      /*   made after this many runs */
};

/* Frees s's cache of natural orders. */
static void drop_order(rg_sims *s) {
  for (uint32_t c = 0; c < s->norder; c++) rg_free(s->order[c]);
  rg_free(s->order);
  s->order = NULL;
  s->norder = 0;
}

/* Returns an rg_malloc'd copy of s[0..n) with a NUL after it, or NULL. */
static char *dupn(const char *s, size_t n) {
  char *c = rg_malloc(n + 1);
  if (c) {
    if (n) memcpy(c, s, n);
    c[n] = '\0';
  }
  return c;
}

rg_status rg_sims_new(const rg_rules *r, const rg_sims_options *given, rg_sims **out) {
  rg_sims_options o, *opt = &o;
  const rg_policy *pol = &o.policy;
  const char *name;
  rg_sims *s;
  rg_status st;
  char err[1024] = "";
  int pi, si;
  *out = NULL;
  if (rgi_api_options(&o, sizeof o, given) != 0)
    return rgi_api_fail(r, RG_BAD_VALUE, "simulation options without their size (set .size, "
                                         "or use RG_OPTIONS)");
  name = opt->proc ? opt->proc : "main";
  if ((st = rgi_api_counted(r, name, pol->kind, pol->strategy, &pi, &si, err, sizeof err)) !=
      RG_OK)
    return rgi_api_fail(r, st, "%s", err);
  if (!(s = rg_malloc(sizeof *s))) return RG_NOMEM;
  memset(s, 0, sizeof *s);
  s->r = r;
  s->opt = *opt;
  s->proc = (uint32_t)pi;
  s->limits.max_steps = opt->limits.max_steps;
  s->limits.max_memory = opt->limits.max_memory;
  s->limits.no_fusion = opt->limits.no_fusion;
  s->limits.native = rgi_rules_native_code(r);
  st = rgi_api_parse_args(r, pi, name, opt->args, opt->nargs, &s->args, err, sizeof err);
  s->strategy = si + 1;
  if (st == RG_OK && pol->kind == RG_CHOOSE_ANSWERS) {
    const char *text = pol->answers ? pol->answers : "";
    size_t len = pol->answers ? pol->answers_len : 0;
    s->answers = dupn(text, len);
    s->answers_name = dupn(pol->answers_name ? pol->answers_name : "answers",
                           strlen(pol->answers_name ? pol->answers_name : "answers"));
    if (!s->answers || !s->answers_name) st = RG_NOMEM;
    else if (memchr(text, '\0', len)) {
      snprintf(err, sizeof err, "the answers hold a NUL byte");
      st = RG_BAD_VALUE;
    }
  }
  if (st != RG_OK) {
    rg_sims_free(s);
    return st == RG_NOMEM ? st : rgi_api_fail(r, st, "%s", err);
  }
  s->opt.proc = rgi_module_str(&r->m, r->m.procs[pi].name);
  s->opt.args = NULL;
  s->opt.policy.answers = s->answers;
  s->opt.policy.answers_name = s->answers_name;
  s->opt.policy.strategy =
      s->strategy ? rgi_module_str(&r->m, r->m.strategies[s->strategy - 1].name) : NULL;
  if (s->opt.threads == 0) s->opt.threads = 1;
  if (s->opt.threads > RG_SIMS_MAX_THREADS) s->opt.threads = RG_SIMS_MAX_THREADS;
  rgi_api_policy_label(s->label, sizeof s->label, r, pol->kind, pol->answers_name,
                       s->opt.policy.strategy);
  *out = s;
  return RG_OK;
}

rg_status rg_sims_run(rg_sims *s, uint64_t n) {
  rgi_sim_opts o = { .m = &s->r->m, .limits = &s->limits, .proc = s->proc, .args = s->args,
                    .runs = n, .seed = s->opt.seed, .threads = s->opt.threads,
                    .choices = s->opt.policy.kind == RG_CHOOSE_ANSWERS ? RG_SIM_ANSWERS
                             : s->opt.policy.kind == RG_CHOOSE_FIRST   ? RG_SIM_FIRST
                                                                       : RG_SIM_RANDOM,
                    .answers = s->answers, .answers_len = s->opt.policy.answers_len,
                    .answers_source = s->answers_name, .strategy = (uint32_t)s->strategy,
                    .progress = s->opt.progress, .progress_ctx = s->opt.progress_ctx };
  rgi_sim_result part;
  rgi_sim_status st;
  if (s->failed) return RG_RUN_ERROR;
  if (n == 0) return RG_OK;
  o.first = s->started ? s->acc.runs : 0;
  st = rgi_sim_run(&o, &part);
  if (st == RG_SIM_RUN_FAILED) {
    const char *path;
    uint32_t line, col;
    if (rgi_log_locate(&s->r->m, part.fail_pc, &path, &line, &col) == 0)
      snprintf(s->err, sizeof s->err, "run %llu failed: %s:%u:%u: %s",
               (unsigned long long)part.fail_run + 1, path, line, col, part.msg);
    else
      snprintf(s->err, sizeof s->err, "run %llu failed: %s", (unsigned long long)part.fail_run + 1,
               part.msg);
    s->fail = part;
    s->failed = 1;
    return RG_RUN_ERROR;
  }
  if (st != RG_SIM_OK) {
    rgi_sim_free(&part);
    return RG_NOMEM;
  }
  if (!s->started) {
    s->acc = part;
    s->started = 1;
    return RG_OK;
  }
  st = rgi_sim_merge(&s->acc, &part) == 0 ? RG_SIM_OK : RG_SIM_NOMEM;
  rgi_sim_free(&part);
  return st == RG_SIM_OK ? RG_OK : RG_NOMEM;
}

uint64_t rg_sims_done(const rg_sims *s) {
  return s->started ? s->acc.runs : 0;
}

const char *rg_sims_errmsg(const rg_sims *s) {
  return s->failed ? s->err : "";
}

int rg_sims_where(const rg_sims *s, uint64_t *run, rg_place *where) {
  rg_place p = { "?", 0, 0 };
  if (s->failed) rgi_api_place(&s->r->m, s->fail.fail_pc, &p.path, &p.line, &p.col);
  if (run) *run = s->failed ? s->fail.fail_run : 0;
  if (where) *where = p;
  return s->failed && p.line != 0;
}

const char *rg_sims_failure_text(const rg_sims *s) {
  return s->failed ? s->fail.msg : NULL;
}

uint64_t rg_sims_expects(const rg_sims *s, uint64_t *run, rg_place *where) {
  uint64_t n = s->started ? s->acc.expect_runs : 0;
  rg_place p;
  if (run) *run = n ? s->acc.expect_run : 0;
  rgi_api_place(&s->r->m, n ? s->acc.expect_pc : UINT32_MAX, &p.path, &p.line, &p.col);
  p.col = 0;
  if (where) *where = p;
  return n;
}

uint32_t rg_sims_columns(const rg_sims *s) {
  return s->started ? s->acc.nfields : 0;
}

rg_status rg_sims_column(const rg_sims *s, uint32_t c, const char **name, uint32_t *nvalues) {
  const rgi_sim_field *f;
  if (c >= rg_sims_columns(s)) return RG_NOT_FOUND;
  f = &s->acc.fields[c];
  if (name) *name = f->name;
  if (nvalues) *nvalues = f->overflow ? 0 : f->tally.n;
  return RG_OK;
}

rg_status rg_sims_value(const rg_sims *s, uint32_t c, uint32_t i, const char **text,
                        uint64_t *count) {
  const rgi_sim_field *f;
  uint32_t slot;
  if (c >= rg_sims_columns(s)) return RG_NOT_FOUND;
  f = &s->acc.fields[c];
  if (f->overflow || i >= f->tally.n) return RG_NOT_FOUND;
  if (!s->order || s->order_runs != s->acc.runs) {
    /* the natural orders, made once for the runs so far (a cache: s is
    ** const to the caller, who sees no change) */
    rg_sims *w = (rg_sims *)s;
    drop_order(w);
    if (!(w->order = rg_malloc(s->acc.nfields * sizeof *w->order))) return RG_NOMEM;
    memset(w->order, 0, s->acc.nfields * sizeof *w->order);
    w->norder = s->acc.nfields;
    for (uint32_t k = 0; k < s->acc.nfields; k++) {
      const rgi_tally *t = &s->acc.fields[k].tally;
      if (!(w->order[k] = rg_malloc((t->n ? t->n : 1) * sizeof **w->order)) ||
          rgi_tally_order(t, w->order[k]) != 0) {
        drop_order(w);
        return RG_NOMEM;
      }
    }
    w->order_runs = s->acc.runs;
  }
  slot = s->order[c][i];
  if (text) *text = f->tally.keys[slot].text;
  if (count) *count = slot < f->ncounts ? f->counts[slot] : 0;
  return RG_OK;
}

/* The tallies so far (an empty result before any run). */
static const rgi_sim_result *tallies(const rg_sims *s, rgi_sim_result *none) {
  memset(none, 0, sizeof *none);
  return s->started ? &s->acc : none;
}

/* The question s answers, for its header. */
static rgi_heading heading(const rg_sims *s) {
  return (rgi_heading){ &s->r->m, s->proc, s->args, s->r->sets.data };
}

rg_status rg_sims_write(const rg_sims *s, rg_out *out) {
  rgi_sim_result none;
  rg_buf ph;
  int rc;
  rg_buf_init(&ph);
  if (rgi_placeholders_text(&s->r->m, s->proc, rgi_rules_set_flags(s->r), s->r->assumed,
                           &ph.out) < 0 || ph.out.failed) {
    rg_buf_free(&ph);
    return RG_NOMEM;
  }
  rgi_heading h = heading(s);
  rgi_watch w;
  rc = rgi_sim_text(rgi_watch_begin(&w, out), tallies(s, &none), &h, s->opt.seed, s->label,
                    ph.data);
  rg_buf_free(&ph);
  return rgi_watch_end(&w, rc == 0 ? RG_OK : RG_NOMEM);
}

rg_status rg_sims_json(const rg_sims *s, rg_out *out) {
  rgi_sim_result none;
  /* the placeholder data the tallies rest on */
  json_t *ph = rgi_placeholders_json(&s->r->m, s->proc, rgi_rules_set_flags(s->r), s->r->assumed);
  rgi_heading h = heading(s);
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (!ph) return RG_NOMEM;
  return rgi_watch_end(&w, rgi_sim_json(o, tallies(s, &none), &h, s->opt.seed, s->label,
                                        s->opt.policy.strategy, ph) == 0
                               ? RG_OK
                               : RG_NOMEM);
}

rg_status rg_sims_svg(const rg_sims *s, rg_out *out) {
  rgi_sim_result none;
  rgi_heading h = heading(s);
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  return rgi_watch_end(&w, rgi_sim_chart(o, tallies(s, &none), &h, s->opt.seed, s->label) == 0
                               ? RG_OK
                               : RG_NOMEM);
}

void rg_sims_free(rg_sims *s) {
  if (!s) return;
  drop_order(s);
  if (s->started) rgi_sim_free(&s->acc);
  if (s->failed) rgi_sim_free(&s->fail);
  rg_free(s->args);
  rg_free(s->answers);
  rg_free(s->answers_name);
  rg_free(s);
}

/* ---- variants compared run by run ---------------------------------------- */

struct rg_simvars {
  uint32_t n;
  const rg_rules *r[RG_SIMVAR_MAX];
  char *names[RG_SIMVAR_MAX];
  uint32_t proc[RG_SIMVAR_MAX];
  uint32_t strategy[RG_SIMVAR_MAX];   /* 1 + each one's strategy; 0: none */
  int has_strategy;
  rg_simvars_options opt;
  rgi_limits limits;
  uint32_t threads;
  char label[320];
  int done;                           /* rg_simvars_run was called */
  rgi_simvar_result res;
};

rg_status rg_simvars_new(const rg_rules *const *rules, const char *const *names, uint32_t n,
                         const rg_simvars_options *given, rg_simvars **out) {
  rg_simvars_options o, *opt = &o;
  const char *strategy;
  rg_simvars *c;
  const char *name;
  char err[1024];
  size_t errlen = sizeof err;
  *out = NULL;
  if (n < 2 || n > RG_SIMVAR_MAX)
    return n ? rgi_api_fail(rules[0], RG_BAD_VALUE, "compare 2 to %d rule sets, not %u",
                            RG_SIMVAR_MAX, n)
             : RG_BAD_VALUE;
  if (rgi_api_options(&o, sizeof o, given) != 0)
    return rgi_api_fail(rules[0], RG_BAD_VALUE, "options without their size (set .size, or use "
                                                "RG_OPTIONS)");
  name = opt->proc ? opt->proc : "main";
  strategy = opt->policy.strategy;
  if (opt->policy.kind != RG_CHOOSE_RANDOM && opt->policy.kind != RG_CHOOSE_FIRST)
    return rgi_api_fail(rules[0], RG_BAD_VALUE, "variants' choices are random or first");
  if (!(c = rg_malloc(sizeof *c))) return RG_NOMEM;
  memset(c, 0, sizeof *c);
  c->n = n;
  c->opt = *opt;
  c->limits.max_steps = opt->limits.max_steps;
  c->limits.max_memory = opt->limits.max_memory;
  c->limits.no_fusion = opt->limits.no_fusion;
  c->threads = opt->threads ? opt->threads : 1;
  if (c->threads > RG_SIMS_MAX_THREADS) c->threads = RG_SIMS_MAX_THREADS;
  for (uint32_t v = 0; v < n; v++) {
    const rgi_module *m = &rules[v]->m;
    int pi = rg_rules_find(rules[v], RG_PROC, name), si = 0;
    rg_status st = RG_OK;
    c->r[v] = rules[v];
    if (!(c->names[v] = dupn(names[v], strlen(names[v])))) st = RG_NOMEM;
    else if (pi < 0) {
      snprintf(err, errlen, "%s: no procedure '%s'", names[v], name);
      st = RG_NOT_FOUND;
    } else if (m->procs[pi].nparams || m->procs[pi].result.kind == RG_K_VOID) {
      snprintf(err, errlen, "%s: procedure '%s' %s", names[v], name,
               m->procs[pi].nparams ? "takes parameters" : "has no result to count");
      st = RG_BAD_VALUE;
    } else if (strategy && (si = rgi_module_find_strategy(m, strategy)) < 0) {
      snprintf(err, errlen, "%s declares no strategy '%s'", names[v], strategy);
      st = RG_NOT_FOUND;
    }
    if (st != RG_OK) {
      rg_simvars_free(c);
      return st == RG_NOMEM ? st : rgi_api_fail(rules[0], st, "%s", err);
    }
    c->proc[v] = (uint32_t)pi;
    c->strategy[v] = strategy ? (uint32_t)si + 1 : 0;
  }
  c->has_strategy = strategy != NULL;
  rgi_api_policy_label(c->label, sizeof c->label, rules[0], opt->policy.kind, NULL, strategy);
  /* the caller's strings are not kept: the first rule set's */
  c->opt.proc = NULL;
  c->opt.policy.answers = c->opt.policy.answers_name = NULL;
  c->opt.policy.strategy = strategy ? rgi_module_str(&c->r[0]->m,
                                                     c->r[0]->m.strategies[c->strategy[0] - 1].name)
                                    : NULL;
  *out = c;
  return RG_OK;
}

rg_status rg_simvars_run(rg_simvars *c, uint64_t runs) {
  const rgi_module *mods[RG_SIMVAR_MAX];
  rgi_simvar_opts so;
  if (c->done) return c->res.status == RG_SIMVAR_OK ? RG_OK : RG_RUN_ERROR;
  for (uint32_t v = 0; v < c->n; v++) mods[v] = &c->r[v]->m;
  memset(&so, 0, sizeof so);
  so.n = c->n;
  so.m = mods;
  so.proc = c->proc;
  so.limits = &c->limits;
  so.runs = runs;
  so.seed = c->opt.seed;
  so.threads = c->threads;
  so.first = c->opt.policy.kind == RG_CHOOSE_FIRST;
  so.strategy = c->has_strategy ? c->strategy : NULL;
  c->done = 1;
  switch (rgi_simvar_run(&so, &c->res)) {
  case RG_SIMVAR_OK: return RG_OK;
  case RG_SIMVAR_RUN_FAILED: return RG_RUN_ERROR;
  default: return RG_NOMEM;
  }
}

const char *rg_simvars_failure(const rg_simvars *c, uint32_t *variant, uint64_t *run,
                               rg_place *where) {
  rg_place p;
  if (!c->done || c->res.status != RG_SIMVAR_RUN_FAILED) return NULL;
  if (variant) *variant = c->res.fail_variant;
  if (run) *run = c->res.fail_run;
  rgi_api_place(&c->r[c->res.fail_variant]->m, c->res.fail_pc, &p.path, &p.line, &p.col);
  if (where) *where = p;
  return c->res.msg;
}

/* The settings of each rule set of c, into sets[0..c->n). */
static void simvars_sets(const rg_simvars *c, const char **sets) {
  for (uint32_t v = 0; v < c->n; v++) sets[v] = c->r[v]->sets.data;
}

/* Writes the comparison, as text or (json) as JSON. */
static rg_status simvars_write(const rg_simvars *c, int json, rg_out *out) {
  const char *sets[RG_SIMVAR_MAX];
  rgi_simvar_result none;
  const rgi_simvar_result *res = c->done && c->res.status == RG_SIMVAR_OK ? &c->res : &none;
  const char *proc = rgi_module_str(&c->r[0]->m, c->r[0]->m.procs[c->proc[0]].name);
  rg_status st = RG_OK;
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  memset(&none, 0, sizeof none);
  simvars_sets(c, sets);
  if (json) {
    json_t *ph[RG_SIMVAR_MAX];
    for (uint32_t v = 0; v < c->n; v++)
      ph[v] = rgi_placeholders_json(&c->r[v]->m, c->proc[v], rgi_rules_set_flags(c->r[v]),
                                   c->r[v]->assumed);
    if (rgi_simvar_json(o, res, proc, (const char *const *)c->names, sets, ph, c->n,
                       c->opt.seed, c->label, c->opt.policy.strategy) != 0)
      st = RG_NOMEM;
  } else {
    rg_buf ph[RG_SIMVAR_MAX];
    const char *text[RG_SIMVAR_MAX];
    for (uint32_t v = 0; v < c->n; v++) {
      rg_buf_init(&ph[v]);
      if (rgi_placeholders_text(&c->r[v]->m, c->proc[v], rgi_rules_set_flags(c->r[v]),
                               c->r[v]->assumed, &ph[v].out) < 0 || ph[v].out.failed)
        st = RG_NOMEM;
      text[v] = ph[v].data;
    }
    if (st == RG_OK && rgi_simvar_text(o, res, proc, (const char *const *)c->names, sets, text,
                                      c->n, c->opt.seed, c->label) != 0)
      st = RG_NOMEM;
    for (uint32_t v = 0; v < c->n; v++) rg_buf_free(&ph[v]);
  }
  return rgi_watch_end(&w, st);
}

rg_status rg_simvars_write(const rg_simvars *c, rg_out *out) {
  return simvars_write(c, 0, out);
}

rg_status rg_simvars_json(const rg_simvars *c, rg_out *out) {
  return simvars_write(c, 1, out);
}

rg_status rg_simvars_svg(const rg_simvars *c, rg_out *out) {
  rgi_simvar_result none;
  const rgi_simvar_result *res = c->done && c->res.status == RG_SIMVAR_OK ? &c->res : &none;
  const char *proc = rgi_module_str(&c->r[0]->m, c->r[0]->m.procs[c->proc[0]].name);
  const char *sets[RG_SIMVAR_MAX];
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  memset(&none, 0, sizeof none);
  simvars_sets(c, sets);
  return rgi_watch_end(&w, rgi_simvar_chart(o, res, proc, (const char *const *)c->names, sets, c->n,
                                            c->opt.seed, c->label) == 0
                               ? RG_OK
                               : RG_NOMEM);
}

void rg_simvars_free(rg_simvars *c) {
  if (!c) return;
  if (c->done) rgi_simvar_free(&c->res);
  for (uint32_t v = 0; v < c->n; v++) rg_free(c->names[v]);
  rg_free(c);
}
