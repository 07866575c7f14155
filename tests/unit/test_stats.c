/*
** test_stats.c: the dice and decks of a run follow their distributions.
**
** A tiny rule file is compiled from memory (rules_text.h) and each procedure is
** run N = 20000 times on one VM, reseeded before each run as its own stream
** (rgi_vm_seed(vm, SEED, run)), the way a Monte Carlo of many runs would.
** Each count must lie within 5 standard errors of its expectation
** (sqrt(N p (1 - p))): a correct generator fails one such check about once
** in 1.7 million, a biased or mis-seeded one (an off-by-one die, a tie not
** rerolled, runs that repeat each other) fails them by far.  Checked:
**
**   - 2d6: the sums 2..12 with probabilities 1/36, 2/36, .. 6/36, .. 1/36;
**   - a roll-off of d6 against d6 with ties rerolled: each side wins 1/2;
**   - a custom die with faces {hit: 2, miss: 4}: hit 1/3;
**   - a deck {BLACK: 2, RED: 1}: the first card drawn is RED 1/3, and the
**     second draw of the same run never repeats a card that is gone;
**   - reseeding with the same seed and stream repeats a run exactly.
**
** Runs in well under a second (under ASan a few seconds at most).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_text.h"
#include "vm.h"

#define N 20000
#define SEED 20240601u
#define SIGMAS 5.0

static const char *source =
  "enum colour { BLACK < RED }\n"
  "enum mark { hit, miss }\n"
  "dice BATTLE: mark = { hit: 2, miss: 4 }\n"
  "deck bag: colour = { BLACK: 2, RED: 1 }\n"
  "procedure two_d6() -> int { return roll 2d6 }\n"
  RULES_ROLL_OFF("roll_off")
  "procedure battle() -> bool { return roll BATTLE == hit }\n"
  "procedure first_card() -> int {\n"
  "  let a = draw bag\n"
  "  let b = draw bag\n"
  "  let c = draw bag\n"
  "  if a == RED and (b == RED or c == RED) { return -1 }\n"
  "  if b == RED and c == RED { return -1 }\n"
  "  if a == RED { return 1 }\n"
  "  return 0\n"
  "}\n";

/* Checks that count is within SIGMAS standard errors of N * p. */
static void check_count(const char *what, long count, double p) {
  double mean = N * p, se = sqrt(N * p * (1 - p));
  CHECK(fabs((double)count - mean) <= SIGMAS * se, "%s: %ld, expected %.1f +- %.1f (%g sigmas)",
        what, count, mean, SIGMAS * se, SIGMAS);
}

/* Runs procedure `name` N times, each as stream `run` of SEED, and stores
** how often each result in lo..lo+nout-1 came in counts (others: *bad). */
static void tally(rgi_vm *vm, const rgi_module *m, const char *name, long lo, long *counts,
                  int nout, long *bad) {
  int p = rgi_module_find_proc(m, name);
  rgi_value none = 0, r = 0;
  *bad = 0;
  CHECK(p >= 0, "no procedure %s", name);
  if (p < 0) return;
  for (int run = 0; run < N; run++) {
    rgi_vm_seed(vm, SEED, (uint64_t)run);
    if (rgi_vm_call(vm, (uint32_t)p, &none, &r) != RG_RUN_OK || r < lo || r >= lo + nout) {
      ++*bad;
      continue;
    }
    counts[r - lo]++;
  }
  CHECK(*bad == 0, "%s: %ld runs failed or gave a result out of range", name, *bad);
}

int main(void) {
  rgi_arena arena;
  rgi_module m;
  rgi_vm *vm;
  long counts[11] = { 0 }, bad;
  char what[64];

  if (rules_text(source, &m, &arena) != 0) {
    rgi_arena_free(&arena);
    return 1;
  }
  vm = rgi_vm_new(&m, NULL, NULL);
  CHECK(vm != NULL, "rgi_vm_new");
  if (vm) {
    /* 2d6: weight 6 - |s - 7| out of 36. */
    tally(vm, &m, "two_d6", 2, counts, 11, &bad);
    for (int s = 2; s <= 12; s++) {
      snprintf(what, sizeof what, "2d6 = %d", s);
      check_count(what, counts[s - 2], (6 - abs(s - 7)) / 36.0);
    }

    /* Roll-off with ties rerolled: 1/2 each. */
    memset(counts, 0, sizeof counts);
    tally(vm, &m, "roll_off", 1, counts, 2, &bad);
    check_count("roll-off won by the first side", counts[0], 0.5);
    CHECK(counts[0] + counts[1] == N, "roll-off: %ld + %ld runs", counts[0], counts[1]);

    /* Custom die: hit on 2 faces of 6. */
    memset(counts, 0, sizeof counts);
    tally(vm, &m, "battle", 0, counts, 2, &bad);
    check_count("BATTLE shows hit", counts[1], 1.0 / 3);

    /* Deck: RED first 1/3 of the time; never two REDs (result -1). */
    memset(counts, 0, sizeof counts);
    tally(vm, &m, "first_card", 0, counts, 2, &bad);
    check_count("bag: RED drawn first", counts[1], 1.0 / 3);

    /* Same seed and stream: the same run. */
    {
      int p = rgi_module_find_proc(&m, "two_d6");
      rgi_value none = 0, a[8], b[8];
      for (int k = 0; k < 8; k++) {
        rgi_vm_seed(vm, SEED, 1000 + (uint64_t)k);
        rgi_vm_call(vm, (uint32_t)p, &none, &a[k]);
      }
      for (int k = 0; k < 8; k++) {
        rgi_vm_seed(vm, SEED, 1000 + (uint64_t)k);
        rgi_vm_call(vm, (uint32_t)p, &none, &b[k]);
      }
      CHECK(memcmp(a, b, sizeof a) == 0, "reseeding does not repeat the runs");
    }
  }
  rgi_vm_free(vm);
  rgi_module_free(&m);
  rgi_arena_free(&arena);
  return check_done("test_stats");
}
