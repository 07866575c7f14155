/*
** api.c: the public interface of regula.h over the library's modules:
** compiled rules (a module) and runs (a VM, its seed and its callbacks).
**
** Runs go through the play layer (play.h: policies, the seeding contract
** of seed.h), so an embedder's run of a seed is the CLI's.  Values cross
** the interface as text, parsed and written as on the command
** line (value.h), so that an embedder needs no knowledge of the module's
** layout.
*/
#include "regula_front.h"
#include "api_int.h"
#include "native.h"
#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "evlog.h"
#include "game.h"
#include "setup.h"
#include "module.h"
#include "play.h"
#include "policy.h"
#include "seed.h"
#include "sheet.h"
#include "value.h"
#include "vm.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *rg_version(void) {
  return REGULA_VERSION;
}

int rg_version_number(void) {
  return REGULA_VERSION_NUMBER;
}

int rgi_api_options(void *local, size_t size, const void *opt) {
  size_t given;
  memset(local, 0, size);
  *(size_t *)local = size;
  if (!opt) return 0;
  given = *(const size_t *)opt;
  if (given < sizeof(size_t)) return -1;     /* 0, or too small to hold its own size */
  memcpy((char *)local + sizeof(size_t), (const char *)opt + sizeof(size_t),
         (given < size ? given : size) - sizeof(size_t));
  return 0;
}

rg_status rgi_api_fail(const rg_rules *r, rg_status st, const char *fmt, ...) {
  /* The message is not part of the rules: a const handle keeps it too. */
  rg_rules *w = (rg_rules *)r;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->errmsg, sizeof w->errmsg, fmt, ap);
  va_end(ap);
  return st;
}

const char *rg_rules_errmsg(const rg_rules *r) {
  return r ? r->errmsg : "";
}

/* ---- compiled rules ------------------------------------------------------ */

/* Compiles (from text when text is not NULL, else the file at name) into a
** new rg_rules stored in *out.  Returns a status (see rg_rules_compile). */
static rg_status compile(const char *name, const char *text, size_t len,
                         const rg_compile_options *given, rg_compile_options *opt,
                         rg_rules **out) {
  rgi_sources local, *k = &local;
  rg_rules *r;
  int rc, module = 0;
  *out = NULL;
  if (rgi_api_options(opt, sizeof *opt, given) != 0) {
    if (given->diagnostic) {
      rg_diagnostic d;
      memset(&d, 0, sizeof d);
      d.path = "?";
      d.message = "compile options without their size (set .size, or use RG_OPTIONS)";
      given->diagnostic(given->diagnostic_ctx, &d);
    }
    return RG_BAD_VALUE;
  }
  r = rg_malloc(sizeof *r);
  if (!r) return RG_NOMEM;
  memset(r, 0, sizeof *r);
  if (opt->keep_sources) {
    /* the arena and the diagnostics outlive the compile: on the heap */
    if (!(k = rg_malloc(sizeof *k))) {
      rg_free(r);
      return RG_NOMEM;
    }
  }
  rgi_arena_init(&k->arena, 0);
  rgi_diag_init(&k->d, &k->arena, opt->diagnostic, opt->diagnostic_ctx);
  k->notes = NULL;
  if (text) {
    rc = rgi_compile_source(&k->d, name, text, len, opt->loader, &r->m, &k->notes);
  } else if (rgi_module_is_rbc(name)) {
    char err[512] = "";
    rg_status st = rgi_module_load(&r->m, name, err, sizeof err);
    if (st != RG_OK) {
      if (st == RG_NOMEM) rgi_diag_oom(&k->d);
      else rgi_error_plain(&k->d, "%s", err);
      rgi_arena_free(&k->arena);
      if (k != &local) rg_free(k);
      rg_free(r);
      return st == RG_NOMEM || st == RG_NOT_FOUND || st == RG_IO ? st : RG_BAD_MODULE;
    }
    rc = 0;
    module = 1;
    /* a module keeps no sources: nothing to mark on its sheet */
    if (k != &local) {
      rgi_arena_free(&k->arena);
      rg_free(k);
      k = &local;
      memset(k, 0, sizeof *k);  /* notes NULL: rgi_placeholder_flags reads it */
      rgi_arena_init(&k->arena, 0);
    }
  } else {
    rc = rgi_compile_path(&k->d, name, opt->loader, &r->m, &k->notes);
  }
  if (rc != 0) {
    /* a file that could not be read is that status (RG_NOT_FOUND, RG_IO),
    ** not errors in the rules */
    rg_status st = k->arena.failed ? RG_NOMEM
                 : k->d.first_load != RG_OK ? k->d.first_load : RG_BAD_RULES;
    rgi_arena_free(&k->arena);
    if (k != &local) rg_free(k);
    rgi_module_free(&r->m);
    rg_free(r);
    return st;
  }
  /* the files it was read from (rg_rules_file): the module's path, or
  ** which of the sources were tables */
  if (module) {
    size_t n = strlen(name) + 1;
    if ((r->module_path = rg_malloc(n)) != NULL) memcpy(r->module_path, name, n);
  } else if ((r->tables = rg_malloc(k->d.nfiles + 1)) != NULL) {
    memcpy(r->tables, k->d.tables, k->d.nfiles);
  }
  if (!(module ? (void *)r->module_path : (void *)r->tables) ||
      !(r->assumed = rgi_placeholder_flags(&r->m, k->notes))) {
    rgi_arena_free(&k->arena);
    if (k != &local) rg_free(k);
    rgi_module_free(&r->m);
    rg_free(r->module_path);
    rg_free(r->tables);
    rg_free(r);
    return RG_NOMEM;
  }
  if (k != &local) {
    k->d.report = NULL;       /* the caller's callback is not kept */
    k->d.report_ctx = NULL;
    r->src = k;
  } else {
    rgi_arena_free(&k->arena);   /* the module keeps what it needs */
  }
  *out = r;
  return RG_OK;
}

rg_status rg_rules_compile(const char *name, const char *text, size_t len,
                           const rg_compile_options *opt, rg_rules **out) {
  rg_compile_options o;
  return compile(name, text ? text : "", len, opt, &o, out);
}

