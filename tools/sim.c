/*
** sim.c: `regula sim FILE [PROCEDURE ARG...] --runs N`, Monte Carlo tallies
** of a procedure's result.  The simulation itself, its threads and the
** seeding are the library's (interp/sim.h); this file parses the options,
** loads the rules, draws the progress bar and prints the tallies, each
** distinct value with its count, its share and the 95% Wilson score
** interval of the share.
*/
#include "regula.h"
#include "cli.h"
#include "evlog.h"
#include "fileout.h"
#include "sim.h"
#include "value.h"
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char sim_help[] =
  "Runs PROCEDURE (default main; it must have a result) N times and tallies\n"
  "its results: each distinct value with its count, its share and the 95%\n"
  "Wilson confidence interval of the share.  A record result is tallied\n"
  "field by field.  Run i rolls and draws from stream i of the seed and\n"
  "answers choices at random from a stream of its own, so the tallies\n"
  "depend only on the seed, never on the threads.\n"
  "\n"
  "  --runs N       how many runs (default 10000)\n"
  "  --seed S       the seed (default 1; random: one drawn and said on stderr)\n"
  "  --policy P     how choices are answered: random (default), first,\n"
  "                 answers:FILE (the same answers, one a line, every run),\n"
  "                 or NAME, a strategy of the rules (`strategy NAME`; the\n"
  "                 choices it has no rule for at random; with --variants,\n"
  "                 every rule set's own)\n"
  "  --set NAME=VALUE  an input, or a die's faces or a deck's cards\n"
  "                 (RED=skull:2,wound:2,blank:2); repeatable\n"
  "  --inputs FILE  inputs from a file of NAME=VALUE lines; --set wins\n"
  "  --variants A,B,...  instead of FILE: every rule set on common random\n"
  "                 numbers, each field's shares side by side with each\n"
  "                 one's difference from A and its paired 95% interval\n"
  "  --threads K    worker threads (default: the processors, at most 8)\n"
  "  --svg FILE     also draw the distributions as bar charts with their\n"
  "                 intervals (variants side by side) into FILE\n"
  "  --json         one JSON object instead of the table: format, procedure,\n"
  "                 runs, seed (a string), tallies: [{name, tallied, values:\n"
  "                 [{text, count, share, low, high, value}]}] (value typed,\n"
  "                 for a scalar result)\n"
  "\n"
  "The header says how choices were answered and which placeholder data (dice\n"
  "and decks the rule file assumes) the result rests on.  A progress bar\n"
  "shows on stderr when it is a terminal.\n"
  "\n"
  "Example: regula sim SHEET.rules --runs 100000 --seed 7\n"
  "Exit: 0, 1 an expectation failed in a run (the first is named), 2 bad\n"
  "arguments, 3 a runtime error in a run (its number and seed are printed)\n"
  "or out of memory.\n";

/* Draws a bar of done out of total runs on stderr; `final` erases it. */
static void bar(uint64_t done, uint64_t total, int final) {
  int width = 40, fill = total ? (int)((double)done / (double)total * width) : width;
  fputc('\r', stderr);
  fputc('[', stderr);
  for (int k = 0; k < width; k++) fputc(k < fill ? '#' : ' ', stderr);
  fprintf(stderr, "] %llu/%llu", (unsigned long long)done, (unsigned long long)total);
  if (final) fputs("\r\033[K", stderr);
  fflush(stderr);
}

/* rg_sim_opts.progress: the bar, while the runs go on. */
static void progress(void *ctx, uint64_t done, uint64_t total) {
  (void)ctx;
  bar(done, total, 0);
}

int cli_resolve_result(const rg_module *m, const char *cmd, const char *name, char **args,
                       int nargs, rg_value **out) {
  int pi = rg_module_find_proc(m, name);
  if (pi >= 0 && !is_test_proc(m, (uint32_t)pi) && (uint32_t)nargs == m->procs[pi].nparams &&
      m->procs[pi].result.kind == RG_K_VOID) {
    fprintf(stderr, "regula: error: procedure '%s' has no result to count\n", name);
    return -1;
  }
  return cli_resolve_proc(m, cmd, name, args, nargs, out);
}

