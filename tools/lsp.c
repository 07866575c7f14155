/*
** lsp.c: `regula lsp`, a language server on stdin and stdout (the Language
** Server Protocol, JSON-RPC 2.0 messages framed by Content-Length headers;
** every message read and written through jansson).
**
** What it serves, all from the library (regula.h):
**   - diagnostics as you type: each change of an open document compiles it
**     (rg_rules_compile with a loader that serves open documents from
**     memory, so a base rule set being edited is seen unsaved) and
**     publishes the diagnostics located in it;
**   - hover: a table's cells (rg_rules_describe, the `regula sheet`
**     layout), a constant's computed value, a member's enum and display
**     name, an `assumed` note's text, and any declaration's line;
**   - go to definition (rg_rules_symbols): across `extends`, and from a
**     table's declaration or its `from "..."` into the TSV file;
**   - completion of enum members, tables, procedures, fields, constants and
**     the other declared names; the outline (document symbols).
** Documents are synchronised whole (TextDocumentSyncKind.Full).  Positions
** are converted between the library's bytes and LSP's UTF-16 units.
*/
#define _XOPEN_SOURCE 700      /* realpath */
#include "cmd_edit.h"
#include "exitcode.h"
#include "regula.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char lsp_usage[] = "lsp";

const char lsp_help[] =
  "A language server for editors, on standard input and output (the\n"
  "Language Server Protocol): diagnostics as you type, hover (a table's\n"
  "cells, a constant's value, an `assumed` note's text), go to definition\n"
  "(across extends and into TSV tables), completion of names and the\n"
  "outline of a file.  Editors start it; see editors/ and docs/manual.md.\n"
  "\n"
  "Exit: 0 after the client's shutdown and exit, 1 on exit without\n"
  "shutdown, 2 for arguments, 3 when the input ends or memory runs out.\n";

/* An open document. */
typedef struct doc {
  char *uri, *path;
  char *text;
  size_t len;
} doc;

/* The server's state. */
typedef struct server {
  doc *docs;
  int ndocs;
  int shutdown;             /* shutdown was asked */
} server;

/* ---- framing ----------------------------------------------------------- */

/* Reads one message from stdin; returns it parsed, or NULL at the end of
** the input or on a malformed frame (*eof set at the end). */
static json_t *read_message(int *eof) {
  char line[1024];
  long n = -1;
  char *body;
  json_t *j;
  json_error_t err;
  *eof = 0;
  for (;;) {
    if (!fgets(line, sizeof line, stdin)) {
      *eof = 1;
      return NULL;
    }
    if (strcmp(line, "\r\n") == 0 || strcmp(line, "\n") == 0) break;
    if (strncmp(line, "Content-Length:", 15) == 0) n = strtol(line + 15, NULL, 10);
  }
  if (n < 0 || n > 64L << 20) return NULL;
  if (!(body = rg_malloc((size_t)n + 1))) return NULL;
  if (fread(body, 1, (size_t)n, stdin) != (size_t)n) {
    rg_free(body);
    *eof = 1;
    return NULL;
  }
  j = json_loadb(body, (size_t)n, 0, &err);
  rg_free(body);
  return j;
}

/* Writes message j (its reference taken) to stdout, framed. */
static void send(json_t *j) {
  char *s;
  if (!j) return;
  s = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  if (!s) return;
  printf("Content-Length: %zu\r\n\r\n%s", strlen(s), s);
  fflush(stdout);
  free(s);
}

/* Sends the result of request id (result's reference taken). */
static void reply(json_t *id, json_t *result) {
  send(json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result",
                 result ? result : json_null()));
}

/* Returns a new JSON string of s[0..n) (NULL s: ""), bad UTF-8 repaired
** (rg_utf8_repair: jansson takes only valid UTF-8), or NULL when out of
** memory. */
static json_t *lsp_textn(const char *s, size_t n) {
  json_t *j;
  size_t len;
  char *fixed;
  if (!s) return json_string("");
  if ((j = json_stringn(s, n))) return j;
  if (!(fixed = rg_utf8_repair(s, n, &len))) return NULL;
  j = json_stringn(fixed, len);
  rg_free(fixed);
  return j;
}

