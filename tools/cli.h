/*
** cli.h: what the modules of the command-line program share.
**
** regula.c holds main, the option parser, loading a rule set and the small
** commands; run.c holds `regula run`; policy.c answers choices (and, with
** --dice ask, rolls and draws) for a run.  Nothing here knows any game.
*/
#ifndef RG_CLI_H
#define RG_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "exitcode.h"
#include "chart.h"
#include "compile.h"
#include "diag.h"
#include "fileout.h"
#include "module.h"
#include "pictures.h"
#include "setup.h"
#include "svg.h"
#include "vm.h"


/* What a command accepts besides its positional arguments. */
enum {
  OPT_LIMITS = 1,      /* --max-steps, --max-memory */
  OPT_ASSUME = 2,      /* --assumptions */
  OPT_OUTPUT = 4,      /* -o OUT */
  OPT_RUN = 8,         /* --seed --policy --dice --set --inputs --json --proc */
  OPT_SIM = 16,        /* --runs --threads --seed --json (sim) */
  OPT_PICTURE = 32,    /* --svg OUT, --map-svg OUT, --picture NAME[=OUT] (draw.c) */
  OPT_FAST = 64,       /* --fast (dis) */
  OPT_ODDS = 128,      /* --limit --depth --choices (odds) */
  OPT_DIFF = 256,      /* --odds TABLE=NdS[+K], --stat, --json (diff) */
  OPT_CHECK = 512      /* --check (fmt) */
};


/* The options and positional arguments of one command line.  Strings point
** into argv; sets is allocated (argc entries) and freed by main. */
typedef struct opts {
  rg_limits limits;
  int assumptions;          /* --assumptions given */
  int fast;                 /* --fast given */
  const char *output;       /* -o OUT, or NULL */
  char **pos;               /* positional arguments (compacted into argv) */
  int npos;
  /* regula run: the texts as given, checked by run.c */
  const char *seed;         /* --seed N, or NULL */
  const char *policy;       /* --policy P, or NULL */
  const char *dice;         /* --dice random|ask, or NULL */
  const char *inputs;       /* --inputs FILE, or NULL */
  const char *proc;         /* --proc NAME, or NULL */
  const char *variants;     /* --variants A,B,...: rule sets run side by side */
  const char *resume;       /* --resume FILE: a transcript to replay first */
  const char *transcript;   /* --transcript FILE: kept up to date after each answer */
  int json;                 /* --json given */
  int stat;                 /* --stat given (diff) */
  const char **sets;        /* each --set NAME=VALUE, in order */
  int nsets;
  /* pictures (draw.c): allocated like sets, freed by main */
  picture_out *pictures;    /* --svg, --map-svg, --picture NAME=OUT, in order */
  int npictures;
  const char *picture;      /* --picture NAME: the picture --svg writes */
  /* sim, odds, diff, fmt: the texts as given, checked by their commands */
  const char *runs, *threads;               /* sim */
  const char *limit, *depth, *choices;      /* odds */
  const char **odds;        /* diff: each --odds TABLE=NdS[+K], in order (allocated like sets) */
  int nodds;
  int check;                /* fmt --check */
} opts;

/* A rule set ready to use: the module, and the compile's arena and
** diagnostics (which own the source files and the assumption notes). */
typedef struct loaded {
  rg_module m;
  rg_arena arena;
  rg_diag diag;
  rg_assumption *assumptions;
  int compiled;             /* 1: from a rule file; 0: from a .rbc */
} loaded;

/* Prints "regula: error: MSG" and the hint to read the command's help (cmd
** may be NULL); returns EX_BAD. */
int usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;

/* Diagnostic callback (rg_diag_init): prints d on stderr as
** "path:line:col: error: message", the source line and a caret, or
** "regula: error: message" (ctx is unused). */
void cli_report(void *ctx, const rg_diagnostic *d);

/* Compiles (or loads and verifies a .rbc) path into l, reporting errors on
** stderr.  Returns EX_OK, EX_BAD or EX_RUNTIME; the caller always unloads. */
int load(loaded *l, const char *path, int want_assumptions);

/* Frees everything load made. */
void unload(loaded *l);

/* Prints v of type t followed by exactly one newline (records: one
** "field: value" line per field). */
void print_value(FILE *out, const rg_module *m, const rg_value *heap, uint32_t nheap,
                 rg_type t, rg_value v);

/* Finds the source path, line and display column of instruction pc.
** Returns 0, or -1 when the line table does not say. */
int locate(const rg_module *m, uint32_t pc, const char **path, uint32_t *line, uint32_t *col);

/* Reports a runtime error at pc on stderr as path:line:col: error: msg,
** with the source line and a caret when the source can be read. */
void report_runtime(const rg_module *m, const char *msg, uint32_t pc);

/* Returns 1 when procedure p of m is the body of a test. */
int is_test_proc(const rg_module *m, uint32_t p);

/* Writes "name: type" of every parameter of p, joined by ", ", to stderr. */
void print_params(const rg_module *m, const rg_proc *p);

/* Resolves procedure `name` of m (not a test) and parses args[0..nargs)
** by its parameters' types into *out (rg_malloc'd, at least one value; the
** caller frees it).  Returns the procedure's index, or -1 after printing
** what is wrong (exit 2), or -2 when out of memory (exit 3).  cmd names the
** command for the hint to its help. */
int cli_resolve_proc(const rg_module *m, const char *cmd, const char *name, char **args, int nargs,
                     rg_value **out);