/* Draws the tallies of r into the SVG file path: a chart per field, each
** value's share with its Wilson interval.  Returns an exit code. */
static int draw_sim(const rg_sim_result *r, const char *pname, uint64_t seed, const char *policy,
                    const char *path) {
  rg_chart *charts = rg_malloc(((size_t)r->nfields + 1) * sizeof *charts);
  uint32_t nc = 0;
  int rc = charts ? EX_OK : EX_RUNTIME;
  char title[512];
  for (uint32_t f = 0; rc == EX_OK && f < r->nfields; f++) {
    const rg_sim_field *fd = &r->fields[f];
    const rg_tally *t = &fd->tally;
    uint32_t *order = rg_malloc(((size_t)t->n + 1) * sizeof *order);
    rg_chart_bar *bars = rg_malloc(((size_t)t->n + 1) * sizeof *bars);
    if (!order || !bars || rg_tally_order(t, order) != 0) {
      rg_free(order);
      rg_free(bars);
      rc = EX_RUNTIME;
      break;
    }
    if (fd->overflow) t = NULL;
    for (uint32_t j = 0; t && j < t->n; j++) {
      uint32_t s = order[j];
      memset(&bars[j], 0, sizeof bars[j]);
      bars[j].label = t->keys[s].text;
      bars[j].p[0] = (double)fd->counts[s] / (double)r->runs;
      rg_sim_wilson(fd->counts[s], r->runs, &bars[j].lo[0], &bars[j].hi[0]);
    }
    rg_free(order);
    charts[nc++] = (rg_chart){ fd->name, bars, t ? t->n : 0 };
  }
  snprintf(title, sizeof title, "%s: %llu runs, seed %llu, policy %s (95%% intervals)", pname,
           (unsigned long long)r->runs, (unsigned long long)seed, policy);
  if (rc == EX_OK) rc = cli_write_chart(path, title, NULL, 1, charts, nc);
  else fputs("regula: error: out of memory\n", stderr);
  for (uint32_t c = 0; c < nc; c++) rg_free((void *)charts[c].bars);
  rg_free(charts);
  return rc;
}

