/*
** seed.h: the seeding contract, written down once.
**
** Every random number of a run comes from rg_rng (xoshiro256**) seeded as
** a sub-stream of the user's seed S (rg_rng_stream(rng, S, STREAM)).  Which
** stream serves which purpose is fixed here, and every front end (the CLI's
** run, sim, test and call, the page, an embedding program) takes its streams
** from these functions, so that a seed gives the same game everywhere:
**
**   a single run (`run --seed S`)
**       dice and decks      stream 0                rg_seed_run_dice
**       the random policy   stream 1                rg_seed_run_choices
**   run i of a simulation (`sim --seed S`, i = 0, 1, ...)
**       dice and decks      stream i                rg_seed_sim_dice
**       random choices      stream 2^63 + i         rg_seed_sim_choices
**                           (seeded at the run's first choice)
**   variants side by side (`run --variants`): each step re-seeds, so that
**   variants sharing a step draw the same numbers there
**       dice and decks      stream H                rg_seed_step_dice
**       random choices      stream H ^ 0x9E3779B97F4A7C15
**                                                   rg_seed_step_choices
**       where H = FNV-1a 64 of the step's name (the name "" before the
**       first step)                                 rg_seed_step_stream
**   a test, and `call`      seed 0, stream 0 (a new VM's generator), the
**                           first option of every choice; a test reseeds
**                           before it runs         rg_seed_test
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

/* A single run of seed: seeds vm's dice and decks (stream 0). */
void rg_seed_run_dice(rg_vm *vm, uint64_t seed);

/* A single run of seed: seeds the random policy's generator (stream 1). */
void rg_seed_run_choices(rg_rng *r, uint64_t seed);

/* Run i of a simulation of seed: seeds vm's dice and decks (stream i). */
void rg_seed_sim_dice(rg_vm *vm, uint64_t seed, uint64_t run);

/* Run i of a simulation of seed: seeds its random choices (stream
** 2^63 + i). */
void rg_seed_sim_choices(rg_rng *r, uint64_t seed, uint64_t run);

/* Returns the stream H of the step named name (FNV-1a 64; "" before the
** first step). */
uint64_t rg_seed_step_stream(const char *name);

/* Variants: seeds vm's dice and decks for the step of stream h. */
void rg_seed_step_dice(rg_vm *vm, uint64_t seed, uint64_t h);

/* Variants: seeds the random choices for the step of stream h. */
void rg_seed_step_choices(rg_rng *r, uint64_t seed, uint64_t h);

/* A test (and `call`): seed 0, stream 0, as a new VM starts. */
void rg_seed_test(rg_vm *vm);

#endif