rg_status rg_rules_load(const char *path, const rg_compile_options *opt, rg_rules **out) {
  rg_compile_options o;
  return compile(path, NULL, 0, opt, &o, out);
}

const rgi_module *rgi_rules_module(const rg_rules *r) {
  return &r->m;
}

void rg_rules_free(rg_rules *r) {
  if (!r) return;
  if (r->base) {              /* a copy set up for runs: api_setup.c */
    rgi_rules_setup_free(r);
    return;
  }
  if (r->src) {
    rgi_arena_free(&r->src->arena);
    rg_free(r->src);
  }
  rgi_native_free(r->native);
  rgi_module_free(&r->m);
  rg_free(r->assumed);
  rg_free(r->module_path);
  rg_free(r->tables);
  rg_free(r);
}

rg_status rg_rules_native(rg_rules *r, const rg_native_options *opt, char *note, size_t notelen) {
  rgi_native *n = NULL;
  if (notelen) note[0] = '\0';
  if (!opt || opt->size < sizeof *opt) {
    if (notelen) snprintf(note, notelen, "no native options: the VM runs");
    return RG_OK;
  }
  rg_status st = rgi_native_build(&r->m, opt->cc, opt->cache_dir, &n, note, notelen);
  if (st != RG_OK) return st;
  if (n) {
    rgi_native_free(r->native);
    r->native = n;
  }
  return RG_OK;
}

const struct rgi_native *rgi_rules_native_code(const rg_rules *r) {
  if (r->native) return r->native;
  return r->base ? r->base->native : NULL;
}

/* The rules r was compiled or loaded as: r, or the rules r is a copy of. */
static const rg_rules *compiled(const rg_rules *r) {
  while (r && r->base) r = r->base;
  return r;
}

uint32_t rg_rules_nfiles(const rg_rules *r) {
  const rg_rules *b = compiled(r);
  if (!b) return 0;
  return b->module_path ? 1 : b->m.nfiles;
}

const char *rg_rules_file(const rg_rules *r, uint32_t i, rg_load_kind *kind) {
  const rg_rules *b = compiled(r);
  if (!b || i >= rg_rules_nfiles(b)) return NULL;
  if (kind) *kind = !b->module_path && b->tables[i] ? RG_LOAD_TABLE : RG_LOAD_RULES;
  return b->module_path ? b->module_path : rgi_module_str(&b->m, b->m.files[i]);
}

const char *rg_rules_name(const rg_rules *r) {
  return rgi_module_str(&r->m, r->m.name);
}

/* The procedure index i of r when it is one (not a test: the tests'
** procedures come after the rules' own), else -1. */
static int proc_at(const rg_rules *r, int i) {
  return i >= 0 && (uint32_t)i < r->m.nprocs - r->m.ntests ? i : -1;
}

int rg_rules_count(const rg_rules *r, rg_item k) {
  switch (k) {
  case RG_PROC: return (int)(r->m.nprocs - r->m.ntests);
  case RG_INPUT: return (int)r->m.ninputs;
  case RG_TABLE: return (int)r->m.ntables;
  case RG_STRATEGY: return (int)r->m.nstrategies;
  }
  return 0;
}

const char *rg_rules_item(const rg_rules *r, rg_item k, int i) {
  if (i < 0 || i >= rg_rules_count(r, k)) return NULL;
  switch (k) {
  case RG_PROC: return rgi_module_str(&r->m, r->m.procs[i].name);
  case RG_INPUT: return rgi_module_str(&r->m, r->m.inputs[i].name);
  case RG_TABLE: return rgi_module_str(&r->m, r->m.tables[i].name);
  case RG_STRATEGY: return rgi_module_str(&r->m, r->m.strategies[i].name);
  }
  return NULL;
}

int rg_rules_find(const rg_rules *r, rg_item k, const char *name) {
  int p;
  if (!name) return -1;
  switch (k) {
  case RG_PROC:
    p = rgi_module_find_proc(&r->m, name);
    return p >= 0 ? proc_at(r, p) : -1;
  case RG_INPUT:
    for (uint32_t i = 0; i < r->m.ninputs; i++)
      if (strcmp(rgi_module_str(&r->m, r->m.inputs[i].name), name) == 0) return (int)i;
    return -1;
  case RG_TABLE: return rgi_module_find_table(&r->m, name);
  case RG_STRATEGY: return rgi_module_find_strategy(&r->m, name);
  }
  return -1;
}

int rg_rules_arity(const rg_rules *r, rg_item k, int i) {
  if (i < 0 || i >= rg_rules_count(r, k)) return -1;
  if (k == RG_PROC) return (int)r->m.procs[i].nparams;
  if (k == RG_TABLE) return (int)r->m.tables[i].ndims;
  return 0;
}

/* Returns parameter k of procedure proc, or NULL when out of range. */
static const rgi_param_info *param(const rg_rules *r, int proc, int k) {
  const rgi_proc *p;
  if (proc_at(r, proc) < 0 || k < 0) return NULL;
  p = &r->m.procs[proc];
  if ((uint32_t)k >= p->nparams || p->first_param + (uint32_t)k >= r->m.nparams) return NULL;
  return &r->m.params[p->first_param + (uint32_t)k];
}

const char *rg_rules_param(const rg_rules *r, int proc, int j) {
  const rgi_param_info *pi = param(r, proc, j);
  return pi ? rgi_module_str(&r->m, pi->name) : NULL;
}

