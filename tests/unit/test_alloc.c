/*
** test_alloc.c: the allocator hook (rg_set_allocator in regula.h).
**
** A counting allocator is set before anything else; compiling and running
** rules from regula.h must allocate through it, and free all of it.
*/
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

int main(void) {
  static check_counts c;
  static const char text[] =
    "ruleset \"alloc\"\n"
    "table t(n: 1..3) -> int { 1: 10, 2: 20, 3: 30 }\n"
    "procedure main() -> int { let s = 0\n for i in 1..3 { s = s + t[i] }\n return s }\n";
  rg_rules *r = NULL;
  rg_run *run = NULL;
  char result[32] = "";
  CHECK(rg_set_allocator(check_counting, &c) == RG_OK, "alloc-1 set");
  CHECK(rg_rules_compile("a.rules", text, strlen(text), NULL, &r) == RG_OK, "alloc-1 compile");
  CHECK(c.allocs > 0, "alloc-1 the compile allocated through the hook (%ld)", c.allocs);
  if (r && rg_run_new(r, NULL, &run) == RG_OK && rg_run_call(run, "main", NULL, 0) == RG_OK)
    rg_run_result(run, result, sizeof result);
  CHECK(strcmp(result, "60") == 0, "alloc-2 result '%s'", result);
  rg_run_free(run);
  rg_rules_free(r);
  CHECK(c.live == 0 && c.frees == c.allocs, "alloc-3 all freed: %ld allocs, %ld frees", c.allocs,
        c.frees);
  /* Injected failures end in RG_NOMEM, never a crash or a leak. */
  for (unsigned long k = 1; k < 400; k++) {
    rg_status st;
    r = NULL;
    rg_alloc_fail_at(k);
    st = rg_rules_compile("a.rules", text, strlen(text), NULL, &r);
    rg_alloc_fail_at(0);
    if (st == RG_OK) { rg_rules_free(r); break; }
    CHECK(st == RG_NOMEM && r == NULL, "alloc-4 failure %lu gives %s", k, rg_status_name(st));
  }
  CHECK(c.live == 0, "alloc-4 nothing left after failures: %ld", c.live);
  /* The same for a rule file with one of most kinds of declaration (a
  ** scale, units, enums with display names, records, constants, dice, a
  ** deck, inputs, tables, procedures with steps, choices and notes, a
  ** display, a strategy, a test): every array the compiler grows can fail. */
  {
    static const char rich[] =
    "ruleset \"rich\" revision \"1\"\n"
    "unit BW \"base width\"\n"
    "scale * = 2/3 round up\n"
    "enum side { A, B }\n"
    "enum colour { BLACK < WHITE < RED }\n"
    "enum ground { S \"Standard\", C \"Coastal\" }\n"
    "record pick { who: side, n: int }\n"
    "record card { title: text, picks: list pick, far: distance }\n"
    "const reach = 6BW*\n"
    "const both = {S, C}\n"
    "dice red: colour = { BLACK: 2, RED: 1 }\n"
    "deck bag: colour = { BLACK: 3, WHITE: 2, RED: 1 } assumed \"counts guessed\"\n"
    "input skill[side]: int = { A: 2, B: 1 }\n"
    "input bonus: int = 0\n"
    "table t(n: 1..3, g: ground) -> int { 1..2, S: 1, 3, S: 2, _, C: 3 }\n"
    "table far(colour) -> distance { BLACK: 1BW, WHITE: 2BW*, RED: 3BW }\n"
    "procedure roll_off(s: side) -> pick {\n"
    "  step \"Roll\" assumed \"who rolls first\" {\n"
    "    let r = roll 2d6 + skill[s] + bonus\n"
    "    let c = draw bag\n"
    "    if c == RED { note \"red drawn {}\", c }\n"
    "    let w = choose(s, \"which side?\", {A, B})\n"
    "    return { who: w, n: r }\n"
    "  }\n"
    "}\n"
    "procedure summary() -> card {\n"
    "  let ps: list pick = []\n"
    "  for s in members(side) { ps = ps + [roll_off(s)] }\n"
    "  for i in 1..2 { ps[0] = { ps[0] with n: i } }\n"
    "  return { title: \"Result\", picks: ps, far: far[RED] + reach }\n"
    "}\n"
    "display card \"Card\" {\n"
    "  \"Title: {title}\"\n"
    "  list picks shown \"{who}: {n}\"\n"
    "}\n"
    "strategy bold \"the first side\" {\n"
    "  \"which side?\": A\n"
    "}\n"
    "test \"tables\" {\n"
    "  expect t[1, S] + t[3, S] + t[2, C] == 6\n"
    "  expect far[WHITE] == 2BW\n"
    "  expect reach == 4BW\n"
    "}\n"
;
    unsigned long k;
    for (k = 1; k < 5000; k++) {
      rg_status st;
      r = NULL;
      rg_alloc_fail_at(k);
      st = rg_rules_compile("rich.rules", rich, strlen(rich), NULL, &r);
      rg_alloc_fail_at(0);
      if (st == RG_OK) { rg_rules_free(r); break; }
      CHECK(st == RG_NOMEM && r == NULL, "alloc-5 failure %lu gives %s", k, rg_status_name(st));
    }
    CHECK(k > 20 && k < 5000, "alloc-5 compiled after %lu failures", k);
    CHECK(c.live == 0, "alloc-5 nothing left after failures: %ld", c.live);
  }
  return check_done("test_alloc");
}
