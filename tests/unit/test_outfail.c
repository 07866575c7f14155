/*
** test_outfail.c: every writer of regula.h and regula_front.h (a function
** that writes to an rg_out and returns an rg_status) under the rule of
** regula.h's rg_out: RG_IO when the caller's out failed, during the call
** or before it, with out.failed set; RG_NOMEM only for the library's own
** memory, and winning when both failed.
**
** The writers are a table (writers[] below): EVERY rg_status writer of the
** two headers must be in it (tests/abi.sh fails when one is not), so a
** new writer is added there, with what it needs in the fixture.  Each is
** called
**   - with an out that refuses every write: RG_IO, failed 1;
**   - with an out that has failed already: RG_IO, and nothing written;
**   - with an out that takes half of the writer's text, then refuses:
**     RG_IO, failed 1, and the bytes taken are the text's first ones;
**   - with an out that refuses every write and the library's next
**     allocation failing: RG_NOMEM when the writer asked for memory (the
**     allocation failed), else RG_IO; nothing left allocated.
*/
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* By hand: pick asks who wins (a choice), noted writes a note, bad fails
** on a 6 (a division by zero) after one roll, picture draws one picture;
** one test passes and one fails; D is a die marked assumed (placeholder
** data in the headers of sims and odds). */
static const char text[] =
  "ruleset \"outfail\"\n"
  "enum side { A \"Alpha\", B \"Bravo\" }\n"
  "enum face { hit, miss }\n"
  "dice D: face = { hit: 1, miss: 1 } assumed \"faces not on the sheet\"\n"
  "const reach = 3\n"
  "table t(s: side, n: 1..2) -> int { A, 1: 11, A, 2: 12, B, 1: 21, B, 2: 22 }\n"
  "record res { who: side, n: int, face: face }\n"
  "procedure pick() -> res {\n"
  "  let w = choose(A, \"which?\", {A, B})\n"
  "  return { who: w, n: t[w, 2] + roll d6, face: roll D }\n"
  "}\n"
  "deck bag: face = { hit: 2, miss: 2 }\n"
  "procedure hand() -> int {\n"
  "  let h = draws(A, \"hand\", bag, 2)\n"
  "  return 1\n"
  "}\n"
  "procedure noted() -> int {\n"
  "  note \"a note\", 7\n"
  "  return 1\n"
  "}\n"
  "procedure bad() -> int {\n"
  "  let r = roll d6\n"
  "  if r == 6 { return t[A, 1] / 0 }\n"
  "  return r\n"
  "}\n"
  "procedure picture() {\n"
  "  canvas(\"board\", 4, 2, \"a board\")\n"
  "  rect(0, 0, 1, 1, \"\", \"x\")\n"
  "}\n"
  "test \"passes\" { expect t[A, 1] == 11 }\n"
  "test \"fails\" { expect t[A, 1] == 12 }\n";

/* Everything the writers are called on, made once from text (r) and from
** text with one cell changed (r2). */
typedef struct fixture {
  rg_rules *r, *r2;
  rg_run *run, *run2;           /* pick called (first option), with pictures */
  rg_run *drawn;                /* picture called */
  rg_sims *sims;                /* 200 runs of pick */
  rg_simvars *simvars;          /* r and r2, 200 runs of pick */
  rg_exact *exact, *exact2;     /* the odds of pick in r and r2 */
  rg_exact *failing;            /* the odds of bad: a run fails */
  rg_game *game;                /* pick, asking */
  rg_game *hand;                /* hand, its cards read: asking for a hand of 2 */
  rg_changes *changes;          /* r to r2 */
} fixture;

