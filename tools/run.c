/*
** run.c: `regula run FILE`, a whole procedure with its dice, decks and
** choices, seeded and reproducible, and `--variants` side by side, on
** regula.h alone.
**
** The library plays the run (rg_run: the policies, the seeding contract)
** and writes its log (rg_run_log: text or JSON lines) to stdout as it
** happens; people at the table play through table.c.  This file parses the
** options and the inputs, reads the answers, and prints.  Questions to a
** person go to stderr, so stdout holds only the log.  Nothing here knows a
** game.
*/
#define _XOPEN_SOURCE 700   /* realpath */
#include "regula_front.h"
#include "ask.h"
#include "cmd_rules.h"
#include "exitcode.h"
#include "fileout.h"
#include "inputs.h"
#include "opts.h"
#include "table.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Finds the procedure to run (name), which must exist, not be a test and
** take no parameters.  Returns its index, or -1 after saying what is
** wrong. */
static int find_main(const rg_rules *r, const char *name) {
  int pi = rg_rules_find(r, RG_PROC, name), np;
  char tn[128];
  if (pi < 0) {
    int n = 0;
    cli_eprintf("regula: error: no procedure '%s'; ", name);
    for (int i = 0; i < rg_rules_count(r, RG_PROC); i++) {
      const char *p = rg_rules_item(r, RG_PROC, i);
      if (rg_rules_arity(r, RG_PROC, i)) continue;
      cli_eprintf("%s%s", n++ ? ", " : "procedures without parameters: ", p);
    }
    fputs(n ? "\n" : "the rule set has no procedure without parameters\n", stderr);
    return -1;
  }
  if ((np = rg_rules_arity(r, RG_PROC, pi)) != 0) {
    cli_eprintf("regula: error: procedure '%s' takes parameters (", name);
    for (int k = 0; k < np; k++)
      cli_eprintf("%s%s: %s", k ? ", " : "", rg_rules_param(r, pi, k),
              rg_rules_type(r, RG_PROC, pi, k, tn, sizeof tn));
    fputs("); regula run needs one without\n", stderr);
    return -1;
  }
  return pi;
}

/* Says what stopped run's call st: no answer (exit 2) or a failed rule
** (exit 3, with its source line).  Returns the exit code. */
static int run_failed(const rg_rules *r, rg_run *run) {
  rg_place at;
  const char *msg = rg_run_errmsg(run);
  if (rg_run_stopped(run)) {
    if (*msg) cli_eprintf("regula: error: %s\n", msg);
    return EX_BAD;
  }
  rg_run_where(run, &at);
  call_fault((void *)r, msg && *msg ? msg : "the run failed", at.path, at.line, at.col);
  return EX_RUNTIME;
}

