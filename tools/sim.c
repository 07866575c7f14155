/*
** sim.c: `regula sim FILE [PROCEDURE ARG...] --runs N`, Monte Carlo tallies
** of a procedure's result.
**
** Run i (0-based) rolls and draws from stream i of the seed
** (rg_vm_seed(vm, S, i)) and answers its choices uniformly from a generator
** of its own (stream 2^63 + i of S), so a run's outcome depends only on S and
** i.  The runs are cut into K contiguous blocks, one thread and one VM each;
** the blocks' tallies are merged in run order, so the output is the same for
** every K.  Nothing is allocated per run: memory is flat in N.
**
** A record result is tallied field by field; any other result as a whole.
** Each distinct value gets its count, its share and the 95% Wilson score
** interval of the share.
*/
#include "alloc.h"
#include "cli.h"
#include "rng.h"
#include "seed.h"
#include "tally.h"
#include "value.h"
#include "vm.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SIM_MAX_THREADS 256
/* A value tallied with more distinct values than this (a list of every
** square visited) is reported as such, not tallied: memory stays flat in
** the number of runs, and the output the same for every thread count (a
** block never has more distinct values than all the runs). */
#define SIM_MAX_DISTINCT 1000

const char sim_help[] =
  "Runs PROCEDURE (default main; it must have a result) N times and tallies\n"
  "its results: each distinct value with its count, its share and the 95%\n"
  "Wilson confidence interval of the share.  A record result is tallied\n"
  "field by field.  Run i rolls and draws from stream i of the seed and\n"
  "answers choices at random from a stream of its own, so the tallies\n"
  "depend only on the seed, never on the threads.\n"
  "\n"
  "  --runs N       how many runs (default 10000)\n"
  "  --seed S       the seed (default 1)\n"
  "  --threads K    worker threads (default: the processors, at most 8)\n"
  "  --json         one JSON object instead of the table\n"
  "\n"
  "A progress bar shows on stderr when it is a terminal.\n"
  "\n"
  "Example: regula sim SHEET.rules --runs 100000 --seed 7\n"
  "Exit: 0, 1 an expectation failed in a run (the first is named), 2 bad\n"
  "arguments, 3 a runtime error in a run (its number and seed are printed)\n"
  "or out of memory.\n";

/* One thread's share of the runs. */
typedef struct worker {
  const rg_module *m;
  const rg_limits *limits;
  uint32_t proc;
  const rg_value *args;
  uint64_t seed, lo, hi;    /* runs lo .. hi-1 */
  uint32_t ntallies;        /* 1, or the record's fields */
  int record;
  tally *tallies;           /* [ntallies] */
  uint64_t **counts;        /* counts[f][slot] */
  uint32_t *ncounts;
  uint8_t *overflow;        /* [ntallies]: more than SIM_MAX_DISTINCT values */
  atomic_uint_fast64_t *done;
  rg_rng choice_rng;        /* seeded at the run's first choice */
  uint64_t run;             /* the run under way */
  int choice_seeded;
  /* the first failure */
  int failed;               /* 0, EX_RUNTIME */
  uint64_t fail_run;
  char msg[256];
  uint32_t fail_pc;
  int nomem;
  /* runs where an expectation failed: how many, the first one and where */
  uint64_t expect_runs, expect_run;
  uint32_t expect_pc;
  int expect_this_run;      /* the run under way failed one already */
} worker;

/* rg_sink expect_fail for worker ctx: counts the run (once) and keeps the
** first failure's run and pc. */
static void on_expect_fail(void *ctx, const rg_module *m, uint32_t expect, rg_value actual,
                           rg_value expected, uint32_t pc) {
  (void)m; (void)expect; (void)actual; (void)expected;
  worker *w = ctx;
  if (w->expect_this_run) return;
  w->expect_this_run = 1;
  if (w->expect_runs++ == 0) {
    w->expect_run = w->run;
    w->expect_pc = pc;
  }
}

