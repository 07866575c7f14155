/*
** odds.c: `regula odds FILE PROCEDURE ARG...`, the exact distribution of a
** procedure's result, on regula.h alone.  The enumeration is the
** library's (rg_exact: every outcome of every draw, repeated states solved
** as a Markov chain, exact fractions), and so is the table it prints (one
** line per distinct result in its natural order, with its probability as a
** fraction, a percent and a bar); this file parses the options and says
** what went wrong.
*/
#include "regula_front.h"
#include "cmd_rules.h"
#include "cmd_sim.h"
#include "exitcode.h"
#include "fileout.h"
#include "inputs.h"
#include "opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  "  --policy P         how choices are answered: the rule file's default\n"
  "                     strategy when it names one (`default strategy NAME`),\n"
  "                     else first; first, random (every option in turn, each\n"
  "                     equally likely), answers:FILE (one a line), or NAME,\n"
  "                     a strategy of the rules (its random picks and the\n"
  "                     choices it has no rule for: every option in turn);\n"
  "                     --choices first|all is the same as first|random.\n"
  "                     `regula odds FILE --policy ?` lists the file's\n"
  "                     strategies and names its default\n"
  "  --set NAME=VALUE   an input, or a die's faces or a deck's cards\n"
  "                     (D=hit:2,miss:4); repeatable\n"
  "  --inputs FILE      inputs from a file of NAME=VALUE lines; --set wins\n"
  "  --json             one JSON object instead of the table\n"
  "  --svg FILE         also draw the distribution as a bar chart into FILE\n"
  "                     (every bar on one scale, 0 to 100%)\n"
  "  --variants A,B,... instead of FILE: the odds of every rule set side by\n"
  "                     side, with each one's exact difference from A (B - A)\n"
  "                     per value; values a later rule set adds stand where\n"
  "                     its enum puts them; --set applies to every rule set\n"
  "                     that has the name (no --inputs)\n"
  "\n"
  "A record result is shown field by field; a field holding a list of\n"
  "records by its items' fields (terrain.name: the chance that some item\n"
  "has the value) and its length (terrain (items)).  The header names the\n"
  "rule file, the call, how choices were answered, every --set and --inputs\n"
  "setting, and the placeholder data (dice and decks the rule file assumes)\n"
  "the result rests on.  The odds keep the states they tell apart within\n"
  "--max-memory (1 GiB unless given) and stop with an error past it.\n"
  "\n"
  "Example: regula odds SHEET.rules weather_score 7 Summer\n"
  "         regula odds --variants SHEET.rules,REVISED.rules weather_score 7 Summer\n"
  "Exit: 0, 1 an expectation failed in some run (the first is named), 2 bad\n"
  "arguments, 3 a runtime error in some run, the run limit reached or a\n"
  "denominator too large.\n";

/* Says why the odds x (of the rules r) could not be worked out, or that
** expectations failed (a finding); pos[0..npos) is the command line's
** rule file, procedure and arguments, for the hint to `regula sim`.
** Returns the exit code. */
static int odds_findings(const rg_rules *r, const rg_exact *x, rg_status st, char **pos,
                         int npos) {
  const char *msg;
  rg_place at;
  uint64_t n;
  if (st == RG_RUN_LIMIT && *(msg = rg_exact_errmsg(x))) {
    cli_eprintf("regula: error: %s", msg);
    if (rg_exact_limit_was_runs(x)) {
      fputs("; raise --limit or estimate with `regula sim", stderr);
      for (int k = 0; k < npos; k++) cli_eprintf(" %s", pos[k]);
      fputs(" --runs 100000`", stderr);
    }
    fputc('\n', stderr);
    return EX_RUNTIME;
  }
  if (st == RG_RUN_ERROR) {
    rg_buf outcomes;
    rg_buf_init(&outcomes);
    msg = rg_exact_errmsg(x);
    if (!rg_exact_where(x, &at)) {        /* no rule failed: the answers (bad input) */
      cli_eprintf("regula: error: %s\n", *msg ? msg : "a choice went unanswered");
      rg_buf_free(&outcomes);
      return EX_BAD;
    }
    rg_exact_failed_draws(x, &outcomes.out);
    call_fault((void *)r, *msg ? msg : "the run failed", at.path, at.line, at.col);
    if (outcomes.len)   /* a run with no chance in it needs no outcomes to be found */
      cli_eprintf("regula: on the run with the outcomes (1-based):%s\n", outcomes.data);
    rg_buf_free(&outcomes);
    return EX_RUNTIME;
  }
  if (st != RG_OK) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  if ((n = rg_exact_expects(x, &at)) == 0) return EX_OK;
  /* A failed expectation is a finding (exit 1), as in every command. */
  fflush(stdout);
  if (strcmp(at.path, "?") != 0) cli_eprintf("%s:%u: an expectation failed\n", at.path, at.line);
  cli_eprintf("regula: expectations failed in %llu of %llu runs\n", (unsigned long long)n,
          (unsigned long long)rg_exact_runs(x));
  return EX_FINDINGS;
}