const char *rg_rules_type(const rg_rules *r, rg_item k, int i, int j, char *buf, size_t size) {
  rgi_type t;
  if (i < 0 || i >= rg_rules_count(r, k)) return NULL;
  switch (k) {
  case RG_PROC:
    if (j < 0) {
      if (r->m.procs[i].result.kind == RG_K_VOID) return NULL;
      t = r->m.procs[i].result;
    } else {
      const rgi_param_info *pi = param(r, i, j);
      if (!pi) return NULL;
      t = pi->type;
    }
    break;
  case RG_INPUT: t = r->m.inputs[i].type; break;
  case RG_TABLE: {
    const rgi_table *tb = &r->m.tables[i];
    if (j < 0) t = tb->value;
    else if ((uint32_t)j < tb->ndims && tb->first_dim + (uint32_t)j < r->m.ndims)
      return rgi_dim_name(buf, size, &r->m, &r->m.dims[tb->first_dim + (uint32_t)j]);
    else return NULL;
    break;
  }
  default: return NULL;
  }
  return rgi_type_name(buf, size, &r->m, t);
}

rg_status rg_rules_check_args(const rg_rules *r, const char *proc, const char *const *args,
                              int nargs) {
  int pi = rg_rules_find(r, RG_PROC, proc);
  rgi_value *a = NULL;
  rg_status st;
  char err[1024];
  if (pi < 0) return rgi_api_fail(r, RG_NOT_FOUND, "no procedure '%s'", proc);
  st = rgi_api_parse_args(r, pi, proc, args, nargs, &a, err, sizeof err);
  rg_free(a);
  return st == RG_OK ? st : rgi_api_fail(r, st, "%s", err);
}

const char *rg_rules_input_value(const rg_rules *r, int input, char *buf, size_t size) {
  if (input < 0 || (uint32_t)input >= r->m.ninputs) return NULL;
  return rgi_value_format(buf, size, &r->m, r->m.heap, r->m.nheap, r->m.inputs[input].type,
                          r->m.inputs[input].value);
}

const char *rg_rules_strategy_doc(const rg_rules *r, int strategy) {
  if (strategy < 0 || (uint32_t)strategy >= r->m.nstrategies) return NULL;
  return rgi_module_str(&r->m, r->m.strategies[strategy].doc);
}

int rg_rules_default_strategy(const rg_rules *r) {
  for (uint32_t i = 0; i < r->m.nstrategies; i++)
    if (r->m.strategies[i].flags & RG_STRATEGY_DEFAULT) return (int)i;
  return -1;
}

/* Finds the cell of table `table` at keys[0..nkeys) of r: stores the
** table's value type in *t and the cell in *cell.  Returns RG_OK, or
** RG_NOT_FOUND / RG_BAD_VALUE with the reason in err[0..errlen). */
static rg_status find_cell(const rg_rules *r, const char *table, const char *const *keys,
                           int nkeys, rgi_type *t, rgi_value *cell, char *err, size_t errlen) {
  const rgi_module *m = &r->m;
  int ti = rgi_module_find_table(m, table);
  if (ti < 0) {
    snprintf(err, errlen, "no table '%s'", table);
    return RG_NOT_FOUND;
  }
  if (rgi_table_cell(m, (uint32_t)ti, keys, nkeys, cell, err, errlen) != 0) return RG_BAD_VALUE;
  *t = m->tables[ti].value;
  return RG_OK;
}

rg_status rg_rules_query(const rg_rules *r, const char *table, const char *const *keys,
                         int nkeys, char *buf, size_t size) {
  rgi_type t;
  rgi_value cell;
  char err[1024];
  rg_status st = find_cell(r, table, keys, nkeys, &t, &cell, err, sizeof err);
  if (st != RG_OK) {
    if (size) buf[0] = '\0';
    return rgi_api_fail(r, st, "%s", err);
  }
  rgi_value_format(buf, size, &r->m, r->m.heap, r->m.nheap, t, cell);
  return st;
}

rg_status rg_rules_query_write(const rg_rules *r, const char *table, const char *const *keys,
                               int nkeys, rg_out *out) {
  rgi_type t;
  rgi_value cell;
  char err[1024];
  rg_status st = find_cell(r, table, keys, nkeys, &t, &cell, err, sizeof err);
  rgi_watch w;
  if (st != RG_OK) return rgi_api_fail(r, st, "%s", err);
  rgi_value_print(rgi_watch_begin(&w, out), &r->m, r->m.heap, r->m.nheap, t, cell);
  return rgi_watch_end(&w, RG_OK);
}

rg_status rg_rules_save(const rg_rules *r, const char *path) {
  char err[1024] = "";
  if (rgi_module_save(&r->m, path, err, sizeof err) == 0) return RG_OK;
  return rgi_api_fail(r, RG_IO, "%s", err[0] ? err : "cannot write");
}

/* Adds bytes[0..n) to the FNV-1a hash *h. */
static void fnv(uint64_t *h, const void *bytes, size_t n) {
  const unsigned char *b = bytes;
  for (size_t i = 0; i < n; i++) {
    *h ^= b[i];
    *h *= 1099511628211ull;
  }
}

rg_status rg_rules_hash(const rg_rules *r, char *buf, size_t size) {
  const rg_rules *base = r;
  rgi_module c;
  unsigned char *bytes = NULL;
  size_t len = 0;
  uint32_t tail = UINT32_MAX, ends = 0;
  uint64_t h = 14695981039346656037ull;   /* FNV-1a, 64 bits */
  if (size) buf[0] = '\0';
  while (base->base) base = base->base;
  c = base->m;
  /* The paths of the files, as they were named, come last in the pool: the
  ** same rules named by another path (./x.rules, /abs/x.rules) hash the
  ** same when the pool is cut before them and only their last parts count. */
  for (uint32_t i = 0; i < c.nfiles; i++) {
    const char *f = rgi_module_str(&c, c.files[i]);
    if (c.files[i] < tail) tail = c.files[i];
    if (c.files[i] + strlen(f) + 1 > ends) ends = c.files[i] + (uint32_t)strlen(f) + 1;
  }
  if (c.nfiles && ends == c.nstrings) {
    uint32_t covered = 0;
    for (uint32_t i = 0; i < c.nfiles; i++) covered += (uint32_t)strlen(rgi_module_str(&c, c.files[i])) + 1;
    if (covered == c.nstrings - tail) {     /* nothing else lives there */
      for (uint32_t i = 0; i < c.nfiles; i++) {
        const char *f = rgi_module_str(&c, c.files[i]), *slash = strrchr(f, '/');
        fnv(&h, slash ? slash + 1 : f, strlen(slash ? slash + 1 : f) + 1);
      }
      c.nstrings = tail;
      c.nfiles = 0;
    }
  }
  if (rgi_module_serialize(&c, &bytes, &len) != 0) return RG_NOMEM;
  fnv(&h, bytes, len);
  rg_free(bytes);
  snprintf(buf, size, "%016llx", (unsigned long long)h);
  return RG_OK;
}

