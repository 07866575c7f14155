/*
** glue.c: what the page (web/app.js, web/worker.js) calls in the library
** compiled to WebAssembly.  Of the library it includes only the public
** header regula.h, and holds no rules logic: it hands text in and JSON out,
** built with jansson (as all of regula's JSON is).  Every function returns
** a JSON text the caller frees with rgw_free (NULL: out of memory).
**
**   rgw_check(path, text)           diagnostics of text compiled as the file
**                                   at path: {"diags":[{"file","line","col",
**                                   "end_col","message","text"}],"base":B}
**                                   (text: the block `regula check` prints;
**                                   B: the file its `extends` names, or null)
**   rgw_sheet(path, text)           {"ok","out"}: `regula sheet`'s text
**   rgw_query(path, text, table, keys)
**                                   {"ok","out","tables":[{"name","keys"}]}:
**                                   `regula query`'s answer (keys: one a line)
**   rgw_test(path, text)            {"passed","failed","out"}: `regula test`
**   rgw_diff(base, path, text)      {"changes","out"}: `regula diff BASE PATH`
**   rgw_info(path)                  {"name","inputs":[{"name","type"}],"procs":[...]}
**   rgw_inputs(path)                rgw_info's, with "enums": {ENUM: [{"code",
**                                   "name"}]} (the members, for the inputs)
**   rgw_run(path, seed, policy)     {"exit","out","err"}: `regula run PATH
**                                   --seed SEED --policy POLICY` (random, first)
**   rgw_play(path, seed, inputs, answers, dice)
**                                   a game replayed from its start: inputs
**                                   NAME=VALUE a line, answers one a line (a
**                                   choice's option, or with dice 1 also each
**                                   die and card, in the order asked, as
**                                   `regula run --policy ask --dice ask`
**                                   reads them); returns {"exit","out","err",
**                                   "ask":null or {"who","prompt","options",
**                                   "dice"},"pictures":[{"name","svg"}]}
**   rgw_sims_new(path, proc, seed)  a simulation handle (0: see rgw_sims_json)
**   rgw_sims_run(h, n)              runs n more; returns 0, or -1 when it failed
**   rgw_sims_json(h)                `regula sim --json`'s object so far, with
**                                   "error" added when a run failed
**   rgw_sims_free(h)
**   rgw_free(s)
**
** Files live in Emscripten's in-memory file system: the bundled rules/ and
** tables/ are preloaded at /rules and /tables, paths are relative to / as
** the CLI's are to the repository, and an edited file is compiled from the
** page's text under its own path, so `extends` and `from` find the bundled
** files beside it.
*/
#include "regula_front.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text buffers and JSON ----------------------------------------------------- */

/* A growable text with an rg_out that appends to it. */
typedef struct text {
  rg_out out;
  char *data;               /* NUL-terminated, or NULL while empty */
  size_t len, cap;
} text;

/* rg_out write for a text ctx.  Returns 0, or -1 when out of memory. */
static int text_write(void *ctx, const char *s, size_t n) {
  text *t = ctx;
  if (t->len + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 256;
    char *d;
    while (cap < t->len + n + 1) cap *= 2;
    if (!(d = realloc(t->data, cap))) return -1;
    t->data = d;
    t->cap = cap;
  }
  memcpy(t->data + t->len, s, n);
  t->len += n;
  t->data[t->len] = '\0';
  return 0;
}

/* Sets t up empty. */
static void text_init(text *t) {
  memset(t, 0, sizeof *t);
  t->out.write = text_write;
  t->out.ctx = t;
}

/* Appends s to t. */
static void put(text *t, const char *s) {
  if (t->out.write(t, s, strlen(s)) != 0) t->out.failed = 1;
}

/* Returns a new JSON string of s ("" for NULL; a text that is not UTF-8,
** which the library never hands out, as U+FFFD). */
static json_t *jstr(const char *s) {
  json_t *j = json_string(s ? s : "");
  return j ? j : json_string("\xef\xbf\xbd");
}

/* Returns doc as compact JSON text (the caller frees it with rgw_free) and
** releases doc; NULL when out of memory (or doc is NULL). */
static char *finish(json_t *doc, int failed) {
  char *out = doc && !failed ? json_dumps(doc, JSON_COMPACT) : NULL;
  json_decref(doc);
  return out;
}

