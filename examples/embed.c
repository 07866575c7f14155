/*
** embed.c: regula embedded in a C program, through regula.h alone.
**
** Compiles a small rule file held in a string, looks a cell up in one of
** its tables, sets an input on a copy of the rules, runs `main` with the
** first-option policy,
** counts the events by kind and prints a summary as one JSON object:
**
**     cc examples/embed.c $(pkg-config --cflags --libs regula)
**     ./a.out
**
** or, in the source tree, cc -Iinterp examples/embed.c build/libregula.a
** -pthread -lutf8proc -ljansson -lm.
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
  rg_compile_options copt = RG_OPTIONS(rg_compile_options);
  rg_run_options ropt = RG_OPTIONS(rg_run_options);
  rg_rules *rules_ = NULL, *set = NULL;
  rg_run *run = NULL;
  summary sum;
  char bonus[64], result[256];
  const char *key[] = { "bravo" };
  rg_status st;
  int total = 0;

  memset(&sum, 0, sizeof sum);
  copt.diagnostic = on_diagnostic;
  copt.diagnostic_ctx = &err;
  ropt.seed = 1;
  ropt.policy.kind = RG_CHOOSE_FIRST;
  ropt.event = on_event;
  ropt.event_ctx = &sum;
  st = rg_rules_compile("embed.rules", rules, strlen(rules), &copt, &rules_);
  if (st != RG_OK) {
    fprintf(stderr, "embed: cannot compile: %s\n", rg_status_name(st));
    return 2;
  }
  /* each failure's message comes from the handle the call was made on */
  st = rg_rules_query(rules_, "bonus", key, 1, bonus, sizeof bonus);
  if (st == RG_OK) st = rg_rules_copy(rules_, &set);
  if (st == RG_OK) st = rg_rules_set(set, "grounds=Forest,S");
  if (st == RG_OK) st = rg_run_new(set, &ropt, &run);
  if (st != RG_OK) {
    fprintf(stderr, "embed: %s: %s\n", rg_status_name(st),
            rg_rules_errmsg(set ? set : rules_));
    rg_rules_free(set);
    rg_rules_free(rules_);
    return 3;
  }
  st = rg_run_call(run, "main", NULL, 0);
  if (st == RG_OK) st = rg_run_result(run, result, sizeof result);
  if (st != RG_OK) {
    fprintf(stderr, "embed: %s: %s\n", rg_status_name(st), rg_run_errmsg(run));
    rg_run_free(run);
    rg_rules_free(set);
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
  rg_rules_free(set);
  rg_rules_free(rules_);
  return 0;
}
