/*
** test_api.c: the public interface (regula.h) used as an embedder would,
** with no other header of the library.
*/
#include "regula.h"

#include <stdio.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond, ...) do { \
    if (cond) passed++; \
    else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); \
           putchar('\n'); } \
  } while (0)

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
  CHECK(rg_rules_compile_path("/nonexistent/api.rbc", NULL, &r) == RG_NOT_FOUND && !r,
        "api-1 missing module");

  /* api-2: accessors and query. */
  CHECK(rg_rules_compile("api.rules", text, strlen(text), NULL, &r) == RG_OK, "api-2 compile");
  if (!r) { printf("test_api: %d passed, %d failed\n", passed, failed + 1); return 1; }
  CHECK(strcmp(rg_rules_name(r), "api") == 0, "api-2 name");
  int p = rg_rules_find_proc(r, "boom");
  CHECK(p >= 0 && rg_rules_param_count(r, p) == 1 &&
        strcmp(rg_rules_param_name(r, p, 0), "n") == 0 &&
        strcmp(rg_rules_param_type(r, p, 0, buf, sizeof buf), "int") == 0, "api-2 params");
  CHECK(rg_rules_find_proc(r, "nope") == -1 && rg_rules_param_name(r, p, 1) == NULL, "api-2 missing");
  CHECK(rg_rules_find_input(r, "bias") == 0 && rg_rules_input_count(r) == 1, "api-2 inputs");
  CHECK(rg_rules_find_table(r, "t") == 0 && rg_rules_table_keys(r, 0) == 2, "api-2 tables");
  CHECK(rg_rules_query(r, "t", keys, 2, buf, sizeof buf) == RG_OK && strcmp(buf, "20") == 0,
        "api-2 query '%s'", buf);
  CHECK(rg_rules_query(r, "t", keys, 1, buf, sizeof buf) == RG_BAD_VALUE &&
        strncmp(buf, "table 't' takes 2 keys (", 24) == 0, "api-2 arity '%s'", buf);
  CHECK(rg_rules_query(r, "u", keys, 1, buf, sizeof buf) == RG_NOT_FOUND &&
        strcmp(buf, "no table 'u'") == 0, "api-2 no table '%s'", buf);

  /* api-3: the caller answers; the choice and the rest arrive as events. */
  {
    asked a;
    char log[512] = "";
    rg_run_options o = { .policy = RG_CHOOSE_CALLBACK, .choose = choose_forest,
                         .choose_ctx = &a, .event = log_event, .event_ctx = log };
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
    rg_run_options o = { .policy = RG_CHOOSE_ANSWERS, .answers = answers,
                         .answers_len = sizeof answers - 1, .answers_name = "ans.txt" };
    rg_run *run = NULL;
    const char *args[] = { "A" };
    const char *msg;
    CHECK(rg_run_new(r, &o, &run) == RG_OK, "api-4 new");
    CHECK(run && rg_run_call(run, "pick", args, 1) == RG_RUN_ERROR, "api-4 stops");
    msg = run ? rg_run_error(run, NULL, NULL, NULL) : "";
    CHECK(strncmp(msg, "ans.txt:2: 'beach' is not an option", 35) == 0, "api-4 message '%s'", msg);
    rg_run_free(run);
  }

  /* api-5: inputs, bad arguments, and a runtime error with its position. */
  {
    rg_run *run = NULL;
    const char *one[] = { "1" }, *bad[] = { "x" };
    const char *path, *msg;
    uint32_t line, col;
    char err[128];
    CHECK(rg_run_new(r, NULL, &run) == RG_OK, "api-5 new");
    if (!run) return 1;
    CHECK(rg_run_call(run, "boom", one, 1) == RG_OK, "api-5 call");
    rg_run_result(run, buf, sizeof buf);
    CHECK(strcmp(buf, "20") == 0, "api-5 result '%s'", buf);
    CHECK(rg_run_call(run, "boom", bad, 1) == RG_BAD_VALUE, "api-5 bad argument");
    CHECK(rg_run_call(run, "boom", NULL, 0) == RG_BAD_VALUE, "api-5 arity");
    CHECK(rg_run_set_input(run, "bias", "many", err, sizeof err) == RG_BAD_VALUE, "api-5 bad input");
    CHECK(rg_run_set_input(run, "nope", "1", err, sizeof err) == RG_NOT_FOUND, "api-5 no input");
    CHECK(rg_run_set_input(run, "bias", "5", err, sizeof err) == RG_OK, "api-5 input");
    CHECK(rg_run_call(run, "boom", one, 1) == RG_RUN_ERROR, "api-5 runtime error");
    msg = rg_run_error(run, &path, &line, &col);
    CHECK(strcmp(path, "api.rules") == 0 && line == 11 && col == 10 &&
          strstr(msg, "outside 1..2") != NULL, "api-5 error %s:%u:%u: %s", path, line, col, msg);
    rg_run_free(run);
  }
  rg_rules_free(r);

  /* api-6: bad rules give RG_BAD_RULES and their diagnostics. */
  {
    int n = 0;
    rg_compile_options co = { .diagnostic = count_diag, .diagnostic_ctx = &n };
    r = (rg_rules *)1;
    CHECK(rg_rules_compile("bad.rules", "const a = b\n", 12, &co, &r) == RG_BAD_RULES && r == NULL &&
          n == 1, "api-6 bad rules, %d diagnostics", n);
    /* a file that is not there is RG_NOT_FOUND (with its diagnostic), not
    ** errors in the rules */
    CHECK(rg_rules_compile_path("/nonexistent/x.rules", &co, &r) == RG_NOT_FOUND && n == 2,
          "api-6 missing file, %d diagnostics", n);
  }

  printf("test_api: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