/* lsp_textn of the NUL-terminated s. */
static json_t *lsp_text(const char *s) {
  return lsp_textn(s, s ? strlen(s) : 0);
}

/* ---- documents and positions --------------------------------------------- */

/* Returns a new string: the file path of a file:// URI (percent escapes
** decoded), or a copy of uri when it is not one. */
static char *uri_path(const char *uri) {
  const char *p = strncmp(uri, "file://", 7) == 0 ? uri + 7 : uri;
  char *out = rg_malloc(strlen(p) + 1), *w = out;
  if (!out) return NULL;
  for (; *p; p++) {
    if (*p == '%' && p[1] && p[2]) {
      char hex[3] = { p[1], p[2], 0 };
      *w++ = (char)strtol(hex, NULL, 16);
      p += 2;
    } else {
      *w++ = *p;
    }
  }
  *w = '\0';
  return out;
}

/* Returns a new JSON string: the file:// URI of path (made absolute). */
static json_t *path_uri(const char *path) {
  char abs[PATH_MAX], buf[PATH_MAX + 16];
  if (!realpath(path, abs)) snprintf(abs, sizeof abs, "%s", path);
  snprintf(buf, sizeof buf, "file://%s", abs);
  return lsp_text(buf);
}

/* Returns whether paths a and b name the same file. */
static int same_file(const char *a, const char *b) {
  char ra[PATH_MAX], rb[PATH_MAX];
  if (strcmp(a, b) == 0) return 1;
  return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

/* Returns the open document with uri, or NULL. */
static doc *find_doc(server *sv, const char *uri) {
  for (int i = 0; i < sv->ndocs; i++)
    if (strcmp(sv->docs[i].uri, uri) == 0) return &sv->docs[i];
  return NULL;
}

/* Returns the number of UTF-16 units in s[0..n). */
static uint32_t utf16_len(const char *s, size_t n) {
  uint32_t u = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c & 0xc0) != 0x80) u += c >= 0xf0 ? 2 : 1;
  }
  return u;
}

/* Returns the byte offset in line[0..len) of UTF-16 unit u. */
static size_t utf16_byte(const char *line, size_t len, uint32_t u) {
  size_t i = 0;
  while (i < len && u > 0) {
    unsigned char c = (unsigned char)line[i];
    u -= c >= 0xf0 && u >= 2 ? 2 : 1;
    i++;
    while (i < len && ((unsigned char)line[i] & 0xc0) == 0x80) i++;
  }
  return i;
}

/* Returns a new LSP range on line (1-based) from byte column bcol (1-based)
** of source_line over width UTF-16 units. */
static json_t *range(uint32_t line, const char *src, size_t srclen, uint32_t bcol,
                     uint32_t width) {
  uint32_t c = src && bcol ? utf16_len(src, bcol - 1 < srclen ? bcol - 1 : srclen) : 0;
  uint32_t l = line ? line - 1 : 0;
  return json_pack("{s:{s:i,s:i},s:{s:i,s:i}}", "start", "line", (int)l, "character", (int)c,
                   "end", "line", (int)l, "character", (int)(c + width));
}

/* Finds line `line` (0-based) of d: its start in *s and length in *n.
** Returns 0, or -1 past the end. */
static int doc_line(const doc *d, uint32_t line, const char **s, size_t *n) {
  const char *p = d->text, *end = d->text + d->len;
  for (uint32_t i = 0; i < line; i++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) return -1;
    p = nl + 1;
  }
  *s = p;
  *n = (size_t)((memchr(p, '\n', (size_t)(end - p)) ? (const char *)memchr(p, '\n', (size_t)(end - p)) : end) - p);
  return 0;
}

/* Returns whether byte c may be part of a name (bytes of UTF-8 letters
** count as such). */
static int name_byte(unsigned char c) {
  return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c >= 0x80;
}

