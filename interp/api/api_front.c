/*
** api_front.c: the "Front ends" section of regula.h: what `regula run`,
** `test`, `sheet`, `diff` and `sim` print, written to the caller's rg_out
** by the same renderers the program uses (evlog, testrun, sheet, diff,
** sim), so that the page shows the program's bytes.
*/
#include "regula_front.h"
#include "api_int.h"
#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "json.h"
#include "setup.h"
#include "sheet.h"
#include "testrun.h"

#include <stdio.h>
#include <string.h>

/* ---- the log of a run ------------------------------------------------------ */

void rg_run_log(rg_run *run, rg_out *out, int json, const char *policy, const char *dice) {
  if (!out) {
    run->play.log = NULL;
    return;
  }
  rgi_log_init(&run->log, out, &run->r->m, json);
  run->log.view = rgi_vm_view(run->vm);
  run->log_policy = policy;
  run->log_dice = dice;
  run->play.log = &run->log;
}

const char *rgi_api_policy_label(char *buf, size_t size, const rg_rules *r,
                                rg_choose_policy policy, const char *answers_name,
                                const char *strategy) {
  static const char *const names[] = { "random", "first", "answers", "ask" };
  const char *dflt = r ? rg_rules_item(r, RG_STRATEGY, rg_rules_default_strategy(r)) : NULL;
  if (strategy)
    snprintf(buf, size, "%s (%s strategy of the rules; other choices at %s)", strategy,
             dflt && strcmp(dflt, strategy) == 0 ? "the default" : "a",
             policy == RG_CHOOSE_FIRST ? "their first option" : "random");
  else if (policy == RG_CHOOSE_ANSWERS && answers_name)
    snprintf(buf, size, "answers:%s", answers_name);
  else   /* policy is one of the four: its callers took no other (policy_init,
         ** rgi_api_counted, rg_simvars_new) */
    snprintf(buf, size, "%s", names[policy]);
  return buf;
}

void rgi_api_log_begin(rg_run *run, int proc) {
  const rgi_module *m = &run->r->m;
  const char *policy = run->log_policy, *dice = run->log_dice;
  char buf[320];
  if (!run->play.log) return;
  if (!policy)
    policy = rgi_api_policy_label(buf, sizeof buf, run->r, run->opt.policy.kind,
                                  run->opt.policy.answers_name, run->opt.policy.strategy);
  if (!dice) dice = run->opt.dice || run->opt.chance ? "ask" : "random";
  run->play.log->strategy = run->opt.policy.strategy;
  rgi_log_run(run->play.log, rgi_module_str(m, m->procs[proc].name), run->opt.seed, policy, dice);
  /* the placeholder data the run rests on, as `regula run` says it */
  const unsigned char *set = rgi_rules_set_flags(run->r);
  if (!run->r->assumed && !set) return;
  /* (memory that runs out fails the log, as a write would) */
  rg_out *out = run->play.log->out;
  if (run->play.log->json) {
    json_t *a = rgi_placeholders_json(m, (uint32_t)proc, set, run->r->assumed);
    if (!a) out->failed = 1;
    else if (json_array_size(a))
      rgi_json_put(out, json_pack("{s:s,s:o}", "event", "placeholders", "data", a), 1);
    else json_decref(a);
  } else {
    rg_buf ph;
    rg_buf_init(&ph);
    int n = rgi_placeholders_text(m, (uint32_t)proc, set, run->r->assumed, &ph.out);
    if (n < 0 || ph.out.failed) out->failed = 1;
    else if (n > 0 && ph.data) rg_printf(out, "placeholders: %s\n", ph.data);
    rg_buf_free(&ph);
  }
}

void rgi_api_log_end(rg_run *run, int proc) {
  if (run->play.log) rgi_log_summary(run->play.log, run->r->m.procs[proc].result, run->result);
}

/* ---- pictures -------------------------------------------------------------- */

rg_status rg_run_pictures(rg_run *run) {
  if (!run->svg && !(run->svg = rgi_svg_new())) return RG_NOMEM;
  return RG_OK;
}

const rg_pictures *rg_run_drawn(const rg_run *run) {
  return run->svg;
}

uint32_t rg_pictures_count(const rg_pictures *p) {
  return p ? rgi_svg_count(p) : 0;
}

const char *rg_pictures_name(const rg_pictures *p, uint32_t i) {
  return i < rg_pictures_count(p) ? rgi_svg_name(p, i) : NULL;
}

int rg_pictures_find(const rg_pictures *p, const char *name) {
  return p ? rgi_svg_find(p, name) : -1;
}