rg_status rg_rules_dis(const rg_rules *r, int flags, rg_out *out) {
  rgi_limits lim;
  rgi_vm *vm;
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (!(flags & RG_DIS_FAST)) {
    rgi_module_dis(&r->m, o);
    return rgi_watch_end(&w, RG_OK);
  }
  memset(&lim, 0, sizeof lim);
  lim.no_fusion = (flags & RG_DIS_NO_FUSION) != 0;
  if (!(vm = rgi_vm_new(&r->m, &lim, NULL))) return RG_NOMEM;
  rgi_vm_dis_fast(vm, o);
  rgi_vm_free(vm);
  return rgi_watch_end(&w, RG_OK);
}

uint32_t rg_rules_assumptions(const rg_rules *r, rg_assumption_fn fn, void *ctx) {
  uint32_t n = 0;
  if (!r->src) return 0;
  for (const rgi_assumption *a = r->src->notes; a; a = a->next, n++) {
    const rgi_diag *d = &r->src->d;
    fn(ctx, a->pos.file < d->nfiles ? d->files[a->pos.file]->path : NULL, a->pos.line,
       a->what ? a->what : "", a->text ? a->text : "");
  }
  return n;
}

/* ---- runs ------------------------------------------------------------------ */

void rgi_api_place(const rgi_module *m, uint32_t pc, const char **path, uint32_t *line,
                  uint32_t *col) {
  const char *p = "?";
  uint32_t l = 0, c = 0;
  if (rgi_log_locate(m, pc, &p, &l, &c) != 0) {
    p = "?";
    l = c = 0;
  }
  if (path) *path = p;
  if (line) *line = l;
  if (col) *col = c;
}

rg_status rgi_api_counted(const rg_rules *r, const char *name, rg_choose_policy policy,
                         const char *strategy, int *proc, int *strat, char *err, size_t errlen) {
  int pi = rg_rules_find(r, RG_PROC, name);
  *strat = -1;
  if ((*proc = pi) < 0) {
    snprintf(err, errlen, "no procedure '%s'", name);
    return RG_NOT_FOUND;
  }
  if (r->m.procs[pi].result.kind == RG_K_VOID) {
    snprintf(err, errlen, "procedure '%s' has no result to count", name);
    return RG_BAD_VALUE;
  }
  if (policy != RG_CHOOSE_RANDOM && policy != RG_CHOOSE_FIRST && policy != RG_CHOOSE_ANSWERS) {
    snprintf(err, errlen, "choices are answered at random, by the first option or by answers");
    return RG_BAD_VALUE;
  }
  if (strategy && (*strat = rgi_module_find_strategy(&r->m, strategy)) < 0) {
    snprintf(err, errlen, "no strategy '%s'", strategy);
    return RG_NOT_FOUND;
  }
  return RG_OK;
}

rg_status rg_policy_parse(const rg_rules *r, const char *text, rg_policy *out) {
  int si;
  memset(out, 0, sizeof *out);
  if (!text) return RG_BAD_VALUE;
  if (strcmp(text, "random") == 0) return RG_OK;
  if (strcmp(text, "first") == 0) {
    out->kind = RG_CHOOSE_FIRST;
    return RG_OK;
  }
  if (strncmp(text, "answers:", 8) == 0 && text[8]) {
    out->kind = RG_CHOOSE_ANSWERS;
    out->answers_name = text + 8;
    return RG_OK;
  }
  if (r && (si = rgi_module_find_strategy(&r->m, text)) >= 0) {
    out->strategy = rgi_module_str(&r->m, r->m.strategies[si].name);
    return RG_OK;
  }
  if (!r) return RG_NOT_FOUND;
  /* what it may be, as the regula program's --policy says it */
  char names[768];
  size_t n = 0;
  names[0] = '\0';
  for (uint32_t i = 0; i < r->m.nstrategies && n < sizeof names; i++)
    n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                          rgi_module_str(&r->m, r->m.strategies[i].name));
  return r->m.nstrategies
           ? rgi_api_fail(r, RG_NOT_FOUND, "a policy is random, first, answers:FILE or a strategy "
                                           "of the rules (%s), not '%s'", names, text)
           : rgi_api_fail(r, RG_NOT_FOUND, "a policy is random, first or answers:FILE (the rules "
                                           "declare no strategy), not '%s'", text);
}

/* Returns 1 when the caller receives events of kind k. */
static int wants(const rg_run *run, rg_event_kind k) {
  return run->opt.event && (!run->opt.events || (run->opt.events & (1u << k)));
}

/* Delivers an event of kind k named name, with n values vals typed by
** types[i] (or all by type when types is NULL), to the caller. */
static void deliver(rg_run *run, rg_event_kind k, const char *name, const rgi_value *vals,
                    const rgi_type *types, rgi_type type, uint32_t n, uint32_t pc) {
  rg_event ev;
  if (!wants(run, k)) return;
  run->vals = vals;
  run->types = types;
  run->type = type;
  run->nvals = n;
  run->ev_kind = k;
  run->ev_pc = pc;
  ev.kind = k;
  ev.name = name;
  ev.nvalues = n;
  ev.secret = run->secret_event;
  rgi_api_place(&run->r->m, pc, &ev.path, &ev.line, &ev.col);
  run->in_event = 1;
  run->opt.event(run->opt.event_ctx, run, &ev);
  run->in_event = 0;
  run->nvals = 0;
}