/* cli_resolve_proc for a procedure whose result is counted (sim, odds):
** one without a result is refused too.  Returns as cli_resolve_proc. */
int cli_resolve_result(const rg_module *m, const char *cmd, const char *name, char **args,
                       int nargs, rg_value **out);

/* Parses s as a whole number in 0..2^64-1 (digits only; 0 refused unless
** zero_ok) into *out.  Returns 0, or -1 for anything else (sign, junk,
** overflow). */
int cli_parse_count(const char *s, uint64_t *out, int zero_ok);

/* Parses a --seed value into *seed: a whole number 0..2^64-1, or `random`
** (a seed drawn from the system, then said on stderr as `regula: seed N`
** so that the run can be repeated with --seed N).  Returns 0, or -1 for
** anything else. */
int cli_parse_seed(const char *s, uint64_t *seed);

/* Opens path for reading ("-": standard input).  Returns the stream, or
** NULL with errno set. */
FILE *cli_open(const char *path, const char *mode);

/* Closes f unless it is standard input. */
void cli_close(FILE *f);




/* Sets s up for module m (borrowed) and fills it from the --inputs file
** (lines NAME=VALUE) and then each --set, so --set wins (inputs.c).
** Returns EX_OK, or EX_BAD / EX_RUNTIME after saying what is wrong; the
** caller frees s with rg_setup_free whatever this returns. */
int cli_setup(rg_setup *s, const rg_module *m, const char *inputs, const char *const *sets,
              int nsets);

/* Loads path into l with its assumptions (load), then sets s up from the
** --inputs file and each --set (cli_setup).  Returns EX_OK or the exit
** code, after saying what is wrong; the caller always frees s and unloads
** l. */
int cli_load_setup(loaded *l, rg_setup *s, const char *path, const char *inputs,
                   const char *const *sets, int nsets);

/* Writes charts[0..n) (rg_chart_svg) to the file at path, through a
** temporary file renamed into place.  Returns EX_OK, or EX_RUNTIME after
** saying what went wrong. */
int cli_write_chart(const char *path, const char *title, const char *const *names,
                    uint32_t nseries, const rg_chart *charts, uint32_t n);

/* Parses --policy's text for cmd: one of allowed[] (a NULL-terminated list
** of at least two; *kind = its index), or answers:FILE (*kind = -1, the
** file's text in *answers, rg_malloc'd), or else the name of a strategy of
** the rules (*kind = -2: cli_strategy resolves it once they are loaded).
** NULL: *kind = 0.  Returns EX_OK, or EX_BAD / EX_RUNTIME after saying
** what is wrong. */
int cli_policy(const char *cmd, const char *policy, const char *const *allowed, int *kind,
               char **answers, size_t *len);

/* The strategy --policy NAME names in m: sets *strategy to 1 + its index.
** policy NULL, one of allowed[] or answers:FILE: *strategy = 0.  Returns
** EX_OK, or EX_BAD after saying which policies and strategies there are. */
int cli_strategy(const char *cmd, const rg_module *m, const char *policy,
                 const char *const *allowed, uint32_t *strategy);

/* Writes how a log or table header names strategy `name` into buf;
** returns buf. */
const char *cli_strategy_label(char *buf, size_t size, const char *name);

/* regula run: runs a procedure with dice, decks and choices (run.c). */
int cmd_run(opts *o);

/* regula run at the table (table.c): procedure pi of l played with a person
** answering (ask_choices: the choices; ask_dice: the dice and cards), its
** inputs vals, resumable (--resume, --transcript, undo, save); writes the
** pictures o asks for of the game as finally played; the header names the
** placeholders (text, "" for none).  Returns the exit code. */
int table_play(loaded *l, const opts *o, int pi, uint64_t seed, const rg_value *vals,
               int ask_choices, int ask_dice, const char *placeholders);

/* Takes the value v of picture option `which` (0 --svg, 1 --map-svg, 2
** --picture) into o (argc bounds the list of pictures).  Returns 1, or
** EX_BAD / EX_RUNTIME (negated) after saying what is wrong. */
int picture_option(const char *cmd, int which, const char *v, int argc, opts *o);

/* Writes the pictures o asks for from p (drawn by module m) after a run
** (pictures_write; a wrong shape is reported as report_runtime does).
** Returns EX_OK, EX_BAD or EX_RUNTIME after saying what is wrong. */
int write_pictures(const rg_pictures *p, const rg_module *m, const opts *o, const char *cmd,
                   int to_stdout);

/* regula odds: the exact distribution of a procedure's result (odds.c). */
int cmd_odds(opts *o);
extern const char odds_help[];

/* What `regula sim --variants` was given (sim.c parses it, simvar.c runs). */
typedef struct sim_args {
  const rg_limits *limits;
  uint64_t runs, seed;
  uint32_t threads;
  int json;
  int first;                /* --policy first (else random) */
  const char *strategy;     /* --policy NAME: a strategy every variant declares */
  const char *svg;          /* --svg FILE, or NULL */
  const char *const *sets;  /* each --set, applied to the variants that have the name */
  int nsets;
} sim_args;

/* regula sim --variants A,B,... [PROCEDURE]: the procedure of each rule
** set on common random numbers, compared (simvar.c).  Returns the exit code. */
int sim_variants(const char *list, const char *pname, const sim_args *a);

/* regula sim: Monte Carlo tallies of a procedure's result (sim.c). */
int cmd_sim(opts *o);
extern const char sim_help[];

#endif