/* ---- compiling --------------------------------------------------------------- */

/* What a compile collects: the diagnostics as records and as the CLI's
** text, and the file the compiled file extends. */
typedef struct compiling {
  json_t *diags;            /* [{"file","line","col","end_col","message","text"}] */
  text all;                 /* every diagnostic's text */
  char base[512];           /* the resolved `extends` file, or "" */
} compiling;

/* rg_diagnostic_fn: appends d to the compiling ctx. */
static void on_diagnostic(void *ctx, const rg_diagnostic *d) {
  compiling *c = ctx;
  text one;
  text_init(&one);
  rg_diagnostic_render(d, &one.out);
  rg_diagnostic_render(d, &c->all.out);
  json_array_append_new(c->diags,
                        json_pack("{s:o,s:I,s:I,s:I,s:o,s:o}", "file",
                                  jstr(d->located ? d->path : ""), "line",
                                  (json_int_t)(d->located ? d->line : 0), "col",
                                  (json_int_t)(d->located ? d->col : 0), "end_col",
                                  (json_int_t)(d->located ? d->end_col : 0), "message",
                                  jstr(d->message), "text", jstr(one.data)));
  free(one.data);
}

/* rg_loader load: the default loader, remembering the first rule file an
** `extends` names (the compiled file's base). */
static rg_status load(void *ctx, const char *from, const char *name, rg_load_kind kind,
                      rg_source *src, char *err, size_t errlen) {
  compiling *c = ctx;
  rg_status st = rg_file_loader.load(rg_file_loader.ctx, from, name, kind, src, err, errlen);
  if (st == RG_OK && kind == RG_LOAD_RULES && from && !c->base[0])
    snprintf(c->base, sizeof c->base, "%s", src->path ? src->path : name);
  return st;
}

/* rg_loader release: the default loader's. */
static void release(void *ctx, rg_source *src) {
  (void)ctx;
  if (rg_file_loader.release) rg_file_loader.release(rg_file_loader.ctx, src);
}

/* Sets c up and fills opt (with the loader ld) for a compile. */
static void compiling_init(compiling *c, rg_compile_options *opt, rg_loader *ld) {
  memset(c, 0, sizeof *c);
  c->diags = json_array();
  text_init(&c->all);
  ld->load = load;
  ld->release = release;
  ld->ctx = c;
  *opt = RG_OPTIONS(rg_compile_options);
  opt->loader = ld;
  opt->diagnostic = on_diagnostic;
  opt->diagnostic_ctx = c;
}

/* Frees what c holds. */
static void compiling_free(compiling *c) {
  json_decref(c->diags);
  c->diags = NULL;
  free(c->all.data);
  c->all.data = NULL;
}

/* Compiles src (or, when NULL, the file at path) into *r with c
** collecting.  Returns the status. */
static rg_status compile(const char *path, const char *src, compiling *c, rg_rules **r) {
  rg_compile_options opt;
  rg_loader ld;
  compiling_init(c, &opt, &ld);
  return src ? rg_rules_compile(path, src, strlen(src), &opt, r)
             : rg_rules_load(path, &opt, r);
}

char *rgw_check(const char *path, const char *src) {
  compiling c;
  rg_rules *r = NULL;
  json_t *doc;
  compile(path, src, &c, &r);
  rg_rules_free(r);
  doc = json_pack("{s:O,s:o}", "diags", c.diags, "base", c.base[0] ? jstr(c.base) : json_null());
  compiling_free(&c);
  return finish(doc, 0);
}

/* Returns {"ok":OK,"out":OUT} for a command that printed out (or, when it
** failed, the diagnostics). */
static json_t *result(int ok, const char *out) {
  return json_pack("{s:b,s:o}", "ok", ok, "out", jstr(out));
}

char *rgw_sheet(const char *path, const char *src) {
  compiling c;
  rg_compile_options opt;
  rg_loader ld;
  text sheet;
  rg_status st;
  json_t *doc;
  text_init(&sheet);
  compiling_init(&c, &opt, &ld);
  st = rg_rules_sheet(path, src, strlen(src), &opt, &sheet.out);
  doc = result(st == RG_OK, st == RG_OK ? sheet.data : c.all.data);
  free(sheet.data);
  compiling_free(&c);
  return finish(doc, sheet.out.failed);
}

