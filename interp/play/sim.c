/*
** sim.c: Monte Carlo tallies of a procedure's result (see sim.h).
*/
#include "sim.h"

#include "regula_front.h"
#include "columns.h"
#include "json.h"
#include "play.h"
#include "policy.h"
#include "strategy.h"
#include "rng.h"
#include "seed.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* One thread's share of the runs. */
typedef struct worker {
  const rgi_module *m;
  const rgi_limits *limits;
  uint32_t proc;
  const rgi_value *args;
  uint64_t seed, lo, hi;    /* runs lo .. hi-1 */
  uint32_t ntallies;        /* the result's columns (columns.h) */
  const rgi_column *cols;    /* [ntallies] */
  rgi_type rtype;            /* the result's type */
  rgi_tally *tallies;        /* [ntallies] */
  uint64_t **counts;        /* counts[f][slot] */
  uint64_t **stamps;        /* stamps[f][slot]: 1 + the run that last counted it */
  uint32_t *ncounts;
  uint8_t *overflow;        /* [ntallies]: more than RG_SIM_MAX_DISTINCT values */
  atomic_uint_fast64_t *done;
  rgi_rng choice_rng;        /* seeded at the run's first choice */
  uint64_t run;             /* the run under way */
  int choice_seeded;
  rgi_sim_choices choices;
  uint32_t strategy;        /* 1 + the strategy answering first; 0: none */
  rgi_vm *vm;                /* the worker's (its heap holds the options) */
  const rgi_value *inputs;   /* or NULL */
  rgi_policy answers;        /* RG_SIM_ANSWERS: the answers, read again each run */
  rgi_play play;             /*   and the questions they answer */
  rgi_sink play_sink;
  /* the first failure */
  int failed;
  uint64_t fail_run;
  char msg[256];
  uint32_t fail_pc;
  int nomem;
  /* runs where an expectation failed: how many, the first one and where */
  uint64_t expect_runs, expect_run;
  uint32_t expect_pc;
  int expect_this_run;      /* the run under way failed one already */
} worker;

/* rgi_sink expect_fail for worker ctx: counts the run (once) and keeps the
** first failure's run and pc. */
static void on_expect_fail(void *ctx, const rgi_module *m, uint32_t expect, rgi_value actual,
                           rgi_value expected, uint32_t pc) {
  worker *w = ctx;
  (void)m; (void)expect; (void)actual; (void)expected;
  if (w->expect_this_run) return;
  w->expect_this_run = 1;
  if (w->expect_runs++ == 0) {
    w->expect_run = w->run;
    w->expect_pc = pc;
  }
}

/* rgi_sink choose for worker ctx: picks one of the n options at random from
** w->choice_rng, seeded from the seed and the run at the run's first choice. */
static int64_t on_choose(void *ctx, const rgi_module *m, uint32_t choice, rgi_value chooser,
                         const rgi_value *options, uint32_t n, uint32_t pc) {
  (void)m; (void)choice; (void)chooser; (void)options; (void)pc;
  worker *w = ctx;
  if (w->choices == RG_SIM_ANSWERS)
    return w->play_sink.choose(w->play_sink.ctx, m, choice, chooser, options, n, pc);
  if (!w->choice_seeded) {
    rgi_seed_sim_choices(&w->choice_rng, w->seed, w->run);
    w->choice_seeded = 1;
  }
  if (w->strategy) {
    uint32_t nheap;
    const rgi_value *heap = rgi_vm_heap(w->vm, &nheap);
    int64_t k = rgi_strategy_pick(m, w->strategy - 1, choice, chooser, options, n, heap, nheap,
                                 &w->choice_rng);
    if (k >= 0) return k;
  }
  if (w->choices == RG_SIM_FIRST) return 0;
  return (int64_t)rgi_rng_below(&w->choice_rng, n);
}

