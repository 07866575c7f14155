/*
** inputs.c: a run's inputs and placeholder data from the command line
** (--inputs FILE, then each --set NAME=VALUE), the same for run, sim and
** odds.  The library parses them (interp/setup.h); this file reads the
** file and prints what is wrong.  Also: --policy for sim and odds, and
** the --svg charts of sim and odds written to their file.
*/
#include "regula.h"
#include "ask.h"
#include "cli.h"
#include "fileout.h"

#include <string.h>

/* Prints the message in b as "regula: error: MSG" on stderr. */
static void print_error(rg_buf *b) {
  fprintf(stderr, "regula: error: %s\n", b->data ? b->data : "out of memory");
}

int cli_setup(rg_setup *s, const rg_module *m, const char *inputs, const char *const *sets,
              int nsets) {
  rg_buf err;
  int rc = 0;
  if (rg_setup_init(s, m) != 0) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  rg_buf_init(&err);
  if (inputs) {
    char *text = NULL;
    size_t len = 0;
    int frc = ask_read_file(inputs, &text, &len);
    if (frc != EX_OK) {
      rg_buf_free(&err);
      return frc;
    }
    rc = rg_setup_lines(s, text, len, inputs, &err.out);
    rg_free(text);
  }
  for (int i = 0; rc == 0 && i < nsets; i++) {
    char where[64];
    snprintf(where, sizeof where, "--set %.50s", sets[i]);
    rc = rg_setup_set(s, sets[i], where, &err.out);
  }
  if (rc == -1 || rc == -3) print_error(&err);
  else if (rc == -2) fputs("regula: error: out of memory\n", stderr);
  rg_buf_free(&err);
  return rc == 0 ? EX_OK : rc == -2 ? EX_RUNTIME : EX_BAD;
}

int cli_policy(const char *cmd, const char *policy, const char *const *allowed, int *kind,
               char **answers, size_t *len) {
  *answers = NULL;
  *len = 0;
  *kind = 0;
  if (!policy) return EX_OK;
  for (int k = 0; allowed[k]; k++)
    if (strcmp(policy, allowed[k]) == 0) {
      *kind = k;
      return EX_OK;
    }
  if (strncmp(policy, "answers:", 8) == 0 && policy[8]) {
    *kind = -1;
    return ask_read_file(policy + 8, answers, len);
  }
  *kind = -2;                             /* a strategy: cli_strategy */
  return EX_OK;
}

const char *cli_strategy_label(char *buf, size_t size, const char *name) {
  snprintf(buf, size, "%s (a strategy of the rules; other choices at random)", name);
  return buf;
}

int cli_strategy(const char *cmd, const rg_module *m, const char *policy,
                 const char *const *allowed, uint32_t *strategy) {
  rg_buf names;
  int si;
  *strategy = 0;
  if (!policy || (strncmp(policy, "answers:", 8) == 0 && policy[8])) return EX_OK;
  for (int k = 0; allowed[k]; k++)
    if (strcmp(policy, allowed[k]) == 0) return EX_OK;
  if ((si = rg_module_find_strategy(m, policy)) >= 0) {
    *strategy = (uint32_t)si + 1;
    return EX_OK;
  }
  rg_buf_init(&names);
  for (int k = 0; allowed[k]; k++) rg_printf(&names.out, "%s, ", allowed[k]);
  rg_puts(&names.out, "answers:FILE");
  if (m->nstrategies) {
    rg_puts(&names.out, " or a strategy of the rules (");
    for (uint32_t i = 0; i < m->nstrategies; i++)
      rg_printf(&names.out, "%s%s", i ? ", " : "", rg_module_str(m, m->strategies[i].name));
    rg_puts(&names.out, ")");
  } else {
    rg_puts(&names.out, " (the rules declare no strategy)");
  }
  int rc = usage_error(cmd, "--policy must be %s, not '%s'", names.out.failed ? "..." : names.data,
                       policy);
  rg_buf_free(&names);
  return rc;
}

int cli_load_setup(loaded *l, rg_setup *s, const char *path, const char *inputs,
                   const char *const *sets, int nsets) {
  int rc = load(l, path, 1);
  memset(s, 0, sizeof *s);
  if (rc == EX_OK) rc = cli_setup(s, &l->m, inputs, sets, nsets);
  return rc;
}

int cli_write_chart(const char *path, const char *title, const char *const *names,
                    uint32_t nseries, const rg_chart *charts, uint32_t n) {
  rg_buf b;
  char err[512];
  int rc = EX_OK;
  rg_buf_init(&b);
  rg_chart_svg(&b.out, title, names, nseries, charts, n);
  if (b.out.failed) {
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  } else if (rg_file_save(path, b.data, b.len, 0644, err, sizeof err) != 0) {
    fprintf(stderr, "regula: error: %s\n", err);
    rc = EX_RUNTIME;
  }
  rg_buf_free(&b);
  return rc;
}
