/*
** simvar.c: `regula sim --variants A,B,... [PROCEDURE] --runs N`, several
** rule sets run on common random numbers and compared run by run.  The
** runs and the paired statistics are the library's (interp/simvar.h);
** this file loads the variants, applies --set to those that have the name,
** and prints, per result field, the distributions side by side and each
** variant's difference from the first with its paired and unpaired 95%
** intervals.
*/
#include "regula.h"
#include "cli.h"
#include "fileout.h"
#include "json.h"
#include "sim.h"
#include "simvar.h"

#include <stdio.h>
#include <string.h>

/* One variant: its rule set and setup. */
typedef struct var {
  const char *path;
  loaded l;
  int loaded_ok;
  rg_setup setup;
  int pi;
  rg_buf ph;                /* its placeholders, as text */
} var;

/* Loads the variants of list (comma-separated, changed in place) into vs
** (at most RG_SIMVAR_MAX) with their setups and procedure pname; --set
** applies to every variant that has the name, and must name something in
** one of them.  Returns EX_OK or an exit code after saying what is wrong. */
static int load_variants(char *list, var *vs, uint32_t *n, const char *pname,
                         const char *const *sets, int nsets) {
  int rc = EX_OK;
  for (char *p = list, *comma; p && rc == EX_OK; p = comma ? comma + 1 : NULL) {
    comma = strchr(p, ',');
    if (comma) *comma = '\0';
    if (!*p) continue;
    if (*n == RG_SIMVAR_MAX) return usage_error("sim", "at most %d variants", RG_SIMVAR_MAX);
    var *v = &vs[(*n)++];
    v->path = p;
    rg_buf_init(&v->ph);
    rc = load(&v->l, p, 1);
    v->loaded_ok = 1;
    if (rc != EX_OK) return rc;   /* load said what is wrong */
    if (rc == EX_OK && rg_setup_init(&v->setup, &v->l.m) != 0) rc = EX_RUNTIME;
    if (rc == EX_OK) {
      rg_value *none = NULL;
      v->pi = cli_resolve_result(&v->l.m, "sim", pname, NULL, 0, &none);
      rg_free(none);
      if (v->pi < 0) return v->pi == -2 ? EX_RUNTIME : EX_BAD;   /* said already */
    }
  }
  if (rc == EX_OK && *n < 2) return usage_error("sim", "--variants needs two rule sets or more, A,B");
  for (int k = 0; rc == EX_OK && k < nsets; k++) {
    int found = 0;
    char where[64];
    snprintf(where, sizeof where, "--set %.50s", sets[k]);
    for (uint32_t i = 0; i < *n && rc == EX_OK; i++) {
      rg_buf err;
      rg_buf_init(&err);
      int r = rg_setup_set(&vs[i].setup, sets[k], where, &err.out);
      if (r == 0) found = 1;
      else if (r == -2) rc = EX_RUNTIME;
      else if (r == -1) {
        fprintf(stderr, "regula: error: %s: %s\n", vs[i].path, err.data ? err.data : "");
        rc = EX_BAD;
      }
      rg_buf_free(&err);
    }
    if (rc == EX_OK && !found) rc = usage_error("sim", "no variant has an input, die or deck named in '%s'", sets[k]);
  }
  for (uint32_t i = 0; rc == EX_OK && i < *n; i++) {
    if (rg_setup_placeholders(&vs[i].setup, (uint32_t)vs[i].pi, vs[i].l.assumptions,
                              &vs[i].ph.out) < 0)
      rc = EX_RUNTIME;
  }
  return rc == EX_RUNTIME ? (fputs("regula: error: out of memory\n", stderr), rc) : rc;
}

/* The letter that names variant i in the tables: A, B, ... */
static char letter(uint32_t i) {
  return (char)('A' + i);
}

/* Prints r as tables: per field, the shares side by side, then each
** variant's difference from A. */
static void print_text(const rg_simvar_result *r, const var *vs, uint32_t n) {
  for (uint32_t f = 0; f < r->nfields; f++) {
    const rg_simvar_field *fd = &r->fields[f];
    size_t wv = 5;
    printf("\n%s\n", fd->name);
    if (fd->overflow) {
      printf("  more than %d distinct values: not tallied\n", RG_SIM_MAX_DISTINCT);
      continue;
    }
    for (uint32_t j = 0; j < fd->nvals; j++)
      if (strlen(fd->vals[j].text) > wv) wv = strlen(fd->vals[j].text);
    if (wv > 40) wv = 40;
    printf("  %-*s", (int)wv, "value");
    for (uint32_t v = 0; v < n; v++) printf("  %7c", letter(v));
    for (uint32_t v = 1; v < n; v++) {
      char h[16];
      snprintf(h, sizeof h, "%c - A", letter(v));
      printf("  %8s   %-17s  %-17s", h, "paired 95%", "unpaired 95%");
    }
    putchar('\n');
    for (uint32_t j = 0; j < fd->nvals; j++) {
      const rg_simvar_value *x = &fd->vals[j];
      printf("  %-*.*s", (int)wv, (int)wv, x->text);
      for (uint32_t v = 0; v < n; v++)
        printf("  %6.2f%%", 100.0 * (double)x->count[v] / (double)r->runs);
      for (uint32_t v = 1; v < n; v++) {
        double lo, hi, ulo, uhi;
        rg_simvar_interval(x, v, r->runs, &lo, &hi, &ulo, &uhi);
        double d = ((double)x->count[v] - (double)x->count[0]) / (double)r->runs;
        char ratio[32];
        if (hi - lo > 0) snprintf(ratio, sizeof ratio, "%.1fx narrower", (uhi - ulo) / (hi - lo));
        else snprintf(ratio, sizeof ratio, "%s", uhi - ulo > 0 ? "the same every run" : "");
        printf("  %+7.2f%%  %+6.2f .. %+6.2f%%  %+6.2f .. %+6.2f%%%s%s", 100 * d, 100 * lo,
               100 * hi, 100 * ulo, 100 * uhi, *ratio ? "  " : "", ratio);
      }
      putchar('\n');
    }
  }
  (void)vs;
}

