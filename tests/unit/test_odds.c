/*
** test_odds.c: exact odds (interp/play/odds.h), linked against the library
** only.  Expectations worked out by hand:
**
**   - 2d6: one chance state (the roll), 1 + 36 runs; P(sum s) = (6 - |s -
**     7|) / 36, reduced: P(7) = 1/6, P(2) = P(12) = 1/36, P(4) = 1/12;
**   - two cards from a bag {BLACK: 2, RED: 1}: the first draw, then the
**     second from {BLACK, RED} or {BLACK, BLACK}: 3 states, 1 + 3 + 2 * 2
**     = 8 runs; both black 2/3 * 1/2 = 1/3, else 2/3;
**   - a roll-off of d6 against d6 with ties rolled again: P(A) = 5/12 +
**     1/6 P(A), so 1/2 each, exactly, in one loop of the states 'first roll
**     of a round' (1) and 'second roll' (6 values of a); 14 states (the
**     two rolls before the loop: 1 + 6), 1 + 14 * 6 = 85 runs, none cut.
**     Cut after 2 draws, the loop is never reached: each side 15/36 =
**     5/12, the ties unresolved (1/6), in 1 + 6 + 36 + 1 runs, 1 cut;
**   - choose(1..3): with every choice enumerated each 1/3 (1 + 3 runs),
**     else the first option with probability 1 in 1 run;
**   - a run limit of 10 stops 2d6 after 10 runs;
**   - while x < 3 { x = roll d2 } is a loop no outcome leaves: endless;
**   - dividing by zero on a 6 fails on the run of outcome 6 of 6.
*/
#include <stdio.h>
#include <string.h>

#include "odds.h"
#include "rules_text.h"

static const char *source =
  "enum colour { BLACK < RED }\n"
  "deck bag: colour = { BLACK: 2, RED: 1 }\n"
  "procedure two_d6() -> int { return roll 2d6 }\n"
  "procedure two_black() -> bool {\n"
  "  let a = draw bag\n"
  "  let b = draw bag\n"
  "  return a == BLACK and b == BLACK\n"
  "}\n"
  RULES_ROLL_OFF("roll_off")
  "procedure pick() -> int { return choose(1, \"which?\", 1, 3) }\n"
  "procedure endless() -> int {\n"
  "  let x = 0\n"
  "  while x < 3 { x = roll d2 }\n"
  "  return x\n"
  "}\n"
  "procedure boom() -> int {\n"
  "  let r = roll d6\n"
  "  let z = r - 6\n"
  "  return r / z\n"
  "}\n";

/* Enumerates procedure name of m into *r; returns the status. */
static rgi_odds_status odds(const rgi_module *m, const char *name, uint64_t limit, uint32_t depth,
                           int all, rgi_odds_result *r) {
  rgi_value none = 0;
  int p = rgi_module_find_proc(m, name);
  rgi_odds_opts o = { .m = m, .proc = (uint32_t)p, .args = &none, .limit = limit,
                     .depth = depth, .all_choices = all };
  if (p < 0) {
    memset(r, 0, sizeof *r);
    return RG_ODDS_NOMEM;
  }
  return rgi_odds_run(&o, r);
}

/* Returns 1 when the result written text has probability num/den in r. */
static int prob_is(const rgi_odds_result *r, const char *text, unsigned num, unsigned den) {
  for (uint32_t s = 0; s < r->tally.n; s++)
    if (strcmp(r->tally.keys[s].text, text) == 0)
      return r->probs[s].num == num && r->probs[s].den == den;
  return 0;
}

