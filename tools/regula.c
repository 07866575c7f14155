/*
** regula.c: the command-line program's main, its command table (the one
** list of commands, their options, usage and help) and the option parser.
** Each command is a thin front end in a file of its own:
**
**     check, build, dis, query, test     ruleset.c (on regula.h alone)
**     call, draw                         call.c, draw.c (on regula.h alone)
**     sheet, fmt, lsp, diff              sheet.c, fmt.c, lsp.c, diff.c (regula.h)
**     run (and at the table), sim, odds  run.c, table.c, sim.c, simvar.c, odds.c
**
** FILE is a rule file, or a compiled module (.rbc) which is loaded and
** verified instead of compiled.  Exit codes: 0 success, 1 findings (a failed
** test), 2 bad input (rule file, arguments, bytecode), 3 a runtime failure
** (a limit reached, out of memory, I/O).
**
** The program keeps no state outside main's locals but one table (the
** sources of the rule sets loaded as modules: loaded.c): every command
** takes its options and arguments, and frees what it made on every path
** before returning its exit code.
*/
#include "regula_front.h"
#include "opts.h"
#include "inputs.h"
#include "cmd_edit.h"
#include "cmd_diff.h"
#include "cmd_render.h"
#include "cmd_rules.h"
#include "fileout.h"
#include "outputs.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


typedef int (*cmd_fn)(opts *o);

/* A command: its name, what it accepts, its code and its help text. */
typedef struct command {
  const char *name;
  unsigned accepts;         /* OPT_* */
  cmd_fn run;
  const char *usage;        /* one line, after "usage: " */
  const char *help;         /* the rest of `regula COMMAND --help` */
} command;

/* ---- small helpers ---------------------------------------------------- */

/* Prints "regula: error: MSG" and the hint to read the command's help;
** returns EX_BAD.  cmd may be NULL for errors before the command. */
int usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fputs("regula: error: ", stderr);
  va_start(ap, fmt);
  cli_veprintf(fmt, ap);
  va_end(ap);
  if (cmd) cli_eprintf("\ntry 'regula %s --help'\n", cmd);
  else fputs("\ntry 'regula --help'\n", stderr);
  return EX_BAD;
}



/* Parses a decimal count with an optional K, M or G suffix (powers of 1024,
** only when suffixes is set) into *out.  Returns 0, or -1 when the text is
** not such a number, is 0, or exceeds max. */
static int parse_count(const char *s, int suffixes, uint64_t max, uint64_t *out) {
  uint64_t n = 0, mul = 1;
  const char *p = s;
  if (*p < '0' || *p > '9') return -1;
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned dgt = (unsigned)(*p - '0');
    if (n > (UINT64_MAX - dgt) / 10) return -1;
    n = n * 10 + dgt;
  }
  if (*p && suffixes) {
    switch (*p) {
    case 'k': case 'K': mul = 1024u; break;
    case 'm': case 'M': mul = 1024u * 1024u; break;
    case 'g': case 'G': mul = 1024u * 1024u * 1024u; break;
    default: return -1;
    }
    p++;
  }
  if (*p) return -1;
  if (n == 0 || n > max / mul) return -1;
  *out = n * mul;
  return 0;
}

/* Returns 1 when arg is an option (starts with '-' and is not "-" or a
** negative number, which are values). */
static int is_option(const char *arg) {
  return arg[0] == '-' && arg[1] != '\0' && !(arg[1] >= '0' && arg[1] <= '9');
}

/* Prints the help of cmd to stdout. */
static void print_help(const command *cmd) {
  printf("usage: regula %s\n\n%s", cmd->usage, cmd->help);
  if (cmd->accepts & OPT_LIMITS)
    printf("\nLimits:\n"
           "  --max-steps N       stop a run after N steps (instructions, counted by\n"
           "                      loop and call; default %llu)\n"
           "  --max-memory BYTES  memory for a run's stack and heap; K, M, G suffixes\n"
           "                      (default %uM)\n",
           (unsigned long long)RG_DEFAULT_MAX_STEPS, RG_DEFAULT_MAX_MEMORY >> 20);
  if (cmd->accepts & OPT_NATIVE)
    printf("\nNative tier:\n"
           "  --native            run the rules as machine code: translated to C, compiled\n"
           "                      with the system's C compiler ($REGULA_CC, else cc on\n"
           "                      PATH) and kept in $XDG_CACHE_HOME/regula/native (else\n"
           "                      ~/.cache/regula/native); the same results, events,\n"
           "                      errors and limits as without.  Without a compiler the\n"
           "                      rules run as usual, with a note on stderr.\n");
}

