/*
** run.c: `regula run FILE`, a whole procedure with its dice, decks and
** choices, seeded and reproducible, and `--variants` side by side.
**
** The library plays the run (interp/play.h: policies, the seeding contract
** in seed.h) and writes its log (interp/evlog.h: text or JSON lines) to
** stdout as it happens.  This file parses the options and the inputs,
** reads the answers (ask.c), and prints.  Questions to a person go to
** stderr, so stdout holds only the log.  Nothing here knows a game.
*/
#include "regula.h"
#include "cli.h"
#include "evlog.h"
#include "fileout.h"
#include "json.h"
#include "play.h"
#include "ask.h"
#include "rng.h"
#include "seed.h"
#include "value.h"
#include "vm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* What the shape callback needs during a run. */
typedef struct runner {
  rg_vm *vm;
  rg_svg *svg;              /* the pictures (--svg ...), or NULL */
} runner;

/* A shape of a picture, kept when a picture is asked for (draw.c). */
static void on_shape(void *ctx, const rg_module *m, uint32_t note, const rg_value *vals,
                     uint32_t pc) {
  runner *r = ctx;
  rg_svg_add_run(r->svg, r->vm, m, note, vals, pc);
}

/* ---- inputs ---------------------------------------------------------------------- */

/* Returns the index of input `name`, or -1. */
static int find_input(const rg_module *m, const char *name) {
  for (uint32_t i = 0; i < m->ninputs; i++)
    if (strcmp(rg_module_str(m, m->inputs[i].name), name) == 0) return (int)i;
  return -1;
}

/* ---- the command ------------------------------------------------------------------- */

/* Finds the procedure to run (o->proc, default main), which must exist, not
** be a test and take no parameters.  Returns its index, or -1 after saying
** what is wrong. */
static int find_main(const rg_module *m, const char *name) {
  int pi = rg_module_find_proc(m, name);
  if (pi < 0 || is_test_proc(m, (uint32_t)pi)) {
    int n = 0;
    fprintf(stderr, "regula: error: no procedure '%s'; ", name);
    for (uint32_t i = 0; i < m->nprocs; i++) {
      if (is_test_proc(m, i) || m->procs[i].nparams) continue;
      fprintf(stderr, "%s%s", n++ ? ", " : "procedures without parameters: ",
              rg_module_str(m, m->procs[i].name));
    }
    fputs(n ? "\n" : "the rule set has no procedure without parameters\n", stderr);
    return -1;
  }
  if (m->procs[pi].nparams) {
    fprintf(stderr, "regula: error: procedure '%s' takes parameters (", name);
    print_params(m, &m->procs[pi]);
    fputs("); regula run needs one without\n", stderr);
    return -1;
  }
  return pi;
}

