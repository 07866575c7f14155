/*
** play.h: a run with its choices answered by a policy, its dice and cards
** optionally read by another (a person with real dice), and its events
** logged.
**
** rgi_play fills an rgi_sink for rgi_vm_new: each `choose` becomes a question
** (the options named as people read them; an enum member also answers to
** its code) put to the choices policy, then logged; each roll, draw, step,
** note and failed expect is logged; with a dice policy, each die rolled
** and each card drawn is a question too: a plain die "roll d6 (line 34)"
** over 1..6, a custom die its distinct faces ("hit", remark "2 sides"), a
** deck the distinct cards left, in order ("RED", remark "3 left"); a secret
** deck every card it holds when full, without counts (what is left tells
** what the others drew), a card none of which is left refused.  The first
** card of a hand drawn at once (`draws`) says how many the hand is (q.hand),
** so that a person may name them all at once.  A
** question left unanswered stops the run (rgi_vm_call then fails) and sets
** `stopped`; the policy's error says why.
*/
#ifndef RG_PLAY_H
#define RG_PLAY_H

#include <stdint.h>

#include "evlog.h"
#include "module.h"
#include "policy.h"
#include "seed.h"
#include "vm.h"

typedef struct rgi_play {
  const rgi_module *m;
  rgi_vm *vm;                /* set by rgi_play_attach */
  rgi_log *log;              /* NULL: nothing logged */
  rgi_policy *choices;       /* answers `choose`; NULL: the first option */
  rgi_policy *dice;          /* reads dice and cards; NULL: the VM's generator */
  uint32_t strategy;        /* 1 + the strategy of the rules (strategy.h) that
                            ** answers choices before `choices` does; 0: none */
  /* A picture's shapes, passed on as the sink's shape callback (or NULL). */
  void (*shape)(void *ctx, const rgi_module *m, uint32_t shape, const rgi_value *vals,
                uint32_t pc);
  void *shape_ctx;
  /* Optional: called after each event is logged (secret: 1 for a choice
  ** the rules mark secret), for a front end that holds secrets back. */
  void (*logged)(void *ctx, int secret);
  void *logged_ctx;
  int stopped;              /* a question went unanswered */
  rgi_policy *stopped_by;    /* the policy that did not answer */
  int failed;               /* expectations failed so far */
  const char *step;         /* the step being run ("" before the first) */
  char where[512];          /* "FILE:LINE" of the question being asked */
  int seeded;               /* rgi_play_seed: each step reseeds */
  uint64_t seed;
  rgi_seed_steps steps;
  /* private: the label (rgi_vm_label) whose roll or draw was reported, and
  ** at which pc: a later roll or draw elsewhere is not labelled by it */
  uint32_t label_gen_used, label_pc_used;
  /* private: the question being asked (see the option namer in play.c) */
  rgi_type opt_type;
  const rgi_value *opts;
  const uint32_t *counts;
  const char *count_word;
  rgi_value *distinct;       /* scratch for dice questions, sized for the */
  uint32_t *dcount, *dfirst;/* largest die or deck */
  uint32_t *lcount, *lfirst;/* a deck's question: of each option, how many are
                            ** left and where the first is among those left */
} rgi_play;

/* Sets p up for module m.  Returns 0, or -1 when out of memory; free p
** with rgi_play_free whatever it returns. */
int rgi_play_init(rgi_play *p, const rgi_module *m, rgi_log *log, rgi_policy *choices,
                 rgi_policy *dice);

/* Fills *sink with p's callbacks, for rgi_vm_new. */
void rgi_play_sink(rgi_play *p, rgi_sink *sink);

/* Tells p (and its log) the VM made with its sink. */
void rgi_play_attach(rgi_play *p, rgi_vm *vm);

/* Seeds p's run by the contract of seed.h: the VM's dice and decks, and
** the generator of a random choices policy, from the streams of the start
** of the run now, and of each step as it begins.  Call after
** rgi_play_attach, before the run. */
void rgi_play_seed(rgi_play *p, uint64_t seed);

/* Seeds p's run as `regula call` and a test are seeded (seed.h): the VM
** with seed 0, stream 0, the generator of a random choices policy from
** the start-of-run stream of seed 0, and no step reseeds. */
void rgi_play_seed_call(rgi_play *p);

/* Frees p's scratch (not its VM, log or policies). */
void rgi_play_free(rgi_play *p);

/* After a stopped run: why (the stopping policy's error, or ""). */
const char *rgi_play_error(const rgi_play *p);

#endif