/* Makes f; returns 0, or -1 when something could not be made. */
static int fixture_make(fixture *f) {
  rg_compile_options co = RG_OPTIONS(rg_compile_options);
  rg_run_options ro = RG_OPTIONS(rg_run_options);
  rg_sims_options so = RG_OPTIONS(rg_sims_options);
  rg_simvars_options vo = RG_OPTIONS(rg_simvars_options);
  rg_exact_options xo = RG_OPTIONS(rg_exact_options);
  rg_game_options go = RG_OPTIONS(rg_game_options);
  char text2[sizeof text];
  char *cell;
  memset(f, 0, sizeof *f);
  memcpy(text2, text, sizeof text);
  if (!(cell = strstr(text2, "B, 2: 22"))) return -1;
  cell[6] = '9';                                      /* B, 2: 92 */
  co.keep_sources = 1;
  if (rg_rules_compile("outfail.rules", text, sizeof text - 1, &co, &f->r) != RG_OK ||
      rg_rules_compile("outfail2.rules", text2, sizeof text2 - 1, &co, &f->r2) != RG_OK)
    return -1;
  ro.policy.kind = RG_CHOOSE_FIRST;
  if (rg_run_new(f->r, &ro, &f->run) != RG_OK || rg_run_call(f->run, "pick", NULL, 0) != RG_OK ||
      rg_run_new(f->r2, &ro, &f->run2) != RG_OK ||
      rg_run_call(f->run2, "pick", NULL, 0) != RG_OK ||
      rg_run_new(f->r, &ro, &f->drawn) != RG_OK || rg_run_pictures(f->drawn) != RG_OK ||
      rg_run_call(f->drawn, "picture", NULL, 0) != RG_OK)
    return -1;
  so.proc = "pick";
  if (rg_sims_new(f->r, &so, &f->sims) != RG_OK || rg_sims_run(f->sims, 200) != RG_OK) return -1;
  {
    const rg_rules *both[] = { f->r, f->r2 };
    const char *names[] = { "outfail.rules", "outfail2.rules" };
    vo.proc = "pick";
    if (rg_simvars_new(both, names, 2, &vo, &f->simvars) != RG_OK ||
        rg_simvars_run(f->simvars, 200) != RG_OK)
      return -1;
  }
  xo.proc = "pick";
  if (rg_exact_new(f->r, &xo, &f->exact) != RG_OK || rg_exact_run(f->exact) != RG_OK ||
      rg_exact_new(f->r2, &xo, &f->exact2) != RG_OK || rg_exact_run(f->exact2) != RG_OK)
    return -1;
  xo.proc = "bad";
  if (rg_exact_new(f->r, &xo, &f->failing) != RG_OK ||
      rg_exact_run(f->failing) != RG_RUN_ERROR)
    return -1;
  go.proc = "pick";
  go.ask_choices = 1;
  if (rg_game_new(f->r, &go, &f->game) != RG_OK || rg_game_play(f->game) != RG_GAME_ASKING)
    return -1;
  go.proc = "hand";
  go.ask_dice = 1;
  if (rg_game_new(f->r, &go, &f->hand) != RG_OK || rg_game_play(f->hand) != RG_GAME_ASKING)
    return -1;
  {
    rg_game_question q;
    if (!rg_game_asking(f->hand, &q) || q.hand != 2) return -1;
  }
  if (rg_changes_new(f->r, f->r2, NULL, &f->changes) != RG_OK) return -1;
  return 0;
}

/* Frees what f holds. */
static void fixture_free(fixture *f) {
  rg_changes_free(f->changes);
  rg_game_free(f->hand);
  rg_game_free(f->game);
  rg_exact_free(f->failing);
  rg_exact_free(f->exact2);
  rg_exact_free(f->exact);
  rg_simvars_free(f->simvars);
  rg_sims_free(f->sims);
  rg_run_free(f->drawn);
  rg_run_free(f->run2);
  rg_run_free(f->run);
  rg_rules_free(f->r2);
  rg_rules_free(f->r);
}

/* ---- the writers ----------------------------------------------------------
** Each calls one writer (one way) on the fixture, writing to out, and
** returns its status. */

static rg_status w_query_write(fixture *f, rg_out *out) {
  const char *keys[] = { "B", "2" };
  return rg_rules_query_write(f->r, "t", keys, 2, out);
}

static rg_status w_dis(fixture *f, rg_out *out) {
  return rg_rules_dis(f->r, 0, out);
}

static rg_status w_dis_fast(fixture *f, rg_out *out) {
  return rg_rules_dis(f->r, RG_DIS_FAST, out);
}

static rg_status w_result_write(fixture *f, rg_out *out) {
  return rg_run_result_write(f->run, out);
}

/* What the event callback of w_event_text writes to, and what it got. */
typedef struct event_ctx {
  rg_out *out;
  rg_status st;
  int calls;
} event_ctx;