/* Runs procedure o->proc of base with o's options, printing the log;
** returns the exit code. */
static int run(const rg_rules *base, opts *o, uint64_t seed, int dice_ask) {
  static const char *const builtin[] = { "random", "first", "ask", NULL };
  const char *proc = o->proc ? o->proc : "main", *strategy = NULL;
  int ask_choices = o->policy && strcmp(o->policy, "ask") == 0;
  cli_watch log;              /* stdout, for rg_run_log, which returns no status */
  rg_rules *r = NULL;
  rg_run *run = NULL;
  rg_run_options ro;
  char *answers = NULL;
  size_t alen = 0;
  int rc;
  rg_status st;
  rg_policy pol;              /* --policy as the library reads it (random when none) */

  memset(&pol, 0, sizeof pol);
  rc = cli_rules_setup(base, o->inputs, o->sets, o->nsets, &r);
  if (rc == 0) rc = cli_rules_strategy("run", r, o->policy, builtin, &strategy);
  if (rc == 0 && !ask_choices && o->policy && rg_policy_parse(r, o->policy, &pol) == RG_OK &&
      pol.kind == RG_CHOOSE_ANSWERS)
    rc = ask_read_file(pol.answers_name, &answers, &alen);
  if (rc == 0 && strategy && !o->policy && (dice_ask || o->resume))
    strategy = NULL;   /* the rules' default answers runs without people only */
  if (rc == 0 && strategy && (dice_ask || o->resume))
    rc = usage_error("run", "--policy %s (a strategy) answers without people: not with --dice ask "
                            "or --resume", o->policy);
  if (rc == 0 && (ask_choices || dice_ask || o->resume)) {
    /* People at the table: the game can be undone, saved and resumed. */
    rc = table_play(r, o, seed, ask_choices, dice_ask);
    goto done;
  }
  if (rc != 0) goto done;
  ro = RG_OPTIONS(rg_run_options);
  ro.seed = seed;
  ro.limits = cli_limits(o);
  ro.policy = pol;                   /* first, answers, or random */
  ro.policy.strategy = strategy;     /* the choices it covers; the rest at random */
  if (strategy) ro.policy.kind = RG_CHOOSE_RANDOM;
  ro.policy.answers = answers;
  ro.policy.answers_len = alen;
  st = rg_run_new(r, &ro, &run);
  if (st == RG_OK && (o->npictures || o->picture)) st = rg_run_pictures(run);
  if (st != RG_OK) {
    cli_eprintf("regula: error: %s\n", rg_status_name(st));
    rc = st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
    goto done;
  }
  /* the policy and dice as set above */
  rg_run_log(run, cli_watch_init(&log, cli_file_out(stdout)), o->json, NULL, NULL);
  st = rg_run_call(run, proc, NULL, 0);
  if (st != RG_OK) {
    rc = run_failed(r, run);
  } else {
    if (rg_run_failed_expects(run)) rc = EX_FINDINGS;
    if (o->npictures || o->picture) {
      int prc = table_pictures(r, o, rg_run_drawn(run));
      if (prc != EX_OK) rc = prc;
    }
  }
  /* the log could not be built (JSON out of memory: said here) or written
  ** (said by main) */
  if (rc != EX_RUNTIME && cli_watch_status(&log) != RG_OK)
    rc = cli_written(cli_watch_status(&log));
done:
  rg_run_free(run);
  rg_rules_free(r);
  rg_free(answers);
  return rc;
}

/* ---- side by side: --variants ----------------------------------------------------- */

/* One rule set of a side-by-side run. */
typedef struct variant {
  const char *path;
  rg_rules *r;
  rg_rules *set;            /* r's copy with the --set inputs */
  rg_run *run;
} variant;

/* Returns 1 when some variant has input name, after checking its value
** (eq + 1) for each that has it and setting it; -1 after saying what is
** wrong (rc in *rc). */
static int set_everywhere(variant *vs, int n, const char *set, int *rc) {
  const char *eq = strchr(set, '=');
  char name[256];
  size_t nl = eq ? (size_t)(eq - set) : 0;
  int found = 0;
  if (!eq || nl >= sizeof name) {
    *rc = usage_error("run", "--set needs NAME=VALUE, not '%s'", set);
    return -1;
  }
  memcpy(name, set, nl);
  name[nl] = '\0';
  for (int i = 0; i < n; i++) {
    rg_status st;
    if (rg_rules_find(vs[i].r, RG_INPUT, name) < 0) continue;
    found = 1;
    if ((st = rg_rules_set(vs[i].set, set)) != RG_OK) {
      if (st == RG_NOMEM) fputs("regula: error: out of memory\n", stderr);
      else cli_eprintf("regula: error: --set %s: %s\n", set, rg_rules_errmsg(vs[i].set));
      *rc = st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
      return -1;
    }
  }
  if (!found) *rc = usage_error("run", "no variant has an input named in '%s'", set);
  return found ? 1 : -1;
}