/* Every option of every command, in one table: its name, whether it takes
** a value, the commands that accept it (OPT_*) and its code for parse_args.
** getopt_long reads them (unambiguous prefixes of a name are accepted). */
enum {
  O_ASSUME = 256, O_FAST, O_MAX_STEPS, O_MAX_MEMORY, O_SEED, O_POLICY, O_DICE, O_INPUTS,
  O_PROC, O_VARIANTS, O_SET, O_JSON, O_SVG, O_MAP_SVG, O_PICTURE, O_RUNS, O_THREADS,
  O_LIMIT, O_DEPTH, O_CHOICES, O_ODDS, O_CHECK, O_RESUME, O_TRANSCRIPT, O_STAT, O_NATIVE
};
static const struct { const char *name; int has_arg; unsigned group; int code; } options[] = {
  { "help", no_argument, ~0u, 'h' },
  { "output", required_argument, OPT_OUTPUT, 'o' },
  { "assumptions", no_argument, OPT_ASSUME, O_ASSUME },
  { "fast", no_argument, OPT_FAST, O_FAST },
  { "native", no_argument, OPT_NATIVE, O_NATIVE },
  { "max-steps", required_argument, OPT_LIMITS, O_MAX_STEPS },
  { "max-memory", required_argument, OPT_LIMITS, O_MAX_MEMORY },
  { "seed", required_argument, OPT_RUN | OPT_SIM, O_SEED },
  { "policy", required_argument, OPT_RUN | OPT_SIM | OPT_ODDS, O_POLICY },
  { "dice", required_argument, OPT_RUN, O_DICE },
  { "inputs", required_argument, OPT_RUN | OPT_SIM | OPT_ODDS, O_INPUTS },
  { "proc", required_argument, OPT_RUN, O_PROC },
  { "variants", required_argument, OPT_RUN | OPT_SIM | OPT_ODDS, O_VARIANTS },
  { "set", required_argument, OPT_RUN | OPT_SIM | OPT_ODDS, O_SET },
  { "resume", required_argument, OPT_RUN, O_RESUME },
  { "transcript", required_argument, OPT_RUN, O_TRANSCRIPT },
  { "json", no_argument, OPT_RUN | OPT_SIM | OPT_ODDS | OPT_DIFF, O_JSON },
  { "stat", no_argument, OPT_DIFF, O_STAT },
  { "svg", required_argument, OPT_PICTURE | OPT_SIM | OPT_ODDS, O_SVG },
  { "map-svg", required_argument, OPT_PICTURE, O_MAP_SVG },
  { "picture", required_argument, OPT_PICTURE, O_PICTURE },
  { "runs", required_argument, OPT_SIM, O_RUNS },
  { "threads", required_argument, OPT_SIM, O_THREADS },
  { "limit", required_argument, OPT_ODDS, O_LIMIT },
  { "depth", required_argument, OPT_ODDS, O_DEPTH },
  { "choices", required_argument, OPT_ODDS, O_CHOICES },
  { "odds", required_argument, OPT_DIFF, O_ODDS },
  { "check", no_argument, OPT_CHECK, O_CHECK },
};
#define NOPTIONS (sizeof options / sizeof options[0])

/* Appends v to the list *list (argc entries at most, allocated on first
** use).  Returns 0, or EX_RUNTIME after saying "out of memory". */
static int append(const char ***list, int *n, int argc, const char *v) {
  if (!*list && !(*list = rg_malloc((size_t)argc * sizeof **list))) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  (*list)[(*n)++] = v;
  return 0;
}

