/*
** rng.h: the one source of randomness, seeded and the same on every platform.
**
** xoshiro256** (Blackman and Vigna), seeded through splitmix64.  Only 64-bit
** unsigned arithmetic, so a seed gives the same numbers everywhere.  A
** generator can be split into independent sub-streams by a stream number
** (rgi_rng_stream), so that each run of a simulation, or each draw site of a
** rule set, has its own sequence whatever the others consume.
*/
#ifndef RG_RNG_H
#define RG_RNG_H

#include <stdint.h>

#define RG_RNG_TYPE typedef struct rgi_rng { uint64_t s[4]; } rgi_rng;
RG_RNG_TYPE

/* Seeds r from seed. */
void rgi_rng_seed(rgi_rng *r, uint64_t seed);

/* Seeds r as sub-stream `stream` of seed: streams of one seed are
** independent of each other. */
void rgi_rng_stream(rgi_rng *r, uint64_t seed, uint64_t stream);

/* rgi_rng_next returns the next 64 random bits; rgi_rng_below a uniform
** integer in 0..n-1 (n >= 1), without bias: Lemire's multiply-shift with
** rejection (the product's high half is the draw; low halves below the
** threshold would make some results likelier and are drawn again).
** Inline: the VM draws one per die.  Written once as a macro, so that the
** native tier's generated C (native.c) carries the very same code. */
#define RG_RNG_INLINE \
static inline uint64_t rgi_rng_next(rgi_rng *r) { \
  uint64_t *s = r->s; \
  uint64_t x = s[1] * 5; \
  uint64_t result = ((x << 7) | (x >> 57)) * 9; \
  uint64_t t = s[1] << 17; \
  s[2] ^= s[0]; \
  s[3] ^= s[1]; \
  s[1] ^= s[2]; \
  s[0] ^= s[3]; \
  s[2] ^= t; \
  s[3] = (s[3] << 45) | (s[3] >> 19); \
  return result; \
} \
static inline uint64_t rgi_rng_below(rgi_rng *r, uint64_t n) { \
  uint64_t x = rgi_rng_next(r); \
  __uint128_t m = (__uint128_t)x * n; \
  uint64_t low = (uint64_t)m; \
  if (low < n) { \
    uint64_t threshold = (0 - n) % n; \
    while (low < threshold) { \
      x = rgi_rng_next(r); \
      m = (__uint128_t)x * n; \
      low = (uint64_t)m; \
    } \
  } \
  return (uint64_t)(m >> 64); \
}
RG_RNG_INLINE

#endif
