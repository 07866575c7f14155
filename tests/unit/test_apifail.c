/*
** test_apifail.c: every constructor and writer of regula.h and
** regula_front.h under injected allocation failures (rg_alloc_fail_at), as
** an embedder that runs out of memory meets them.
**
** Each phase below makes what it needs from rules compiled once, checks
** the answers it gets against values worked out by hand, and frees all it
** made.  Run once without failures, it counts the allocations it asks for
** (N); then for k = 1..N allocation k fails, and the phase must end in
** RG_NOMEM (or, where the library can do without that memory, in RG_OK
** with the same answers), never a crash, and the counting allocator must
** find nothing left allocated.
*/
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static check_counts cnt;

/* A phase's answer that is not the one worked out by hand. */
#define WRONG ((rg_status)100)

/* Runs phase(ctx) once to count its allocations, then once with each of
** them failing in turn; each must give RG_NOMEM or RG_OK (the answers
** right: the phase returns WRONG otherwise) and leave nothing allocated. */
static void inject(const char *name, rg_status (*phase)(void *ctx), void *ctx) {
  long live0 = cnt.live, n, bad = 0, leaks = 0;
  cnt.calls = 0;
  rg_status st = phase(ctx);
  CHECK(st == RG_OK, "%s: without failures: %s", name, rg_status_name(st));
  n = cnt.calls;
  CHECK(cnt.live == live0, "%s: without failures, %ld blocks left", name, cnt.live - live0);
  for (long k = 1; k <= n; k++) {
    rg_alloc_fail_at((unsigned long)k);
    st = phase(ctx);
    rg_alloc_fail_at(0);
    if (st != RG_NOMEM && st != RG_OK && bad++ < 3)
      printf("FAIL %s: allocation %ld of %ld failing gives %s\n", name, k, n,
             rg_status_name(st));
    if (cnt.live != live0 && leaks++ < 3)
      printf("FAIL %s: allocation %ld failing leaves %ld blocks\n", name, k, cnt.live - live0);
    cnt.live = live0;
  }
  CHECK(bad == 0 && leaks == 0, "%s: %ld of %ld failures wrong, %ld leaked", name, bad, n,
        leaks);
}

/* ---- the rules ----------------------------------------------------------
** By hand: roll_plus(10) is a d6 + 10 + bonus, so with bonus 3 (a copy's
** setting) 14..19, each 1/6; main is a d6 + bonus; pick answered B by the
** answers; first() takes the first option, A; grid is a 2 x 2 table. */
static const char text[] =
  "ruleset \"fail\"\n"
  "enum side { A \"Alpha\", B \"Bravo\" }\n"
  "enum colour { BLACK, RED }\n"
  "input bonus: int = 0\n"
  "enum face { hit, miss }\n"
  "dice D: face = { hit: 1, miss: 1 } assumed \"faces not on the sheet\"\n"
  "deck bag: colour = { BLACK: 2, RED: 1 }\n"
  "table grid(s: side, n: 1..2) -> int { A, 1: 11, A, 2: 12, B, 1: 21, B, 2: 22 }\n"
  "table t(side) -> int { A: 1, B: 2 }\n"
  "record res { who: side, n: int }\n"
  "procedure roll_plus(k: int) -> int {\n"
  "  let r = roll d6\n"
  "  expect r < 7\n"
  "  return r + k + bonus\n"
  "}\n"
  "procedure main() -> int { return roll d6 + bonus }\n"
  "procedure pick() -> res {\n"
  "  step \"Choose\" { note \"asking\", A }\n"
  "  let c = draw bag\n"
  "  let w = choose(A, \"which?\", {A, B})\n"
  "  return { who: w, n: grid[w, 2] }\n"
  "}\n"
  "procedure picture() {\n"
  "  canvas(\"board\", 4, 2, \"a board\")\n"
  "  rect(0, 0, 1, 1, \"\", \"x\")\n"
  "}\n"
  "strategy b_first { \"which?\": B }\n"
  "test \"grid\" { expect grid[B, 1] == 21 }\n";

/* What the phases share: the rules, and a copy with bonus 3. */
typedef struct world {
  rg_rules *r, *copy;
} world;

/* Returns st, or RG_NOMEM when b's writes failed.  b grows through
** rg_realloc, so an injected failure may be b's own: the writer then
** returns RG_IO (its out failed: regula.h, rg_out), which here is memory
** running out; RG_IO with b intact stays wrong. */
static rg_status bufst(rg_status st, const rg_buf *b) {
  return (st == RG_OK || st == RG_IO) && b->out.failed ? RG_NOMEM : st;
}