/* Reads odds' own options of o (--limit, --depth, --choices) into *limit,
** *depth and *policy (--choices first|all stands for --policy first|random
** when no --policy is given).  Returns EX_OK or a usage error. */
static int odds_options(const opts *o, uint64_t *limit, uint64_t *depth, const char **policy) {
  *limit = 1000000;
  *depth = 200;
  *policy = o->policy;
  if (o->limit && cli_parse_count(o->limit, limit, 0))
    return usage_error("odds", "--limit needs a positive whole number");
  if (o->depth && (cli_parse_count(o->depth, depth, 0) || *depth > 100000))
    return usage_error("odds", "--depth needs a whole number in 1..100000");
  if (o->choices && strcmp(o->choices, "all") == 0 && !*policy) *policy = "random";
  else if (o->choices && strcmp(o->choices, "first") == 0 && !*policy) *policy = "first";
  else if (o->choices && strcmp(o->choices, "first") != 0 && strcmp(o->choices, "all") != 0)
    return usage_error("odds", "--choices is first or all");
  return EX_OK;
}

/* regula odds --variants A,B,... PROCEDURE ARG... [--limit N] [--depth N]
** [--policy first|random|NAME] [--set NAME=VALUE]... [--json] [--svg FILE]:
** the exact odds of each rule set, side by side with their differences. */
int odds_variants(opts *o) {
  static const char *const policies[] = { "first", "random", NULL };
  uint64_t limit, depth;
  const char *policy, *svg = o->npictures ? o->pictures[0].path : NULL;
  const char *names[RG_SIMVARS_MAX];
  var vs[RG_SIMVARS_MAX];
  rg_exact *xs[RG_SIMVARS_MAX];
  uint32_t n = 0;
  char *copy = NULL;
  int rc = odds_options(o, &limit, &depth, &policy);
  memset(vs, 0, sizeof vs);
  memset(xs, 0, sizeof xs);
  if (rc != EX_OK) return rc;
  if (o->npos < 1) return usage_error("odds", "no procedure given");
  if (o->inputs || (policy && strncmp(policy, "answers:", 8) == 0))
    return usage_error("odds", "with --variants: --policy first, random or a strategy every "
                               "variant declares, --set but no --inputs");
  if (!(copy = rg_malloc(strlen(o->variants) + 1))) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  strcpy(copy, o->variants);
  rc = load_variants("odds", copy, vs, &n, o->pos[0], (const char *const *)o->pos + 1,
                     o->npos - 1, o->sets, o->nsets);
  for (uint32_t v = 0; rc == EX_OK && v < n; v++) {
    const char *strategy = NULL;
    rg_exact_options xo;
    rg_status st;
    names[v] = vs[v].path;
    if (cli_rules_strategy("odds", vs[v].r, policy, policies, &strategy) != EX_OK) {
      cli_eprintf("regula: (in %s)\n", vs[v].path);
      rc = EX_BAD;
      break;
    }
    xo = RG_OPTIONS(rg_exact_options);
    xo.proc = o->pos[0];
    xo.args = (const char *const *)o->pos + 1;
    xo.nargs = o->npos - 1;
    xo.limit = limit;
    xo.depth = (uint32_t)depth;
    xo.limits = cli_limits(o);
    {
      /* odds take the first option unless asked otherwise */
      rg_policy p;
      xo.policy.kind = (policy && rg_policy_parse(NULL, policy, &p) == RG_OK &&
                        p.kind == RG_CHOOSE_RANDOM) || strategy ? RG_CHOOSE_RANDOM
                                                                : RG_CHOOSE_FIRST;
    }
    xo.policy.strategy = strategy;
    st = rg_exact_new(vs[v].r, &xo, &xs[v]);
    if (st == RG_OK) st = rg_exact_run(xs[v]);
    if (!xs[v]) {
      cli_eprintf("regula: error: %s: %s\n", vs[v].path,
                  st == RG_NOMEM ? "out of memory" : rg_rules_errmsg(vs[v].r));
      rc = st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
    } else if (st != RG_OK) {
      cli_eprintf("regula: in %s:\n", vs[v].path);
      rc = odds_findings(vs[v].r, xs[v], st, NULL, 0);
    }
  }
  if (rc == EX_OK) {
    rg_out out = cli_file_out(stdout);
    rc = cli_written((o->json ? rg_exact_compare_json
                              : rg_exact_compare)((const rg_exact *const *)xs, names, n, &out));
    if (rc == EX_OK && svg) {
      rg_buf b;
      rg_buf_init(&b);
      rc = sim_save_chart(svg, rg_exact_compare_svg((const rg_exact *const *)xs, names, n, &b.out),
                          &b);
      rg_buf_free(&b);
    }
    /* expectations that failed in some variant's runs: a finding */
    for (uint32_t v = 0; rc == EX_OK && v < n; v++) {
      if (rg_exact_expects(xs[v], NULL)) rc = odds_findings(vs[v].r, xs[v], RG_OK, NULL, 0);
    }
  }
  for (uint32_t v = 0; v < RG_SIMVARS_MAX; v++) {
    rg_exact_free(xs[v]);
    rg_rules_free(vs[v].r);
    rg_rules_free(vs[v].base);
  }
  rg_free(copy);
  return rc;
}