/* rg_sink choose for worker ctx: picks one of the n options at random from
** w->choice_rng, seeded from the seed and the run at the run's first choice. */
static int64_t on_choose(void *ctx, const rg_module *m, uint32_t choice, rg_value chooser,
                         const rg_value *options, uint32_t n, uint32_t pc) {
  (void)m; (void)choice; (void)chooser; (void)options; (void)pc;
  worker *w = ctx;
  if (!w->choice_seeded) {
    rg_seed_sim_choices(&w->choice_rng, w->seed, w->run);
    w->choice_seeded = 1;
  }
  return (int64_t)rg_rng_below(&w->choice_rng, n);
}

/* Counts value v in tally f of w. */
static int count_value(worker *w, uint32_t f, const rg_value *heap, uint32_t nheap, rg_value v) {
  if (w->overflow[f]) return 0;
  int64_t s = tally_slot(&w->tallies[f], heap, nheap, v);
  if (s == -3) {
    w->overflow[f] = 1;
    return 0;
  }
  if (s < 0) return -1;
  if ((uint32_t)s >= w->ncounts[f]) {
    uint32_t nc = w->tallies[f].cap;
    uint64_t *c = rg_realloc(w->counts[f], (size_t)nc * sizeof *c);
    if (!c) return -1;
    memset(c + w->ncounts[f], 0, (size_t)(nc - w->ncounts[f]) * sizeof *c);
    w->counts[f] = c;
    w->ncounts[f] = nc;
  }
  w->counts[f][s]++;
  return 0;
}

/* Thread body for worker arg: runs w->lo..w->hi-1 on a VM of its own,
** counting results into w's tallies; stops at the first failure (w->failed)
** or out of memory (w->nomem).  Adds to *w->done per 1024 runs.  Returns NULL. */
static void *work(void *arg) {
  worker *w = arg;
  const rg_module *m = w->m;
  rg_sink sink = { .ctx = w, .choose = on_choose, .expect_fail = on_expect_fail };
  rg_vm *vm = rg_vm_new(m, w->limits, &sink);
  if (!vm) {
    w->nomem = 1;
    return NULL;
  }
  for (uint64_t i = w->lo; i < w->hi; i++) {
    rg_value result = 0;
    rg_seed_sim_dice(vm, w->seed, i);
    w->run = i;
    w->choice_seeded = 0;
    w->expect_this_run = 0;
    if (rg_vm_call(vm, w->proc, w->args, &result) != RG_RUN_OK) {
      const char *msg = rg_vm_error(vm, &w->fail_pc);
      snprintf(w->msg, sizeof w->msg, "%s", msg && *msg ? msg : "the run failed");
      w->failed = EX_RUNTIME;
      w->fail_run = i;
      break;
    }
    uint32_t nheap = 0;
    const rg_value *heap = rg_vm_heap(vm, &nheap);
    if (w->record) {
      for (uint32_t f = 0; f < w->ntallies; f++) {
        rg_value fv = result >= 0 && (uint64_t)result + f < nheap ? heap[result + f] : 0;
        if (count_value(w, f, heap, nheap, fv) != 0) { w->nomem = 1; break; }
      }
    } else if (count_value(w, 0, heap, nheap, result) != 0) {
      w->nomem = 1;
    }
    if (w->nomem) break;
    if (((i - w->lo) & 1023) == 1023) atomic_fetch_add(w->done, 1024);
  }
  rg_vm_free(vm);
  return NULL;
}

/* The 95% Wilson score interval of c successes in n trials. */
static void wilson(uint64_t c, uint64_t n, double *lo, double *hi) {
  const double z = 1.959963984540054;
  double p = (double)c / (double)n, nn = (double)n, z2 = z * z;
  double den = 1 + z2 / nn;
  double mid = (p + z2 / (2 * nn)) / den;
  double half = z / den * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
  *lo = mid - half < 0 ? 0 : mid - half;
  *hi = mid + half > 1 ? 1 : mid + half;
}

/* Prints s on stdout as a JSON string, quotes included. */
static void json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c == '\n') fputs("\\n", stdout);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}

