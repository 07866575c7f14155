/*
** simvar.c: variants compared on common random numbers (see simvar.h).
*/
#include "hash.h"
#include "strategy.h"
#include "grow.h"
#include "simvar.h"

#include "regula_front.h"
#include "rng.h"
#include "seed.h"
#include "sim.h"
#include "columns.h"
#include "value.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- values by text ----------------------------------------------------------- */

/* The values of one field met so far, in the order first met. */
typedef struct vmap {
  rgi_simvar_value *vals;
  uint32_t n, cap;
  uint32_t *hash;           /* open addressing: index + 1, 0 empty */
  uint32_t hcap;            /* a power of two */
  int overflow;
} vmap;


/* Returns the value of text in map, added (zeroed) when new; NULL when out
** of memory or when the map is full (then map->overflow is set). */
/* rgi_index's hash of value k of vmap ctx: its text's. */
static uint64_t value_hash(const void *ctx, uint32_t k) {
  return rgi_hash_text(((const vmap *)ctx)->vals[k].text);
}

static rgi_simvar_value *vmap_get(vmap *map, const char *text) {
  uint32_t h = rgi_hash_text(text);
  if (map->hcap) {
    for (uint32_t i = h & (map->hcap - 1); map->hash[i]; i = (i + 1) & (map->hcap - 1))
      if (strcmp(map->vals[map->hash[i] - 1].text, text) == 0) return &map->vals[map->hash[i] - 1];
  }
  if (map->n >= RG_SIM_MAX_DISTINCT) {
    map->overflow = 1;
    return NULL;
  }
  if (map->n == map->cap) {
    rgi_simvar_value *nv = rgi_grow(map->vals, &map->cap, 16, sizeof *nv);
    if (!nv) return NULL;
    map->vals = nv;
  }
  if ((map->n + 1) * 2 > map->hcap) {
    uint32_t nc = map->hcap ? map->hcap * 2 : 64;
    uint32_t *nh = rgi_index(map->n, nc, value_hash, map);
    if (!nh) return NULL;
    rg_free(map->hash);
    map->hash = nh;
    map->hcap = nc;
  }
  size_t len = strlen(text);
  rgi_simvar_value *v = &map->vals[map->n];
  memset(v, 0, sizeof *v);
  if (!(v->text = rg_malloc(len + 1))) return NULL;
  memcpy(v->text, text, len + 1);
  uint32_t i = h & (map->hcap - 1);
  while (map->hash[i]) i = (i + 1) & (map->hcap - 1);
  map->hash[i] = ++map->n;
  return v;
}

/* Frees what map holds (its texts unless keep_texts). */
static void vmap_free(vmap *map, int keep_texts) {
  for (uint32_t k = 0; !keep_texts && k < map->n; k++) rg_free(map->vals[k].text);
  rg_free(map->vals);
  rg_free(map->hash);
  memset(map, 0, sizeof *map);
}

/* ---- the runs ----------------------------------------------------------------- */

/* One variant in one worker. */
typedef struct vrun {
  rgi_vm *vm;
  uint64_t seed, run;
  int first;
  uint32_t strategy;        /* 1 + the variant's strategy; 0: none */
  rgi_rng choices;
  rgi_seed_steps steps;      /* how often each step was entered in this run */
} vrun;

/* The columns of each variant's result (columns.h), matched by name. */
typedef struct vcols {
  rgi_column *cols[RG_SIMVAR_MAX];      /* [ncols[v]] */
  uint32_t ncols[RG_SIMVAR_MAX];
} vcols;

#define TEXT_MAX 4096       /* a value's text is cut there (for the key only) */
#define TEXTS_MAX 256       /* most distinct values of one column in one run */

/* The distinct values of one column in one run of one variant, as texts. */
typedef struct vtexts {
  char *buf;                /* texts end to end, each ended by NUL */
  size_t len, cap;
  uint32_t off[TEXTS_MAX];
  uint32_t n;
} vtexts;

/* One thread's share of the runs. */
typedef struct vworker {
  const rgi_simvar_opts *o;
  const vcols *vc;
  uint64_t lo, hi;
  uint32_t nfields;
  const int32_t *fidx;      /* [v * nfields + f]: field f is variant v's column
                            ** fidx[...], -1 none */
  vmap *maps;               /* [nfields] */
  rgi_tally *order;          /* [f * n + v]: variant v's values of field f, kept
                            ** for their natural order */
  vrun vr[RG_SIMVAR_MAX];
  int failed, nomem;
  uint32_t fail_variant;
  uint64_t fail_run;
  char msg[256];
  uint32_t fail_pc;
  char *buf;                /* one value's text */
  vtexts texts[RG_SIMVAR_MAX];
  /* the column being read: */
  uint32_t cur_v, cur_f;
  const rgi_value *heap;
  uint32_t nheap;
} vworker;