/* Counts value v in tally f of w, once a run.  Returns 0, or -1 when out
** of memory. */
static int count_value(worker *w, uint32_t f, const rgi_value *heap, uint32_t nheap, rgi_value v) {
  if (w->overflow[f]) return 0;
  int64_t s = rgi_tally_slot(&w->tallies[f], heap, nheap, v);
  if (s == -3) {
    w->overflow[f] = 1;
    return 0;
  }
  if (s < 0) return -1;
  if ((uint32_t)s >= w->ncounts[f]) {
    uint32_t nc = w->tallies[f].cap;
    uint64_t *c = rg_realloc(w->counts[f], (size_t)nc * sizeof *c);
    if (!c) return -1;
    w->counts[f] = c;
    uint64_t *st = rg_realloc(w->stamps[f], (size_t)nc * sizeof *st);
    if (!st) return -1;
    w->stamps[f] = st;
    memset(c + w->ncounts[f], 0, (size_t)(nc - w->ncounts[f]) * sizeof *c);
    memset(st + w->ncounts[f], 0, (size_t)(nc - w->ncounts[f]) * sizeof *st);
    w->ncounts[f] = nc;
  }
  if (w->cols[f].any) {   /* a column through a list: a value twice in one run's list */
    if (w->stamps[f][s] == w->run + 1) return 0;
    w->stamps[f][s] = w->run + 1;
  }
  w->counts[f][s]++;
  return 0;
}

/* What rgi_column_values hands each value to: the worker, column, heap. */
typedef struct counting {
  worker *w;
  uint32_t f;
  const rgi_value *heap;
  uint32_t nheap;
} counting;

/* rgi_column_values callback: counts v.  Returns 0, or -1 when out of memory. */
static int count_one(void *ctx, rgi_value v) {
  counting *c = ctx;
  return count_value(c->w, c->f, c->heap, c->nheap, v);
}

/* Thread body for worker arg: runs w->lo..w->hi-1 on a VM of its own,
** counting results into w's tallies; stops at the first failure (w->failed)
** or out of memory (w->nomem).  Adds to *w->done per 1024 runs.  Returns NULL. */
static void *work(void *arg) {
  worker *w = arg;
  const rgi_module *m = w->m;
  rgi_sink sink = { .ctx = w, .choose = on_choose, .expect_fail = on_expect_fail };
  rgi_vm *vm = rgi_vm_new(m, w->limits, &sink);
  if (!vm) {
    w->nomem = 1;
    return NULL;
  }
  if (w->inputs)
    for (uint32_t k = 0; k < m->ninputs; k++) rgi_vm_set_input(vm, k, w->inputs[k]);
  w->vm = vm;
  if (w->choices == RG_SIM_ANSWERS) rgi_play_attach(&w->play, vm);
  for (uint64_t i = w->lo; i < w->hi; i++) {
    rgi_value result = 0;
    rgi_seed_sim_dice(vm, w->seed, i);
    w->run = i;
    w->choice_seeded = 0;
    w->expect_this_run = 0;
    w->answers.pos = 0;     /* every run answers from the first line */
    w->answers.line = 0;
    w->play.stopped = 0;
    if (rgi_vm_call(vm, w->proc, w->args, &result) != RG_RUN_OK) {
      const char *msg = rgi_vm_error(vm, &w->fail_pc);
      if (w->play.stopped) {        /* no rule failed: a choice went unanswered */
        msg = rgi_play_error(&w->play);
        w->fail_pc = UINT32_MAX;
      }
      snprintf(w->msg, sizeof w->msg, "%s", msg && *msg ? msg : "the run failed");
      w->failed = 1;
      w->fail_run = i;
      break;
    }
    uint32_t nheap = 0;
    const rgi_value *heap = rgi_vm_heap(vm, &nheap);
    for (uint32_t f = 0; f < w->ntallies && !w->nomem; f++) {
      counting c = { w, f, heap, nheap };
      const rgi_column *col = &w->cols[f];
      /* the result itself (a scalar's one column) needs no walk */
      int rc = col->depth == 0 && !col->count ? count_value(w, f, heap, nheap, result)
             : rgi_column_values(m, col, &w->rtype, heap, nheap, result, count_one, &c);
      if (rc != 0) w->nomem = 1;
    }
    if (w->nomem) break;
    if (((i - w->lo) & 1023) == 1023) atomic_fetch_add(w->done, 1024);
  }
  rgi_vm_free(vm);
  return NULL;
}

