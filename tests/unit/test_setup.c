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

  /* Each refusal of a text, said without a place (an embedder's
  ** rg_rules_set) and the count checked against MAX_SIDES (1000000) and
  ** MAX_SET (4000000), worked out by hand: a count that is empty,
  ** negative, not a number or 1000001; 600000 + 500000 faces in all; a
  ** fourth million after three (the die's own two faces are kept: 2 +
  ** 4000000 > 4000000); nothing after '='; no '=' at all; an empty name.  Then the
  ** lines of an inputs file (CR, # and blank lines skipped) stop at the
  ** first refused one, named by its line; and a rule set with no inputs and
  ** a deck but no die lists just that. */
  {
    static const char *const refused[][2] = {
      { "COIN=heads:", "COIN: '' is not a count (0..1000000)" },
      { "COIN=heads:-1", "COIN: '-1' is not a count (0..1000000)" },
      { "COIN=heads:x", "COIN: 'x' is not a count (0..1000000)" },
      { "COIN=heads:1000001", "COIN: '1000001' is not a count (0..1000000)" },
      { "COIN=heads:600000,tails:500000", "COIN: more than 1000000 in all" },
      { "bag= ", "bag: give at least one (FACE:COUNT, ...)" },
      { "n", "expected NAME=VALUE, not 'n'" },
      { " =1", "no input ''; inputs: n: int; dice and decks: COIN, bag" },
    };
    rgi_setup t;
    int ok = 1;
    CHECK(rgi_setup_init(&t, &m) == 0, "init again");
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
      int rc;
      rg_buf_init(&err);
      rc = rgi_setup_set(&t, refused[i][0], "", &err.out);
      CHECK(rc < 0 && rc != -2 && err.data && strcmp(err.data, refused[i][1]) == 0,
            "'%s' refused: %s", refused[i][0], err.data ? err.data : "");
      rg_buf_free(&err);
    }
    rg_buf_init(&err);
    CHECK(rgi_setup_set(&t, "COIN=edge", "", &err.out) == -1 && err.data &&
          strncmp(err.data, "COIN: ", 6) == 0 && strstr(err.data, "edge"),
          "no face edge: %s", err.data ? err.data : "");
    rg_buf_free(&err);
    rgi_setup_free(&t);
    CHECK(rgi_setup_init(&t, &m) == 0, "init anew (a refused text keeps what it appended)");
    rg_buf_init(&err);
    for (int i = 0; i < 3; i++) ok &= rgi_setup_set(&t, "COIN=heads:1000000", "", &err.out) == 0;
    CHECK(ok && !err.data && rgi_setup_module(&t)->dice[0].count == 1000000,
          "three millions set, one after another");
    CHECK(rgi_setup_set(&t, "COIN=heads:1000000", "", &err.out) == -1 && err.data &&
          strcmp(err.data, "COIN: more than 4000000 faces and cards set in all") == 0,
          "a fourth million (2 + 4000000 faces): %s", err.data ? err.data : "");
    rg_buf_free(&err);
    rgi_setup_free(&t);

    static const char lines[] = "# army\r\n\r\n  n = 5\r\nbag=RED:2,BLACK\nCOIN=heads:0\nn=6\n";
    CHECK(rgi_setup_init(&t, &m) == 0, "init a third time");
    rg_buf_init(&err);
    CHECK(rgi_setup_lines(&t, lines, sizeof lines - 1, "army.txt", &err.out) == -1 && err.data &&
          strcmp(err.data, "army.txt:5: COIN: give at least one (FACE:COUNT, ...)") == 0 &&
          t.inputs[0] == 5 && rgi_setup_module(&t)->decks[0].count == 3,
          "lines: n=5 and bag set, line 5 refused, line 6 not read: %s", err.data ? err.data : "");
    rg_buf_free(&err);
    rgi_setup_free(&t);
  }
  {
    rgi_module m2;
    rgi_arena a2;
    rgi_setup t;
    CHECK(rules_text("enum colour { BLACK, RED }\ndeck bag: colour = { BLACK: 1 }\n"
                     "procedure p() -> colour { return draw bag }\n", &m2, &a2) == 0 &&
          rgi_setup_init(&t, &m2) == 0, "a rule set without inputs or dice");
    rg_buf_init(&err);
    CHECK(rgi_setup_set(&t, "x=1", "", &err.out) == -3 && err.data &&
          strcmp(err.data, "no input 'x'; the rule set has no inputs; dice and decks: bag") == 0,
          "names only the deck: %s", err.data ? err.data : "");
    rg_buf_free(&err);
    rgi_setup_free(&t);
    rgi_module_free(&m2);
    rgi_arena_free(&a2);
  }
  rgi_setup_free(&s);
  rgi_module_free(&m);
  rgi_arena_free(&arena);
  return check_done("test_setup");
}