/* Runs procedure pi of l with o's options, printing the log; returns the
** exit code. */
static int run(loaded *l, opts *o, int pi, uint64_t seed, int dice_ask) {
  /* A person answers (--policy ask, --dice ask, --resume): table.c plays. */
  const rg_module *m = &l->m;
  rg_value result = 0;
  reader in = { stdin, NULL, 0, 0, 0 };
  rg_policy pol, dice;
  rg_out out = cli_file_out(stdout);
  rg_log lg;
  rg_play play;
  runner r = { 0 };
  rg_sink sink;
  int rc;
  rg_status st;

  int ask_choices = o->policy && strcmp(o->policy, "ask") == 0;
  rg_setup setup;
  rg_buf ph;
  int nph = 0;
  rg_buf_init(&ph);
  rc = cli_setup(&setup, m, o->inputs, o->sets, o->nsets);
  if (rc == 0) {
    m = rg_setup_module(&setup);   /* the rules with the dice and decks set */
    nph = rg_setup_placeholders(&setup, (uint32_t)pi, l->assumptions, &ph.out);
    if (nph < 0) {
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
    }
  }
  rg_policy_first(&dice);
  rg_policy_first(&pol);
  rg_log_init(&lg, &out, m, o->json);
  static const char *const builtin[] = { "random", "first", "ask", NULL };
  uint32_t strategy = 0;
  if (rc == 0) rc = cli_strategy("run", m, o->policy, builtin, &strategy);
  if (rc == 0)
    rc = policy_open(&pol, ask_choices || strategy ? (strategy ? "random" : "first") : o->policy,
                     seed, &in);
  if (rg_play_init(&play, m, &lg, &pol, dice_ask ? &dice : NULL) != 0 && rc == 0) {
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  }
  if (rc == 0 && strategy && (dice_ask || o->resume))
    rc = usage_error("run", "--policy %s (a strategy) answers without people: not with --dice ask "
                            "or --resume", o->policy);
  play.strategy = strategy;   /* first; the rest at random */
  if (rc == 0 && (ask_choices || dice_ask || o->resume)) {
    /* People at the table: the game can be undone, saved and resumed; it
    ** plays the rules with the dice and decks set (a copy of l that shares
    ** everything else). */
    loaded lt = *l;
    lt.m = *m;
    rc = table_play(&lt, o, pi, seed, setup.inputs, ask_choices, dice_ask,
                    nph > 0 && ph.data ? ph.data : "");
    goto done;
  }
  if (rc == 0 && (o->npictures || o->picture)) {
    play.shape = on_shape;
    play.shape_ctx = &r;
    if (!(r.svg = rg_svg_new())) {
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
    }
  }
  rg_play_sink(&play, &sink);
  rg_limits lim = cli_limits(o);
  if (rc == 0 && !(r.vm = rg_vm_new(m, &lim, &sink))) {
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  }
  if (rc == 0) {
    rg_play_attach(&play, r.vm);
    rg_play_seed(&play, seed);
    rg_setup_apply(&setup, r.vm);
    char label[300];
    if (strategy) cli_strategy_label(label, sizeof label, o->policy);
    rg_log_run(&lg, rg_module_str(m, m->procs[pi].name), seed,
               strategy ? label : o->policy ? o->policy : "random",
               dice_ask ? "ask" : "random");
    /* the placeholder data the run rests on, after the run's settings */
    if (nph && o->json)
      rg_json_put(&out, json_pack("{s:s,s:o}", "event", "placeholders", "data",
                                  rg_setup_placeholders_json(&setup, (uint32_t)pi,
                                                             l->assumptions)), 1);
    else if (nph)
      rg_printf(&out, "placeholders: %s\n", ph.data);
    st = rg_vm_call(r.vm, (uint32_t)pi, &result, &result);   /* no arguments */
    if (play.stopped) {
      if (*rg_play_error(&play)) fprintf(stderr, "regula: error: %s\n", rg_play_error(&play));
      rc = in.nomem ? EX_RUNTIME : EX_BAD;     /* out of memory reading an answer: 3 */
    } else if (st != RG_RUN_OK) {
      uint32_t pc = UINT32_MAX;
      const char *msg = rg_vm_error(r.vm, &pc);
      report_runtime(&l->m, msg && *msg ? msg : "the run failed", pc);
      rc = EX_RUNTIME;
    } else {
      rg_log_summary(&lg, m->procs[pi].result, result);
      if (play.failed) rc = EX_FINDINGS;
      if (r.svg) {
        int prc = write_pictures(r.svg, m, o, "run", 0);
        if (prc != EX_OK) rc = prc;
      }
    }
    /* the log could not be built (JSON out of memory) or written */
    if (out.failed && rc != EX_RUNTIME) {
      fputs(ferror(stdout) ? "regula: error: cannot write the log to standard output\n"
                           : "regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
    }
  }
done:
  rg_vm_free(r.vm);
  rg_svg_free(r.svg);
  rg_setup_free(&setup);
  rg_buf_free(&ph);
  rg_play_free(&play);
  rg_policy_free(&pol);
  rg_policy_free(&dice);
  reader_free(&in);
  return rc;
}

/* ---- side by side: --variants ----------------------------------------------------- */

/* One rule set of a side-by-side run. */
typedef struct variant {
  const char *path;
  loaded l;
  int loaded_ok;
  int pi;                   /* the procedure run */
  rg_vm *vm;
  uint64_t seed;
  int first;                /* --policy first */
  rg_rng choices;           /* the random policy's generator */
  rg_seed_steps steps;      /* the steps entered, for the seeding contract */
  rg_value result;
} variant;

/* Sink of a variant: every step draws its dice, cards and random choices
** from a stream of the seed named by the step.  Variants that share a step
** name draw the same numbers there, whatever other steps drew before:
** common random numbers, so differences come from the rules, not the luck. */
static void var_step(void *ctx, const rg_module *m, uint32_t name, uint32_t pc) {
  variant *v = ctx;
  (void)pc;
  rg_seed_step(v->vm, &v->choices, v->seed, rg_module_str(m, name),
               rg_seed_steps_enter(&v->steps, name));
}

/* Sink of a variant: a choice, by the first or the random policy. */
static int64_t var_choose(void *ctx, const rg_module *m, uint32_t choice, rg_value chooser,
                          const rg_value *options, uint32_t n, uint32_t pc) {
  variant *v = ctx;
  (void)m; (void)choice; (void)chooser; (void)options; (void)pc;
  return v->first ? 0 : (int64_t)rg_rng_below(&v->choices, n);
}

/* Returns the display width of s. */
static size_t text_width(const char *s) {
  size_t len = strlen(s);
  return rg_display_col(s, len, (uint32_t)len + 1) - 1;
}

/* Prints s and pads it with spaces to display width w. */
static void put_padded(const char *s, size_t w) {
  size_t have = text_width(s);
  fputs(s, stdout);
  for (; have < w; have++) fputc(' ', stdout);
}

/* Formats field `field` of variant v's result (or its whole result when
** field is NULL) into buf; "-" when the variant has no such field. */
static const char *var_field(const variant *v, const char *field, char *buf, size_t size) {
  const rg_module *m = &v->l.m;
  rg_type t = m->procs[v->pi].result;
  uint32_t nheap;
  const rg_value *heap = rg_vm_heap(v->vm, &nheap);
  if (!field) return rg_value_format(buf, size, m, heap, nheap, t, v->result);
  if (t.kind == RG_K_RECORD) {
    const rg_record *rec = &m->records[t.ref];
    for (uint32_t k = 0; k < rec->count; k++)
      if (strcmp(rg_module_str(m, m->fields[rec->first + k].name), field) == 0) {
        if (v->result < 0 || (uint64_t)v->result + rec->count > nheap) break;
        return rg_value_format(buf, size, m, heap, nheap, m->fields[rec->first + k].type,
                               heap[v->result + k]);
      }
  }
  snprintf(buf, size, "-");
  return buf;
}

#define VAR_WIDE 30         /* a value wider than this gets lines of its own */

/* Prints the results of the variants side by side: one row per field of
** the result records (matched by name), a column per variant; a row with a
** long value is printed as one line per variant instead.  A row whose
** values differ between the variants starts with "* ", the others with two
** spaces. */
static void print_side_by_side(variant *vs, int n) {
  const char *fields[256];
  int nfields = 0;
  size_t namew = 5, colw[64];
  static char buf[8192];
  for (int i = 0; i < n; i++) {
    const rg_module *m = &vs[i].l.m;
    rg_type t = m->procs[vs[i].pi].result;
    if (t.kind != RG_K_RECORD) continue;
    for (uint32_t k = 0; k < m->records[t.ref].count && nfields < 256; k++) {
      const char *f = rg_module_str(m, m->fields[m->records[t.ref].first + k].name);
      int seen = 0;
      for (int j = 0; j < nfields; j++) seen |= strcmp(fields[j], f) == 0;
      if (!seen) fields[nfields++] = f;
    }
  }
  if (!nfields) fields[nfields++] = NULL;
  for (int j = 0; j < nfields; j++)
    if (fields[j] && text_width(fields[j]) > namew) namew = text_width(fields[j]);
  for (int i = 0; i < n; i++) {
    colw[i] = text_width(vs[i].path);
    for (int j = 0; j < nfields; j++) {
      size_t w = text_width(var_field(&vs[i], fields[j], buf, sizeof buf));
      if (w <= VAR_WIDE && w > colw[i]) colw[i] = w;
    }
  }
  put_padded("", namew + 2);
  for (int i = 0; i < n; i++) { fputs("  ", stdout); put_padded(vs[i].path, colw[i]); }
  fputc('\n', stdout);
  for (int j = 0; j < nfields; j++) {
    static char first[8192];
    int wide = 0, same = 1;
    for (int i = 0; i < n; i++) wide |= text_width(var_field(&vs[i], fields[j], buf, sizeof buf)) > VAR_WIDE;
    var_field(&vs[0], fields[j], first, sizeof first);
    for (int i = 1; i < n; i++) same &= strcmp(first, var_field(&vs[i], fields[j], buf, sizeof buf)) == 0;
    fputs(same ? "  " : "* ", stdout);
    put_padded(fields[j] ? fields[j] : "result", namew);
    if (wide) {
      fputc('\n', stdout);
      if (same) printf("    (all): %s\n", first);
      else
        for (int i = 0; i < n; i++)
          printf("    %s: %s\n", vs[i].path, var_field(&vs[i], fields[j], buf, sizeof buf));
      continue;
    }
    for (int i = 0; i < n; i++) {
      fputs("  ", stdout);
      if (i == n - 1) fputs(var_field(&vs[i], fields[j], buf, sizeof buf), stdout);
      else put_padded(var_field(&vs[i], fields[j], buf, sizeof buf), colw[i]);
    }
    fputc('\n', stdout);
  }
}

/* regula run --variants A,B,...: the same procedure of several rule sets on
** common random numbers, printed side by side. */
static int run_variants(opts *o, uint64_t seed) {
  variant vs[64];
  char *list = NULL;
  int n = 0, rc = EX_OK;
  size_t len = strlen(o->variants);
  if (o->npos) return usage_error("run", "give the rule sets with --variants, not also as FILE");
  if (o->policy && strcmp(o->policy, "random") != 0 && strcmp(o->policy, "first") != 0)
    return usage_error("run", "with --variants, --policy is random or first");
  if (o->dice && strcmp(o->dice, "random") != 0)
    return usage_error("run", "with --variants, the dice are random");
  if (o->npictures || o->picture || o->inputs)
    return usage_error("run", "--variants takes no pictures and no --inputs; use --set");
  if (!(list = rg_malloc(len + 1))) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  memcpy(list, o->variants, len + 1);
  memset(vs, 0, sizeof vs);
  for (char *p = list, *comma; p && rc == EX_OK; p = comma ? comma + 1 : NULL) {
    comma = strchr(p, ',');
    if (comma) *comma = '\0';
    if (!*p) continue;
    if (n == 64) { rc = usage_error("run", "at most 64 variants"); break; }
    vs[n].path = p;
    vs[n].seed = seed;
    vs[n].first = o->policy && strcmp(o->policy, "first") == 0;
    rc = load(&vs[n].l, p, 0);
    vs[n].loaded_ok = 1;
    n++;
    if (rc == EX_OK) {
      vs[n - 1].pi = find_main(&vs[n - 1].l.m, o->proc ? o->proc : "main");
      if (vs[n - 1].pi < 0) rc = EX_BAD;
    }
  }
  if (rc == EX_OK && n < 2) rc = usage_error("run", "--variants needs two rule sets or more, A,B");
  /* --set NAME=VALUE applies to every variant that has the input. */
  for (int k = 0; rc == EX_OK && k < o->nsets; k++) {
    int found = 0;
    for (int i = 0; i < n && rc == EX_OK; i++) {
      const rg_module *m = &vs[i].l.m;
      const char *eq = strchr(o->sets[k], '=');
      char name[256];
      size_t nl = eq ? (size_t)(eq - o->sets[k]) : 0;
      if (!eq || nl >= sizeof name) { rc = usage_error("run", "--set needs NAME=VALUE, not '%s'", o->sets[k]); break; }
      memcpy(name, o->sets[k], nl);
      name[nl] = '\0';
      int in = find_input(m, name);
      if (in < 0) continue;
      found = 1;
      {
        rg_value v;
        char err[512];
        if (rg_value_parse(m, m->inputs[in].type, eq + 1, &v, err, sizeof err) != 0) {
          fprintf(stderr, "regula: error: --set %s: %s\n", o->sets[k], err);
          rc = EX_BAD;
        }
      }
    }
    if (rc == EX_OK && !found) rc = usage_error("run", "no variant has an input named in '%s'", o->sets[k]);
  }
  for (int i = 0; rc == EX_OK && i < n; i++) {
    variant *v = &vs[i];
    const rg_module *m = &v->l.m;
    rg_sink sink = { .ctx = v, .step = var_step, .choose = var_choose };
    rg_status st;
    rg_limits lim = cli_limits(o);
    if (!(v->vm = rg_vm_new(m, &lim, &sink))) {
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
      break;
    }
    v->steps.n = 0;
    rg_seed_step(v->vm, &v->choices, seed, "", 0);
    for (int k = 0; k < o->nsets; k++) {
      const char *eq = strchr(o->sets[k], '=');
      char name[256];
      size_t nl = (size_t)(eq - o->sets[k]);
      rg_value val;
      char err[512];
      memcpy(name, o->sets[k], nl);
      name[nl] = '\0';
      int in = find_input(m, name);
      if (in >= 0 && rg_value_parse(m, m->inputs[in].type, eq + 1, &val, err, sizeof err) == 0)
        rg_vm_set_input(v->vm, (uint32_t)in, val);
    }
    st = rg_vm_call(v->vm, (uint32_t)v->pi, NULL, &v->result);
    if (st != RG_RUN_OK) {
      uint32_t pc = UINT32_MAX;
      const char *msg = rg_vm_error(v->vm, &pc);
      report_runtime(m, msg && *msg ? msg : "the run failed", pc);
      rc = EX_RUNTIME;
    }
  }
  if (rc == EX_OK) {
    if (o->json) {
      rg_out out = cli_file_out(stdout);
      char digits[24];
      json_t *paths = json_array();
      const rg_module *m0 = &vs[0].l.m;
      snprintf(digits, sizeof digits, "%llu", (unsigned long long)seed);
      for (int i = 0; paths && i < n; i++)
        if (json_array_append_new(paths, rg_json_text(vs[i].path)) != 0) {
          json_decref(paths);
          paths = NULL;
        }
      rg_json_put(&out, json_pack("{s:s,s:i,s:o,s:s,s:s,s:o}", "event", "variants", "format",
                                  RG_JSON_FORMAT, "procedure",
                                  rg_json_text(rg_module_str(m0, m0->procs[vs[0].pi].name)),
                                  "seed", digits, "policy", vs[0].first ? "first" : "random",
                                  "variants", paths), 1);
      for (int i = 0; i < n; i++) {
        const rg_module *m = &vs[i].l.m;
        rg_type t = m->procs[vs[i].pi].result;
        uint32_t nheap;
        const rg_value *heap = rg_vm_heap(vs[i].vm, &nheap);
        json_t *r = t.kind == RG_K_VOID ? json_null()
                                        : rg_json_value(m, heap, nheap, t, vs[i].result);
        rg_json_put(&out, json_pack("{s:s,s:o,s:o}", "event", "summary", "variant",
                                    rg_json_text(vs[i].path), "result", r), 1);
      }
      if (out.failed) {
        fputs(ferror(stdout) ? "regula: error: cannot write standard output\n"
                             : "regula: error: out of memory\n", stderr);
        rc = EX_RUNTIME;
      }

    } else {
      printf("run %s of %d variants: seed %llu, policy %s, common random numbers by step"
             "; * marks the rows that differ\n\n",
             rg_module_str(&vs[0].l.m, vs[0].l.m.procs[vs[0].pi].name), n,
             (unsigned long long)seed, vs[0].first ? "first" : "random");
      print_side_by_side(vs, n);
    }
  }
  for (int i = 0; i < n; i++) {
    rg_vm_free(vs[i].vm);
    if (vs[i].loaded_ok) unload(&vs[i].l);
  }
  rg_free(list);
  return rc;
}

/* The --set lines of a transcript (rg_transcript_settings), copied. */
typedef struct tsets {
  char *sets[64];
  int n, nomem, many;
} tsets;

/* rg_transcript_settings's each: keeps set[0..n) in ctx (a tsets). */
static void keep_set(void *ctx, const char *set, size_t n) {
  tsets *t = ctx;
  char *c;
  if (t->n == 64) { t->many = 1; return; }
  if (!(c = rg_malloc(n + 1))) { t->nomem = 1; return; }
  memcpy(c, set, n);
  c[n] = '\0';
  t->sets[t->n++] = c;
}

/* --resume FILE: the seed and --sets the transcript was played with become
** the run's (*seed; o->sets from ts) when the command line gives none, and
** must match when it does.  Returns EX_OK, or an exit code after saying
** what is wrong. */
static int resume_settings(opts *o, uint64_t *seed, tsets *ts) {
  char *text;
  size_t len;
  uint64_t tseed = 0;
  int has = 0, rc = ask_read_file(o->resume, &text, &len);
  if (rc != 0) return rc;
  rg_transcript_settings(text, len, &tseed, &has, keep_set, ts);
  rg_free(text);
  if (ts->nomem) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  if (has && o->seed && tseed != *seed)
    return usage_error("run", "%s was played with seed %llu, not %llu (leave --seed out to use "
                       "the transcript's)", o->resume, (unsigned long long)tseed,
                       (unsigned long long)*seed);
  if (has) *seed = tseed;
  if (ts->n && o->nsets) {
    int same = ts->n == o->nsets;
    for (int i = 0; same && i < ts->n; i++) same = strcmp(ts->sets[i], o->sets[i]) == 0;
    if (!same)
      return usage_error("run", "%s was played with other --set values (its '# set' lines); "
                         "leave --set out to use the transcript's", o->resume);
  }
  if (ts->n && !o->nsets) {
    o->sets = (const char **)ts->sets;
    o->nsets = ts->n;
  }
  return EX_OK;
}

/* regula run FILE [options]: checks the options, loads FILE and runs. */
int cmd_run(opts *oin) {
  loaded l;
  uint64_t seed = 1;
  int dice_ask = 0, rc, pi;
  opts copy = *oin, *o = &copy;       /* --resume may fill in the seed and sets */
  tsets ts = { .n = 0 };
  if (o->seed && cli_parse_seed(o->seed, &seed) != 0)
    return usage_error("run", "--seed needs a whole number from 0 to 18446744073709551615 or random, not '%s'",
                       o->seed);
  if (o->variants) return run_variants(o, seed);
  if (o->npos != 1)
    return usage_error("run", o->npos ? "run takes one rule file" : "no rule file given");
  if (o->dice && strcmp(o->dice, "ask") == 0) dice_ask = 1;
  else if (o->dice && strcmp(o->dice, "random") != 0)
    return usage_error("run", "--dice must be random or ask, not '%s'", o->dice);
  /* another --policy names a strategy of the rules: cli_strategy, once loaded */
  if ((o->resume || o->transcript) && !dice_ask && !(o->policy && strcmp(o->policy, "ask") == 0))
    return usage_error("run", "--resume and --transcript go with --policy ask or --dice ask, "
                       "as the game was played");
  if (o->json && (dice_ask || (o->policy && strcmp(o->policy, "ask") == 0)))
    return usage_error("run", "--json is for runs nobody answers; at the table the log is text");
  rc = o->resume ? resume_settings(o, &seed, &ts) : EX_OK;
  if (rc == EX_OK) {
    rc = load(&l, o->pos[0], 1);
    if (rc == EX_OK) {
      pi = find_main(&l.m, o->proc ? o->proc : "main");
      rc = pi < 0 ? EX_BAD : run(&l, o, pi, seed, dice_ask);
    }
    unload(&l);
  }
  for (int i = 0; i < ts.n; i++) rg_free(ts.sets[i]);
  return rc;
}