/* Copies into buf the word (a name, or the text of the string) under
** position pos ({line, character}) of d; *in_string says which, *bcol
** receives its first byte's 1-based column and *line its 1-based line.
** Returns 0, or -1 when there is none. */
static int word_at(const doc *d, json_t *pos, char *buf, size_t size, int *in_string,
                   uint32_t *bcol, uint32_t *line) {
  const char *s;
  size_t n, at, a, b, q = 0;
  int quoted = 0;
  json_int_t l = json_integer_value(json_object_get(pos, "line"));
  json_int_t c = json_integer_value(json_object_get(pos, "character"));
  if (l < 0 || c < 0 || doc_line(d, (uint32_t)l, &s, &n) != 0) return -1;
  at = utf16_byte(s, n, (uint32_t)c);
  /* inside a string? (count the quotes before it, skipping escapes) */
  for (size_t i = 0; i < at && i < n; i++) {
    if (s[i] == '\\' && quoted) { i++; continue; }
    if (s[i] == '#' && !quoted) break;
    if (s[i] == '"') { quoted = !quoted; q = i; }
  }
  *in_string = quoted;
  if (quoted) {
    a = q + 1;
    for (b = a; b < n && s[b] != '"'; b++)
      if (s[b] == '\\') b++;
    if (b > n) b = n;
  } else {
    a = b = at;
    while (a > 0 && name_byte((unsigned char)s[a - 1])) a--;
    while (b < n && name_byte((unsigned char)s[b])) b++;
  }
  if (b <= a || b - a >= size) return -1;
  memcpy(buf, s + a, b - a);
  buf[b - a] = '\0';
  *bcol = (uint32_t)a + 1;
  *line = (uint32_t)l + 1;
  return 0;
}

/* ---- the loader: open documents first, then the disk ------------------------ */

/* rg_loader.load: an open document when the file asked for is one, else
** rg_file_loader. */
static rg_status open_load(void *ctx, const char *from, const char *name, rg_load_kind kind,
                           rg_source *src, char *err, size_t errlen) {
  server *sv = ctx;
  char path[PATH_MAX];
  if (kind == RG_LOAD_RULES) {
    const char *slash = from ? strrchr(from, '/') : NULL;
    if (name[0] == '/' || !slash) snprintf(path, sizeof path, "%s", name);
    else snprintf(path, sizeof path, "%.*s/%s", (int)(slash - from), from, name);
    for (int i = 0; i < sv->ndocs; i++)
      if (same_file(sv->docs[i].path, path)) {
        src->text = sv->docs[i].text;
        src->len = sv->docs[i].len;
        src->path = sv->docs[i].path;
        src->handle = NULL;
        return RG_OK;
      }
  }
  return rg_file_loader.load(rg_file_loader.ctx, from, name, kind, src, err, errlen);
}

/* rg_loader.release: only what the disk loader gave. */
static void open_release(void *ctx, rg_source *src) {
  (void)ctx;
  if (src->handle && rg_file_loader.release) rg_file_loader.release(rg_file_loader.ctx, src);
}

/* Options for compiling with the open documents: the loader above, and
** diagnostics to fn(ctx). */
static rg_compile_options options(server *sv, rg_loader *ld, rg_diagnostic_fn fn, void *ctx) {
  rg_compile_options o;
  ld->load = open_load;
  ld->release = open_release;
  ld->ctx = sv;
  memset(&o, 0, sizeof o);
  o.loader = ld;
  o.diagnostic = fn;
  o.diagnostic_ctx = ctx;
  return o;
}

/* ---- diagnostics ------------------------------------------------------------- */

/* What on_diagnostic collects. */
typedef struct diags {
  const doc *d;
  json_t *list;
} diags;

/* Whether s[0..n) holds the text needle. */
static int holds(const char *s, size_t n, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; k && i + k <= n; i++)
    if (memcmp(s + i, needle, k) == 0) return 1;
  return 0;
}