void rgi_sim_wilson(uint64_t c, uint64_t n, double *lo, double *hi) {
  const double z = 1.959963984540054;
  double p = (double)c / (double)n, nn = (double)n, z2 = z * z;
  double den = 1 + z2 / nn;
  double mid = (p + z2 / (2 * nn)) / den;
  double half = z / den * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
  *lo = mid - half < 0 ? 0 : mid - half;
  *hi = mid + half > 1 ? 1 : mid + half;
}

/* rg_malloc, zeroed. */
static void *zalloc(size_t n) {
  void *p = rg_malloc(n ? n : 1);
  if (p) memset(p, 0, n ? n : 1);
  return p;
}

/* Frees the workers ws[0..nw) and what they hold. */
static void free_workers(worker *ws, uint32_t nw, uint32_t ntallies) {
  for (uint32_t k = 0; ws && k < nw; k++) {
    for (uint32_t f = 0; f < ntallies; f++) {
      if (ws[k].tallies) rgi_tally_free(&ws[k].tallies[f]);
      if (ws[k].counts) rg_free(ws[k].counts[f]);
      if (ws[k].stamps) rg_free(ws[k].stamps[f]);
    }
    rg_free(ws[k].tallies);
    rg_free(ws[k].counts);
    rg_free(ws[k].stamps);
    rg_free(ws[k].ncounts);
    rg_free(ws[k].overflow);
    rgi_play_free(&ws[k].play);
    rgi_policy_free(&ws[k].answers);
  }
  rg_free(ws);
}

/* Adds the counts[0..wt->n) of tally wt (overflowing when overflow) into
** field fd.  Returns 0, or -1 when out of memory. */
static int merge_field(rgi_sim_field *fd, const rgi_tally *wt, const uint64_t *counts,
                       int overflow) {
  if (overflow) fd->overflow = 1;
  for (uint32_t s = 0; s < wt->n && !fd->overflow; s++) {
    int64_t g = rgi_tally_slot_key(&fd->tally, &wt->keys[s]);
    if (g == -3) {
      fd->overflow = 1;
      break;
    }
    if (g < 0) return -1;
    if (fd->tally.n > fd->ncounts) {
      uint32_t nc = fd->tally.cap;
      uint64_t *c = rg_realloc(fd->counts, (size_t)nc * sizeof *c);
      if (!c) return -1;
      memset(c + fd->ncounts, 0, (size_t)(nc - fd->ncounts) * sizeof *c);
      fd->counts = c;
      fd->ncounts = nc;
    }
    fd->counts[g] += counts[s];
  }
  return 0;
}

/* Merges the workers' tallies into r's fields, in run order.  Returns 0,
** or -1 when out of memory. */
static int merge(rgi_sim_result *r, worker *ws, uint32_t nw) {
  for (uint32_t f = 0; f < r->nfields; f++)
    for (uint32_t k = 0; k < nw; k++)
      if (merge_field(&r->fields[f], &ws[k].tallies[f], ws[k].counts[f], ws[k].overflow[f]) != 0)
        return -1;
  return 0;
}

int rgi_sim_merge(rgi_sim_result *into, const rgi_sim_result *part) {
  if (into->nfields != part->nfields) return -1;
  if (part->expect_runs && !into->expect_runs) {
    into->expect_run = part->expect_run;
    into->expect_pc = part->expect_pc;
  }
  into->expect_runs += part->expect_runs;
  into->runs += part->runs;
  for (uint32_t f = 0; f < into->nfields; f++)
    if (merge_field(&into->fields[f], &part->fields[f].tally, part->fields[f].counts,
                    part->fields[f].overflow) != 0)
      return -1;
  return 0;
}

