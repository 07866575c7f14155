/*
** test_sim.c: the Monte Carlo engine (interp/play/sim.h), linked against the
** library only.  Expectations worked out by hand:
**
**   - the same seed gives the same tallies (slots, texts, counts) on 1, 2
**     and 4 threads, for an int result, a record result and random
**     choices; another seed gives other counts;
**   - 3600 runs of 2d6 give only 2..12, counting 3600 in all, and 7 within
**     5 standard errors of 3600 * 6/36 = 600 (sqrt(3600 * 1/6 * 5/6) = 22.4);
**   - a duel of d6 against d6 tallied field by field: `winner` is 0
**     exactly when `tie` is true, so the two counts are equal;
**   - a run that divides by zero on a 6 stops the simulation at the same
**     first failing run whatever the threads;
**   - the Wilson interval of 50 in 100 is 0.5 -+ 0.0962 (z = 1.96:
**     half = z / (1 + z^2/100) * sqrt(0.25/100 + z^2/40000)).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "heading.h"
#include "rules_text.h"
#include "sim.h"

static const char *source =
  "record duel { winner: int, tie: bool }\n"
  "procedure two_d6() -> int { return roll 2d6 }\n"
  "procedure duel_once() -> duel {\n"
  "  let a = roll d6\n"
  "  let b = roll d6\n"
  "  let w = 0\n"
  "  if a > b { w = 1 } else if b > a { w = 2 }\n"
  "  return { winner: w, tie: a == b }\n"
  "}\n"
  "procedure pick() -> int { return choose(1, \"which?\", 1, 6) }\n"
  "procedure boom() -> int {\n"
  "  let r = roll d6\n"
  "  let z = r - 6\n"
  "  return r / z\n"
  "}\n";

/* Simulates procedure name of m: runs, seed, threads; returns the status. */
static rgi_sim_status sim(const rgi_module *m, const char *name, uint64_t runs, uint64_t seed,
                         uint32_t threads, rgi_sim_result *r) {
  rgi_sim_opts o = { .m = m, .runs = runs, .seed = seed, .threads = threads };
  rgi_value none = 0;
  int p = rgi_module_find_proc(m, name);
  o.proc = (uint32_t)p;
  o.args = &none;
  if (p < 0) {
    memset(r, 0, sizeof *r);
    return RG_SIM_NOMEM;
  }
  return rgi_sim_run(&o, r);
}

/* Returns 1 when a and b hold the same fields, slots, texts and counts. */
static int same(const rgi_sim_result *a, const rgi_sim_result *b) {
  if (a->nfields != b->nfields) return 0;
  for (uint32_t f = 0; f < a->nfields; f++) {
    const rgi_sim_field *x = &a->fields[f], *y = &b->fields[f];
    if (x->tally.n != y->tally.n || x->overflow != y->overflow) return 0;
    for (uint32_t s = 0; s < x->tally.n; s++)
      if (strcmp(x->tally.keys[s].text, y->tally.keys[s].text) != 0 || x->counts[s] != y->counts[s])
        return 0;
  }
  return 1;
}

/* Returns the count of the value written text in field f of r (0 if none). */
static uint64_t count_of(const rgi_sim_result *r, uint32_t f, const char *text) {
  for (uint32_t s = 0; s < r->fields[f].tally.n; s++)
    if (strcmp(r->fields[f].tally.keys[s].text, text) == 0) return r->fields[f].counts[s];
  return 0;
}