/* rgi_sink step: a step re-seeds the dice and choices from its streams in
** the run (seed.h), counting how often it was entered. */
static void on_step(void *ctx, const rgi_module *m, uint32_t name, uint32_t pc) {
  vrun *r = ctx;
  (void)pc;
  rgi_seed_sim_step(r->vm, &r->choices, r->seed, r->run, rgi_module_str(m, name),
                   rgi_seed_steps_enter(&r->steps, name));
}

/* rgi_sink choose: the first option, or one at random. */
static int64_t on_choose(void *ctx, const rgi_module *m, uint32_t choice, rgi_value chooser,
                         const rgi_value *options, uint32_t n, uint32_t pc) {
  vrun *r = ctx;
  (void)pc;
  if (r->strategy) {
    uint32_t nheap;
    const rgi_value *heap = rgi_vm_heap(r->vm, &nheap);
    int64_t k = rgi_strategy_pick(m, r->strategy - 1, choice, chooser, options, n, heap, nheap,
                                 &r->choices);
    if (k >= 0) return k;
  }
  return r->first ? 0 : (int64_t)rgi_rng_below(&r->choices, n);
}

/* Adds text s to t unless there (or t is full).  Returns 0 or -1. */
static int texts_add(vtexts *t, const char *s) {
  size_t n = strlen(s) + 1;
  for (uint32_t i = 0; i < t->n; i++)
    if (strcmp(t->buf + t->off[i], s) == 0) return 0;
  if (t->n >= TEXTS_MAX) return 0;
  if (t->len + n > t->cap) {
    size_t nc = t->cap ? t->cap * 2 : 1024;
    while (nc < t->len + n) nc *= 2;
    char *nb = rg_realloc(t->buf, nc);
    if (!nb) return -1;
    t->buf = nb;
    t->cap = nc;
  }
  memcpy(t->buf + t->len, s, n);
  t->off[t->n++] = (uint32_t)t->len;
  t->len += n;
  return 0;
}

/* Whether text s is one of t's. */
static int texts_has(const vtexts *t, const char *s) {
  for (uint32_t i = 0; i < t->n; i++)
    if (strcmp(t->buf + t->off[i], s) == 0) return 1;
  return 0;
}

/* rgi_column_values callback: one value of the column being read, as text
** (and kept for the order).  Returns 0 or -1. */
static int take_value(void *ctx, rgi_value v) {
  vworker *w = ctx;
  uint32_t vv = w->cur_v, f = w->cur_f;
  const rgi_column *c = &w->vc->cols[vv][w->fidx[vv * w->nfields + f]];
  rgi_tally *ot = &w->order[f * w->o->n + vv];
  rgi_value_format(w->buf, TEXT_MAX, w->o->m[vv], w->heap, w->nheap, c->type, v);
  if (ot->n < RG_SIM_MAX_DISTINCT && rgi_tally_slot(ot, w->heap, w->nheap, v) == -1) return -1;
  return texts_add(&w->texts[vv], w->buf);
}

/* Reads field f of variant v's result into w->texts[v]: its distinct
** values, or "-" when the variant has no such column.  Returns 0 or -1. */
static int field_texts(vworker *w, uint32_t v, uint32_t f, rgi_value result) {
  const rgi_module *m = w->o->m[v];
  int32_t k = w->fidx[v * w->nfields + f];
  rgi_type t = m->procs[w->o->proc[v]].result;
  w->texts[v].n = 0;
  w->texts[v].len = 0;
  if (k < 0) return texts_add(&w->texts[v], "-");
  w->heap = rgi_vm_heap(w->vr[v].vm, &w->nheap);
  w->cur_v = v;
  w->cur_f = f;
  return rgi_column_values(m, &w->vc->cols[v][k], &t, w->heap, w->nheap, result, take_value, w);
}