char *rgw_query(const char *path, const char *src, const char *table, const char *keys) {
  compiling c;
  rg_rules *r = NULL;
  char *copy = strdup(keys), *k[16], answer[8192];
  int nk = 0;
  json_t *doc;
  if (!copy) return NULL;
  for (char *p = copy; *p && nk < 16;) {
    char *nl = strchr(p, '\n');
    if (nl) *nl = '\0';
    k[nk++] = p;
    if (!nl) break;
    p = nl + 1;
  }
  if (compile(path, src, &c, &r) != RG_OK) {
    doc = result(0, c.all.data);
  } else {
    rg_status st = rg_rules_query(r, table, (const char *const *)k, nk, answer, sizeof answer);
    json_t *tables = json_array();
    for (int i = 0; i < rg_rules_count(r, RG_TABLE); i++)
      json_array_append_new(tables, json_pack("{s:o,s:i}", "name", jstr(rg_rules_item(r, RG_TABLE, i)),
                                              "keys", rg_rules_arity(r, RG_TABLE, i)));
    doc = result(st == RG_OK, answer);
    json_object_set_new(doc, "tables", tables);
  }
  rg_rules_free(r);
  compiling_free(&c);
  free(copy);
  return finish(doc, 0);
}

char *rgw_test(const char *path, const char *src) {
  compiling c;
  rg_rules *r = NULL;
  text res;
  uint32_t passed = 0, failed = 0;
  char count[64];
  json_t *doc;
  text_init(&res);
  if (compile(path, src, &c, &r) != RG_OK) {
    doc = json_pack("{s:i,s:i,s:o}", "passed", 0, "failed", 0, "out", jstr(c.all.data));
  } else {
    if (rg_rules_test(r, NULL, &res.out, &passed, &failed) != RG_OK) res.out.failed = 1;
    snprintf(count, sizeof count, "%u passed, %u failed\n", passed, failed);
    put(&res, count);
    doc = json_pack("{s:I,s:I,s:o}", "passed", (json_int_t)passed, "failed", (json_int_t)failed,
                    "out", jstr(res.data));
  }
  free(res.data);
  rg_rules_free(r);
  compiling_free(&c);
  return finish(doc, res.out.failed);
}

char *rgw_diff(const char *base, const char *path, const char *src) {
  compiling ca, cb;
  rg_rules *a = NULL, *b = NULL;
  text res;
  uint32_t n = 0;
  json_t *doc;
  memset(&cb, 0, sizeof cb);
  text_init(&res);
  if (compile(base, NULL, &ca, &a) != RG_OK) {
    doc = json_pack("{s:i,s:o}", "changes", -1, "out", jstr(ca.all.data));
  } else if (compile(path, src, &cb, &b) != RG_OK) {
    doc = json_pack("{s:i,s:o}", "changes", -1, "out", jstr(cb.all.data));
  } else {
    if (rg_rules_diff(a, base, b, path, &res.out, &n) != RG_OK) res.out.failed = 1;
    doc = json_pack("{s:I,s:o}", "changes", (json_int_t)n, "out", jstr(res.data));
  }
  free(res.data);
  rg_rules_free(a);
  rg_rules_free(b);
  compiling_free(&ca);
  compiling_free(&cb);
  return finish(doc, res.out.failed);
}

/* rg_symbol_fn: adds each enum member to the object ctx (enum name ->
** [{"code","name"}], the first declaration of a code kept). */
static void on_symbol(void *ctx, const rg_symbol *sym) {
  json_t *enums = ctx, *list, *m;
  size_t i;
  if (sym->kind != RG_SYMBOL_MEMBER || !sym->container) return;
  if (!(list = json_object_get(enums, sym->container))) {
    list = json_array();
    if (json_object_set_new(enums, sym->container, list) != 0) return;
  }
  json_array_foreach(list, i, m)
    if (strcmp(json_string_value(json_object_get(m, "code")), sym->name) == 0) return;
  json_array_append_new(list, json_pack("{s:o,s:o}", "code", jstr(sym->name), "name",
                                        jstr(sym->display ? sym->display : sym->name)));
}