/* rg_diagnostic_fn: adds a diagnostic located in the document (or without
** a position: at its start) to the list. */
static void on_diagnostic(void *ctx, const rg_diagnostic *r) {
  diags *ds = ctx;
  json_t *rg;
  char msg[1024];
  const char *text = r->message;
  if (r->located && !same_file(r->path, ds->d->path)) {
    /* In a file this one extends or reads from: shown on this file's
    ** first line that names it (its `extends` or `from`), else line 1,
    ** with the file's place in the message, as clangd does for headers. */
    const char *base = strrchr(r->path, '/') ? strrchr(r->path, '/') + 1 : r->path;
    const char *s;
    size_t n;
    uint32_t at = 0;
    char quoted[512];   /* the name as a string ends: base" */
    snprintf(quoted, sizeof quoted, "%s\"", base);
    for (uint32_t k = 0; doc_line(ds->d, k, &s, &n) == 0; k++)
      if (holds(s, n, quoted)) {
        at = k;
        break;
      }
    snprintf(msg, sizeof msg, "in %s:%u:%u: %s", base, r->line, r->col, r->message);
    text = msg;
    rg = range(at + 1, NULL, 0, 0, 0);
  } else {
    rg = r->located ? range(r->line, r->source_line, r->source_len, r->byte_col,
                            r->end_col > r->col ? r->end_col - r->col : 1)
                    : range(1, NULL, 0, 0, 0);
  }
  json_array_append_new(ds->list, json_pack("{s:o,s:i,s:s,s:o}", "range", rg, "severity",
                                            r->severity == RG_SEVERITY_ERROR ? 1 : 3, "source",
                                            "regula", "message", lsp_text(text)));
}

/* Compiles d and publishes its diagnostics (an empty list when it is fine). */
static void publish(server *sv, const doc *d) {
  rg_loader ld;
  diags ds = { d, json_array() };
  rg_compile_options o = options(sv, &ld, on_diagnostic, &ds);
  rg_rules *r = NULL;
  if (!ds.list) return;
  rg_rules_compile(d->path, d->text, d->len, &o, &r);
  rg_rules_free(r);
  send(json_pack("{s:s,s:s,s:{s:o,s:o}}", "jsonrpc", "2.0", "method",
                 "textDocument/publishDiagnostics", "params", "uri", lsp_text(d->uri),
                 "diagnostics", ds.list));
}

/* ---- symbols ------------------------------------------------------------------ */

/* A symbol kept past its callback. */
typedef struct sym {
  rg_symbol_kind kind;
  char *name, *display, *container, *path, *line_text, *assumed, *tsv;
  uint32_t line, byte_col;
} sym;

typedef struct symtab {
  sym *v;
  int n, cap;
} symtab;

/* Returns a copy of s (NULL stays NULL). */
static char *dup(const char *s, size_t n) {
  char *c;
  if (!s) return NULL;
  if ((c = rg_malloc(n + 1))) {
    memcpy(c, s, n);
    c[n] = '\0';
  }
  return c;
}

/* rg_symbol_fn: keeps a copy of s. */
static void on_symbol(void *ctx, const rg_symbol *s) {
  symtab *t = ctx;
  sym *y;
  if (t->n == t->cap) {
    sym *v = rg_realloc(t->v, (size_t)(t->cap = t->cap ? 2 * t->cap : 64) * sizeof *v);
    if (!v) return;
    t->v = v;
  }
  y = &t->v[t->n++];
  y->kind = s->kind;
  y->name = dup(s->name, strlen(s->name));
  y->display = s->display ? dup(s->display, strlen(s->display)) : NULL;
  y->container = s->container ? dup(s->container, strlen(s->container)) : NULL;
  y->path = dup(s->path, strlen(s->path));
  y->line_text = s->source_line ? dup(s->source_line, s->source_len) : NULL;
  y->assumed = s->assumed ? dup(s->assumed, strlen(s->assumed)) : NULL;
  y->tsv = s->tsv ? dup(s->tsv, strlen(s->tsv)) : NULL;
  y->line = s->line;
  y->byte_col = s->byte_col;
}

/* Frees the symbols of t. */
static void symtab_free(symtab *t) {
  for (int i = 0; i < t->n; i++) {
    sym *y = &t->v[i];
    rg_free(y->name); rg_free(y->display); rg_free(y->container); rg_free(y->path);
    rg_free(y->line_text); rg_free(y->assumed); rg_free(y->tsv);
  }
  rg_free(t->v);
}

/* Fills t with the symbols of d and the rule sets it extends. */
static void symbols_of(server *sv, const doc *d, symtab *t) {
  rg_loader ld;
  rg_compile_options o = options(sv, &ld, NULL, NULL);
  memset(t, 0, sizeof *t);
  rg_rules_symbols(d->path, d->text, d->len, &o, on_symbol, t);
}

