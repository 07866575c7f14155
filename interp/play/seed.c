/*
** seed.c: the seeding contract (stated in seed.h, which is its one copy).
*/
#include "seed.h"

void rgi_seed_sim_dice(rgi_vm *vm, uint64_t seed, uint64_t run) {
  rgi_vm_seed(vm, seed, run);
}

void rgi_seed_sim_choices(rgi_rng *r, uint64_t seed, uint64_t run) {
  rgi_rng_stream(r, seed, run | (1ull << 63));
}

/* Returns the stream H of the step named name: FNV-1a 64. */
static uint64_t step_stream(const char *name) {
  uint64_t h = 1469598103934665603ull;
  for (; *name; name++) h = (h ^ (unsigned char)*name) * 1099511628211ull;
  return h;
}

void rgi_seed_step(rgi_vm *vm, rgi_rng *choices, uint64_t seed, const char *step, uint32_t nth) {
  uint64_t h = step_stream(step) ^ ((uint64_t)nth * 0x2545F4914F6CDD1Dull);
  if (vm) rgi_vm_seed(vm, seed, h);
  if (choices) rgi_rng_stream(choices, seed, h ^ 0x9E3779B97F4A7C15ull);
}

uint32_t rgi_seed_steps_enter(rgi_seed_steps *s, uint32_t name) {
  for (uint32_t i = 0; i < s->n; i++)
    if (s->name[i] == name) return s->count[i]++;
  if (s->n < RG_SEED_STEPS) {
    s->name[s->n] = name;
    s->count[s->n++] = 1;
  }
  return 0;
}

/* Returns splitmix64's finalizer of run + 1: the run's share of a step's
** stream. */
static uint64_t run_mix(uint64_t run) {
  uint64_t z = run + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void rgi_seed_sim_step(rgi_vm *vm, rgi_rng *choices, uint64_t seed, uint64_t run, const char *step,
                      uint32_t nth) {
  rgi_seed_step(vm, choices, seed ^ run_mix(run), step, nth);
}

void rgi_seed_test(rgi_vm *vm) {
  rgi_vm_seed(vm, 0, 0);
}