rg_status rg_run_event_value(const rg_run *run, uint32_t i, char *buf, size_t size) {
  uint32_t nheap = 0;
  const rgi_value *heap;
  if (size) buf[0] = '\0';
  if (i >= run->nvals) return RG_BAD_VALUE;
  heap = rgi_vm_heap(run->vm, &nheap);
  rgi_value_format(buf, size, &run->r->m, heap, nheap, run->types ? run->types[i] : run->type,
                  run->vals[i]);
  return RG_OK;
}

int rg_run_asking_secret(const rg_run *run) {
  return run->q && run->q->secret;
}

rg_status rg_run_option(const rg_run *run, uint32_t i, char *buf, size_t size) {
  const rgi_question *q = run->q;
  if (size) buf[0] = '\0';
  if (!q || i >= q->n) return RG_BAD_VALUE;
  if (q->range && q->dice > 1) rgi_question_answer_text(q, i, buf, size);   /* "3 4" */
  else if (q->range) snprintf(buf, size, "%lld", (long long)(q->lo + (int64_t)i));
  else if (q->name) q->name(q->ctx, i, 0, buf, size);
  return RG_OK;
}

/* The sinks below wrap run->inner, the play layer's sink (rgi_play_sink),
** which always has step, roll, draw, note, expect_fail and choose (shape,
** chance and dice only as the play layer needs them). */

/* Sink: a step begins. */
static void on_step(void *ctx, const rgi_module *m, uint32_t name, uint32_t pc) {
  rg_run *run = ctx;
  deliver(run, RG_EVENT_STEP, rgi_module_str(m, name), NULL, NULL, (rgi_type){ RG_K_VOID, 0 }, 0,
          pc);
  run->inner.step(run->inner.ctx, m, name, pc);
}

/* Sink: dice rolled (plain dice are named "d6", "2d6"). */
static void on_roll(void *ctx, const rgi_module *m, int32_t die, uint32_t sides,
                    const rgi_value *results, uint32_t n, uint32_t pc) {
  rg_run *run = ctx;
  if (wants(run, RG_EVENT_ROLL)) {
    char name[256];
    rgi_type t = rgi_log_dice_name(m, die, sides, n, name, sizeof name);
    deliver(run, RG_EVENT_ROLL, name, results, NULL, t, n, pc);
  }
  run->inner.roll(run->inner.ctx, m, die, sides, results, n, pc);
}

/* Sink: a card drawn. */
static void on_draw(void *ctx, const rgi_module *m, uint32_t deck, rgi_value card, uint32_t pc) {
  rg_run *run = ctx;
  if (deck < m->ndecks) {
    run->pair[0] = card;
    deliver(run, RG_EVENT_DRAW, rgi_module_str(m, m->decks[deck].name), run->pair, NULL,
            m->decks[deck].card, 1, pc);
  }
  run->inner.draw(run->inner.ctx, m, deck, card, pc);
}

/* Delivers note entry `note` of m (a note, or a shape named by it). */
static void deliver_note(rg_run *run, rg_event_kind k, const rgi_module *m, uint32_t note,
                         const rgi_value *vals, uint32_t pc) {
  const rgi_note_info *n;
  if (note >= m->nnotes) return;
  n = &m->notes[note];
  if (n->first_type + n->nvals > m->ntypes) return;
  run->ev_index = note;
  deliver(run, k, rgi_module_str(m, n->text), vals, m->types + n->first_type,
          (rgi_type){ RG_K_VOID, 0 }, n->nvals, pc);
}

/* Sink: a note. */
static void on_note(void *ctx, const rgi_module *m, uint32_t note, const rgi_value *vals,
                    uint32_t pc) {
  rg_run *run = ctx;
  deliver_note(run, RG_EVENT_NOTE, m, note, vals, pc);
  run->inner.note(run->inner.ctx, m, note, vals, pc);
}

/* Sink: a shape of a picture. */
static void on_shape(void *ctx, const rgi_module *m, uint32_t shape, const rgi_value *vals,
                     uint32_t pc) {
  rg_run *run = ctx;
  deliver_note(run, RG_EVENT_SHAPE, m, shape, vals, pc);
  if (run->svg) {
    uint32_t nheap;
    const rgi_value *heap = rgi_vm_heap(run->vm, &nheap);
    rgi_svg_add(run->svg, m, shape, vals, heap, nheap, pc);
  }
  if (run->inner.shape) run->inner.shape(run->inner.ctx, m, shape, vals, pc);
}

/* Sink: a failed expect is counted and delivered (expected, actual). */
static void on_expect_fail(void *ctx, const rgi_module *m, uint32_t expect, rgi_value actual,
                           rgi_value expected, uint32_t pc) {
  rg_run *run = ctx;
  run->failed_expects++;
  if (expect < m->nexpects) {
    run->pair[0] = expected;
    run->pair[1] = actual;
    run->ev_index = expect;
    deliver(run, RG_EVENT_EXPECT_FAIL, rgi_module_str(m, m->expects[expect].text), run->pair,
            NULL, m->expects[expect].type, 2, pc);
  }
  run->inner.expect_fail(run->inner.ctx, m, expect, actual, expected, pc);
}

/* Sink: the play layer puts the choice to the policy; the choice made is
** then delivered (the option taken, who chose). */
static int64_t on_choose(void *ctx, const rgi_module *m, uint32_t choice, rgi_value chooser,
                         const rgi_value *options, uint32_t n, uint32_t pc) {
  rg_run *run = ctx;
  const rgi_choice *c = &m->choices[choice];
  int64_t pick = run->inner.choose(run->inner.ctx, m, choice, chooser, options, n, pc);
  if (pick >= 0 && pick < (int64_t)n) {
    run->pair[0] = options[pick];
    run->pair[1] = chooser;
    run->pair_types[0] = c->option;
    run->pair_types[1] = c->chooser;
    run->secret_event = (c->flags & RG_CHOICE_SECRET) != 0;
    deliver(run, RG_EVENT_CHOICE, rgi_module_str(m, c->prompt), run->pair, run->pair_types,
            (rgi_type){ RG_K_VOID, 0 }, 2, pc);
    run->secret_event = 0;
  }
  return pick;
}

