/*
** cmd_rules.h: the commands on one rule set that print what the library
** writes, each a thin front end on regula.h (ruleset.c, call.c; regula.c
** parses their command lines):
**
**   regula check [--assumptions] FILE...   compile, report errors
**   regula build FILE -o OUT.rbc            compile to a bytecode file
**   regula dis [--fast] FILE                disassemble
**   regula query FILE TABLE KEY...          look up one table cell
**   regula test [LIMITS] FILE...            run the tests of rule files
**   regula call [LIMITS] FILE PROC ARG...   run a procedure, print its result
**
** Each returns the exit code (exitcode.h): 0; 1 a test failed; 2 bad
** input (the rules, a key, a table); 3 out of memory or a file that cannot
** be written.
*/
#ifndef RG_CMD_RULES_H
#define RG_CMD_RULES_H

#include "regula_front.h"

/* Compiles each of paths[0..n); with assumptions, prints every `assumed`
** note on stdout as "path:line: what: text". */
int check_main(const char *const *paths, int n, int assumptions);

/* Compiles path and writes the module to output. */
int build_main(const char *path, const char *output);

/* Prints the disassembly of path (flags: RG_DIS_FAST, RG_DIS_NO_FUSION). */
int dis_main(const char *path, int flags);

/* Prints the cell of table at keys[0..nkeys) of path's rules. */
int query_main(const char *path, const char *table, const char *const *keys, int nkeys);

/* Runs the tests of paths[0..n) (opt: the limits and no_fusion of each),
** printing each failure and the line "N passed, M failed". */
int test_main(const char *const *paths, int n, const rg_run_options *opt);

/* Runs procedure proc of path's rules with args[0..nargs) (parsed by the
** parameters' types) as `regula call` does: seeded as a test, the first
** option of every choice; of limits only max_steps, max_memory and
** no_fusion count; native: in the native tier (cli_native).  Prints each
** note and failed expect as it happens, then the result, on stdout; a
** runtime error on stderr with its source line. */
int call_main(const char *path, const char *proc, const char *const *args, int nargs,
              const rg_run_options *limits, int native);

/* What call and draw share: compiles path (keeping its sources), runs proc
** with args[0..nargs) as `regula call` does (opt's limits and callbacks;
** seeded as a test, the first option of every choice; collecting the
** pictures when pictures has CALL_PICTURES; in the native tier when it has
** CALL_NATIVE: cli_native), and then returns done(ctx, rules, run).
** A bad procedure, argument or runtime error is said on stderr (cmd names
** the command's help).  Returns the exit code (1 when an expect failed). */
#define CALL_PICTURES 1
#define CALL_NATIVE   2
int call_run(const char *cmd, const char *path, const char *proc, const char *const *args,
             int nargs, const rg_run_options *opt, int pictures,
             int (*done)(void *ctx, rg_rules *r, rg_run *run), void *ctx);

/* Says on stderr that the rules ctx (an rg_rules *) failed: msg at
** path:line:col, with the source line and a caret. */
void call_fault(void *ctx, const char *msg, const char *path, uint32_t line, uint32_t col);

#endif
