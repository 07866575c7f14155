/*
** test_playoom.c: out of memory in exact odds, simulations and variants
** compared (rg_exact_*, rg_sims_*, rg_simvars_* of regula.h and
** regula_front.h), through the public interface only.
**
** Each engine is set up and run with the Nth allocation failing, for N =
** 1, 2, ... until none is left to fail; then each writer (text, JSON, SVG)
** likewise.  Every failing N must end with RG_NOMEM (never a crash, another
** status, or a partial result passed off as whole), and the first N that
** fails nothing must give exactly what a run without injection gives.  The
** odds are worked out by hand: two d6, the winner the higher (0 on a tie):
** a tie 6/36 = 1/6, each side 15/36 = 5/12.  A leak shows under `make
** sanitize` (LeakSanitizer).  An SVG whose title could not be made was
** written with a shorter one and RG_OK (found here): a chart's title is
** now all of it or the writer fails.
*/
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "rules_text.h"

static const char duel[] =
  "ruleset \"duel\"\n"
  "record duel { winner: int, tie: bool }\n"
  "procedure main() -> duel {\n"
  "  let a = roll d6\n"
  "  let b = roll d6\n"
  "  let w = 0\n"
  "  if a > b { w = 1 } else if b > a { w = 2 }\n"
  "  return { winner: w, tie: a == b }\n"
  "}\n";

/* The same duel, but A wins ties: winner 1 with 21/36 = 7/12. */
static const char duel_a[] =
  "ruleset \"duel, A wins ties\"\n"
  "record duel { winner: int, tie: bool }\n"
  "procedure main() -> duel {\n"
  "  let a = roll d6\n"
  "  let b = roll d6\n"
  "  let w = 1\n"
  "  if b > a { w = 2 }\n"
  "  return { winner: w, tie: a == b }\n"
  "}\n";

/* The objects written, and which writer (0 text, 1 JSON, 2 SVG). */
typedef struct made {
  const rg_exact *const *xs;  /* two odds side by side */
  rg_exact *x;
  rg_sims *s;
  rg_simvars *v;
} made;

/* Writes what writer w of the engine in m makes into b; returns its status. */
static rg_status write_one(const made *m, int w, rg_buf *b) {
  static const char *const names[] = { "duel.rules", "duel-a.rules" };
  if (m->xs) return w == 0 ? rg_exact_compare(m->xs, names, 2, &b->out)
                    : w == 1 ? rg_exact_compare_json(m->xs, names, 2, &b->out)
                             : rg_exact_compare_svg(m->xs, names, 2, &b->out);
  if (m->x) return w == 0 ? rg_exact_write(m->x, &b->out) : w == 1 ? rg_exact_json(m->x, &b->out)
                                                                  : rg_exact_svg(m->x, &b->out);
  if (m->s) return w == 0 ? rg_sims_write(m->s, &b->out) : w == 1 ? rg_sims_json(m->s, &b->out)
                                                                 : rg_sims_svg(m->s, &b->out);
  return w == 0 ? rg_simvars_write(m->v, &b->out) : w == 1 ? rg_simvars_json(m->v, &b->out)
                                                          : rg_simvars_svg(m->v, &b->out);
}

/* Checks each writer of m under injection against its output without;
** what names the engine.  Returns how many allocations were failed. */
static unsigned long writers(const made *m, const char *what) {
  static const char *const kinds[] = { "text", "JSON", "SVG" };
  unsigned long total = 0;
  for (int w = 0; w < 3; w++) {
    rg_buf want;
    int wrong = 0, done = 0;
    unsigned long k;
    rg_buf_init(&want);
    CHECK(write_one(m, w, &want) == RG_OK && want.data, "%s %s: written", what, kinds[w]);
    for (k = 1; k < 100000 && !done; k++) {
      rg_buf got;
      rg_status st;
      rg_buf_init(&got);
      rg_alloc_fail_at(k);
      st = write_one(m, w, &got);
      rg_alloc_fail_at(0);
      if (st == RG_OK) {
        done = 1;
        CHECK(got.data && want.data && strcmp(got.data, want.data) == 0,
              "%s %s: the output once nothing fails (N = %lu) is the whole output", what,
              kinds[w], k);
      } else {
        /* got grows through rg_realloc: when the failure is its own, the
        ** writer says RG_IO (its out failed: regula.h, rg_out) */
        wrong += st != RG_NOMEM && !(st == RG_IO && got.out.failed);
      }
      rg_buf_free(&got);
    }
    CHECK(done && wrong == 0, "%s %s: %lu allocations failed in turn, %d without RG_NOMEM", what,
          kinds[w], k - 1, wrong);
    total += k - 1;
    rg_buf_free(&want);
  }
  return total;
}

