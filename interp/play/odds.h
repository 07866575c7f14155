/*
** odds.h: the exact distribution of a procedure's result.
**
** Every roll of a die and every card drawn is a draw of n equally likely
** outcomes, which the VM asks of the sink's `chance` callback.  The
** procedure is run again and again, replaying outcomes, so that every
** outcome of every draw is taken once.  Where a run comes to a state it has
** been in before (the VM's frames, live locals, heap and decks equal at a
** roll, a card or a choice), the two are one state: the runs form a graph
** of states, an absorbing Markov chain whose absorbing states are the
** results, and solving it gives each result's probability exactly, loops
** included (a roll-off whose ties are rolled again returns to the state of
** its first roll).  Probabilities are fractions of unsigned 128-bit
** integers, reduced at every step; a number that would not fit stops the
** walk (RG_ODDS_OVERFLOW).  See odds.c.
**
** Choices take their first option, or (all_choices) are enumerated as
** draws too, each option equally likely, as the random policy picks.
**
** What the walk keeps is bounded: the states it tells apart (each with the
** heap it has built; a heap is kept once for all the states that share it),
** the outcomes that reach each (a tree: a state keeps only its own after
** those of the state it was found from), the edges, and a loop's equations
** count against max_bytes; past it the walk stops (RG_ODDS_MEMORY).
**
** A record result is also worked out column by column (columns.h): each
** field's distribution, a value of a list's items the chance that some
** item has it.
**
** A process that truly grows without end (a list that gets longer each time
** round) never repeats a state: a run is cut after `depth` draws and the
** probability of the cut runs is reported as unresolved, so the other
** fractions are exact lower bounds.  A loop that no outcome leaves once in
** it (while x < 3 { x = roll d2 }) never ends: RG_ODDS_ENDLESS.  No seed
** is used.
*/
#ifndef RG_ODDS_H
#define RG_ODDS_H

#include <stdint.h>

#include "columns.h"
#include "heading.h"
#include "json.h"
#include "module.h"
#include "regula_front.h"
#include "tally.h"
#include "vm.h"

typedef unsigned __int128 rgi_u128;

/* A fraction num/den, den > 0, always reduced. */
typedef struct rgi_frac {
  rgi_u128 num, den;
} rgi_frac;

/* What to enumerate. */
typedef struct rgi_odds_opts {
  const rgi_module *m;       /* verified; outlives the result */
  const rgi_limits *limits;  /* of each run (NULL: the defaults) */
  uint32_t proc;            /* the procedure; it must have a result */
  const rgi_value *args;     /* its arguments (in the module's constant heap) */
  uint64_t limit;           /* most runs to make (>= 1) */
  uint32_t depth;           /* most draws in one run (>= 1) */
  int all_choices;          /* enumerate choices too (else the first option) */
  const char *answers;      /* or: answer choices from this text, one a line, */
  size_t answers_len;       /* read again from its start by every run; the */
  const char *answers_source;  /* name its errors give */
  uint32_t strategy;        /* 1 + the rules' strategy that answers choices
                            ** first (its random picks enumerated); 0: none */
  size_t max_bytes;         /* the most the walk may keep (its states, their
                            ** heaps, paths and edges, a loop's equations);
                            ** 0: RG_ODDS_MAX_BYTES */
} rgi_odds_opts;

/* How a table or chart says a column of a list's items is the chance that
** some item has the value. */
#define RG_ODDS_ANY_NOTE "  (the chance some item has it)"

/* What the walk may keep when not told: 1 GiB. */
#define RG_ODDS_MAX_BYTES ((size_t)1 << 30)

typedef enum rgi_odds_status {
  RG_ODDS_OK = 0,
  RG_ODDS_LIMIT,            /* more than `limit` paths */
  RG_ODDS_TINY,             /* the draws between two states have more than
                            ** 2^128 outcomes together */
  RG_ODDS_OVERFLOW,         /* a sum's denominator needs more than 128 bits */
  RG_ODDS_RUN_FAILED,       /* a run failed: msg, pc, and the path's outcomes
                            ** (an unanswered choice: msg is the answers' error) */
  RG_ODDS_NOMEM,
  RG_ODDS_LOOP,             /* a loop of more states than one solve takes (4000) */
  RG_ODDS_ENDLESS,          /* a loop no outcome leaves: the procedure never ends */
  RG_ODDS_MEMORY            /* the walk would keep more than max_bytes */
} rgi_odds_status;

/* The distribution of one column of the result (columns.h): each of its
** values' probability, a value of a list's items the probability that
** some item has it. */
typedef struct rgi_odds_field {
  char name[160];
  int any;                  /* a column of a list's items */
  rgi_tally tally;           /* its distinct values (slots) */
  rgi_frac *probs;           /* probs[slot] */
} rgi_odds_field;

