/*
** api_front.c: the "Front ends" section of regula.h: what `regula run`,
** `test`, `sheet`, `diff` and `sim` print, written to the caller's rg_out
** by the same renderers the program uses (evlog, testrun, sheet, diff,
** sim), so that the page shows the program's bytes.
*/
#include "regula.h"
#include "api_int.h"
#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "json.h"
#include "setup.h"
#include "sheet.h"
#include "sim.h"
#include "testrun.h"

#include <stdio.h>
#include <string.h>

/* ---- the log of a run ------------------------------------------------------ */

void rg_run_log(rg_run *run, rg_out *out, int json, const char *policy, const char *dice) {
  if (!out) {
    run->play.log = NULL;
    return;
  }
  rg_log_init(&run->log, out, &run->r->m, json);
  run->log.vm = run->vm;
  run->log_policy = policy;
  run->log_dice = dice;
  run->play.log = &run->log;
}

void rg_api_log_begin(rg_run *run, int proc) {
  static const char *const names[] = { "random", "first", "answers", "ask" };
  const rg_module *m = &run->r->m;
  const char *policy = run->log_policy, *dice = run->log_dice;
  char buf[256];
  if (!run->play.log) return;
  if (!policy) {
    policy = (unsigned)run->opt.policy < 4 ? names[run->opt.policy] : "?";
    if (run->opt.policy == RG_CHOOSE_ANSWERS && run->opt.answers_name) {
      snprintf(buf, sizeof buf, "answers:%s", run->opt.answers_name);
      policy = buf;
    }
  }
  if (!dice) dice = run->opt.dice || run->opt.chance ? "ask" : "random";
  rg_log_run(run->play.log, rg_module_str(m, m->procs[proc].name), run->opt.seed, policy, dice);
  /* the placeholder data the run rests on, as `regula run` says it */
  const unsigned char *set = rg_rules_set_flags(run->r);
  if (!run->r->assumed && !set) return;
  /* (memory that runs out fails the log, as a write would) */
  rg_out *out = run->play.log->out;
  if (run->play.log->json) {
    json_t *a = rg_placeholders_json(m, (uint32_t)proc, set, run->r->assumed);
    if (!a) out->failed = 1;
    else if (json_array_size(a))
      rg_json_put(out, json_pack("{s:s,s:o}", "event", "placeholders", "data", a), 1);
    else json_decref(a);
  } else {
    rg_buf ph;
    rg_buf_init(&ph);
    int n = rg_placeholders_text(m, (uint32_t)proc, set, run->r->assumed, &ph.out);
    if (n < 0 || ph.out.failed) out->failed = 1;
    else if (n > 0 && ph.data) rg_printf(out, "placeholders: %s\n", ph.data);
    rg_buf_free(&ph);
  }
}

void rg_api_log_end(rg_run *run, int proc) {
  if (run->play.log) rg_log_summary(run->play.log, run->r->m.procs[proc].result, run->result);
}

/* ---- pictures -------------------------------------------------------------- */

rg_status rg_run_pictures(rg_run *run) {
  if (!run->svg && !(run->svg = rg_svg_new())) return RG_NOMEM;
  return RG_OK;
}

const rg_pictures *rg_run_drawn(const rg_run *run) {
  return run->svg;
}

uint32_t rg_pictures_count(const rg_pictures *p) {
  return p ? rg_svg_count(p) : 0;
}

const char *rg_pictures_name(const rg_pictures *p, uint32_t i) {
  return i < rg_pictures_count(p) ? rg_svg_name(p, i) : NULL;
}

int rg_pictures_find(const rg_pictures *p, const char *name) {
  return p ? rg_svg_find(p, name) : -1;
}

const char *rg_pictures_error(const rg_pictures *p, const char **path, uint32_t *line,
                              uint32_t *col) {
  uint32_t pc = UINT32_MAX, l = 0, c = 0;
  const char *e = p ? rg_svg_error(p, &pc) : NULL, *where = "?";
  if (e && rg_svg_module(p) && rg_log_locate(rg_svg_module(p), pc, &where, &l, &c) != 0) {
    where = "?";
    l = c = 0;
  }
  if (path) *path = where;
  if (line) *line = l;
  if (col) *col = c;
  return e;
}

