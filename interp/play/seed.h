/*
** seed.h: the seeding contract, written down once.
**
** Every random number of a run comes from rgi_rng (xoshiro256**) seeded as
** a sub-stream of the user's seed S (rgi_rng_stream(rng, S, STREAM)).  Which
** stream serves which purpose is fixed here, and every front end (the CLI's
** run, sim, test and call, the page, an embedding program) takes its streams
** from these functions, so that a seed gives the same game everywhere:
**
**   a run (`run --seed S`, each variant of `run --variants`, the page,
**   rg_run of the API): each step draws from streams of S named by the
**   step, so that a variant's game is the same alone and side by side, and
**   variants sharing a step draw the same numbers there (common random
**   numbers)
**       dice and decks      stream H                rgi_seed_step
**       random choices      stream H ^ 0x9E3779B97F4A7C15
**       where H = FNV-1a 64 of the step's name (the name "" from the
**       start of the run to its first step); a step entered again (in a
**       loop) takes H ^ (n * 0x2545F4914F6CDD1D) the n-th time after the
**       first, so that it does not draw the same numbers again
**   run i of a simulation (`sim --seed S`, i = 0, 1, ...)
**       dice and decks      stream i                rgi_seed_sim_dice
**       random choices      stream 2^63 + i         rgi_seed_sim_choices
**                           (seeded at the run's first choice)
**   run i of variants compared (`sim --variants`): as a run alone, with
**   the seed S ^ M(i), M(i) splitmix64's finalizer of i + 1
**                                                   rgi_seed_sim_step
**   a test, and `call`      seed 0, stream 0 (a new VM's generator), the
**                           first option of every choice; a test reseeds
**                           before it runs         rgi_seed_test
**                           (rg_run: RG_SEEDING_CALL, rgi_play_seed_call)
**
** Changing who answers a choice never shifts the dice: they draw from
** another stream.  Exact odds (odds.c) enumerate every outcome and use no
** seed.
*/
#ifndef RG_SEED_H
#define RG_SEED_H

#include <stdint.h>

#include "rng.h"
#include "vm.h"

/* Run i of a simulation of seed: seeds vm's dice and decks (stream i). */
void rgi_seed_sim_dice(rgi_vm *vm, uint64_t seed, uint64_t run);

/* Run i of a simulation of seed: seeds its random choices (stream
** 2^63 + i). */
void rgi_seed_sim_choices(rgi_rng *r, uint64_t seed, uint64_t run);

/* A run of seed entering the step named step ("" at the start of the
** run) for the time nth + 1: seeds vm's dice and decks (when vm is not
** NULL) and the random choices' generator *choices (when not NULL) from
** the step's streams. */
void rgi_seed_step(rgi_vm *vm, rgi_rng *choices, uint64_t seed, const char *step, uint32_t nth);

/* How many times each step of a run was entered, by the name's string
** index in the module (the first RG_SEED_STEPS names; later ones count as
** entered for the first time).  Zeroed before a run. */
#define RG_SEED_STEPS 128
typedef struct rgi_seed_steps {
  uint32_t name[RG_SEED_STEPS], count[RG_SEED_STEPS];
  uint32_t n;
} rgi_seed_steps;

/* Counts an entry into the step of string index name; returns how many
** times it was entered before (the nth of rgi_seed_step). */
uint32_t rgi_seed_steps_enter(rgi_seed_steps *s, uint32_t name);

/* Run i of variants compared (sim --variants): rgi_seed_step for that run,
** whose seed is seed ^ M(i). */
void rgi_seed_sim_step(rgi_vm *vm, rgi_rng *choices, uint64_t seed, uint64_t run, const char *step,
                      uint32_t nth);

/* A test (and `call`): seed 0, stream 0, as a new VM starts. */
void rgi_seed_test(rgi_vm *vm);

#endif