int main(void) {
  rgi_module m;
  rgi_arena arena;
  rgi_odds_result r;
  char buf[100];

  if (rules_text(source, &m, &arena) != 0) return 1;

  CHECK(odds(&m, "two_d6", 1000, 200, 0, &r) == RG_ODDS_OK, "2d6");
  CHECK(r.paths == 37 && r.states == 1 && r.cut_paths == 0, "2d6: 37 runs, 1 state, none cut");
  CHECK(r.tally.n == 11, "2d6: 11 sums");
  CHECK(prob_is(&r, "7", 1, 6), "P(7) = 1/6");
  CHECK(prob_is(&r, "2", 1, 36) && prob_is(&r, "12", 1, 36), "P(2) = P(12) = 1/36");
  CHECK(prob_is(&r, "4", 1, 12) && prob_is(&r, "10", 1, 12), "P(4) = P(10) = 1/12");
  CHECK(prob_is(&r, "6", 5, 36) && prob_is(&r, "8", 5, 36), "P(6) = P(8) = 5/36");
  for (uint32_t s = 0; s < r.tally.n; s++)
    if (strcmp(r.tally.keys[s].text, "7") == 0)
      CHECK(strcmp(rgi_frac_str(buf, &r.probs[s]), "1/6") == 0, "1/6 written: %s", buf);
  rgi_odds_free(&r);

  CHECK(odds(&m, "two_black", 1000, 200, 0, &r) == RG_ODDS_OK, "two cards");
  CHECK(r.paths == 8 && r.states == 3, "two cards: 8 runs, 3 states, not %llu, %u",
        (unsigned long long)r.paths, r.states);
  CHECK(prob_is(&r, "true", 1, 3) && prob_is(&r, "false", 2, 3), "both black 1/3, else 2/3");
  rgi_odds_free(&r);

  CHECK(odds(&m, "roll_off", 1000, 200, 0, &r) == RG_ODDS_OK, "roll-off");
  CHECK(prob_is(&r, "1", 1, 2) && prob_is(&r, "2", 1, 2), "each side 1/2, exactly");
  CHECK(r.cut.num == 0 && r.cut_paths == 0 && r.paths == 85 && r.states == 14 && r.loops == 1,
        "85 runs, 14 states, 1 loop, none cut (%llu, %u, %u)", (unsigned long long)r.paths,
        r.states, r.loops);
  rgi_odds_free(&r);
  CHECK(odds(&m, "roll_off", 1000, 2, 0, &r) == RG_ODDS_OK, "roll-off, depth 2");
  CHECK(prob_is(&r, "1", 5, 12) && prob_is(&r, "2", 5, 12), "each side 5/12 at depth 2");
  CHECK(r.cut.num == 1 && r.cut.den == 6 && r.cut_paths == 1 && r.paths == 44,
        "1/6 unresolved in 1 of 44 runs (%llu, %llu)", (unsigned long long)r.cut_paths,
        (unsigned long long)r.paths);
  rgi_odds_free(&r);

  CHECK(odds(&m, "pick", 1000, 200, 1, &r) == RG_ODDS_OK, "every choice");
  CHECK(r.paths == 4 && prob_is(&r, "1", 1, 3) && prob_is(&r, "3", 1, 3), "each option 1/3");
  rgi_odds_free(&r);
  CHECK(odds(&m, "pick", 1000, 200, 0, &r) == RG_ODDS_OK, "the first choice");
  CHECK(r.paths == 1 && r.tally.n == 1 && prob_is(&r, "1", 1, 1), "option 1 surely");
  rgi_odds_free(&r);

  CHECK(odds(&m, "two_d6", 10, 200, 0, &r) == RG_ODDS_LIMIT, "a limit of 10 runs");
  CHECK(r.paths == 10, "stopped after 10 runs");
  rgi_odds_free(&r);

  CHECK(odds(&m, "endless", 1000, 200, 0, &r) == RG_ODDS_ENDLESS && r.loops == 1,
        "a loop no outcome leaves (x is 1 or 2, never 3) never ends");
  rgi_odds_free(&r);

  CHECK(odds(&m, "boom", 1000, 200, 0, &r) == RG_ODDS_RUN_FAILED, "division by zero");
  CHECK(r.draws == 1 && r.idx && r.idx[0] == 5 && r.n[0] == 6, "on outcome 6 of 6");
  CHECK(strcmp(r.msg, "division by zero") == 0, "the error: %s", r.msg);
  rgi_odds_free(&r);

  rgi_module_free(&m);
  rgi_arena_free(&arena);
  return check_done("test_odds");
}