/* regula odds FILE PROCEDURE ARG... [--limit N] [--depth N] [--policy P]
** [--set NAME=VALUE]... [--inputs FILE] [--json] [--svg FILE]: the exact
** distribution of the procedure's result. */
int cmd_odds(opts *o) {
  static const char *const policies[] = { "first", "random", NULL };
  uint64_t limit, depth;
  const char *policy, *svg = o->npictures ? o->pictures[0].path : NULL;
  const char *strategy = NULL;
  char **pos = o->pos, *answers = NULL;
  size_t alen = 0;
  int npos = o->npos, kind = 0, rc;
  rg_rules *base = NULL, *r = NULL;
  rg_exact *x = NULL;
  rg_exact_options xo;
  rg_status st;

  if (o->variants) return odds_variants(o);
  if ((rc = odds_options(o, &limit, &depth, &policy)) != EX_OK) return rc;
  if (npos == 1 && policy && strcmp(policy, "?") == 0) {
    /* the strategies need no procedure */
    if ((rc = cli_rules_load(pos[0], 1, &base)) == EX_OK) rc = cli_list_strategies(base, pos[0]);
    rg_rules_free(base);
    return rc;
  }
  if (npos < 2) return usage_error("odds", npos ? "no procedure given" : "no rule file given");
  rc = cli_policy("odds", policy, policies, &kind, &answers, &alen);
  if (rc == EX_OK) rc = cli_rules_load(pos[0], 1, &base);
  if (rc == EX_OK) rc = cli_rules_setup(base, o->inputs, o->sets, o->nsets, &r);
  if (rc == EX_OK) {
    int pi = cli_rules_counted(r, "odds", pos[1], (const char *const *)pos + 2, npos - 2);
    if (pi < 0) rc = pi == -2 ? EX_RUNTIME : EX_BAD;
  }
  if (rc == EX_OK && policy && strcmp(policy, "?") == 0) {
    rc = cli_list_strategies(r, pos[0]);
    goto done;
  }
  if (rc == EX_OK && cli_rules_strategy("odds", r, policy, policies, &strategy) != EX_OK)
    rc = EX_BAD;
  if (rc != EX_OK) goto done;
  xo = RG_OPTIONS(rg_exact_options);
  xo.proc = pos[1];
  xo.args = (const char *const *)pos + 2;
  xo.nargs = npos - 2;
  xo.limit = limit;
  xo.depth = (uint32_t)depth;
  xo.limits = cli_limits(o);
  xo.policy.kind = kind == -1 ? RG_CHOOSE_ANSWERS : kind == 1 || strategy ? RG_CHOOSE_RANDOM
                                                                          : RG_CHOOSE_FIRST;
  xo.policy.answers = answers;
  xo.policy.answers_len = alen;
  xo.policy.answers_name = kind == -1 ? policy + 8 : NULL;
  xo.policy.strategy = strategy;
  st = rg_exact_new(r, &xo, &x);
  if (st == RG_OK) st = rg_exact_run(x);
  if (!x) {
    cli_eprintf("regula: error: %s\n", st == RG_NOMEM ? "out of memory" : rg_rules_errmsg(r));
    rc = st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
    goto done;
  }
  if (st == RG_OK) {
    rg_out out = cli_file_out(stdout);
    if ((rc = cli_written((o->json ? rg_exact_json : rg_exact_write)(x, &out))) != EX_OK)
      goto done;
    if (svg) {
      rg_buf b;
      rg_buf_init(&b);
      rc = sim_save_chart(svg, rg_exact_svg(x, &b.out), &b);
      rg_buf_free(&b);
      if (rc != EX_OK) goto done;
    }
  }
  rc = odds_findings(r, x, st, pos, npos);
done:
  rg_exact_free(x);
  rg_rules_free(r);
  rg_rules_free(base);
  rg_free(answers);
  return rc;
}
