/*
** test_api.c: the public interface (regula.h) used as an embedder would,
** with no other header of the library.
*/
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

static const char text[] =
  "ruleset \"api\"\n"
  "enum side { A \"Alpha\", B \"Bravo\" }\n"
  "enum ground { S \"Standard\", C \"Coastal\", F \"Forest\" }\n"
  "input bias: int = 1\n"
  "table t(g: ground, n: 1..2) -> int { _, 1: 10, _, 2: 20 }\n"
  "procedure pick(who: side) -> ground {\n"
  "  step \"Choose\" { note \"asking\", who }\n"
  "  return choose(who, \"where?\", {C, F})\n"
  "}\n"
  "procedure boom(n: int) -> int {\n"
  "  return t[S, n + bias]\n"
  "}\n";

/* Choose callback: checks the question, answers the option named "Forest". */
typedef struct asked {
  char who[32], prompt[32], options[64];
  int n;
} asked;

static int64_t choose_forest(void *ctx, rg_run *run, const char *who, const char *prompt,
                             uint32_t n) {
  asked *a = ctx;
  int64_t pick = -1;
  snprintf(a->who, sizeof a->who, "%s", who);
  snprintf(a->prompt, sizeof a->prompt, "%s", prompt);
  a->n++;
  for (uint32_t i = 0; i < n; i++) {
    char buf[32];
    rg_run_option(run, i, buf, sizeof buf);
    strncat(a->options, buf, sizeof a->options - strlen(a->options) - 2);
    strcat(a->options, ";");
    if (strcmp(buf, "Forest") == 0) pick = i;
  }
  return pick;
}

/* Event callback: writes "kind name=v1,v2|" for each event into ctx. */
static void log_event(void *ctx, rg_run *run, const rg_event *ev) {
  char *log = ctx, buf[64];
  size_t n = strlen(log);
  snprintf(log + n, 512 - n, "%s %s", rg_event_kind_name(ev->kind), ev->name);
  for (uint32_t i = 0; i < ev->nvalues; i++) {
    rg_run_event_value(run, i, buf, sizeof buf);
    n = strlen(log);
    snprintf(log + n, 512 - n, "%s%s", i ? "," : "=", buf);
  }
  n = strlen(log);
  snprintf(log + n, 512 - n, "@%u|", ev->line);
}

/* Diagnostic callback: counts. */
static void count_diag(void *ctx, const rg_diagnostic *d) {
  (void)d;
  ++*(int *)ctx;
}

/* rg_assumption_fn: counts the notes in the uint32_t *ctx. */
static void count_note(void *ctx, const char *path, uint32_t line, const char *what,
                       const char *text) {
  (void)path, (void)line, (void)what, (void)text;
  (*(uint32_t *)ctx)++;
}

/* rg_event_fn: writes "kind|text" and a newline per event into the rg_buf ctx. */
static void text_event(void *ctx, rg_run *run, const rg_event *ev) {
  rg_buf *b = ctx;
  rg_printf(&b->out, "%s|", rg_event_kind_name(ev->kind));
  rg_run_event_text(run, &b->out);
  rg_putc(&b->out, '\n');
}

