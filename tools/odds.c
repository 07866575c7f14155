/*
** odds.c: `regula odds FILE PROCEDURE ARG...`, the exact distribution of a
** procedure's result.  The enumeration is the library's (interp/odds.h:
** every outcome of every draw, exact fractions, paths cut at a depth);
** this file parses the options and prints the distribution: one line per
** distinct result in its natural order, with its probability as a
** fraction, a percent and a bar.
*/
#include "alloc.h"
#include "cli.h"
#include "odds.h"
#include "tally.h"
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Prints the distribution r (paths cut after depth draws).  Returns
** EX_OK, or EX_RUNTIME when out of memory. */
static int print_odds(const rg_odds_result *r, uint64_t depth) {
  const rg_tally *t = &r->tally;
  uint32_t *order = rg_malloc(((size_t)t->n + 1) * sizeof *order);
  size_t wtext = 6, wfrac = 11;
  long double maxp = 0;
  char fb[100];
  if (!order || rg_tally_order(t, order) != 0) {
    rg_free(order);
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
  printf("%llu path%s enumerated", (unsigned long long)r->paths, r->paths == 1 ? "" : "s");
  if (r->cut_paths)
    printf("; %llu cut after %llu draws: their probability is unresolved, the fractions "
           "above are exact lower bounds", (unsigned long long)r->cut_paths,
           (unsigned long long)depth);
  printf("\n");
  rg_free(order);
  return EX_OK;
}

/* regula odds FILE PROCEDURE ARG... [--limit N] [--depth N] [--choices
** first|all]: the exact distribution of the procedure's result. */
int cmd_odds(opts *o) {
  uint64_t limit = ODDS_DEFAULT_LIMIT, depth = ODDS_DEFAULT_DEPTH;
  int all_choices = 0;
  char **pos = o->pos;
  int npos = 0;

  npos = o->npos;
  if (o->limit && cli_parse_count(o->limit, &limit, 0))
    return usage_error("odds", "--limit needs a positive whole number");
  if (o->depth && (cli_parse_count(o->depth, &depth, 0) || depth > 100000))
    return usage_error("odds", "--depth needs a whole number in 1..100000");
  if (o->choices && strcmp(o->choices, "all") == 0) all_choices = 1;
  else if (o->choices && strcmp(o->choices, "first") != 0)
    return usage_error("odds", "--choices is first or all");
  if (npos < 2) return usage_error("odds", npos ? "no procedure given" : "no rule file given");

  loaded l;
  int rc = load(&l, pos[0], 0);
  if (rc != EX_OK) {
    unload(&l);
    return rc;
  }
  const rg_module *m = &l.m;
  rg_value *args = NULL;
  int pi = cli_resolve_result(m, "odds", pos[1], pos + 2, npos - 2, &args);
  if (pi < 0) {
    unload(&l);
    return pi == -2 ? EX_RUNTIME : EX_BAD;
  }

  rg_odds_opts oo = { .m = m, .limits = &o->limits, .proc = (uint32_t)pi, .args = args,
                      .limit = limit, .depth = (uint32_t)depth, .all_choices = all_choices };
  rg_odds_result r;
  switch (rg_odds_run(&oo, &r)) {
  case RG_ODDS_OK:
    rc = print_odds(&r, depth);
    if (rc == EX_OK && r.expect_paths) {
      /* A failed expectation is a finding (exit 1), as in every command. */
      const char *path;
      uint32_t line, col;
      fflush(stdout);
      if (locate(m, r.expect_pc, &path, &line, &col) == 0)
        fprintf(stderr, "%s:%u: an expectation failed\n", path, line);
      fprintf(stderr, "regula: expectations failed on %llu of %llu paths\n",
              (unsigned long long)r.expect_paths, (unsigned long long)r.paths);
      rc = EX_FINDINGS;
    }
    break;
  case RG_ODDS_LIMIT:
    fprintf(stderr,
            "regula: error: more than %llu paths of outcomes to enumerate; raise --limit or "
            "estimate with `regula sim", (unsigned long long)limit);
    for (int k = 0; k < npos; k++) fprintf(stderr, " %s", pos[k]);
    fputs(" --runs 100000`\n", stderr);
    rc = EX_RUNTIME;
    break;
  case RG_ODDS_TINY:
    fprintf(stderr, "regula: error: a path of %u draws has a probability too small for "
                    "128-bit fractions; estimate with `regula sim`\n", (unsigned)r.draws);
    rc = EX_RUNTIME;
    break;
  case RG_ODDS_OVERFLOW:
    fputs("regula: error: a probability needs a denominator beyond 128 bits; estimate with "
          "`regula sim`\n", stderr);
    rc = EX_RUNTIME;
    break;
  case RG_ODDS_RUN_FAILED:
    report_runtime(m, r.msg, r.pc);
    fprintf(stderr, "regula: on the path of outcomes (1-based):");
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
  unload(&l);
  return rc;
}