/* Adds the members of every enum of the rule file at path to doc as
** "enums" (see on_symbol). */
static void add_enums(json_t *doc, const char *path) {
  rg_source src;
  char err[256];
  json_t *enums = json_object();
  memset(&src, 0, sizeof src);
  if (rg_file_loader.load(rg_file_loader.ctx, NULL, path, RG_LOAD_RULES, &src, err, sizeof err) ==
      RG_OK) {
    rg_rules_symbols(path, src.text, src.len, NULL, on_symbol, enums);
    if (rg_file_loader.release) rg_file_loader.release(rg_file_loader.ctx, &src);
  }
  json_object_set_new(doc, "enums", enums);
}

char *rgw_info(const char *path) {
  compiling c;
  rg_rules *r = NULL;
  char type[256], value[256];
  json_t *doc, *inputs = json_array(), *procs = json_array(), *strategies = json_array();
  if (compile(path, NULL, &c, &r) != RG_OK) {
    doc = json_pack("{s:s,s:o,s:o,s:o,s:n,s:o}", "name", "", "inputs", inputs, "procs", procs,
                    "strategies", strategies, "default", "err", jstr(c.all.data));
  } else {
    int d = rg_rules_default_strategy(r);
    for (int i = 0; i < rg_rules_count(r, RG_INPUT); i++)
      json_array_append_new(inputs, json_pack("{s:o,s:o,s:o}", "name",
                                              jstr(rg_rules_item(r, RG_INPUT, i)), "type",
                                              jstr(rg_rules_type(r, RG_INPUT, i, 0, type, sizeof type)),
                                              "value",
                                              jstr(rg_rules_input_value(r, i, value,
                                                                        sizeof value))));
    for (int i = 0; i < rg_rules_count(r, RG_PROC); i++) {
      const char *name = rg_rules_item(r, RG_PROC, i);
      if (rg_rules_arity(r, RG_PROC, i) == 0)
        json_array_append_new(procs, jstr(name));
    }
    for (int i = 0; i < rg_rules_count(r, RG_STRATEGY); i++)
      json_array_append_new(strategies, json_pack("{s:o,s:o}", "name",
                                                  jstr(rg_rules_item(r, RG_STRATEGY, i)), "doc",
                                                  jstr(rg_rules_strategy_doc(r, i))));
    doc = json_pack("{s:o,s:o,s:o,s:o,s:o}", "name", jstr(rg_rules_name(r)), "inputs", inputs,
                    "procs", procs, "strategies", strategies, "default",
                    d >= 0 ? jstr(rg_rules_item(r, RG_STRATEGY, d)) : json_null());
  }
  rg_rules_free(r);
  compiling_free(&c);
  return finish(doc, 0);
}

char *rgw_inputs(const char *path) {
  char *info = rgw_info(path);
  json_t *doc = info ? json_loads(info, 0, NULL) : NULL;
  free(info);
  if (doc) add_enums(doc, path);
  return finish(doc, 0);
}

/* ---- runs ------------------------------------------------------------------------ */

/* Parses s (digits only, 0..2^64-1) into *v; returns 0 or -1. */
static int parse_seed(const char *s, uint64_t *v) {
  *v = 0;
  if (!*s) return -1;
  for (; *s; s++) {
    unsigned d = (unsigned)(*s - '0');
    if (*s < '0' || *s > '9' || *v > (UINT64_MAX - d) / 10) return -1;
    *v = *v * 10 + d;
  }
  return 0;
}

/* Makes *out a copy of r set up by the inputs NAME=VALUE (one a line; an
** input, or a die's faces or a deck's cards), each named "--set LINE" in
** errors as `regula run --set` names it.  Returns 0, or -1 with the
** reason in err (*out then NULL). */
static int set_inputs(const rg_rules *r, const char *inputs, rg_rules **out, text *err) {
  char *copy = strdup(inputs), *p = copy;
  int rc = 0;
  if (!copy || rg_rules_copy(r, out) != RG_OK) {
    free(copy);
    put(err, "regula: error: out of memory\n");
    return -1;
  }
  while (p && *p && rc == 0) {
    char *nl = strchr(p, '\n'), where[64];
    rg_status st;
    if (nl) *nl = '\0';
    snprintf(where, sizeof where, "--set %.50s", p);
    if (*p && (st = rg_rules_set(*out, p)) != RG_OK) {
      put(err, "regula: error: ");
      if (st == RG_NOMEM) {
        put(err, "out of memory");
      } else {
        put(err, where);
        put(err, ": ");
        put(err, rg_rules_errmsg(*out));
      }
      put(err, "\n");
      rc = -1;
    }
    p = nl ? nl + 1 : NULL;
  }
  free(copy);
  if (rc != 0) {
    rg_rules_free(*out);
    *out = NULL;
  }
  return rc;
}

