/*
** test_apierr.c: the documented refusals of regula.h and regula_front.h,
** one by one, as an embedder meets them: options without their size,
** names that are not there, indexes out of range, kinds that do not fit,
** calls made before what they need; each with the status and the message
** the header promises.
*/
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"

/* Returns whether s starts with prefix. */
static int starts(const char *s, const char *prefix) {
  return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Diagnostic callback: keeps the last message in the char[256] ctx. */
static void keep_diag(void *ctx, const rg_diagnostic *d) {
  snprintf(ctx, 256, "%s", d->message);
}

/* rg_chance_fn: always the first face (a 1 on a plain die). */
static int64_t first_face(void *ctx, rg_run *run, int what, const char *name, uint64_t n) {
  (void)ctx, (void)run, (void)what, (void)name, (void)n;
  return 0;
}

/* rg_choose_fn: records in the char[64] ctx, per question, '1' when it
** is secret and '0' when not; answers the last option. */
static int64_t note_secret(void *ctx, rg_run *run, const char *who, const char *prompt,
                           uint32_t n) {
  char *seen = ctx;
  size_t len = strlen(seen);
  (void)who, (void)prompt;
  if (len + 1 < 64) {
    seen[len] = rg_run_asking_secret(run) ? '1' : '0';
    seen[len + 1] = '\0';
  }
  return (int64_t)n - 1;
}

/* rg_event_fn: records in the char[64] ctx, per choice event, 's' when it
** is secret and 'o' when open. */
static void choice_secret(void *ctx, rg_run *run, const rg_event *ev) {
  char *seen = ctx;
  size_t len = strlen(seen);
  (void)run;
  if (ev->kind == RG_EVENT_CHOICE && len + 1 < 64) {
    seen[len] = ev->secret ? 's' : 'o';
    seen[len + 1] = '\0';
  }
}

/* rg_assumption_fn: keeps "what|text" of the last note in the char[128] ctx. */
static void keep_note(void *ctx, const char *path, uint32_t line, const char *what,
                      const char *text) {
  (void)path, (void)line;
  snprintf(ctx, 128, "%s|%s", what, text);
}

/* rg_chance_fn: appends "what name n|" to the char[128] ctx; the first of n. */
static int64_t name_chance(void *ctx, rg_run *run, int what, const char *name, uint64_t n) {
  char *seen = ctx;
  size_t len = strlen(seen);
  (void)run;
  snprintf(seen + len, 128 - len, "%c %s %llu|", what, name, (unsigned long long)n);
  return 0;
}

/* rg_choose_fn: answers option n (there is none), after checking that
** rg_run_option refuses it too: the int ctx becomes 1 when it does. */
static int64_t past_last(void *ctx, rg_run *run, const char *who, const char *prompt, uint32_t n) {
  char b[16];
  (void)who, (void)prompt;
  *(int *)ctx = rg_run_option(run, n, b, sizeof b) == RG_BAD_VALUE;
  return n;
}

/* rg_choose_fn: no answer (-1). */
static int64_t no_answer(void *ctx, rg_run *run, const char *who, const char *prompt, uint32_t n) {
  (void)ctx, (void)run, (void)who, (void)prompt, (void)n;
  return -1;
}

/* rg_event_fn: for each roll, appends to the char[64] ctx 'b' when
** rg_run_event_text refuses it (a roll is no note or expect) and nothing
** was written, else '?'. */
static void roll_text(void *ctx, rg_run *run, const rg_event *ev) {
  char *seen = ctx;
  size_t len = strlen(seen);
  rg_buf b;
  if (ev->kind != RG_EVENT_ROLL || len + 1 >= 64) return;
  rg_buf_init(&b);
  seen[len] = rg_run_event_text(run, &b.out) == RG_BAD_VALUE && !b.data ? 'b' : '?';
  seen[len + 1] = '\0';
  rg_buf_free(&b);
}

/* rg_out write that always fails. */
static int refuse_write(void *ctx, const char *s, size_t n) {
  (void)ctx, (void)s, (void)n;
  return -1;
}

/* By hand: roll_plus(k) is a d6 + k; nothing() has no result; two() takes
** two parameters; careful is the default strategy, picking B. */
static const char text[] =
  "ruleset \"err\"\n"                                             /* 1 */
  "enum side { A, B }\n"                                          /* 2 */
  "const reach = 3\n"                                             /* 3 */
  "input bonus: int = 2\n"                                        /* 4 */
  "table t(s: side, n: 1..2) -> int { A, 1: 11, A, 2: 12, B, 1: 21, B, 2: 22 }\n"
  "procedure roll_plus(k: int) -> int { return roll d6 + k }\n"  /* 6 */
  "procedure nothing() { note \"x\" }\n"                          /* 7 */
  "procedure two(a: int, b: side) -> int { return a }\n"          /* 8 */
  "procedure main() -> side { return choose(A, \"which?\", {A, B}) }\n"
  "procedure bad() -> int { return t[A, 1] / 0 }\n"               /* 10 */
  "default strategy careful \"picks B\" { \"which?\": B }\n"      /* 11 */
  "strategy loose { \"which?\": A }\n";                           /* 12 */

int main(void) {
  rg_rules *r = NULL, *none = NULL, *copy = NULL;
  char buf[256], diag[256] = "";
  const char *ten[] = { "10" }, *word[] = { "ten" };

  /* ---- compiling ---- */
  {
    rg_compile_options o;
    memset(&o, 0, sizeof o);      /* .size not set */
    o.diagnostic = keep_diag;
    o.diagnostic_ctx = diag;
    CHECK(rg_rules_compile("err", text, sizeof text - 1, &o, &r) == RG_BAD_VALUE && !r &&
          starts(diag, "compile options without their size"), "compile: no size: '%s'", diag);
    o.diagnostic = NULL;
    CHECK(rg_rules_compile("err", text, sizeof text - 1, &o, &r) == RG_BAD_VALUE && !r,
          "compile: no size, no callback");
  }
  CHECK(rg_rules_compile("err", text, sizeof text - 1, NULL, &r) == RG_OK && r, "compile");
  if (!r) {
    printf("test_apierr: %d passed, %d failed\n", passed, failed + 1);
    return 1;
  }
  CHECK(rg_rules_compile("none", "ruleset \"n\"\n", 12, NULL, &none) == RG_OK && none,
        "compile a rule set with nothing in it");

  /* ---- a module on disk: saved, loaded, a bad one refused ---- */
  {
    char path[] = "/tmp/regula-apierr-XXXXXX";
    int fd = mkstemp(path);
    char rbc[64];
    rg_rules *back = NULL;
    snprintf(rbc, sizeof rbc, "%s.rbc", path);
    CHECK(fd >= 0, "mkstemp");
    if (fd >= 0) {
      close(fd);
      unlink(path);
      CHECK(rg_rules_save(r, rbc) == RG_OK, "save");
      CHECK(rg_rules_load(rbc, NULL, &back) == RG_OK && back &&
            strcmp(rg_rules_name(back), "err") == 0, "load the saved module");
      /* a module keeps no sources: no assumptions, no source lines */
      CHECK(back && rg_rules_assumptions(back, NULL, NULL) == 0 &&
            !rg_rules_source_line(back, "err", 1, NULL), "a module keeps no sources");
      rg_rules_free(back);
      back = NULL;
      FILE *f = fopen(rbc, "wb");
      if (f) {
        fputs("not a module at all", f);
        fclose(f);
      }
      rg_compile_options o = RG_OPTIONS(rg_compile_options);
      o.diagnostic = keep_diag;
      o.diagnostic_ctx = diag;
      o.keep_sources = 1;
      diag[0] = '\0';
      CHECK(rg_rules_load(rbc, &o, &back) == RG_BAD_MODULE && !back && diag[0],
            "a bad module: RG_BAD_MODULE with a diagnostic");
      unlink(rbc);
      CHECK(rg_rules_load(rbc, &o, &back) == RG_NOT_FOUND && !back, "a missing module");
    }
    CHECK(rg_rules_save(r, "/nonexistent/dir/x.rbc") == RG_IO && rg_rules_errmsg(r)[0],
          "save where no folder is: RG_IO with a reason");
    /* a folder where a file should be: it cannot be read (RG_IO), and the
    ** diagnostic names it */
    {
      char folder[] = "/tmp/regula-apierr-XXXXXX", sub[96];
      rg_compile_options o = RG_OPTIONS(rg_compile_options);
      rg_rules *back = NULL;
      o.diagnostic = keep_diag;
      o.diagnostic_ctx = diag;
      if (mkdtemp(folder)) {
        static const char *const ext[] = { "x.rbc", "x.rules" };
        for (int k = 0; k < 2; k++) {
          snprintf(sub, sizeof sub, "%s/%s", folder, ext[k]);
          diag[0] = '\0';
          CHECK(mkdir(sub, 0700) == 0 && rg_rules_load(sub, &o, &back) == RG_IO && !back &&
                strstr(diag, ext[k]), "a folder called %s: '%s'", ext[k], diag);
          rmdir(sub);
        }
        rmdir(folder);
      }
    }
  }

  /* ---- asking about the rules ---- */
  CHECK(rg_rules_count(r, (rg_item)9) == 0 && rg_rules_item(r, (rg_item)9, 0) == NULL,
        "count/item of no such kind");
  CHECK(rg_rules_item(r, RG_PROC, -1) == NULL && rg_rules_item(r, RG_INPUT, 1) == NULL,
        "item out of range");
  CHECK(strcmp(rg_rules_item(r, RG_INPUT, 0), "bonus") == 0 &&
        strcmp(rg_rules_item(r, RG_TABLE, 0), "t") == 0 &&
        strcmp(rg_rules_item(r, RG_STRATEGY, 1), "loose") == 0, "items by kind");
  CHECK(rg_rules_find(r, RG_PROC, NULL) == -1 && rg_rules_find(r, (rg_item)9, "t") == -1 &&
        rg_rules_find(r, RG_STRATEGY, "loose") == 1 && rg_rules_find(r, RG_INPUT, "x") == -1,
        "find");
  CHECK(rg_rules_arity(r, RG_INPUT, 0) == 0 && rg_rules_arity(r, RG_TABLE, 1) == -1 &&
        rg_rules_arity(r, RG_PROC, rg_rules_find(r, RG_PROC, "two")) == 2, "arity");
  {
    int two = rg_rules_find(r, RG_PROC, "two"), no = rg_rules_find(r, RG_PROC, "nothing");
    CHECK(rg_rules_type(r, RG_PROC, no, -1, buf, sizeof buf) == NULL, "no result type");
    CHECK(rg_rules_type(r, RG_PROC, two, 2, buf, sizeof buf) == NULL &&
          rg_rules_param(r, two, -1) == NULL && rg_rules_param(r, 99, 0) == NULL,
          "parameter out of range");
    CHECK(strcmp(rg_rules_type(r, RG_PROC, two, 1, buf, sizeof buf), "side") == 0 &&
          strcmp(rg_rules_type(r, RG_PROC, two, -1, buf, sizeof buf), "int") == 0,
          "parameter and result types");
    CHECK(strcmp(rg_rules_type(r, RG_INPUT, 0, 0, buf, sizeof buf), "int") == 0, "input type");
    /* a key as declared: its name and its range */
    CHECK(strcmp(rg_rules_type(r, RG_TABLE, 0, -1, buf, sizeof buf), "int") == 0 &&
          strcmp(rg_rules_type(r, RG_TABLE, 0, 1, buf, sizeof buf), "n: 1..2") == 0 &&
          rg_rules_type(r, RG_TABLE, 0, 2, buf, sizeof buf) == NULL, "table types '%s'", buf);
    CHECK(rg_rules_type(r, RG_STRATEGY, 0, 0, buf, sizeof buf) == NULL &&
          rg_rules_type(r, RG_TABLE, 5, 0, buf, sizeof buf) == NULL, "no type");
  }
  CHECK(rg_rules_check_args(r, "nope", NULL, 0) == RG_NOT_FOUND &&
        strcmp(rg_rules_errmsg(r), "no procedure 'nope'") == 0, "check_args: no procedure");
  CHECK(rg_rules_check_args(r, "roll_plus", word, 1) == RG_BAD_VALUE &&
        starts(rg_rules_errmsg(r), "argument 1 (k: int) of 'roll_plus': "),
        "check_args: a bad argument '%s'", rg_rules_errmsg(r));
  CHECK(rg_rules_check_args(r, "roll_plus", ten, 2) == RG_BAD_VALUE &&
        strcmp(rg_rules_errmsg(r), "procedure 'roll_plus' takes 1 argument, got 2") == 0,
        "check_args: too many '%s'", rg_rules_errmsg(r));
  CHECK(rg_rules_check_args(r, "two", ten, -1) == RG_BAD_VALUE &&
        strcmp(rg_rules_errmsg(r), "procedure 'two' takes 2 arguments, got -1") == 0,
        "check_args: a negative count '%s'", rg_rules_errmsg(r));
  CHECK(rg_rules_check_args(r, "roll_plus", ten, 1) == RG_OK, "check_args: right");
  CHECK(rg_rules_input_value(r, 1, buf, sizeof buf) == NULL && rg_rules_input_value(r, -1, buf,
        sizeof buf) == NULL && strcmp(rg_rules_input_value(r, 0, buf, sizeof buf), "2") == 0,
        "input values");
  CHECK(rg_rules_strategy_doc(r, 2) == NULL && rg_rules_strategy_doc(r, -1) == NULL &&
        strcmp(rg_rules_strategy_doc(r, 0), "picks B") == 0, "strategy docs");
  CHECK(rg_rules_default_strategy(r) == 0 && rg_rules_default_strategy(none) == -1,
        "default strategy");
  CHECK(rg_rules_assumptions(r, NULL, NULL) == 0 && !rg_rules_source_line(r, "err", 1, NULL),
        "no sources kept: no assumptions, no lines");
  {
    rg_buf b;
    rg_buf_init(&b);
    CHECK(rg_rules_describe(r, "reach", &b.out) == RG_OK && b.data &&
          strcmp(b.data, "reach = 3\n") == 0, "describe a constant '%s'", b.data ? b.data : "");
    CHECK(rg_rules_describe(r, "nowhere", &b.out) == RG_NOT_FOUND, "describe: not there");
    rg_buf_free(&b);
    rg_buf_init(&b);
    CHECK(rg_rules_dis(r, 0, &b.out) == RG_OK && b.data && strstr(b.data, "roll_plus"),
          "the bytecode listing names the procedures");
    rg_buf_free(&b);
  }
  {
    char note[128] = "x";
    rg_native_options no;
    memset(&no, 0, sizeof no);
    CHECK(rg_rules_native(r, NULL, note, sizeof note) == RG_OK &&
          strcmp(note, "no native options: the VM runs") == 0, "native: no options");
    CHECK(rg_rules_native(r, &no, note, sizeof note) == RG_OK &&
          strcmp(note, "no native options: the VM runs") == 0, "native: options without size");
  }

  /* ---- policies ---- */
  {
    rg_policy p;
    CHECK(rg_policy_parse(r, NULL, &p) == RG_BAD_VALUE, "policy: NULL");
    CHECK(rg_policy_parse(NULL, "random", &p) == RG_OK && p.kind == RG_CHOOSE_RANDOM &&
          rg_policy_parse(NULL, "first", &p) == RG_OK && p.kind == RG_CHOOSE_FIRST,
          "policy: random, first");
    CHECK(rg_policy_parse(NULL, "answers:a.txt", &p) == RG_OK && p.kind == RG_CHOOSE_ANSWERS &&
          strcmp(p.answers_name, "a.txt") == 0, "policy: answers");
    CHECK(rg_policy_parse(NULL, "answers:", &p) == RG_NOT_FOUND &&
          rg_policy_parse(NULL, "loose", &p) == RG_NOT_FOUND, "policy: no rules to look in");
    CHECK(rg_policy_parse(r, "loose", &p) == RG_OK && strcmp(p.strategy, "loose") == 0,
          "policy: a strategy");
    CHECK(rg_policy_parse(r, "tight", &p) == RG_NOT_FOUND &&
          strcmp(rg_rules_errmsg(r), "a policy is random, first, answers:FILE or a strategy of "
                                     "the rules (careful, loose), not 'tight'") == 0,
          "policy: not a strategy '%s'", rg_rules_errmsg(r));
    CHECK(rg_policy_parse(none, "tight", &p) == RG_NOT_FOUND &&
          strcmp(rg_rules_errmsg(none), "a policy is random, first or answers:FILE (the rules "
                                        "declare no strategy), not 'tight'") == 0,
          "policy: no strategies '%s'", rg_rules_errmsg(none));
  }

  /* ---- runs ---- */
  {
    rg_run *run = NULL;
    rg_run_options o;
    rg_place at;
    memset(&o, 0, sizeof o);
    CHECK(rg_run_new(r, &o, &run) == RG_BAD_VALUE && !run &&
          starts(rg_rules_errmsg(r), "run options without their size"), "run: no size");
    o = RG_OPTIONS(rg_run_options);
    o.policy.kind = RG_CHOOSE_CALLBACK;
    CHECK(rg_run_new(r, &o, &run) == RG_BAD_VALUE && !run &&
          strcmp(rg_rules_errmsg(r), "a callback policy without its function") == 0,
          "run: callback without function");
    o.policy.kind = (rg_choose_policy)77;
    CHECK(rg_run_new(r, &o, &run) == RG_BAD_VALUE && !run &&
          strcmp(rg_rules_errmsg(r), "no such policy (77)") == 0, "run: no such policy");
    o.policy.kind = RG_CHOOSE_ANSWERS;
    o.policy.answers = "A\0B\n";
    o.policy.answers_len = 4;
    CHECK(rg_run_new(r, &o, &run) == RG_BAD_VALUE && !run &&
          strcmp(rg_rules_errmsg(r), "the answers hold a NUL byte") == 0, "run: NUL in answers");
    o = RG_OPTIONS(rg_run_options);
    o.policy.strategy = "tight";
    CHECK(rg_run_new(r, &o, &run) == RG_NOT_FOUND && !run &&
          strcmp(rg_rules_errmsg(r), "no strategy 'tight'") == 0, "run: no such strategy");
    o.policy.strategy = "careful";
    CHECK(rg_run_new(r, &o, &run) == RG_OK && run, "run: a strategy");
    if (run) {
      CHECK(rg_run_call(run, "main", NULL, 0) == RG_OK &&
            rg_run_result(run, buf, sizeof buf) == RG_OK && strcmp(buf, "B") == 0,
            "the strategy picks B: '%s'", buf);
      CHECK(rg_run_option(run, 0, buf, sizeof buf) == RG_BAD_VALUE && buf[0] == '\0',
            "an option when nothing is asked");
      CHECK(rg_run_event_value(run, 0, buf, sizeof buf) == RG_BAD_VALUE && buf[0] == '\0',
            "an event value outside an event");
      {
        rg_buf b;
        rg_buf_init(&b);
        CHECK(rg_run_event_text(run, &b.out) == RG_BAD_VALUE && !b.data,
              "event text outside an event");
        rg_buf_free(&b);
      }
      CHECK(rg_run_call(run, "nope", NULL, 0) == RG_NOT_FOUND &&
            strcmp(rg_run_errmsg(run), "no procedure 'nope'") == 0 && !rg_run_where(run, &at) &&
            strcmp(at.path, "?") == 0, "call: no procedure");
      CHECK(rg_run_call(run, "roll_plus", word, 1) == RG_BAD_VALUE &&
            starts(rg_run_errmsg(run), "argument 1 (k: int) of 'roll_plus': "), "call: bad arg");
      CHECK(rg_run_call(run, "nothing", NULL, 0) == RG_OK &&
            rg_run_result(run, buf, sizeof buf) == RG_OK && buf[0] == '\0',
            "a procedure without result gives no text");
      CHECK(rg_run_call(run, "bad", NULL, 0) == RG_RUN_ERROR && rg_run_where(run, &at) &&
            strcmp(at.path, "err") == 0 && at.line == 10, "call: a runtime error at line 10");
      rg_run_free(run);
    }
  }

  /* ---- simulations ---- */
  {
    rg_sims *s = NULL;
    rg_sims_options o;
    memset(&o, 0, sizeof o);
    CHECK(rg_sims_new(r, &o, &s) == RG_BAD_VALUE && !s &&
          starts(rg_rules_errmsg(r), "simulation options without their size"), "sims: no size");
    o = RG_OPTIONS(rg_sims_options);
    o.proc = "nothing";
    CHECK(rg_sims_new(r, &o, &s) == RG_BAD_VALUE && !s &&
          strcmp(rg_rules_errmsg(r), "procedure 'nothing' has no result to count") == 0,
          "sims: no result");
    o.proc = "nope";
    CHECK(rg_sims_new(r, &o, &s) == RG_NOT_FOUND && !s &&
          strcmp(rg_rules_errmsg(r), "no procedure 'nope'") == 0, "sims: no procedure");
    o.proc = "roll_plus";
    CHECK(rg_sims_new(r, &o, &s) == RG_BAD_VALUE && !s &&
          strcmp(rg_rules_errmsg(r), "procedure 'roll_plus' takes 1 argument, got 0") == 0,
          "sims: no arguments '%s'", rg_rules_errmsg(r));
    o.args = ten;
    o.nargs = 1;
    o.policy.kind = RG_CHOOSE_ANSWERS;
    o.policy.answers = "A\0";
    o.policy.answers_len = 2;
    CHECK(rg_sims_new(r, &o, &s) == RG_BAD_VALUE && !s &&
          strcmp(rg_rules_errmsg(r), "the answers hold a NUL byte") == 0, "sims: NUL in answers");
    o.policy.answers = NULL;    /* answers: none at all, and roll_plus asks nothing */
    o.policy.answers_len = 0;
    o.threads = 100000;        /* cut to RG_SIMS_MAX_THREADS */
    CHECK(rg_sims_new(r, &o, &s) == RG_OK && s, "sims: answers from nowhere");
    if (s) {
      const char *name = "x";
      uint32_t nv = 9;
      uint64_t run = 9;
      rg_place at;
      CHECK(rg_sims_columns(s) == 0 && rg_sims_column(s, 0, &name, &nv) == RG_NOT_FOUND &&
            rg_sims_value(s, 0, 0, NULL, NULL) == RG_NOT_FOUND, "sims: no column before runs");
      CHECK(rg_sims_expects(s, &run, &at) == 0 && run == 0 && at.line == 0,
            "sims: no expect failed before runs");
      CHECK(rg_sims_run(s, 0) == RG_OK && rg_sims_done(s) == 0, "sims: no runs");
      CHECK(rg_sims_run(s, 12) == RG_OK && rg_sims_done(s) == 12, "sims: 12 runs");
      CHECK(rg_sims_column(s, 0, &name, &nv) == RG_OK && strcmp(name, "result") == 0 &&
            nv >= 1 && nv <= 6, "sims: one column, at most six values");
      CHECK(rg_sims_column(s, 1, NULL, NULL) == RG_NOT_FOUND &&
            rg_sims_value(s, 0, nv, NULL, NULL) == RG_NOT_FOUND &&
            rg_sims_value(s, 1, 0, NULL, NULL) == RG_NOT_FOUND, "sims: out of range");
      CHECK(!rg_sims_where(s, &run, &at) && run == 0 && strcmp(at.path, "?") == 0 &&
            rg_sims_failure_text(s) == NULL && rg_sims_errmsg(s)[0] == '\0',
            "sims: nothing failed");
      CHECK(rg_sims_expects(s, &run, &at) == 0 && run == 0, "sims: no expect failed");
      rg_sims_free(s);
    }
    o = RG_OPTIONS(rg_sims_options);
    o.proc = "bad";
    CHECK(rg_sims_new(r, &o, &s) == RG_OK && rg_sims_run(s, 5) == RG_RUN_ERROR &&
          rg_sims_run(s, 5) == RG_RUN_ERROR && starts(rg_sims_errmsg(s), "run 1 failed: err:10:"),
          "sims: a failed run stays failed '%s'", s ? rg_sims_errmsg(s) : "");
    rg_sims_free(s);
  }

  /* ---- variants run by run (RG_SIMVARS_MAX: 16 at most) ---- */
  {
    rg_simvars *c = NULL;
    const rg_rules *two[] = { r, none };
    const rg_rules *same[] = { r, r };
    const char *names[] = { "one", "other" };
    rg_simvars_options o;
    memset(&o, 0, sizeof o);
    CHECK(rg_simvars_new(two, names, 0, NULL, &c) == RG_BAD_VALUE && !c, "simvars: none");
    CHECK(rg_simvars_new(two, names, 1, NULL, &c) == RG_BAD_VALUE && !c &&
          strcmp(rg_rules_errmsg(r), "compare 2 to 16 rule sets, not 1") == 0,
          "simvars: one '%s'", rg_rules_errmsg(r));
    CHECK(rg_simvars_new(two, names, 2, &o, &c) == RG_BAD_VALUE && !c &&
          starts(rg_rules_errmsg(r), "options without their size"), "simvars: no size");
    o = RG_OPTIONS(rg_simvars_options);
    o.policy.kind = RG_CHOOSE_ANSWERS;
    CHECK(rg_simvars_new(two, names, 2, &o, &c) == RG_BAD_VALUE && !c &&
          strcmp(rg_rules_errmsg(r), "variants' choices are random or first") == 0,
          "simvars: answers");
    o.policy.kind = RG_CHOOSE_FIRST;
    CHECK(rg_simvars_new(two, names, 2, &o, &c) == RG_NOT_FOUND && !c &&
          strcmp(rg_rules_errmsg(r), "other: no procedure 'main'") == 0,
          "simvars: not in the second '%s'", rg_rules_errmsg(r));
    o.proc = "two";
    CHECK(rg_simvars_new(same, names, 2, &o, &c) == RG_BAD_VALUE && !c &&
          strcmp(rg_rules_errmsg(r), "one: procedure 'two' takes parameters") == 0,
          "simvars: parameters");
    o.proc = "nothing";
    CHECK(rg_simvars_new(same, names, 2, &o, &c) == RG_BAD_VALUE && !c &&
          strcmp(rg_rules_errmsg(r), "one: procedure 'nothing' has no result to count") == 0,
          "simvars: no result");
    o.proc = NULL;
    o.policy.strategy = "tight";
    CHECK(rg_simvars_new(same, names, 2, &o, &c) == RG_NOT_FOUND && !c &&
          strcmp(rg_rules_errmsg(r), "one declares no strategy 'tight'") == 0,
          "simvars: no strategy");
    o.policy.strategy = NULL;
    o.proc = "bad";
    o.threads = 100000;
    CHECK(rg_simvars_new(same, names, 2, &o, &c) == RG_OK && c, "simvars: bad");
    if (c) {
      uint32_t v = 9;
      uint64_t run = 9;
      rg_place at;
      CHECK(rg_simvars_failure(c, &v, &run, &at) == NULL, "simvars: no failure before running");
      CHECK(rg_simvars_run(c, 4) == RG_RUN_ERROR && rg_simvars_run(c, 4) == RG_RUN_ERROR,
            "simvars: the run fails, and stays failed");
      CHECK(rg_simvars_failure(c, &v, &run, &at) && v == 0 && run == 0 && at.line == 10,
            "simvars: the first failure at line 10 (%u, %llu, %u)", v, (unsigned long long)run,
            at.line);
      rg_simvars_free(c);
    }
  }

  /* ---- exact odds ---- */
  {
    rg_exact *x = NULL;
    rg_exact_options o;
    rg_place at;
    rg_buf b;
    rg_buf_init(&b);
    memset(&o, 0, sizeof o);
    CHECK(rg_exact_new(r, &o, &x) == RG_BAD_VALUE && !x &&
          starts(rg_rules_errmsg(r), "odds options without their size"), "exact: no size");
    o = RG_OPTIONS(rg_exact_options);
    o.proc = "roll_plus";
    o.args = word;
    o.nargs = 1;
    CHECK(rg_exact_new(r, &o, &x) == RG_BAD_VALUE && !x &&
          starts(rg_rules_errmsg(r), "argument 1 (k: int) of 'roll_plus': "), "exact: bad arg");
    o.args = ten;
    o.policy.kind = RG_CHOOSE_ANSWERS;
    o.policy.answers = "A\0";
    o.policy.answers_len = 2;
    CHECK(rg_exact_new(r, &o, &x) == RG_BAD_VALUE && !x &&
          strcmp(rg_rules_errmsg(r), "the answers hold a NUL byte") == 0, "exact: NUL");
    o.policy.kind = RG_CHOOSE_CALLBACK;
    CHECK(rg_exact_new(r, &o, &x) == RG_BAD_VALUE && !x &&
          strcmp(rg_rules_errmsg(r), "choices are answered at random, by the first option or by "
                                     "answers") == 0, "exact: a callback");
    o.policy.kind = RG_CHOOSE_RANDOM;
    o.policy.strategy = "tight";
    CHECK(rg_exact_new(r, &o, &x) == RG_NOT_FOUND && !x &&
          strcmp(rg_rules_errmsg(r), "no strategy 'tight'") == 0, "exact: no strategy");
    o.policy.strategy = NULL;
    o.limit = 3;          /* a d6 makes 6 runs */
    CHECK(rg_exact_new(r, &o, &x) == RG_OK && x, "exact: limit 3");
    if (x) {
      const char *t;
      CHECK(rg_exact_outcomes(x) == 0 && rg_exact_outcome(x, 0, &t, NULL, NULL) == RG_NOT_FOUND &&
            rg_exact_write(x, &b.out) == RG_BAD_VALUE &&
            rg_exact_failed_draws(x, &b.out) == RG_BAD_VALUE, "exact: nothing before the run");
      CHECK(rg_exact_run(x) == RG_RUN_LIMIT && rg_exact_limit_was_runs(x) &&
            strcmp(rg_exact_errmsg(x), "more than 3 runs to enumerate the outcomes") == 0 &&
            !rg_exact_where(x, &at) && rg_exact_expects(x, NULL) == 0,
            "exact: the runs limit '%s'", rg_exact_errmsg(x));
      rg_exact_free(x);
    }
    o.limit = 0;
    o.proc = "bad";
    o.args = NULL;
    o.nargs = 0;
    CHECK(rg_exact_new(r, &o, &x) == RG_OK && rg_exact_run(x) == RG_RUN_ERROR &&
          rg_exact_where(x, &at) && at.line == 10 && !rg_exact_limit_was_runs(x) &&
          rg_exact_failed_draws(x, &b.out) == RG_OK && rg_exact_errmsg(x)[0],
          "exact: a failed run at line 10");
    rg_exact_free(x);
    rg_buf_free(&b);
  }

  /* ---- games ---- */
  {
    rg_game *g = NULL;
    rg_game_options o;
    memset(&o, 0, sizeof o);
    CHECK(rg_game_new(r, &o, &g) == RG_BAD_VALUE && !g &&
          starts(rg_rules_errmsg(r), "game options without their size"), "game: no size");
    o = RG_OPTIONS(rg_game_options);
    o.proc = "nope";
    CHECK(rg_game_new(r, &o, &g) == RG_NOT_FOUND && !g &&
          strcmp(rg_rules_errmsg(r), "no procedure 'nope'") == 0, "game: no procedure");
    o.proc = "two";
    CHECK(rg_game_new(r, &o, &g) == RG_NOT_FOUND && !g &&
          starts(rg_rules_errmsg(r), "procedure 'two' takes parameters"), "game: parameters");
    o.proc = NULL;
    o.policy.strategy = "careful";
    CHECK(rg_game_new(r, &o, &g) == RG_BAD_VALUE && !g &&
          strcmp(rg_rules_errmsg(r), "a game's choices are asked, random or first") == 0,
          "game: a strategy");
    o.policy.strategy = NULL;
    o.policy.kind = RG_CHOOSE_ANSWERS;
    CHECK(rg_game_new(r, &o, &g) == RG_BAD_VALUE && !g, "game: answers");
    o.policy.kind = RG_CHOOSE_FIRST;
    o.module = "0123456789abcdef";
    CHECK(rg_game_new(r, &o, &g) == RG_OK && g, "game: first, a module named by the caller");
    rg_game_free(g);
  }


  /* ---- odds of main: A or B, each 1/2 when every option is weighed ---- */
  {
    rg_exact *x = NULL, *y = NULL;
    rg_exact_options o = RG_OPTIONS(rg_exact_options);
    const char *t = NULL;
    uint64_t num = 0, den = 0;
    rg_buf b;
    rg_buf_init(&b);
    CHECK(rg_exact_new(r, &o, &x) == RG_OK && rg_exact_run(x) == RG_OK &&
          rg_exact_outcomes(x) == 2, "exact main: two outcomes");
    CHECK(x && rg_exact_outcome(x, 1, &t, &num, &den) == RG_OK && strcmp(t, "B") == 0 &&
          num == 1 && den == 2 && rg_exact_outcome(x, 0, NULL, NULL, NULL) == RG_OK &&
          rg_exact_outcome(x, 2, &t, &num, &den) == RG_NOT_FOUND, "exact main: B 1/2");
    /* run again: the same odds, made by as many runs */
    uint64_t runs = x ? rg_exact_runs(x) : 0;
    CHECK(x && runs > 0 && rg_exact_run(x) == RG_OK && rg_exact_runs(x) == runs &&
          rg_exact_outcomes(x) == 2 &&
          !rg_exact_where(x, NULL) && !rg_exact_limit_was_runs(x) &&
          rg_exact_failed_draws(x, &b.out) == RG_BAD_VALUE, "exact main: run twice");
    o.policy.strategy = "careful";
    CHECK(rg_exact_new(r, &o, &y) == RG_OK && rg_exact_run(y) == RG_OK &&
          rg_exact_outcomes(y) == 1 && rg_exact_outcome(y, 0, &t, &num, &den) == RG_OK &&
          strcmp(t, "B") == 0 && num == 1 && den == 1, "exact main: careful picks B always");
    {
      const rg_exact *xs[17];
      const char *names[17];
      for (int k = 0; k < 17; k++) {
        xs[k] = x;
        names[k] = "v";
      }
      CHECK(rg_exact_compare(xs, names, 1, &b.out) == RG_BAD_VALUE &&
            rg_exact_compare_json(xs, names, 17, &b.out) == RG_BAD_VALUE &&
            rg_exact_compare_svg(xs, names, 17, &b.out) == RG_BAD_VALUE,
            "compare: 2 to 16 odds");
      xs[1] = NULL;
      CHECK(rg_exact_compare(xs, names, 2, &b.out) == RG_BAD_VALUE &&
            rg_exact_compare_svg(xs, names, 2, &b.out) == RG_BAD_VALUE, "compare: a NULL odds");
      xs[1] = y;
      CHECK(rg_exact_compare(xs, names, 2, &b.out) == RG_OK && b.data &&
            rg_exact_compare_svg(xs, names, 2, &b.out) == RG_OK, "compare: two");
    }
    rg_exact_free(x);
    rg_exact_free(y);
    /* answers of kind answers, with no text: main's choice goes unanswered;
    ** no rule failed, so no place in the rules (regula.h: "?", 0, 0) */
    o = RG_OPTIONS(rg_exact_options);
    o.policy.kind = RG_CHOOSE_ANSWERS;
    rg_place at;
    CHECK(rg_exact_new(r, &o, &x) == RG_OK && rg_exact_run(x) == RG_RUN_ERROR &&
          rg_exact_where(x, &at) == 0 && strcmp(at.path, "?") == 0 && at.line == 0 &&
          rg_exact_errmsg(x)[0] && rg_exact_outcomes(x) == 0 &&
          rg_exact_json(x, &b.out) == RG_BAD_VALUE && rg_exact_svg(x, &b.out) == RG_BAD_VALUE,
          "exact main: no answers '%s'", x ? rg_exact_errmsg(x) : "");
    rg_exact_free(x);
    rg_buf_free(&b);
  }

  /* ---- a tally too wide to keep: more than 1000 distinct results ---- */
  {
    static const char wide[] =
      "procedure main() -> int { return roll d100 * 100 + roll d100 }\n";
    rg_rules *rw = NULL;
    rg_sims *s = NULL;
    rg_sims_options o = RG_OPTIONS(rg_sims_options);
    uint32_t nv = 9;
    o.threads = 1;
    CHECK(rg_rules_compile("wide", wide, sizeof wide - 1, NULL, &rw) == RG_OK &&
          rg_sims_new(rw, &o, &s) == RG_OK && rg_sims_run(s, 3000) == RG_OK, "wide sims");
    /* 3000 runs over 10000 results: about 2600 distinct, over 1000 */
    CHECK(s && rg_sims_column(s, 0, NULL, &nv) == RG_OK && nv == 0 &&
          rg_sims_value(s, 0, 0, NULL, NULL) == RG_NOT_FOUND, "wide: not tallied (%u)", nv);
    rg_sims_free(s);
    rg_rules_free(rw);
  }

  /* ---- sims: values read again, the cache of their order ---- */
  {
    rg_sims *s = NULL;
    rg_sims_options o = RG_OPTIONS(rg_sims_options);
    const char *t1 = NULL, *t2 = NULL;
    uint64_t c1 = 0, c2 = 0, run = 9;
    rg_place at;
    rg_buf b;
    rg_buf_init(&b);
    o.policy.strategy = "careful";
    o.threads = 2;
    CHECK(rg_sims_new(r, &o, &s) == RG_OK && rg_sims_run(s, 10) == RG_OK, "sims careful");
    CHECK(s && rg_sims_value(s, 0, 0, &t1, &c1) == RG_OK && strcmp(t1, "B") == 0 && c1 == 10 &&
          rg_sims_value(s, 0, 0, NULL, NULL) == RG_OK && rg_sims_value(s, 0, 1, NULL, NULL) ==
          RG_NOT_FOUND, "sims careful: B ten times");
    CHECK(s && rg_sims_run(s, 5) == RG_OK && rg_sims_value(s, 0, 0, &t2, &c2) == RG_OK &&
          strcmp(t2, "B") == 0 && c2 == 15, "sims careful: B fifteen times after five more");
    CHECK(s && !rg_sims_where(s, NULL, NULL) && rg_sims_expects(s, NULL, NULL) == 0 &&
          rg_sims_expects(s, &run, &at) == 0 && run == 0 && at.line == 0, "sims: NULLs");
    CHECK(s && rg_sims_write(s, &b.out) == RG_OK && b.data &&
          strstr(b.data, "careful (the default strategy of the rules; other choices at random)"),
          "sims: the default strategy named in the header");
    rg_sims_free(s);
    o.policy.strategy = "loose";
    o.policy.kind = RG_CHOOSE_FIRST;
    rg_buf_free(&b);
    rg_buf_init(&b);
    CHECK(rg_sims_new(r, &o, &s) == RG_OK && rg_sims_run(s, 3) == RG_OK &&
          rg_sims_write(s, &b.out) == RG_OK && b.data &&
          strstr(b.data, "loose (a strategy of the rules; other choices at their first option)"),
          "sims: another strategy named in the header");
    rg_sims_free(s);
    rg_buf_free(&b);
  }

  /* ---- variants: more than 16, failures read with NULLs ---- */
  {
    const rg_rules *many[17];
    const char *names[17];
    rg_simvars *c = NULL;
    for (int k = 0; k < 17; k++) {
      many[k] = r;
      names[k] = "v";
    }
    CHECK(rg_simvars_new(many, names, 17, NULL, &c) == RG_BAD_VALUE && !c &&
          strcmp(rg_rules_errmsg(r), "compare 2 to 16 rule sets, not 17") == 0, "simvars: 17");
    rg_simvars_options o = RG_OPTIONS(rg_simvars_options);
    o.proc = "bad";
    CHECK(rg_simvars_new(many, names, 2, &o, &c) == RG_OK && rg_simvars_run(c, 2) ==
          RG_RUN_ERROR && rg_simvars_failure(c, NULL, NULL, NULL), "simvars: failure, NULLs");
    rg_simvars_free(c);
  }

  /* ---- pictures and runs side by side ---- */
  {
    static const char pic[] =
      "record pair { a: int, b: int }\n"
      "procedure board() { canvas(\"b\", 2, 2, \"\")\n rect(0, 0, 1, 1, \"\", \"x\") }\n"
      "procedure wrong() { canvas(\"c\", 2, 2, \"\")\n canvas(\"d\", 0, 0, \"\") }\n"
      "procedure one() -> pair { return { a: 1, b: 2 } }\n"
      "procedure plain() -> int { return 7 }\n";
    rg_rules *rp = NULL;
    rg_run *run = NULL, *run2 = NULL;
    rg_buf b;
    rg_buf_init(&b);
    CHECK(rg_pictures_count(NULL) == 0 && rg_pictures_find(NULL, "b") == -1 &&
          rg_pictures_error(NULL, NULL) == NULL && rg_pictures_name(NULL, 0) == NULL,
          "pictures: none");
    CHECK(rg_rules_compile("pic", pic, sizeof pic - 1, NULL, &rp) == RG_OK &&
          rg_run_new(rp, NULL, &run) == RG_OK && rg_run_pictures(run) == RG_OK &&
          rg_run_pictures(run) == RG_OK && rg_run_call(run, "board", NULL, 0) == RG_OK,
          "pictures: board (pictures asked for twice)");
    CHECK(run && rg_pictures_save(rg_run_drawn(run), 1, "/tmp/x.svg", &b.out) == RG_BAD_VALUE &&
          rg_pictures_save(rg_run_drawn(run), 0, "/nonexistent/dir/b.svg", &b.out) == RG_IO &&
          b.data && strstr(b.data, "/nonexistent/dir/b.svg"), "pictures: save where no folder is");
    CHECK(run && rg_pictures_save(rg_run_drawn(run), 0, "/nonexistent/dir/b.svg", NULL) == RG_IO,
          "pictures: save, no reason asked");
    rg_run_free(run);
    run = NULL;
    /* a canvas of no size after a right one: an error, and c not saved */
    CHECK(rg_run_new(rp, NULL, &run) == RG_OK && rg_run_pictures(run) == RG_OK &&
          rg_run_call(run, "wrong", NULL, 0) == RG_OK &&
          rg_pictures_error(rg_run_drawn(run), NULL) && rg_pictures_count(rg_run_drawn(run)) >= 1 &&
          rg_pictures_save(rg_run_drawn(run), 0, "/tmp/x.svg", NULL) == RG_RUN_ERROR,
          "pictures: a wrong shape is not saved");
    rg_run_free(run);
    run = NULL;
    /* side by side: a record and a plain value; n < 1 */
    CHECK(rg_run_new(rp, NULL, &run) == RG_OK && rg_run_new(rp, NULL, &run2) == RG_OK &&
          rg_run_call(run, "one", NULL, 0) == RG_OK && rg_run_call(run2, "plain", NULL, 0) ==
          RG_OK, "side by side: two runs");
    if (run && run2) {
      const rg_run *runs[] = { run, run2 };
      const char *names[] = { "rec", "int" };
      rg_buf_free(&b);
      rg_buf_init(&b);
      CHECK(rg_runs_side_by_side(runs, names, 0, 1, "random", 0, &b.out) == RG_BAD_VALUE,
            "side by side: none");
      /* two plain results alike: one row, result, not marked */
      {
        const rg_run *same[] = { run2, run2 };
        CHECK(rg_runs_side_by_side(same, names, 2, 1, "random", 0, &b.out) == RG_OK && b.data &&
              strstr(b.data, "\n  result") && !strstr(b.data, "\n* "),
              "side by side: equal plain results '%s'", b.data ? b.data : "");
        rg_buf_free(&b);
        rg_buf_init(&b);
      }
      /* rows a, b (the record's fields) and result (the plain value) */
      CHECK(rg_runs_side_by_side(runs, names, 2, 1, "random", 0, &b.out) == RG_OK && b.data &&
            strstr(b.data, "\n* a ") && strstr(b.data, "\n* b ") && strstr(b.data, "\n* result"),
            "side by side: fields and result '%s'", b.data ? b.data : "");
    }
    rg_run_free(run);
    rg_run_free(run2);
    rg_rules_free(rp);
    rg_buf_free(&b);
  }

  /* ---- the sheet of a text; a table not there ---- */
  {
    rg_buf b;
    const char *tables[] = { "nope" };
    char d2[256] = "";
    rg_compile_options o = RG_OPTIONS(rg_compile_options);
    o.diagnostic = keep_diag;
    o.diagnostic_ctx = d2;
    rg_buf_init(&b);
    CHECK(rg_rules_sheet("x", "table (", 7, &o, &b.out) == RG_BAD_RULES && d2[0],
          "sheet: errors in the rules");
    CHECK(rg_rules_sheet("x", NULL, 0, NULL, &b.out) == RG_OK, "sheet: no text, no options");
    CHECK(rg_rules_sheet_of(r, tables, 1, &b.out) == RG_NOT_FOUND, "sheet_of: no such table");
    rg_buf_free(&b);
  }

  /* ---- placeholders: none, and no such procedure ---- */
  {
    rg_buf b;
    rg_buf_init(&b);
    CHECK(rg_rules_placeholders(r, "nope", 1, &b.out) == 0 &&
          rg_rules_placeholders(r, "main", 1, &b.out) == 0 &&
          rg_rules_placeholders(r, "main", 0, &b.out) == 0 && !b.data,
          "placeholders: none written");
    rg_buf_free(&b);
  }

  /* ---- the log of a run whose chance comes from the caller ---- */
  {
    rg_run *run = NULL;
    rg_run_options o = RG_OPTIONS(rg_run_options);
    rg_buf b;
    rg_buf_init(&b);
    o.chance = first_face;
    o.policy.kind = RG_CHOOSE_FIRST;
    CHECK(rg_run_new(r, &o, &run) == RG_OK, "chance run");
    if (run) {
      rg_run_log(run, &b.out, 0, NULL, NULL);
      CHECK(rg_run_call(run, "roll_plus", ten, 1) == RG_OK &&
            rg_run_result(run, buf, sizeof buf) == RG_OK && strcmp(buf, "11") == 0,
            "chance: the caller's 1 + 10 = 11");
      CHECK(b.data && strstr(b.data, "first") && strstr(b.data, "ask"),
            "the log names policy first and dice ask: '%s'", b.data ? b.data : "");
    }
    rg_run_free(run);
    rg_buf_free(&b);
  }


  /* ---- secret choices: asked and delivered as secret ---- */
  {
    static const char sec[] =
      "enum side { A, B }\n"
      "procedure main() -> side {\n"
      "  let a = choose secret(A, \"hidden?\", {A, B})\n"
      "  let b = choose(B, \"open?\", {A, B})\n"
      "  return a\n"
      "}\n";
    rg_rules *rs = NULL;
    rg_run *run = NULL;
    rg_run_options o = RG_OPTIONS(rg_run_options);
    char asked[64] = "", events[64] = "";
    o.policy.kind = RG_CHOOSE_CALLBACK;
    o.policy.choose = note_secret;
    o.policy.choose_ctx = asked;
    o.event = choice_secret;
    o.event_ctx = events;
    CHECK(rg_rules_compile("sec", sec, sizeof sec - 1, NULL, &rs) == RG_OK &&
          rg_run_new(rs, &o, &run) == RG_OK && rg_run_asking_secret(run) == 0 &&
          rg_run_call(run, "main", NULL, 0) == RG_OK &&
          rg_run_result(run, buf, sizeof buf) == RG_OK && strcmp(buf, "B") == 0,
          "secret: the run answers B");
    CHECK(strcmp(asked, "10") == 0 && strcmp(events, "so") == 0,
          "secret: asked '%s', events '%s'", asked, events);
    rg_run_free(run);
    rg_rules_free(rs);
  }

  /* ---- compiled by path: the hash does not depend on how the path is
  ** written; assumptions and source lines kept with keep_sources ---- */
  {
    static const char as[] =
      "ruleset \"as\"\n"
      "enum face { hit, miss }\n"
      "dice D: face = { hit: 1, miss: 1 } assumed \"faces not on the sheet\"\n"
      "procedure main() -> face { return roll D }\n";
    char folder[] = "/tmp/regula-apierr-XXXXXX", p1[128], p2[128], h1[32] = "", h2[32] = "",
         h3[32] = "", what[128] = "";
    rg_rules *a = NULL, *b = NULL;
    rg_compile_options o = RG_OPTIONS(rg_compile_options);
    size_t len = 0;
    const char *line;
    o.keep_sources = 1;
    if (mkdtemp(folder)) {
      FILE *f;
      snprintf(p1, sizeof p1, "%s/as.rules", folder);
      snprintf(p2, sizeof p2, "%s/../%s/./as.rules", folder, strrchr(folder, '/') + 1);
      if ((f = fopen(p1, "w"))) {
        fputs(as, f);
        fclose(f);
      }
      CHECK(rg_rules_load(p1, &o, &a) == RG_OK && rg_rules_load(p2, NULL, &b) == RG_OK,
            "load by two paths");
      CHECK(a && b && rg_rules_hash(a, h1, sizeof h1) == RG_OK &&
            rg_rules_hash(b, h2, sizeof h2) == RG_OK && strlen(h1) == 16 && strcmp(h1, h2) == 0,
            "the same rules by two paths hash the same: %s %s", h1, h2);
      CHECK(rg_rules_hash(r, h3, sizeof h3) == RG_OK && strcmp(h1, h3) != 0 &&
            rg_rules_hash(r, h3, 0) == RG_OK, "other rules hash otherwise");
      CHECK(a && rg_rules_assumptions(a, keep_note, what) == 1 &&
            strcmp(what, "dice D|faces not on the sheet") == 0, "one assumption: '%s'", what);
      line = a ? rg_rules_source_line(a, p1, 4, &len) : NULL;
      CHECK(line && len == 42 &&
            strncmp(line, "procedure main() -> face { return roll D }", 42) == 0 &&
            a && !rg_rules_source_line(a, NULL, 4, &len) &&
            !rg_rules_source_line(a, "other.rules", 4, &len), "source line 4 of the file");
      rg_rules_free(a);
      rg_rules_free(b);
      unlink(p1);
      rmdir(folder);
    }
  }

  /* ---- small things: NULL rules, NULL text, no room for a cell ---- */
  {
    rg_rules *e = NULL;
    const char *keys[] = { "A", "1" };
    char one[1] = { 'x' };
    CHECK(strcmp(rg_rules_errmsg(NULL), "") == 0, "errmsg of no rules");
    CHECK(rg_rules_compile("e", NULL, 0, NULL, &e) == RG_OK && e &&
          rg_rules_count(e, RG_PROC) == 0, "no text: rules with nothing");
    rg_rules_free(e);
    CHECK(rg_rules_query(r, "nope", keys, 2, one, 0) == RG_NOT_FOUND && one[0] == 'x',
          "query with no room: nothing written");
    CHECK(rg_rules_query(r, "t", keys, 2, one, 1) == RG_OK && one[0] == '\0',
          "query with room for the NUL only");
  }


  /* ---- odds: a fraction beyond 64 bits, the memory limit ---- */
  {
    /* By hand: 23 rolls of a d7 sum to 23 only when all are 1, with
    ** probability 1/7^23, and 7^23 (about 2.7e19) is beyond 2^64 - 1
    ** (about 1.8e19); 6 rolls of a d6 sum to 6 with probability 1/6^6 =
    ** 1/46656.  Telling 6 d6 apart needs more than 1 KiB. */
    static const char sums[] =
      "procedure d7s() -> int {\n  let s = 0\n  for i in 1..23 { s = s + roll d7 }\n  return s\n}\n"
      "procedure d6s() -> int {\n  let s = 0\n  for i in 1..6 { s = s + roll d6 }\n  return s\n}\n";
    rg_rules *rs = NULL;
    rg_exact *x = NULL;
    rg_exact_options o = RG_OPTIONS(rg_exact_options);
    const char *t = NULL;
    uint64_t num = 9, den = 9;
    CHECK(rg_rules_compile("sums", sums, sizeof sums - 1, NULL, &rs) == RG_OK, "sums");
    o.proc = "d7s";
    CHECK(rs && rg_exact_new(rs, &o, &x) == RG_OK && rg_exact_run(x) == RG_OK &&
          rg_exact_outcomes(x) == 139 && rg_exact_outcome(x, 0, &t, &num, &den) == RG_RUN_LIMIT &&
          strcmp(t, "23") == 0 && num == 0 && den == 0 &&
          rg_exact_outcome(x, 0, NULL, NULL, NULL) == RG_RUN_LIMIT,
          "1/7^23 is beyond 64 bits: %s %llu/%llu", t ? t : "", (unsigned long long)num,
          (unsigned long long)den);
    rg_exact_free(x);
    x = NULL;
    o.proc = "d6s";
    CHECK(rs && rg_exact_new(rs, &o, &x) == RG_OK && rg_exact_run(x) == RG_OK &&
          rg_exact_outcome(x, 0, &t, &num, &den) == RG_OK && strcmp(t, "6") == 0 && num == 1 &&
          den == 46656, "1/6^6");
    rg_exact_free(x);
    x = NULL;
    o.limits.max_memory = 1024;
    CHECK(rs && rg_exact_new(rs, &o, &x) == RG_OK && rg_exact_run(x) == RG_RUN_LIMIT &&
          strcmp(rg_exact_errmsg(x), "telling the chance states apart needs more than 1 KiB of "
                 "memory (the memory limit; raise it with --max-memory); estimate with "
                 "`regula sim`") == 0 && !rg_exact_limit_was_runs(x),
          "odds over 1 KiB: '%s'", x ? rg_exact_errmsg(x) : "");
    rg_exact_free(x);
    rg_rules_free(rs);
  }

  /* ---- edges: indexes below 0, no room, NULL outs, answers out of range ---- */
  CHECK(rg_rules_param(r, -1, 0) == NULL && rg_rules_arity(r, RG_PROC, -1) == -1 &&
        rg_rules_type(r, RG_PROC, -1, -1, buf, sizeof buf) == NULL, "index -1");
  {
    rg_run *run = NULL;
    rg_place p = { "x", 9, 9 };
    char one[1] = { 'x' };
    CHECK(rg_run_new(r, NULL, &run) == RG_OK && run, "a run");
    if (run) {
      CHECK(rg_run_where(run, NULL) == 0 && rg_run_where(run, &p) == 0 && strcmp(p.path, "?") == 0 &&
            p.line == 0, "where, before any call: nowhere");
      CHECK(rg_run_result(run, one, 0) == RG_OK && one[0] == 'x', "result into no room");
      CHECK(rg_run_event_value(run, 0, one, 0) == RG_BAD_VALUE &&
            rg_run_option(run, 0, one, 0) == RG_BAD_VALUE && one[0] == 'x',
            "no event, no question: refused, nothing written");
    }
    rg_run_free(run);
  }
  {
    /* a choice answered past its last option, a die not answered: the run
    ** stops with the reason */
    rg_run *run = NULL;
    rg_run_options o = RG_OPTIONS(rg_run_options);
    int refused = 0;
    o.policy.kind = RG_CHOOSE_CALLBACK;
    o.policy.choose = past_last;
    o.policy.choose_ctx = &refused;
    CHECK(rg_run_new(r, &o, &run) == RG_OK, "callback run");
    if (run)
      CHECK(rg_run_call(run, "main", NULL, 0) != RG_OK && refused &&
            strstr(rg_run_errmsg(run), "no answer for the choice"),
            "an answer past the last option: '%s'", rg_run_errmsg(run));
    rg_run_free(run);
    run = NULL;
    o.policy.choose = no_answer;
    CHECK(rg_run_new(r, &o, &run) == RG_OK, "callback run 2");
    if (run)
      CHECK(rg_run_call(run, "main", NULL, 0) != RG_OK &&
            strstr(rg_run_errmsg(run), "no answer for the choice"),
            "no answer (-1) for a choice: '%s'", rg_run_errmsg(run));
    rg_run_free(run);
    run = NULL;
    o = RG_OPTIONS(rg_run_options);
    o.policy.kind = RG_CHOOSE_ANSWERS;      /* and no answers at all */
    CHECK(rg_run_new(r, &o, &run) == RG_OK, "answers run");
    if (run)
      CHECK(rg_run_call(run, "main", NULL, 0) != RG_OK &&
            strstr(rg_run_errmsg(run), "answers:1: no answer for: ") &&
            strstr(rg_run_errmsg(run), "(the answers ran out)"),
            "no answers given: '%s'", rg_run_errmsg(run));
    rg_run_free(run);
    run = NULL;
    o = RG_OPTIONS(rg_run_options);
    o.policy.kind = RG_CHOOSE_FIRST;
    o.dice = past_last;
    o.dice_ctx = &refused;
    refused = 0;
    CHECK(rg_run_new(r, &o, &run) == RG_OK, "dice run 2");
    if (run)
      CHECK(rg_run_call(run, "roll_plus", ten, 1) != RG_OK && refused &&
            strstr(rg_run_errmsg(run), "no answer for the dice"),
            "a die answered past its last face: '%s'", rg_run_errmsg(run));
    rg_run_free(run);
    run = NULL;
    o = RG_OPTIONS(rg_run_options);
    o.policy.kind = RG_CHOOSE_FIRST;
    o.dice = no_answer;
    CHECK(rg_run_new(r, &o, &run) == RG_OK, "dice run");
    if (run)
      CHECK(rg_run_call(run, "roll_plus", ten, 1) != RG_OK &&
            strstr(rg_run_errmsg(run), "no answer for the dice"),
            "a die with no answer: '%s'", rg_run_errmsg(run));
    rg_run_free(run);
  }
  {
    /* the caller's chance is asked by the die's and the deck's names: a
    ** die of 2 faces, a bag of 3 cards; the first of each */
    static const char named[] =
      "ruleset \"names\"\n"
      "enum colour { BLACK, RED }\n"
      "enum face { hit, miss }\n"
      "dice D: face = { hit: 1, miss: 1 }\n"
      "deck bag: colour = { BLACK: 2, RED: 1 }\n"
      "procedure main() -> colour {\n"
      "  let f = roll D\n"
      "  return draw bag\n"
      "}\n";
    rg_rules *nr = NULL;
    rg_run *run = NULL;
    rg_run_options o = RG_OPTIONS(rg_run_options);
    char seen[128] = "";
    o.chance = name_chance;
    o.chance_ctx = seen;
    CHECK(rg_rules_compile("names", named, sizeof named - 1, NULL, &nr) == RG_OK, "names compile");
    if (nr && rg_run_new(nr, &o, &run) == RG_OK) {
      CHECK(rg_run_call(run, "main", NULL, 0) == RG_OK && rg_run_result(run, buf, sizeof buf) == RG_OK &&
            strcmp(buf, "BLACK") == 0 && strcmp(seen, "f D 2|c bag 3|") == 0,
            "chance by name: '%s', result '%s'", seen, buf);
    }
    rg_run_free(run);
    rg_rules_free(nr);
  }
  {
    /* during a roll event, the event's text is refused: only notes and
    ** failed expects have one */
    rg_run *run = NULL;
    rg_run_options o = RG_OPTIONS(rg_run_options);
    char seen[64] = "";
    o.event = roll_text;
    o.event_ctx = seen;
    CHECK(rg_run_new(r, &o, &run) == RG_OK, "event run");
    if (run)
      CHECK(rg_run_call(run, "roll_plus", ten, 1) == RG_OK && strcmp(seen, "b") == 0,
            "a roll has no event text: '%s'", seen);
    rg_run_free(run);
  }
  {
    /* describing into an output that fails: RG_IO (regula.h, rg_out) */
    rg_out bad = { refuse_write, NULL, 0 };
    CHECK(rg_rules_describe(r, "reach", &bad) == RG_IO && bad.failed,
          "describe into a failing output");
  }

  /* ---- copies ---- */
  CHECK(rg_rules_set(r, "bonus=3") == RG_BAD_VALUE &&
        strcmp(rg_rules_errmsg(r), "the rules are not a copy made by rg_rules_copy") == 0 &&
        rg_rules_set_lines(r, "bonus=3\n", 8, NULL) == RG_BAD_VALUE, "set: not a copy");
  CHECK(rg_rules_copy(r, &copy) == RG_OK && copy, "copy");
  if (copy) {
    CHECK(rg_rules_set(copy, "nope=3") == RG_NOT_FOUND && rg_rules_errmsg(copy)[0],
          "set: no such input");
    CHECK(rg_rules_set(copy, "bonus=many") == RG_BAD_VALUE && rg_rules_errmsg(copy)[0],
          "set: a value that does not parse");
    CHECK(rg_rules_set_lines(copy, "\n  # none\n  bonus = 7  \r\n", 25, NULL) == RG_OK &&
          strcmp(rg_rules_input_value(copy, 0, buf, sizeof buf), "7") == 0,
          "set_lines: blank lines and comments skipped");
    rg_rules_free(copy);
  }

  rg_rules_free(none);
  rg_rules_free(r);
  return check_done("test_apierr");
}
