/*
** embed.c: regula embedded in a C program, through regula.h alone.
**
** Compiles a small rule file held in a string, looks a cell up in one of
** its tables, sets an input, runs `main` with the first-option policy,
** counts the events by kind and prints a summary as one JSON object:
**
**     cc -Iinterp examples/embed.c build/libregula.a -lutf8proc -ljansson -lm
**     ./a.out
**
** (`make test` builds it, runs it and compares its output with
** examples/embed.expected.)  The JSON is written by hand here; a program
** with more to say would use a JSON library.
*/
#include "regula.h"

#include <stdio.h>
#include <string.h>

static const char rules[] =
  "ruleset \"Embedding example\"\n"
  "\n"
  "enum side { A \"Alpha\", B \"Bravo\" }\n"
  "enum ground { S \"Standard\", C \"Coastal\", F \"Forest\" }\n"
  "input grounds: set ground = {C, F}\n"
  "table bonus(side) -> int { A: 1, B: 2 }\n"
  "\n"
  "procedure main() -> ground {\n"
  "  step \"Scouting\" {\n"
  "    let r = roll 2d6 + bonus[A]\n"
  "    let s = roll d6\n"
  "    note \"scouting rolls\", r, s\n"
  "  }\n"
  "  let g = S\n"
  "  step \"Terrain\" {\n"
  "    g = choose(B, \"which ground?\", grounds)\n"
  "    note \"ground chosen\", g\n"
  "  }\n"
  "  return g\n"
  "}\n";

/* What the event callback gathers. */
typedef struct summary {
  int count[RG_EVENT_KINDS];
  char choice[256];          /* the last choice: "prompt -> option (who)" */
} summary;

/* Event callback: counts events by kind and remembers the last choice. */
static void on_event(void *ctx, rg_run *run, const rg_event *ev) {
  summary *s = ctx;
  s->count[ev->kind]++;
  if (ev->kind == RG_EVENT_CHOICE) {
    char option[64], who[64];
    rg_run_event_value(run, 0, option, sizeof option);
    rg_run_event_value(run, 1, who, sizeof who);
    snprintf(s->choice, sizeof s->choice, "%s -> %s (%s)", ev->name, option, who);
  }
}

/* Diagnostic callback: prints each error as the regula program does. */
static void on_diagnostic(void *ctx, const rg_diagnostic *d) {
  rg_diagnostic_render(d, ctx);
}

/* rg_out write callback to a FILE*. */
static int write_file(void *ctx, const char *s, size_t n) {
  return fwrite(s, 1, n, ctx) == n ? 0 : -1;
}

int main(void) {
  rg_out err = { write_file, stderr, 0 };
  rg_compile_options copt = { .diagnostic = on_diagnostic, .diagnostic_ctx = &err };
  rg_run_options ropt = { .seed = 1, .policy = RG_CHOOSE_FIRST, .event = on_event };
  rg_rules *rules_ = NULL;
  rg_run *run = NULL;
  summary sum;
  char bonus[64], result[256], msg[256];
  const char *key[] = { "bravo" };
  rg_status st;
  int total = 0;

  memset(&sum, 0, sizeof sum);
  ropt.event_ctx = &sum;
  st = rg_rules_compile("embed.rules", rules, strlen(rules), &copt, &rules_);
  if (st != RG_OK) {
    fprintf(stderr, "embed: cannot compile: %s\n", rg_status_name(st));
    return 2;
  }
  st = rg_rules_query(rules_, "bonus", key, 1, bonus, sizeof bonus);
  if (st == RG_OK) st = rg_run_new(rules_, &ropt, &run);
  if (st == RG_OK) st = rg_run_set_input(run, "grounds", "Forest,S", msg, sizeof msg);
  if (st == RG_OK) st = rg_run_call(run, "main", NULL, 0);
  if (st == RG_OK) st = rg_run_result(run, result, sizeof result);
  if (st != RG_OK) {
    const char *path;
    uint32_t line, col;
    const char *why = run ? rg_run_error(run, &path, &line, &col) : "";
    fprintf(stderr, "embed: %s: %s\n", rg_status_name(st), why);
    rg_run_free(run);
    rg_rules_free(rules_);
    return 3;
  }

  printf("{\"version\":\"%s\",\"rules\":\"%s\",\"bonus[Bravo]\":%s,\"result\":\"%s\",",
         rg_version(), rg_rules_name(rules_), bonus, result);
  printf("\"choice\":\"%s\",\"events\":{", sum.choice);
  for (int k = 0; k < RG_EVENT_KINDS; k++) {
    printf("%s\"%s\":%d", k ? "," : "", rg_event_kind_name((rg_event_kind)k), sum.count[k]);
    total += sum.count[k];
  }
  printf("},\"total\":%d}\n", total);

  rg_run_free(run);
  rg_rules_free(rules_);
  return 0;
}