/* Thread body: runs w->lo .. w->hi - 1 of every variant. */
static void *vwork(void *arg) {
  vworker *w = arg;
  const rgi_simvar_opts *o = w->o;
  for (uint32_t v = 0; v < o->n; v++) {
    rgi_sink sink = { .ctx = &w->vr[v], .step = on_step, .choose = on_choose };
    w->vr[v].seed = o->seed;
    w->vr[v].first = o->first;
    w->vr[v].strategy = o->strategy ? o->strategy[v] : 0;
    if (!(w->vr[v].vm = rgi_vm_new(o->m[v], o->limits, &sink)) ||
        (!w->buf && !(w->buf = rg_malloc(TEXT_MAX)))) {
      w->nomem = 1;
      return NULL;
    }
    if (o->inputs && o->inputs[v])
      for (uint32_t k = 0; k < o->m[v]->ninputs; k++) rgi_vm_set_input(w->vr[v].vm, k, o->inputs[v][k]);
  }
  for (uint64_t i = w->lo; i < w->hi && !w->failed && !w->nomem; i++) {
    rgi_value res[RG_SIMVAR_MAX];
    for (uint32_t v = 0; v < o->n; v++) {
      vrun *r = &w->vr[v];
      r->run = i;
      memset(&r->steps, 0, sizeof r->steps);
      rgi_seed_sim_step(r->vm, &r->choices, r->seed, i, "", 0);
      if (rgi_vm_call(r->vm, o->proc[v], NULL, &res[v]) != RG_RUN_OK) {
        const char *msg = rgi_vm_error(r->vm, &w->fail_pc);
        snprintf(w->msg, sizeof w->msg, "%s", msg && *msg ? msg : "the run failed");
        w->failed = 1;
        w->fail_variant = v;
        w->fail_run = i;
        break;
      }
    }
    /* All variants ran: the heaps hold their results until the next run.
    ** A run counts once for each value a variant has (a column of a
    ** list's items may have several), and against A: n01 where the
    ** variant has it and A not, n10 where A has it and the variant not. */
    for (uint32_t f = 0; f < w->nfields && !w->failed && !w->nomem; f++) {
      if (w->maps[f].overflow) continue;
      for (uint32_t v = 0; v < o->n && !w->nomem; v++)
        if (field_texts(w, v, f, res[v]) != 0) w->nomem = 1;
      for (uint32_t v = 0; v < o->n && !w->nomem && !w->maps[f].overflow; v++) {
        const vtexts *tv = &w->texts[v], *t0 = &w->texts[0];
        for (uint32_t i = 0; i < tv->n; i++) {
          const char *text = tv->buf + tv->off[i];
          rgi_simvar_value *x = vmap_get(&w->maps[f], text);
          if (!x) {
            if (!w->maps[f].overflow) w->nomem = 1;
            break;
          }
          x->count[v]++;
          if (v > 0 && !texts_has(t0, text)) x->n01[v]++;
        }
        for (uint32_t i = 0; v > 0 && i < t0->n && !w->nomem && !w->maps[f].overflow; i++) {
          const char *text = t0->buf + t0->off[i];
          if (texts_has(tv, text)) continue;
          rgi_simvar_value *x = vmap_get(&w->maps[f], text);   /* there already */
          if (x) x->n10[v]++;
        }
      }
    }
  }
  return NULL;
}

void rgi_simvar_interval(const rgi_simvar_value *x, uint32_t v, uint64_t runs, double *lo,
                        double *hi, double *ulo, double *uhi) {
  const double z = 1.959963984540054;
  double n = (double)runs;
  double d = ((double)x->n01[v] - (double)x->n10[v]) / n;
  double e2 = ((double)x->n01[v] + (double)x->n10[v]) / n;
  double var = e2 - d * d;
  double se = sqrt((var < 0 ? 0 : var) / n);
  double p0 = (double)x->count[0] / n, pv = (double)x->count[v] / n;
  double use = sqrt((p0 * (1 - p0) + pv * (1 - pv)) / n);
  *lo = d - z * se;
  *hi = d + z * se;
  *ulo = d - z * use;
  *uhi = d + z * use;
}

