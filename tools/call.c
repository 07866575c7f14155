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

/* What `regula call` prints to: stdout, watched (rg_printf's memory is
** told from stdout's failure), and whether memory ran out while a note
** was written. */
typedef struct call_out {
  cli_watch w;
  int nomem;
} call_out;

/* rg_event_fn: prints a note ("note TEXT: V") or a failed expect
** ("path:line: FAIL: expected X, got Y") on stdout (the call_out ctx). */
static void on_event(void *ctx, rg_run *run, const rg_event *ev) {
  call_out *c = ctx;
  if (ev->kind == RG_EVENT_EXPECT_FAIL)
    rg_printf(&c->w.out, "%s:%u: FAIL: ", ev->path, ev->line);
  else if (ev->kind != RG_EVENT_NOTE) return;
  if (rg_run_event_text(run, &c->w.out) == RG_NOMEM) c->nomem = 1;
  rg_putc(&c->w.out, '\n');
}

/* Reports a runtime error of the rules ctx on stderr, with its source line. */
void call_fault(void *ctx, const char *msg, const char *path, uint32_t line, uint32_t col) {
  rg_out err = cli_file_out(stderr);
  fflush(stdout);
  rg_rules_error_write(ctx, msg, path, line, col, &err);
}

int call_run(const char *cmd, const char *path, const char *proc, const char *const *args,
             int nargs, const rg_run_options *opt, int pictures,
             int (*done)(void *ctx, rg_rules *r, rg_run *run), void *ctx) {
  rg_rules *r;
  rg_run *run = NULL;
  rg_run_options o;
  int rc = cli_rules_load(path, 1, &r);
  if (rc == EX_OK && (pictures & CALL_NATIVE)) rc = cli_native(r);
  if (rc != EX_OK) {
    rg_rules_free(r);
    return rc;
  }
  o = RG_OPTIONS(rg_run_options);
  if (opt) o = *opt;
  o.seeding = RG_SEEDING_CALL;
  o.policy.kind = RG_CHOOSE_FIRST;
  if (cli_rules_proc(r, cmd, proc, nargs) < 0) {
    rc = EX_BAD;
  } else if (rg_run_new(r, &o, &run) != RG_OK ||
             ((pictures & CALL_PICTURES) && rg_run_pictures(run) != RG_OK)) {
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  } else {
    rg_status st = rg_run_call(run, proc, args, nargs);
    if (st == RG_OK) {
      rc = done(ctx, r, run);
      if (rc == EX_OK && rg_run_failed_expects(run)) rc = EX_FINDINGS;
    } else if (st == RG_BAD_VALUE || st == RG_NOMEM) {   /* an argument; memory */
      cli_eprintf("regula: error: %s\n", rg_run_errmsg(run));
      rc = st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
    } else {
      rg_place at;
      rg_run_where(run, &at);
      call_fault(r, rg_run_errmsg(run), at.path, at.line, at.col);
      rc = EX_RUNTIME;
    }
  }
  rg_run_free(run);
  rg_rules_free(r);
  return rc;
}

/* call_run's done: prints the result on stdout (the call_out ctx);
** returns the exit code of what was printed (cli_written). */
static int print_result(void *ctx, rg_rules *r, rg_run *run) {
  call_out *c = ctx;
  rg_status st = rg_run_result_write(run, &c->w.out);
  (void)r;
  if (c->nomem) st = RG_NOMEM;
  if (st == RG_OK) st = cli_watch_status(&c->w);
  return cli_written(st);
}

int call_main(const char *path, const char *proc, const char *const *args, int nargs,
              const rg_run_options *limits, int native) {
  call_out out;
  rg_run_options opt = RG_OPTIONS(rg_run_options);
  cli_watch_init(&out.w, cli_file_out(stdout));
  out.nomem = 0;
  if (limits) opt = *limits;
  opt.event = on_event;
  opt.event_ctx = &out;
  opt.events = 1u << RG_EVENT_NOTE | 1u << RG_EVENT_EXPECT_FAIL;
  return call_run("call", path, proc, args, nargs, &opt, native ? CALL_NATIVE : 0, print_result,
                  &out);
}
