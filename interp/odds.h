/*
** odds.h: the exact distribution of a procedure's result.
**
** Every roll of a die and every card drawn is a draw of n equally likely
** outcomes, which the VM asks of the sink's `chance` callback.  The runs
** walk the tree of draws depth-first: a run follows a prefix of forced
** outcome indexes, then takes outcome 0 of every further draw, recording
** each draw's n; the next run advances the deepest draw that has an outcome
** left and drops everything below it.  A path of draws n_1 .. n_k has
** probability 1 / (n_1 * .. * n_k); each result's probability is the sum
** over its paths, kept as an exact fraction (unsigned 128-bit, reduced by
** gcd at every step; a denominator that would not fit stops the walk).
**
** Choices take their first option, or (all_choices) are enumerated as
** draws too, each option equally likely, as the random policy picks.
**
** A loop that may go on for ever (a roll-off whose ties are rolled again)
** has an infinite tree: a path is cut after `depth` draws and its
** probability is reported as unresolved, so the other fractions are exact
** lower bounds and the unresolved mass is their gap to 1.  No seed is used.
*/
#ifndef RG_ODDS_H
#define RG_ODDS_H

#include <stdint.h>

#include "module.h"
#include "tally.h"
#include "vm.h"

typedef unsigned __int128 rg_u128;

/* A fraction num/den, den > 0, always reduced. */
typedef struct rg_frac {
  rg_u128 num, den;
} rg_frac;

/* What to enumerate. */
typedef struct rg_odds_opts {
  const rg_module *m;       /* verified; outlives the result */
  const rg_limits *limits;  /* of each run (NULL: the defaults) */
  uint32_t proc;            /* the procedure; it must have a result */
  const rg_value *args;     /* its arguments (in the module's constant heap) */
  uint64_t limit;           /* most paths to enumerate (>= 1) */
  uint32_t depth;           /* most draws on one path (>= 1) */
  int all_choices;          /* enumerate choices too (else the first option) */
} rg_odds_opts;

typedef enum rg_odds_status {
  RG_ODDS_OK = 0,
  RG_ODDS_LIMIT,            /* more than `limit` paths */
  RG_ODDS_TINY,             /* a path's probability needs more than 128 bits
                            ** (`draws` says how many draws it had) */
  RG_ODDS_OVERFLOW,         /* a sum's denominator needs more than 128 bits */
  RG_ODDS_RUN_FAILED,       /* a run failed: msg, pc, and the path's outcomes */
  RG_ODDS_NOMEM
} rg_odds_status;

/* The distribution. */
typedef struct rg_odds_result {
  rg_odds_status status;
  rg_tally tally;           /* the distinct results (slots) */
  rg_frac *probs;           /* probs[slot] */
  rg_frac cut;              /* the probability of the paths cut at `depth` */
  uint64_t paths;           /* paths enumerated */
  uint64_t cut_paths;       /* of which cut */
  uint32_t draws;           /* RG_ODDS_TINY / RUN_FAILED: the path's draws */
  uint64_t *idx, *n;        /* RG_ODDS_RUN_FAILED: outcome idx[k] of n[k]
                            ** (0-based) at each draw k < draws */
  char msg[256];            /* RG_ODDS_RUN_FAILED: the error */
  uint32_t pc;              /*   and where */
  uint64_t expect_paths;    /* paths on which an expectation failed */
  uint32_t expect_pc;       /*   where the first did */
} rg_odds_result;

/* Enumerates the paths o describes into *r (freed by rg_odds_free whatever
** this returns).  Returns r->status. */
rg_odds_status rg_odds_run(const rg_odds_opts *o, rg_odds_result *r);

/* Frees what r holds. */
void rg_odds_free(rg_odds_result *r);

/* Writes x in decimal into buf (at least 40 bytes); returns buf. */
char *rg_u128_str(char *buf, rg_u128 x);

/* Writes f as "num/den" into buf (at least 80 bytes); returns buf. */
char *rg_frac_str(char *buf, const rg_frac *f);

/* Returns f as a long double (0 when f is 0). */
long double rg_frac_value(const rg_frac *f);

#endif
