/*
** odds.c: `regula odds FILE PROCEDURE ARG...`, the exact distribution of a
** procedure's result.  The enumeration is the library's (interp/odds.h:
** every outcome of every draw, repeated states solved as a Markov chain,
** exact fractions);
** this file parses the options and prints the distribution: one line per
** distinct result in its natural order, with its probability as a
** fraction, a percent and a bar.
*/
#include "regula.h"
#include "cli.h"
#include "json.h"
#include "fileout.h"
#include "odds.h"
#include "tally.h"
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ODDS_DEFAULT_LIMIT 1000000ull
#define ODDS_DEFAULT_DEPTH 200u

const char odds_help[] =
  "Prints the exact distribution of PROCEDURE's result, by running it for\n"
  "every outcome of every roll and draw: one line per distinct result, in\n"
  "the result's natural order, with its probability as a fraction, as a\n"
  "percent and as a bar.  A run that comes back to a state it has been in\n"
  "(ties rolled again) is a loop, solved exactly.\n"
  "\n"
  "  --limit N          make at most N runs (default 1000000); beyond it use\n"
  "                     `regula sim`\n"
  "  --depth N          cut a run after N draws (default 200) and report the\n"
  "                     probability of the cut runs as unresolved (processes\n"
  "                     that grow without end and never repeat a state)\n"
  "  --policy P         how choices are answered: first (default), random\n"
  "                     (every option in turn, each equally likely), or\n"
  "                     answers:FILE (one a line), or NAME, a strategy of\n"
  "                     the rules (its random picks and the choices it has\n"
  "                     no rule for: every option in turn); --choices\n"
  "                     first|all is the same as first|random\n"
  "  --set NAME=VALUE   an input, or a die's faces or a deck's cards\n"
  "                     (RED=skull:2,wound:2,blank:2); repeatable\n"
  "  --inputs FILE      inputs from a file of NAME=VALUE lines; --set wins\n"
  "  --json             one JSON object instead of the table\n"
  "  --svg FILE         also draw the distribution as a bar chart into FILE\n"
  "\n"
  "The header says how choices were answered and which placeholder data\n"
  "(dice and decks the rule file assumes) the result rests on.\n"
  "\n"
  "Example: regula odds SHEET.rules weather_score 7 Summer\n"
  "Exit: 0, 1 an expectation failed in some run (the first is named), 2 bad\n"
  "arguments, 3 a runtime error in some run, the run limit reached or a\n"
  "denominator too large.\n";

/* Draws the distribution r into the SVG file path: one chart, each result's
** exact probability.  Returns an exit code. */
static int draw_odds(const rg_odds_result *r, const char *pname, const char *policy,
                     const char *path) {
  const rg_tally *t = &r->tally;
  uint32_t *order = rg_malloc(((size_t)t->n + 1) * sizeof *order);
  rg_chart_bar *bars = rg_malloc(((size_t)t->n + 1) * sizeof *bars);
  char title[512];
  int rc = EX_RUNTIME;
  if (order && bars && rg_tally_order(t, order) == 0) {
    for (uint32_t j = 0; j < t->n; j++) {
      memset(&bars[j], 0, sizeof bars[j]);
      bars[j].label = t->keys[order[j]].text;
      bars[j].p[0] = bars[j].lo[0] = bars[j].hi[0] = (double)rg_frac_value(&r->probs[order[j]]);
    }
    rg_chart chart = { "result", bars, t->n };
    snprintf(title, sizeof title, "%s: exact, policy %s%s", pname, policy,
             r->cut.num ? " (some runs cut: lower bounds)" : "");
    rc = cli_write_chart(path, title, NULL, 1, &chart, 1);
  } else {
    fputs("regula: error: out of memory\n", stderr);
  }
  rg_free(order);
  rg_free(bars);
  return rc;
}

/* Prints the distribution r as one JSON object: the procedure, policy,
** placeholders (phj, a JSON array, taken over), each result with its
** probability (a fraction as text and a number), and the runs, states and
** cut mass. */
static int print_odds_json(const rg_odds_result *r, const uint32_t *order, const char *pname,
                           const char *policy, json_t *phj) {
  rg_out out = cli_file_out(stdout);
  char fb[100];
  json_t *res = json_array();
  json_t *doc = json_pack("{s:i,s:o,s:o,s:o,s:o,s:s,s:I,s:I,s:I}", "format", RG_JSON_FORMAT,
                          "procedure", rg_json_text(pname), "policy", rg_json_text(policy),
                          "placeholders", phj, "results", res,
                          "unresolved", rg_frac_str(fb, &r->cut), "runs",
                          (json_int_t)r->paths, "states", (json_int_t)r->states, "loops",
                          (json_int_t)r->loops);
  for (uint32_t j = 0; doc && j < r->tally.n; j++) {
    uint32_t k = order[j];
    json_t *o = json_pack("{s:o,s:s,s:f}", "text", rg_json_text(r->tally.keys[k].text),
                          "probability", rg_frac_str(fb, &r->probs[k]), "share",
                          (double)rg_frac_value(&r->probs[k]));
    const rg_tally *t = &r->tally;
    if (o && !t->compound &&
        json_object_set_new(o, "value", rg_json_value(t->m, NULL, 0, t->type, t->keys[k].v)) != 0) {
      json_decref(o);
      o = NULL;
    }
    if (!o || json_array_append_new(res, o) != 0) {
      json_decref(doc);
      doc = NULL;
    }
  }
  if (rg_json_put(&out, doc, 1) == 0) return EX_OK;
  fputs(ferror(stdout) ? "regula: error: cannot write standard output\n"
                       : "regula: error: out of memory\n", stderr);
  return EX_RUNTIME;
}