/* regula run --variants A,B,...: the same procedure of several rule sets on
** common random numbers (each step draws from streams named by the step),
** printed side by side. */
static int run_variants(opts *o, uint64_t seed) {
  variant vs[64];
  const rg_run *runs[64];
  const char *names[64];
  char *list = NULL;
  const char *proc = o->proc ? o->proc : "main";
  rg_policy pol;
  int n = 0, rc = EX_OK, first;
  size_t len = strlen(o->variants);
  memset(&pol, 0, sizeof pol);
  if (o->npos) return usage_error("run", "give the rule sets with --variants, not also as FILE");
  if (o->policy && (rg_policy_parse(NULL, o->policy, &pol) != RG_OK ||
                    pol.kind == RG_CHOOSE_ANSWERS))
    return usage_error("run", "with --variants, --policy is random or first");
  first = pol.kind == RG_CHOOSE_FIRST;
  if (o->dice && strcmp(o->dice, "random") != 0)
    return usage_error("run", "with --variants, the dice are random");
  if (o->npictures || o->picture || o->inputs)
    return usage_error("run", "--variants takes no pictures and no --inputs; use --set");
  if (!(list = rg_malloc(len + 1))) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  memcpy(list, o->variants, len + 1);
  memset(vs, 0, sizeof vs);
  for (char *p = list, *comma; p && rc == EX_OK; p = comma ? comma + 1 : NULL) {
    comma = strchr(p, ',');
    if (comma) *comma = '\0';
    if (!*p) continue;
    if (n == 64) { rc = usage_error("run", "at most 64 variants"); break; }
    vs[n].path = p;
    rc = cli_rules_load(p, 1, &vs[n].r);
    n++;
    if (rc == EX_OK && find_main(vs[n - 1].r, proc) < 0) rc = EX_BAD;
  }
  if (rc == EX_OK && n < 2) rc = usage_error("run", "--variants needs two rule sets or more, A,B");
  for (int i = 0; rc == EX_OK && i < n; i++)
    if (rg_rules_copy(vs[i].r, &vs[i].set) != RG_OK) {
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
    }
  /* --set NAME=VALUE applies to every variant that has the input. */
  for (int k = 0; rc == EX_OK && k < o->nsets; k++) set_everywhere(vs, n, o->sets[k], &rc);
  for (int i = 0; rc == EX_OK && i < n; i++) {
    rg_run_options ro = RG_OPTIONS(rg_run_options);
    ro.seed = seed;
    ro.limits = cli_limits(o);
    ro.policy.kind = first ? RG_CHOOSE_FIRST : RG_CHOOSE_RANDOM;
    if (rg_run_new(vs[i].set, &ro, &vs[i].run) != RG_OK) {
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
    }
  }
  for (int i = 0; rc == EX_OK && i < n; i++) {
    if (rg_run_call(vs[i].run, proc, NULL, 0) != RG_OK) rc = run_failed(vs[i].r, vs[i].run);
    runs[i] = vs[i].run;
    names[i] = vs[i].path;
  }
  if (rc == EX_OK) {
    rg_out out = cli_file_out(stdout);
    /* every run called with success: RG_OK, RG_IO or RG_NOMEM */
    rc = cli_written(rg_runs_side_by_side(runs, names, n, seed, first ? "first" : "random",
                                          o->json, &out));
  }
  for (int i = 0; i < n; i++) {
    rg_run_free(vs[i].run);
    rg_rules_free(vs[i].set);
    rg_rules_free(vs[i].r);
  }
  rg_free(list);
  return rc;
}

/* The --set lines of a transcript (rg_transcript_settings), copied. */
typedef struct tsets {
  char *sets[64];
  int n, nomem, many;
} tsets;

/* rg_transcript_settings's each: keeps set[0..n) in ctx (a tsets). */
static void keep_set(void *ctx, const char *set, size_t n) {
  tsets *t = ctx;
  char *c;
  if (t->n == 64) { t->many = 1; return; }
  if (!(c = rg_malloc(n + 1))) { t->nomem = 1; return; }
  memcpy(c, set, n);
  c[n] = '\0';
  t->sets[t->n++] = c;
}

/* What a transcript's header gave a resumed game, kept for the run. */
typedef struct resumed {
  char *text;               /* the transcript (rg_malloc'd) */
  size_t len;
  rg_transcript_info info;
  char *rules;              /* the rule file it names, NUL-terminated, or NULL */
  char *named;              /* the name in the header, when rules was found elsewhere */
  char *proc;
} resumed;

/* Returns a rg_malloc'd NUL-terminated copy of s[0..n), or NULL. */
static char *copy_n(const char *s, size_t n) {
  char *c = rg_malloc(n + 1);
  if (c) {
    memcpy(c, s, n);
    c[n] = '\0';
  }
  return c;
}