/* Prints the tallies of r, as a table or (json) one JSON object; the
** header names the policy and the placeholders (ph, text; phj, a JSON array,
** taken over: NULL with json means out of memory).  Returns EX_OK, or
** EX_RUNTIME after saying "out of memory" (or that stdout failed). */
static int print_sim(const rg_sim_result *r, const char *pname, uint64_t seed, int json,
                      const char *policy, const rg_buf *ph, json_t *phj) {
  rg_out out = cli_file_out(stdout);
  uint64_t runs = r->runs;
  uint32_t **order = rg_malloc(((size_t)r->nfields + 1) * sizeof *order);
  if (order) memset(order, 0, ((size_t)r->nfields + 1) * sizeof *order);
  for (uint32_t f = 0; order && f < r->nfields; f++) {
    const rg_tally *t = &r->fields[f].tally;
    if (!(order[f] = rg_malloc(((size_t)t->n + 1) * sizeof **order)) ||
        rg_tally_order(t, order[f]) != 0) {
      for (uint32_t g = 0; g <= f; g++) rg_free(order[g]);
      rg_free(order);
      order = NULL;
    }
  }
  if (!order || (json && !phj)) {
    if (order)
      for (uint32_t f = 0; f < r->nfields; f++) rg_free(order[f]);
    rg_free(order);
    json_decref(phj);
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  if (json) {
    rg_sim_json(&out, r, pname, seed, policy, phj);
  } else {
    json_decref(phj);
    printf("%s: %llu runs, seed %llu, policy %s\n", pname, (unsigned long long)runs,
           (unsigned long long)seed, policy);
    if (ph->len) printf("placeholders: %s\n", ph->data);
  }
  for (uint32_t f = 0; !json && f < r->nfields; f++) {
    const rg_sim_field *fd = &r->fields[f];
    const rg_tally *t = &fd->tally;
    size_t wv = 5;
    for (uint32_t s = 0; s < t->n; s++)
      if (strlen(t->keys[s].text) > wv) wv = strlen(t->keys[s].text);
    if (wv > 40) wv = 40;
    if (fd->overflow) {
      printf("\n%s\n  more than %d distinct values: not tallied\n", fd->name, RG_SIM_MAX_DISTINCT);
      continue;
    }
    printf("\n%s\n  %-*s  %10s  %7s  %s\n", fd->name, (int)wv, "value", "count", "share",
           "95% interval");
    for (uint32_t j = 0; j < t->n; j++) {
      uint32_t s = order[f][j];
      uint64_t c = fd->counts[s];
      double lo, hi;
      rg_sim_wilson(c, runs, &lo, &hi);
      printf("  %-*s  %10llu  %6.2f%%  %6.2f%% .. %6.2f%%\n", (int)wv, t->keys[s].text,
             (unsigned long long)c, 100.0 * (double)c / (double)runs, 100.0 * lo, 100.0 * hi);
    }
  }
  for (uint32_t f = 0; f < r->nfields; f++) rg_free(order[f]);
  rg_free(order);
  if (!out.failed) return EX_OK;
  fputs(ferror(stdout) ? "regula: error: cannot write standard output\n"
                       : "regula: error: out of memory\n", stderr);
  return EX_RUNTIME;
}

/* regula sim FILE [PROCEDURE ARG...] --runs N [--seed S] [--threads K]
** [--policy P] [--set NAME=VALUE]... [--inputs FILE] [--json]: Monte Carlo
** tallies of a procedure's result. */
int cmd_sim(opts *o) {
  uint64_t runs = 10000, seed = 1, threads = 0;
  int json = 0, nsets = 0, kind = 0;
  char **pos = o->pos, *answers = NULL;
  const char *const *sets = NULL;
  const char *inputs = NULL, *policy = NULL, *variants = NULL, *svg = NULL;
  static const char *const policies[] = { "random", "first", NULL };
  size_t alen = 0;
  int npos = 0;

  json = o->json;
  npos = o->npos;
  sets = o->sets;
  nsets = o->nsets;
  inputs = o->inputs;
  policy = o->policy;
  variants = o->variants;
  svg = o->npictures ? o->pictures[0].path : NULL;
  if (o->runs && cli_parse_count(o->runs, &runs, 0))
    return usage_error("sim", "--runs needs a positive whole number");
  if (o->seed && cli_parse_seed(o->seed, &seed))
    return usage_error("sim", "--seed needs a whole number or random");
  if (o->threads && (cli_parse_count(o->threads, &threads, 0) || threads > RG_SIM_MAX_THREADS))
    return usage_error("sim", "--threads needs a whole number in 1..%d", RG_SIM_MAX_THREADS);
  if (threads == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    threads = n < 1 ? 1 : n > 8 ? 8 : (uint64_t)n;
  }
  if (threads > runs) threads = runs;
  if (variants) {
    /* the rule sets come from --variants; a positional is the procedure */
    rg_limits lim = cli_limits(o);
    sim_args sa = { .limits = &lim, .runs = runs, .seed = seed,
                    .threads = (uint32_t)threads, .json = json,
                    .first = policy && strcmp(policy, "first") == 0, .sets = sets,
                    .strategy = policy && strcmp(policy, "first") != 0 &&
                                strcmp(policy, "random") != 0 ? policy : NULL,
                    .nsets = nsets, .svg = svg };
    int vrc;
    if (npos > 1 || inputs || (policy && strncmp(policy, "answers:", 8) == 0))
      vrc = usage_error("sim", "with --variants: at most a PROCEDURE (without arguments), "
                               "--policy random, first or a strategy every variant declares, "
                               "--set but no --inputs");
    else
      vrc = sim_variants(variants, npos ? pos[0] : "main", &sa);
    return vrc;
  }
  if (npos < 1) return usage_error("sim", "no rule file given");
  int prc = cli_policy("sim", policy, policies, &kind, &answers, &alen);
  if (prc != EX_OK) return prc;

  loaded l;
  rg_setup setup;
  rg_buf ph;
  int rc = cli_load_setup(&l, &setup, pos[0], inputs, sets, nsets);
  rg_buf_init(&ph);
  if (rc != EX_OK) {
    rg_setup_free(&setup);
    rg_free(answers);
    unload(&l);
    return rc;
  }
  const rg_module *m = rg_setup_module(&setup);
  const char *pname = npos >= 2 ? pos[1] : "main";
  rg_value *args = NULL;
  int pi = cli_resolve_result(m, "sim", pname, pos + 2, npos >= 2 ? npos - 2 : 0, &args);
  if (pi < 0) {
    rg_setup_free(&setup);
    rg_free(answers);
    unload(&l);
    return pi == -2 ? EX_RUNTIME : EX_BAD;
  }
  if (rg_setup_placeholders(&setup, (uint32_t)pi, l.assumptions, &ph.out) < 0) {
    fputs("regula: error: out of memory\n", stderr);
    rg_buf_free(&ph);
    rg_free(args);
    rg_setup_free(&setup);
    rg_free(answers);
    unload(&l);
    return EX_RUNTIME;
  }
  uint32_t strategy = 0;
  char label[300];
  if (cli_strategy("sim", m, policy, policies, &strategy) != EX_OK) {
    rg_buf_free(&ph);
    rg_free(args);
    rg_setup_free(&setup);
    rg_free(answers);
    unload(&l);
    return EX_BAD;
  }
  if (strategy) policy = cli_strategy_label(label, sizeof label, policy);
  rg_limits lim = cli_limits(o);
  rg_sim_opts so = { .m = m, .limits = &lim, .proc = (uint32_t)pi, .args = args,
                     .runs = runs, .seed = seed, .threads = (uint32_t)threads,
                     .inputs = setup.inputs,
                     .choices = kind == -1 ? RG_SIM_ANSWERS : kind == 1 ? RG_SIM_FIRST : RG_SIM_RANDOM,
                     .strategy = strategy, .answers = answers, .answers_len = alen,
                     .answers_source = kind == -1 ? policy + 8 : NULL };
  rg_sim_result r;
  int show = isatty(2) && runs >= 10000;
  if (show) so.progress = progress;
  rg_sim_status st = rg_sim_run(&so, &r);
  if (show) bar(runs, runs, 1);
  switch (st) {
  case RG_SIM_OK:
    rc = print_sim(&r, pname, seed, json, policy ? policy : "random", &ph,
                   json ? rg_setup_placeholders_json(&setup, (uint32_t)pi, l.assumptions) : NULL);
    if (rc == EX_OK && svg) rc = draw_sim(&r, pname, seed, policy ? policy : "random", svg);
    if (rc != EX_OK) break;
    if (r.expect_runs) {
      /* A failed expectation is a finding (exit 1), as in every command. */
      const char *path;
      uint32_t line, col;
      fflush(stdout);
      if (locate(&l.m, r.expect_pc, &path, &line, &col) == 0)
        fprintf(stderr, "%s:%u: an expectation failed in run %llu of seed %llu\n", path, line,
                (unsigned long long)r.expect_run, (unsigned long long)seed);
      fprintf(stderr, "regula: expectations failed in %llu of %llu runs\n",
              (unsigned long long)r.expect_runs, (unsigned long long)r.runs);
      rc = EX_FINDINGS;
    }
    break;
  case RG_SIM_RUN_FAILED:
    report_runtime(&l.m, r.msg, r.fail_pc);
    fprintf(stderr, "regula: error: run %llu of seed %llu failed\n",
            (unsigned long long)r.fail_run, (unsigned long long)seed);
    rc = EX_RUNTIME;
    break;
  default:
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  }
  rg_sim_free(&r);
  rg_free(args);
  rg_free(answers);
  rg_buf_free(&ph);
  rg_setup_free(&setup);
  unload(&l);
  return rc;
}