/* Returns a new LSP Location of symbol y (its name's width). */
static json_t *location(const sym *y) {
  return json_pack("{s:o,s:o}", "uri", path_uri(y->path), "range",
                   range(y->line, y->line_text, y->line_text ? strlen(y->line_text) : 0,
                         y->byte_col, y->kind == RG_SYMBOL_NOTE ? 7 : utf16_len(y->name, strlen(y->name))));
}

/* Returns the LSP SymbolKind of k. */
static int symbol_kind(rg_symbol_kind k) {
  switch (k) {
  case RG_SYMBOL_ENUM: return 10;
  case RG_SYMBOL_MEMBER: return 22;
  case RG_SYMBOL_RECORD: return 23;
  case RG_SYMBOL_FIELD: return 8;
  case RG_SYMBOL_CONST: return 14;
  case RG_SYMBOL_TABLE: return 18;
  case RG_SYMBOL_PROCEDURE: return 12;
  case RG_SYMBOL_STEP: return 24;
  case RG_SYMBOL_TEST: return 6;
  case RG_SYMBOL_UNIT: return 15;
  case RG_SYMBOL_STRATEGY: return 19;
  case RG_SYMBOL_DISPLAY: return 2;
  default: return 13;
  }
}

/* Returns the LSP CompletionItemKind of k. */
static int completion_kind(rg_symbol_kind k) {
  switch (k) {
  case RG_SYMBOL_ENUM: return 13;
  case RG_SYMBOL_MEMBER: return 20;
  case RG_SYMBOL_RECORD: return 22;
  case RG_SYMBOL_FIELD: return 5;
  case RG_SYMBOL_CONST: return 21;
  case RG_SYMBOL_TABLE: return 9;
  case RG_SYMBOL_PROCEDURE: return 3;
  case RG_SYMBOL_UNIT: return 11;
  default: return 6;
  }
}

/* Returns whether symbol kind k declares a name that code refers to. */
static int named(rg_symbol_kind k) {
  return k != RG_SYMBOL_STEP && k != RG_SYMBOL_TEST && k != RG_SYMBOL_NOTE &&
         k != RG_SYMBOL_STRATEGY && k != RG_SYMBOL_DISPLAY;
}

/* ---- requests ------------------------------------------------------------------ */

/* Returns the open document a request's params name, or NULL. */
static doc *param_doc(server *sv, json_t *params) {
  const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
  return uri ? find_doc(sv, uri) : NULL;
}

/* Returns the markdown of a hover over word w (in_string: the text of a
** string) at line/bcol of d, or NULL when there is nothing to say. */
static json_t *hover_text(server *sv, const doc *d, const char *w, int in_string, uint32_t line,
                          uint32_t bcol) {
  symtab t;
  rg_buf b;
  json_t *res = NULL;
  symbols_of(sv, d, &t);
  rg_buf_init(&b);
  for (int i = 0; i < t.n && !res; i++) {
    const sym *y = &t.v[i];
    if (y->kind == RG_SYMBOL_NOTE) {
      /* `assumed "..."`: over the keyword or the text */
      if (same_file(y->path, d->path) && y->line == line &&
          ((!in_string && strcmp(w, "assumed") == 0 && y->byte_col == bcol) ||
           (in_string && strcmp(w, y->name) == 0)))
        rg_printf(&b.out, "**assumed**%s%s: %s", y->container ? " on " : "",
                  y->container ? y->container : "", y->name);
      else continue;
    } else if (!in_string && named(y->kind) && strcmp(y->name, w) == 0) {
      if (y->line_text) {
        const char *s = y->line_text;
        while (*s == ' ' || *s == '\t') s++;
        rg_printf(&b.out, "```regula\n%s\n```\n", s);
      }
      if (y->kind == RG_SYMBOL_MEMBER)
        rg_printf(&b.out, "member `%s` of enum `%s`%s%s%s\n", y->name, y->container ? y->container : "?",
                  y->display ? ", \"" : "", y->display ? y->display : "", y->display ? "\"" : "");
      if (y->kind == RG_SYMBOL_FIELD)
        rg_printf(&b.out, "field of record `%s`\n", y->container ? y->container : "?");
      if (y->kind == RG_SYMBOL_TABLE || y->kind == RG_SYMBOL_CONST) {
        rg_loader ld;
        rg_compile_options o = options(sv, &ld, NULL, NULL);
        rg_rules *r = NULL;
        /* the document's rules, or (while it has errors) those of the
        ** file that declares the name */
        if (rg_rules_compile(d->path, d->text, d->len, &o, &r) == RG_OK ||
            rg_rules_compile_path(y->path, &o, &r) == RG_OK) {
          rg_puts(&b.out, "```\n");
          rg_rules_describe(r, y->name, &b.out);
          rg_puts(&b.out, "```\n");
        }
        rg_rules_free(r);
      }
      if (y->tsv) rg_printf(&b.out, "from `%s`\n", y->tsv);
      if (y->assumed) rg_printf(&b.out, "\n**assumed**: %s\n", y->assumed);
      rg_printf(&b.out, "\n%s:%u\n", y->path, y->line);
    } else {
      continue;
    }
    if (!b.out.failed && b.data)
      res = json_pack("{s:{s:s,s:o}}", "contents", "kind", "markdown", "value",
                      lsp_textn(b.data, b.len));
  }
  rg_buf_free(&b);
  symtab_free(&t);
  return res;
}

