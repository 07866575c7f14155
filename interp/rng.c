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

void rg_rng_seed(rg_rng *r, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
  if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3])) r->s[0] = 1;   /* never all zero */
}

void rg_rng_stream(rg_rng *r, uint64_t seed, uint64_t stream) {
  uint64_t x = seed;
  uint64_t mixed = splitmix64(&x) ^ (stream * 0xD1B54A32D192ED03ull);
  rg_rng_seed(r, mixed ^ splitmix64(&mixed));
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rg_rng_next(rg_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

/* Lemire's multiply-shift with rejection: the product's high half is the
** draw; low halves below the threshold would make some results likelier
** and are drawn again. */
uint64_t rg_rng_below(rg_rng *r, uint64_t n) {
  uint64_t x = rg_rng_next(r);
  __uint128_t m = (__uint128_t)x * n;
  uint64_t low = (uint64_t)m;
  if (low < n) {
    uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      x = rg_rng_next(r);
      m = (__uint128_t)x * n;
      low = (uint64_t)m;
    }
  }
  return (uint64_t)(m >> 64);
}
