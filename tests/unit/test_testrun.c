/*
** test_testrun.c: the test runner (interp/play/testrun.h), linked against the
** library only.  The rule text below has its line numbers in comments;
** expectations worked out by hand from it:
**
**   - "sums" passes;
**   - "fails twice" fails with two failures, in order: line 6 "expected
**     5, got 4" (add(2, 2) == 5) and line 7 "expected true: add(1, 0) > 2";
**   - "stops" fails once, "error: division by zero" at line 11;
**   - "dice a" and "dice b" each roll a d6 after the runner reseeds, so
**     both fail with the same "expected 7, got N";
**   - counts: 1 passed, 4 failed; results come in declaration order.
*/
#include <stdio.h>
#include <string.h>

#include "rules_text.h"
#include "testrun.h"

static const char *source =
  "procedure add(a: int, b: int) -> int { return a + b }\n"   /* 1 */
  "test \"sums\" {\n"                                          /* 2 */
  "  expect add(1, 1) == 2\n"                                  /* 3 */
  "}\n"                                                        /* 4 */
  "test \"fails twice\" {\n"                                   /* 5 */
  "  expect add(2, 2) == 5\n"                                  /* 6 */
  "  expect add(1, 0) > 2\n"                                   /* 7 */
  "}\n"                                                        /* 8 */
  "test \"stops\" {\n"                                         /* 9 */
  "  let z = add(0, 0)\n"                                      /* 10 */
  "  expect 1 / z == 1\n"                                      /* 11 */
  "}\n"                                                        /* 12 */
  "test \"dice a\" { expect roll d6 == 7 }\n"                  /* 13 */
  "test \"dice b\" { expect roll d6 == 7 }\n";                 /* 14 */

/* What the callback saw. */
typedef struct seen {
  int n;
  char names[8][32];
  int passed[8];
  uint32_t nfail[8];
  char first[8][64];        /* each test's first failure: "LINE: MESSAGE" */
  char second[8][64];
} seen;

/* rgi_test_fn: records r in seen ctx. */
static void record(void *ctx, const rgi_test_result *r) {
  seen *s = ctx;
  int i = s->n++;
  if (i >= 8) return;
  snprintf(s->names[i], sizeof s->names[i], "%s", r->name);
  s->passed[i] = r->passed;
  s->nfail[i] = r->nfailures;
  s->first[i][0] = s->second[i][0] = '\0';
  if (r->nfailures > 0)
    snprintf(s->first[i], sizeof s->first[i], "%u: %s", r->failures[0].line, r->failures[0].message);
  if (r->nfailures > 1)
    snprintf(s->second[i], sizeof s->second[i], "%u: %s", r->failures[1].line,
             r->failures[1].message);
}

int main(void) {
  rgi_module m;
  rgi_arena arena;
  seen s = { 0 };
  uint32_t np = 0, nf = 0;

  if (rules_text(source, &m, &arena) != 0) return 1;
  CHECK(rgi_test_run(&m, NULL, record, &s, &np, &nf) == 0, "the tests run");
  CHECK(np == 1 && nf == 4, "1 passed, 4 failed (not %u, %u)", np, nf);
  CHECK(s.n == 5, "5 results, not %d", s.n);
  if (s.n == 5) {
    CHECK(strcmp(s.names[0], "sums") == 0 && s.passed[0] && s.nfail[0] == 0, "sums passes");
    CHECK(strcmp(s.names[1], "fails twice") == 0 && !s.passed[1] && s.nfail[1] == 2,
          "fails twice: 2 failures");
    CHECK(strcmp(s.first[1], "6: expected 5, got 4") == 0, "first failure: %s", s.first[1]);
    CHECK(strcmp(s.second[1], "7: expected true: add(1, 0) > 2") == 0, "second failure: %s",
          s.second[1]);
    CHECK(strcmp(s.names[2], "stops") == 0 && s.nfail[2] == 1, "stops: 1 failure");
    CHECK(strcmp(s.first[2], "11: error: division by zero") == 0, "the error: %s", s.first[2]);
    CHECK(!s.passed[3] && !s.passed[4] && strcmp(s.first[3] + 4, s.first[4] + 4) == 0 &&
          strncmp(s.first[3], "13: expected 7, got ", 20) == 0,
          "reseeded: %s / %s", s.first[3], s.first[4]);
  }
  /* counts add up across calls */
  CHECK(rgi_test_run(&m, NULL, NULL, NULL, &np, &nf) == 0 && np == 2 && nf == 8,
        "a second run adds: %u, %u", np, nf);

  /* Out of memory at each allocation in turn (N = 1, 2, ...): every
  ** failing N returns -1, and the first that fails nothing runs the tests
  ** as above: the same 5 results, the same messages. */
  {
    int wrong = 0, done = 0;
    unsigned long k;
    for (k = 1; k < 10000 && !done; k++) {
      seen t = { 0 };
      uint32_t p = 0, f = 0;
      int rc;
      rg_alloc_fail_at(k);
      rc = rgi_test_run(&m, NULL, record, &t, &p, &f);
      rg_alloc_fail_at(0);
      if (rc == 0) {
        done = 1;
        CHECK(p == 1 && f == 4 && t.n == 5 && strcmp(t.first[1], s.first[1]) == 0 &&
              strcmp(t.second[1], s.second[1]) == 0 && strcmp(t.first[2], s.first[2]) == 0,
              "oom: once nothing fails (N = %lu), the same results", k);
      } else {
        wrong += rc != -1;
      }
    }
    CHECK(done && k > 3 && wrong == 0, "oom: %lu allocations failed in turn, %d wrongly", k - 1,
          wrong);
  }
  /* a module without tests: nothing to run, nothing counted */
  {
    rgi_module m2;
    rgi_arena a2;
    uint32_t p = 0, f = 0;
    CHECK(rules_text("procedure p() -> int { return 1 }\n", &m2, &a2) == 0 &&
          rgi_test_run(&m2, NULL, record, &s, &p, &f) == 0 && p == 0 && f == 0,
          "no tests, none counted");
    rgi_module_free(&m2);
    rgi_arena_free(&a2);
  }

  rgi_module_free(&m);
  rgi_arena_free(&arena);
  return check_done("test_testrun");
}