/* Compiles the file at path into *r and makes *set a copy of it set up by
** the inputs (set_inputs).  Returns 0, or `regula run`'s exit code (2: bad
** rules or inputs, 3: out of memory) after writing why to err; *r and *set
** are the caller's to free either way. */
static int rules_for_run(const char *path, const char *inputs, rg_rules **r, rg_rules **set,
                         text *err) {
  compiling c;
  rg_status st = compile(path, NULL, &c, r);
  *set = NULL;
  if (st != RG_OK) {
    put(err, c.all.data ? c.all.data : "regula: error: out of memory\n");
    compiling_free(&c);
    return st == RG_NOMEM ? 3 : 2;
  }
  compiling_free(&c);
  return set_inputs(*r, inputs, set, err) != 0 ? 2 : 0;
}

/* The rules the last game or run was played with: a game replays from its
** start at every answer, and compiling a rule file takes far longer than
** playing it, so the page's calls share one compile of the bundled file
** (which does not change) with the same inputs.  Only the page's thread
** uses it; a simulation compiles its own. */
static struct {
  char *path, *inputs;
  rg_rules *r, *set;
} last;

/* rules_for_run of path and inputs, the rules kept in `last` (borrowed:
** valid until the next call; not to be freed).  Returns as rules_for_run. */
static int rules_kept(const char *path, const char *inputs, const rg_rules **set, text *err) {
  int rc;
  if (last.set && strcmp(last.path, path) == 0 && strcmp(last.inputs, inputs) == 0) {
    *set = last.set;
    return 0;
  }
  rg_rules_free(last.set);
  rg_rules_free(last.r);
  free(last.path);
  free(last.inputs);
  memset(&last, 0, sizeof last);
  *set = NULL;
  rc = rules_for_run(path, inputs, &last.r, &last.set, err);
  if (rc == 0 && (!(last.path = strdup(path)) || !(last.inputs = strdup(inputs)))) {
    put(err, "regula: error: out of memory\n");
    rc = 3;
  }
  if (rc != 0) {
    rg_rules_free(last.set);
    rg_rules_free(last.r);
    free(last.path);
    free(last.inputs);
    memset(&last, 0, sizeof last);
    return rc;
  }
  *set = last.set;
  return 0;
}

/* Reads policy as `regula run --policy` and `sim --policy` do: "" (none
** asked for: the rules' default strategy, else random), "random", "first",
** or the name of a strategy of r (its choices, the others at random).
** The library reads the name (rg_policy_parse).  Sets *out.  Returns 0,
** or -1 after writing why to err. */
static int read_policy(const rg_rules *r, const char *policy, rg_policy *out, text *err) {
  memset(out, 0, sizeof *out);
  if (!*policy) {
    out->strategy = rg_rules_item(r, RG_STRATEGY, rg_rules_default_strategy(r));
  } else if (rg_policy_parse(r, policy, out) != RG_OK || out->kind == RG_CHOOSE_ANSWERS) {
    put(err, "regula: error: --policy must be random, first or a strategy of the rules, not '");
    put(err, policy);
    put(err, "'\n");
    return -1;
  }
  return 0;
}

/* Returns {"exit":N,"out":LOG,"err":ERR}. */
static json_t *run_doc(int rc, const text *log, const text *err) {
  return json_pack("{s:i,s:o,s:o}", "exit", log->out.failed || err->out.failed ? 3 : rc, "out",
                   jstr(log->data), "err", jstr(err->data));
}

