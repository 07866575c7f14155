/*
** inputs.h: what run, sim and odds share of their command lines, on
** regula.h alone: the rules set up from --inputs FILE and each --set
** NAME=VALUE, and --policy (a built-in policy, answers:FILE, or a strategy
** of the rules).  Nothing here knows a game.
*/
#ifndef RG_CLI_INPUTS_H
#define RG_CLI_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "regula_front.h"

/* Returns the index in sets[0..n) of a NAME=VALUE that sets the same name
** as s (spaces and tabs in the names left out), or -1: one name set twice
** would let the last win without a word. */
int cli_set_twice(const char *const *sets, int n, const char *s);

/* Makes *out a copy of r (rgi_rules_with) set up from the --inputs file
** (lines NAME=VALUE) and then each --set, so --set wins.  Returns EX_OK,
** or EX_BAD / EX_RUNTIME after saying what is wrong; the caller frees *out
** (NULL on failure) with rg_rules_free. */
int cli_rules_setup(const rg_rules *r, const char *inputs, const char *const *sets, int nsets,
                    rg_rules **out);

/* Parses --policy's text for cmd: one of allowed[] (a NULL-terminated list
** of at least two; *kind = its index), or answers:FILE (*kind = -1, the
** file's text in *answers, rg_malloc'd), or else the name of a strategy of
** the rules (*kind = -2: cli_rules_strategy resolves it once they are
** loaded).  NULL: *kind = 0.  Returns EX_OK, or EX_BAD / EX_RUNTIME after
** saying what is wrong. */
int cli_policy(const char *cmd, const char *policy, const char *const *allowed, int *kind,
               char **answers, size_t *len);

/* The strategy --policy NAME names in r: *strategy = NAME.  policy NULL:
** the rules' default strategy (`default strategy NAME`), or NULL when they
** name none.  One of allowed[] or answers:FILE: *strategy = NULL.  Returns EX_OK, or
** EX_BAD after saying which policies and strategies there are. */
int cli_rules_strategy(const char *cmd, const rg_rules *r, const char *policy,
                       const char *const *allowed, const char **strategy);

/* `--policy ?`: prints the strategies of r (read from path) on stdout,
** each with its description, the default marked.  Returns EX_OK or
** EX_RUNTIME (stdout failed). */
int cli_list_strategies(const rg_rules *r, const char *path);

#endif