/* Stores option code's value v in *o (the texts of the run, sim and odds
** options are checked by their commands).  Returns 0, or an exit code after
** a usage error. */
static int take_option(const command *cmd, int code, const char *v, int argc, opts *o) {
  uint64_t n;
  switch (code) {
  case 'o':
    if (!*v) return usage_error(cmd->name, "option --output needs a file name");
    o->output = v;
    return 0;
  case O_ASSUME: o->assumptions = 1; return 0;
  case O_FAST: o->fast = 1; return 0;
  case O_NATIVE: o->native = 1; return 0;
  case O_JSON: o->json = 1; return 0;
  case O_STAT: o->stat = 1; return 0;
  case O_CHECK: o->check = 1; return 0;
  case O_MAX_STEPS:
    if (parse_count(v, 0, UINT64_MAX, &n))
      return usage_error(cmd->name, "--max-steps needs a positive whole number, not '%s'", v);
    o->max_steps = n;
    return 0;
  case O_MAX_MEMORY:
    if (parse_count(v, 1, SIZE_MAX, &n))
      return usage_error(cmd->name,
                         "--max-memory needs a positive size in bytes (K, M, G suffixes), not '%s'", v);
    o->max_memory = (size_t)n;
    return 0;
  case O_SVG: case O_MAP_SVG: case O_PICTURE: {
    int r = picture_option(cmd->name, code == O_SVG ? 0 : code == O_MAP_SVG ? 1 : 2, v, argc, o);
    return r < 0 ? -r : 0;
  }
  case O_SET: {
    int k = cli_set_twice(o->sets, o->nsets, v);
    if (k >= 0)
      return usage_error(cmd->name, "--set %s: that input is set twice (--set %s before it)", v,
                         o->sets[k]);
    return append(&o->sets, &o->nsets, argc, v);
  }
  case O_ODDS: return append(&o->odds, &o->nodds, argc, v);
  default: break;
  }
  {
    const char **slot = code == O_SEED ? &o->seed : code == O_POLICY ? &o->policy
                      : code == O_DICE ? &o->dice : code == O_INPUTS ? &o->inputs
                      : code == O_PROC ? &o->proc : code == O_VARIANTS ? &o->variants
                      : code == O_RUNS ? &o->runs : code == O_THREADS ? &o->threads
                      : code == O_LIMIT ? &o->limit : code == O_DEPTH ? &o->depth
                      : code == O_RESUME ? &o->resume : code == O_TRANSCRIPT ? &o->transcript
                      : &o->choices;
    *slot = v;
  }
  return 0;
}

/* The name of the option of lo[] (ended by a NULL name) that takes no
** value and that arg, "--NAME=VALUE", names (NAME whole or a prefix of one
** option only), or NULL. */
static const char *no_value_option(const struct option *lo, const char *arg) {
  const char *eq = strchr(arg, '=');
  if (strncmp(arg, "--", 2) != 0 || !eq) return NULL;
  size_t n = (size_t)(eq - arg - 2);
  const char *found = NULL;
  for (; lo->name; lo++) {
    if (strncmp(lo->name, arg + 2, n) != 0) continue;
    if (lo->name[n] == '\0') return lo->has_arg == no_argument ? lo->name : NULL;
    if (found) return NULL;   /* ambiguous */
    found = lo->has_arg == no_argument ? lo->name : "";
  }
  return found && *found ? found : NULL;
}