/* Diagnostic callback: counts into the int ctx. */
static void count_diag(void *ctx, const rg_diagnostic *d) {
  (void)d;
  ++*(int *)ctx;
}

/* Compiles text keeping its sources, with a diagnostic callback. */
static rg_status phase_compile(void *ctx) {
  rg_compile_options o = RG_OPTIONS(rg_compile_options);
  rg_rules *r = NULL;
  rg_status st;
  int ndiag = 0;
  (void)ctx;
  o.keep_sources = 1;
  o.diagnostic = count_diag;
  o.diagnostic_ctx = &ndiag;
  st = rg_rules_compile("fail.rules", text, sizeof text - 1, &o, &r);
  if (st != RG_OK) return r ? WRONG : st;
  if (strcmp(rg_rules_name(r), "fail") != 0 || ndiag != 0) st = WRONG;
  rg_rules_free(r);
  return st;
}

/* A copy of the rules, set up by a text and by lines: bonus 3. */
static rg_status phase_copy(void *ctx) {
  world *w = ctx;
  rg_rules *c = NULL;
  char buf[32];
  rg_status st = rg_rules_copy(w->r, &c);
  if (st != RG_OK) return c ? WRONG : st;
  if ((st = rg_rules_set(c, "bonus=2")) == RG_OK &&
      (st = rg_rules_set_lines(c, "# a comment\nbonus = 3\n", 22, "in")) == RG_OK &&
      (st = rg_rules_set(c, "D=hit:2,miss:4")) == RG_OK) {
    int i = rg_rules_find(c, RG_INPUT, "bonus");
    if (!rg_rules_input_value(c, i, buf, sizeof buf) || strcmp(buf, "3") != 0) st = WRONG;
  }
  rg_rules_free(c);
  return st;
}

/* A run answering by the answers "B": a picture drawn, then pick (B, and
** grid[B, 2] = 22) logged, beside the same pick in the copy. */
static rg_status phase_run(void *ctx) {
  world *w = ctx;
  rg_run_options o = RG_OPTIONS(rg_run_options);
  rg_run *run = NULL, *run2 = NULL;
  rg_buf log, side;
  char buf[64];
  const char *names[] = { "base", "copy" };
  rg_status st;
  o.policy.kind = RG_CHOOSE_ANSWERS;
  o.policy.answers = "B\n";
  o.policy.answers_len = 2;
  o.policy.answers_name = "ans.txt";
  o.seed = 3;
  rg_buf_init(&log);
  rg_buf_init(&side);
  if ((st = rg_run_new(w->r, &o, &run)) != RG_OK) goto done;
  rg_run_log(run, &log.out, 0, "answers", NULL);
  if ((st = rg_run_pictures(run)) != RG_OK) goto done;
  if ((st = rg_run_call(run, "picture", NULL, 0)) != RG_OK) goto done;
  if (rg_pictures_error(rg_run_drawn(run), NULL)) {
    /* memory that ran out while drawing is the pictures' error */
    st = strcmp(rg_pictures_error(rg_run_drawn(run), NULL), "out of memory") == 0 ? RG_NOMEM
                                                                                : WRONG;
    goto done;
  }
  if (rg_pictures_count(rg_run_drawn(run)) != 1) { st = WRONG; goto done; }
  {
    rg_buf svg;
    rg_buf_init(&svg);
    st = bufst(rg_pictures_write(rg_run_drawn(run), 0, &svg.out), &svg);
    if (st == RG_OK && (!svg.data || !strstr(svg.data, "<svg"))) st = WRONG;
    rg_buf_free(&svg);
    if (st != RG_OK) goto done;
  }
  if ((st = rg_run_call(run, "pick", NULL, 0)) != RG_OK) goto done;
  if ((st = rg_run_result(run, buf, sizeof buf)) != RG_OK) goto done;
  if (strcmp(buf, "{who: Bravo, n: 22}") != 0) {
    st = WRONG;
    goto done;
  }
  /* the same pick in the copy: two runs side by side */
  if ((st = rg_run_new(w->copy, &o, &run2)) != RG_OK) goto done;
  if ((st = rg_run_call(run2, "pick", NULL, 0)) != RG_OK) goto done;
  {
    const rg_run *runs[] = { run, run2 };
    st = bufst(rg_runs_side_by_side(runs, names, 2, 3, "answers", 0, &side.out), &side);
    if (st == RG_OK) st = bufst(rg_runs_side_by_side(runs, names, 2, 3, "answers", 1, &side.out),
                                &side);
    if (st == RG_OK && (!side.data || !strstr(side.data, "Bravo"))) st = WRONG;
  }
  if (st == RG_OK && log.out.failed) st = RG_NOMEM;
done:
  rg_run_free(run);
  rg_run_free(run2);
  rg_buf_free(&log);
  rg_buf_free(&side);
  return st;
}