rg_status rg_pictures_write(const rg_pictures *p, uint32_t i, rg_out *out) {
  if (i >= rg_pictures_count(p)) return RG_BAD_VALUE;
  if (rg_svg_error(p, NULL)) return RG_RUN_ERROR;
  return rg_svg_write(p, i, out) == 0 ? RG_OK : RG_NOMEM;
}

rg_status rg_pictures_save(const rg_pictures *p, uint32_t i, const char *path, char *err,
                           size_t errlen) {
  if (i >= rg_pictures_count(p)) return RG_BAD_VALUE;
  if (rg_svg_error(p, NULL)) return RG_RUN_ERROR;
  return rg_svg_save(p, i, path, err, errlen) == 0 ? RG_OK : RG_IO;
}

/* ---- tests, sheet, diff ------------------------------------------------------ */

/* rg_test_fn: writes each failure of test r to the rg_out ctx as `regula
** test` prints it. */
static void write_test(void *ctx, const rg_test_result *r) {
  rg_out *out = ctx;
  for (uint32_t i = 0; i < r->nfailures; i++)
    rg_printf(out, "%s:%u: FAIL test \"%s\": %s\n", r->failures[i].path, r->failures[i].line,
              r->name, r->failures[i].message);
}

rg_status rg_rules_test(const rg_rules *r, const rg_run_options *opt, rg_out *out,
                        uint32_t *passed, uint32_t *failed) {
  rg_limits lim;
  memset(&lim, 0, sizeof lim);
  if (opt) {
    lim.max_steps = opt->max_steps;
    lim.max_memory = opt->max_memory;
    lim.no_fusion = opt->no_fusion;
  }
  return rg_test_run(&r->m, &lim, write_test, out, passed, failed) == 0 ? RG_OK : RG_NOMEM;
}

rg_status rg_rules_sheet(const char *name, const char *text, size_t len,
                         const rg_compile_options *opt, rg_out *out) {
  rg_arena arena;
  rg_diag d;
  rg_module m;
  rg_assumption *notes = NULL;
  rg_status st = RG_OK;
  rg_arena_init(&arena, 0);
  rg_diag_init(&d, &arena, opt ? opt->diagnostic : NULL, opt ? opt->diagnostic_ctx : NULL);
  if (rg_compile_source(&d, name, text ? text : "", len, opt ? opt->loader : NULL, &m, &notes) !=
      0) {
    st = arena.failed ? RG_NOMEM : RG_BAD_RULES;
  } else {
    if (rg_sheet_print(out, &m, &d, notes, NULL, 0) != 0) st = RG_NOMEM;
  }
  rg_module_free(&m);
  rg_arena_free(&arena);
  return st;
}

rg_status rg_rules_sheet_of(const rg_rules *r, const char *const *tables, int ntables,
                            rg_out *out) {
  for (int i = 0; i < ntables; i++)
    if (rg_module_find_table(&r->m, tables[i]) < 0) return RG_NOT_FOUND;
  if (rg_sheet_print(out, &r->m, r->src ? &r->src->d : NULL, r->src ? r->src->notes : NULL,
                     tables, ntables) != 0)
    return RG_NOMEM;
  return RG_OK;
}

rg_status rg_rules_diff(const rg_rules *a, const char *a_path, const rg_rules *b,
                        const char *b_path, rg_out *out, uint32_t *changes) {
  /* as the CLI does (tools/diff.c): with the source of what changed, read
  ** from the files the rule sets name */
  rg_diff_options opt = { NULL, 0, 1, NULL };
  rg_changes *c = NULL;
  char base[1024];
  rg_status st = rg_changes_new(a, b, &opt, &c);
  *changes = 0;
  if (st == RG_OK) {
    rg_diff_shared_dir(a_path, b_path, base, sizeof base);
    st = rg_changes_write(c, RG_DIFF_TEXT, 0, base, out);
    if (st == RG_IO) st = RG_OK;   /* out's own failure: the caller reads out->failed */
    *changes = rg_changes_count(c);
  }
  rg_changes_free(c);
  return st;
}

