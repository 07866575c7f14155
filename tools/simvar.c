/*
** simvar.c: `regula sim --variants A,B,... [PROCEDURE] --runs N`, several
** rule sets run on common random numbers and compared run by run, on
** regula.h alone.  The runs, the paired statistics and the tables are the
** library's (rg_simvars); this file loads the variants, applies --set to
** those that have the name, and says what went wrong.
*/
#include "regula_front.h"
#include "cmd_rules.h"
#include "cmd_sim.h"
#include "exitcode.h"
#include "fileout.h"
#include "opts.h"

#include <stdio.h>
#include <string.h>

int load_variants(const char *cmd, char *list, var *vs, uint32_t *n, const char *pname,
                  const char *const *args, int nargs, const char *const *sets, int nsets) {
  int rc = EX_OK;
  for (char *p = list, *comma; p && rc == EX_OK; p = comma ? comma + 1 : NULL) {
    comma = strchr(p, ',');
    if (comma) *comma = '\0';
    if (!*p) continue;
    if (*n == RG_SIMVARS_MAX) return usage_error(cmd, "at most %d variants", RG_SIMVARS_MAX);
    var *v = &vs[(*n)++];
    v->path = p;
    if ((rc = cli_rules_load(p, 1, &v->base)) != EX_OK) return rc;   /* said what is wrong */
    int pi = cli_rules_counted(v->base, cmd, pname, args, nargs);
    if (pi < 0) return pi == -2 ? EX_RUNTIME : EX_BAD;   /* said what is wrong */
  }
  if (*n < 2) return usage_error(cmd, "--variants needs two rule sets or more, A,B");
  for (uint32_t i = 0; i < *n; i++)
    if (rg_rules_copy(vs[i].base, &vs[i].r) != RG_OK) {
      fputs("regula: error: out of memory\n", stderr);
      return EX_RUNTIME;
    }
  for (int k = 0; rc == EX_OK && k < nsets; k++) {
    int found = 0;
    char where[64];
    snprintf(where, sizeof where, "--set %.50s", sets[k]);
    for (uint32_t i = 0; i < *n && rc == EX_OK; i++) {
      rg_status st = rg_rules_set(vs[i].r, sets[k]);
      if (st == RG_OK) found = 1;
      else if (st == RG_NOMEM) {
        fputs("regula: error: out of memory\n", stderr);
        rc = EX_RUNTIME;
      } else if (st != RG_NOT_FOUND) {
        cli_eprintf("regula: error: %s: %s: %s\n", vs[i].path, where, rg_rules_errmsg(vs[i].r));
        rc = EX_BAD;
      }
    }
    if (rc == EX_OK && !found)
      rc = usage_error(cmd, "no variant has an input, die or deck named in '%s'", sets[k]);
  }
  return rc;
}

int sim_variants(const char *list, const char *pname, const sim_args *a) {
  var vs[RG_SIMVARS_MAX];
  const rg_rules *rules[RG_SIMVARS_MAX];
  const char *names[RG_SIMVARS_MAX];
  uint32_t n = 0;
  size_t len = strlen(list);
  char *copy = rg_malloc(len + 1);
  rg_simvars *c = NULL;
  rg_simvars_options so = RG_OPTIONS(rg_simvars_options);
  const char *strategy = a->strategy;
  rg_status st;
  int rc;
  memset(vs, 0, sizeof vs);
  if (!copy) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  memcpy(copy, list, len + 1);
  rc = load_variants("sim", copy, vs, &n, pname, NULL, 0, a->sets, a->nsets);
  if (rc == EX_OK && a->no_policy) {
    /* no --policy: A's default strategy, when every variant has it */
    strategy = rg_rules_item(vs[0].r, RG_STRATEGY, rg_rules_default_strategy(vs[0].r));
    for (uint32_t v = 1; strategy && v < n; v++)
      if (rg_rules_find(vs[v].r, RG_STRATEGY, strategy) < 0) strategy = NULL;
  }
  for (uint32_t v = 0; rc == EX_OK && v < n; v++) {
    rules[v] = vs[v].r;
    names[v] = vs[v].path;
    if (strategy && rg_rules_find(vs[v].r, RG_STRATEGY, strategy) < 0) {
      cli_eprintf("regula: error: --policy %s: %s declares no strategy '%s' "
                      "(with --variants every rule set must)\n",
              strategy, vs[v].path, strategy);
      rc = EX_BAD;
    }
  }
  so.proc = pname;
  so.seed = a->seed;
  so.threads = a->threads;
  so.limits = a->limits;
  so.policy.kind = a->first ? RG_CHOOSE_FIRST : RG_CHOOSE_RANDOM;
  so.policy.strategy = strategy;
  if (rc == EX_OK && (st = rg_simvars_new(rules, names, n, &so, &c)) != RG_OK) {
    cli_eprintf("regula: error: %s\n", st == RG_NOMEM ? "out of memory" : rg_rules_errmsg(rules[0]));
    rc = st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
  }
  if (rc == EX_OK) {
    st = rg_simvars_run(c, a->runs);
    if (st == RG_OK) {
      rg_out out = cli_file_out(stdout);
      rc = cli_written((a->json ? rg_simvars_json : rg_simvars_write)(c, &out));
      if (rc == EX_OK && a->svg) {
        rg_buf b;
        rg_buf_init(&b);
        rc = sim_save_chart(a->svg, rg_simvars_svg(c, &b.out), &b);
        rg_buf_free(&b);
      }
    } else if (st == RG_NOMEM) {
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
    } else {
      const char *msg;
      rg_place at = { "?", 0, 0 };
      uint32_t variant = 0;
      uint64_t run = 0;
      msg = rg_simvars_failure(c, &variant, &run, &at);
      call_fault((void *)vs[variant].r, msg ? msg : "the run failed", at.path, at.line, at.col);
      cli_eprintf("regula: error: run %llu of seed %llu failed in %s\n",
              (unsigned long long)run, (unsigned long long)a->seed, vs[variant].path);
      rc = EX_RUNTIME;
    }
  }
  rg_simvars_free(c);
  for (uint32_t v = 0; v < n; v++) {
    rg_rules_free(vs[v].r);
    rg_rules_free(vs[v].base);
  }
  rg_free(copy);
  return rc;
}