/* The distribution. */
typedef struct rgi_odds_result {
  rgi_odds_status status;
  rgi_tally tally;           /* the distinct results (slots) */
  rgi_frac *probs;           /* probs[slot] */
  uint32_t nfields;         /* the result column by column (1: "result" of a */
  rgi_odds_field *fields;    /* scalar, the same as tally and probs) */
  uint32_t *cells;          /* (result slot, field, field slot) triples: which */
  size_t ncells, capcells;  /* value of each field each result has */
  rgi_frac cut;              /* the probability of the paths cut at `depth` */
  uint64_t paths;           /* runs of the procedure made (at most `limit`) */
  uint64_t cut_paths;       /* of which cut at `depth` */
  uint32_t states;          /* chance points told apart (states of the chain) */
  uint32_t loops;           /* loops among them, solved as such */
  uint32_t draws;           /* RG_ODDS_TINY / RUN_FAILED: the run's draws */
  uint64_t *idx, *n;        /* RG_ODDS_RUN_FAILED: outcome idx[k] of n[k]
                            ** (0-based) at each draw k < draws */
  char msg[256];            /* RG_ODDS_RUN_FAILED: the error */
  uint32_t pc;              /*   and where */
  uint64_t expect_paths;    /* runs in which an expectation failed */
  uint32_t expect_pc;       /*   where the first did */
} rgi_odds_result;

/* Enumerates the paths o describes into *r (freed by rgi_odds_free whatever
** this returns).  Returns r->status. */
rgi_odds_status rgi_odds_run(const rgi_odds_opts *o, rgi_odds_result *r);

/* Frees what r holds. */
void rgi_odds_free(rgi_odds_result *r);

/* Writes the distribution r (runs cut after depth draws) of the question h
** as `regula odds` prints it (oddstext.c): a header naming the file, the
** call, the policy, the settings and the placeholders (text, or NULL), a
** line per result with its fraction, percent and bar, then the runs,
** states and loops; with phj (a JSON array of the placeholders, taken
** over) instead as `regula odds --json`, one object and a newline, which
** names the strategy apart (when not NULL).  Returns 0, or -1 when out of
** memory or out has failed. */
int rgi_odds_text(rg_out *out, const rgi_odds_result *r, uint64_t depth, const rgi_heading *h,
                 const char *policy, const char *strategy, const char *placeholders,
                 json_t *phj);

/* Writes r as one bar chart, an SVG document, titled as the header
** (oddstext.c).  Returns as rgi_odds_text. */
int rgi_odds_chart(rg_out *out, const rgi_odds_result *r, const rgi_heading *h, const char *policy);

/* Writes x in decimal into buf (at least 40 bytes); returns buf. */
char *rgi_u128_str(char *buf, rgi_u128 x);

/* Writes f as "num/den" into buf (at least 80 bytes); returns buf. */
char *rgi_frac_str(char *buf, const rgi_frac *f);

/* *r = |a - b|, *neg = 1 when a < b (else 0).  Returns 0, or -1 when a
** number would not fit in 128 bits. */
int rgi_frac_sub(rgi_frac *r, int *neg, const rgi_frac *a, const rgi_frac *b);

/* Returns f as a long double (0 when f is 0). */
long double rgi_frac_value(const rgi_frac *f);

/* The exact distributions of the same question asked of several rule sets
** (`regula odds --variants`, oddsvar.c): rs[0..n) (each RG_ODDS_OK), the
** question of each hs[v] (its file, call and settings), their policy
** labels and placeholders (text, or NULL). */
typedef struct rgi_oddsvar {
  uint32_t n;
  const rgi_odds_result *const *rs;
  const rgi_heading *hs;
  const char *const *names;        /* how the variants are named: their files */
  const char *const *policies;
  const char *const *placeholders; /* text (or NULL entries) */
  json_t *const *phj;              /* JSON arrays, taken over by rgi_oddsvar_json */
  uint64_t depth;
} rgi_oddsvar;

/* Writes the distributions side by side as `regula odds --variants` prints
** them: the header (the call, the policy, each variant with its file,
** settings and placeholders), then per column of the result a line per
** value in its natural order (values only later variants have where their
** enum puts them) with each variant's probability (a fraction and a
** percent) and each later one's exact difference from A; then each
** variant's runs and states.  Returns 0, or -1 when out of memory, a
** difference does not fit in 128 bits or out has failed. */
int rgi_oddsvar_text(rg_out *out, const rgi_oddsvar *ov);

/* The same as one JSON object and a newline (see `regula odds --help`). */
int rgi_oddsvar_json(rg_out *out, const rgi_oddsvar *ov);

/* The same as bar charts, the variants side by side, one SVG document. */
int rgi_oddsvar_chart(rg_out *out, const rgi_oddsvar *ov);

#endif