char *rgw_run(const char *path, const char *seed, const char *policy, const char *inputs) {
  rg_run_options o;
  const rg_rules *set = NULL;
  rg_run *run = NULL;
  text log, err;
  int rc;
  json_t *doc;
  o = RG_OPTIONS(rg_run_options);
  text_init(&log);
  text_init(&err);
  if (parse_seed(seed, &o.seed) != 0) {
    put(&err, "regula: error: --seed needs a whole number from 0 to 18446744073709551615\n");
    rc = 2;
  } else if ((rc = rules_kept(path, inputs, &set, &err)) != 0) {
    /* said */
  } else if (read_policy(set, policy, &o.policy, &err) != 0) {
    rc = 2;
  } else if (rg_run_new(set, &o, &run) != RG_OK) {
    put(&err, "regula: error: out of memory\n");
    rc = 3;
  } else {
    rg_status st;
    rg_run_log(run, &log.out, 0, NULL, NULL);
    st = rg_run_call(run, "main", NULL, 0);
    if (st == RG_OK) {
      rc = rg_run_failed_expects(run) ? 1 : 0;
    } else {
      rg_place at;
      const char *msg = rg_run_errmsg(run);
      char where[600];
      rg_run_where(run, &at);
      if (at.line) snprintf(where, sizeof where, "%s:%u:%u: error: ", at.path, at.line, at.col);
      else snprintf(where, sizeof where, "regula: error: ");
      put(&err, where);
      put(&err, msg);
      put(&err, "\n");
      rc = st == RG_NOT_FOUND || st == RG_BAD_VALUE ? 2 : 3;
    }
  }
  doc = run_doc(rc, &log, &err);
  rg_run_free(run);
  free(log.data);
  free(err.data);
  return finish(doc, 0);
}

/* ---- games at the table --------------------------------------------------------- */

/* A game of the page: the rules, their copy set up by the inputs, and the
** game (rg_game: the library's, as at the terminal) with its answers
** loaded and played. */
typedef struct page_game {
  const rg_rules *set;      /* borrowed from `last` */
  rg_game *g;
  rg_game_state state;
} page_game;

/* Sets pg up as the game of the file at path with seed, inputs (NAME=VALUE
** a line) and answers (one a line, as `regula run --policy ask` reads
** them; with dice 1, also each die and card: --dice ask), and plays it.
** Returns 0, or `regula run`'s exit code after writing why to err.  The
** caller frees pg with game_close either way. */
static int game_open(page_game *pg, const char *path, const char *seed, const char *inputs,
                     const char *answers, int dice, text *err) {
  rg_game_options go;
  int rc;
  memset(pg, 0, sizeof *pg);
  go = RG_OPTIONS(rg_game_options);
  if (parse_seed(seed, &go.seed) != 0) {
    put(err, "regula: error: --seed needs a whole number from 0 to 18446744073709551615\n");
    return 2;
  }
  if ((rc = rules_kept(path, inputs, &pg->set, err)) != 0) return rc;
  go.ask_choices = 1;
  go.ask_dice = dice;
  go.title = path;
  go.pictures = 1;
  if (rg_game_new(pg->set, &go, &pg->g) != RG_OK ||
      rg_game_load(pg->g, "answers", answers, strlen(answers)) != RG_OK) {
    put(err, "regula: error: out of memory\n");
    return 3;
  }
  pg->state = rg_game_play(pg->g);
  return 0;
}

/* Frees what pg holds. */
static void game_close(page_game *pg) {
  rg_game_free(pg->g);
}