/* 100 runs of roll_plus(10) in the copy (bonus 3), in two slices: 14..19. */
static rg_status phase_sims(void *ctx) {
  world *w = ctx;
  rg_sims_options o = RG_OPTIONS(rg_sims_options);
  const char *args[] = { "10" };
  rg_sims *s = NULL;
  rg_buf b;
  const char *t = NULL;
  uint64_t count = 0;
  rg_status st;
  o.proc = "roll_plus";
  o.args = args;
  o.nargs = 1;
  o.seed = 7;
  o.threads = 1;
  o.policy.kind = RG_CHOOSE_ANSWERS;
  o.policy.answers = "B\n";
  o.policy.answers_len = 2;
  rg_buf_init(&b);
  if ((st = rg_sims_new(w->copy, &o, &s)) != RG_OK) goto done;
  if ((st = rg_sims_run(s, 60)) != RG_OK || (st = rg_sims_run(s, 40)) != RG_OK) goto done;
  if (rg_sims_done(s) != 100 || rg_sims_columns(s) != 1) { st = WRONG; goto done; }
  if ((st = rg_sims_value(s, 0, 0, &t, &count)) != RG_OK) goto done;
  if (strcmp(t, "14") != 0 || count == 0 || count > 100) { st = WRONG; goto done; }
  if ((st = bufst(rg_sims_write(s, &b.out), &b)) != RG_OK) goto done;
  if ((st = bufst(rg_sims_json(s, &b.out), &b)) != RG_OK) goto done;
  if ((st = bufst(rg_sims_svg(s, &b.out), &b)) != RG_OK) goto done;
  if (!strstr(b.data, "19")) st = WRONG;
done:
  rg_sims_free(s);
  rg_buf_free(&b);
  return st;
}

/* The exact odds of roll_plus(10) in the copy: 14..19, each 1/6; and the
** base's beside them (11..16). */
static rg_status phase_exact(void *ctx) {
  world *w = ctx;
  rg_exact_options o = RG_OPTIONS(rg_exact_options);
  const char *args[] = { "10" }, *names[] = { "base", "copy" };
  rg_exact *x = NULL, *y = NULL;
  rg_buf b;
  const char *t = NULL;
  uint64_t num = 0, den = 0;
  rg_status st;
  o.proc = "roll_plus";
  o.args = args;
  o.nargs = 1;
  o.policy.kind = RG_CHOOSE_ANSWERS;
  o.policy.answers = "B\n";
  o.policy.answers_len = 2;
  rg_buf_init(&b);
  if ((st = rg_exact_new(w->copy, &o, &x)) != RG_OK || (st = rg_exact_run(x)) != RG_OK) goto done;
  if (rg_exact_outcomes(x) != 6) { st = WRONG; goto done; }
  if ((st = rg_exact_outcome(x, 5, &t, &num, &den)) != RG_OK) goto done;
  if (strcmp(t, "19") != 0 || num != 1 || den != 6) { st = WRONG; goto done; }
  if ((st = bufst(rg_exact_write(x, &b.out), &b)) != RG_OK) goto done;
  if ((st = bufst(rg_exact_json(x, &b.out), &b)) != RG_OK) goto done;
  if ((st = bufst(rg_exact_svg(x, &b.out), &b)) != RG_OK) goto done;
  if ((st = rg_exact_new(w->r, &o, &y)) != RG_OK || (st = rg_exact_run(y)) != RG_OK) goto done;
  {
    const rg_exact *xs[] = { y, x };
    if ((st = bufst(rg_exact_compare(xs, names, 2, &b.out), &b)) != RG_OK) goto done;
    if ((st = bufst(rg_exact_compare_json(xs, names, 2, &b.out), &b)) != RG_OK) goto done;
    if ((st = bufst(rg_exact_compare_svg(xs, names, 2, &b.out), &b)) != RG_OK) goto done;
  }
  if (!strstr(b.data, "11")) st = WRONG;
done:
  rg_exact_free(x);
  rg_exact_free(y);
  rg_buf_free(&b);
  return st;
}