rgi_sim_status rgi_sim_run(const rgi_sim_opts *o, rgi_sim_result *r) {
  const rgi_module *m = o->m;
  const rgi_proc *p = &m->procs[o->proc];
  rgi_column *cols = rg_malloc(RG_COLUMNS_MAX * sizeof *cols);
  uint32_t ntallies = 0;
  uint64_t threads = o->threads < 1 ? 1 : o->threads;
  worker *ws = NULL;
  pthread_t *tids = NULL;
  atomic_uint_fast64_t done;
  uint32_t nw = 0, started = 0;

  memset(r, 0, sizeof *r);
  r->runs = o->runs;
  r->status = RG_SIM_NOMEM;
  if (threads > o->runs) threads = o->runs;
  atomic_init(&done, 0);
  if (!cols) return r->status;
  rgi_columns_of(m, p->result, cols, &ntallies);
  if (!(r->fields = zalloc((size_t)ntallies * sizeof *r->fields))) {
    rg_free(cols);
    return r->status;
  }
  r->nfields = ntallies;
  for (uint32_t f = 0; f < ntallies; f++) {
    rgi_sim_field *fd = &r->fields[f];
    memcpy(fd->name, cols[f].name, sizeof fd->name);
    fd->any = cols[f].any;
    rgi_tally_init(&fd->tally, m, cols[f].type);
    fd->tally.limit = RG_SIM_MAX_DISTINCT;
  }
  ws = zalloc((size_t)threads * sizeof *ws);
  tids = rg_malloc((size_t)threads * sizeof *tids);
  if (!ws || !tids) goto out;
  for (uint64_t k = 0; k < threads; k++) {
    worker *w = &ws[k];
    w->m = m;
    w->limits = o->limits;
    w->proc = o->proc;
    w->args = o->args;
    w->seed = o->seed;
    w->lo = o->first + o->runs * k / threads;
    w->hi = o->first + o->runs * (k + 1) / threads;
    w->ntallies = ntallies;
    w->cols = cols;
    w->rtype = p->result;
    w->done = &done;
    w->choices = o->choices;
    w->strategy = o->strategy;
    w->inputs = o->inputs;
    rgi_policy_first(&w->answers);
    w->tallies = zalloc((size_t)ntallies * sizeof *w->tallies);
    w->counts = zalloc((size_t)ntallies * sizeof *w->counts);
    w->stamps = zalloc((size_t)ntallies * sizeof *w->stamps);
    w->ncounts = zalloc((size_t)ntallies * sizeof *w->ncounts);
    w->overflow = zalloc((size_t)ntallies);
    nw++;
    if (!w->tallies || !w->counts || !w->stamps || !w->ncounts || !w->overflow) goto out;
    if (o->choices == RG_SIM_ANSWERS) {
      rgi_sink ps;
      if (rgi_policy_answers(&w->answers, o->answers_source, o->answers, o->answers_len) != 0 ||
          rgi_play_init(&w->play, m, NULL, &w->answers, NULL) != 0)
        goto out;
      rgi_play_sink(&w->play, &ps);
      w->play_sink = ps;
    }
    for (uint32_t f = 0; f < ntallies; f++) {
      rgi_tally_init(&w->tallies[f], m, r->fields[f].tally.type);
      w->tallies[f].limit = RG_SIM_MAX_DISTINCT;
    }
  }
  for (; started < nw; started++)
    if (pthread_create(&tids[started], NULL, work, &ws[started]) != 0) break;
  /* Too few threads: this thread runs the rest, one block at a time. */
  for (uint32_t k = started; k < nw; k++) work(&ws[k]);
  if (o->progress) {
    for (;;) {
      uint64_t d = atomic_load(&done);
      if (d + 1024 * nw >= o->runs) break;
      o->progress(o->progress_ctx, d, o->runs);
      struct timespec ts = { 0, 100000000 };
      nanosleep(&ts, NULL);
    }
  }
  for (uint32_t k = 0; k < started; k++) pthread_join(tids[k], NULL);

  /* The first failure in run order, if any. */
  for (uint32_t k = 0; k < nw; k++) {
    if (ws[k].nomem) goto out;
    if (ws[k].failed) {
      r->status = RG_SIM_RUN_FAILED;
      r->fail_run = ws[k].fail_run;
      r->fail_pc = ws[k].fail_pc;
      memcpy(r->msg, ws[k].msg, sizeof r->msg);
      goto out;
    }
  }
  /* Failed expectations: how many runs, and the first in run order. */
  for (uint32_t k = 0; k < nw; k++) {
    if (ws[k].expect_runs && !r->expect_runs) {
      r->expect_run = ws[k].expect_run;
      r->expect_pc = ws[k].expect_pc;
    }
    r->expect_runs += ws[k].expect_runs;
  }
  if (merge(r, ws, nw) == 0) r->status = RG_SIM_OK;
out:
  free_workers(ws, nw, ntallies);
  rg_free(tids);
  rg_free(cols);
  return r->status;
}