/* Draws a bar of done out of total runs on stderr; `final` erases it. */
static void progress(uint64_t done, uint64_t total, int final) {
  int width = 40, fill = total ? (int)((double)done / (double)total * width) : width;
  fputc('\r', stderr);
  fputc('[', stderr);
  for (int k = 0; k < width; k++) fputc(k < fill ? '#' : ' ', stderr);
  fprintf(stderr, "] %llu/%llu", (unsigned long long)done, (unsigned long long)total);
  if (final) fputs("\r\033[K", stderr);
  fflush(stderr);
}

/* rg_malloc, zeroed. */
static void *zalloc(size_t n) {
  void *p = rg_malloc(n ? n : 1);
  if (p) memset(p, 0, n ? n : 1);
  return p;
}

/* regula sim FILE [PROCEDURE ARG...] --runs N [--seed S] [--threads K]
** [--json]: Monte Carlo tallies of a procedure's result. */
int cmd_sim(opts *o) {
  uint64_t runs = 10000, seed = 1, threads = 0;
  int json = 0;
  char **pos = o->pos;
  int npos = 0;

  for (int i = 0; i < o->npos; i++) {
    const char *a = o->pos[i];
    const char *v = NULL;
    if (strncmp(a, "--", 2) != 0 || !a[2]) { pos[npos++] = o->pos[i]; continue; }
    if (strcmp(a, "--json") == 0) { json = 1; continue; }
    if (cli_option(o->pos, o->npos, &i, "--runs", &v)) {
      if (cli_parse_count(v, &runs, 0)) return usage_error("sim", "--runs needs a positive whole number");
    } else if (cli_option(o->pos, o->npos, &i, "--seed", &v)) {
      if (cli_parse_count(v, &seed, 1)) return usage_error("sim", "--seed needs a whole number");
    } else if (cli_option(o->pos, o->npos, &i, "--threads", &v)) {
      if (cli_parse_count(v, &threads, 0) || threads > SIM_MAX_THREADS)
        return usage_error("sim", "--threads needs a whole number in 1..%d", SIM_MAX_THREADS);
    } else {
      return usage_error("sim", "unknown option '%s'", a);
    }
  }
  if (npos < 1) return usage_error("sim", "no rule file given");
  if (threads == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    threads = n < 1 ? 1 : n > 8 ? 8 : (uint64_t)n;
  }
  if (threads > runs) threads = runs;

  loaded l;
  int rc = load(&l, pos[0], 0);
  if (rc != EX_OK) {
    unload(&l);
    return rc;
  }
  const rg_module *m = &l.m;
  const char *pname = npos >= 2 ? pos[1] : "main";
  rg_value *args = NULL;
  int pi = tally_resolve(m, "sim", pname, pos + 2, npos >= 2 ? npos - 2 : 0, &args);
  if (pi < 0) {
    unload(&l);
    return pi == -2 ? EX_RUNTIME : EX_BAD;
  }
  const rg_proc *p = &m->procs[pi];
  int record = p->result.kind == RG_K_RECORD && p->result.ref < m->nrecords;
  const rg_record *rec = record ? &m->records[p->result.ref] : NULL;
  uint32_t ntallies = record ? rec->count : 1;

  worker *ws = zalloc((size_t)threads * sizeof *ws);
  pthread_t *tids = rg_malloc((size_t)threads * sizeof *tids);
  tally *merged = zalloc((size_t)ntallies * sizeof *merged);
  uint64_t **mcounts = zalloc((size_t)ntallies * sizeof *mcounts);
  atomic_uint_fast64_t done;
  atomic_init(&done, 0);
  uint32_t nw = 0;
  uint8_t *overflow = NULL;   /* [ntallies], after the merge */
  if (!ws || !tids || !merged || !mcounts) goto nomem;
  memset(ws, 0, (size_t)threads * sizeof *ws);
  for (uint32_t f = 0; f < ntallies; f++) {
    tally_init(&merged[f], m, record ? m->fields[rec->first + f].type : p->result);
    merged[f].limit = SIM_MAX_DISTINCT;
    mcounts[f] = NULL;
  }
  overflow = zalloc(ntallies);
  if (!overflow) goto nomem;
  for (uint64_t k = 0; k < threads; k++) {
    worker *w = &ws[k];
    w->m = m;
    w->limits = &o->limits;
    w->proc = (uint32_t)pi;
    w->args = args;
    w->seed = seed;
    w->lo = runs * k / threads;
    w->hi = runs * (k + 1) / threads;
    w->ntallies = ntallies;
    w->record = record;
    w->done = &done;
    w->tallies = zalloc((size_t)ntallies * sizeof *w->tallies);
    w->counts = zalloc((size_t)ntallies * sizeof *w->counts);
    w->ncounts = zalloc((size_t)ntallies * sizeof *w->ncounts);
    w->overflow = zalloc((size_t)ntallies);
    nw++;
    if (!w->tallies || !w->counts || !w->ncounts || !w->overflow) goto nomem;
    for (uint32_t f = 0; f < ntallies; f++) {
      tally_init(&w->tallies[f], m, merged[f].type);
      w->tallies[f].limit = SIM_MAX_DISTINCT;
      w->counts[f] = NULL;
      w->ncounts[f] = 0;
    }
  }
  uint32_t started = 0;
  for (; started < nw; started++)
    if (pthread_create(&tids[started], NULL, work, &ws[started]) != 0) break;
  if (started < nw) {
    /* Too few threads: the main thread runs the rest, one block at a time. */
    for (uint32_t k = started; k < nw; k++) work(&ws[k]);
  }
  if (isatty(2) && runs >= 10000) {
    for (;;) {
      uint64_t d = atomic_load(&done);
      if (d + 1024 * nw >= runs) break;
      progress(d, runs, 0);
      struct timespec ts = { 0, 100000000 };
      nanosleep(&ts, NULL);
    }
  }
  for (uint32_t k = 0; k < started; k++) pthread_join(tids[k], NULL);
  if (isatty(2) && runs >= 10000) progress(runs, runs, 1);

  /* The first failure in run order, if any. */
  for (uint32_t k = 0; k < nw; k++) {
    if (ws[k].nomem) goto nomem;
    if (ws[k].failed) {
      report_runtime(m, ws[k].msg, ws[k].fail_pc);
      fprintf(stderr, "regula: error: run %llu of seed %llu failed\n",
              (unsigned long long)ws[k].fail_run, (unsigned long long)seed);
      rc = EX_RUNTIME;
      goto out;
    }
  }
  /* Merge in run order. */
  for (uint32_t f = 0; f < ntallies; f++) {
    uint32_t cap = 0;
    for (uint32_t k = 0; k < nw && !overflow[f]; k++) {
      tally *wt = &ws[k].tallies[f];
      if (ws[k].overflow[f]) overflow[f] = 1;
      for (uint32_t s = 0; s < wt->n && !overflow[f]; s++) {
        int64_t g = tally_slot_key(&merged[f], &wt->keys[s]);
        if (g == -3) {
          overflow[f] = 1;
          break;
        }
        if (g < 0) goto nomem;
        if (merged[f].n > cap) {
          uint32_t nc = merged[f].cap;
          uint64_t *c = rg_realloc(mcounts[f], (size_t)nc * sizeof *c);
          if (!c) goto nomem;
          memset(c + cap, 0, (size_t)(nc - cap) * sizeof *c);
          mcounts[f] = c;
          cap = nc;
        }
        mcounts[f][g] += ws[k].counts[f][s];
      }
    }
  }

  /* Print. */
  if (json) {
    printf("{\"procedure\": ");
    json_string(pname);
    printf(", \"runs\": %llu, \"seed\": %llu, \"tallies\": [", (unsigned long long)runs,
           (unsigned long long)seed);
  } else {
    printf("%s: %llu runs, seed %llu\n", pname, (unsigned long long)runs,
           (unsigned long long)seed);
  }
  for (uint32_t f = 0; f < ntallies; f++) {
    tally *t = &merged[f];
    const char *name = record ? rg_module_str(m, m->fields[rec->first + f].name) : "result";
    uint32_t *order = rg_malloc(((size_t)t->n + 1) * sizeof *order);
    if (!order) goto nomem;
    tally_order(t, order);
    size_t wv = 5;
    for (uint32_t s = 0; s < t->n; s++)
      if (strlen(t->keys[s].text) > wv) wv = strlen(t->keys[s].text);
    if (wv > 40) wv = 40;
    if (overflow[f]) {
      if (json) {
        printf("%s{\"name\": ", f ? ", " : "");
        json_string(name);
        printf(", \"distinct\": \"more than %d\", \"values\": []}", SIM_MAX_DISTINCT);
      } else {
        printf("\n%s\n  more than %d distinct values: not tallied\n", name, SIM_MAX_DISTINCT);
      }
      rg_free(order);
      continue;
    }
    if (json) {
      printf("%s{\"name\": ", f ? ", " : "");
      json_string(name);
      printf(", \"values\": [");
    } else {
      printf("\n%s\n  %-*s  %10s  %7s  %s\n", name, (int)wv, "value", "count", "share",
             "95% interval");
    }
    for (uint32_t j = 0; j < t->n; j++) {
      uint32_t s = order[j];
      uint64_t c = mcounts[f][s];
      double lo, hi;
      wilson(c, runs, &lo, &hi);
      if (json) {
        printf("%s{\"value\": ", j ? ", " : "");
        json_string(t->keys[s].text);
        printf(", \"count\": %llu, \"share\": %.6f, \"low\": %.6f, \"high\": %.6f}",
               (unsigned long long)c, (double)c / (double)runs, lo, hi);
      } else {
        printf("  %-*s  %10llu  %6.2f%%  %6.2f%% .. %6.2f%%\n", (int)wv, t->keys[s].text,
               (unsigned long long)c, 100.0 * (double)c / (double)runs, 100.0 * lo,
               100.0 * hi);
      }
    }
    if (json) printf("]}");
    rg_free(order);
  }
  if (json) printf("]}\n");
  rc = EX_OK;
  /* A failed expectation is a finding (exit 1), as in every command. */
  uint64_t expect_runs = 0;
  for (uint32_t k = 0; k < nw; k++) {
    if (ws[k].expect_runs && !expect_runs) {
      const char *path;
      uint32_t line, col;
      fflush(stdout);
      if (locate(m, ws[k].expect_pc, &path, &line, &col) == 0)
        fprintf(stderr, "%s:%u: an expectation failed in run %llu of seed %llu\n", path, line,
                (unsigned long long)ws[k].expect_run, (unsigned long long)seed);
    }
    expect_runs += ws[k].expect_runs;
  }
  if (expect_runs) {
    fprintf(stderr, "regula: expectations failed in %llu of %llu runs\n",
            (unsigned long long)expect_runs, (unsigned long long)runs);
    rc = EX_FINDINGS;
  }
  goto out;

nomem:
  fputs("regula: error: out of memory\n", stderr);
  rc = EX_RUNTIME;
out:
  for (uint32_t k = 0; ws && k < nw; k++) {
    for (uint32_t f = 0; f < ntallies; f++) {
      if (ws[k].tallies) tally_free(&ws[k].tallies[f]);
      if (ws[k].counts) rg_free(ws[k].counts[f]);
    }
    rg_free(ws[k].tallies);
    rg_free(ws[k].counts);
    rg_free(ws[k].ncounts);
    rg_free(ws[k].overflow);
  }
  rg_free(overflow);
  if (merged && mcounts)
    for (uint32_t f = 0; f < ntallies; f++) {
      tally_free(&merged[f]);
      rg_free(mcounts[f]);
    }
  rg_free(merged);
  rg_free(mcounts);
  rg_free(ws);
  rg_free(tids);
  rg_free(args);
  unload(&l);
  return rc;
}