/* rg_event_fn: writes the note through rg_run_event_text to the event_ctx's
** out, keeping its status. */
static void note_event(void *ctx, rg_run *run, const rg_event *ev) {
  event_ctx *e = ctx;
  if (ev->kind != RG_EVENT_NOTE) return;
  e->st = rg_run_event_text(run, e->out);
  e->calls++;
}

static rg_status w_event_text(fixture *f, rg_out *out) {
  rg_run_options ro = RG_OPTIONS(rg_run_options);
  event_ctx e = { out, (rg_status)100, 0 };
  rg_run *run = NULL;
  rg_status st;
  ro.event = note_event;
  ro.event_ctx = &e;
  st = rg_run_new(f->r, &ro, &run);
  if (st == RG_OK) st = rg_run_call(run, "noted", NULL, 0);
  rg_run_free(run);
  if (st != RG_OK) return st;
  return e.calls == 1 ? e.st : (rg_status)100;
}

static rg_status w_format(fixture *f, rg_out *out) {
  (void)f;
  return rg_rules_format("outfail.rules", text, sizeof text - 1, NULL, out);
}

static rg_status w_describe_table(fixture *f, rg_out *out) {
  return rg_rules_describe(f->r, "t", out);
}

static rg_status w_describe_const(fixture *f, rg_out *out) {
  return rg_rules_describe(f->r, "reach", out);
}

/* rg_runs_side_by_side of run and run2, as text (json 0) or JSON. */
static rg_status side_by_side(fixture *f, int json, rg_out *out) {
  const rg_run *runs[] = { f->run, f->run2 };
  const char *names[] = { "outfail.rules", "outfail2.rules" };
  return rg_runs_side_by_side(runs, names, 2, 0, "first", json, out);
}

static rg_status w_side_by_side(fixture *f, rg_out *out) {
  return side_by_side(f, 0, out);
}

static rg_status w_side_by_side_json(fixture *f, rg_out *out) {
  return side_by_side(f, 1, out);
}

static rg_status w_pictures_write(fixture *f, rg_out *out) {
  return rg_pictures_write(rg_run_drawn(f->drawn), 0, out);
}

static rg_status w_test(fixture *f, rg_out *out) {
  uint32_t passed = 0, failed = 0;
  return rg_rules_test(f->r, NULL, out, &passed, &failed);
}

static rg_status w_sheet(fixture *f, rg_out *out) {
  (void)f;
  return rg_rules_sheet("outfail.rules", text, sizeof text - 1, NULL, out);
}

static rg_status w_sheet_of(fixture *f, rg_out *out) {
  return rg_rules_sheet_of(f->r, NULL, 0, out);
}

static rg_status w_diff(fixture *f, rg_out *out) {
  uint32_t n = 0;
  return rg_rules_diff(f->r, "outfail.rules", f->r2, "outfail2.rules", out, &n);
}

static rg_status w_sims_write(fixture *f, rg_out *out) {
  return rg_sims_write(f->sims, out);
}

static rg_status w_sims_json(fixture *f, rg_out *out) {
  return rg_sims_json(f->sims, out);
}

static rg_status w_sims_svg(fixture *f, rg_out *out) {
  return rg_sims_svg(f->sims, out);
}

static rg_status w_simvars_write(fixture *f, rg_out *out) {
  return rg_simvars_write(f->simvars, out);
}

static rg_status w_simvars_json(fixture *f, rg_out *out) {
  return rg_simvars_json(f->simvars, out);
}

static rg_status w_simvars_svg(fixture *f, rg_out *out) {
  return rg_simvars_svg(f->simvars, out);
}

static rg_status w_failed_draws(fixture *f, rg_out *out) {
  return rg_exact_failed_draws(f->failing, out);
}

static rg_status w_exact_write(fixture *f, rg_out *out) {
  return rg_exact_write(f->exact, out);
}

static rg_status w_exact_json(fixture *f, rg_out *out) {
  return rg_exact_json(f->exact, out);
}

static rg_status w_exact_svg(fixture *f, rg_out *out) {
  return rg_exact_svg(f->exact, out);
}

/* The odds of pick in r and r2, for the comparisons. */
static const rg_exact *const *both_exact(fixture *f, const rg_exact *xs[2]) {
  xs[0] = f->exact;
  xs[1] = f->exact2;
  return xs;
}