void rgi_sim_free(rgi_sim_result *r) {
  for (uint32_t f = 0; r->fields && f < r->nfields; f++) {
    rgi_tally_free(&r->fields[f].tally);
    rg_free(r->fields[f].counts);
  }
  rg_free(r->fields);
  memset(r, 0, sizeof *r);
}

/* Returns the tallies of r as one new JSON object (see rgi_sim_json), or
** NULL when out of memory. */
static json_t *sim_doc(const rgi_sim_result *r, const rgi_heading *h, uint64_t seed,
                       const char *policy, const char *strategy, json_t *placeholders) {
  char digits[24];
  json_t *doc, *fields = json_array();
  const char *proc = rgi_module_str(h->m, h->m->procs[h->proc].name);
  snprintf(digits, sizeof digits, "%llu", (unsigned long long)seed);
  doc = json_pack("{s:i,s:o,s:I,s:s,s:o}", "format", RG_JSON_FORMAT, "procedure",
                  rgi_json_text(proc), "runs", (json_int_t)r->runs, "seed", digits, "tallies",
                  fields);
  if (doc && rgi_heading_json(doc, h, 1) != 0) {
    json_decref(doc);
    doc = NULL;
  }
  if (doc && policy && json_object_set_new(doc, "policy", rgi_json_text(policy)) != 0) {
    json_decref(doc);
    doc = NULL;
  }
  if (doc && strategy && json_object_set_new(doc, "strategy", rgi_json_text(strategy)) != 0) {
    json_decref(doc);
    doc = NULL;
  }
  if (doc && placeholders && json_object_set(doc, "placeholders", placeholders) != 0) {
    json_decref(doc);
    doc = NULL;
  }
  json_decref(placeholders);
  if (!doc) return NULL;
  for (uint32_t f = 0; f < r->nfields; f++) {
    const rgi_sim_field *fd = &r->fields[f];
    const rgi_tally *t = &fd->tally;
    json_t *vals = json_array(), *fj;
    uint32_t *order = rg_malloc(((size_t)t->n + 1) * sizeof *order);
    fj = json_pack("{s:o,s:b,s:b,s:o}", "name", rgi_json_text(fd->name), "tallied",
                   !fd->overflow, "of_items", fd->any, "values", vals);
    if (!fj || json_array_append_new(fields, fj) != 0 || !order ||
        rgi_tally_order(t, order) != 0) {
      rg_free(order);
      goto fail;
    }
    for (uint32_t j = 0; !fd->overflow && j < t->n; j++) {
      uint32_t s = order[j];
      uint64_t c = fd->counts[s];
      double lo, hi;
      json_t *vj;
      rgi_sim_wilson(c, r->runs, &lo, &hi);
      vj = json_pack("{s:o,s:I,s:f,s:f,s:f}", "text", rgi_json_text(t->keys[s].text), "count",
                     (json_int_t)c, "share", (double)c / (double)r->runs, "low", lo, "high", hi);
      if (vj && !t->compound &&
          json_object_set_new(vj, "value", rgi_json_value(t->m, NULL, 0, t->type,
                                                         t->keys[s].v)) != 0) {
        json_decref(vj);
        vj = NULL;
      }
      if (!vj || json_array_append_new(vals, vj) != 0) {
        rg_free(order);
        goto fail;
      }
    }
    rg_free(order);
  }
  return doc;
fail:
  json_decref(doc);
  return NULL;
}

int rgi_sim_json(rg_out *out, const rgi_sim_result *r, const rgi_heading *h, uint64_t seed,
                const char *policy, const char *strategy, json_t *placeholders) {
  return rgi_json_put(out, sim_doc(r, h, seed, policy, strategy, placeholders), 1);
}