/* Sink: chance decided by the caller's rg_chance_fn. */
static int64_t on_chance(void *ctx, const rgi_module *m, int what, uint32_t index, uint64_t n,
                         uint32_t pc) {
  rg_run *run = ctx;
  char name[32];
  const char *nm = name;
  (void)pc;
  if (what == 'f' && index < m->ndice) nm = rgi_module_str(m, m->dice[index].name);
  else if (what == 'c' && index < m->ndecks) nm = rgi_module_str(m, m->decks[index].name);
  else snprintf(name, sizeof name, "d%u", index);
  return run->opt.chance(run->opt.chance_ctx, run, what, nm, n);
}

/* Policy callback (RG_CHOOSE_CALLBACK): asks the caller's rg_choose_fn,
** with the question's options readable through rg_run_option. */
static int64_t ask_caller(void *ctx, const rgi_question *q, rg_out *err) {
  rg_run *run = ctx;
  int64_t pick;
  run->q = q;
  pick = run->opt.policy.choose(run->opt.policy.choose_ctx, run, q->who ? q->who : "", q->prompt, q->n);
  run->q = NULL;
  if (pick < 0 || pick >= (int64_t)q->n) {
    rg_puts(err, "no answer for the choice");
    return -1;
  }
  return pick;
}

/* Sink: chance read by the play layer's dice policy (opt.dice). */
static int64_t on_dice(void *ctx, const rgi_module *m, int what, uint32_t index, uint64_t n,
                       uint32_t pc) {
  rg_run *run = ctx;
  return run->inner.chance(run->inner.ctx, m, what, index, n, pc);
}

/* Sink: several plain dice read at once by the play layer's dice policy
** (opt.dice; one question, its options "1 1", "2 1", ...). */
static int on_dice_many(void *ctx, const rgi_module *m, uint32_t sides, uint32_t n, rgi_value *out,
                        uint32_t pc) {
  rg_run *run = ctx;
  return run->inner.dice(run->inner.ctx, m, sides, n, out, pc);
}

/* Dice policy callback (opt.dice): asks the caller's rg_choose_fn, with
** the faces or cards readable through rg_run_option. */
static int64_t ask_dice(void *ctx, const rgi_question *q, rg_out *err) {
  rg_run *run = ctx;
  int64_t pick;
  run->q = q;
  pick = run->opt.dice(run->opt.dice_ctx, run, "", q->prompt, q->n);
  run->q = NULL;
  if (pick < 0 || pick >= (int64_t)q->n) {
    rg_puts(err, "no answer for the dice");
    return -1;
  }
  return pick;
}

/* Sets up run's policy from its options.  Returns a status. */
static rg_status policy_init(rg_run *run) {
  const rg_policy *p = &run->opt.policy;
  switch (p->kind) {
  case RG_CHOOSE_FIRST: rgi_policy_first(&run->pol); return RG_OK;
  case RG_CHOOSE_CALLBACK:
    if (!p->choose)
      return rgi_api_fail(run->r, RG_BAD_VALUE, "a callback policy without its function");
    rgi_policy_callback(&run->pol, "callback", ask_caller, run);
    return RG_OK;
  case RG_CHOOSE_ANSWERS: {
    const char *text = p->answers ? p->answers : "";
    int rc = rgi_policy_answers(&run->pol, p->answers_name ? p->answers_name : "answers",
                               text, p->answers ? p->answers_len : 0);
    return rc == 0 ? RG_OK : rc == -2 ? RG_NOMEM
         : rgi_api_fail(run->r, RG_BAD_VALUE, "the answers hold a NUL byte");
  }
  case RG_CHOOSE_RANDOM: rgi_policy_random(&run->pol); return RG_OK;
  }
  return rgi_api_fail(run->r, RG_BAD_VALUE, "no such policy (%d)", (int)p->kind);
}

rg_status rg_run_new(const rg_rules *r, const rg_run_options *opt, rg_run **out) {
  rg_run *run;
  rgi_sink sink;
  rgi_limits lim;
  rg_status st;
  *out = NULL;
  run = rg_malloc(sizeof *run);
  if (!run) return RG_NOMEM;
  memset(run, 0, sizeof *run);
  run->r = r;
  run->proc = -1;
  if (rgi_api_options(&run->opt, sizeof run->opt, opt) != 0) {
    rg_free(run);
    return rgi_api_fail(r, RG_BAD_VALUE, "run options without their size (set .size, or use "
                                         "RG_OPTIONS)");
  }
  if (run->opt.policy.answers_name) {   /* kept: errors and the log name it */
    size_t n = strlen(run->opt.policy.answers_name);
    if (!(run->answers_name = rg_malloc(n + 1))) {
      rg_free(run);
      return RG_NOMEM;
    }
    memcpy(run->answers_name, run->opt.policy.answers_name, n + 1);
    run->opt.policy.answers_name = run->answers_name;
  }
  st = policy_init(run);
  if (run->opt.dice) rgi_policy_callback(&run->dicepol, "ask", ask_dice, run);
  if (st == RG_OK && rgi_play_init(&run->play, &r->m, NULL, &run->pol,
                                  run->opt.dice ? &run->dicepol : NULL) != 0)
    st = RG_NOMEM;
  if (st == RG_OK && run->opt.policy.strategy) {
    int si = rgi_module_find_strategy(&r->m, run->opt.policy.strategy);
    if (si < 0) st = rgi_api_fail(r, RG_NOT_FOUND, "no strategy '%s'", run->opt.policy.strategy);
    else run->play.strategy = (uint32_t)si + 1;   /* the rest by the policy */
    /* the caller's string is not kept: the rules' own */
    if (si >= 0) run->opt.policy.strategy = rgi_module_str(&r->m, r->m.strategies[si].name);
  }

  if (st != RG_OK) {
    rg_run_free(run);
    return st;
  }
  rgi_play_sink(&run->play, &run->inner);
  sink = run->inner;
  sink.ctx = run;
  sink.step = on_step;
  sink.roll = on_roll;
  sink.draw = on_draw;
  sink.note = on_note;
  sink.shape = on_shape;
  sink.expect_fail = on_expect_fail;
  sink.choose = on_choose;
  sink.chance = run->opt.dice ? on_dice : run->opt.chance ? on_chance : NULL;
  /* the play layer's sink answers to its own context: wrap what it fills */
  sink.dice = run->opt.dice && run->inner.dice ? on_dice_many : NULL;
  memset(&lim, 0, sizeof lim);
  lim.max_steps = run->opt.limits.max_steps;
  lim.max_memory = run->opt.limits.max_memory;
  lim.no_fusion = run->opt.limits.no_fusion;
  lim.native = rgi_rules_native_code(r);
  run->sink = sink;
  run->vm = rgi_vm_new(&r->m, &lim, &sink);
  if (!run->vm) {
    rg_run_free(run);
    return RG_NOMEM;
  }
  rgi_play_attach(&run->play, run->vm);
  *out = run;
  return RG_OK;
}

