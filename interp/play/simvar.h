/*
** simvar.h: Monte Carlo of several variants of the rules on common random
** numbers, compared run by run.
**
** Run i of every variant draws from the same numbers: each step of the
** rules re-seeds the dice and decks and the random choices from a stream of
** the seed named by the run and the step (seed.h), so variants that share
** a step draw the same numbers there, whatever they drew before.  The
** result (column by column, columns.h, matched by name) is tallied per
** variant; and for each variant against the first, per value x of each
** field, how many runs had x in the first only (n10) and in the variant
** only (n01).  The difference of the shares, p_v - p_0 = (n01 - n10) / n,
** then has the paired variance ((n01 + n10) / n - d^2) / n, which common
** random numbers make small where the variants agree run by run.
**
** The runs are cut into blocks, one thread each, merged in run order:
** the result is the same for every thread count.
*/
#ifndef RG_SIMVAR_H
#define RG_SIMVAR_H

#include <stdint.h>

#include "heading.h"
#include "json.h"
#include "module.h"
#include "regula_front.h"
#include "tally.h"
#include "vm.h"

#define RG_SIMVAR_MAX RG_SIMVARS_MAX   /* most variants compared at once (regula.h) */

/* What to simulate. */
typedef struct rgi_simvar_opts {
  uint32_t n;                          /* variants, 2..RG_SIMVAR_MAX */
  const rgi_module *const *m;           /* [n] verified, outliving the result */
  const uint32_t *proc;                /* [n] the procedure (no parameters, a result) */
  const rgi_value *const *inputs;       /* [n] each variant's inputs, or NULL entries */
  const rgi_limits *limits;
  uint64_t runs, seed;
  uint32_t threads;                    /* 1..256 */
  int first;                           /* choices take their first option, else random */
  const uint32_t *strategy;            /* [n] 1 + each variant's strategy answering
                                       ** first (strategy.h), or NULL: none */
} rgi_simvar_opts;

/* One value of one field, as text, across the variants. */
typedef struct rgi_simvar_value {
  char *text;
  uint64_t count[RG_SIMVAR_MAX];       /* runs where variant v had it */
  uint64_t n10[RG_SIMVAR_MAX];         /* runs where variant 0 had it, v not */
  uint64_t n01[RG_SIMVAR_MAX];         /* runs where v had it, variant 0 not */
} rgi_simvar_value;

typedef struct rgi_simvar_field {
  char name[160];                      /* the column's name (columns.h), or "result" */
  int any;                             /* a column of a list's items: a run counts
                                       ** once for each value some item has */
  rgi_simvar_value *vals;               /* in their natural order (enum order, numbers
                                       ** by value): A's, with the values only
                                       ** later variants have where theirs put them */
  uint32_t nvals;
  int overflow;                        /* more than RG_SIM_MAX_DISTINCT values */
} rgi_simvar_field;

typedef enum rgi_simvar_status {
  RG_SIMVAR_OK = 0,
  RG_SIMVAR_RUN_FAILED,                /* fail_variant, fail_run, msg, fail_pc */
  RG_SIMVAR_NOMEM
} rgi_simvar_status;

typedef struct rgi_simvar_result {
  rgi_simvar_status status;
  uint64_t runs;
  uint32_t nfields;
  rgi_simvar_field *fields;
  uint32_t fail_variant;
  uint64_t fail_run;
  char msg[256];
  uint32_t fail_pc;
} rgi_simvar_result;

/* Runs the comparison o describes into *r (freed by rgi_simvar_free
** whatever this returns).  Returns r->status. */
rgi_simvar_status rgi_simvar_run(const rgi_simvar_opts *o, rgi_simvar_result *r);

/* Frees what r holds. */
void rgi_simvar_free(rgi_simvar_result *r);

/* Writes r (a comparison of procedure proc of the variants names[0..n),
** whose placeholder data are placeholders[v], text or NULL) as `regula sim
** --variants` prints it (simvartext.c): the header, a line per variant
** ("  A = NAME", its settings sets[v] and placeholders), then per field the shares side by side
** and each variant's difference from A with its paired and unpaired 95%
** intervals.  Returns 0, or -1 when out of memory or out has failed. */
int rgi_simvar_text(rg_out *out, const rgi_simvar_result *r, const char *proc,
                   const char *const *names, const char *const *sets,
                   const char *const *placeholders, uint32_t n, uint64_t seed,
                   const char *policy);

/* The same as the one JSON object of `regula sim --variants --json` and a
** newline: {"format", "procedure", "runs", "seed", "policy", "variants":
** [{"file", "sets", "placeholders"}], "fields": [{"name", "tallied", "values":
** [{"text", "counts", "differences": [{"variant", "difference", "low",
** "high", "unpaired_low", "unpaired_high"}]}]}]}; placeholders[0..n) (JSON
** arrays) are taken over; "strategy" names the strategy apart when it is
** not NULL.  Returns as rgi_simvar_text. */
int rgi_simvar_json(rg_out *out, const rgi_simvar_result *r, const char *proc,
                   const char *const *names, const char *const *sets,
                   json_t *const *placeholders, uint32_t n, uint64_t seed, const char *policy,
                   const char *strategy);

/* The same as bar charts, the variants side by side with their Wilson
** intervals, one SVG document.  Returns as rgi_simvar_text. */
int rgi_simvar_chart(rg_out *out, const rgi_simvar_result *r, const char *proc,
                    const char *const *names, const char *const *sets, uint32_t n,
                    uint64_t seed, const char *policy);

/* The 95% interval of the difference p_v - p_0 of value x between variant
** v and the first, paired (*lo, *hi) and as unpaired samples of the same
** size would give it (*ulo, *uhi). */
void rgi_simvar_interval(const rgi_simvar_value *x, uint32_t v, uint64_t runs, double *lo,
                        double *hi, double *ulo, double *uhi);

#endif