/* 1 when the rule file or module at path compiles (quietly) to the module
** whose hash is want[0..n), else 0 (also when it does not compile or
** memory runs out: the load that follows says why). */
static int has_module(const char *path, const char *want, size_t n) {
  rg_compile_options opt = { .size = sizeof opt };
  rg_rules *r = NULL;
  char now[24];
  int same = rg_rules_load(path, &opt, &r) == RG_OK && rg_rules_hash(r, now, sizeof now) == RG_OK &&
             strlen(now) == n && memcmp(now, want, n) == 0;
  rg_rules_free(r);
  return same;
}

/* The rule file named `rules` (as typed when the game was recorded) in the
** header of transcript f, whose module hashes to want[0..n), found from
** here: as it is, else beside f or in a folder above f (a game recorded at
** a project's top and saved in a sub-folder, resumed from elsewhere).  The
** first place whose file has that module wins; when none has, the first
** place with a file of that name (the load and the hash check after it say
** what differs).  Returns a rg_malloc'd path (a copy of `rules` when no
** place has the file: the caller says so), or NULL when out of memory. */
static char *find_rules(const char *f, const char *rules, const char *want, size_t n) {
  size_t rl = strlen(rules);
  if (rules[0] == '/') return copy_n(rules, rl);
  char *real = realpath(f, NULL);         /* a link's target's folder, not the link's */
  const char *from = real ? real : f;
  const char *slash = strrchr(from, '/');
  size_t dl = slash ? (size_t)(slash - from) + 1 : 0;   /* its folder, with its '/' */
  enum { UP = 16 };
  char *p = rg_malloc(dl + 3 * UP + rl + 1), *first = NULL;
  if (!p) {
    free(real);
    return NULL;
  }
  memcpy(p, from, dl);
  free(real);
  for (int up = -1; up <= UP; up++) {     /* -1: as typed, from here */
    const char *at = p;
    if (up < 0) {
      at = rules;
    } else {
      if (dl + (size_t)up == 0) continue; /* `rules` itself, tried first */
      for (int k = 0; k < up; k++) memcpy(p + dl + 3 * (size_t)k, "../", 3);
      memcpy(p + dl + 3 * (size_t)up, rules, rl + 1);
    }
    if (access(at, F_OK) != 0) continue;
    if (has_module(at, want, n)) {
      rg_free(first);
      if (at == rules) memcpy(p, rules, rl + 1);
      return p;
    }
    if (!first && !(first = copy_n(at, strlen(at)))) {
      rg_free(p);
      return NULL;
    }
  }
  if (first) {
    rg_free(p);
    return first;
  }
  memcpy(p, rules, rl + 1);
  return p;
}

/* Says that line `line` of path (text[0..len)) does not parse, at column
** col: "path:line:col: error: why", the line and a caret.  Returns EX_BAD. */
static int header_error(const char *path, const char *text, size_t len, uint32_t line,
                        uint32_t col, const char *why) {
  const char *l = text, *end = text + len;
  for (uint32_t i = 1; i < line && l < end; i++) {
    const char *nl = memchr(l, '\n', (size_t)(end - l));
    l = nl ? nl + 1 : end;
  }
  const char *nl = memchr(l, '\n', (size_t)(end - l));
  int n = (int)((nl ? nl : end) - l);
  cli_eprintf("%s:%u:%u: error: %s\n %.*s\n %*s^\n", path, line, col, why, n, l,
              (int)(col > 0 ? col - 1 : 0), "");
  return EX_BAD;
}

/* The name of a mode letter of a transcript's header ('a' ask, ...). */
static const char *mode_name(int c) {
  return c == 'a' ? "ask" : c == 'f' ? "first" : "random";
}

