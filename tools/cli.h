/*
** cli.h: what the modules of the command-line program share.
**
** regula.c holds main, the command table and the option parser (opts);
** loaded.c loads a rule set as a module for the commands that still work
** on the library's internals (sim.c, simvar.c, odds.c).  The commands on
** regula.h alone do not include this header.  Nothing here knows any game.
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
#include "inputs.h"
#include "module.h"
#include "opts.h"
#include "pictures.h"
#include "setup.h"
#include "svg.h"
#include "vm.h"



/* A rule set ready to use: the module, and the compile's arena and
** diagnostics (which own the source files and the assumption notes). */
typedef struct loaded {
  rg_module m;
  rg_arena arena;
  rg_diag diag;
  rg_assumption *assumptions;
  int compiled;             /* 1: from a rule file; 0: from a .rbc */
} loaded;


/* Diagnostic callback (rg_diag_init): prints d on stderr as
** "path:line:col: error: message", the source line and a caret, or
** "regula: error: message" (ctx is unused). */
void cli_report(void *ctx, const rg_diagnostic *d);

/* The VM limits o asks for (--max-steps, --max-memory, REGULA_NO_FUSION). */
rg_limits cli_limits(const opts *o);

/* Compiles (or loads and verifies a .rbc) path into l, reporting errors on
** stderr.  Returns EX_OK, EX_BAD or EX_RUNTIME; the caller always unloads. */
int load(loaded *l, const char *path, int want_assumptions);

/* Frees everything load made. */
void unload(loaded *l);

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







/* Sets s up for module m (borrowed) and fills it from the --inputs file
** (lines NAME=VALUE) and then each --set, so --set wins (loaded.c).
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

/* The strategy --policy NAME names in m: sets *strategy to 1 + its index.
** policy NULL, one of allowed[] or answers:FILE: *strategy = 0.  Returns
** EX_OK, or EX_BAD after saying which policies and strategies there are. */
int cli_strategy(const char *cmd, const rg_module *m, const char *policy,
                 const char *const *allowed, uint32_t *strategy);

#endif
