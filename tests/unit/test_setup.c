/*
** test_setup.c: a run's inputs and placeholder data (interp/play/setup.h),
** linked against the library only.  Expectations by hand:
**
**   - `n=3` sets input n; `n=x` is refused naming the input and its type;
**     `nope=1` is refused (-3) listing the inputs, dice and decks;
**   - `COIN=heads:3,tails` gives COIN four faces, three heads, in the
**     setup's module only (the rules' module keeps heads, tails);
**   - `bag=RED:9` gives the bag nine cards; a count of 0 in all is refused;
**   - exact odds of one COIN toss with the die set: heads 3/4;
**   - the placeholders of `toss` are the COIN die (used there) and not the
**     bag (never drawn by it): "dice COIN (set)".
*/
#include <stdio.h>
#include <string.h>

#include "odds.h"
#include "rules_text.h"
#include "setup.h"

static const char *source =
  "enum side { heads, tails }\n"
  "enum colour { BLACK, RED }\n"
  "dice COIN: side = { heads: 1, tails: 1 }\n"
  "deck bag: colour = { BLACK: 1, RED: 1 }\n"
  "input n: int = 1\n"
  "procedure toss() -> side { return roll COIN }\n"
  "procedure pull() -> colour { return draw bag }\n";

int main(void) {
  rgi_module m;
  rgi_arena arena;
  rgi_setup s;
  rg_buf err, ph;

  if (rules_text(source, &m, &arena) != 0) return 1;
  CHECK(rgi_setup_init(&s, &m) == 0, "init");
  rg_buf_init(&err);
  CHECK(rgi_setup_set(&s, "n = 3", "--set n=3", &err.out) == 0 && s.inputs[0] == 3, "n = 3");
  CHECK(rgi_setup_set(&s, "n=x", "--set n=x", &err.out) == -1 && err.data &&
        strncmp(err.data, "--set n=x: input 'n' (int): ", 28) == 0, "n=x refused: %s",
        err.data ? err.data : "");
  rg_buf_free(&err);
  CHECK(rgi_setup_set(&s, "nope=1", "X:2", &err.out) == -3 && err.data &&
        strcmp(err.data, "X:2: no input 'nope'; inputs: n: int; dice and decks: COIN, bag") == 0,
        "unknown name: %s", err.data ? err.data : "");
  rg_buf_free(&err);
  CHECK(rgi_setup_set(&s, "COIN=heads:3,tails", "--set", &err.out) == 0, "COIN set");
  const rgi_module *sm = rgi_setup_module(&s);
  CHECK(sm->dice[0].count == 4 && m.dice[0].count == 2, "4 faces in the setup, 2 in the rules");
  CHECK(sm->faces[sm->dice[0].first] == 0 && sm->faces[sm->dice[0].first + 3] == 1,
        "heads first, tails last");
  CHECK(rgi_setup_set(&s, "bag=RED:9", "--set", &err.out) == 0 && sm->decks[0].count == 9,
        "nine cards");
  CHECK(rgi_setup_set(&s, "bag=RED:0", "--set", &err.out) == -1, "no cards refused");
  rg_buf_free(&err);

  rgi_value none = 0;
  rgi_odds_opts o = { .m = sm, .proc = (uint32_t)rgi_module_find_proc(sm, "toss"), .args = &none,
                     .limit = 100, .depth = 10 };
  rgi_odds_result r;
  CHECK(rgi_odds_run(&o, &r) == RG_ODDS_OK && r.tally.n == 2, "odds of a toss");
  for (uint32_t k = 0; k < r.tally.n; k++)
    if (strcmp(r.tally.keys[k].text, "heads") == 0)
      CHECK(r.probs[k].num == 3 && r.probs[k].den == 4, "heads 3/4");
  rgi_odds_free(&r);

  rg_buf_init(&ph);
  CHECK(rgi_setup_placeholders(&s, o.proc, NULL, &ph.out) == 1 && ph.data &&
        strcmp(ph.data, "dice COIN (set)") == 0, "placeholders: %s", ph.data ? ph.data : "");
  rg_buf_free(&ph);

  rgi_setup_free(&s);
  rgi_module_free(&m);
  rgi_arena_free(&arena);
  printf("test_setup: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
