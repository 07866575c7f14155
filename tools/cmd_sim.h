/*
** cmd_sim.h: what `regula sim` shares between its two files, on regula.h
** alone: sim.c parses the command line and runs one rule set; simvar.c
** compares --variants; `regula odds` (odds.c) saves its chart as sim does.
*/
#ifndef RG_CMD_SIM_H
#define RG_CMD_SIM_H

#include <stdint.h>

#include "opts.h"
#include "regula_front.h"

/* What `regula sim --variants` was given. */
typedef struct sim_args {
  rg_limits limits;         /* of each run (0: the defaults) */
  uint64_t runs, seed;
  uint32_t threads;
  int json;
  int first;                /* --policy first (else random) */
  const char *strategy;     /* --policy NAME: a strategy every variant declares */
  int no_policy;            /* no --policy: A's default strategy, when every
                            ** variant declares one of its name */
  const char *svg;          /* --svg FILE, or NULL */
  const char *const *sets;  /* each --set, applied to the variants that have the name */
  int nsets;
} sim_args;

/* One variant: its rule set and the copy set up for its runs. */
typedef struct var {
  const char *path;
  rg_rules *base, *r;
} var;

/* Loads the variants of list (comma-separated, changed in place) into vs
** (at most RG_SIMVARS_MAX) for command cmd, each with procedure pname
** taking args[0..nargs); each --set applies to every variant that has the
** name, and must name something in one of them (simvar.c).  Returns EX_OK
** or an exit code after saying what is wrong; the caller frees each
** vs[i].r and vs[i].base. */
int load_variants(const char *cmd, char *list, var *vs, uint32_t *n, const char *pname,
                  const char *const *args, int nargs, const char *const *sets, int nsets);

/* regula odds --variants A,B,... PROCEDURE ARG...: the exact odds of each
** rule set side by side (odds.c).  Returns the exit code. */
int odds_variants(opts *o);

/* regula sim --variants A,B,... [PROCEDURE]: the procedure of each rule
** set on common random numbers, compared (simvar.c).  Returns the exit code. */
int sim_variants(const char *list, const char *pname, const sim_args *a);

/* Writes b (a chart rendered with status st) to the file at path, through
** a temporary file renamed into place (sim.c).  Returns an exit code,
** after saying what went wrong. */
int sim_save_chart(const char *path, rg_status st, const rg_buf *b);

#endif