/* Fills vc with each variant's columns, and the fields of r (names) and
** fidx: the columns of the first variant's result, then those only later
** ones have.  Returns 0 or -1. */
static int fields_of(const rgi_simvar_opts *o, vcols *vc, rgi_simvar_result *r, int32_t **fidx) {
  const char *names[RG_COLUMNS_MAX];
  int anys[RG_COLUMNS_MAX];
  uint32_t n = 0;
  for (uint32_t v = 0; v < o->n; v++) {
    const rgi_module *m = o->m[v];
    if (!(vc->cols[v] = rg_malloc(RG_COLUMNS_MAX * sizeof *vc->cols[v]))) return -1;
    rgi_columns_of(m, m->procs[o->proc[v]].result, vc->cols[v], &vc->ncols[v]);
    for (uint32_t k = 0; k < vc->ncols[v] && n < RG_COLUMNS_MAX; k++) {
      int seen = 0;
      for (uint32_t j = 0; j < n; j++) seen |= strcmp(names[j], vc->cols[v][k].name) == 0;
      if (!seen) {
        anys[n] = vc->cols[v][k].any;
        names[n++] = vc->cols[v][k].name;
      }
    }
  }
  r->fields = rg_malloc(((size_t)n + 1) * sizeof *r->fields);
  *fidx = rg_malloc(((size_t)n * o->n + 1) * sizeof **fidx);
  if (!r->fields || !*fidx) return -1;
  memset(r->fields, 0, (size_t)n * sizeof *r->fields);
  r->nfields = n;
  for (uint32_t f = 0; f < n; f++) {
    snprintf(r->fields[f].name, sizeof r->fields[f].name, "%s", names[f]);
    r->fields[f].any = anys[f];
    for (uint32_t v = 0; v < o->n; v++) {
      int32_t k = -1;
      for (uint32_t j = 0; j < vc->ncols[v] && k < 0; j++)
        if (strcmp(vc->cols[v][j].name, names[f]) == 0) k = (int32_t)j;
      (*fidx)[v * n + f] = k;
    }
  }
  return 0;
}

/* Puts the values of field f (all, merged from the workers ws[0..nw)) in
** their natural order: each variant's values in theirs (enum order,
** numbers by value), merged (rgi_tally_union_order), a value no tally kept
** last.  Returns 0 or -1. */
static int sort_values(const rgi_simvar_opts *o, vworker *ws, uint32_t nw, uint32_t f, vmap *all) {
  rgi_tally merged[RG_SIMVAR_MAX];
  const rgi_tally *tp[RG_SIMVAR_MAX];
  const char **texts = NULL;
  rgi_simvar_value *sorted = NULL;
  uint32_t nt = 0, ns = 0, total = 0;
  int rc = -1;
  for (uint32_t v = 0; v < o->n; v++) {
    rgi_tally_init(&merged[v], ws[0].order[f * o->n + v].m, ws[0].order[f * o->n + v].type);
    tp[v] = &merged[v];
  }
  for (uint32_t v = 0; v < o->n; v++)
    for (uint32_t k = 0; k < nw; k++) {
      const rgi_tally *t = &ws[k].order[f * o->n + v];
      for (uint32_t j = 0; j < t->n; j++)
        if (rgi_tally_slot_key(&merged[v], &t->keys[j]) < 0) goto done;
    }
  for (uint32_t v = 0; v < o->n; v++) total += merged[v].n;
  texts = rg_malloc(((size_t)total + 1) * sizeof *texts);
  sorted = rg_malloc(((size_t)all->n + 1) * sizeof *sorted);
  unsigned char *used = rg_malloc((size_t)all->n + 1);
  if (!texts || !sorted || !used || rgi_tally_union_order(tp, o->n, texts, &nt) != 0) {
    rg_free(used);
    goto done;
  }
  memset(used, 0, (size_t)all->n + 1);
  for (uint32_t i = 0; i < nt; i++)
    for (uint32_t j = 0; j < all->n; j++)
      if (!used[j] && strcmp(all->vals[j].text, texts[i]) == 0) {
        used[j] = 1;
        sorted[ns++] = all->vals[j];
        break;
      }
  for (uint32_t j = 0; j < all->n; j++)
    if (!used[j]) sorted[ns++] = all->vals[j];
  if (all->n) memcpy(all->vals, sorted, (size_t)all->n * sizeof *sorted);
  rg_free(used);
  rc = 0;
done:
  for (uint32_t v = 0; v < o->n; v++) rgi_tally_free(&merged[v]);
  rg_free(texts);
  rg_free(sorted);
  return rc;
}

