/*
** rng.c: xoshiro256** seeded by splitmix64 (see rng.h).
*/
#include "rng.h"

/* splitmix64: advances *x and returns the next output; used to expand a
** seed into a full state. */
static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void rgi_rng_seed(rgi_rng *r, uint64_t seed) {
  uint64_t x = seed;
  /* Never all zero, as xoshiro needs: splitmix64's output is a bijection
  ** of its counter, and the four counters differ, so at most one is 0. */
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

void rgi_rng_stream(rgi_rng *r, uint64_t seed, uint64_t stream) {
  uint64_t x = seed;
  uint64_t mixed = splitmix64(&x) ^ (stream * 0xD1B54A32D192ED03ull);
  /* The counter after the step, xor the step's output: one sequence point,
  ** so every compiler computes the same (what GCC always did). */
  uint64_t out = splitmix64(&mixed);
  rgi_rng_seed(r, mixed ^ out);
}

