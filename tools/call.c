/*
** call.c: `regula call FILE PROCEDURE ARG...` (see cmd_rules.h), on
** regula.h alone: a run seeded as a test is (RG_SEEDING_CALL: seed 0, the
** first option of every choice) whose notes and failed expects print as
** they happen, then its result.
*/
#include "cmd_rules.h"
#include "exitcode.h"
#include "fileout.h"

#include <stdio.h>
#include <string.h>

/* Says on stderr that there is no procedure `name` in r, listing those
** there are (tests are not procedures one calls). */
static void no_procedure(const rg_rules *r, const char *name) {
  int n = 0;
  fprintf(stderr, "regula: error: no procedure '%s'; ", name);
  for (int i = 0; i < rg_rules_proc_count(r); i++) {
    const char *p = rg_rules_proc_name(r, i);
    if (rg_rules_find_proc(r, p) != i) continue;      /* a test */
    fprintf(stderr, "%s%s", n++ ? ", " : "procedures: ", p);
  }
  fputs(n ? "\n" : "the rule set has no procedures\n", stderr);
}

/* Says on stderr that procedure proc (called name) takes other arguments
** than the nargs given, with its parameters. */
static void wrong_arity(const rg_rules *r, int proc, const char *name, int nargs) {
  int np = rg_rules_param_count(r, proc);
  char tn[128];
  fprintf(stderr, "regula: error: procedure '%s' takes %d argument%s (", name, np,
          np == 1 ? "" : "s");
  for (int k = 0; k < np; k++)
    fprintf(stderr, "%s%s: %s", k ? ", " : "", rg_rules_param_name(r, proc, k),
            rg_rules_param_type(r, proc, k, tn, sizeof tn));
  fprintf(stderr, "), got %d\ntry 'regula call --help'\n", nargs);
}

/* rg_event_fn: prints a note ("note TEXT: V") or a failed expect
** ("path:line: FAIL: expected X, got Y") on stdout. */
static void on_event(void *ctx, rg_run *run, const rg_event *ev) {
  rg_out *out = ctx;
  if (ev->kind == RG_EVENT_EXPECT_FAIL) rg_printf(out, "%s:%u: FAIL: ", ev->path, ev->line);
  else if (ev->kind != RG_EVENT_NOTE) return;
  rg_run_event_text(run, out);
  rg_putc(out, '\n');
}

int call_main(const char *path, const char *proc, const char *const *args, int nargs,
              const rg_run_options *limits) {
  rg_rules *r;
  rg_run *run = NULL;
  rg_out out = cli_file_out(stdout), err = cli_file_out(stderr);
  rg_run_options opt;
  int rc = cli_rules_load(path, 1, &r), pi;
  if (rc != EX_OK) {
    rg_rules_free(r);
    return rc;
  }
  memset(&opt, 0, sizeof opt);
  if (limits) opt = *limits;
  opt.seeding = RG_SEEDING_CALL;
  opt.policy = RG_CHOOSE_FIRST;
  opt.event = on_event;
  opt.event_ctx = &out;
  opt.events = 1u << RG_EVENT_NOTE | 1u << RG_EVENT_EXPECT_FAIL;
  if ((pi = rg_rules_find_proc(r, proc)) < 0) {
    no_procedure(r, proc);
    rc = EX_BAD;
  } else if (nargs != rg_rules_param_count(r, pi)) {
    wrong_arity(r, pi, proc, nargs);
    rc = EX_BAD;
  } else if (rg_run_new(r, &opt, &run) != RG_OK) {
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  } else {
    rg_status st = rg_run_call(run, proc, args, nargs);
    if (st == RG_OK) {
      rg_run_result_write(run, &out);
      if (rg_run_failed_expects(run)) rc = EX_FINDINGS;
    } else if (st == RG_BAD_VALUE || st == RG_NOMEM) {   /* an argument; memory */
      fprintf(stderr, "regula: error: %s\n", rg_run_error(run, NULL, NULL, NULL));
      rc = st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
    } else {
      const char *where, *msg;
      uint32_t line, col;
      msg = rg_run_error(run, &where, &line, &col);
      fflush(stdout);
      rg_rules_error_write(r, msg, where, line, col, &err);
      rc = EX_RUNTIME;
    }
  }
  rg_run_free(run);
  rg_rules_free(r);
  return rc;
}