int main(void) {
  rgi_module m;
  rgi_arena arena;
  rgi_sim_result r1, r2, r4, other;
  double lo, hi;

  if (rules_text(source, &m, &arena) != 0) return 1;

  /* 2d6 on 1, 2 and 4 threads */
  CHECK(sim(&m, "two_d6", 3600, 5, 1, &r1) == RG_SIM_OK, "two_d6, 1 thread");
  CHECK(sim(&m, "two_d6", 3600, 5, 2, &r2) == RG_SIM_OK, "two_d6, 2 threads");
  CHECK(sim(&m, "two_d6", 3600, 5, 4, &r4) == RG_SIM_OK, "two_d6, 4 threads");
  CHECK(same(&r1, &r2), "2d6: 2 threads tally as 1");
  CHECK(same(&r1, &r4), "2d6: 4 threads tally as 1");
  CHECK(r1.nfields == 1 && strcmp(r1.fields[0].name, "result") == 0, "one field, result");
  {
    uint64_t all = 0, seven = count_of(&r1, 0, "7");
    for (int s = 2; s <= 12; s++) {
      char t[16];
      snprintf(t, sizeof t, "%d", s);
      all += count_of(&r1, 0, t);
    }
    CHECK(r1.fields[0].tally.n == 11, "11 sums, not %u", r1.fields[0].tally.n);
    CHECK(all == 3600, "the sums 2..12 count every run: %llu", (unsigned long long)all);
    CHECK(fabs((double)seven - 600.0) <= 5 * 22.4, "7 came %llu times of 3600",
          (unsigned long long)seven);
  }
  CHECK(sim(&m, "two_d6", 3600, 6, 1, &other) == RG_SIM_OK, "two_d6, seed 6");
  CHECK(!same(&r1, &other), "seeds 5 and 6 tally differently");
  rgi_sim_free(&r1);
  rgi_sim_free(&r2);
  rgi_sim_free(&r4);
  rgi_sim_free(&other);

  /* a record, field by field */
  CHECK(sim(&m, "duel_once", 2000, 3, 1, &r1) == RG_SIM_OK, "duel, 1 thread");
  CHECK(sim(&m, "duel_once", 2000, 3, 4, &r4) == RG_SIM_OK, "duel, 4 threads");
  CHECK(same(&r1, &r4), "duel: 4 threads tally as 1");
  CHECK(r1.nfields == 2 && strcmp(r1.fields[0].name, "winner") == 0 &&
        strcmp(r1.fields[1].name, "tie") == 0, "fields winner and tie");
  if (r1.nfields == 2) {
    CHECK(count_of(&r1, 0, "0") == count_of(&r1, 1, "true"), "winner 0 (%llu) iff a tie (%llu)",
          (unsigned long long)count_of(&r1, 0, "0"), (unsigned long long)count_of(&r1, 1, "true"));
    CHECK(count_of(&r1, 1, "true") + count_of(&r1, 1, "false") == 2000, "ties and not: 2000");
  }
  rgi_sim_free(&r1);
  rgi_sim_free(&r4);

  /* random choices, on a stream of their own per run */
  CHECK(sim(&m, "pick", 1200, 8, 1, &r1) == RG_SIM_OK, "pick, 1 thread");
  CHECK(sim(&m, "pick", 1200, 8, 2, &r2) == RG_SIM_OK, "pick, 2 threads");
  CHECK(same(&r1, &r2), "choices: 2 threads tally as 1");
  CHECK(r1.fields[0].tally.n == 6, "the six options were all picked");
  rgi_sim_free(&r1);
  rgi_sim_free(&r2);

  /* a failing run */
  CHECK(sim(&m, "boom", 500, 2, 1, &r1) == RG_SIM_RUN_FAILED, "boom fails on 1 thread");
  CHECK(sim(&m, "boom", 500, 2, 4, &r4) == RG_SIM_RUN_FAILED, "boom fails on 4 threads");
  CHECK(r1.fail_run == r4.fail_run, "the first failed run: %llu and %llu",
        (unsigned long long)r1.fail_run, (unsigned long long)r4.fail_run);
  CHECK(strcmp(r1.msg, "division by zero") == 0, "the error: %s", r1.msg);
  rgi_sim_free(&r1);
  rgi_sim_free(&r4);

  /* Wilson */
  rgi_sim_wilson(50, 100, &lo, &hi);
  CHECK(fabs(lo - 0.4038) < 0.0005 && fabs(hi - 0.5962) < 0.0005, "wilson(50, 100): %f .. %f",
        lo, hi);
  rgi_sim_wilson(0, 10, &lo, &hi);
  CHECK(lo == 0 && hi > 0.27 && hi < 0.28, "wilson(0, 10): %f .. %f", lo, hi);

  /* threads 0 is one thread; more threads than runs (8 for 3) make one
  ** run each: the same tallies as one thread, 3 runs counted */
  {
    rgi_sim_result one, zero, many;
    CHECK(sim(&m, "two_d6", 3, 11, 1, &one) == RG_SIM_OK && sim(&m, "two_d6", 3, 11, 0, &zero) ==
          RG_SIM_OK && sim(&m, "two_d6", 3, 11, 8, &many) == RG_SIM_OK, "threads 1, 0 and 8");
    uint64_t total = 0;
    for (uint32_t s = 0; s < one.fields[0].tally.n; s++) total += one.fields[0].counts[s];
    CHECK(total == 3 && same(&one, &zero) && same(&one, &many),
          "threads 0 and 8 tally 3 runs as 1 thread does (%llu)", (unsigned long long)total);
    rgi_sim_free(&one);
    rgi_sim_free(&zero);
    rgi_sim_free(&many);
  }
  rgi_module_free(&m);
  rgi_arena_free(&arena);
  /* Headings (heading.h), by hand: the settings, one a line, are joined by
  ** ", " (a blank line and a missing last newline aside); one over 160
  ** bytes is cut at a character's start and marked "...": "dd=" and 100
  ** two-byte "é" put a continuation byte at 160, so 159 bytes show ("dd="
  ** and 78 "é"); the JSON list holds each setting whole; the title of
  ** variants names the settings once when all sides share them, each
  ** side's when they differ, none when no side has any. */
  {
    static const char two[] = "a=1\n\nb=2";
    char big[256], want[256], title[256];
    const char *names[] = { "base.rules", "rev.rules" };
    const char *same[] = { "x=1\n", "x=1\n" }, *differ[] = { "x=1\n", NULL }, *none[] = { NULL, "" };
    json_t *o = json_object(), *a;
    rg_buf b;
    size_t at = 0;
    at += (size_t)snprintf(big, sizeof big, "dd=");
    for (int i = 0; i < 100; i++) at += (size_t)snprintf(big + at, sizeof big - at, "\xc3\xa9");
    at = (size_t)snprintf(want, sizeof want, "dd=");
    for (int i = 0; i < 78; i++) at += (size_t)snprintf(want + at, sizeof want - at, "\xc3\xa9");
    snprintf(want + at, sizeof want - at, "...");
    rg_buf_init(&b);
    CHECK(rgi_heading_sets(&b.out, two) == 2 && b.data && strcmp(b.data, "a=1, b=2") == 0,
          "heading: two settings: %s", b.data ? b.data : "");
    rg_buf_free(&b);
    rg_buf_init(&b);
    CHECK(rgi_heading_sets(&b.out, big) == 1 && b.data && strcmp(b.data, want) == 0 &&
          strlen(b.data) == 159 + 3, "heading: a long setting cut at 159 bytes: %s",
          b.data ? b.data : "");
    rg_buf_free(&b);
    CHECK(o && rgi_heading_sets_json(o, two) == 0 && (a = json_object_get(o, "sets")) &&
          json_array_size(a) == 2 && strcmp(json_string_value(json_array_get(a, 0)), "a=1") == 0 &&
          strcmp(json_string_value(json_array_get(a, 1)), "b=2") == 0, "heading: sets in JSON");
    json_decref(o);
    CHECK(strcmp(rgi_heading_variants_title(title, sizeof title, "main()", names, same, 2, "odds"),
                 "main() of A = base.rules, B = rev.rules: odds; set x=1") == 0,
          "heading: shared settings once: %s", title);
    CHECK(strcmp(rgi_heading_variants_title(title, sizeof title, "main()", names, differ, 2, "odds"),
                 "main() of A = base.rules, B = rev.rules: odds; set A: x=1") == 0,
          "heading: A's settings: %s", title);
    CHECK(strcmp(rgi_heading_variants_title(title, sizeof title, "main()", names, none, 2, "odds"),
                 "main() of A = base.rules, B = rev.rules: odds") == 0,
          "heading: no settings: %s", title);
  }
  return check_done("test_sim");
}