/* Parses the arguments of cmd (argv[0] is the command's name) into *o with
** getopt_long, over the options of the table above that cmd accepts,
** compacting the positional arguments to the front of argv in their order
** (a negative number such as -2 is one, not an option; `--` ends the
** options).  Returns 0 to run, -1 after printing the help (exit 0), EX_BAD
** after a usage error, or EX_RUNTIME when out of memory.  The caller frees
** o->sets, o->odds and o->pictures in every case. */
static int parse_args(const command *cmd, int argc, char **argv, opts *o) {
  struct option lo[NOPTIONS + 1];
  char **args = rg_malloc(((size_t)argc + 1) * sizeof *args), *neg = rg_malloc((size_t)argc * 2 + 1);
  int nlo = 0, rc = 0, c;
  memset(o, 0, sizeof *o);
  if (!args || !neg) {
    rg_free(args);
    rg_free(neg);
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  for (size_t k = 0; k < NOPTIONS; k++)
    if (options[k].group & cmd->accepts || options[k].code == 'h')
      lo[nlo++] = (struct option){ options[k].name, options[k].has_arg, NULL, options[k].code };
  lo[nlo] = (struct option){ NULL, 0, NULL, 0 };
  /* getopt reads a copy in which each negative number is a mark "n" */
  for (int i = 0; i < argc; i++) {
    int negative = argv[i][0] == '-' && argv[i][1] >= '0' && argv[i][1] <= '9';
    neg[2 * i] = 'n';
    neg[2 * i + 1] = '\0';
    args[i] = i && negative ? &neg[2 * i] : argv[i];
  }
  args[argc] = NULL;
  o->pos = argv + 1;
  optind = 1;
  opterr = 0;
  while (rc == 0 &&
         (c = getopt_long(argc, args, cmd->accepts & OPT_OUTPUT ? "-:ho:" : "-:h", lo, NULL)) != -1) {
    const char *opt = args[optind - 1];
    if (optarg >= neg && optarg < neg + 2 * argc) optarg = argv[(optarg - neg) / 2];
    if (c == 1) {                       /* a positional argument, in order */
      o->pos[o->npos++] = optarg;
    } else if (c == 'h') {
      print_help(cmd);
      rc = -1;
    } else if (c == '?' && no_value_option(lo, opt)) {
      rc = usage_error(cmd->name, "option --%s takes no value", no_value_option(lo, opt));
    } else if (c == '?') {
      rc = usage_error(cmd->name, "unknown option '%s'", opt);
    } else if (c == ':' && optopt == 'o') {
      rc = usage_error(cmd->name, "option %s needs a file name", opt);
    } else if (c == ':') {
      rc = usage_error(cmd->name, "option %.*s needs a value", (int)strcspn(opt, "="), opt);
    } else if (optarg && !*optarg && c != 'o') {
      rc = usage_error(cmd->name, "option %.*s needs a value", (int)strcspn(opt, "="), opt);
    } else {
      rc = take_option(cmd, c, optarg, argc, o);
    }
  }
  for (int i = optind; rc == 0 && i < argc; i++) o->pos[o->npos++] = argv[i];   /* after -- */
  rg_free(args);
  rg_free(neg);
  return rc;
}

/* ---- picture options ------------------------------------------------------ */

/* Adds a picture to write to o (argc bounds the list). */
static int add_out(opts *o, int argc, const char *name, const char *path) {
  if (!o->pictures && !(o->pictures = rg_malloc((size_t)argc * sizeof *o->pictures))) {
    fputs("regula: error: out of memory\n", stderr);
    return -EX_RUNTIME;
  }
  o->pictures[o->npictures].name = name;
  o->pictures[o->npictures].path = path;
  o->npictures++;
  return 1;
}

int picture_option(const char *cmd, int which, const char *v, int argc, opts *o) {
  static const char *const names[] = { "--svg", "--map-svg", "--picture" };
  char *eq;
  if (!*v) return -usage_error(cmd, "option %s needs a value", names[which]);
  if (which == 0) return add_out(o, argc, NULL, v);
  if (which == 1) return add_out(o, argc, "map", v);
  if (!(eq = strchr(v, '='))) {
    o->picture = v;
    return 1;
  }
  if (eq == v || !eq[1])
    return -usage_error(cmd, "--picture needs NAME or NAME=OUT.svg, not '%s'", v);
  *eq = '\0';   /* the argument (argv's own) is ours to split */
  return add_out(o, argc, v, eq + 1);
}

int cli_parse_seed(const char *s, uint64_t *seed) {
  if (strcmp(s, "random") == 0) {
    FILE *f = fopen("/dev/urandom", "rb");
    uint64_t v = 0;
    if (!f || fread(&v, sizeof v, 1, f) != 1) {
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      v = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^ ((uint64_t)getpid() << 32);
    }
    if (f) fclose(f);
    *seed = v;
    cli_eprintf("regula: seed %llu\n", (unsigned long long)v);
    return 0;
  }
  return cli_parse_count(s, seed, 1);
}

FILE *cli_open(const char *path, const char *mode) {
  return strcmp(path, "-") == 0 ? stdin : fopen(path, mode);
}

void cli_close(FILE *f) {
  if (f && f != stdin) fclose(f);
}

int cli_parse_count(const char *s, uint64_t *out, int zero_ok) {
  char *end;
  unsigned long long v;
  if (!s || *s < '0' || *s > '9') return -1;
  errno = 0;
  v = strtoull(s, &end, 10);
  if (*end || errno == ERANGE || (!zero_ok && v == 0)) return -1;
  *out = v;
  return 0;
}

/* ---- the commands on a rule set alone (ruleset.c, call.c) ----------------------- */

/* regula check [--assumptions] FILE... */
static int cmd_check(opts *o) {
  if (o->npos < 1) return usage_error("check", "no rule file given");
  return check_main((const char *const *)o->pos, o->npos, o->assumptions);
}

/* regula build FILE -o OUT.rbc */
static int cmd_build(opts *o) {
  if (o->npos != 1)
    return usage_error("build", o->npos ? "build takes one rule file" : "no rule file given");
  if (!o->output) return usage_error("build", "no output file given (-o OUT.rbc)");
  return build_main(o->pos[0], o->output);
}

/* regula dis [--fast] FILE */
static int cmd_dis(opts *o) {
  if (o->npos != 1)
    return usage_error("dis", o->npos ? "dis takes one rule file" : "no rule file given");
  return dis_main(o->pos[0], (o->fast ? RG_DIS_FAST : 0) |
                             (o->no_fusion ? RG_DIS_NO_FUSION : 0));
}

/* regula query FILE TABLE KEY... */
static int cmd_query(opts *o) {
  if (o->npos < 2)
    return usage_error("query", o->npos ? "no table given" : "no rule file given");
  return query_main(o->pos[0], o->pos[1], (const char *const *)(o->pos + 2), o->npos - 2);
}

/* The limits of o (--max-steps, --max-memory, REGULA_NO_FUSION) as run
** options. */
static rg_run_options run_limits(const opts *o) {
  rg_run_options run = RG_OPTIONS(rg_run_options);
  run.limits = cli_limits(o);
  return run;
}

/* regula test [LIMITS] FILE... */
static int cmd_test(opts *o) {
  rg_run_options limits = run_limits(o);
  if (o->npos < 1) return usage_error("test", "no rule file given");
  return test_main((const char *const *)o->pos, o->npos, &limits);
}

/* regula call [LIMITS] FILE PROCEDURE ARG... (call.c) */
static int cmd_call(opts *o) {
  rg_run_options limits = run_limits(o);
  if (o->npos < 2)
    return usage_error("call", o->npos ? "no procedure given" : "no rule file given");
  return call_main(o->pos[0], o->pos[1], (const char *const *)(o->pos + 2), o->npos - 2,
                   &limits, o->native);
}

/* regula draw [LIMITS] FILE PROCEDURE ARG... [--svg OUT.svg] ... (draw.c) */
static int cmd_draw(opts *o) {
  rg_run_options limits = run_limits(o);
  picture_request rq = { o->pictures, o->npictures, o->picture, "draw", 1 };
  if (o->npos < 2)
    return usage_error("draw", o->npos ? "no procedure given" : "no rule file given");
  return draw_main(o->pos[0], o->pos[1], (const char *const *)(o->pos + 2), o->npos - 2,
                   &limits, &rq);
}

/* ---- main --------------------------------------------------------------- */

/* regula sheet FILE [TABLE...]: reaches sheet_main (sheet.c, on regula.h
** alone). */
static int cmd_sheet(opts *o) {
  if (o->npos < 1) return usage_error("sheet", "no rule file given");
  return sheet_main(o->pos[0], (const char *const *)(o->pos + 1), o->npos - 1);
}

/* regula fmt [--check] FILE...: the files reach fmt_main (fmt.c, on
** regula.h alone). */
static int cmd_fmt(opts *o) {
  if (!o->npos) return usage_error("fmt", "no rule file given");
  return fmt_main((const char *const *)o->pos, o->npos, o->check);
}

/* regula lsp: takes no arguments; lsp_main (lsp.c) talks on stdin and
** stdout. */
static int cmd_lsp(opts *o) {
  if (o->npos) return usage_error("lsp", "lsp takes no arguments (it talks on stdin and stdout)");
  return lsp_main();
}

/* regula diff: its files, --odds, --stat and --json, parsed here, reach
** diff_main (diff.c, on regula.h alone). */
static int cmd_diff(opts *o) {
  diff_request r = { (const char *const *)o->pos, o->npos, o->odds, o->nodds, o->stat, o->json };
  return diff_main(&r);
}

static const command commands[] = {
  { "check", OPT_ASSUME, cmd_check, "check [--assumptions] FILE...",
    "Compiles each rule file (or loads each .rbc) and reports every error as\n"
    "path:line:col: error: message, with the source line and a caret.\n"
    "\n"
    "  --assumptions   also print every `assumed` note, as path:line: what: text\n"
    "\n"
    "Example: regula check --assumptions SHEET.rules\n"
    "Exit: 0 all files are fine, 2 errors were found.\n" },
  { "build", OPT_OUTPUT, cmd_build, "build FILE -o OUT.rbc",
    "Compiles a rule file to a bytecode module, which every command accepts in\n"
    "place of the rule file.  The file is written through a temporary file, so\n"
    "a failure never leaves a partial one.\n"
    "\n"
    "  -o, --output OUT   the module to write\n"
    "\n"
    "Example: regula build SHEET.rules -o SHEET.rbc\n"
    "Exit: 0 written, 2 errors in the rule file, 3 cannot write OUT.\n" },
  { "dis", OPT_FAST, cmd_dis, "dis [--fast] FILE",
    "Prints the bytecode of every procedure, one instruction a line:\n"
    "    addr [line] OPNAME operands ; comment\n"
    "\n"
    "  --fast   print instead the VM's private register code built from the\n"
    "           bytecode (for people working on the VM): per procedure its\n"
    "           constants, then `index [bytecode addr] NAME a b c d`\n"
    "\n"
    "Example: regula dis SHEET.rules\n"
    "Exit: 0, or 2 for errors in FILE.\n" },
  { "query", 0, cmd_query, "query FILE TABLE KEY...",
    "Prints the cell of TABLE at the given keys, one key per dimension.  Enum\n"
    "keys are members by code or display name (any case); range keys are\n"
    "integers inside the range.  A record prints one `field: value` line per\n"
    "field.\n"
    "\n"
    "Example: regula query SHEET.rules weather 0 Desert\n"
    "Exit: 0, or 2 for an unknown table, a wrong number of keys or a bad key.\n" },
  { "call", OPT_LIMITS | OPT_NATIVE, cmd_call, "call [LIMITS] FILE PROCEDURE ARG...",
    "Runs PROCEDURE with the arguments, parsed by the parameters' types, and\n"
    "prints its result.  Notes print as they happen, one a line, as\n"
    "    note TEXT: VALUE, VALUE, ...\n"
    "A runtime error prints as path:line:col: error: message (on stderr).\n"
    "\n"
    "Example: regula call tests/lang/note-output.rules scout RED 3\n"
    "Exit: 0, 2 for a bad procedure name or argument, 3 for a runtime error or\n"
    "a limit reached.\n" },
  { "test", OPT_LIMITS, cmd_test, "test [LIMITS] FILE...",
    "Runs every test block of each file.  A failed expectation prints\n"
    "    path:line: FAIL test \"NAME\": expected X, got Y     (expect a == b)\n"
    "    path:line: FAIL test \"NAME\": expected true: TEXT   (any other expect)\n"
    "and a test stopped by a runtime error prints\n"
    "    path:line: FAIL test \"NAME\": error: message\n"
    "The last line counts the tests: N passed, M failed.\n"
    "\n"
    "Example: regula test SHEET.rules\n"
    "Exit: 0 all passed, 1 a test failed, 2 errors in a rule file.\n" },
  { "run", OPT_LIMITS | OPT_RUN | OPT_PICTURE, cmd_run, "run [OPTIONS] [LIMITS] FILE | run --resume GAME.txt",
    "Runs procedure `main` of FILE (or --proc NAME, which takes no parameters)\n"
    "with its dice, decks and choices, and prints a log grouped by step, each\n"
    "event with its rule file line, then the result under `== Summary`.\n"
    "\n"
    "  --seed N            seed of the dice and decks (default 1); the same\n"
    "                      seed, options and answers give the same output;\n"
    "                      random: a seed drawn from the system, said on\n"
    "                      stderr as `regula: seed N` to repeat the run\n"
    "  --policy P          who answers the choices: the rule file's default\n"
    "                      strategy when it names one and no person plays\n"
    "                      (no --dice ask), else random; random (seeded from\n"
    "                      N on a stream of its own), first, ask (a person\n"
    "                      on stdin: a number or an option's name), or\n"
    "                      answers:FILE (one answer a line, # comments), or\n"
    "                      NAME, a strategy of the rules (the choices it has\n"
    "                      no rule for at random); ? lists the strategies\n"
    "  --dice random|ask   ask: a person types each die rolled and each card\n"
    "                      drawn on stdin (default random)\n"
    "  --transcript FILE   with people answering: keeps FILE, the answers so\n"
    "                      far, up to date after each answer\n"
    "  --resume FILE       goes on with a game saved in FILE (a transcript):\n"
    "                      its header gives the rule file, seed, --policy,\n"
    "                      --dice and --set (an option that says otherwise\n"
    "                      is an error; other rules are refused); the rest\n"
    "                      is saved to FILE too unless --transcript names\n"
    "                      another\n"
    "  --set NAME=VALUE    sets an input of the rules (repeatable)\n"
    "  --inputs FILE       sets inputs from lines NAME=VALUE (# comments);\n"
    "                      --set wins over the file\n"
    "  --proc NAME         runs NAME instead of main\n"
    "  --json              one JSON object a line per event, then the summary\n"
    "  --svg OUT.svg       writes the first picture the run drew (see draw)\n"
    "  --map-svg OUT.svg   writes the picture called \"map\"\n"
    "  --picture NAME=OUT.svg  writes the picture called NAME (repeatable)\n"
    "  --variants A,B,...  runs the same procedure of several rule sets (no\n"
    "                      FILE) and prints their results side by side, on\n"
    "                      common random numbers: each step draws from a\n"
    "                      stream of the seed named by the step, so one\n"
    "                      variant's extra roll does not shift another step\n"
    "                      (policy random or first; --set, --json, --proc)\n"
    "\n"
    "Questions and prompts go to stderr; stdout holds only the log.  At a\n"
    "question a person types an option's name (or the start of it, or its\n"
    "number), yes or no, dice as \"3 5\", a hand of cards at once (\"red red\n"
    "white\" or \"2 red 1 white\"), or: undo (or back) to take the last\n"
    "answer back, ? (or help) for the rule and the options, save [FILE] to\n"
    "write the game so far for --resume.  A secret question (a hand, a card\n"
    "played in secret) waits until its player, handed the screen, presses\n"
    "Enter; it is typed without echo and cleared from the screen.\n"
    "\n"
    "Example: regula run SHEET.rules --seed 7 --policy first\n"
    "         regula run --variants SHEET.rules,VARIANT.rules\n"
    "         regula run SHEET.rules --policy ask --dice ask --transcript game.txt\n"
    "         regula run --resume game.txt\n"
    "Exit: 0, 1 an expect failed, 2 bad input (rule file, options, inputs,\n"
    "answers, no answer), 3 a runtime error or a limit reached.\n" },
  { "odds", OPT_LIMITS | OPT_ODDS, cmd_odds, "odds [OPTIONS] [LIMITS] FILE PROCEDURE ARG...", odds_help },
  { "draw", OPT_LIMITS | OPT_PICTURE, cmd_draw, "draw [LIMITS] FILE PROCEDURE ARG... [--svg OUT.svg]", draw_help },
  { "sim", OPT_LIMITS | OPT_SIM | OPT_NATIVE, cmd_sim, "sim [OPTIONS] [LIMITS] FILE [PROCEDURE ARG...] --runs N", sim_help },
  { "sheet", 0, cmd_sheet, sheet_usage, sheet_help },
  { "diff", OPT_DIFF, cmd_diff, diff_usage, diff_help },
  { "fmt", OPT_CHECK, cmd_fmt, fmt_usage, fmt_help },
  { "lsp", 0, cmd_lsp, lsp_usage, lsp_help },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Prints the program's help to out. */
static void print_usage(FILE *out) {
  fputs("usage: regula COMMAND [OPTIONS] ARGS...\n"
        "\n"
        "regula runs wargame quick reference sheets transcribed as rule files.\n"
        "\n"
        "Commands:\n", out);
  for (size_t i = 0; i < NCOMMANDS; i++) fprintf(out, "  regula %s\n", commands[i].usage);
  fputs("\n"
        "Every FILE may be a rule file or a compiled module (.rbc); - is a rule\n"
        "file on standard input (also for --inputs FILE and --policy answers:FILE).\n"
        "`regula COMMAND --help` tells more; `regula --version` (-V) prints the version.\n"
        "\n"
        "Exit codes:\n", out);
#define X(name, value, meaning) fprintf(out, "  %d  %s\n", value, meaning);
  RG_EXIT_CODES(X)
#undef X
}

/* Returns the command called name, or NULL. */
static const command *find_command(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

/* Says that there is no command `name`, listing the commands of the table;
** returns EX_BAD. */
static int no_command(const char *name) {
  char list[512];
  size_t n = 0;
  list[0] = '\0';
  for (size_t i = 0; i < NCOMMANDS && n < sizeof list; i++)
    n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", commands[i].name);
  return usage_error(NULL, "no command '%s'; commands: %s", name, list);
}

/* Entry point: sets up fault injection, dispatches to the command, and
** turns a failure to write stdout into exit 3. */
/* Runs the command argv names; returns its exit code. */
static int dispatch(int argc, char **argv) {
  const char *fail_at = getenv("RG_ALLOC_FAIL_AT");
  const char *nofuse = getenv("REGULA_NO_FUSION");   /* 1: run the VM unfused */
  const command *cmd;
  opts o;
  int rc;

  if (fail_at && *fail_at) {
    char *end;
    unsigned long n;
    errno = 0;
    n = strtoul(fail_at, &end, 10);
    if (errno || *end || fail_at[0] == '-')
      return usage_error(NULL, "RG_ALLOC_FAIL_AT must be a whole number, not '%s'", fail_at);
    rg_alloc_fail_at(n);
  }

  if (argc < 2) {
    print_usage(stderr);
    return EX_BAD;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    print_usage(stdout);
    return EX_OK;
  }
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
    puts("regula " REGULA_VERSION);
    return EX_OK;
  }
  if (strcmp(argv[1], "help") == 0) {
    if (argc == 2) { print_usage(stdout); return EX_OK; }
    if (!(cmd = find_command(argv[2]))) return no_command(argv[2]);
    print_help(cmd);
    return EX_OK;
  }
  cmd = find_command(argv[1]);
  if (!cmd) {
    if (is_option(argv[1])) return usage_error(NULL, "unknown option '%s'", argv[1]);
    return no_command(argv[1]);
  }
  rc = parse_args(cmd, argc - 1, argv + 1, &o);
  if (rc < 0) rc = EX_OK;             /* the help was printed */
  else if (rc == 0) {
    o.no_fusion = nofuse && *nofuse && strcmp(nofuse, "0") != 0;
    rc = cli_stdin_once(cmd->name, &o);
    if (rc == EX_OK) rc = cli_outputs_apart(cmd->name, &o);
    if (rc == EX_OK) rc = cmd->run(&o);
  }
  rg_free(o.sets);
  rg_free(o.odds);
  rg_free(o.pictures);
  return rc;
}

int main(int argc, char **argv) {
  int rc;
  /* Past a file size limit (ulimit -f) a write fails with EFBIG instead of
  ** the signal killing the process: the failure is reported and a
  ** temporary output file removed. */
  signal(SIGXFSZ, SIG_IGN);
  rc = dispatch(argc, argv);
  /* Every command, the help and the version alike: output that could not
  ** be written is a failure (exit 3), not a success. */
  if (fflush(stdout) != 0 || ferror(stdout)) {
    cli_eprintf("regula: error: cannot write the output: %s\n", strerror(errno));
    rc = ex_worst(rc, EX_RUNTIME);
  }
  return rc;
}
