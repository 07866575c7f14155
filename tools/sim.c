/*
** sim.c: `regula sim FILE [PROCEDURE ARG...] --runs N`, Monte Carlo tallies
** of a procedure's result, on regula.h alone.  The simulation itself, its
** threads and the seeding are the library's (rg_sims), and so are the
** tables it prints (each distinct value with its count, its share and the
** 95% Wilson score interval of the share), the JSON and the chart; this
** file parses the options, loads the rules, draws the progress bar and
** says what went wrong.
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
#include <unistd.h>

const char sim_help[] =
  "Runs PROCEDURE (default main; it must have a result) N times and tallies\n"
  "its results: each distinct value with its count, its share and the 95%\n"
  "Wilson confidence interval of the share.  A record result is tallied\n"
  "field by field; a field holding a list of records by its items' fields\n"
  "(terrain.name: the runs in which some item has the value) and its\n"
  "length (terrain (items)).  Run i rolls and draws from stream i of the seed and\n"
  "answers choices at random from a stream of its own, so the tallies\n"
  "depend only on the seed, never on the threads.\n"
  "\n"
  "  --runs N       how many runs (default 10000)\n"
  "  --seed S       the seed (default 1; random: one drawn and said on stderr)\n"
  "  --policy P     how choices are answered: the rule file's default\n"
  "                 strategy when it names one (`default strategy NAME`),\n"
  "                 else random; random, first, answers:FILE (the same\n"
  "                 answers, one a line, every run), or NAME, a strategy of\n"
  "                 the rules (`strategy NAME`; the choices it has no rule\n"
  "                 for at random; with --variants, every rule set's own).\n"
  "                 `regula sim FILE --policy ?` lists the file's strategies\n"
  "                 and names its default\n"
  "  --set NAME=VALUE  an input, or a die's faces or a deck's cards\n"
  "                 (D=hit:2,miss:4); repeatable\n"
  "  --inputs FILE  inputs from a file of NAME=VALUE lines; --set wins\n"
  "  --variants A,B,...  instead of FILE: every rule set on common random\n"
  "                 numbers, each field's shares side by side with each\n"
  "                 one's difference from A and its paired 95% interval\n"
  "  --threads K    worker threads (default: the processors, at most 8)\n"
  "  --svg FILE     also draw the distributions as bar charts with their\n"
  "                 intervals (variants side by side) into FILE\n"
  "  --json         one JSON object instead of the table: format, procedure,\n"
  "                 runs, seed (a string), tallies: [{name, tallied, of_items,\n"
  "                 values:\n"
  "                 [{text, count, share, low, high, value}]}] (value typed,\n"
  "                 for a scalar result), file, arguments, sets, policy,\n"
  "                 strategy (its name, with --policy NAME), placeholders\n"
  "\n"
  "The header names the rule file, the call, how choices were answered,\n"
  "every --set and --inputs setting, and which placeholder data (dice and\n"
  "decks the rule file assumes) the result rests on; so does a chart's\n"
  "title, and its bars share one scale, 0 to 100%.  A progress bar shows on\n"
  "stderr when it is a terminal.\n"
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
  cli_eprintf("] %llu/%llu", (unsigned long long)done, (unsigned long long)total);
  if (final) fputs("\r\033[K", stderr);
  fflush(stderr);
}

/* rg_sims_options.progress: the bar, while the runs go on. */
static void progress(void *ctx, uint64_t done, uint64_t total) {
  (void)ctx;
  bar(done, total, 0);
}

