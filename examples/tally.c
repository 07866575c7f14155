/*
** tally.c: results as numbers, through the core header regula.h alone.
**
** A rule file of two six-sided dice: `total` is their sum, `doubles`
** whether they show the same.  This program works out the exact
** distribution of the sum (rg_exact_outcome: each result with its
** probability as a fraction), then simulates `doubles` 600 times and reads
** the tally (rg_sims_value: each value with the runs that had it).  It
** checks what it reads against what a person works out by hand (below) and
** prints both:
**
**     cc examples/tally.c $(pkg-config --cflags --libs regula)
**     ./a.out
**
** By hand: of the 36 equally likely throws of 2d6, the sum s (2..12) comes
** up in 6 - |s - 7| of them, so P(2) = 1/36, P(3) = 2/36 = 1/18, P(4) =
** 3/36 = 1/12, P(5) = 4/36 = 1/9, P(6) = 5/36, P(7) = 6/36 = 1/6, and the
** same downwards to P(12) = 1/36: eleven results whose probabilities add
** to 1.  Doubles come up in 6 throws of 36 (1/6), so a tally of 600 runs
** has two values, false and true, whose counts add to 600.
**
** (`make test` builds it, runs it and compares its output with
** examples/tally.expected.)
*/
#include "regula.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char rules[] =
  "ruleset \"Two dice\"\n"
  "procedure total() -> int { return roll 2d6 }\n"
  "procedure doubles() -> bool {\n"
  "  let a = roll d6\n"
  "  let b = roll d6\n"
  "  return a == b\n"
  "}\n";

/* Diagnostic callback: prints each error as the regula program does. */
static void on_diagnostic(void *ctx, const rg_diagnostic *d) {
  rg_diagnostic_render(d, ctx);
}

/* rg_out write callback to a FILE*. */
static int write_file(void *ctx, const char *s, size_t n) {
  return fwrite(s, 1, n, ctx) == n ? 0 : -1;
}

/* Says what failed and returns the exit code 3. */
static int fail(const char *what, rg_status st, const char *msg) {
  fprintf(stderr, "tally: %s: %s: %s\n", what, rg_status_name(st), msg);
  return 3;
}

/* The exact distribution of `total`, checked against 6 - |s - 7| in 36.
** Returns 0, or 3 after saying what is wrong. */
static int exact_sum(const rg_rules *r) {
  rg_exact_options o = RG_OPTIONS(rg_exact_options);
  rg_exact *x = NULL;
  rg_status st;
  uint64_t num_sum = 0, den_lcm = 36;
  int rc = 0;
  o.proc = "total";
  if ((st = rg_exact_new(r, &o, &x)) != RG_OK) return fail("exact odds", st, rg_rules_errmsg(r));
  if ((st = rg_exact_run(x)) != RG_OK) {
    rc = fail("exact odds", st, rg_exact_errmsg(x));
    rg_exact_free(x);
    return rc;
  }
  printf("total: %u results\n", rg_exact_outcomes(x));
  if (rg_exact_outcomes(x) != 11) rc = fail("exact odds", RG_OK, "not 11 results (2..12)");
  for (uint32_t i = 0; rc == 0 && i < rg_exact_outcomes(x); i++) {
    const char *text;
    uint64_t num, den;
    long s;
    if ((st = rg_exact_outcome(x, i, &text, &num, &den)) != RG_OK) {
      rc = fail("outcome", st, "");
      break;
    }
    s = strtol(text, NULL, 10);
    /* num/den == (6 - |s - 7|)/36, crosswise; results in their order, 2 first */
    if (s != (long)i + 2 || num * 36 != (uint64_t)(6 - labs(s - 7)) * den) {
      rc = fail("outcome", RG_OK, text);
      break;
    }
    printf("  %2s  %llu/%llu\n", text, (unsigned long long)num, (unsigned long long)den);
    num_sum += num * (den_lcm / den);    /* every den divides 36 */
  }
  if (rc == 0 && num_sum != den_lcm) rc = fail("exact odds", RG_OK, "the probabilities do not add to 1");
  if (rc == 0) printf("  (each 6 - |s - 7| in 36, as worked by hand; together 36/36)\n");
  rg_exact_free(x);
  return rc;
}

/* 600 runs of `doubles`, the tally read as numbers.  Returns 0, or 3
** after saying what is wrong. */
static int sim_doubles(const rg_rules *r) {
  rg_sims_options o = RG_OPTIONS(rg_sims_options);
  rg_sims *s = NULL;
  rg_status st;
  const char *name, *text;
  uint32_t nvalues;
  uint64_t count, total = 0;
  int rc = 0;
  o.proc = "doubles";
  o.seed = 1;
  o.threads = 2;
  if ((st = rg_sims_new(r, &o, &s)) != RG_OK) return fail("simulation", st, rg_rules_errmsg(r));
  if ((st = rg_sims_run(s, 600)) != RG_OK) {
    rc = fail("simulation", st, rg_sims_errmsg(s));
    rg_sims_free(s);
    return rc;
  }
  if (rg_sims_columns(s) != 1 || rg_sims_column(s, 0, &name, &nvalues) != RG_OK || nvalues != 2) {
    rg_sims_free(s);
    return fail("simulation", RG_OK, "not one column of two values");
  }
  printf("doubles: %llu runs, column '%s'\n", (unsigned long long)rg_sims_done(s), name);
  for (uint32_t i = 0; i < nvalues; i++) {
    if (rg_sims_value(s, 0, i, &text, &count) != RG_OK) {
      rg_sims_free(s);
      return fail("tally", RG_NOT_FOUND, "a value");
    }
    /* the counts depend on the seed; by hand, true comes in 1/6 of the
    ** runs, 100 of 600, give or take 9 (one standard deviation): the
    ** check allows four and more either way */
    int is_true = strcmp(text, "true") == 0;
    if (!is_true && strcmp(text, "false") != 0) rc = fail("tally", RG_OK, text);
    if (is_true && (count < 60 || count > 140)) rc = fail("tally", RG_OK, "true far from 100 runs");
    printf("  %-5s %s\n", text, is_true ? "in 60..140 of the runs (100 by hand)"
                                         : "in the others (500 by hand)");
    total += count;
  }
  if (rg_sims_value(s, 0, nvalues, &text, &count) != RG_NOT_FOUND)
    rc = fail("tally", RG_OK, "a value past the last");
  if (rc == 0 && total != 600) rc = fail("tally", RG_OK, "the counts do not add to 600");
  if (rc == 0) printf("  the counts add to %llu\n", (unsigned long long)total);
  rg_sims_free(s);
  return rc;
}

int main(void) {
  rg_out err = { write_file, stderr, 0 };
  rg_compile_options copt = RG_OPTIONS(rg_compile_options);
  rg_rules *r = NULL;
  rg_status st;
  int rc;
  copt.diagnostic = on_diagnostic;
  copt.diagnostic_ctx = &err;
  if ((st = rg_rules_compile("dice.rules", rules, strlen(rules), &copt, &r)) != RG_OK) {
    fprintf(stderr, "tally: cannot compile: %s\n", rg_status_name(st));
    return 2;
  }
  rc = exact_sum(r);
  if (rc == 0) rc = sim_doubles(r);
  rg_rules_free(r);
  return rc;
}