/* Returns the question game g asks as JSON: {"who","prompt","text" (as the
** regula program writes it: "WHO, PROMPT"),"secret","numeric","range",
** "lo","dice","sides","yesno","hand","step","noptions","options",
** "remarks","counted","listed"} (options and their remarks, "" for none:
** at most 400, none for several dice at once, which are lo .. lo + sides
** - 1 each; counted and listed: examples of a whole hand typed at once,
** "2 red 1 white" and "red red white", null when not a hand). */
static json_t *question_json(const rg_game *g) {
  rg_game_question q;
  text line, counted, listed;
  char buf[1024];
  json_t *opts = json_array(), *rems = json_array(), *doc;
  rg_game_asking(g, &q);
  text_init(&line);
  rg_game_question_write(g, 0, &line.out);
  for (uint32_t i = 0; q.dice <= 1 && i < q.noptions && i < 400; i++) {
    rg_game_option(g, i, buf, sizeof buf);
    json_array_append_new(opts, jstr(buf));
    if (!rg_game_option_remark(g, i, buf, sizeof buf)) buf[0] = '\0';
    json_array_append_new(rems, jstr(buf));
  }
  text_init(&counted);
  text_init(&listed);
  rg_game_hand_example(g, 0, &counted.out);
  rg_game_hand_example(g, 1, &listed.out);
  doc = json_pack("{s:o,s:o,s:o,s:b,s:b,s:b,s:I,s:I,s:I,s:b,s:I,s:o,s:I,s:o,s:o,s:o,s:o}", "who",
                  jstr(q.who), "prompt", jstr(q.prompt), "text", jstr(line.data), "secret",
                  q.secret, "numeric", q.numeric, "range", q.range, "lo", (json_int_t)q.lo, "dice",
                  (json_int_t)q.dice, "sides", (json_int_t)q.sides, "yesno", q.yesno, "hand",
                  (json_int_t)q.hand, "step", jstr(q.step), "noptions", (json_int_t)q.noptions,
                  "options", opts, "remarks", rems, "counted", jstr(counted.data), "listed",
                  jstr(listed.data));
  free(line.data);
  free(counted.data);
  free(listed.data);
  return doc;
}

char *rgw_play(const char *path, const char *seed, const char *inputs, const char *answers,
               int dice) {
  page_game pg;
  text log, err, pub;
  json_t *doc, *pics = json_array(), *ask = json_null();
  size_t len = 0, vis = 0;
  int rc, held = 0;
  text_init(&log);
  text_init(&err);
  text_init(&pub);
  rc = game_open(&pg, path, seed, inputs, answers, dice, &err);
  if (rc == 0) {
    const char *all = rg_game_log(pg.g, &len, &vis);
    if (rg_game_public(pg.g, &pub.out) != RG_OK) pub.out.failed = 1;
    if (pg.state == RG_GAME_ASKING) {
      /* the log as far as it may be shown: not a secret moment still open */
      if (vis) text_write(&log, all, vis);
      held = vis < len;
      json_decref(ask);
      ask = question_json(pg.g);
      rc = 2;
    } else {
      if (len) text_write(&log, all, len);
      if (pg.state == RG_GAME_OVER) {
        const rg_pictures *drawn = rg_game_drawn(pg.g);
        rc = rg_game_failed_expects(pg.g) ? 1 : 0;
        for (uint32_t i = 0; i < rg_pictures_count(drawn); i++) {
          text svg;
          text_init(&svg);
          if (rg_pictures_write(drawn, i, &svg.out) == RG_OK && !svg.out.failed)
            json_array_append_new(pics, json_pack("{s:o,s:o}", "name",
                                                  jstr(rg_pictures_name(drawn, i)), "svg",
                                                  jstr(svg.data)));
          free(svg.data);
        }
      } else {
        rg_status st;
        rg_place at;
        const char *msg = rg_game_error(pg.g, &st, &at);
        char where[600];
        if (at.line) snprintf(where, sizeof where, "%s:%u:%u: error: ", at.path, at.line, at.col);
        else snprintf(where, sizeof where, "regula: error: ");
        put(&err, where);
        put(&err, msg);
        put(&err, "\n");
        rc = st == RG_RUN_ERROR || st == RG_NOMEM ? 3 : 2;
      }
    }
  }
  doc = run_doc(rc, &log, &err);
  json_object_set_new(doc, "held", json_boolean(held));
  json_object_set_new(doc, "public", jstr(pub.data));
  json_object_set_new(doc, "ask", ask);
  json_object_set_new(doc, "pictures", pics);
  game_close(&pg);
  free(log.data);
  free(err.data);
  free(pub.data);
  return finish(doc, pub.out.failed);
}

/* Appends to list the answers of the transcript text (its lines that are
** not comments) from the skip-th on; returns how many it holds in all. */
static size_t transcript_answers(const char *text, size_t skip, json_t *list) {
  size_t n = 0;
  for (const char *p = text; p && *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    if (len && *p != '#') {
      if (n >= skip && list) {
        json_t *a = json_stringn(p, len);
        json_array_append_new(list, a ? a : jstr(NULL));
      }
      n++;
    }
    p = nl ? nl + 1 : NULL;
  }
  return n;
}

