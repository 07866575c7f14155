/*
** sim.h: Monte Carlo tallies of a procedure's result, on threads.
**
** Run i (0-based) rolls and draws from stream i of the seed and answers its
** choices uniformly from a stream of its own (seed.h), so a run's outcome
** depends only on the seed and i.  The runs are cut into K contiguous
** blocks, one thread and one VM each; the blocks' tallies are merged in run
** order, so the result is the same for every K.  Nothing is allocated per
** run: memory is flat in the number of runs.  The caller's thread waits
** (and reports progress) while the workers run; nothing here is global.
**
** A record result is tallied field by field, a field of records and a list
** of records field by field too (columns.h); any other result as a whole.
** A field with more than RG_SIM_MAX_DISTINCT distinct values (a list of
** every square visited) is marked as overflowing and not tallied.
*/
#ifndef RG_SIM_H
#define RG_SIM_H

#include <stdint.h>

#include "heading.h"
#include "json.h"
#include "module.h"
#include "regula_front.h"
#include "tally.h"
#include "vm.h"

#define RG_SIM_MAX_THREADS RG_SIMS_MAX_THREADS   /* regula.h */
#define RG_SIM_MAX_DISTINCT 1000

/* How a table or chart says a column counts runs, not items. */
#define RG_SIM_ANY_NOTE "  (share of the runs with it in some item)"

/* How the runs of a simulation answer their choices. */
typedef enum rgi_sim_choices {
  RG_SIM_RANDOM = 0,        /* uniform, from a stream of the run's own (default) */
  RG_SIM_FIRST,             /* always the first option */
  RG_SIM_ANSWERS            /* from `answers`, one a line, the same for every run */
} rgi_sim_choices;

/* What to simulate. */
typedef struct rgi_sim_opts {
  const rgi_module *m;       /* verified; outlives the simulation */
  const rgi_limits *limits;  /* of each run (NULL: the defaults) */
  uint32_t proc;            /* the procedure; it must have a result */
  const rgi_value *args;     /* its arguments (in the module's constant heap) */
  uint64_t runs;            /* >= 1 */
  uint64_t first;           /* the first run's index (0: the whole simulation;
                            ** a slice of one starts later) */
  uint64_t seed;
  uint32_t threads;         /* 1..RG_SIM_MAX_THREADS (at most runs are used) */
  const rgi_value *inputs;   /* [m->ninputs]: the inputs of every run, or NULL
                            ** for their defaults */
  rgi_sim_choices choices;
  const char *answers;      /* RG_SIM_ANSWERS: the text (no NUL byte), its */
  size_t answers_len;       /* length, and the name its errors give */
  const char *answers_source;
  uint32_t strategy;        /* 1 + the rules' strategy that answers choices
                            ** first (RG_SIM_RANDOM or FIRST the rest); 0: none */
  /* Optional: called on the caller's thread about every 100 ms while the
  ** workers run, with the runs done so far (in steps of 1024). */
  void (*progress)(void *ctx, uint64_t done, uint64_t total);
  void *progress_ctx;
} rgi_sim_opts;

/* One tallied value: the result, or one column of a record result
** (columns.h: "FIELD", "FIELD.SUBFIELD", "FIELD (items)"). */
typedef struct rgi_sim_field {
  char name[160];           /* the column's name, or "result" */
  int any;                  /* a column of a list's elements: a run counts once
                            ** for each value some element has */
  rgi_tally tally;           /* its distinct values (slots) */
  uint64_t *counts;         /* counts[slot] */
  int overflow;             /* more than RG_SIM_MAX_DISTINCT values: not tallied */
  uint32_t ncounts;         /* room in counts */
} rgi_sim_field;

typedef enum rgi_sim_status {
  RG_SIM_OK = 0,
  RG_SIM_RUN_FAILED,        /* a run failed: fail_run, msg, pc say which and where
                            ** (an unanswered choice: msg is the answers' error) */
  RG_SIM_NOMEM              /* out of memory (or no thread could start) */
} rgi_sim_status;

/* What a simulation found. */
typedef struct rgi_sim_result {
  rgi_sim_status status;
  uint64_t runs;
  uint32_t nfields;
  rgi_sim_field *fields;     /* [nfields] */
  uint64_t fail_run;        /* RG_SIM_RUN_FAILED: the first failed run */
  char msg[256];            /*   its error message */
  uint32_t fail_pc;         /*   and where (the module's code index) */
  uint64_t expect_runs;     /* runs in which an expectation failed */
  uint64_t expect_run;      /*   the first of them */
  uint32_t expect_pc;       /*   and where it failed */
} rgi_sim_result;

/* Runs the simulation o describes into *r (which the caller frees with
** rgi_sim_free whatever this returns).  Returns r->status. */
rgi_sim_status rgi_sim_run(const rgi_sim_opts *o, rgi_sim_result *r);

/* Adds the tallies, runs and failed expectations of part (a later slice of
** the same simulation, status RG_SIM_OK) to into.  Returns 0, or -1 when
** out of memory or the two tally different fields. */
int rgi_sim_merge(rgi_sim_result *into, const rgi_sim_result *part);

/* Writes the tallies of r (a simulation of the question h with seed) as
** the one JSON object of `regula sim --json` (format 2, see the sim
** command's help), newline-terminated: {"format", "procedure", "file",
** "arguments", "sets", "runs",
** "seed" (a decimal string), "tallies": [{"name", "tallied", "values":
** [{"text", "count", "share", "low", "high", "value"}]}]} (values in their
** natural order, low..high the 95% Wilson interval; "value" for scalars),
** with "policy" (how choices were answered, as the header says it),
** "strategy" (the name of the strategy that answered, for a program) and
** "placeholders" (a JSON array, taken over) when they are not NULL.
** Returns 0, or -1 when out of memory or out has failed. */
int rgi_sim_json(rg_out *out, const rgi_sim_result *r, const rgi_heading *h, uint64_t seed,
                const char *policy, const char *strategy, json_t *placeholders);

/* Writes the tallies of r as `regula sim` prints them (simtext.c): the
** line "FILE: PROC(ARGS): N runs, seed S, policy POLICY" (heading.h), the
** line "set: ..." when the runs had settings, the line "placeholders: ..."
** when placeholders is not empty, then per field a blank line, its name
** and a table of value, count, share and 95% interval (values in their
** natural order).  Returns 0, or -1 when out of memory or out has failed. */
int rgi_sim_text(rg_out *out, const rgi_sim_result *r, const rgi_heading *h, uint64_t seed,
                const char *policy, const char *placeholders);

/* Writes the tallies of r as bar charts with their intervals, one per
** field, in one SVG document under a title naming h as the header does
** (simtext.c).  Returns as rgi_sim_text. */
int rgi_sim_chart(rg_out *out, const rgi_sim_result *r, const rgi_heading *h, uint64_t seed,
                 const char *policy);

/* Frees what r holds. */
void rgi_sim_free(rgi_sim_result *r);

/* The 95% Wilson score interval of c successes in n trials (n >= 1). */
void rgi_sim_wilson(uint64_t c, uint64_t n, double *lo, double *hi);

#endif
