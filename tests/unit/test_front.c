/*
** test_front.c: the "Front ends" section of regula.h (the regula program's
** texts for other front ends: the page), used with no other header of the
** library.  Expected texts are written from the formats README.md gives.
*/
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* A fixed-size text an rg_out appends to. */
typedef struct sbuf {
  rg_out out;
  char s[8192];
  size_t n;
} sbuf;

/* rg_out write for an sbuf ctx: fails when it is full. */
static int sbuf_write(void *ctx, const char *s, size_t n) {
  sbuf *b = ctx;
  if (b->n + n >= sizeof b->s) return -1;
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
  return 0;
}

/* Returns whether s starts with prefix. */
static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Empties b. */
static void sbuf_init(sbuf *b) {
  memset(b, 0, sizeof *b);
  b->out.write = sbuf_write;
  b->out.ctx = b;
}

static const char text[] =
  "ruleset \"front\"\n"                                           /* 1 */
  "enum side { A \"Alpha\", B \"Bravo\" }\n"                      /* 2 */
  "enum ground { S \"Standard\", C \"Coastal\" }\n"               /* 3 */
  "enum colour { BLACK, RED }\n"                                  /* 4 */
  "deck bag: colour = { BLACK: 2, RED: 1 }\n"                     /* 5 */
  "table t(ground) -> int { S: 1, C: 2 }\n"                       /* 6 */
  "procedure pick() -> ground {\n"                                /* 7 */
  "  step \"Choose\" { note \"asking\", A }\n"                    /* 8 */
  "  return choose(A, \"where?\", {S, C})\n"                      /* 9 */
  "}\n"                                                           /* 10 */
  "procedure chance() -> int {\n"                                   /* 11 */
  "  let c = draw bag\n"                                          /* 12 */
  "  return roll d6 + roll 2d6\n"                                 /* 13 */
  "}\n"                                                           /* 14 */
  "procedure picture() {\n"                                       /* 15 */
  "  canvas(\"board\", 4, 2, \"a board\")\n"                      /* 16 */
  "  rect(0, 0, 1, 1, \"\", \"x\")\n"                             /* 17 */
  "}\n"                                                           /* 18 */
  "procedure coin() -> bool { return roll d6 > 3 }\n"             /* 19 */
  "procedure broken() -> int { return t[S] / 0 }\n"               /* 20 */
  "test \"ok\" { expect t[S] == 1 }\n"                            /* 21 */
  "test \"wrong\" { expect t[C] == 3 }\n"                         /* 22 */
  "procedure early() { circle(1, 1, 3, \"\", \"x\") }\n";             /* 23 */

/* Dice callback: answers "RED" for the card and 4 for the die, recording
** the prompts and options seen. */
static int64_t read_dice(void *ctx, rg_run *run, const char *who, const char *prompt,
                         uint32_t n) {
  char *seen = ctx, buf[64];
  size_t len = strlen(seen);
  snprintf(seen + len, 1024 - len, "%s%s:", who, prompt);
  for (uint32_t i = 0; i < n; i++) {
    rg_run_option(run, i, buf, sizeof buf);
    len = strlen(seen);
    snprintf(seen + len, 1024 - len, "%s%s", i ? "," : "", buf);
  }
  len = strlen(seen);
  snprintf(seen + len, 1024 - len, "|");
  for (uint32_t i = 0; i < n; i++) {
    rg_run_option(run, i, buf, sizeof buf);
    if (strcmp(buf, "RED") == 0 || strcmp(buf, "4") == 0 || strcmp(buf, "2 5") == 0) return i;
  }
  return -1;
}