/* Prints the distribution r (runs cut after depth draws) of procedure
** pname, after a header naming the policy and the placeholders (ph); or
** with json as JSON, phj the placeholders as a JSON array (taken over; NULL:
** out of memory).  Returns EX_OK, or EX_RUNTIME when out of memory. */
static int print_odds(const rg_odds_result *r, uint64_t depth, const char *pname,
                      const char *policy, const rg_buf *ph, int json, json_t *phj) {
  const rg_tally *t = &r->tally;
  uint32_t *order = rg_malloc(((size_t)t->n + 1) * sizeof *order);
  size_t wtext = 6, wfrac = 11;
  long double maxp = 0;
  char fb[100];
  if (!order || rg_tally_order(t, order) != 0 || (json && !phj)) {
    rg_free(order);
    json_decref(phj);
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  for (uint32_t k = 0; k < t->n; k++) {
    size_t n = strlen(t->keys[k].text);
    if (n > wtext) wtext = n;
    if (strlen(rg_frac_str(fb, &r->probs[k])) > wfrac) wfrac = strlen(fb);
    if (r->cut.num && strlen(rg_frac_str(fb, &r->cut)) > wfrac) wfrac = strlen(fb);
    if (rg_frac_value(&r->probs[k]) > maxp) maxp = rg_frac_value(&r->probs[k]);
  }
  if (json) {
    int rc = print_odds_json(r, order, pname, policy, phj);
    rg_free(order);
    return rc;
  }
  printf("%s: exact, policy %s\n", pname, policy);
  if (ph->len) printf("placeholders: %s\n", ph->data);
  if (r->cut.num && wtext < 12) wtext = 12;   /* "(unresolved)" */
  if (wtext > 40) wtext = 40;
  printf("%-*s  %*s  %7s\n", (int)wtext, "result", (int)wfrac, "probability", "percent");
  for (uint32_t j = 0; j < t->n; j++) {
    uint32_t k = order[j];
    long double pv = rg_frac_value(&r->probs[k]);
    int bar = maxp > 0 ? (int)(pv / maxp * 40.0L + 0.5L) : 0;
    printf("%-*s  %*s  %6.2Lf%%  ", (int)wtext, t->keys[k].text, (int)wfrac,
           rg_frac_str(fb, &r->probs[k]), pv * 100.0L);
    for (int b = 0; b < bar; b++) putchar('#');
    putchar('\n');
  }
  if (r->cut.num)
    printf("%-*s  %*s  %6.2Lf%%\n", (int)wtext, "(unresolved)", (int)wfrac,
           rg_frac_str(fb, &r->cut), rg_frac_value(&r->cut) * 100.0L);
  printf("%llu run%s, %u chance state%s", (unsigned long long)r->paths,
         r->paths == 1 ? "" : "s", (unsigned)r->states, r->states == 1 ? "" : "s");
  if (r->loops) printf(", %u loop%s solved", (unsigned)r->loops, r->loops == 1 ? "" : "s");
  if (r->cut_paths)
    printf("; %llu run%s cut after %llu draws: their probability is unresolved, the fractions "
           "above are exact lower bounds", (unsigned long long)r->cut_paths,
           r->cut_paths == 1 ? "" : "s", (unsigned long long)depth);
  printf("\n");
  rg_free(order);
  return EX_OK;
}

/* regula odds FILE PROCEDURE ARG... [--limit N] [--depth N] [--policy P]
** [--set NAME=VALUE]... [--inputs FILE] [--json]: the exact distribution
** of the procedure's result. */
int cmd_odds(opts *o) {
  uint64_t limit = ODDS_DEFAULT_LIMIT, depth = ODDS_DEFAULT_DEPTH;
  int json = 0, nsets = 0, kind = 0;
  char **pos = o->pos, *answers = NULL;
  const char *const *sets = NULL;
  const char *inputs = NULL, *policy = NULL, *svg = NULL;
  static const char *const policies[] = { "first", "random", NULL };
  size_t alen = 0;
  int npos = 0;

  npos = o->npos;
  json = o->json;
  sets = o->sets;
  nsets = o->nsets;
  inputs = o->inputs;
  policy = o->policy;
  svg = o->npictures ? o->pictures[0].path : NULL;
  if (o->limit && cli_parse_count(o->limit, &limit, 0))
    return usage_error("odds", "--limit needs a positive whole number");
  if (o->depth && (cli_parse_count(o->depth, &depth, 0) || depth > 100000))
    return usage_error("odds", "--depth needs a whole number in 1..100000");
  if (o->choices && strcmp(o->choices, "all") == 0 && !policy) policy = "random";
  else if (o->choices && strcmp(o->choices, "first") == 0 && !policy) policy = "first";
  else if (o->choices && strcmp(o->choices, "first") != 0 && strcmp(o->choices, "all") != 0)
    return usage_error("odds", "--choices is first or all");
  if (npos < 2) return usage_error("odds", npos ? "no procedure given" : "no rule file given");
  int prc = cli_policy("odds", policy, policies, &kind, &answers, &alen);
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
  rg_value *args = NULL;
  int pi = cli_resolve_result(m, "odds", pos[1], pos + 2, npos - 2, &args);
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
  if (cli_strategy("odds", m, policy, policies, &strategy) != EX_OK) {
    rg_buf_free(&ph);
    rg_free(args);
    rg_setup_free(&setup);
    rg_free(answers);
    unload(&l);
    return EX_BAD;
  }
  if (strategy) policy = cli_strategy_label(label, sizeof label, policy);
  rg_limits lim = cli_limits(o);
  rg_odds_opts oo = { .m = m, .limits = &lim, .proc = (uint32_t)pi, .args = args,
                      .limit = limit, .depth = (uint32_t)depth,
                      .all_choices = kind == 1 || strategy, .strategy = strategy,
                      .inputs = setup.inputs, .answers = kind == -1 ? answers : NULL,
                      .answers_len = alen, .answers_source = kind == -1 ? policy + 8 : NULL };
  rg_odds_result r;
  switch (rg_odds_run(&oo, &r)) {
  case RG_ODDS_OK:
    rc = print_odds(&r, depth, pos[1], policy ? policy : "first", &ph, json,
                    json ? rg_setup_placeholders_json(&setup, (uint32_t)pi, l.assumptions)
                         : NULL);
    if (rc == EX_OK && svg) rc = draw_odds(&r, pos[1], policy ? policy : "first", svg);
    if (rc == EX_OK && r.expect_paths) {
      /* A failed expectation is a finding (exit 1), as in every command. */
      const char *path;
      uint32_t line, col;
      fflush(stdout);
      if (locate(&l.m, r.expect_pc, &path, &line, &col) == 0)
        fprintf(stderr, "%s:%u: an expectation failed\n", path, line);
      fprintf(stderr, "regula: expectations failed in %llu of %llu runs\n",
              (unsigned long long)r.expect_paths, (unsigned long long)r.paths);
      rc = EX_FINDINGS;
    }
    break;
  case RG_ODDS_LIMIT:
    fprintf(stderr,
            "regula: error: more than %llu runs to enumerate the outcomes; raise --limit or "
            "estimate with `regula sim", (unsigned long long)limit);
    for (int k = 0; k < npos; k++) fprintf(stderr, " %s", pos[k]);
    fputs(" --runs 100000`\n", stderr);
    rc = EX_RUNTIME;
    break;
  case RG_ODDS_TINY:
    fputs("regula: error: the draws between two chance states have more than 2^128 outcomes "
          "together; estimate with `regula sim`\n", stderr);
    rc = EX_RUNTIME;
    break;
  case RG_ODDS_OVERFLOW:
    fputs("regula: error: a probability needs a denominator beyond 128 bits; estimate with "
          "`regula sim`\n", stderr);
    rc = EX_RUNTIME;
    break;
  case RG_ODDS_LOOP:
    fputs("regula: error: a loop of more than 4000 states is too large to solve exactly; "
          "estimate with `regula sim`\n", stderr);
    rc = EX_RUNTIME;
    break;
  case RG_ODDS_RUN_FAILED:
    report_runtime(&l.m, r.msg, r.pc);
    fprintf(stderr, "regula: on the run with the outcomes (1-based):");
    for (uint32_t k = 0; k < r.draws; k++)
      fprintf(stderr, " %llu/%llu", (unsigned long long)r.idx[k] + 1, (unsigned long long)r.n[k]);
    fputc('\n', stderr);
    rc = EX_RUNTIME;
    break;
  default:
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  }
  rg_odds_free(&r);
  rg_free(args);
  rg_free(answers);
  rg_buf_free(&ph);
  rg_setup_free(&setup);
  unload(&l);
  return rc;
}
