/*
** inputs.c: a run's inputs and placeholder data from the command line
** (--inputs FILE, then each --set NAME=VALUE), the same for run, sim and
** odds, and --policy (see inputs.h).  The library parses and keeps them
** (rg_rules_copy, rg_rules_set); this file reads the file and prints what
** is wrong.
*/
#include "regula_front.h"
#include "ask.h"
#include "exitcode.h"
#include "fileout.h"
#include "inputs.h"
#include "opts.h"

#include <stdio.h>
#include <string.h>

/* Whether NAME=VALUE texts a and b name the same input (spaces and tabs
** left out); a text without '=' names none (the library says why). */
static int same_name(const char *a, const char *b) {
  if (!strchr(a, '=') || !strchr(b, '=')) return 0;
  for (;;) {
    while (*a == ' ' || *a == '\t') a++;
    while (*b == ' ' || *b == '\t') b++;
    if (*a == '=' || *b == '=') return *a == *b;
    if (*a++ != *b++) return 0;
  }
}

int cli_set_twice(const char *const *sets, int n, const char *s) {
  for (int i = 0; i < n; i++)
    if (same_name(sets[i], s)) return i;
  return -1;
}

int cli_rules_setup(const rg_rules *r, const char *inputs, const char *const *sets, int nsets,
                    rg_rules **out) {
  rg_status st = rg_rules_copy(r, out);
  const char *where = NULL;               /* what the message is about */
  char set[64];
  if (st == RG_OK && inputs) {
    char *text = NULL;
    size_t len = 0;
    int frc = ask_read_file(inputs, &text, &len);
    if (frc != EX_OK) {
      rg_rules_free(*out);
      *out = NULL;
      return frc;
    }
    st = rg_rules_set_lines(*out, text, len, inputs);
    rg_free(text);
  }
  for (int i = 0; st == RG_OK && i < nsets; i++) {
    snprintf(set, sizeof set, "--set %.50s", sets[i]);
    where = set;
    st = rg_rules_set(*out, sets[i]);
  }
  if (st == RG_NOMEM)
    fputs("regula: error: out of memory\n", stderr);
  else if (st != RG_OK && where)
    cli_eprintf("regula: error: %s: %s\n", where, rg_rules_errmsg(*out));
  else if (st != RG_OK)
    cli_eprintf("regula: error: %s\n", rg_rules_errmsg(*out));
  if (st != RG_OK) {
    rg_rules_free(*out);
    *out = NULL;
  }
  return st == RG_OK ? EX_OK : st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
}

int cli_policy(const char *cmd, const char *policy, const char *const *allowed, int *kind,
               char **answers, size_t *len) {
  *answers = NULL;
  *len = 0;
  *kind = 0;
  if (!policy) return EX_OK;
  rg_policy p;
  for (int k = 0; allowed[k]; k++)
    if (strcmp(policy, allowed[k]) == 0) {
      *kind = k;
      return EX_OK;
    }
  /* the library reads the policy's name (rg_policy_parse) */
  if (rg_policy_parse(NULL, policy, &p) == RG_OK && p.kind == RG_CHOOSE_ANSWERS) {
    *kind = -1;
    return ask_read_file(p.answers_name, answers, len);
  }
  *kind = -2;                             /* a strategy: cli_rules_strategy */
  return EX_OK;
}

int cli_rules_strategy(const char *cmd, const rg_rules *r, const char *policy,
                       const char *const *allowed, const char **strategy) {
  rg_buf names;
  rg_policy p;
  int n = rg_rules_count(r, RG_STRATEGY);
  *strategy = NULL;
  if (!policy) {
    /* no policy asked for: the rules' default strategy, when they name one */
    *strategy = rg_rules_item(r, RG_STRATEGY, rg_rules_default_strategy(r));
    return EX_OK;
  }
  for (int k = 0; allowed[k]; k++)
    if (strcmp(policy, allowed[k]) == 0) return EX_OK;
  if (rg_policy_parse(r, policy, &p) == RG_OK && (p.kind == RG_CHOOSE_ANSWERS || p.strategy)) {
    *strategy = p.strategy;
    return EX_OK;
  }
  rg_buf_init(&names);
  for (int k = 0; allowed[k]; k++) rg_printf(&names.out, "%s, ", allowed[k]);
  rg_puts(&names.out, "answers:FILE");
  if (n) {
    rg_puts(&names.out, " or a strategy of the rules (");
    for (int i = 0; i < n; i++)
      rg_printf(&names.out, "%s%s", i ? ", " : "", rg_rules_item(r, RG_STRATEGY, i));
    rg_puts(&names.out, ")");
  } else {
    rg_puts(&names.out, " (the rules declare no strategy)");
  }
  int rc = usage_error(cmd, "--policy must be %s, not '%s'", names.out.failed ? "..." : names.data,
                       policy);
  rg_buf_free(&names);
  return rc;
}

int cli_list_strategies(const rg_rules *r, const char *path) {
  int n = rg_rules_count(r, RG_STRATEGY), d = rg_rules_default_strategy(r);
  if (n == 0) printf("%s declares no strategy: choices are made at random (--policy random) "
                     "or take their first option (--policy first)\n", path);
  else printf("strategies of %s (--policy NAME):\n", path);
  for (int i = 0; i < n; i++) {
    const char *doc = rg_rules_strategy_doc(r, i);
    printf("  %s%s%s%s\n", rg_rules_item(r, RG_STRATEGY, i), i == d ? " (the default)" : "",
           doc && *doc ? ": " : "", doc ? doc : "");
  }
  if (n && d < 0) puts("none is the default: without --policy, choices are made as the command's own default says");
  return fflush(stdout) == 0 && !ferror(stdout) ? EX_OK : EX_RUNTIME;
}
