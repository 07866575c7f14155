/*
** strategy.h: a player's strategy, written in the rule file, answering
** choices.
**
** A strategy (module.h, rgi_strategy) is rules of picks: for the choices
** asking a prompt (of one chooser, or any), take the option equal to a
** value, the greatest or least (by a field of a record), the first, or one
** at random.  The first rule that applies to a choice answers it with the
** first of its picks that finds an option; a choice no rule answers (or
** whose picks find nothing offered) is left to the caller's policy.
*/
#ifndef RG_STRATEGY_H
#define RG_STRATEGY_H

#include <stdint.h>

#include "module.h"
#include "rng.h"

/* Answers choice site `choice` of m, asked of chooser with options
** opts[0..n) (records read from heap[0..nheap)), by strategy s.  A random
** pick draws from rng (or, when rng is NULL, returns -2: the caller draws,
** as odds enumerates).  Returns the option's index, -1 when the strategy
** leaves the choice to the caller's policy, or -2 (above). */
int64_t rgi_strategy_pick(const rgi_module *m, uint32_t s, uint32_t choice, rgi_value chooser,
                         const rgi_value *opts, uint32_t n, const rgi_value *heap, uint32_t nheap,
                         rgi_rng *rng);

#endif
