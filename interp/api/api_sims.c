/*
** api_sims.c: simulations behind regula.h: rgi_sims_* (the options checked
** and turned into sim.h's, the runs made a slice at a time and merged, the
** tallies written as `regula sim` prints them: text, JSON, a chart) and
** rgi_simvars_* (variants compared run by run, simvar.h, as `regula sim
** --variants` prints them).
*/
#include "regula.h"
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
  char err[512];            /* the first failed run, as rg_sims_error says it */
};

/* Returns an rg_malloc'd copy of s[0..n) with a NUL after it, or NULL. */
static char *dupn(const char *s, size_t n) {
  char *c = rg_malloc(n + 1);
  if (c) {
    if (n) memcpy(c, s, n);
    c[n] = '\0';
  }
  return c;
}

rg_status rg_sims_open(const rg_rules *r, const rg_sims_options *opt, char *err, size_t errlen,
                       rg_sims **out) {
  rg_sims_options none;
  const char *name;
  rg_sims *s;
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
  if (!(s = rg_malloc(sizeof *s))) return RG_NOMEM;
  memset(s, 0, sizeof *s);
  s->r = r;
  s->opt = *opt;
  s->proc = (uint32_t)pi;
  s->limits.max_steps = opt->max_steps;
  s->limits.max_memory = opt->max_memory;
  s->limits.no_fusion = opt->no_fusion;
  st = rgi_api_parse_args(r, pi, name, opt->args, opt->nargs, &s->args, err, errlen);
  s->strategy = si + 1;
  if (st == RG_OK && opt->policy == RG_CHOOSE_ANSWERS) {
    const char *text = opt->answers ? opt->answers : "";
    size_t len = opt->answers ? opt->answers_len : 0;
    s->answers = dupn(text, len);
    s->answers_name = dupn(opt->answers_name ? opt->answers_name : "answers",
                           strlen(opt->answers_name ? opt->answers_name : "answers"));
    if (!s->answers || !s->answers_name) st = RG_NOMEM;
    else if (memchr(text, '\0', len)) {
      snprintf(err, errlen, "the answers hold a NUL byte");
      st = RG_BAD_VALUE;
    }
  }
  if (st != RG_OK) {
    rg_sims_free(s);
    return st;
  }
  s->opt.proc = rgi_module_str(&r->m, r->m.procs[pi].name);
  s->opt.args = NULL;
  s->opt.answers = s->answers;
  s->opt.answers_name = s->answers_name;
  s->opt.strategy =
      s->strategy ? rgi_module_str(&r->m, r->m.strategies[s->strategy - 1].name) : NULL;
  if (s->opt.threads == 0) s->opt.threads = 1;
  if (s->opt.threads > RG_SIMS_MAX_THREADS) s->opt.threads = RG_SIMS_MAX_THREADS;
  rgi_api_policy_label(s->label, sizeof s->label, r, opt->policy, opt->answers_name, s->opt.strategy);
  *out = s;
  return RG_OK;
}

rg_status rg_sims_new(const rg_rules *r, const char *proc, uint64_t seed, rg_sims **out) {
  rg_sims_options o;
  char err[256];
  memset(&o, 0, sizeof o);
  o.proc = proc;
  o.seed = seed;
  return rg_sims_open(r, &o, err, sizeof err, out);
}