static const char *const exact_names[] = { "outfail.rules", "outfail2.rules" };

static rg_status w_exact_compare(fixture *f, rg_out *out) {
  const rg_exact *xs[2];
  return rg_exact_compare(both_exact(f, xs), exact_names, 2, out);
}

static rg_status w_exact_compare_json(fixture *f, rg_out *out) {
  const rg_exact *xs[2];
  return rg_exact_compare_json(both_exact(f, xs), exact_names, 2, out);
}

static rg_status w_exact_compare_svg(fixture *f, rg_out *out) {
  const rg_exact *xs[2];
  return rg_exact_compare_svg(both_exact(f, xs), exact_names, 2, out);
}

static rg_status w_hand_counted(fixture *f, rg_out *out) {
  return rg_game_hand_example(f->hand, 0, out);
}

static rg_status w_hand_listed(fixture *f, rg_out *out) {
  return rg_game_hand_example(f->hand, 1, out);
}

static rg_status w_transcript_rules(fixture *f, rg_out *out) {
  rg_transcript_info info;
  (void)f;
  memset(&info, 0, sizeof info);
  info.rules = "dir\\x0aname\\x5c.rules";   /* a newline and a backslash, escaped */
  info.rules_len = strlen(info.rules);
  return rg_transcript_rules(&info, out);
}

static rg_status w_game_public(fixture *f, rg_out *out) {
  return rg_game_public(f->game, out);
}

static rg_status w_question(fixture *f, rg_out *out) {
  return rg_game_question_write(f->game, 0, out);
}

static rg_status w_question_options(fixture *f, rg_out *out) {
  return rg_game_question_write(f->game, 5, out);
}

static rg_status w_changes_text(fixture *f, rg_out *out) {
  return rg_changes_write(f->changes, RG_DIFF_TEXT, 0, NULL, out);
}

static rg_status w_changes_stat(fixture *f, rg_out *out) {
  return rg_changes_write(f->changes, RG_DIFF_STAT, 0, NULL, out);
}

static rg_status w_changes_json(fixture *f, rg_out *out) {
  return rg_changes_write(f->changes, RG_DIFF_JSON, 0, NULL, out);
}

/* One writer: its name and how to call it. */
typedef struct writer {
  const char *name;
  rg_status (*call)(fixture *f, rg_out *out);
} writer;

/* EVERY writer of regula.h and regula_front.h that returns an rg_status:
** a new one is added here. */
static const writer writers[] = {
  { "rg_rules_query_write", w_query_write },
  { "rg_rules_dis", w_dis },
  { "rg_rules_dis fast", w_dis_fast },
  { "rg_run_result_write", w_result_write },
  { "rg_run_event_text", w_event_text },
  { "rg_rules_format", w_format },
  { "rg_rules_describe table", w_describe_table },
  { "rg_rules_describe const", w_describe_const },
  { "rg_runs_side_by_side", w_side_by_side },
  { "rg_runs_side_by_side json", w_side_by_side_json },
  { "rg_pictures_write", w_pictures_write },
  { "rg_rules_test", w_test },
  { "rg_rules_sheet", w_sheet },
  { "rg_rules_sheet_of", w_sheet_of },
  { "rg_rules_diff", w_diff },
  { "rg_sims_write", w_sims_write },
  { "rg_sims_json", w_sims_json },
  { "rg_sims_svg", w_sims_svg },
  { "rg_simvars_write", w_simvars_write },
  { "rg_simvars_json", w_simvars_json },
  { "rg_simvars_svg", w_simvars_svg },
  { "rg_exact_failed_draws", w_failed_draws },
  { "rg_exact_write", w_exact_write },
  { "rg_exact_json", w_exact_json },
  { "rg_exact_svg", w_exact_svg },
  { "rg_exact_compare", w_exact_compare },
  { "rg_exact_compare_json", w_exact_compare_json },
  { "rg_exact_compare_svg", w_exact_compare_svg },
  { "rg_game_hand_example", w_hand_counted },
  { "rg_game_hand_example listed", w_hand_listed },
  { "rg_transcript_rules", w_transcript_rules },
  { "rg_game_public", w_game_public },
  { "rg_game_question_write", w_question },
  { "rg_game_question_write options", w_question_options },
  { "rg_changes_write text", w_changes_text },
  { "rg_changes_write stat", w_changes_stat },
  { "rg_changes_write json", w_changes_json },
};