/* ---- simulations a slice at a time -------------------------------------------- */

struct rg_sims {
  const rg_rules *r;
  uint32_t proc;
  uint64_t seed;
  int started;              /* acc holds the runs so far */
  rg_sim_result acc;
  char err[512];            /* the first failed run ("" none) */
};

rg_status rg_sims_new(const rg_rules *r, const char *proc, uint64_t seed, rg_sims **out) {
  int pi = rg_rules_find_proc(r, proc);
  rg_sims *s;
  *out = NULL;
  if (pi < 0) return RG_NOT_FOUND;
  if (r->m.procs[pi].nparams || r->m.procs[pi].result.kind == RG_K_VOID) return RG_BAD_VALUE;
  if (!(s = rg_malloc(sizeof *s))) return RG_NOMEM;
  memset(s, 0, sizeof *s);
  s->r = r;
  s->proc = (uint32_t)pi;
  s->seed = seed;
  *out = s;
  return RG_OK;
}

rg_status rg_sims_run(rg_sims *s, uint64_t n) {
  rg_sim_opts o = { .m = &s->r->m, .proc = s->proc, .runs = n, .seed = s->seed, .threads = 1 };
  rg_sim_result part;
  rg_sim_status st;
  if (s->err[0]) return RG_RUN_ERROR;
  if (n == 0) return RG_OK;
  o.first = s->started ? s->acc.runs : 0;
  st = rg_sim_run(&o, &part);
  if (st == RG_SIM_RUN_FAILED) {
    const char *path;
    uint32_t line, col;
    if (rg_log_locate(&s->r->m, part.fail_pc, &path, &line, &col) == 0)
      snprintf(s->err, sizeof s->err, "run %llu failed: %s:%u:%u: %s",
               (unsigned long long)part.fail_run + 1, path, line, col, part.msg);
    else
      snprintf(s->err, sizeof s->err, "run %llu failed: %s", (unsigned long long)part.fail_run + 1,
               part.msg);
    rg_sim_free(&part);
    return RG_RUN_ERROR;
  }
  if (st != RG_SIM_OK) {
    rg_sim_free(&part);
    return RG_NOMEM;
  }
  if (!s->started) {
    s->acc = part;
    s->started = 1;
    return RG_OK;
  }
  st = rg_sim_merge(&s->acc, &part) == 0 ? RG_SIM_OK : RG_SIM_NOMEM;
  rg_sim_free(&part);
  return st == RG_SIM_OK ? RG_OK : RG_NOMEM;
}

uint64_t rg_sims_done(const rg_sims *s) {
  return s->started ? s->acc.runs : 0;
}

const char *rg_sims_error(const rg_sims *s) {
  return s->err[0] ? s->err : NULL;
}

rg_status rg_sims_json(const rg_sims *s, rg_out *out) {
  rg_sim_result none;
  memset(&none, 0, sizeof none);
  /* as `regula sim --json` writes it: the policy (choices at random) and
  ** the placeholder data the tallies rest on */
  json_t *ph = rg_placeholders_json(&s->r->m, s->proc, rg_rules_set_flags(s->r),
                                     s->r->assumed);
  if (!ph) return RG_NOMEM;
  return rg_sim_json(out, s->started ? &s->acc : &none,
                     rg_module_str(&s->r->m, s->r->m.procs[s->proc].name), s->seed, "random",
                     ph) == 0
             ? RG_OK
             : RG_NOMEM;
}

void rg_sims_free(rg_sims *s) {
  if (!s) return;
  if (s->started) rg_sim_free(&s->acc);
  rg_free(s);
}