void rg_run_free(rg_run *run) {
  if (!run) return;
  rgi_vm_free(run->vm);
  rgi_play_free(&run->play);
  rgi_policy_free(&run->pol);
  rgi_policy_free(&run->dicepol);
  rgi_svg_free(run->svg);
  rg_free(run->answers_name);
  rg_free(run);
}

rg_status rgi_api_parse_args(const rg_rules *r, int proc, const char *name,
                            const char *const *args, int nargs, rgi_value **out, char *err,
                            size_t errlen) {
  const rgi_module *m = &r->m;
  const rgi_proc *p = &m->procs[proc];
  char msg[512], tn[128];
  rgi_value *a;
  *out = NULL;
  if (nargs < 0 || (uint32_t)nargs != p->nparams) {
    snprintf(err, errlen, "procedure '%s' takes %u argument%s, got %d", name, p->nparams,
             p->nparams == 1 ? "" : "s", nargs);
    return RG_BAD_VALUE;
  }
  if (!(a = rg_malloc((p->nparams ? p->nparams : 1) * sizeof *a))) {
    snprintf(err, errlen, "out of memory");
    return RG_NOMEM;
  }
  a[0] = 0;
  for (uint32_t i = 0; i < p->nparams; i++) {
    const rgi_param_info *par = &m->params[p->first_param + i];
    msg[0] = '\0';
    if (rgi_value_parse(m, par->type, args[i], &a[i], msg, sizeof msg) != 0) {
      snprintf(err, errlen, "argument %u (%s: %s) of '%s': %s", i + 1, rgi_module_str(m, par->name),
               rgi_type_name(tn, sizeof tn, m, par->type), name, msg);   /* parse always says why */
      rg_free(a);
      return RG_BAD_VALUE;
    }
  }
  *out = a;
  return RG_OK;
}

/* Records an error of the call (no position) and returns status st. */
static rg_status call_fail(rg_run *run, rg_status st, const char *msg) {
  snprintf(run->err, sizeof run->err, "%s", msg);
  run->err_path = "?";
  run->err_line = run->err_col = 0;
  return st;
}

rg_status rg_run_call(rg_run *run, const char *proc, const char *const *args, int nargs) {
  const rgi_module *m = &run->r->m;
  int pi = rg_rules_find(run->r, RG_PROC, proc);
  const rgi_proc *p;
  rgi_value *a = NULL;
  rg_status st;
  char msg[768];
  run->failed_expects = 0;
  run->err[0] = '\0';
  run->rtype = (rgi_type){ RG_K_VOID, 0 };
  run->proc = -1;
  if (pi < 0) {
    snprintf(msg, sizeof msg, "no procedure '%s'", proc);
    return call_fail(run, RG_NOT_FOUND, msg);
  }
  p = &m->procs[pi];
  st = rgi_api_parse_args(run->r, pi, proc, args, nargs, &a, msg, sizeof msg);
  if (st != RG_OK) return call_fail(run, st, msg);
  /* Rolls and draws reach the sink only when someone needs them: the
  ** caller's events, the log (rg_run_log, set at any time), or the
  ** questions of real dice (which name the roll's label). */
  {
    rgi_sink s = run->sink;
    int quiet = !run->play.log && !run->opt.dice;
    if (quiet && !wants(run, RG_EVENT_ROLL)) s.roll = NULL;
    if (quiet && !wants(run, RG_EVENT_DRAW)) s.draw = NULL;
    /* and shapes only when pictures are: a procedure that only draws is
    ** then not run at all (nor its errors) */
    if (!run->svg && !wants(run, RG_EVENT_SHAPE)) s.shape = NULL;
    rgi_vm_set_sink(run->vm, &s);
  }
  /* The seeding contract (seed.h): the streams of each step, or call's. */
  if (run->opt.seeding == RG_SEEDING_CALL) rgi_play_seed_call(&run->play);
  else rgi_play_seed(&run->play, run->opt.seed);
  run->play.stopped = 0;
  rgi_api_log_begin(run, pi);
  st = rgi_vm_call(run->vm, (uint32_t)pi, a, &run->result);
  rg_free(a);
  if (st != RG_OK) {
    uint32_t pc = UINT32_MAX;
    const char *e = rgi_vm_error(run->vm, &pc);
    if (run->play.stopped && *rgi_play_error(&run->play)) e = rgi_play_error(&run->play);
    snprintf(run->err, sizeof run->err, "%s", e && *e ? e : "the run failed");
    rgi_api_place(m, pc, &run->err_path, &run->err_line, &run->err_col);
    return st;
  }
  run->rtype = p->result;
  run->proc = pi;
  rgi_api_log_end(run, pi);
  return RG_OK;
}

int rg_run_stopped(const rg_run *run) {
  return run->play.stopped;
}

const char *rg_run_errmsg(const rg_run *run) {
  return run->err;
}

int rg_run_where(const rg_run *run, rg_place *where) {
  rg_place p = { run->err_path ? run->err_path : "?", run->err_line, run->err_col };
  if (where) *where = p;
  return p.line != 0 && strcmp(p.path, "?") != 0;
}