/* --resume FILE: the transcript's header says how the game was played:
** the rule file (when no FILE is given), the procedure, the seed, who
** answers the choices and the dice, and the --set values; each becomes the
** run's when the command line leaves it out, and must agree when it gives
** it.  The rest of the game is saved to the same file unless --transcript
** names another.  Returns EX_OK, or an exit code after saying what is
** wrong. */
static int resume_settings(opts *o, uint64_t *seed, int *dice_ask, tsets *ts, resumed *rs) {
  rg_transcript_info *h = &rs->info;
  const char *f = o->resume;
  if (strcmp(f, "-") == 0)
    return usage_error("run", "--resume takes a transcript file (the game goes on being saved "
                       "to it), not -");
  int rc = ask_read_file(f, &rs->text, &rs->len);
  if (rc != 0) return rc;
  if (rg_transcript_head(rs->text, rs->len, h) != RG_OK)
    return header_error(f, rs->text, rs->len, h->bad_line, h->bad_col, h->bad);
  if (!h->choices && !h->dice)
    return usage_error("run", "%s has no transcript header (# regula transcript: ...): give "
                       "the rule file and how it was played", f);
  if (h->choices) {
    const char *want = mode_name(h->choices);
    if (o->policy && strcmp(o->policy, want) != 0)
      return usage_error("run", "%s was played with --policy %s (its header: choices %s), not "
                         "--policy %s; leave --policy out to go on as it was played", f, want,
                         want, o->policy);
    o->policy = want;
  }
  if (h->dice) {
    const char *want = mode_name(h->dice);
    if (o->dice && strcmp(o->dice, want) != 0)
      return usage_error("run", "%s was played with --dice %s (its header: dice %s), not --dice "
                         "%s; leave --dice out to go on as it was played", f, want, want, o->dice);
    *dice_ask = h->dice == 'a';
  }
  if (h->rules_len) {                     /* the path, unescaped */
    rg_buf path;
    rg_buf_init(&path);
    if (rg_transcript_rules(h, &path.out) == RG_OK && path.data) rs->rules = copy_n(path.data, path.len);
    rg_buf_free(&path);
    if (!rs->rules) {
      fputs("regula: error: out of memory\n", stderr);
      return EX_RUNTIME;
    }
  }
  if (h->proc_len && !(rs->proc = copy_n(h->proc, h->proc_len))) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  if (rs->proc) {
    if (o->proc && strcmp(o->proc, rs->proc) != 0)
      return usage_error("run", "%s was played with --proc %s, not %s", f, rs->proc, o->proc);
    o->proc = rs->proc;
  }
  if (o->npos == 0) {
    if (!rs->rules)
      return usage_error("run", "%s does not name its rule file: give it (regula run FILE "
                         "--resume %s)", f, f);
    /* a header without the module's hash (an older transcript) could not
    ** tell a file of the same name found elsewhere: only as it is named */
    char *found = h->module_len ? find_rules(f, rs->rules, h->module, h->module_len)
                                 : copy_n(rs->rules, strlen(rs->rules));
    if (!found) {
      fputs("regula: error: out of memory\n", stderr);
      return EX_RUNTIME;
    }
    if (access(found, F_OK) != 0) {
      cli_eprintf("regula: error: %s names the rule file %s, found neither from here nor "
                  "beside it or in a folder above it: give it (regula run FILE --resume %s)\n",
                  f, rs->rules, f);
      rg_free(found);
      return EX_BAD;
    }
    if (strcmp(found, rs->rules) != 0) {
      rs->named = rs->rules;               /* the transcript goes on naming it so */
      o->rules_named = rs->named;
    } else {
      rg_free(rs->rules);
    }
    rs->rules = found;
    o->pos = &rs->rules;
    o->npos = 1;
  }
  if (h->has_seed && o->seed && h->seed != *seed)
    return usage_error("run", "%s was played with seed %llu, not %llu (leave --seed out to use "
                       "the transcript's)", f, (unsigned long long)h->seed,
                       (unsigned long long)*seed);
  if (h->has_seed) *seed = h->seed;
  {
    uint64_t again;
    int has;
    rg_transcript_settings(rs->text, rs->len, &again, &has, keep_set, ts);   /* the sets */
  }
  if (ts->nomem) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  for (int i = 1; i < ts->n; i++) {
    int k = cli_set_twice((const char *const *)ts->sets, i, ts->sets[i]);
    if (k >= 0)
      return usage_error("run", "%s sets one input twice: '# set %s' after '# set %s'", f,
                         ts->sets[i], ts->sets[k]);
  }
  if (ts->n && o->nsets) {
    int same = ts->n == o->nsets;
    for (int i = 0; same && i < ts->n; i++) same = strcmp(ts->sets[i], o->sets[i]) == 0;
    if (!same)
      return usage_error("run", "%s was played with other --set values (its '# set' lines); "
                         "leave --set out to use the transcript's", f);
  }
  if (ts->n && !o->nsets) {
    o->sets = (const char **)ts->sets;
    o->nsets = ts->n;
  }
  if (!o->transcript) o->transcript = f;   /* the rest of the game goes on being saved */
  return EX_OK;
}