/* ---- the outs ------------------------------------------------------------- */

/* What a test out keeps: the bytes it took (at most cap), how many writes
** reached it. */
typedef struct sink {
  char *data;
  size_t len, cap;
  size_t take;                  /* bytes taken before refusing (SIZE_MAX: all) */
  int writes;
} sink;

/* rg_out write: appends s[0..n) to the sink ctx while its take allows the
** whole of it (a write that would pass take is refused whole: -1). */
static int sink_write(void *ctx, const char *s, size_t n) {
  sink *k = ctx;
  k->writes++;
  if (n > k->take - k->len) return -1;
  if (k->len + n > k->cap) {
    size_t cap = k->cap ? k->cap : 256;
    char *p;
    while (cap < k->len + n) cap *= 2;
    if (!(p = realloc(k->data, cap))) return -1;
    k->data = p;
    k->cap = cap;
  }
  memcpy(k->data + k->len, s, n);
  k->len += n;
  return 0;
}

/* Sets k up to take `take` bytes, and out over it. */
static void sink_init(sink *k, rg_out *out, size_t take) {
  memset(k, 0, sizeof *k);
  k->take = take;
  out->write = sink_write;
  out->ctx = k;
  out->failed = 0;
}

int main(void) {
  fixture f;
  check_counts cnt;
  size_t n = sizeof writers / sizeof writers[0];
  memset(&cnt, 0, sizeof cnt);
  rg_set_allocator(check_counting, &cnt);
  if (fixture_make(&f) != 0) {
    printf("test_outfail: the fixture could not be made\n");
    fixture_free(&f);
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    const writer *w = &writers[i];
    sink whole, k;
    rg_out out;
    rg_status st;

    /* the whole text, to an out that takes all */
    sink_init(&whole, &out, (size_t)-1);
    st = w->call(&f, &out);
    CHECK(st == RG_OK && !out.failed && whole.len > 1, "%s: to a good out: %s, %zu bytes",
          w->name, rg_status_name(st), whole.len);

    /* an out that refuses every write */
    sink_init(&k, &out, 0);
    st = w->call(&f, &out);
    CHECK(st == RG_IO && out.failed == 1, "%s: to an out that fails: %s, failed %d", w->name,
          rg_status_name(st), out.failed);
    free(k.data);

    /* an out that had failed before: nothing more is written */
    sink_init(&k, &out, (size_t)-1);
    out.failed = 1;
    st = w->call(&f, &out);
    CHECK(st == RG_IO && out.failed == 1 && k.writes == 0,
          "%s: to an out failed before: %s, %d writes", w->name, rg_status_name(st), k.writes);
    free(k.data);

    /* an out that takes half the text, then fails: the text's first bytes */
    sink_init(&k, &out, whole.len / 2);
    st = w->call(&f, &out);
    CHECK(st == RG_IO && out.failed == 1 && k.len <= whole.len / 2 &&
              (k.len == 0 || memcmp(k.data, whole.data, k.len) == 0),
          "%s: to an out that fails after %zu bytes: %s, failed %d, %zu bytes taken", w->name,
          whole.len / 2, rg_status_name(st), out.failed, k.len);
    free(k.data);

    /* the library's next allocation fails and out fails too: RG_NOMEM
    ** wins; a writer that asked for no memory gives RG_IO */
    long live = cnt.live;
    sink_init(&k, &out, 0);
    cnt.hit = 0;
    cnt.fail_at = cnt.calls + 1;
    st = w->call(&f, &out);
    cnt.fail_at = 0;
    CHECK(cnt.hit ? st == RG_NOMEM : st == RG_IO, "%s: memory %s and out both fail: %s",
          w->name, cnt.hit ? "failing" : "not asked for", rg_status_name(st));
    CHECK(cnt.live == live, "%s: memory failing leaves %ld blocks", w->name, cnt.live - live);
    free(k.data);
    free(whole.data);
  }
  fixture_free(&f);
  return check_done("test_outfail");
}