/* Draws r into the SVG file path: a chart per field, the variants' shares
** side by side with their Wilson intervals.  Returns an exit code. */
static int draw(const rg_simvar_result *r, const var *vs, uint32_t n, const char *pname,
                uint64_t seed, const char *policy, const char *path) {
  rg_chart *charts = rg_malloc(((size_t)r->nfields + 1) * sizeof *charts);
  const char *names[RG_SIMVAR_MAX];
  uint32_t nc = 0;
  int rc = charts ? EX_OK : EX_RUNTIME;
  char title[512];
  for (uint32_t v = 0; v < n; v++) names[v] = vs[v].path;
  for (uint32_t f = 0; rc == EX_OK && f < r->nfields; f++) {
    const rg_simvar_field *fd = &r->fields[f];
    rg_chart_bar *bars = rg_malloc(((size_t)fd->nvals + 1) * sizeof *bars);
    if (!bars) {
      rc = EX_RUNTIME;
      break;
    }
    for (uint32_t j = 0; j < fd->nvals; j++) {
      memset(&bars[j], 0, sizeof bars[j]);
      bars[j].label = fd->vals[j].text;
      for (uint32_t v = 0; v < n; v++) {
        bars[j].p[v] = (double)fd->vals[j].count[v] / (double)r->runs;
        rg_sim_wilson(fd->vals[j].count[v], r->runs, &bars[j].lo[v], &bars[j].hi[v]);
      }
    }
    charts[nc++] = (rg_chart){ fd->name, bars, fd->overflow ? 0 : fd->nvals };
  }
  snprintf(title, sizeof title, "%s of %u variants: %llu runs, seed %llu, policy %s (95%% intervals)",
           pname, (unsigned)n, (unsigned long long)r->runs, (unsigned long long)seed, policy);
  if (rc == EX_OK) rc = cli_write_chart(path, title, names, n, charts, nc);
  else fputs("regula: error: out of memory\n", stderr);
  for (uint32_t c = 0; c < nc; c++) rg_free((void *)charts[c].bars);
  rg_free(charts);
  return rc;
}

/* Returns r as one new JSON object (NULL when out of memory). */
static json_t *result_json(const rg_simvar_result *r, const var *vs, uint32_t n,
                           const char *pname, uint64_t seed, const char *policy) {
  char digits[24];
  json_t *variants = json_array(), *fields = json_array();
  snprintf(digits, sizeof digits, "%llu", (unsigned long long)seed);
  json_t *doc = json_pack("{s:i,s:o,s:I,s:s,s:o,s:o,s:o}", "format", RG_JSON_FORMAT,
                          "procedure", rg_json_text(pname), "runs", (json_int_t)r->runs,
                          "seed", digits, "policy", rg_json_text(policy), "variants",
                          variants, "fields", fields);
  for (uint32_t v = 0; doc && v < n; v++) {
    json_t *o = json_pack("{s:o,s:o}", "file", rg_json_text(vs[v].path), "placeholders",
                          rg_setup_placeholders_json(&vs[v].setup, (uint32_t)vs[v].pi,
                                                     vs[v].l.assumptions));
    if (!o || json_array_append_new(variants, o) != 0) goto fail;
  }
  for (uint32_t f = 0; doc && f < r->nfields; f++) {
    const rg_simvar_field *fd = &r->fields[f];
    json_t *vals = json_array();
    json_t *fo = json_pack("{s:o,s:b,s:o}", "name", rg_json_text(fd->name), "tallied",
                           !fd->overflow, "values", vals);
    if (!fo || json_array_append_new(fields, fo) != 0) goto fail;
    for (uint32_t j = 0; j < fd->nvals; j++) {
      const rg_simvar_value *x = &fd->vals[j];
      json_t *counts = json_array(), *diffs = json_array();
      json_t *xo = json_pack("{s:o,s:o,s:o}", "text", rg_json_text(x->text), "counts", counts,
                             "differences", diffs);
      if (!xo || json_array_append_new(vals, xo) != 0) goto fail;
      for (uint32_t v = 0; v < n; v++)
        if (json_array_append_new(counts, json_integer((json_int_t)x->count[v])) != 0) goto fail;
      for (uint32_t v = 1; v < n; v++) {
        double lo, hi, ulo, uhi;
        rg_simvar_interval(x, v, r->runs, &lo, &hi, &ulo, &uhi);
        json_t *d = json_pack("{s:i,s:f,s:f,s:f,s:f,s:f}", "variant", (int)v, "difference",
                              ((double)x->count[v] - (double)x->count[0]) / (double)r->runs,
                              "low", lo, "high", hi, "unpaired_low", ulo, "unpaired_high", uhi);
        if (!d || json_array_append_new(diffs, d) != 0) goto fail;
      }
    }
  }
  return doc;
fail:
  json_decref(doc);
  return NULL;
}