const char *rg_pictures_error(const rg_pictures *p, rg_place *where) {
  uint32_t pc = UINT32_MAX, l = 0, c = 0;
  const char *e = p ? rgi_svg_error(p, &pc) : NULL, *path = "?";
  if (e && rgi_svg_module(p) && rgi_log_locate(rgi_svg_module(p), pc, &path, &l, &c) != 0) {
    path = "?";
    l = c = 0;
  }
  if (where) {
    where->path = path;
    where->line = l;
    where->col = c;
  }
  return e;
}

rg_status rg_pictures_write(const rg_pictures *p, uint32_t i, rg_out *out) {
  if (i >= rg_pictures_count(p)) return RG_BAD_VALUE;
  rgi_watch w;
  if (rgi_svg_error(p, NULL)) return RG_RUN_ERROR;
  return rgi_watch_end(&w, rgi_svg_write(p, i, rgi_watch_begin(&w, out)) == 0 ? RG_OK : RG_NOMEM);
}

rg_status rg_pictures_save(const rg_pictures *p, uint32_t i, const char *path, rg_out *why) {
  char err[1024] = "";
  if (i >= rg_pictures_count(p)) return RG_BAD_VALUE;
  if (rgi_svg_error(p, NULL)) return RG_RUN_ERROR;
  if (rgi_svg_save(p, i, path, err, sizeof err) == 0) return RG_OK;
  if (why) rg_puts(why, err);
  return strcmp(err, "out of memory") == 0 ? RG_NOMEM : RG_IO;
}

/* ---- tests, sheet, diff ------------------------------------------------------ */

/* rgi_test_fn: writes each failure of test r to the rg_out ctx as `regula
** test` prints it. */
static void write_test(void *ctx, const rgi_test_result *r) {
  rg_out *out = ctx;
  for (uint32_t i = 0; i < r->nfailures; i++)
    rg_printf(out, "%s:%u: FAIL test \"%s\": %s\n", r->failures[i].path, r->failures[i].line,
              r->name, r->failures[i].message);
}

rg_status rg_rules_test(const rg_rules *r, const rg_limits *limits, rg_out *out,
                        uint32_t *passed, uint32_t *failed) {
  rgi_limits lim;
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  memset(&lim, 0, sizeof lim);
  if (limits) {
    lim.max_steps = limits->max_steps;
    lim.max_memory = limits->max_memory;
    lim.no_fusion = limits->no_fusion;
  }
  lim.native = rgi_rules_native_code(r);
  return rgi_watch_end(&w, rgi_test_run(&r->m, &lim, write_test, o, passed, failed) == 0
                               ? RG_OK
                               : RG_NOMEM);
}

rg_status rg_rules_sheet(const char *name, const char *text, size_t len,
                         const rg_compile_options *opt, rg_out *out) {
  rgi_arena arena;
  rgi_diag d;
  rgi_module m;
  rgi_assumption *notes = NULL;
  rg_status st = RG_OK;
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  rgi_arena_init(&arena, 0);
  rgi_diag_init(&d, &arena, opt ? opt->diagnostic : NULL, opt ? opt->diagnostic_ctx : NULL);
  if (rgi_compile_source(&d, name, text ? text : "", len, opt ? opt->loader : NULL, &m, &notes) !=
      0) {
    st = arena.failed ? RG_NOMEM : RG_BAD_RULES;
  } else {
    if (rgi_sheet_print(o, &m, &d, notes, NULL, 0) != 0) st = RG_NOMEM;
    st = rgi_watch_end(&w, st);
  }
  rgi_module_free(&m);
  rgi_arena_free(&arena);
  return st;
}

rg_status rg_rules_sheet_of(const rg_rules *r, const char *const *tables, int ntables,
                            rg_out *out) {
  rgi_watch w;
  for (int i = 0; i < ntables; i++)
    if (rgi_module_find_table(&r->m, tables[i]) < 0) return RG_NOT_FOUND;
  return rgi_watch_end(&w, rgi_sheet_print(rgi_watch_begin(&w, out), &r->m,
                                           r->src ? &r->src->d : NULL,
                                           r->src ? r->src->notes : NULL, tables, ntables) == 0
                               ? RG_OK
                               : RG_NOMEM);
}

rg_status rg_rules_diff(const rg_rules *a, const char *a_path, const rg_rules *b,
                        const char *b_path, rg_out *out, uint32_t *changes) {
  /* as the CLI does (tools/diff.c): with the source of what changed, read
  ** from the files the rule sets name */
  rg_diff_options opt = RG_OPTIONS(rg_diff_options);
  rg_changes *c = NULL;
  char base[1024];
  rg_status st;
  opt.with_source = 1;
  st = rg_changes_new(a, b, &opt, &c);
  *changes = 0;
  if (st == RG_OK) {
    rg_diff_shared_dir(a_path, b_path, base, sizeof base);
    st = rg_changes_write(c, RG_DIFF_TEXT, 0, base, out);
    *changes = rg_changes_count(c);
  }
  rg_changes_free(c);
  return st;
}
