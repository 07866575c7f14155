/*
** rng.h: the one source of randomness, seeded and the same on every platform.
**
** xoshiro256** (Blackman and Vigna), seeded through splitmix64.  Only 64-bit
** unsigned arithmetic, so a seed gives the same numbers everywhere.  A
** generator can be split into independent sub-streams by a stream number
** (rg_rng_stream), so that each run of a simulation, or each draw site of a
** rule set, has its own sequence whatever the others consume.
*/
#ifndef RG_RNG_H
#define RG_RNG_H

#include <stdint.h>

typedef struct rg_rng {
  uint64_t s[4];
} rg_rng;

/* Seeds r from seed. */
void rg_rng_seed(rg_rng *r, uint64_t seed);

/* Seeds r as sub-stream `stream` of seed: streams of one seed are
** independent of each other. */
void rg_rng_stream(rg_rng *r, uint64_t seed, uint64_t stream);

/* Returns the next 64 random bits. */
uint64_t rg_rng_next(rg_rng *r);

/* Returns a uniform integer in 0..n-1 (n >= 1), without bias. */
uint64_t rg_rng_below(rg_rng *r, uint64_t n);

#endif
