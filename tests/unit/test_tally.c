/*
** test_tally.c: tallies of distinct values (interp/play/tally.h), linked against
** the library only.  Expectations worked out by hand:
**
**   - ints 5, 3, 5, 7, -2 take slots 0, 1, 0, 2, 3 (first come, first
**     slot) and sort as -2, 3, 5, 7;
**   - sets of enum colour {BLACK < WHITE < RED} sort by size, then by
**     their lowest member: {} "none", {WHITE}, {RED}, {BLACK, WHITE};
**   - sets of the same size sort by their lowest members in turn;
**   - lists of ints sort element by element, a prefix first: [1], [1, 5],
**     [3];
**   - a limit of 2 distinct values refuses a third (-3) but still counts
**     the known ones;
**   - merging by key gives the same slot for the same text.
*/
#include <stdio.h>
#include <string.h>

#include "rules_text.h"
#include "tally.h"

static const char *source =
  "enum colour { BLACK < WHITE < RED }\n"
  "procedure hand() -> list int { return [1, 5] }\n";

int main(void) {
  rgi_module m;
  rgi_arena arena;
  rgi_tally t, u;
  uint32_t order[8];
  const rgi_type tint = { RG_K_INT, 0 }, tset = { RG_K_SET, 0 };

  if (rules_text(source, &m, &arena) != 0) return 1;

  /* ints */
  rgi_tally_init(&t, &m, tint);
  CHECK(rgi_tally_slot(&t, NULL, 0, 5) == 0, "5 takes slot 0");
  CHECK(rgi_tally_slot(&t, NULL, 0, 3) == 1, "3 takes slot 1");
  CHECK(rgi_tally_slot(&t, NULL, 0, 5) == 0, "5 again is slot 0");
  CHECK(rgi_tally_slot(&t, NULL, 0, 7) == 2, "7 takes slot 2");
  CHECK(rgi_tally_slot(&t, NULL, 0, -2) == 3, "-2 takes slot 3");
  CHECK(t.n == 4, "4 distinct ints, not %u", t.n);
  CHECK(strcmp(t.keys[3].text, "-2") == 0, "slot 3's text: %s", t.keys[3].text);
  CHECK(rgi_tally_order(&t, order) == 0, "order");
  CHECK(order[0] == 3 && order[1] == 1 && order[2] == 0 && order[3] == 2,
        "ints sorted -2, 3, 5, 7: slots %u %u %u %u", order[0], order[1], order[2], order[3]);

  /* merging by key: the same texts land on the same slots */
  rgi_tally_init(&u, &m, tint);
  CHECK(rgi_tally_slot_key(&u, &t.keys[2]) == 0, "7 merged first takes slot 0");
  CHECK(rgi_tally_slot_key(&u, &t.keys[0]) == 1, "5 merged takes slot 1");
  CHECK(rgi_tally_slot_key(&u, &t.keys[2]) == 0, "7 merged again is slot 0");
  CHECK(rgi_tally_slot(&u, NULL, 0, 5) == 1, "5 by value finds the merged key");
  rgi_tally_free(&u);

  /* the limit */
  t.limit = 4;
  CHECK(rgi_tally_slot(&t, NULL, 0, 9) == -3, "a fifth value past a limit of 4");
  CHECK(rgi_tally_slot(&t, NULL, 0, 3) == 1, "3 still counts at the limit");
  rgi_tally_free(&t);

  /* sets */
  rgi_tally_init(&t, &m, tset);
  CHECK(rgi_tally_slot(&t, NULL, 0, 4) == 0, "{RED}");
  CHECK(rgi_tally_slot(&t, NULL, 0, 3) == 1, "{BLACK, WHITE}");
  CHECK(rgi_tally_slot(&t, NULL, 0, 2) == 2, "{WHITE}");
  CHECK(rgi_tally_slot(&t, NULL, 0, 0) == 3, "{}");
  CHECK(strcmp(t.keys[1].text, "BLACK, WHITE") == 0, "set text: %s", t.keys[1].text);
  CHECK(strcmp(t.keys[3].text, "none") == 0, "empty set text: %s", t.keys[3].text);
  rgi_tally_order(&t, order);
  CHECK(order[0] == 3 && order[1] == 2 && order[2] == 0 && order[3] == 1,
        "sets sorted none, WHITE, RED, BLACK+WHITE: slots %u %u %u %u", order[0], order[1],
        order[2], order[3]);
  rgi_tally_free(&t);

  /* sets of two: by their lowest member, then the next (BLACK 1, WHITE 2,
  ** RED 4): {BLACK, WHITE} = 3, {BLACK, RED} = 5, {WHITE, RED} = 6 */
  rgi_tally_init(&t, &m, tset);
  CHECK(rgi_tally_slot(&t, NULL, 0, 6) == 0 && rgi_tally_slot(&t, NULL, 0, 5) == 1 &&
        rgi_tally_slot(&t, NULL, 0, 3) == 2, "three sets of two");
  rgi_tally_order(&t, order);
  CHECK(order[0] == 2 && order[1] == 1 && order[2] == 0,
        "sets of two sorted BLACK+WHITE, BLACK+RED, WHITE+RED: slots %u %u %u", order[0],
        order[1], order[2]);
  rgi_tally_free(&t);

  /* lists: [1, 5] at heap 0, [3] at heap 3, [1] at heap 5 */
  {
    int p = rgi_module_find_proc(&m, "hand");
    rgi_value heap[] = { 2, 1, 5, 1, 3, 1, 1 };
    CHECK(p >= 0 && m.procs[p].result.kind == RG_K_LIST, "a list type");
    if (p >= 0) {
      rgi_tally_init(&t, &m, m.procs[p].result);
      CHECK(rgi_tally_slot(&t, heap, 7, 3) == 0, "[3] first");
      CHECK(rgi_tally_slot(&t, heap, 7, 0) == 1, "[1, 5] second");
      CHECK(rgi_tally_slot(&t, heap, 7, 3) == 0, "[3] again");
      CHECK(rgi_tally_slot(&t, heap, 7, 5) == 2, "[1] third");
      CHECK(strcmp(t.keys[1].text, "[1, 5]") == 0, "list text: %s", t.keys[1].text);
      rgi_tally_order(&t, order);
      CHECK(order[0] == 2 && order[1] == 1 && order[2] == 0,
            "[1] (a prefix: shorter first) before [1, 5] before [3]");
      rgi_tally_free(&t);
    }
  }

  rgi_module_free(&m);
  rgi_arena_free(&arena);
  return check_done("test_tally");
}