rgi_simvar_status rgi_simvar_run(const rgi_simvar_opts *o, rgi_simvar_result *r) {
  uint64_t threads = o->threads < 1 ? 1 : o->threads;
  int32_t *fidx = NULL;
  vcols vc;
  vworker *ws = NULL;
  pthread_t *tids = NULL;
  uint32_t nw = 0, started = 0;
  memset(r, 0, sizeof *r);
  memset(&vc, 0, sizeof vc);
  r->runs = o->runs;
  r->status = RG_SIMVAR_NOMEM;
  if (o->n < 2 || o->n > RG_SIMVAR_MAX) return r->status;
  if (threads > o->runs) threads = o->runs;
  if (fields_of(o, &vc, r, &fidx) != 0) goto out;
  ws = rg_malloc((size_t)threads * sizeof *ws);
  tids = rg_malloc((size_t)threads * sizeof *tids);
  if (!ws || !tids) goto out;
  memset(ws, 0, (size_t)threads * sizeof *ws);
  for (uint64_t k = 0; k < threads; k++) {
    vworker *w = &ws[k];
    nw++;                   /* freed at out: even when half set up */
    w->o = o;
    w->lo = o->runs * k / threads;
    w->hi = o->runs * (k + 1) / threads;
    w->nfields = r->nfields;
    w->fidx = fidx;
    w->vc = &vc;
    if (!(w->maps = rg_malloc(((size_t)r->nfields + 1) * sizeof *w->maps))) goto out;
    memset(w->maps, 0, (size_t)r->nfields * sizeof *w->maps);
    if (!(w->order = rg_malloc(((size_t)r->nfields * o->n + 1) * sizeof *w->order))) goto out;
    for (uint32_t f = 0; f < r->nfields; f++)
      for (uint32_t v = 0; v < o->n; v++) {
        int32_t c = fidx[v * r->nfields + f];
        rgi_tally_init(&w->order[f * o->n + v], o->m[v],
                      c >= 0 ? vc.cols[v][c].type : (rgi_type){ .kind = RG_K_TEXT });
      }
  }
  for (; started < nw; started++)
    if (pthread_create(&tids[started], NULL, vwork, &ws[started]) != 0) break;
  for (uint32_t k = started; k < nw; k++) vwork(&ws[k]);
  for (uint32_t k = 0; k < started; k++) pthread_join(tids[k], NULL);
  for (uint32_t k = 0; k < nw; k++) {
    if (ws[k].nomem) goto out;
    if (ws[k].failed) {
      r->status = RG_SIMVAR_RUN_FAILED;
      r->fail_variant = ws[k].fail_variant;
      r->fail_run = ws[k].fail_run;
      r->fail_pc = ws[k].fail_pc;
      memcpy(r->msg, ws[k].msg, sizeof r->msg);
      goto out;
    }
  }
  /* Merge in run order: the values come in the order first met. */
  for (uint32_t f = 0; f < r->nfields; f++) {
    vmap all = { 0 };
    for (uint32_t k = 0; k < nw && !all.overflow; k++) {
      vmap *wm = &ws[k].maps[f];
      if (wm->overflow) all.overflow = 1;
      for (uint32_t j = 0; j < wm->n && !all.overflow; j++) {
        rgi_simvar_value *x = vmap_get(&all, wm->vals[j].text);
        if (!x) {
          if (all.overflow) break;
          vmap_free(&all, 0);
          goto out;
        }
        for (uint32_t v = 0; v < o->n; v++) {
          x->count[v] += wm->vals[j].count[v];
          x->n10[v] += wm->vals[j].n10[v];
          x->n01[v] += wm->vals[j].n01[v];
        }
      }
    }
    rgi_simvar_field *fd = &r->fields[f];
    fd->overflow = all.overflow;
    if (!all.overflow && sort_values(o, ws, nw, f, &all) != 0) {
      vmap_free(&all, 0);
      goto out;
    }
    if (!all.overflow) {
      fd->vals = all.vals;
      fd->nvals = all.n;
      all.vals = NULL;
      all.n = 0;
    }
    vmap_free(&all, 0);
  }
  r->status = RG_SIMVAR_OK;
out:
  for (uint32_t k = 0; ws && k < nw; k++) {
    for (uint32_t f = 0; ws[k].maps && f < r->nfields; f++) vmap_free(&ws[k].maps[f], 0);
    rg_free(ws[k].maps);
    for (uint32_t j = 0; ws[k].order && j < r->nfields * o->n; j++) rgi_tally_free(&ws[k].order[j]);
    rg_free(ws[k].order);
    rg_free(ws[k].buf);
    for (uint32_t v = 0; v < o->n; v++) {
      rgi_vm_free(ws[k].vr[v].vm);
      rg_free(ws[k].texts[v].buf);
    }
  }
  for (uint32_t v = 0; v < o->n; v++) rg_free(vc.cols[v]);
  rg_free(ws);
  rg_free(tids);
  rg_free(fidx);
  return r->status;
}

void rgi_simvar_free(rgi_simvar_result *r) {
  for (uint32_t f = 0; r->fields && f < r->nfields; f++) {
    for (uint32_t j = 0; j < r->fields[f].nvals; j++) rg_free(r->fields[f].vals[j].text);
    rg_free(r->fields[f].vals);
  }
  rg_free(r->fields);
  memset(r, 0, sizeof *r);
}