/* textDocument/definition: the declarations of the name under the cursor
** (every one of that name: a member code may be in several enums); on a
** table's own declaration, or on the `from "..."` of one, its TSV file. */
static json_t *definition(server *sv, const doc *d, json_t *pos) {
  char w[512];
  int in_string;
  uint32_t bcol, line;
  symtab t;
  json_t *locs = json_array();
  if (!locs || word_at(d, pos, w, sizeof w, &in_string, &bcol, &line) != 0) return locs;
  symbols_of(sv, d, &t);
  for (int i = 0; i < t.n; i++) {
    const sym *y = &t.v[i];
    int here = same_file(y->path, d->path) && y->line == line;
    if (y->kind == RG_SYMBOL_TABLE && y->tsv && here &&
        ((in_string && y->line_text && strstr(y->line_text, w)) ||
         (!in_string && strcmp(y->name, w) == 0 && y->byte_col == bcol))) {
      json_array_append_new(locs, json_pack("{s:o,s:o}", "uri", path_uri(y->tsv), "range",
                                            range(1, NULL, 0, 0, 0)));
      break;
    }
    if (!in_string && named(y->kind) && strcmp(y->name, w) == 0)
      json_array_append_new(locs, location(y));
  }
  symtab_free(&t);
  return locs;
}

/* What may be written at a place, for completion. */
typedef enum { WANT_ANY, WANT_FIELD, WANT_TYPE } want;

/* What position pos of d asks for: after `.` a field (`p.sec|`), after
** `->` or after `NAME:` on a line declaring a variable, an input, a
** parameter or a field (`let x: |`, `input x: |`, `procedure f(p: |`,
** `  field: |` in a record) a type; anything else elsewhere. */
static want wanted(const doc *d, json_t *pos) {
  const char *s;
  size_t n, at, k, lead = 0;
  json_int_t l = json_integer_value(json_object_get(pos, "line"));
  json_int_t c = json_integer_value(json_object_get(pos, "character"));
  if (l < 0 || c < 0 || doc_line(d, (uint32_t)l, &s, &n) != 0) return WANT_ANY;
  at = utf16_byte(s, n, (uint32_t)c);
  k = at;
  while (k > 0 && name_byte((unsigned char)s[k - 1])) k--;   /* the word begun */
  if (k > 0 && s[k - 1] == '.') return WANT_FIELD;
  while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t')) k--;
  if (k >= 2 && s[k - 2] == '-' && s[k - 1] == '>') return WANT_TYPE;
  if (k == 0 || s[k - 1] != ':') return WANT_ANY;
  while (lead < n && (s[lead] == ' ' || s[lead] == '\t')) lead++;
  static const char *const decl[] = { "let ", "input ", "procedure ", "table " };
  for (size_t i = 0; i < sizeof decl / sizeof *decl; i++)
    if (strncmp(s + lead, decl[i], strlen(decl[i])) == 0) return WANT_TYPE;
  /* `  name: |` alone on its line: a field of a record declaration */
  size_t e = lead;
  while (e < n && name_byte((unsigned char)s[e])) e++;
  return e > lead && e + 1 == k && lead > 0 ? WANT_TYPE : WANT_ANY;
}