int sim_variants(const char *list, const char *pname, const sim_args *a) {
  var vs[RG_SIMVAR_MAX];
  uint32_t n = 0;
  size_t len = strlen(list);
  char *copy = rg_malloc(len + 1);
  int rc;
  char label[300];
  memset(vs, 0, sizeof vs);
  if (!copy) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  memcpy(copy, list, len + 1);
  rc = load_variants(copy, vs, &n, pname, a->sets, a->nsets);
  if (rc == EX_OK) {
    const rg_module *mods[RG_SIMVAR_MAX];
    uint32_t procs[RG_SIMVAR_MAX];
    const rg_value *inputs[RG_SIMVAR_MAX];
    for (uint32_t v = 0; v < n; v++) {
      mods[v] = rg_setup_module(&vs[v].setup);
      procs[v] = (uint32_t)vs[v].pi;
      inputs[v] = vs[v].setup.inputs;
    }
    uint32_t strat[RG_SIMVAR_MAX];
    for (uint32_t v = 0; v < n && rc == EX_OK; v++) {
      int si = a->strategy ? rg_module_find_strategy(mods[v], a->strategy) : -1;
      strat[v] = si >= 0 ? (uint32_t)si + 1 : 0;
      if (a->strategy && si < 0) {
        fprintf(stderr, "regula: error: --policy %s: %s declares no strategy '%s' "
                        "(with --variants every rule set must)\n",
                a->strategy, vs[v].path, a->strategy);
        rc = EX_BAD;
      }
    }
    if (a->strategy) cli_strategy_label(label, sizeof label, a->strategy);
    else snprintf(label, sizeof label, "%s", a->first ? "first" : "random");
    rg_simvar_opts so = { .n = n, .m = mods, .proc = procs, .inputs = inputs,
                          .limits = a->limits, .runs = a->runs, .seed = a->seed,
                          .threads = a->threads, .first = a->first,
                          .strategy = a->strategy ? strat : NULL };
    rg_simvar_result r;
    memset(&r, 0, sizeof r);
    switch (rc != EX_OK ? RG_SIMVAR_OK : rg_simvar_run(&so, &r)) {
    case RG_SIMVAR_OK:
      if (rc != EX_OK) break;             /* a variant lacks the strategy */
      if (a->json) {
        rg_out out = cli_file_out(stdout);
        if (rg_json_put(&out, result_json(&r, vs, n, pname, a->seed, label),
                        1) != 0) {
          fputs(ferror(stdout) ? "regula: error: cannot write standard output\n"
                               : "regula: error: out of memory\n", stderr);
          rc = EX_RUNTIME;
          break;
        }
      } else {
        printf("%s of %u variants: %llu runs, seed %llu, policy %s, common random numbers by "
               "step\n", pname, (unsigned)n, (unsigned long long)r.runs,
               (unsigned long long)a->seed, label);
        for (uint32_t v = 0; v < n; v++) {
          printf("  %c = %s\n", letter(v), vs[v].path);
          if (vs[v].ph.len) printf("      placeholders: %s\n", vs[v].ph.data);
        }
        print_text(&r, vs, n);
      }
      if (a->svg) rc = draw(&r, vs, n, pname, a->seed, label, a->svg);
      break;
    case RG_SIMVAR_RUN_FAILED:
      report_runtime(&vs[r.fail_variant].l.m, r.msg, r.fail_pc);
      fprintf(stderr, "regula: error: run %llu of seed %llu failed in %s\n",
              (unsigned long long)r.fail_run, (unsigned long long)a->seed,
              vs[r.fail_variant].path);
      rc = EX_RUNTIME;
      break;
    default:
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
    }
    rg_simvar_free(&r);
  }
  for (uint32_t v = 0; v < n; v++) {
    rg_setup_free(&vs[v].setup);
    rg_buf_free(&vs[v].ph);
    if (vs[v].loaded_ok) unload(&vs[v].l);
  }
  rg_free(copy);
  return rc;
}
