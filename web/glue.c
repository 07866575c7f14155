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
    doc = result(st == RG_OK, st == RG_OK ? answer : rg_rules_errmsg(r));
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
  char type[256];
  json_t *doc, *inputs = json_array(), *procs = json_array();
  if (compile(path, NULL, &c, &r) != RG_OK) {
    doc = json_pack("{s:s,s:o,s:o,s:o}", "name", "", "inputs", inputs, "procs", procs, "err",
                    jstr(c.all.data));
  } else {
    for (int i = 0; i < rg_rules_count(r, RG_INPUT); i++)
      json_array_append_new(inputs, json_pack("{s:o,s:o}", "name", jstr(rg_rules_item(r, RG_INPUT, i)),
                                              "type",
                                              jstr(rg_rules_type(r, RG_INPUT, i, 0, type, sizeof type))));
    for (int i = 0; i < rg_rules_count(r, RG_PROC); i++) {
      const char *name = rg_rules_item(r, RG_PROC, i);
      if (rg_rules_find(r, RG_PROC, name) == i && rg_rules_arity(r, RG_PROC, i) == 0)
        json_array_append_new(procs, jstr(name));
    }
    doc = json_pack("{s:o,s:o,s:o}", "name", jstr(rg_rules_name(r)), "inputs", inputs, "procs",
                    procs);
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

/* A game replayed from its answers: the answers not yet used, and the
** question they ran out at. */
typedef struct replay {
  char *next;               /* the answers left, one a line; NULL: none */
  unsigned used;            /* answers taken so far */
  json_t *ask;              /* the pending question, or NULL */
  char err[1024];           /* why an answer was refused ("" none) */
  const text *log;          /* the run's log so far */
  size_t hold;              /* SIZE_MAX, or where the open secret moment
                            ** begins: the log is shown up to there */
} replay;

/* rg_choose_fn for choices (dice 0) and dice (dice 1) of a replay: takes
** the next answer, which must be one of the options as rg_run_option
** names them; with none left, records the question and stops the run. */
static int64_t answer(replay *g, rg_run *run, const char *who, const char *prompt, uint32_t n,
                      int dice) {
  char opt[512];
  json_t *opts;
  int secret = rg_run_asking_secret(run);
  /* a secret question opens (or continues) a moment: what its choices log
  ** stays unseen until a plain event closes it (as rg_game_log holds it) */
  if (secret && g->hold == SIZE_MAX && g->log) g->hold = g->log->len;
  if (g->next) {
    char *a = g->next, *nl = strchr(a, '\n');
    if (nl) *nl = '\0';
    g->next = nl ? nl + 1 : NULL;
    g->used++;
    for (uint32_t i = 0; i < n; i++) {
      rg_run_option(run, i, opt, sizeof opt);
      if (strcmp(opt, a) == 0) return i;
    }
    snprintf(g->err, sizeof g->err, "answer %u ('%s') is not an option of: %s%s%s", g->used, a,
             who, *who ? ", " : "", prompt);
    return -1;
  }
  opts = json_array();
  for (uint32_t i = 0; i < n; i++) {
    rg_run_option(run, i, opt, sizeof opt);
    json_array_append_new(opts, jstr(opt));
  }
  json_decref(g->ask);
  g->ask = json_pack("{s:o,s:o,s:b,s:b,s:o}", "who", jstr(who), "prompt", jstr(prompt), "dice",
                     dice, "secret", secret, "options", opts);
  return -1;
}

/* rg_event_fn of a replay: any event but a secret choice closes the open
** secret moment. */
static void on_event(void *ctx, rg_run *run, const rg_event *ev) {
  replay *g = ctx;
  (void)run;
  if (!ev->secret) g->hold = SIZE_MAX;
}

/* rg_choose_fn: a choice of a replay. */
static int64_t on_choice(void *ctx, rg_run *run, const char *who, const char *prompt,
                         uint32_t n) {
  return answer(ctx, run, who, prompt, n, 0);
}

/* rg_choose_fn: a die or card of a replay. */
static int64_t on_dice(void *ctx, rg_run *run, const char *who, const char *prompt,
                       uint32_t n) {
  return answer(ctx, run, who, prompt, n, 1);
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

/* Runs main of the file at path as the options o say, logging to log and
** writing what went wrong to err; with g, the run replays g's answers; with
** pics, the pictures drawn are appended to it ([{"name","svg"}]).  Returns
** `regula run`'s exit code. */
static int run_main(const char *path, rg_run_options *o, const char *inputs, replay *g,
                    text *log, text *err, json_t *pics) {
  compiling c;
  rg_rules *r = NULL, *set = NULL;
  rg_run *run = NULL;
  int rc = 0;
  rg_status st = compile(path, NULL, &c, &r);
  if (st != RG_OK) {
    put(err, c.all.data ? c.all.data : "regula: error: out of memory\n");
    compiling_free(&c);
    return st == RG_NOMEM ? 3 : 2;
  }
  compiling_free(&c);
  if (set_inputs(r, inputs, &set, err) != 0) {
    rc = 2;
  } else if (rg_run_new(set, o, &run) != RG_OK || (pics && rg_run_pictures(run) != RG_OK)) {
    put(err, "regula: error: out of memory\n");
    rc = 3;
  } else {
    rg_run_log(run, &log->out, 0, g ? "ask" : NULL, NULL);
    st = rg_run_call(run, "main", NULL, 0);
    if (st == RG_OK) {
      rc = rg_run_failed_expects(run) ? 1 : 0;
    } else if (g && (g->ask || g->err[0])) {
      if (g->err[0]) {
        put(err, "regula: error: ");
        put(err, g->err);
        put(err, "\n");
      }
      rc = 2;
    } else {
      rg_place at;
      const char *msg = rg_run_errmsg(run);
      char where[600];
      rg_run_where(run, &at);
      if (at.line) snprintf(where, sizeof where, "%s:%u:%u: error: ", at.path, at.line, at.col);
      else snprintf(where, sizeof where, "regula: error: ");
      put(err, where);
      put(err, msg);
      put(err, "\n");
      rc = st == RG_NOT_FOUND || st == RG_BAD_VALUE ? 2 : 3;
    }
    const rg_pictures *drawn = rg_run_drawn(run);
    for (uint32_t i = 0; pics && i < rg_pictures_count(drawn); i++) {
      text svg;
      text_init(&svg);
      if (rg_pictures_write(drawn, i, &svg.out) == RG_OK && !svg.out.failed)
        json_array_append_new(pics, json_pack("{s:o,s:o}", "name",
                                              jstr(rg_pictures_name(drawn, i)), "svg",
                                              jstr(svg.data)));
      free(svg.data);
    }
  }
  rg_run_free(run);
  rg_rules_free(set);
  rg_rules_free(r);
  return rc;
}

/* Returns {"exit":N,"out":LOG,"err":ERR}. */
static json_t *run_doc(int rc, const text *log, const text *err) {
  return json_pack("{s:i,s:o,s:o}", "exit", log->out.failed || err->out.failed ? 3 : rc, "out",
                   jstr(log->data), "err", jstr(err->data));
}

char *rgw_run(const char *path, const char *seed, const char *policy) {
  rg_run_options o;
  text log, err;
  int rc;
  json_t *doc;
  o = RG_OPTIONS(rg_run_options);
  text_init(&log);
  text_init(&err);
  if (parse_seed(seed, &o.seed) != 0) {
    put(&err, "regula: error: --seed needs a whole number from 0 to 18446744073709551615\n");
    rc = 2;
  } else if (rg_policy_parse(NULL, policy, &o.policy) != RG_OK ||
             o.policy.kind == RG_CHOOSE_ANSWERS) {
    put(&err, "regula: error: --policy must be random or first here\n");
    rc = 2;
  } else {
    rc = run_main(path, &o, "", NULL, &log, &err, NULL);
  }
  doc = run_doc(rc, &log, &err);
  free(log.data);
  free(err.data);
  return finish(doc, 0);
}

char *rgw_play(const char *path, const char *seed, const char *inputs, const char *answers,
               int dice) {
  rg_run_options o;
  replay g;
  text log, err;
  char *copy = strdup(answers);
  json_t *doc, *pics = json_array();
  int rc;
  if (!copy) return NULL;
  o = RG_OPTIONS(rg_run_options);
  memset(&g, 0, sizeof g);
  text_init(&log);
  text_init(&err);
  g.next = *copy ? copy : NULL;
  g.log = &log;
  g.hold = SIZE_MAX;
  o.event = on_event;
  o.event_ctx = &g;
  o.policy.kind = RG_CHOOSE_CALLBACK;
  o.policy.choose = on_choice;
  o.policy.choose_ctx = &g;
  if (dice) {
    o.dice = on_dice;
    o.dice_ctx = &g;
  }
  if (parse_seed(seed, &o.seed) != 0) {
    put(&err, "regula: error: --seed needs a whole number from 0 to 18446744073709551615\n");
    rc = 2;
  } else {
    rc = run_main(path, &o, inputs, &g, &log, &err, pics);
  }
  /* while asking, the log up to the open secret moment (the whole log once
  ** the game is over) */
  if (g.ask && !g.err[0] && g.hold < log.len) {
    log.data[g.hold] = '\0';
    log.len = g.hold;
  }
  doc = run_doc(rc, &log, &err);
  json_object_set_new(doc, "held", json_boolean(g.ask && !g.err[0] && g.hold != SIZE_MAX));
  json_object_set_new(doc, "ask", g.ask && !g.err[0] ? json_incref(g.ask) : json_null());
  json_object_set_new(doc, "pictures", pics);
  json_decref(g.ask);
  free(copy);
  free(log.data);
  free(err.data);
  return finish(doc, 0);
}

/* ---- simulations ------------------------------------------------------------------- */

/* A simulation and the rules it runs. */
typedef struct sims {
  rg_rules *r;
  rg_sims *s;
  char err[1024];           /* why it could not start */
} sims;

uintptr_t rgw_sims_new(const char *path, const char *proc, const char *seed) {
  sims *h = calloc(1, sizeof *h);
  compiling c;
  uint64_t sd;
  rg_status st;
  if (!h) return 0;
  if (parse_seed(seed, &sd) != 0) {
    snprintf(h->err, sizeof h->err, "the seed must be a whole number");
    return (uintptr_t)h;
  }
  st = compile(path, NULL, &c, &h->r);
  if (st != RG_OK) {
    snprintf(h->err, sizeof h->err, "%s", c.all.data ? c.all.data : "out of memory");
  } else {
    /* as `regula sim`: the rules' default strategy answers when they name one */
    rg_sims_options so = RG_OPTIONS(rg_sims_options);
    so.proc = proc;
    so.seed = sd;
    so.policy.strategy = rg_rules_item(h->r, RG_STRATEGY, rg_rules_default_strategy(h->r));
    if ((st = rg_sims_new(h->r, &so, &h->s)) != RG_OK)
      snprintf(h->err, sizeof h->err, "procedure '%s': %s", proc,
               st == RG_BAD_VALUE ? "it takes parameters or has no result to count"
                                  : rg_status_name(st));
  }
  compiling_free(&c);
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
  rg_rules_free(h->r);
  free(h);
}

/* Frees a string returned by a function above. */
void rgw_free(char *s) {
  free(s);
}