/* Whether a symbol of kind k is offered where w is wanted. */
static int offered(rg_symbol_kind k, want w) {
  if (w == WANT_FIELD) return k == RG_SYMBOL_FIELD;
  if (w == WANT_TYPE) return k == RG_SYMBOL_ENUM || k == RG_SYMBOL_RECORD;
  return 1;
}

/* textDocument/completion at pos: the declared names that fit there (see
** wanted), once per name and kind; for a type, the language's own types too. */
static json_t *completion(server *sv, const doc *d, json_t *pos) {
  symtab t;
  json_t *items = json_array();
  want w = wanted(d, pos);
  symbols_of(sv, d, &t);
  if (w == WANT_TYPE) {
    static const char *const builtin[] = { "int", "bool", "percent", "text", "distance", "list", "set" };
    for (size_t i = 0; items && i < sizeof builtin / sizeof *builtin; i++)
      json_array_append_new(items, json_pack("{s:s,s:i,s:s}", "label", builtin[i], "kind", 25,
                                             "detail", "type"));
  }
  for (int i = 0; items && i < t.n; i++) {
    const sym *y = &t.v[i];
    int seen = 0;
    if (!named(y->kind) || !offered(y->kind, w)) continue;
    for (int j = 0; j < i && !seen; j++)
      seen = t.v[j].kind == y->kind && strcmp(t.v[j].name, y->name) == 0;
    if (seen) continue;
    json_array_append_new(items, json_pack("{s:o,s:i,s:o}", "label", lsp_text(y->name), "kind",
                                           completion_kind(y->kind), "detail",
                                           lsp_text(y->container ? y->container
                                                        : y->display ? y->display : "")));
  }
  symtab_free(&t);
  return items;
}

/* textDocument/documentSymbol: the declarations and steps of d itself. */
static json_t *outline(server *sv, const doc *d) {
  symtab t;
  json_t *list = json_array();
  symbols_of(sv, d, &t);
  for (int i = 0; list && i < t.n; i++) {
    const sym *y = &t.v[i];
    json_t *s;
    if (y->kind == RG_SYMBOL_NOTE || !same_file(y->path, d->path)) continue;
    s = json_pack("{s:o,s:i,s:o}", "name", lsp_text(y->name), "kind", symbol_kind(y->kind),
                  "location", location(y));
    if (s && y->container) json_object_set_new(s, "containerName", lsp_text(y->container));
    json_array_append_new(list, s);
  }
  symtab_free(&t);
  return list;
}

/* didOpen / didChange: sets the text of document uri (adding it). */
static doc *set_doc(server *sv, const char *uri, const char *text, size_t len) {
  doc *d = find_doc(sv, uri);
  char *copy = dup(text, len);
  if (!copy) return NULL;
  if (!d) {
    doc *v = rg_realloc(sv->docs, (size_t)(sv->ndocs + 1) * sizeof *v);
    char *u = dup(uri, strlen(uri)), *p = uri_path(uri);
    if (!v || !u || !p) {
      if (v) sv->docs = v;
      rg_free(u); rg_free(p); rg_free(copy);
      return NULL;
    }
    sv->docs = v;
    d = &sv->docs[sv->ndocs++];
    d->uri = u;
    d->path = p;
    d->text = NULL;
  }
  rg_free(d->text);
  d->text = copy;
  d->len = len;
  return d;
}

/* Forgets document d. */
static void forget(server *sv, doc *d) {
  rg_free(d->uri);
  rg_free(d->path);
  rg_free(d->text);
  *d = sv->docs[--sv->ndocs];
}

