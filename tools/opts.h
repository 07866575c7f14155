/*
** opts.h: a command line as regula.c parses it (the options and positional
** arguments of one command), the helpers that check an option's text, and
** the commands that take the parsed options whole (run, sim, odds: they
** still work on the library's internals, through cli.h).  On regula.h
** alone: regula.c includes nothing else of the CLI but the commands'
** headers.
*/
#ifndef RG_OPTS_H
#define RG_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "regula_front.h"
#include "exitcode.h"
#include "pictures.h"

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
  OPT_CHECK = 512,     /* --check (fmt) */
  OPT_NATIVE = 1024    /* --native (call, sim) */
};


/* The options and positional arguments of one command line.  Strings point
** into argv; sets is allocated (argc entries) and freed by main. */
typedef struct opts {
  uint64_t max_steps;       /* --max-steps N, or 0 (the library's default) */
  size_t max_memory;        /* --max-memory N, or 0 */
  int no_fusion;            /* REGULA_NO_FUSION=1: the VM runs unfused */
  int assumptions;          /* --assumptions given */
  int fast;                 /* --fast given */
  int native;               /* --native given: run the native tier */
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
  const char *rules_named;  /* --resume: the rule file as its header names it, when
                            ** it was found elsewhere (kept in the transcript) */
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

/* Returns the limits o asks each run for (--max-steps, --max-memory,
** REGULA_NO_FUSION), as the library's options take them. */
static inline rg_limits cli_limits(const opts *o) {
  rg_limits l = { o->max_steps, o->max_memory, o->no_fusion };
  return l;
}

/* Prints "regula: error: MSG" and the hint to read the command's help (cmd
** may be NULL); returns EX_BAD. */
int usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;

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

/* Takes the value v of picture option `which` (0 --svg, 1 --map-svg, 2
** --picture) into o (argc bounds the list of pictures).  Returns 1, or
** EX_BAD / EX_RUNTIME (negated) after saying what is wrong. */
int picture_option(const char *cmd, int which, const char *v, int argc, opts *o);

/* regula run: runs a procedure with dice, decks and choices (run.c). */
int cmd_run(opts *o);

/* regula odds: the exact distribution of a procedure's result (odds.c). */
int cmd_odds(opts *o);
extern const char odds_help[];

/* regula sim: Monte Carlo tallies of a procedure's result (sim.c). */
int cmd_sim(opts *o);
extern const char sim_help[];

#endif