char *rgw_reply(const char *path, const char *seed, const char *inputs, const char *answers,
                int dice, const char *line) {
  static const char *const kinds[] = { "answer", "undo", "save", "help", "bad" };
  page_game pg;
  text err, why, before, after;
  json_t *doc, *added = json_array();
  rg_reply r = RG_REPLY_BAD;
  char *copy = strdup(line);
  int rc;
  text_init(&err);
  text_init(&why);
  text_init(&before);
  text_init(&after);
  rc = game_open(&pg, path, seed, inputs, answers, dice, &err);
  if (!copy) {
    put(&why, "out of memory");
  } else if (rc != 0) {
    put(&why, err.data ? err.data : "");
  } else if (pg.state != RG_GAME_ASKING) {
    put(&why, "no question is waiting");
  } else {
    /* what the reply added: the transcript's answers beyond those before */
    rg_game_transcript(pg.g, &before.out);
    r = rg_game_reply(pg.g, copy, &(const char *){ NULL }, &why.out);
    if (r == RG_REPLY_ANSWER) {
      rg_game_transcript(pg.g, &after.out);
      transcript_answers(after.data ? after.data : "",
                         transcript_answers(before.data ? before.data : "", 0, NULL), added);
    }
  }
  doc = json_pack("{s:s,s:o,s:o}", "reply", kinds[r], "why", jstr(why.data), "added", added);
  game_close(&pg);
  free(copy);
  free(err.data);
  free(why.data);
  free(before.data);
  free(after.data);
  return finish(doc, why.out.failed || before.out.failed || after.out.failed);
}

/* ---- simulations ------------------------------------------------------------------- */

/* A simulation and the rules it runs. */
typedef struct sims {
  rg_rules *r, *set;
  rg_sims *s;
  char err[1024];           /* why it could not start */
} sims;

uintptr_t rgw_sims_new(const char *path, const char *proc, const char *seed, const char *inputs,
                       const char *policy) {
  sims *h = calloc(1, sizeof *h);
  text err;
  rg_sims_options so;
  rg_status st;
  if (!h) return 0;
  text_init(&err);
  so = RG_OPTIONS(rg_sims_options);
  so.proc = proc;
  if (parse_seed(seed, &so.seed) != 0) {
    put(&err, "regula: error: --seed needs a whole number from 0 to 18446744073709551615\n");
  } else if (rules_for_run(path, inputs, &h->r, &h->set, &err) == 0 &&
             read_policy(h->set, policy, &so.policy, &err) == 0) {
    /* as `regula sim`: with no policy asked for, the rules' default strategy */
    if ((st = rg_sims_new(h->set, &so, &h->s)) != RG_OK)
      snprintf(h->err, sizeof h->err, "procedure '%s': %s", proc,
               st == RG_NOMEM ? "out of memory" : rg_rules_errmsg(h->set));
  }
  if (err.data) snprintf(h->err, sizeof h->err, "%s", err.data);
  if (err.out.failed && !h->s) snprintf(h->err, sizeof h->err, "out of memory");
  free(err.data);
  return (uintptr_t)h;
}

int rgw_sims_run(uintptr_t hp, double n) {
  sims *h = (sims *)hp;
  if (!h || !h->s) return -1;
  return rg_sims_run(h->s, (uint64_t)n) == RG_OK ? 0 : -1;
}

char *rgw_sims_json(uintptr_t hp) {
  sims *h = (sims *)hp;
  text out;
  json_t *doc;
  if (!h) return NULL;
  if (!h->s) return finish(json_pack("{s:o}", "error", jstr(h->err)), 0);
  text_init(&out);
  rg_sims_json(h->s, &out.out);
  doc = out.data && !out.out.failed ? json_loads(out.data, 0, NULL) : NULL;
  free(out.data);
  if (doc)
    json_object_set_new(doc, "error", *rg_sims_errmsg(h->s) ? jstr(rg_sims_errmsg(h->s)) : json_null());
  return finish(doc, 0);
}

void rgw_sims_free(uintptr_t hp) {
  sims *h = (sims *)hp;
  if (!h) return;
  rg_sims_free(h->s);
  rg_rules_free(h->set);
  rg_rules_free(h->r);
  free(h);
}

/* Frees a string returned by a function above. */
void rgw_free(char *s) {
  free(s);
}