/* main (a d6 + bonus) in the base and the copy, run by run: the copy's
** result is the base's + 3 in every run. */
static rg_status phase_simvars(void *ctx) {
  world *w = ctx;
  rg_simvars_options o = RG_OPTIONS(rg_simvars_options);
  const rg_rules *rules[] = { w->r, w->copy };
  const char *names[] = { "base", "copy" };
  rg_simvars *c = NULL;
  rg_buf b;
  rg_status st;
  o.seed = 1;
  o.threads = 1;
  o.policy.strategy = "b_first";
  rg_buf_init(&b);
  if ((st = rg_simvars_new(rules, names, 2, &o, &c)) != RG_OK) goto done;
  if ((st = rg_simvars_run(c, 30)) != RG_OK) goto done;
  if ((st = bufst(rg_simvars_write(c, &b.out), &b)) != RG_OK) goto done;
  if ((st = bufst(rg_simvars_json(c, &b.out), &b)) != RG_OK) goto done;
  if ((st = bufst(rg_simvars_svg(c, &b.out), &b)) != RG_OK) goto done;
  if (!strstr(b.data, "copy")) st = WRONG;
done:
  rg_simvars_free(c);
  rg_buf_free(&b);
  return st;
}

/* A game of pick, the copy's settings named in its transcript. */
static rg_status phase_game(void *ctx) {
  world *w = ctx;
  rg_game_options o = RG_OPTIONS(rg_game_options);
  rg_game *g = NULL;
  rg_status st;
  o.proc = "pick";
  o.policy.kind = RG_CHOOSE_FIRST;
  o.title = "fail.rules";
  st = rg_game_new(w->copy, &o, &g);
  if (st == RG_OK && !g) st = WRONG;
  rg_game_free(g);
  return st;
}

/* The texts of the rules for front ends: hash, disassembly, tests, sheet,
** a description, a cell, the placeholders. */
static rg_status phase_texts(void *ctx) {
  world *w = ctx;
  rg_buf b;
  char hash[32];
  const char *keys[] = { "B", "1" }, *tables[] = { "grid" };
  uint32_t ok = 0, bad = 0;
  rg_status st;
  rg_limits lim;
  memset(&lim, 0, sizeof lim);
  rg_buf_init(&b);
  if ((st = rg_rules_hash(w->copy, hash, sizeof hash)) != RG_OK) goto done;
  if (strlen(hash) != 16) { st = WRONG; goto done; }
  if ((st = bufst(rg_rules_dis(w->r, RG_DIS_FAST, &b.out), &b)) != RG_OK) goto done;
  if ((st = bufst(rg_rules_test(w->r, &lim, &b.out, &ok, &bad), &b)) != RG_OK) goto done;
  if (ok != 1 || bad != 0) { st = WRONG; goto done; }
  if ((st = bufst(rg_rules_sheet_of(w->r, tables, 1, &b.out), &b)) != RG_OK) goto done;
  if ((st = bufst(rg_rules_describe(w->r, "t", &b.out), &b)) != RG_OK) goto done;
  rg_buf_free(&b);
  rg_buf_init(&b);
  if ((st = bufst(rg_rules_query_write(w->r, "grid", keys, 2, &b.out), &b)) != RG_OK) goto done;
  if (!b.data || strcmp(b.data, "21\n") != 0) { st = WRONG; goto done; }
  if (rg_rules_placeholders(w->copy, "roll_plus", 1, &b.out) < 0 ||
      rg_rules_placeholders(w->r, "pick", 0, &b.out) < 0)
    st = RG_NOMEM;
  st = bufst(st, &b);
done:
  rg_buf_free(&b);
  return st;
}

int main(void) {
  world w = { NULL, NULL };
  CHECK(rg_set_allocator(check_counting, &cnt) == RG_OK, "allocator");
  CHECK(rg_rules_compile("fail.rules", text, sizeof text - 1, NULL, &w.r) == RG_OK, "compile");
  CHECK(w.r && rg_rules_copy(w.r, &w.copy) == RG_OK && rg_rules_set(w.copy, "bonus=3") == RG_OK,
        "copy");
  if (!w.r || !w.copy) {
    printf("test_apifail: %d passed, %d failed\n", passed, failed + 1);
    return 1;
  }
  inject("compile", phase_compile, &w);
  inject("copy", phase_copy, &w);
  inject("run", phase_run, &w);
  inject("sims", phase_sims, &w);
  inject("exact", phase_exact, &w);
  inject("simvars", phase_simvars, &w);
  inject("game", phase_game, &w);
  inject("texts", phase_texts, &w);
  rg_rules_free(w.copy);
  rg_rules_free(w.r);
  CHECK(cnt.live == 0, "all freed: %ld blocks left", cnt.live);
  return check_done("test_apifail");
}