/* --resume: the rules r loaded must be those the transcript was played
** with (the hash of their module, when its header names one).  Returns
** EX_OK, or EX_BAD after saying what differs. */
static int resume_same_rules(const opts *o, const rg_rules *r, const resumed *rs) {
  char now[24];
  const rg_transcript_info *h = &rs->info;
  if (!h->module_len) return EX_OK;       /* an older transcript: not said */
  if (rg_rules_hash(r, now, sizeof now) != RG_OK) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  if (strlen(now) == h->module_len && memcmp(now, h->module, h->module_len) == 0) return EX_OK;
  if (rs->rules && strcmp(rs->rules, o->pos[0]) != 0)
    cli_eprintf("regula: error: %s was played with %s (module %.*s), not with %s (module "
                "%s)\n", o->resume, rs->rules, (int)h->module_len, h->module, o->pos[0], now);
  else
    cli_eprintf("regula: error: %s has changed since %s was played (module %.*s then, %s "
                "now): its answers may not fit the rules as they are\n", o->pos[0], o->resume,
                (int)h->module_len, h->module, now);
  return EX_BAD;
}

/* regula run FILE [options]: checks the options, loads FILE and runs. */
int cmd_run(opts *oin) {
  rg_rules *r = NULL;
  uint64_t seed = 1;
  int dice_ask = 0, rc;
  opts copy = *oin, *o = &copy;       /* --resume may fill in the seed and sets */
  tsets ts = { .n = 0 };
  resumed rs;
  memset(&rs, 0, sizeof rs);
  if (o->seed && cli_parse_seed(o->seed, &seed) != 0)
    return usage_error("run", "--seed needs a whole number from 0 to 18446744073709551615 or random, not '%s'",
                       o->seed);
  if (o->variants) return run_variants(o, seed);
  if (o->npos > 1 || (o->npos == 0 && !o->resume))
    return usage_error("run", o->npos ? "run takes one rule file" : "no rule file given");
  if (o->dice && strcmp(o->dice, "ask") == 0) dice_ask = 1;
  else if (o->dice && strcmp(o->dice, "random") != 0)
    return usage_error("run", "--dice must be random or ask, not '%s'", o->dice);
  rc = o->resume ? resume_settings(o, &seed, &dice_ask, &ts, &rs) : EX_OK;
  /* another --policy names a strategy of the rules: cli_rules_strategy, once loaded */
  if (rc == EX_OK && o->transcript && !o->resume && !dice_ask &&
      !(o->policy && strcmp(o->policy, "ask") == 0))
    rc = usage_error("run", "--transcript goes with --policy ask or --dice ask: it keeps the "
                     "answers people give");
  if (rc == EX_OK && o->json && (dice_ask || (o->policy && strcmp(o->policy, "ask") == 0)))
    rc = usage_error("run", "--json is for runs nobody answers; at the table the log is text");
  if (rc == EX_OK) {
    rc = cli_rules_load(o->pos[0], 1, &r);
    if (rc == EX_OK && o->resume) rc = resume_same_rules(o, r, &rs);
    if (rc == EX_OK && o->policy && strcmp(o->policy, "?") == 0)
      rc = cli_list_strategies(r, o->pos[0]);   /* as sim and odds: the rules' strategies */
    else if (rc == EX_OK)
      rc = find_main(r, o->proc ? o->proc : "main") < 0 ? EX_BAD : run(r, o, seed, dice_ask);
    rg_rules_free(r);
  }
  for (int i = 0; i < ts.n; i++) rg_free(ts.sets[i]);
  rg_free(rs.text);
  rg_free(rs.rules);
  rg_free(rs.named);
  rg_free(rs.proc);
  return rc;
}