rg_status rg_run_result(const rg_run *run, char *buf, size_t size) {
  uint32_t nheap = 0;
  const rgi_value *heap = rgi_vm_heap(run->vm, &nheap);
  if (size) buf[0] = '\0';
  if (run->rtype.kind != RG_K_VOID)
    rgi_value_format(buf, size, &run->r->m, heap, nheap, run->rtype, run->result);
  return RG_OK;
}

int rg_run_failed_expects(const rg_run *run) {
  return run->failed_expects;
}

rg_status rg_run_result_write(const rg_run *run, rg_out *out) {
  uint32_t nheap = 0;
  const rgi_value *heap = rgi_vm_heap(run->vm, &nheap);
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (run->rtype.kind != RG_K_VOID)
    rgi_value_print(o, &run->r->m, heap, nheap, run->rtype, run->result);
  return rgi_watch_end(&w, RG_OK);
}

rg_status rg_run_event_text(const rg_run *run, rg_out *out) {
  const rgi_module *m = &run->r->m;
  uint32_t nheap = 0;
  const rgi_value *heap = rgi_vm_heap(run->vm, &nheap);
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (!run->in_event) return RG_BAD_VALUE;
  if (run->ev_kind == RG_EVENT_NOTE)
    rgi_log_note_text(o, m, heap, nheap, run->ev_index, run->vals);
  else if (run->ev_kind == RG_EVENT_EXPECT_FAIL)
    rgi_log_expect_text(o, m, heap, nheap, run->ev_index, run->pair[1], run->pair[0],
                       run->ev_pc, rgi_vm_frame(run->vm));
  else
    return RG_BAD_VALUE;
  return rgi_watch_end(&w, RG_OK);
}

const char *rg_rules_source_line(const rg_rules *r, const char *path, uint32_t line,
                                 size_t *len) {
  const rgi_diag *d = r->src ? &r->src->d : NULL;
  for (uint32_t i = 0; d && path && i < d->nfiles; i++)
    if (strcmp(d->files[i]->path, path) == 0) return rgi_diag_line(d, i, line, len);
  return NULL;
}

void rg_rules_error_write(const rg_rules *r, const char *msg, const char *path, uint32_t line,
                          uint32_t col, rg_out *out) {
  rgi_diag_runtime(r->src ? &r->src->d : NULL, msg, path && strcmp(path, "?") ? path : NULL, line,
                  col, out);
}

/* ---- for editors ---------------------------------------------------------- */

rg_status rg_rules_describe(const rg_rules *r, const char *name, rg_out *out) {
  const rgi_module *m = &r->m;
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (rgi_module_find_table(m, name) >= 0)
    return rgi_watch_end(&w, rgi_sheet_print_table(o, m, name) == 0 ? RG_OK : RG_NOMEM);
  for (uint32_t i = 0; i < m->nnamed; i++) {
    const rgi_named *c = &m->named[i];
    if (strcmp(rgi_module_str(m, c->name), name) == 0) {
      rg_printf(o, "%s = ", name);
      rgi_value_write(o, m, m->heap, m->nheap, c->type, c->value);
      rg_puts(o, c->starred ? "*\n" : "\n");
      return rgi_watch_end(&w, RG_OK);
    }
  }
  return RG_NOT_FOUND;
}

/* ---- games at the table ---------------------------------------------------- */

/* rgi_game_setup.source_line over the rules (ctx). */
static const char *game_source_line(void *ctx, const char *path, uint32_t line, size_t *len) {
  return rg_rules_source_line(ctx, path, line, len);
}

rg_status rg_game_new(const rg_rules *r, const rg_game_options *given, rg_game **out) {
  rg_game_options o, *opt = &o;
  rgi_game_setup setup;
  const char *name;
  int p;
  *out = NULL;
  if (rgi_api_options(&o, sizeof o, given) != 0)
    return rgi_api_fail(r, RG_BAD_VALUE, "game options without their size (set .size, or use "
                                         "RG_OPTIONS)");
  name = opt->proc ? opt->proc : "main";
  p = rg_rules_find(r, RG_PROC, name);
  if (p < 0) return rgi_api_fail(r, RG_NOT_FOUND, "no procedure '%s'", name);
  if (r->m.procs[p].nparams)
    return rgi_api_fail(r, RG_NOT_FOUND, "procedure '%s' takes parameters: a game plays one "
                                         "that takes none", name);
  if (opt->policy.strategy || (opt->policy.kind != RG_CHOOSE_RANDOM &&
                               opt->policy.kind != RG_CHOOSE_FIRST))
    return rgi_api_fail(r, RG_BAD_VALUE, "a game's choices are asked, random or first");
  memset(&setup, 0, sizeof setup);
  setup.proc = (uint32_t)p;
  setup.seed = opt->seed;
  setup.ask_choices = opt->ask_choices;
  setup.first = opt->policy.kind == RG_CHOOSE_FIRST;
  setup.ask_dice = opt->ask_dice;
  setup.title = opt->title;
  setup.pictures = opt->pictures;
  setup.source_line = game_source_line;
  setup.source_ctx = (void *)r;
  if (opt->module) snprintf(setup.module, sizeof setup.module, "%s", opt->module);
  else if (rg_rules_hash(r, setup.module, sizeof setup.module) != RG_OK) return RG_NOMEM;
  /* the placeholder line of the log, as `regula run` writes it */
  rg_buf ph;
  rg_buf_init(&ph);
  if (rgi_placeholders_text(&r->m, (uint32_t)p, rgi_rules_set_flags(r), r->assumed, &ph.out) < 0) {
    rg_buf_free(&ph);
    return RG_NOMEM;
  }
  setup.placeholders = ph.data;
  setup.sets = r->sets.data;   /* a copy's settings, named in the transcript */
  setup.limits.max_steps = opt->limits.max_steps;
  setup.limits.max_memory = opt->limits.max_memory;
  setup.limits.no_fusion = opt->limits.no_fusion;
  setup.limits.native = rgi_rules_native_code(r);
  rg_status st = rgi_game_open(&r->m, &setup, out);
  rg_buf_free(&ph);
  return st;
}