int main(void) {
  rg_rules *r = NULL, *ra = NULL;
  unsigned long k;
  int wrong, done;

  CHECK(rg_rules_compile("duel.rules", duel, sizeof duel - 1, NULL, &r) == RG_OK &&
        rg_rules_compile("duel-a.rules", duel_a, sizeof duel_a - 1, NULL, &ra) == RG_OK,
        "the duels compile");
  if (!r || !ra) return 1;

  /* exact odds: three outcomes, 1/6, 5/12, 5/12 */
  wrong = done = 0;
  for (k = 1; k < 100000 && !done; k++) {
    rg_exact *x = NULL;
    rg_status st;
    rg_alloc_fail_at(k);
    st = rg_exact_new(r, NULL, &x);
    if (st == RG_OK) st = rg_exact_run(x);
    rg_alloc_fail_at(0);
    if (st == RG_OK) {
      int sixth = 0, twelfths = 0;
      uint64_t num, den;
      const char *t;
      done = 1;
      for (uint32_t i = 0; i < rg_exact_outcomes(x); i++)
        if (rg_exact_outcome(x, i, &t, &num, &den) == RG_OK) {
          sixth += num == 1 && den == 6;
          twelfths += num == 5 && den == 12;
        }
      CHECK(rg_exact_outcomes(x) == 3 && sixth == 1 && twelfths == 2,
            "exact: once nothing fails (N = %lu), a tie 1/6 and each side 5/12", k);
      made m = { .x = x };
      k += writers(&m, "exact");
    } else {
      wrong += st != RG_NOMEM || (x == NULL && st == RG_OK);
    }
    rg_exact_free(x);
  }
  CHECK(done && wrong == 0, "exact: every failed allocation gives RG_NOMEM (%d did not)", wrong);

  /* the odds of both duels side by side: A's ties are B's wins for A */
  {
    rg_exact *x0 = NULL, *x1 = NULL;
    CHECK(rg_exact_new(r, NULL, &x0) == RG_OK && rg_exact_run(x0) == RG_OK &&
          rg_exact_new(ra, NULL, &x1) == RG_OK && rg_exact_run(x1) == RG_OK, "both odds");
    if (x0 && x1) {
      const rg_exact *xs[] = { x0, x1 };
      made m = { .xs = xs };
      writers(&m, "odds variants");
    }
    rg_exact_free(x0);
    rg_exact_free(x1);
  }

  /* a simulation of 300 runs on one thread: the tallies of seed 7 */
  {
    rg_sims_options so = { .size = sizeof so, .seed = 7, .threads = 1 };
    rg_sims *ref = NULL;
    uint64_t want[3] = { 0, 0, 0 }, sum = 0;
    CHECK(rg_sims_new(r, &so, &ref) == RG_OK && rg_sims_run(ref, 300) == RG_OK, "sims: reference");
    for (uint32_t i = 0; ref && i < 3; i++) {
      const char *t;
      if (rg_sims_value(ref, 0, i, &t, &want[i]) == RG_OK) sum += want[i];
    }
    CHECK(sum == 300, "sims: the winner column counts 300 runs (%llu)", (unsigned long long)sum);
    wrong = done = 0;
    for (k = 1; ref && k < 100000 && !done; k++) {
      rg_sims *s = NULL;
      rg_status st;
      rg_alloc_fail_at(k);
      st = rg_sims_new(r, &so, &s);
      if (st == RG_OK) st = rg_sims_run(s, 300);
      rg_alloc_fail_at(0);
      if (st == RG_OK) {
        int same = rg_sims_columns(s) == rg_sims_columns(ref);
        for (uint32_t i = 0; i < 3; i++) {
          const char *t;
          uint64_t c = 0;
          same &= rg_sims_value(s, 0, i, &t, &c) == RG_OK && c == want[i];
        }
        done = 1;
        CHECK(same, "sims: once nothing fails (N = %lu), the reference's tallies", k);
        made m = { .s = s };
        k += writers(&m, "sims");
      } else {
        wrong += st != RG_NOMEM;
      }
      rg_sims_free(s);
    }
    CHECK(done && wrong == 0, "sims: every failed allocation gives RG_NOMEM (%d did not)", wrong);
    rg_sims_free(ref);
  }

  /* the two duels compared on common random numbers */
  {
    const rg_rules *both[] = { r, ra };
    const char *names[] = { "duel.rules", "duel-a.rules" };
    rg_simvars_options vo = { .size = sizeof vo, .seed = 3, .threads = 1 };
    wrong = done = 0;
    for (k = 1; k < 100000 && !done; k++) {
      rg_simvars *v = NULL;
      rg_status st;
      rg_alloc_fail_at(k);
      st = rg_simvars_new(both, names, 2, &vo, &v);
      if (st == RG_OK) st = rg_simvars_run(v, 200);
      rg_alloc_fail_at(0);
      if (st == RG_OK) {
        done = 1;
        CHECK(rg_simvars_failure(v, NULL, NULL, NULL) == NULL, "variants: no run failed");
        made m = { .v = v };
        k += writers(&m, "variants");
      } else {
        wrong += st != RG_NOMEM;
      }
      rg_simvars_free(v);
    }
    CHECK(done && wrong == 0, "variants: every failed allocation gives RG_NOMEM (%d did not)",
          wrong);
  }
  /* Not memory, but the same variants' threads: 0 threads is one, and 8
  ** threads for 3 runs make one run each; the text is the same as one
  ** thread's, of 3 runs. */
  {
    const rg_rules *both[] = { r, ra };
    const char *names[] = { "duel.rules", "duel-a.rules" };
    rg_buf text[3];
    uint32_t threads[3] = { 1, 0, 8 };
    int ok = 1;
    for (int i = 0; i < 3; i++) {
      rg_simvars_options vo = { .size = sizeof vo, .seed = 3, .threads = threads[i] };
      rg_simvars *v = NULL;
      rg_buf_init(&text[i]);
      ok &= rg_simvars_new(both, names, 2, &vo, &v) == RG_OK && rg_simvars_run(v, 3) == RG_OK &&
            rg_simvars_write(v, &text[i].out) == RG_OK;
      rg_simvars_free(v);
    }
    CHECK(ok && text[0].data && strstr(text[0].data, "3 runs") && text[1].data && text[2].data &&
          strcmp(text[0].data, text[1].data) == 0 && strcmp(text[0].data, text[2].data) == 0,
          "variants: threads 0 and 8 for 3 runs write what one thread does: %s",
          text[0].data ? text[0].data : "");
    for (int i = 0; i < 3; i++) rg_buf_free(&text[i]);
  }
  rg_rules_free(ra);
  rg_rules_free(r);
  /* exact odds of a roll-off (ties rolled again: a loop of states solved,
  ** 1/2 each side) and of a run that fails (6 / (a - 6): division by zero
  ** on a 6, the run of outcome 6 of 6), each allocation failing in turn:
  ** RG_NOMEM every time, then once none fails the halves, or the failure
  ** (RG_RUN_ERROR, "division by zero", its draw " 6/6"). */
  {
    static const char loop[] =
      "ruleset \"roll-off\"\n"
      RULES_ROLL_OFF("main")
      "procedure boom() -> int {\n"
      "  let a = roll d6\n"
      "  return 6 / (a - 6)\n"
      "}\n";
    rg_rules *rl = NULL;
    CHECK(rg_rules_compile("rolloff.rules", loop, sizeof loop - 1, NULL, &rl) == RG_OK,
          "the roll-off compiles");
    for (int boom = 0; rl && boom < 2; boom++) {
      rg_exact_options xo = { .size = sizeof xo, .proc = boom ? "boom" : "main" };
      int swallowed = 0;
      wrong = done = 0;
      for (k = 1; k < 100000 && !done; k++) {
        rg_exact *x = NULL;
        rg_status st;
        rg_buf draws;
        check_counts f = { .fail_at = (long)k };
        rg_buf_init(&draws);
        rg_set_allocator(check_counting, &f);
        st = rg_exact_new(rl, &xo, &x);
        if (st == RG_OK) st = rg_exact_run(x);
        if (st == RG_RUN_ERROR) st = rg_exact_failed_draws(x, &draws.out);
        rg_set_allocator(NULL, NULL);
        swallowed += st == RG_OK && f.hit;
        if (st == RG_OK && boom) {
          done = 1;
          CHECK(strcmp(rg_exact_errmsg(x), "division by zero") == 0 && draws.data &&
                strcmp(draws.data, " 6/6") == 0, "a failing run once nothing fails (N = %lu): "
                "%s,%s", k, rg_exact_errmsg(x), draws.data ? draws.data : "");
        } else if (st == RG_OK) {
          int halves = 0;
          uint64_t num, den;
          const char *t;
          done = 1;
          for (uint32_t i = 0; i < rg_exact_outcomes(x); i++)
            halves += rg_exact_outcome(x, i, &t, &num, &den) == RG_OK && num == 1 && den == 2;
          CHECK(rg_exact_outcomes(x) == 2 && halves == 2,
                "the roll-off once nothing fails (N = %lu): 1/2 each side", k);
        } else {
          /* draws grows through the allocator: when the failure is its
          ** own, rg_exact_failed_draws says RG_IO (regula.h, rg_out) */
          wrong += st != RG_NOMEM && !(st == RG_IO && draws.out.failed);
        }
        rg_buf_free(&draws);
        rg_exact_free(x);
      }
      CHECK(done && wrong == 0 && k > 10 && !swallowed, "%s: every failed allocation gives "
            "RG_NOMEM (%d did not, of %lu; %d swallowed)", boom ? "a failing run" : "a roll-off",
            wrong, k - 1, swallowed);
    }
    rg_rules_free(rl);
  }
  return check_done("test_playoom");
}
