/*
** seed.c: the seeding contract (stated in seed.h, which is its one copy).
*/
#include "seed.h"

void rg_seed_run_dice(rg_vm *vm, uint64_t seed) {
  rg_vm_seed(vm, seed, 0);
}

void rg_seed_run_choices(rg_rng *r, uint64_t seed) {
  rg_rng_stream(r, seed, 1);
}

void rg_seed_sim_dice(rg_vm *vm, uint64_t seed, uint64_t run) {
  rg_vm_seed(vm, seed, run);
}

void rg_seed_sim_choices(rg_rng *r, uint64_t seed, uint64_t run) {
  rg_rng_stream(r, seed, run | (1ull << 63));
}

uint64_t rg_seed_step_stream(const char *name) {
  uint64_t h = 1469598103934665603ull;
  for (; *name; name++) h = (h ^ (unsigned char)*name) * 1099511628211ull;
  return h;
}

void rg_seed_step_dice(rg_vm *vm, uint64_t seed, uint64_t h) {
  rg_vm_seed(vm, seed, h);
}

void rg_seed_step_choices(rg_rng *r, uint64_t seed, uint64_t h) {
  rg_rng_stream(r, seed, h ^ 0x9E3779B97F4A7C15ull);
}

void rg_seed_test(rg_vm *vm) {
  rg_vm_seed(vm, 0, 0);
}