int main(void) {
  rg_rules *r = NULL;
  char buf[256];
  const char *keys[] = { "coastal", "2" };

  CHECK(strcmp(rg_status_name(RG_BAD_RULES), "errors in the rules") == 0 &&
        strcmp(rg_status_name((rg_status)99), "unknown status") == 0, "api-1 status names");
  CHECK(strcmp(rg_version(), REGULA_VERSION) == 0, "api-1 version");
  {
    /* a bad byte and a NUL each become U+FFFD (EF BF BD); valid text is kept */
    size_t n = 0;
    char *t = rg_utf8_repair("a\x98" "b\0\xc3\xa9", 6, &n);
    CHECK(t && n == 10 && memcmp(t, "a\xef\xbf\xbd" "b\xef\xbf\xbd\xc3\xa9", 11) == 0,
          "api-1 rg_utf8_repair");
    rg_free(t);
  }

  /* api-1: a compiled module that is not there is RG_NOT_FOUND (a rule
  ** file: api-6). */
  CHECK(rg_rules_load("/nonexistent/api.rbc", NULL, &r) == RG_NOT_FOUND && !r,
        "api-1 missing module");

  /* api-2: accessors and query. */
  CHECK(rg_rules_compile("api.rules", text, strlen(text), NULL, &r) == RG_OK, "api-2 compile");
  if (!r) { printf("test_api: %d passed, %d failed\n", passed, failed + 1); return 1; }
  CHECK(strcmp(rg_rules_name(r), "api") == 0, "api-2 name");
  int p = rg_rules_find(r, RG_PROC, "boom");
  CHECK(p >= 0 && rg_rules_arity(r, RG_PROC, p) == 1 &&
        strcmp(rg_rules_param(r, p, 0), "n") == 0 &&
        strcmp(rg_rules_type(r, RG_PROC, p, 0, buf, sizeof buf), "int") == 0, "api-2 params");
  CHECK(rg_rules_find(r, RG_PROC, "nope") == -1 && rg_rules_param(r, p, 1) == NULL, "api-2 missing");
  CHECK(rg_rules_find(r, RG_INPUT, "bias") == 0 && rg_rules_count(r, RG_INPUT) == 1, "api-2 inputs");
  CHECK(rg_rules_find(r, RG_TABLE, "t") == 0 && rg_rules_arity(r, RG_TABLE, 0) == 2, "api-2 tables");
  CHECK(rg_rules_query(r, "t", keys, 2, buf, sizeof buf) == RG_OK && strcmp(buf, "20") == 0,
        "api-2 query '%s'", buf);
  CHECK(rg_rules_query(r, "t", keys, 1, buf, sizeof buf) == RG_BAD_VALUE && buf[0] == '\0' &&
        strncmp(rg_rules_errmsg(r), "table 't' takes 2 keys (", 24) == 0, "api-2 arity '%s'",
        rg_rules_errmsg(r));
  CHECK(rg_rules_query(r, "u", keys, 1, buf, sizeof buf) == RG_NOT_FOUND &&
        strcmp(rg_rules_errmsg(r), "no table 'u'") == 0, "api-2 no table '%s'", rg_rules_errmsg(r));

  /* api-3: the caller answers; the choice and the rest arrive as events. */
  {
    asked a;
    char log[512] = "";
    rg_run_options o = { .size = sizeof o,
                         .policy = { .kind = RG_CHOOSE_CALLBACK, .choose = choose_forest,
                                     .choose_ctx = &a },
                         .event = log_event, .event_ctx = log };
    rg_run *run = NULL;
    const char *args[] = { "B" };
    memset(&a, 0, sizeof a);
    CHECK(rg_run_new(r, &o, &run) == RG_OK, "api-3 new");
    CHECK(run && rg_run_call(run, "pick", args, 1) == RG_OK, "api-3 call");
    if (run) rg_run_result(run, buf, sizeof buf);
    CHECK(strcmp(buf, "Forest") == 0, "api-3 result '%s'", buf);
    CHECK(a.n == 1 && strcmp(a.who, "Bravo") == 0 && strcmp(a.prompt, "where?") == 0 &&
          strcmp(a.options, "Coastal;Forest;") == 0, "api-3 question %s|%s|%s", a.who, a.prompt,
          a.options);
    CHECK(strcmp(log, "step Choose@7|note asking=Bravo@7|choice where?=Forest,Bravo@8|") == 0,
          "api-3 events %s", log);
    rg_run_free(run);
  }

  /* api-4: a wrong answer from an answers text stops the run, named. */
  {
    static const char answers[] = "# comment\nbeach\n";
    rg_run_options o = { .size = sizeof o,
                         .policy = { .kind = RG_CHOOSE_ANSWERS, .answers = answers,
                                     .answers_len = sizeof answers - 1,
                                     .answers_name = "ans.txt" } };
    rg_run *run = NULL;
    const char *args[] = { "A" };
    const char *msg;
    CHECK(rg_run_new(r, &o, &run) == RG_OK, "api-4 new");
    CHECK(run && rg_run_call(run, "pick", args, 1) == RG_RUN_ERROR, "api-4 stops");
    msg = run ? rg_run_errmsg(run) : "";
    CHECK(strncmp(msg, "ans.txt:2: 'beach' is not an option", 35) == 0, "api-4 message '%s'", msg);
    rg_run_free(run);
  }

  /* api-5: inputs (set on a copy), bad arguments, and a runtime error with
  ** its position. */
  {
    rg_run *run = NULL;
    rg_rules *c = NULL;
    const char *one[] = { "1" }, *bad[] = { "x" };
    const char *msg;
    rg_place at;
    CHECK(rg_run_new(r, NULL, &run) == RG_OK, "api-5 new");
    if (!run) return 1;
    CHECK(rg_run_call(run, "boom", one, 1) == RG_OK, "api-5 call");
    rg_run_result(run, buf, sizeof buf);
    CHECK(strcmp(buf, "20") == 0, "api-5 result '%s'", buf);
    CHECK(rg_run_call(run, "boom", bad, 1) == RG_BAD_VALUE, "api-5 bad argument");
    CHECK(rg_run_call(run, "boom", NULL, 0) == RG_BAD_VALUE, "api-5 arity");
    CHECK(strncmp(rg_run_errmsg(run), "procedure 'boom' takes 1 argument", 33) == 0,
          "api-5 arity message '%s'", rg_run_errmsg(run));
    rg_run_free(run);
    run = NULL;
    CHECK(rg_rules_copy(r, &c) == RG_OK, "api-5 copy");
    if (!c) return 1;
    CHECK(rg_rules_set(c, "bias=many") == RG_BAD_VALUE, "api-5 bad input");
    CHECK(rg_rules_set(c, "nope=1") == RG_NOT_FOUND &&
          strncmp(rg_rules_errmsg(c), "no input 'nope'", 15) == 0, "api-5 no input '%s'",
          rg_rules_errmsg(c));
    CHECK(rg_rules_set(c, "bias=5") == RG_OK, "api-5 input");
    CHECK(rg_run_new(c, NULL, &run) == RG_OK, "api-5 new on the copy");
    if (!run) return 1;
    CHECK(rg_run_call(run, "boom", one, 1) == RG_RUN_ERROR, "api-5 runtime error");
    msg = rg_run_errmsg(run);
    CHECK(rg_run_where(run, &at) == 1 && strcmp(at.path, "api.rules") == 0 && at.line == 11 &&
          at.col == 10 && strstr(msg, "outside 1..2") != NULL, "api-5 error %s:%u:%u: %s",
          at.path, at.line, at.col, msg);
    rg_run_free(run);
    rg_rules_free(c);
  }
  rg_rules_free(r);

  /* api-6: bad rules give RG_BAD_RULES and their diagnostics. */
  {
    int n = 0;
    rg_compile_options co = { .size = sizeof co, .diagnostic = count_diag, .diagnostic_ctx = &n };
    r = (rg_rules *)1;
    CHECK(rg_rules_compile("bad.rules", "const a = b\n", 12, &co, &r) == RG_BAD_RULES && r == NULL &&
          n == 1, "api-6 bad rules, %d diagnostics", n);
    /* a file that is not there is RG_NOT_FOUND (with its diagnostic), not
    ** errors in the rules */
    CHECK(rg_rules_load("/nonexistent/x.rules", &co, &r) == RG_NOT_FOUND && n == 2,
          "api-6 missing file, %d diagnostics", n);
  }

  /* api-7: what `regula check`, build, dis, query and test print (ruleset.c) */
  {
    static const char t7[] =
      "record pt { x: int, y: int }\n"
      "const c: int = 4 assumed \"a guess\"\n"
      "table at(n: 1..2) -> pt { 1: { x: 1, y: 2 }, 2: { x: 3, y: 4 } }\n"
      "test \"holds\" { expect at[1].x == 1 }\n"
      "test \"fails\" { expect at[2].y == 5 }\n";
    rg_compile_options co = { .size = sizeof co, .keep_sources = 1 };
    rg_rules *r7 = NULL, *back = NULL;
    rg_buf b;
    const char *k1[] = { "2" };
    char path[] = "/tmp/regula-api7-XXXXXX";
    uint32_t np = 0, nf = 0, n;
    CHECK(rg_rules_compile("t7.rules", t7, strlen(t7), &co, &r7) == RG_OK, "api-7 compile");
    if (!r7) return 1;
    rg_buf_init(&b);
    /* a record cell: one "field: value" line per field */
    CHECK(rg_rules_query_write(r7, "at", k1, 1, &b.out) == RG_OK && b.data &&
          strcmp(b.data, "x: 3\ny: 4\n") == 0, "api-7 query_write '%s'", b.data ? b.data : "");
    CHECK(rg_rules_query_write(r7, "at", k1, 0, &b.out) == RG_BAD_VALUE &&
          b.len == 10, "api-7 query_write arity writes nothing");
    rg_buf_free(&b);
    n = rg_rules_assumptions(r7, count_note, &np);
    CHECK(n == 1 && np == 1, "api-7 one assumption (%u)", n);
    np = 0;
    rg_buf_init(&b);
    CHECK(rg_rules_test(r7, NULL, &b.out, &np, &nf) == RG_OK && np == 1 && nf == 1 && b.data &&
          strstr(b.data, "t7.rules:5: FAIL test \"fails\": expected 5, got 4") != NULL,
          "api-7 test '%s'", b.data ? b.data : "");
    rg_buf_free(&b);
    rg_buf_init(&b);
    CHECK(rg_rules_dis(r7, 0, &b.out) == RG_OK && b.data && strstr(b.data, "procedure "),
          "api-7 dis");
    rg_buf_free(&b);
    /* saved and loaded back: the same cells, and no sources (no notes) */
    {
      int fd = mkstemp(path);
      if (fd >= 0) close(fd);
      CHECK(fd >= 0 && rg_rules_save(r7, path) == RG_OK, "api-7 save %s", rg_rules_errmsg(r7));
      CHECK(rg_rules_load(path, &co, &back) == RG_OK, "api-7 load back");
      rg_buf_init(&b);
      CHECK(back && rg_rules_query_write(back, "at", k1, 1, &b.out) == RG_OK &&
            b.data && strcmp(b.data, "x: 3\ny: 4\n") == 0, "api-7 query the module");
      CHECK(back && rg_rules_assumptions(back, count_note, &np) == 0, "api-7 a module has no notes");
      rg_buf_free(&b);
      rg_rules_free(back);
      unlink(path);
    }
    CHECK(rg_rules_save(r7, "/nonexistent/dir/x.rbc") == RG_IO &&
          strncmp(rg_rules_errmsg(r7), "/nonexistent/dir/x.rbc: cannot ", 31) == 0,
          "api-7 save fails with a reason '%s'", rg_rules_errmsg(r7));
    rg_rules_free(r7);
  }

  /* api-8: what `regula call` prints (call.c): notes and failed expects as
  ** they happen, the result, a runtime error with its source line */
  {
    static const char t8[] =
      "record pt { x: int, y: int }\n"
      "procedure go(n: int) -> pt {\n"
      "  note \"got\", n\n"
      "  let r = roll 3d6\n"
      "  expect n == 2\n"
      "  return { x: n, y: 10 / (n - 1) }\n"
      "}\n";
    rg_compile_options co = { .size = sizeof co, .keep_sources = 1 };
    rg_rules *r8 = NULL;
    rg_buf ev, res;
    rg_run *run = NULL;
    const char *one[] = { "1" }, *three[] = { "3" };
    rg_run_options o = { .size = sizeof o, .seeding = RG_SEEDING_CALL,
                         .policy = { .kind = RG_CHOOSE_FIRST },
                         .event = text_event, .event_ctx = &ev,
                         .events = 1u << RG_EVENT_NOTE | 1u << RG_EVENT_EXPECT_FAIL };
    CHECK(rg_rules_compile("t8.rules", t8, strlen(t8), &co, &r8) == RG_OK, "api-8 compile");
    if (!r8) return 1;
    rg_buf_init(&ev);
    rg_buf_init(&res);
    CHECK(rg_run_new(r8, &o, &run) == RG_OK, "api-8 new");
    if (!run) return 1;
    CHECK(rg_run_call(run, "go", three, 1) == RG_OK && rg_run_failed_expects(run) == 1,
          "api-8 call");
    rg_run_result_write(run, &res.out);
    /* 10 / (3 - 1) = 5; the roll is not delivered (not asked for) */
    CHECK(res.data && strcmp(res.data, "x: 3\ny: 5\n") == 0, "api-8 result '%s'",
          res.data ? res.data : "");
    CHECK(ev.data && strcmp(ev.data, "note|note got: 3\nexpect_fail|expected 2, got 3\n") == 0,
          "api-8 events '%s'", ev.data ? ev.data : "");
    CHECK(rg_run_event_text(run, &res.out) == RG_BAD_VALUE, "api-8 event text outside a callback");
    rg_buf_free(&res);
    rg_buf_init(&res);
    /* 10 / (1 - 1): the error at line 6, its source line and a caret */
    CHECK(rg_run_call(run, "go", one, 1) == RG_RUN_ERROR, "api-8 runtime error");
    {
      const char *msg = rg_run_errmsg(run);
      rg_place at;
      rg_run_where(run, &at);
      rg_rules_error_write(r8, msg, at.path, at.line, at.col, &res.out);
      CHECK(res.data && strncmp(res.data, "t8.rules:6:", 11) == 0 &&
            strstr(res.data, "\n      return { x: n, y: 10 / (n - 1) }\n") &&
            strstr(res.data, "^"), "api-8 error with its line '%s'", res.data ? res.data : "");
      rg_buf_free(&res);
      rg_buf_init(&res);
      rg_rules_error_write(r8, "boom", "?", 0, 0, &res.out);
      CHECK(res.data && strcmp(res.data, "regula: error: boom\n") == 0, "api-8 error, no place");
    }
    rg_buf_free(&res);
    rg_buf_free(&ev);
    rg_run_free(run);
    rg_rules_free(r8);
  }

  /* api-9: rules set up for runs (rgi_rules_with): an input and a die set in
  ** a copy, the rules themselves unchanged.  By hand: COIN=heads:2 makes
  ** every toss heads; the base's fair coin shows tails within ten seeds
  ** (all heads: 1 in 1024); n=3 makes `howmany` return 3 and the base 1. */
  {
    static const char t9[] =
      "ruleset \"setup\"\n"
      "enum side { heads, tails }\n"
      "enum colour { BLACK, RED }\n"
      "dice COIN: side = { heads: 1, tails: 1 }\n"
      "deck bag: colour = { BLACK: 1, RED: 1 }\n"
      "input n: int = 1\n"
      "procedure toss() -> side { return roll COIN }\n"
      "procedure pull() -> colour { return draw bag }\n"
      "procedure howmany() -> int { return n }\n"
      "procedure ask() -> side { return choose(heads, \"where?\", {heads, tails}) }\n";
    rg_rules *r9 = NULL, *c9 = NULL, *bad = NULL;
    rg_run *run = NULL;
    rg_buf ph;
    int tails = 0, heads = 0;
    rg_buf_init(&ph);
    CHECK(rg_rules_compile("t9.rules", t9, strlen(t9), NULL, &r9) == RG_OK, "api-9 compile");
    CHECK(r9 && rg_rules_copy(r9, &c9) == RG_OK, "api-9 copy");
    CHECK(rg_rules_set(r9, "n=2") == RG_BAD_VALUE &&
          strcmp(rg_rules_errmsg(r9), "the rules are not a copy made by rg_rules_copy") == 0,
          "api-9 rules are not a copy");
    CHECK(rg_rules_set(c9, "n = 3") == RG_OK, "api-9 n = 3");
    CHECK(rg_rules_set(c9, "COIN=heads:2") == RG_OK, "api-9 COIN");
    CHECK(rg_rules_set(c9, "n=x") == RG_BAD_VALUE &&
          strncmp(rg_rules_errmsg(c9), "input 'n' (int): ", 17) == 0, "api-9 n=x '%s'",
          rg_rules_errmsg(c9));
    CHECK(rg_rules_set(c9, "nope=1") == RG_NOT_FOUND &&
          strcmp(rg_rules_errmsg(c9), "no input 'nope'; inputs: n: int; dice and decks: COIN, bag") == 0,
          "api-9 nope '%s'", rg_rules_errmsg(c9));
    CHECK(rg_rules_set_lines(c9, "# c\n\nn=4\nbad\n", 13, "in.txt") == RG_BAD_VALUE &&
          strncmp(rg_rules_errmsg(c9), "in.txt:4: expected NAME=VALUE", 29) == 0,
          "api-9 lines '%s'", rg_rules_errmsg(c9));
    CHECK(rg_rules_set(c9, "n=3") == RG_OK, "api-9 n=3 again");
    for (uint64_t seed = 1; seed <= 10; seed++) {
      rg_run_options o = { .size = sizeof o, .seed = seed };
      char b[32] = "";
      rg_run_new(c9, &o, &run);
      if (run && rg_run_call(run, "toss", NULL, 0) == RG_OK && rg_run_result(run, b, sizeof b) == RG_OK)
        heads += strcmp(b, "heads") == 0;
      rg_run_free(run);
      run = NULL;
      rg_run_new(r9, &o, &run);
      if (run && rg_run_call(run, "toss", NULL, 0) == RG_OK && rg_run_result(run, b, sizeof b) == RG_OK)
        tails += strcmp(b, "tails") == 0;
      rg_run_free(run);
      run = NULL;
    }
    CHECK(heads == 10 && tails > 0, "api-9 the copy's coin: %d heads of 10; the base's: %d tails",
          heads, tails);
    rg_run_new(c9, NULL, &run);
    CHECK(run && rg_run_call(run, "howmany", NULL, 0) == RG_OK &&
          rg_run_result(run, buf, sizeof buf) == RG_OK && strcmp(buf, "3") == 0,
          "api-9 the copy's n '%s'", buf);
    rg_run_free(run);
    rg_run_new(r9, NULL, &run);
    CHECK(run && rg_run_call(run, "howmany", NULL, 0) == RG_OK &&
          rg_run_result(run, buf, sizeof buf) == RG_OK && strcmp(buf, "1") == 0,
          "api-9 the base's n '%s'", buf);
    rg_run_free(run);
    run = NULL;
    CHECK(rg_rules_placeholders(c9, "toss", 0, &ph.out) == 1 && ph.data &&
          strcmp(ph.data, "dice COIN (set)") == 0, "api-9 placeholders '%s'", ph.data ? ph.data : "");
    rg_buf_free(&ph);
    CHECK(rg_rules_placeholders(c9, "toss", 1, &ph.out) == 1 && ph.data &&
          strcmp(ph.data, "[{\"kind\":\"dice\",\"name\":\"COIN\",\"given\":\"set\"}]") == 0,
          "api-9 placeholders JSON '%s'", ph.data ? ph.data : "");
    rg_buf_free(&ph);
    CHECK(rg_rules_placeholders(c9, "pull", 0, &ph.out) == 0 && !ph.data &&
          rg_rules_placeholders(r9, "toss", 0, &ph.out) == 0 &&
          rg_rules_placeholders(c9, "nope", 0, &ph.out) == 0, "api-9 no placeholders");
    /* the log of a run of the copy names the die set, after its first line */
    rg_run_new(c9, NULL, &run);
    if (run) rg_run_log(run, &ph.out, 0, NULL, NULL);
    CHECK(run && rg_run_call(run, "toss", NULL, 0) == RG_OK && ph.data &&
          strncmp(ph.data, "run toss: seed 0, policy random, dice random\n"
                           "placeholders: dice COIN (set)\n", 75) == 0,
          "api-9 the log '%s'", ph.data ? ph.data : "");
    rg_run_free(run);
    run = NULL;
    rg_buf_free(&ph);
    /* a game's transcript names the settings given one by one */
    {
      rg_game *g = NULL;
      rg_game_options go = { .size = sizeof go, .proc = "ask", .ask_choices = 1, .title = "t9" };
      CHECK(rg_game_new(c9, &go, &g) == RG_OK, "api-9 game");
      if (g) rg_game_transcript(g, &ph.out);
      CHECK(ph.data && strstr(ph.data, "# set n = 3\n# set COIN=heads:2\n# set n=3\n"),
            "api-9 transcript '%s'", ph.data ? ph.data : "");
      rg_game_free(g);
      rg_buf_free(&ph);
    }
    CHECK(rg_rules_copy(r9, &bad) == RG_OK, "api-9 a second copy");
    rg_rules_free(bad);       /* never set: freed alone */
    rg_rules_free(c9);
    rg_rules_free(r9);
  }

  /* api-11: policy names, read by the library alone (rg_policy_parse): the
  ** plain ones, answers naming a file, a strategy of the rules, and what a
  ** policy may be when the name is none of them. */
  {
    static const char t11[] =
      "ruleset \"pol\"\n"
      "enum side { A, B }\n"
      "procedure pick() -> side { return choose(A, \"which?\", {A, B}) }\n"
      "strategy bold { \"which?\": B }\n"
      "strategy meek { \"which?\": A }\n";
    rg_rules *r11 = NULL;
    rg_policy p;
    CHECK(rg_rules_compile("t11.rules", t11, strlen(t11), NULL, &r11) == RG_OK, "api-11 compile");
    if (!r11) return 1;
    CHECK(rg_policy_parse(r11, "random", &p) == RG_OK && p.kind == RG_CHOOSE_RANDOM &&
          !p.strategy && !p.answers_name, "api-11 random");
    CHECK(rg_policy_parse(NULL, "first", &p) == RG_OK && p.kind == RG_CHOOSE_FIRST, "api-11 first");
    CHECK(rg_policy_parse(NULL, "answers:my file.txt", &p) == RG_OK &&
          p.kind == RG_CHOOSE_ANSWERS && strcmp(p.answers_name, "my file.txt") == 0 && !p.answers,
          "api-11 answers");
    CHECK(rg_policy_parse(r11, "meek", &p) == RG_OK && p.kind == RG_CHOOSE_RANDOM &&
          p.strategy && strcmp(p.strategy, "meek") == 0, "api-11 a strategy");
    CHECK(rg_policy_parse(NULL, "meek", &p) == RG_NOT_FOUND && !p.strategy,
          "api-11 no rules, no strategy");
    CHECK(rg_policy_parse(r11, "answers:", &p) == RG_NOT_FOUND &&
          strcmp(rg_rules_errmsg(r11), "a policy is random, first, answers:FILE or a strategy of "
                                       "the rules (bold, meek), not 'answers:'") == 0,
          "api-11 what a policy may be: %s", rg_rules_errmsg(r11));
    CHECK(rg_policy_parse(r11, NULL, &p) == RG_BAD_VALUE, "api-11 NULL");
    rg_rules_free(r11);
  }

  /* api-10: strategies by name, a stopped run, and results side by side.
  ** By hand: `pair` returns { n: bias, c: 2 * bias }; bias 1 and 3 give
  ** rows "n 1 3" and "c 2 6", both marked as differing; the columns are one
  ** character wide (the names a, b), the names of the rows five. */
  {
    static const char t10[] =
      "ruleset \"pairs\"\n"
      "enum side { A }\n"
      "input bias: int = 1\n"
      "record pr { n: int, c: int }\n"
      "procedure pair() -> pr {\n"
      "  let x = bias\n"
      "  return { n: x, c: 2 * x }\n"
      "}\n"
      "procedure ask() -> int { return choose(A, \"how many?\", 1, 2) }\n";
    rg_rules *r10 = NULL;
    rg_run *runs[2] = { NULL, NULL };
    const char *names[] = { "a", "b" };
    rg_run_options o = { .size = sizeof o, .policy = { .strategy = "bold" } };
    rg_rules *c10 = NULL;
    rg_buf out;
    rg_buf_init(&out);
    CHECK(rg_rules_compile("t10.rules", t10, strlen(t10), NULL, &r10) == RG_OK, "api-10 compile");
    CHECK(r10 && rg_rules_count(r10, RG_STRATEGY) == 0 && rg_rules_find(r10, RG_STRATEGY, "bold") == -1 &&
          rg_rules_item(r10, RG_STRATEGY, 0) == NULL, "api-10 no strategies");
    CHECK(rg_run_new(r10, &o, &runs[0]) == RG_NOT_FOUND && !runs[0], "api-10 no strategy 'bold'");
    o.policy.strategy = NULL;
    o.policy.kind = RG_CHOOSE_ANSWERS;
    o.policy.answers = "# none\n";
    o.policy.answers_len = 7;
    rg_run_new(r10, &o, &runs[0]);
    CHECK(runs[0] && rg_run_call(runs[0], "ask", NULL, 0) == RG_RUN_ERROR &&
          rg_run_stopped(runs[0]), "api-10 stopped: %s", runs[0] ? rg_run_errmsg(runs[0]) : "");
    CHECK(rg_runs_side_by_side((const rg_run *const *)runs, names, 1, 1, "random", 0, &out.out) == RG_BAD_VALUE,
          "api-10 side by side needs results");
    rg_run_free(runs[0]);
    rg_run_new(r10, NULL, &runs[0]);
    if (rg_rules_copy(r10, &c10) == RG_OK) rg_rules_set(c10, "bias=3");
    if (c10) rg_run_new(c10, NULL, &runs[1]);
    CHECK(runs[0] && runs[1] && rg_run_call(runs[0], "pair", NULL, 0) == RG_OK &&
          rg_run_call(runs[1], "pair", NULL, 0) == RG_OK && !rg_run_stopped(runs[1]),
          "api-10 two runs");
    CHECK(rg_runs_side_by_side((const rg_run *const *)runs, names, 2, 1, "random", 0, &out.out) == RG_OK && out.data &&
          strcmp(out.data, "run pair of 2 variants: seed 1, policy random, common random numbers "
                           "by step; * marks the rows that differ\n\n"
                           "         a  b\n"
                           "* n      1  3\n"
                           "* c      2  6\n") == 0,
          "api-10 side by side '%s'", out.data ? out.data : "");
    rg_buf_free(&out);
    CHECK(rg_runs_side_by_side((const rg_run *const *)runs, names, 2, 1, "first", 1, &out.out) == RG_OK && out.data &&
          strcmp(out.data, "{\"event\":\"variants\",\"format\":2,\"procedure\":\"pair\",\"seed\":\"1\","
                           "\"policy\":\"first\",\"variants\":[\"a\",\"b\"]}\n"
                           "{\"event\":\"summary\",\"variant\":\"a\",\"result\":{\"n\":1,\"c\":2}}\n"
                           "{\"event\":\"summary\",\"variant\":\"b\",\"result\":{\"n\":3,\"c\":6}}\n") == 0,
          "api-10 side by side JSON '%s'", out.data ? out.data : "");
    rg_buf_free(&out);
    rg_run_free(runs[0]);
    rg_run_free(runs[1]);
    rg_rules_free(c10);
    rg_rules_free(r10);
  }

  /* api-11: what a front end asks the rules for (a table's keys, an
  ** input's default as the log writes it, strategies and their notes, a
  ** constant described); games that cannot be made; options whose size is
  ** too small to hold their size field (were copied with a negative
  ** length: found by a coverage test). */
  {
    static const char items[] =
      "ruleset \"items\"\n"
      "unit BW \"base width\"\n"
      "enum side { A \"Alpha\", B \"Bravo\" }\n"
      "enum ground { S \"Standard\", C \"Coastal\" }\n"
      "input lands: set ground = {S, C}\n"
      "input who: side = B\n"
      "const reach = 6BW*\n"
      "const plain = 3\n"
      "table cover(g: ground, n: 1..3) -> int { _, 1..3: 1 }\n"
      "strategy bold \"always Alpha\" { \"who?\": A }\n"
      "default strategy calm { \"who?\": B }\n"
      "procedure main() -> side { return choose(A, \"who?\", {A, B}) }\n"
      "procedure two(a: int, b: ground) -> int { return a }\n";
    rg_rules *r11 = NULL;
    rg_game *g = NULL;
    rg_run *run = NULL;
    rg_buf out;
    char k0[64], k1[64], v0[64], v1[64];
    CHECK(rg_rules_compile("items.rules", items, strlen(items), NULL, &r11) == RG_OK, "api-11 compile");
    if (r11) {
      CHECK(rg_rules_type(r11, RG_TABLE, 0, 0, k0, sizeof k0) && strcmp(k0, "g: ground") == 0 &&
            rg_rules_type(r11, RG_TABLE, 0, 1, k1, sizeof k1) && strcmp(k1, "n: 1..3") == 0 &&
            !rg_rules_type(r11, RG_TABLE, 0, 2, buf, sizeof buf) &&
            !rg_rules_type(r11, RG_STRATEGY, 0, -1, buf, sizeof buf), "api-11 keys '%s' '%s'", k0, k1);
      CHECK(rg_rules_input_value(r11, 0, v0, sizeof v0) && strcmp(v0, "Standard, Coastal") == 0 &&
            rg_rules_input_value(r11, 1, v1, sizeof v1) && strcmp(v1, "Bravo") == 0 &&
            !rg_rules_input_value(r11, 2, buf, sizeof buf) && !rg_rules_input_value(r11, -1, buf, sizeof buf),
            "api-11 input values '%s' '%s'", v0, v1);
      CHECK(strcmp(rg_rules_strategy_doc(r11, 0), "always Alpha") == 0 &&
            strcmp(rg_rules_strategy_doc(r11, 1), "") == 0 && !rg_rules_strategy_doc(r11, 2) &&
            rg_rules_default_strategy(r11) == 1, "api-11 strategies");
      rg_buf_init(&out);
      CHECK(rg_rules_describe(r11, "reach", &out.out) == RG_OK && out.data &&
            strcmp(out.data, "reach = 6 BW*\n") == 0, "api-11 a starred constant '%s'", out.data ? out.data : "");
      rg_buf_free(&out);
      rg_buf_init(&out);
      CHECK(rg_rules_describe(r11, "plain", &out.out) == RG_OK && out.data &&
            strcmp(out.data, "plain = 3\n") == 0, "api-11 a constant '%s'", out.data ? out.data : "");
      rg_buf_free(&out);
      rg_buf_init(&out);
      CHECK(rg_rules_describe(r11, "nothing", &out.out) == RG_NOT_FOUND && !out.data, "api-11 nothing described");
      rg_buf_free(&out);
      {
        rg_game_options go = { .size = sizeof go, .proc = "two" };
        CHECK(rg_game_new(r11, &go, &g) == RG_NOT_FOUND && !g &&
              strcmp(rg_rules_errmsg(r11), "procedure 'two' takes parameters: a game plays one that takes none") == 0,
              "api-11 a game of a procedure with parameters: '%s'", rg_rules_errmsg(r11));
        go.proc = "nope";
        CHECK(rg_game_new(r11, &go, &g) == RG_NOT_FOUND && !g &&
              strcmp(rg_rules_errmsg(r11), "no procedure 'nope'") == 0, "api-11 a game of no procedure");
        go.proc = NULL;
        go.policy.strategy = "bold";
        CHECK(rg_game_new(r11, &go, &g) == RG_BAD_VALUE && !g &&
              strcmp(rg_rules_errmsg(r11), "a game's choices are asked, random or first") == 0,
              "api-11 a game with a strategy");
      }
      {
        rg_game_options small = { .size = 3 };
        rg_run_options tiny = { .size = 1 };
        CHECK(rg_game_new(r11, &small, &g) == RG_BAD_VALUE && !g &&
              strncmp(rg_rules_errmsg(r11), "game options without their size", 31) == 0,
              "api-11 game options of size 3: '%s'", rg_rules_errmsg(r11));
        CHECK(rg_run_new(r11, &tiny, &run) == RG_BAD_VALUE && !run, "api-11 run options of size 1");
      }
      rg_game_free(g);
      rg_run_free(run);
      rg_rules_free(r11);
    }
  }

  return check_done("test_api");
}