/* didClose: forgets document uri and clears its diagnostics. */
static void close_doc(server *sv, const char *uri) {
  doc *d = find_doc(sv, uri);
  if (!d) return;
  send(json_pack("{s:s,s:s,s:{s:o,s:[]}}", "jsonrpc", "2.0", "method",
                 "textDocument/publishDiagnostics", "params", "uri", lsp_text(uri),
                 "diagnostics"));
  forget(sv, d);
}

/* Handles one message; returns 1 after `exit`. */
static int handle(server *sv, json_t *msg, int *rc) {
  const char *method = json_string_value(json_object_get(msg, "method"));
  json_t *id = json_object_get(msg, "id"), *params = json_object_get(msg, "params");
  doc *d;
  if (!method) return 0;                          /* a response to us: none expected */
  if (strcmp(method, "initialize") == 0) {
    reply(id, json_pack("{s:{s:i,s:b,s:b,s:{s:[s]},s:b},s:{s:s,s:s}}", "capabilities",
                        "textDocumentSync", 1, "hoverProvider", 1, "definitionProvider", 1,
                        "completionProvider", "triggerCharacters", ".", "documentSymbolProvider", 1,
                        "serverInfo", "name", "regula", "version", rg_version()));
  } else if (strcmp(method, "shutdown") == 0) {
    sv->shutdown = 1;
    reply(id, json_null());
  } else if (strcmp(method, "exit") == 0) {
    *rc = sv->shutdown ? EX_OK : EX_FINDINGS;
    return 1;
  } else if (strcmp(method, "textDocument/didOpen") == 0 ||
             strcmp(method, "textDocument/didChange") == 0) {
    json_t *td = json_object_get(params, "textDocument"), *text = json_object_get(td, "text");
    json_t *changes = json_object_get(params, "contentChanges");
    if (!text && json_array_size(changes))
      text = json_object_get(json_array_get(changes, json_array_size(changes) - 1), "text");
    if (json_is_string(text) && json_string_value(json_object_get(td, "uri")) &&
        (d = set_doc(sv, json_string_value(json_object_get(td, "uri")), json_string_value(text),
                     json_string_length(text)))) {
      publish(sv, d);
      /* A change may break or mend the files that extend or read this
      ** one: the other open documents are checked again. */
      if (strcmp(method, "textDocument/didChange") == 0)
        for (int i = 0; i < sv->ndocs; i++)
          if (&sv->docs[i] != d) publish(sv, &sv->docs[i]);
    }
  } else if (strcmp(method, "textDocument/didClose") == 0) {
    const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
    if (uri) close_doc(sv, uri);
  } else if (strcmp(method, "textDocument/hover") == 0) {
    char w[512];
    int in_string;
    uint32_t bcol, line;
    json_t *res = NULL;
    if ((d = param_doc(sv, params)) &&
        word_at(d, json_object_get(params, "position"), w, sizeof w, &in_string, &bcol, &line) == 0)
      res = hover_text(sv, d, w, in_string, line, bcol);
    reply(id, res);
  } else if (strcmp(method, "textDocument/definition") == 0) {
    reply(id, (d = param_doc(sv, params)) ? definition(sv, d, json_object_get(params, "position"))
                                          : json_array());
  } else if (strcmp(method, "textDocument/completion") == 0) {
    reply(id, (d = param_doc(sv, params)) ? completion(sv, d, json_object_get(params, "position"))
                                          : json_array());
  } else if (strcmp(method, "textDocument/documentSymbol") == 0) {
    reply(id, (d = param_doc(sv, params)) ? outline(sv, d) : json_array());
  } else if (id) {
    send(json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id, "error", "code", -32601,
                   "message", "method not found"));
  }
  return 0;
}

int lsp_main(void) {
  server sv;
  int rc = EX_RUNTIME;
  memset(&sv, 0, sizeof sv);
  for (;;) {
    int eof;
    json_t *msg = read_message(&eof);
    if (!msg) {
      if (eof) break;
      continue;                   /* a frame that does not parse: skipped */
    }
    if (handle(&sv, msg, &rc)) {
      json_decref(msg);
      break;
    }
    json_decref(msg);
  }
  while (sv.ndocs) forget(&sv, &sv.docs[0]);
  rg_free(sv.docs);
  return rc;
}