int sim_save_chart(const char *path, rg_status st, const rg_buf *b) {
  if (st != RG_OK || b->out.failed) {     /* RG_NOMEM, or RG_IO: b could not grow */
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  if (cli_file_save(path, b->data, b->len) != 0) return EX_RUNTIME;
  return EX_OK;
}

/* Says what the simulation s of seed found besides its tallies: a run that
** failed (exit 3; exit 2 when no rule failed but the answers gave none
** fitting) or expectations that failed (exit 1).  Returns the exit
** code, EX_OK when neither. */
static int sim_findings(const rg_rules *r, const rg_sims *s, uint64_t seed) {
  const char *msg;
  rg_place at;
  uint64_t run, n;
  if ((msg = rg_sims_failure_text(s))) {
    if (!rg_sims_where(s, &run, &at)) {   /* no rule failed: the answers (bad input) */
      cli_eprintf("regula: error: %s\n", msg);
      return EX_BAD;
    }
    call_fault((void *)r, msg, at.path, at.line, at.col);
    cli_eprintf("regula: error: run %llu of seed %llu failed\n", (unsigned long long)run,
            (unsigned long long)seed);
    return EX_RUNTIME;
  }
  if ((n = rg_sims_expects(s, &run, &at)) == 0) return EX_OK;
  /* A failed expectation is a finding (exit 1), as in every command. */
  fflush(stdout);
  if (strcmp(at.path, "?") != 0)
    cli_eprintf("%s:%u: an expectation failed in run %llu of seed %llu\n", at.path, at.line,
            (unsigned long long)run, (unsigned long long)seed);
  cli_eprintf("regula: expectations failed in %llu of %llu runs\n", (unsigned long long)n,
          (unsigned long long)rg_sims_done(s));
  return EX_FINDINGS;
}

/* regula sim FILE [PROCEDURE ARG...] --runs N [--seed S] [--threads K]
** [--policy P] [--set NAME=VALUE]... [--inputs FILE] [--json] [--svg FILE]:
** Monte Carlo tallies of a procedure's result. */
int cmd_sim(opts *o) {
  static const char *const policies[] = { "random", "first", NULL };
  uint64_t runs = 10000, seed = 1, threads = 0;
  const char *policy = o->policy, *svg = o->npictures ? o->pictures[0].path : NULL;
  const char *pname = o->npos >= 2 ? o->pos[1] : "main", *strategy = NULL;
  char *answers = NULL;
  size_t alen = 0;
  int kind = 0, rc, nargs = o->npos >= 2 ? o->npos - 2 : 0;
  rg_rules *base = NULL, *r = NULL;
  rg_sims *s = NULL;
  rg_sims_options so;
  rg_status st;

  if (o->runs && cli_parse_count(o->runs, &runs, 0))
    return usage_error("sim", "--runs needs a positive whole number");
  if (o->seed && cli_parse_seed(o->seed, &seed))
    return usage_error("sim", "--seed needs a whole number or random");
  if (o->threads && (cli_parse_count(o->threads, &threads, 0) || threads > RG_SIMS_MAX_THREADS))
    return usage_error("sim", "--threads needs a whole number in 1..%d", RG_SIMS_MAX_THREADS);
  if (threads == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    threads = n < 1 ? 1 : n > 8 ? 8 : (uint64_t)n;
  }
  if (threads > runs) threads = runs;
  if (o->variants) {
    /* the rule sets come from --variants; a positional is the procedure; a
    ** --policy the library does not know is a strategy every variant must
    ** declare */
    rg_policy p;
    int known = policy && rg_policy_parse(NULL, policy, &p) == RG_OK;
    sim_args sa = { .limits = cli_limits(o), .runs = runs, .seed = seed,
                    .threads = (uint32_t)threads, .json = o->json,
                    .first = known && p.kind == RG_CHOOSE_FIRST, .sets = o->sets,
                    .strategy = policy && !known ? policy : NULL,
                    .nsets = o->nsets, .svg = svg, .no_policy = policy == NULL };
    if (o->npos > 1 || o->inputs || (policy && strncmp(policy, "answers:", 8) == 0))
      return usage_error("sim", "with --variants: at most a PROCEDURE (without arguments), "
                                "--policy random, first or a strategy every variant declares, "
                                "--set but no --inputs");
    return sim_variants(o->variants, o->npos ? o->pos[0] : "main", &sa);
  }
  if (o->npos < 1) return usage_error("sim", "no rule file given");
  rc = cli_policy("sim", policy, policies, &kind, &answers, &alen);
  if (rc == EX_OK) rc = cli_rules_load(o->pos[0], 1, &base);
  if (rc == EX_OK && o->native) rc = cli_native(base);
  if (rc == EX_OK) rc = cli_rules_setup(base, o->inputs, o->sets, o->nsets, &r);
  if (rc == EX_OK) {
    int pi = cli_rules_counted(r, "sim", pname, (const char *const *)o->pos + 2, nargs);
    if (pi < 0) rc = pi == -2 ? EX_RUNTIME : EX_BAD;
  }
  if (rc == EX_OK && policy && strcmp(policy, "?") == 0) {
    rc = cli_list_strategies(r, o->pos[0]);
    goto done;
  }
  if (rc == EX_OK && cli_rules_strategy("sim", r, policy, policies, &strategy) != EX_OK)
    rc = EX_BAD;
  if (rc != EX_OK) goto done;
  so = RG_OPTIONS(rg_sims_options);
  so.proc = pname;
  so.args = (const char *const *)o->pos + 2;
  so.nargs = nargs;
  so.seed = seed;
  so.threads = (uint32_t)threads;
  so.limits = cli_limits(o);
  so.policy.kind = kind == -1 ? RG_CHOOSE_ANSWERS : kind == 1 ? RG_CHOOSE_FIRST : RG_CHOOSE_RANDOM;
  so.policy.answers = answers;
  so.policy.answers_len = alen;
  so.policy.answers_name = kind == -1 ? policy + 8 : NULL;
  so.policy.strategy = strategy;
  if (isatty(2) && runs >= 10000) so.progress = progress;
  st = rg_sims_new(r, &so, &s);
  if (st != RG_OK) {
    cli_eprintf("regula: error: %s\n", st == RG_NOMEM ? "out of memory" : rg_rules_errmsg(r));
    rc = st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
    goto done;
  }
  st = rg_sims_run(s, runs);
  if (so.progress) bar(runs, runs, 1);
  if (st == RG_OK) {
    rg_out out = cli_file_out(stdout);
    rc = cli_written(o->json ? rg_sims_json(s, &out) : rg_sims_write(s, &out));
    if (rc == EX_OK && svg) {
      rg_buf b;
      rg_buf_init(&b);
      rc = sim_save_chart(svg, rg_sims_svg(s, &b.out), &b);
      rg_buf_free(&b);
    }
    if (rc == EX_OK) rc = sim_findings(r, s, seed);
  } else if (st == RG_NOMEM) {
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  } else {
    rc = sim_findings(r, s, seed);
  }
done:
  rg_sims_free(s);
  rg_rules_free(r);
  rg_rules_free(base);
  rg_free(answers);
  return rc;
}