rg_status rg_sims_run(rg_sims *s, uint64_t n) {
  rgi_sim_opts o = { .m = &s->r->m, .limits = &s->limits, .proc = s->proc, .args = s->args,
                    .runs = n, .seed = s->opt.seed, .threads = s->opt.threads,
                    .choices = s->opt.policy == RG_CHOOSE_ANSWERS ? RG_SIM_ANSWERS
                             : s->opt.policy == RG_CHOOSE_FIRST   ? RG_SIM_FIRST
                                                                  : RG_SIM_RANDOM,
                    .answers = s->answers, .answers_len = s->opt.answers_len,
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

const char *rg_sims_error(const rg_sims *s) {
  return s->failed ? s->err : NULL;
}

const char *rg_sims_failure(const rg_sims *s, uint64_t *run, const char **path, uint32_t *line,
                            uint32_t *col) {
  if (!s->failed) return NULL;
  if (run) *run = s->fail.fail_run;
  rgi_api_place(&s->r->m, s->fail.fail_pc, path, line, col);
  return s->fail.msg;
}

uint64_t rg_sims_expects(const rg_sims *s, uint64_t *run, const char **path, uint32_t *line) {
  uint64_t n = s->started ? s->acc.expect_runs : 0;
  if (run) *run = n ? s->acc.expect_run : 0;
  if (n) rgi_api_place(&s->r->m, s->acc.expect_pc, path, line, NULL);
  else rgi_api_place(&s->r->m, UINT32_MAX, path, line, NULL);
  return n;
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
  rc = rgi_sim_text(out, tallies(s, &none), &h, s->opt.seed, s->label, ph.data);
  rg_buf_free(&ph);
  return rc == 0 ? RG_OK : RG_NOMEM;
}

rg_status rg_sims_json(const rg_sims *s, rg_out *out) {
  rgi_sim_result none;
  /* the placeholder data the tallies rest on */
  json_t *ph = rgi_placeholders_json(&s->r->m, s->proc, rgi_rules_set_flags(s->r), s->r->assumed);
  rgi_heading h = heading(s);
  if (!ph) return RG_NOMEM;
  return rgi_sim_json(out, tallies(s, &none), &h, s->opt.seed, s->label, s->opt.strategy, ph) == 0
             ? RG_OK
             : RG_NOMEM;
}

rg_status rg_sims_svg(const rg_sims *s, rg_out *out) {
  rgi_sim_result none;
  rgi_heading h = heading(s);
  return rgi_sim_chart(out, tallies(s, &none), &h, s->opt.seed, s->label) == 0
             ? RG_OK
             : RG_NOMEM;
}

void rg_sims_free(rg_sims *s) {
  if (!s) return;
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
  rg_run_options opt;
  rgi_limits limits;
  uint32_t threads;
  char label[320];
  int done;                           /* rg_simvars_run was called */
  rgi_simvar_result res;
};

rg_status rg_simvars_open(const rg_rules *const *rules, const char *const *names, uint32_t n,
                          const char *proc, const rg_run_options *opt, uint32_t threads,
                          char *err, size_t errlen, rg_simvars **out) {
  rg_run_options none;
  rg_simvars *c;
  const char *name = proc ? proc : "main";
  *out = NULL;
  if (errlen) err[0] = '\0';
  if (!opt) {
    memset(&none, 0, sizeof none);
    opt = &none;
  }
  if (n < 2 || n > RG_SIMVAR_MAX) {
    snprintf(err, errlen, "compare 2 to %d rule sets, not %u", RG_SIMVAR_MAX, n);
    return RG_BAD_VALUE;
  }
  if (opt->policy != RG_CHOOSE_RANDOM && opt->policy != RG_CHOOSE_FIRST) {
    snprintf(err, errlen, "variants' choices are random or first");
    return RG_BAD_VALUE;
  }
  if (!(c = rg_malloc(sizeof *c))) return RG_NOMEM;
  memset(c, 0, sizeof *c);
  c->n = n;
  c->opt = *opt;
  c->limits.max_steps = opt->max_steps;
  c->limits.max_memory = opt->max_memory;
  c->limits.no_fusion = opt->no_fusion;
  c->threads = threads ? threads : 1;
  if (c->threads > RG_SIMS_MAX_THREADS) c->threads = RG_SIMS_MAX_THREADS;
  for (uint32_t v = 0; v < n; v++) {
    const rgi_module *m = &rules[v]->m;
    int pi = rg_rules_find_proc(rules[v], name), si = 0;
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
    } else if (opt->strategy && (si = rgi_module_find_strategy(m, opt->strategy)) < 0) {
      snprintf(err, errlen, "%s declares no strategy '%s'", names[v], opt->strategy);
      st = RG_NOT_FOUND;
    }
    if (st != RG_OK) {
      rg_simvars_free(c);
      return st;
    }
    c->proc[v] = (uint32_t)pi;
    c->strategy[v] = opt->strategy ? (uint32_t)si + 1 : 0;
  }
  c->has_strategy = opt->strategy != NULL;
  rgi_api_policy_label(c->label, sizeof c->label, rules[0], opt->policy, NULL, opt->strategy);
  /* the caller's string is not kept: the first rule set's */
  c->opt.strategy = opt->strategy ? rgi_module_str(&c->r[0]->m,
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
  so.first = c->opt.policy == RG_CHOOSE_FIRST;
  so.strategy = c->has_strategy ? c->strategy : NULL;
  c->done = 1;
  switch (rgi_simvar_run(&so, &c->res)) {
  case RG_SIMVAR_OK: return RG_OK;
  case RG_SIMVAR_RUN_FAILED: return RG_RUN_ERROR;
  default: return RG_NOMEM;
  }
}

const char *rg_simvars_failure(const rg_simvars *c, uint32_t *variant, uint64_t *run,
                               const char **path, uint32_t *line, uint32_t *col) {
  if (!c->done || c->res.status != RG_SIMVAR_RUN_FAILED) return NULL;
  if (variant) *variant = c->res.fail_variant;
  if (run) *run = c->res.fail_run;
  rgi_api_place(&c->r[c->res.fail_variant]->m, c->res.fail_pc, path, line, col);
  return c->res.msg;
}

/* The settings of each rule set of c, into sets[0..c->n). */
static void simvars_sets(const rg_simvars *c, const char **sets) {
  for (uint32_t v = 0; v < c->n; v++) sets[v] = c->r[v]->sets.data;
}

rg_status rg_simvars_write(const rg_simvars *c, int json, rg_out *out) {
  const char *sets[RG_SIMVAR_MAX];
  rgi_simvar_result none;
  const rgi_simvar_result *res = c->done && c->res.status == RG_SIMVAR_OK ? &c->res : &none;
  const char *proc = rgi_module_str(&c->r[0]->m, c->r[0]->m.procs[c->proc[0]].name);
  rg_status st = RG_OK;
  memset(&none, 0, sizeof none);
  simvars_sets(c, sets);
  if (json) {
    json_t *ph[RG_SIMVAR_MAX];
    for (uint32_t v = 0; v < c->n; v++)
      ph[v] = rgi_placeholders_json(&c->r[v]->m, c->proc[v], rgi_rules_set_flags(c->r[v]),
                                   c->r[v]->assumed);
    if (rgi_simvar_json(out, res, proc, (const char *const *)c->names, sets, ph, c->n,
                       c->opt.seed, c->label, c->opt.strategy) != 0)
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
    if (st == RG_OK && rgi_simvar_text(out, res, proc, (const char *const *)c->names, sets, text,
                                      c->n, c->opt.seed, c->label) != 0)
      st = RG_NOMEM;
    for (uint32_t v = 0; v < c->n; v++) rg_buf_free(&ph[v]);
  }
  return st;
}

rg_status rg_simvars_svg(const rg_simvars *c, rg_out *out) {
  rgi_simvar_result none;
  const rgi_simvar_result *res = c->done && c->res.status == RG_SIMVAR_OK ? &c->res : &none;
  const char *proc = rgi_module_str(&c->r[0]->m, c->r[0]->m.procs[c->proc[0]].name);
  const char *sets[RG_SIMVAR_MAX];
  memset(&none, 0, sizeof none);
  simvars_sets(c, sets);
  return rgi_simvar_chart(out, res, proc, (const char *const *)c->names, sets, c->n, c->opt.seed,
                         c->label) == 0
             ? RG_OK
             : RG_NOMEM;
}

void rg_simvars_free(rg_simvars *c) {
  if (!c) return;
  if (c->done) rgi_simvar_free(&c->res);
  for (uint32_t v = 0; v < c->n; v++) rg_free(c->names[v]);
  rg_free(c);
}