int main(void) {
  rg_rules *r = NULL, *r2 = NULL;
  rg_run *run = NULL;
  rg_run_options o;
  sbuf b;
  char seen[1024] = "";
  uint32_t np = 0, nf = 0, changes = 0;

  CHECK(rg_rules_compile("front", text, sizeof text - 1, NULL, &r) == RG_OK, "compiles");
  if (!r) return 1;

  /* ---- the log: `regula run --proc pick --seed 7 --policy first` ---- */
  o = RG_OPTIONS(rg_run_options);
  o.seed = 7;
  o.policy.kind = RG_CHOOSE_FIRST;
  sbuf_init(&b);
  CHECK(rg_run_new(r, &o, &run) == RG_OK, "run");
  rg_run_log(run, &b.out, 0, NULL, NULL);
  CHECK(rg_run_call(run, "pick", NULL, 0) == RG_OK, "pick runs");
  CHECK(strcmp(b.s,
               "run pick: seed 7, policy first, dice random\n"
               "\n"
               "== Choose\n"
               "  note asking: Alpha  [front:8]\n"
               "  Alpha chooses Standard (where?)  [front:9]\n"
               "\n"
               "== Summary\n"
               "Standard\n") == 0, "text log:\n%s", b.s);
  /* the labels, JSON, and no log */
  sbuf_init(&b);
  rg_run_log(run, &b.out, 1, "ask", "ask");
  CHECK(rg_run_call(run, "pick", NULL, 0) == RG_OK, "pick runs again");
  CHECK(starts(b.s, "{\"event\":\"run\",\"format\":2,\"procedure\":\"pick\",\"seed\":\"7\","
                    "\"policy\":\"ask\",\"dice\":\"ask\"}\n") &&
        strstr(b.s, "{\"event\":\"summary\",\"result\":{\"code\":\"S\",\"name\":\"Standard\"}}\n"),
        "json log:\n%s", b.s);
  sbuf_init(&b);
  rg_run_log(run, NULL, 0, NULL, NULL);
  CHECK(rg_run_call(run, "pick", NULL, 0) == RG_OK && b.n == 0, "no log: %s", b.s);
  rg_run_free(run);

  /* ---- dice and cards read by the caller, as --dice ask asks them ---- */
  o = RG_OPTIONS(rg_run_options);
  o.dice = read_dice;
  o.dice_ctx = seen;
  sbuf_init(&b);
  CHECK(rg_run_new(r, &o, &run) == RG_OK, "run with dice read");
  rg_run_log(run, &b.out, 0, NULL, NULL);
  CHECK(rg_run_call(run, "chance", NULL, 0) == RG_OK, "chance runs");
  /* two dice are one question, each option the two numbers (first die first) */
  CHECK(strcmp(seen, "draw from bag (line 12):BLACK,RED|roll d6 (line 13):1,2,3,4,5,6|"
                     "roll 2d6 (line 13):1 1,2 1,3 1,4 1,5 1,6 1,1 2,2 2,3 2,4 2,5 2,6 2,1 3,2 3,3 3,4 3,5 3,6 3,1 4,2 4,3 4,4 4,5 4,6 4,1 5,2 5,3 5,4 5,5 5,6 5,1 6,2 6,3 6,4 6,5 6,6 6|") == 0,
        "questions: %s", seen);
  CHECK(strstr(b.s, "policy random, dice ask\n") && strstr(b.s, "  draw bag: RED (2 left)") &&
        strstr(b.s, "  roll d6: 4  [front:13]") && strstr(b.s, "  roll 2d6: 2 + 5 = 7  [front:13]") &&
        strstr(b.s, "== Summary\n11\n"), "log: %s", b.s);
  rg_run_free(run);

  /* ---- pictures ---- */
  CHECK(rg_run_new(r, NULL, &run) == RG_OK && rg_run_pictures(run) == RG_OK, "pictures on");
  CHECK(rg_run_call(run, "picture", NULL, 0) == RG_OK, "picture runs");
  const rg_pictures *drawn = rg_run_drawn(run);
  CHECK(rg_pictures_count(drawn) == 1 && strcmp(rg_pictures_name(drawn, 0), "board") == 0 &&
        rg_pictures_name(drawn, 1) == NULL && rg_pictures_find(drawn, "board") == 0 &&
        rg_pictures_find(drawn, "map") == -1 && !rg_pictures_error(drawn, NULL),
        "one picture, board");
  sbuf_init(&b);
  CHECK(rg_pictures_write(drawn, 0, &b.out) == RG_OK && starts(b.s, "<?xml") &&
        strstr(b.s, "viewBox=\"0 0 4 2\"") && strstr(b.s, ">x</text>"), "svg: %s", b.s);
  CHECK(rg_pictures_write(drawn, 1, &b.out) == RG_BAD_VALUE, "picture 1 is out of range");
  rg_run_free(run);
  /* a shape before any canvas: the error names its place (line 23, the
  ** circle at column 21) and no picture is written */
  CHECK(rg_run_new(r, NULL, &run) == RG_OK && rg_run_pictures(run) == RG_OK, "pictures on");
  CHECK(rg_run_call(run, "early", NULL, 0) == RG_OK, "early runs");
  {
    const char *msg;
    rg_place at = { NULL, 0, 0 };
    drawn = rg_run_drawn(run);
    msg = rg_pictures_error(drawn, &at);
    CHECK(msg && strcmp(msg, "a circle before any canvas") == 0 && strcmp(at.path, "front") == 0 &&
          at.line == 23 && at.col == 21, "shape error %s at %s:%u:%u", msg ? msg : "none",
          at.path ? at.path : "", at.line, at.col);
    CHECK(rg_pictures_save(drawn, 0, "/nonexistent/x.svg", NULL) == RG_BAD_VALUE,
          "no picture to save");
  }
  rg_run_free(run);

  /* ---- tests: `regula test`'s lines ---- */
  sbuf_init(&b);
  CHECK(rg_rules_test(r, NULL, &b.out, &np, &nf) == RG_OK && np == 1 && nf == 1, "1 passed, 1 failed");
  CHECK(strcmp(b.s, "front:22: FAIL test \"wrong\": expected 3, got 2\n") == 0, "test: %s", b.s);

  /* ---- the sheet ---- */
  sbuf_init(&b);
  CHECK(rg_rules_sheet("front", text, sizeof text - 1, NULL, &b.out) == RG_OK &&
        strstr(b.s, "t(ground) -> int\n") && strstr(b.s, "  Coastal   2\n"), "sheet: %s", b.s);
  CHECK(rg_rules_sheet("bad", "ruleset", 7, NULL, &b.out) == RG_BAD_RULES, "a bad sheet");

  /* ---- a diff: one cell changed ---- */
  {
    char other[sizeof text];
    char *at;
    memcpy(other, text, sizeof text);
    at = strstr(other, "C: 2 }");
    at[3] = '5';
    CHECK(rg_rules_compile("front2", other, sizeof text - 1, NULL, &r2) == RG_OK, "other");
    sbuf_init(&b);
    CHECK(rg_rules_diff(r, "rules/front", r2, "rules/front2", &b.out, &changes) == RG_OK &&
          changes == 2 && strstr(b.s, "== tables\n~ table t(ground: ground)\n") &&
          strstr(b.s, "    ~ [Coastal]: 2 -> 5\n"), "diff (%u changes):\n%s", changes, b.s);
    rg_rules_free(r2);
  }

  /* ---- simulations in slices equal one whole simulation ---- */
  {
    rg_sims *s1 = NULL, *s2 = NULL;
    rg_sims_options so = RG_OPTIONS(rg_sims_options);
    sbuf b2;
    so.proc = "coin";
    so.seed = 9;
    CHECK(rg_sims_new(r, &so, &s1) == RG_OK && rg_sims_new(r, &so, &s2) == RG_OK, "sims");
    CHECK(rg_sims_run(s1, 3000) == RG_OK, "one slice");
    CHECK(rg_sims_run(s2, 1) == RG_OK && rg_sims_run(s2, 1023) == RG_OK &&
          rg_sims_run(s2, 1976) == RG_OK && rg_sims_done(s2) == 3000, "three slices");
    sbuf_init(&b);
    sbuf_init(&b2);
    rg_sims_json(s1, &b.out);
    rg_sims_json(s2, &b2.out);
    CHECK(strcmp(b.s, b2.s) == 0, "slices:\n%s\nwhole:\n%s", b2.s, b.s);
    CHECK(starts(b.s, "{\"format\":2,\"procedure\":\"coin\",\"runs\":3000,\"seed\":\"9\",\"tallies\":"
                      "[{\"name\":\"result\",\"tallied\":true,\"of_items\":false,\"values\":"
                      "[{\"text\":\"false\","),
          "json: %s", b.s);
    {
      /* the counts add up to the runs, and each share lies in its interval */
      const char *p = b.s;
      unsigned long total = 0;
      int ok = 1;
      while ((p = strstr(p, "\"count\":"))) {
        unsigned long c;
        double sh, lo, hi;
        if (sscanf(p, "\"count\":%lu,\"share\":%lf,\"low\":%lf,\"high\":%lf", &c, &sh, &lo, &hi) !=
                4 || !(lo <= sh && sh <= hi))
          ok = 0;
        total += c;
        p++;
      }
      CHECK(ok && total == 3000, "counts add to %lu", total);
    }
    rg_sims_free(s1);
    rg_sims_free(s2);
    so.seed = 1;
    so.proc = "picture";
    CHECK(rg_sims_new(r, &so, &s1) == RG_BAD_VALUE && !s1, "no result to count");
    so.proc = "nothing";
    CHECK(rg_sims_new(r, &so, &s1) == RG_NOT_FOUND && !s1 &&
          strcmp(rg_rules_errmsg(r), "no procedure 'nothing'") == 0, "no procedure: %s",
          rg_rules_errmsg(r));
    so.proc = "broken";
    CHECK(rg_sims_new(r, &so, &s1) == RG_OK && rg_sims_run(s1, 10) == RG_RUN_ERROR &&
          strncmp(rg_sims_errmsg(s1), "run 1 failed: front:20:", 23) == 0,
          "a failed run: %s", s1 ? rg_sims_errmsg(s1) : "");
    rg_sims_free(s1);
  }

  /* ---- simulations with options (rgi_sims_open) ----
  ** By hand: roll_plus(10) is a d6 + 10, 11..16; its expect (r < 6) fails
  ** exactly in the runs that roll a 6, so the failed runs are the count of
  ** 16.  With bonus set to 100 in a copy: 111..116.  pick answered "B" by an
  ** answers text is B in every run; the strategy b_first answers B too. */
  {
    static const char st[] =
      "ruleset \"sims\"\n"                                            /* 1 */
      "enum side { A, B }\n"                                          /* 2 */
      "input bonus: int = 0\n"                                        /* 3 */
      "procedure roll_plus(k: int) -> int {\n"                        /* 4 */
      "  let r = roll d6\n"                                           /* 5 */
      "  expect r < 6\n"                                              /* 6 */
      "  return r + k + bonus\n"                                      /* 7 */
      "}\n"                                                           /* 8 */
      "procedure pick() -> side { return choose(A, \"which?\", {A, B}) }\n"
      "strategy b_first { \"which?\": B }\n";
    const char *ten[] = { "10" }, *bad[] = { "ten" };
    rg_rules *rs = NULL, *copy = NULL;
    rg_sims *s1 = NULL, *s4 = NULL;
    rg_sims_options so;
    char pat[64];
    sbuf b2;
    const char *at;
    rg_place where = { NULL, 0, 0 };
    uint64_t run = 99, n16 = 0;
    CHECK(rg_rules_compile("sims", st, sizeof st - 1, NULL, &rs) == RG_OK, "sims rules");
    so = RG_OPTIONS(rg_sims_options);
    so.proc = "roll_plus";
    so.args = ten;
    so.nargs = 1;
    so.seed = 5;
    so.threads = 1;
    CHECK(rg_sims_new(rs, &so, &s1) == RG_OK && rg_sims_run(s1, 600) == RG_OK,
          "one thread");
    so.threads = 4;
    CHECK(rg_sims_new(rs, &so, &s4) == RG_OK && rg_sims_run(s4, 600) == RG_OK,
          "four threads");
    sbuf_init(&b);
    sbuf_init(&b2);
    rg_sims_json(s1, &b.out);
    rg_sims_json(s4, &b2.out);
    CHECK(strcmp(b.s, b2.s) == 0 && strstr(b.s, "\"text\":\"11\"") && strstr(b.s, "\"text\":\"16\"") &&
          !strstr(b.s, "\"text\":\"17\"") && !strstr(b.s, "\"text\":\"10\""),
          "1 and 4 threads, 11..16: %s", b.s);
    at = strstr(b.s, "\"text\":\"16\",\"count\":");
    if (at) n16 = strtoull(at + strlen("\"text\":\"16\",\"count\":"), NULL, 10);
    CHECK(n16 > 0 && rg_sims_expects(s1, &run, &where) == n16 && strcmp(where.path, "sims") == 0 &&
          where.line == 6, "the failed expects are the 16s: %llu at %s:%u", (unsigned long long)n16,
          where.path ? where.path : "", where.line);
    sbuf_init(&b);
    CHECK(rg_sims_write(s1, &b.out) == RG_OK &&
          starts(b.s, "sims: roll_plus(10): 600 runs, seed 5, policy random\n\nresult\n  value       count"
                      "    share  95% interval\n  11   "), "the table: %s", b.s);
    sbuf_init(&b);
    CHECK(rg_sims_svg(s1, &b.out) == RG_OK && strstr(b.s, "<svg") &&
          strstr(b.s, "sims: roll_plus(10): 600 runs, seed 5, policy random (95% intervals)"),
          "the chart: %.80s", b.s);
    rg_sims_free(s1);
    rg_sims_free(s4);
    s1 = s4 = NULL;
    /* a copy with the input set */
    CHECK(rg_rules_copy(rs, &copy) == RG_OK && rg_rules_set(copy, "bonus=100") == RG_OK,
          "bonus = 100");
    so.policy.kind = RG_CHOOSE_FIRST;
    CHECK(rg_sims_new(copy, &so, &s1) == RG_OK && rg_sims_run(s1, 60) == RG_OK,
          "the copy");
    sbuf_init(&b);
    rg_sims_write(s1, &b.out);
    CHECK(starts(b.s, "sims: roll_plus(10): 60 runs, seed 5, policy first\nset: bonus=100\n") &&
          strstr(b.s, "\n  111 ") &&
          strstr(b.s, "\n  116 ") && !strstr(b.s, "\n  16 "), "the copy's table: %s", b.s);
    rg_sims_free(s1);
    s1 = NULL;
    /* answers, a strategy, bad options */
    so = RG_OPTIONS(rg_sims_options);
    so.proc = "pick";
    so.policy.kind = RG_CHOOSE_ANSWERS;
    so.policy.answers = "B\n";
    so.policy.answers_len = 2;
    CHECK(rg_sims_new(rs, &so, &s1) == RG_OK && rg_sims_run(s1, 50) == RG_OK,
          "answers");
    sbuf_init(&b);
    rg_sims_json(s1, &b.out);
    CHECK(strstr(b.s, "\"policy\":\"answers\"") && strstr(b.s, "\"text\":\"B\",\"count\":50,") &&
          !strstr(b.s, "\"strategy\""), "B every run: %s", b.s);
    rg_sims_free(s1);
    s1 = NULL;
    so.policy.kind = RG_CHOOSE_RANDOM;
    so.policy.strategy = "b_first";
    CHECK(rg_sims_new(rs, &so, &s1) == RG_OK && rg_sims_run(s1, 50) == RG_OK,
          "a strategy");
    sbuf_init(&b);
    rg_sims_write(s1, &b.out);
    snprintf(pat, sizeof pat, "\n  B              50  100.00%%");
    CHECK(starts(b.s, "sims: pick(): 50 runs, seed 0, policy b_first (a strategy of the rules; other "
                      "choices at random)\n") && strstr(b.s, pat), "b_first: %s", b.s);
    sbuf_init(&b);
    rg_sims_json(s1, &b.out);
    CHECK(strstr(b.s, "\"policy\":\"b_first (a strategy of the rules; other choices at random)\","
                      "\"strategy\":\"b_first\","), "the JSON names the strategy apart: %s", b.s);
    {
      /* a run's log names it too, and keeps no pointer to the caller's text */
      char name[] = "b_first";
      rg_run_options ro = { .size = sizeof ro, .policy = { .strategy = name } };
      rg_run *run = NULL;
      sbuf_init(&b);
      CHECK(rg_run_new(rs, &ro, &run) == RG_OK, "a run by a strategy");
      memset(name, 'x', 7);
      if (run) rg_run_log(run, &b.out, 1, NULL, NULL);
      CHECK(run && rg_run_call(run, "pick", NULL, 0) == RG_OK &&
            starts(b.s, "{\"event\":\"run\",\"format\":2,\"procedure\":\"pick\",\"seed\":\"0\","
                        "\"policy\":\"b_first (a strategy of the rules; other choices at random)\","
                        "\"strategy\":\"b_first\",\"dice\":\"random\"}\n"), "the run's JSON: %s", b.s);
      rg_run_free(run);
    }
    rg_sims_free(s1);
    s1 = NULL;
    so.policy.strategy = "nope";
    CHECK(rg_sims_new(rs, &so, &s1) == RG_NOT_FOUND && !s1 &&
          strcmp(rg_rules_errmsg(rs), "no strategy 'nope'") == 0, "no strategy: %s",
          rg_rules_errmsg(rs));
    so.policy.strategy = NULL;
    so.policy.kind = RG_CHOOSE_CALLBACK;
    CHECK(rg_sims_new(rs, &so, &s1) == RG_BAD_VALUE && !s1, "no callback");
    so = RG_OPTIONS(rg_sims_options);
    so.proc = "roll_plus";
    so.args = bad;
    so.nargs = 1;
    CHECK(rg_sims_new(rs, &so, &s1) == RG_BAD_VALUE && !s1 &&
          strncmp(rg_rules_errmsg(rs), "argument 1 (k: int) of 'roll_plus': ", 36) == 0,
          "a bad argument: %s", rg_rules_errmsg(rs));
    so.nargs = 0;
    CHECK(rg_sims_new(rs, &so, &s1) == RG_BAD_VALUE &&
          strcmp(rg_rules_errmsg(rs), "procedure 'roll_plus' takes 1 argument, got 0") == 0,
          "arity: %s", rg_rules_errmsg(rs));
    so.size = 0;
    CHECK(rg_sims_new(rs, &so, &s1) == RG_BAD_VALUE && !s1 &&
          strncmp(rg_rules_errmsg(rs), "simulation options without their size", 37) == 0,
          "options without their size: %s", rg_rules_errmsg(rs));
    /* a failed run, with its index and place */
    so = RG_OPTIONS(rg_sims_options);
    so.proc = "broken";
    so.seed = 1;
    CHECK(rg_sims_new(r, &so, &s1) == RG_OK && rg_sims_run(s1, 10) == RG_RUN_ERROR &&
          rg_sims_where(s1, &run, &where) && run == 0 &&
          strcmp(where.path, "front") == 0 && where.line == 20 &&
          strcmp(rg_sims_failure_text(s1), "division by zero") == 0, "failure: run %llu at %s:%u",
          (unsigned long long)run, where.path ? where.path : "", where.line);
    rg_sims_free(s1);
    rg_rules_free(copy);
    rg_rules_free(rs);
  }

  /* ---- variants compared run by run (rg_simvars) ----
  ** By hand: `win` is roll d6 > 3 in one rule set and roll d6 > 2 in the
  ** other; on common random numbers both roll the same die in every run,
  ** so the second wins in every run the first does, and in the runs that
  ** roll a 3 besides: its count of true is the first's plus those, never
  ** less, and the first never has true where the second has false. */
  {
    static const char va[] = "ruleset \"a\"\nprocedure win() -> bool { return roll d6 > 3 }\n";
    static const char vb[] = "ruleset \"b\"\nprocedure win() -> bool { return roll d6 > 2 }\n"
                             "procedure none() { }\n";
    rg_rules *ra = NULL, *rb = NULL;
    const rg_rules *both[2];
    const char *names[] = { "a.rules", "b.rules" };
    rg_simvars *c1 = NULL, *c3 = NULL;
    rg_simvars_options ro = { .size = sizeof ro, .proc = "win", .seed = 11, .threads = 1 };
    sbuf b2;
    unsigned long ta = 0, tb = 0;
    const char *at;
    CHECK(rg_rules_compile("a.rules", va, sizeof va - 1, NULL, &ra) == RG_OK &&
          rg_rules_compile("b.rules", vb, sizeof vb - 1, NULL, &rb) == RG_OK, "variants");
    both[0] = ra;
    both[1] = rb;
    CHECK(rg_simvars_new(both, names, 2, &ro, &c1) == RG_OK &&
          rg_simvars_run(c1, 3000) == RG_OK, "compared on one thread");
    ro.threads = 3;
    CHECK(rg_simvars_new(both, names, 2, &ro, &c3) == RG_OK &&
          rg_simvars_run(c3, 3000) == RG_OK, "and on three");
    sbuf_init(&b);
    sbuf_init(&b2);
    rg_simvars_json(c1, &b.out);
    rg_simvars_json(c3, &b2.out);
    CHECK(strcmp(b.s, b2.s) == 0, "the same for 1 and 3 threads:\n%s\n%s", b.s, b2.s);
    at = strstr(b.s, "{\"text\":\"true\",\"counts\":[");
    if (at) sscanf(at + strlen("{\"text\":\"true\",\"counts\":["), "%lu,%lu", &ta, &tb);
    CHECK(at && tb > ta && tb - ta > 300 && tb - ta < 700,
          "b wins where a does and on a 3 (about 500 of 3000): %lu, %lu", ta, tb);
    sbuf_init(&b);
    rg_simvars_write(c1, &b.out);
    CHECK(starts(b.s, "win() of 2 variants: 3000 runs, seed 11, policy random, common random "
                      "numbers by step\n  A = a.rules\n  B = b.rules\n\nresult\n"),
          "the table: %s", b.s);
    sbuf_init(&b);
    CHECK(rg_simvars_svg(c1, &b.out) == RG_OK && strstr(b.s, "<svg") && strstr(b.s, "b.rules"),
          "the chart: %.60s", b.s);
    CHECK(rg_simvars_failure(c1, NULL, NULL, NULL) == NULL, "no failure");
    rg_simvars_free(c1);
    rg_simvars_free(c3);
    c1 = NULL;
    ro.threads = 1;
    CHECK(rg_simvars_new(both, names, 1, &ro, &c1) == RG_BAD_VALUE && !c1,
          "one rule set is no comparison");
    ro.proc = "none";
    CHECK(rg_simvars_new(both, names, 2, &ro, &c1) == RG_NOT_FOUND &&
          strcmp(rg_rules_errmsg(ra), "a.rules: no procedure 'none'") == 0, "a procedure in both: %s",
          rg_rules_errmsg(ra));
    ro.proc = "win";
    ro.policy.strategy = "bold";
    CHECK(rg_simvars_new(both, names, 2, &ro, &c1) == RG_NOT_FOUND &&
          strcmp(rg_rules_errmsg(ra), "a.rules declares no strategy 'bold'") == 0,
          "a strategy in both: %s", rg_rules_errmsg(ra));
    rg_rules_free(ra);
    rg_rules_free(rb);
  }

  /* ---- exact odds (rg_exact) ----
  ** By hand: roll_plus(10) is 11..16, each 1/6; its expect (r < 6) fails in
  ** one outcome of six; pick answered by the first option is A (1/1);
  ** with every option in turn, A and B are 1/2 each; a limit of 3 runs is
  ** too few for six outcomes. */
  {
    static const char xt[] =
      "ruleset \"exact\"\n"                                           /* 1 */
      "enum side { A, B }\n"                                          /* 2 */
      "procedure roll_plus(k: int) -> int {\n"                        /* 3 */
      "  let r = roll d6\n"                                           /* 4 */
      "  expect r < 6\n"                                              /* 5 */
      "  return r + k\n"                                              /* 6 */
      "}\n"                                                           /* 7 */
      "procedure pick() -> side { return choose(A, \"which?\", {A, B}) }\n"  /* 8 */
      "procedure boom() -> int { return 6 / (roll d6 - 2) }\n"        /* 9 */
      "procedure quiet() { }\n";                                      /* 10 */
    const char *ten[] = { "10" }, *bad[] = { "x" };
    rg_rules *rx = NULL;
    rg_exact *x = NULL;
    rg_exact_options xo;
    char tn[64];
    rg_place where = { NULL, 0, 0 };
    const char *text = NULL;
    uint64_t num = 0, den = 0;
    CHECK(rg_rules_compile("exact", xt, sizeof xt - 1, NULL, &rx) == RG_OK, "exact rules");
    CHECK(rg_rules_type(rx, RG_PROC, rg_rules_find(rx, RG_PROC, "pick"), -1, tn, sizeof tn) &&
          strcmp(tn, "side") == 0 && !rg_rules_type(rx, RG_PROC, rg_rules_find(rx, RG_PROC, "quiet"), -1, tn, sizeof tn),
          "result types");
    CHECK(rg_rules_check_args(rx, "roll_plus", ten, 1) == RG_OK &&
          rg_rules_check_args(rx, "roll_plus", bad, 1) == RG_BAD_VALUE &&
          strncmp(rg_rules_errmsg(rx), "argument 1 (k: int) of 'roll_plus': ", 36) == 0 &&
          rg_rules_check_args(rx, "nope", NULL, 0) == RG_NOT_FOUND, "check_args: %s",
          rg_rules_errmsg(rx));
    xo = RG_OPTIONS(rg_exact_options);
    xo.proc = "roll_plus";
    xo.args = ten;
    xo.nargs = 1;
    CHECK(rg_exact_new(rx, &xo, &x) == RG_OK && x && rg_exact_outcomes(x) == 0 &&
          rg_exact_run(x) == RG_OK, "exact odds");
    /* the numbers: six results, 11 first and 16 last, each 1/6 */
    CHECK(x && rg_exact_outcomes(x) == 6 && rg_exact_outcome(x, 0, &text, &num, &den) == RG_OK &&
          strcmp(text, "11") == 0 && num == 1 && den == 6 &&
          rg_exact_outcome(x, 5, &text, &num, &den) == RG_OK && strcmp(text, "16") == 0 &&
          num == 1 && den == 6 && rg_exact_outcome(x, 6, &text, &num, &den) == RG_NOT_FOUND,
          "outcomes as numbers");
    sbuf_init(&b);
    CHECK(x && rg_exact_write(x, &b.out) == RG_OK &&
          starts(b.s, "exact: roll_plus(10): exact, policy random\nresult  probability  percent\n"
                      "11              1/6   16.67%  ") && strstr(b.s, "\n16              1/6   16.67%  "),
          "the table: %s", b.s);
    CHECK(x && rg_exact_runs(x) >= 6 && rg_exact_expects(x, &where) == 1 &&
          strcmp(where.path, "exact") == 0 && where.line == 5, "one run of six fails its expect at %s:%u",
          where.path ? where.path : "", where.line);
    sbuf_init(&b);
    CHECK(x && rg_exact_json(x, &b.out) == RG_OK &&
          strstr(b.s, "{\"text\":\"11\",\"probability\":\"1/6\""), "JSON: %s", b.s);
    sbuf_init(&b);
    CHECK(x && rg_exact_svg(x, &b.out) == RG_OK && strstr(b.s, "<svg"), "a chart");
    rg_exact_free(x);
    x = NULL;
    xo.limit = 3;
    CHECK(rg_exact_new(rx, &xo, &x) == RG_OK && x && rg_exact_run(x) == RG_RUN_LIMIT &&
          strcmp(rg_exact_errmsg(x), "more than 3 runs to enumerate the outcomes") == 0 &&
          rg_exact_limit_was_runs(x) && rg_exact_write(x, &b.out) == RG_BAD_VALUE, "the limit");
    rg_exact_free(x);
    x = NULL;
    xo = RG_OPTIONS(rg_exact_options);
    xo.proc = "pick";
    xo.policy.kind = RG_CHOOSE_FIRST;
    CHECK(rg_exact_new(rx, &xo, &x) == RG_OK && rg_exact_run(x) == RG_OK, "the first option");
    sbuf_init(&b);
    rg_exact_write(x, &b.out);
    CHECK(strstr(b.s, "\nA               1/1  100.00%  ") && !strstr(b.s, "\nB "), "A always: %s", b.s);
    rg_exact_free(x);
    x = NULL;
    xo.policy.kind = RG_CHOOSE_RANDOM;
    CHECK(rg_exact_new(rx, &xo, &x) == RG_OK && rg_exact_run(x) == RG_OK, "every option");
    sbuf_init(&b);
    rg_exact_write(x, &b.out);
    CHECK(strstr(b.s, "\nA               1/2   50.00%  ") && strstr(b.s, "\nB               1/2   50.00%  "),
          "A and B: %s", b.s);
    rg_exact_free(x);
    x = NULL;
    xo.proc = "boom";
    CHECK(rg_exact_new(rx, &xo, &x) == RG_OK && x && rg_exact_run(x) == RG_RUN_ERROR, "a failed run");
    sbuf_init(&b);
    CHECK(x && rg_exact_where(x, &where) && rg_exact_failed_draws(x, &b.out) == RG_OK &&
          strcmp(rg_exact_errmsg(x), "division by zero") == 0 &&
          where.line == 9 && strcmp(b.s, " 2/6") == 0, "the roll of 2 of 6 fails at line %u: '%s'",
          where.line, b.s);
    rg_exact_free(x);
    x = NULL;
    xo.proc = "quiet";
    CHECK(rg_exact_new(rx, &xo, &x) == RG_BAD_VALUE && !x &&
          strcmp(rg_rules_errmsg(rx), "procedure 'quiet' has no result to count") == 0,
          "no result: %s", rg_rules_errmsg(rx));
    xo.proc = "pick";
    xo.policy.strategy = "none";
    CHECK(rg_exact_new(rx, &xo, &x) == RG_NOT_FOUND && !x, "no strategy");
    rg_rules_free(rx);
  }

  rg_rules_free(r);
  return check_done("test_front");
}
