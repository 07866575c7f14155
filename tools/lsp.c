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
**     the other declared names, by place; the outline (document symbols);
**   - definition, hover and references of rules, steps and table rows
**     (rg_rules_symbols, rg_rules_uses): from `override rule "..." in P` to
**     the rule it replaces, from `override T[keys]` to the row (the cell,
**     or its line of the TSV file); references of any name;
**   - formatting: the document in `regula fmt`'s layout (rg_rules_format).
** Frames are read by lsp_frame.c, which survives bad ones.
** Documents are synchronised whole (TextDocumentSyncKind.Full).  Positions
** are converted between the library's bytes and LSP's UTF-16 units.
*/
#define _XOPEN_SOURCE 700      /* realpath */
#include "cmd_edit.h"
#include "exitcode.h"
#include "lsp_frame.h"
#include "regula_front.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char lsp_usage[] = "lsp";

const char lsp_help[] =
  "A language server for editors, on standard input and output (the\n"
  "Language Server Protocol): diagnostics as you type, hover (a table's\n"
  "cells, a constant's value, an `assumed` note's text, a rule's places),\n"
  "go to definition and references (across extends and into TSV tables;\n"
  "from `override rule \"...\" in P` to the rule, from `override T[keys]`\n"
  "to the row), completion by place, formatting (as `regula fmt`) and the\n"
  "outline of a file.  A bad frame is answered or logged and skipped.\n"
  "Editors start it; see editors/ and docs/manual.md.\n"
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

/* lsp_read_fn over standard input: what one read(2) gives (0 at the end or
** on an error). */
static size_t stdin_read(void *ctx, char *buf, size_t size) {
  (void)ctx;
  for (;;) {
    ssize_t got = read(STDIN_FILENO, buf, size);
    if (got >= 0) return (size_t)got;
    if (errno != EINTR) return 0;
  }
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

/* Writes into buf (PATH_MAX bytes) the canonical spelling of path (its
** realpath, or path itself when it has none) and returns buf. */
static const char *canon(const char *path, char *buf) {
  if (!realpath(path, buf)) snprintf(buf, PATH_MAX, "%s", path);
  return buf;
}

/* Returns whether paths a and b name the same file. */
static int same_file(const char *a, const char *b) {
  char ra[PATH_MAX], rb[PATH_MAX];
  if (strcmp(a, b) == 0) return 1;
  return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

/* A memo of same_file(path, d's path) for the last path asked (symbols
** come file by file: one realpath a file, not one a symbol). */
typedef struct samememo {
  char *path;
  int same;
} samememo;

/* Returns whether path names the same file as the document path dpath,
** through the memo m (freed with rg_free(m->path)). */
static int same_memo(samememo *m, const char *path, const char *dpath) {
  if (m->path && strcmp(m->path, path) == 0) return m->same;
  rg_free(m->path);
  m->path = rg_malloc(strlen(path) + 1);
  if (m->path) strcpy(m->path, path);
  return m->same = same_file(path, dpath);
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

/* Refuses (RG_IO, saying why in err) the file rg_file_loader would read for
** name asked from `from` when it is not a regular file: a FIFO, a device
** or /dev/stdin would block the server or read its own protocol from
** stdin.  Resolves name as that loader does (regula.h, loader.c: beside
** from, a table also in the folders above), by stat, which never blocks.
** Returns RG_OK when the file is a regular one or none is found (the
** loader then says it is missing). */
static rg_status regular_only(const char *from, const char *name, rg_load_kind kind, char *err,
                              size_t errlen) {
  char path[PATH_MAX + 64], up[3 * 16 + 1] = "";
  const char *slash = from ? strrchr(from, '/') : NULL;
  int dir = slash ? (int)(slash - from) : 0;
  struct stat st;
  for (int level = 0; level < 16; level++) {
    if (!from || name[0] == '/' || (kind == RG_LOAD_RULES && !slash))
      snprintf(path, sizeof path, "%s", name);
    else
      snprintf(path, sizeof path, "%.*s%s%s%s", dir, from, slash ? "/" : "", up, name);
    if (stat(path, &st) == 0 && access(path, R_OK) == 0) {
      if (S_ISREG(st.st_mode)) return RG_OK;
      snprintf(err, errlen, "%s is not a regular file (%s): the language server reads only "
               "files", name, S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a pipe"
               : "a device or socket");
      return RG_IO;
    }
    if (kind == RG_LOAD_RULES || !from || name[0] == '/') break;
    strcat(up, "../");
  }
  return RG_OK;
}

/* rg_loader.load: an open document when the file asked for is one, else
** rg_file_loader, for a regular file only (regular_only). */
static rg_status open_load(void *ctx, const char *from, const char *name, rg_load_kind kind,
                           rg_source *src, char *err, size_t errlen) {
  server *sv = ctx;
  char path[PATH_MAX];
  rg_status st;
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
  if ((st = regular_only(from, name, kind, err, errlen)) != RG_OK) {
    memset(src, 0, sizeof *src);
    return st;
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
  o = RG_OPTIONS(rg_compile_options);
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
  json_t *rg, *item, *related = NULL;
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
    /* one pass over the lines (doc_line per line would be quadratic) */
    s = ds->d->text;
    for (uint32_t k = 0; s <= ds->d->text + ds->d->len; k++) {
      const char *nl = memchr(s, '\n', (size_t)(ds->d->text + ds->d->len - s));
      n = (size_t)((nl ? nl : ds->d->text + ds->d->len) - s);
      if (holds(s, n, quoted)) {
        at = k;
        break;
      }
      if (!nl) break;
      s = nl + 1;
    }
    snprintf(msg, sizeof msg, "in %s:%u:%u: %s", base, r->line, r->col, r->message);
    text = msg;
    rg = range(at + 1, NULL, 0, 0, 0);
    /* and where it is, for the clients that show it */
    related = json_pack("[{s:{s:o,s:o},s:o}]", "location", "uri", path_uri(r->path), "range",
                        range(r->line, r->source_line, r->source_len, r->byte_col,
                              r->end_col > r->col ? r->end_col - r->col : 1),
                        "message", lsp_text(r->message));
  } else {
    rg = r->located ? range(r->line, r->source_line, r->source_len, r->byte_col,
                            r->end_col > r->col ? r->end_col - r->col : 1)
                    : range(1, NULL, 0, 0, 0);
  }
  item = json_pack("{s:o,s:i,s:s,s:o}", "range", rg, "severity",
                   r->severity == RG_SEVERITY_ERROR ? 1 : 3, "source", "regula", "message",
                   lsp_text(text));
  if (item && related) json_object_set(item, "relatedInformation", related);
  json_decref(related);
  json_array_append_new(ds->list, item);
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
  uint32_t ucol;            /* the name's column in UTF-16 units, 0-based */
  uint32_t text_from;       /* the byte of the line where line_text starts */
  int use;                  /* a use (rg_rules_uses), not a declaration */
} sym;

typedef struct symtab {
  sym *v;
  int n, cap;
  const char *last_line;    /* the line of the last symbol (the library's */
  uint32_t last_byte, last_u; /* text), a byte offset in it and its UTF-16
                            ** column: symbols along one long line cost
                            ** the distance between them, not the line */
} symtab;

/* Returns a copy of s (NULL stays NULL). */
static char *copyn(const char *s, size_t n) {
  char *c;
  if (!s) return NULL;
  if ((c = rg_malloc(n + 1))) {
    memcpy(c, s, n);
    c[n] = '\0';
  }
  return c;
}

/* rg_symbol_fn: keeps a copy of s (of its line, an excerpt of at most 256
** bytes around the name when the line is longer than 1024), its column in
** UTF-16 units; a symbol that cannot be kept for want of memory is
** dropped. */
static void on_symbol(void *ctx, const rg_symbol *s) {
  symtab *t = ctx;
  sym *y;
  uint32_t b = s->byte_col ? s->byte_col - 1 : 0;
  if (s->source_line && b > s->source_len) b = (uint32_t)s->source_len;
  if (t->n == t->cap) {
    int cap = t->cap ? 2 * t->cap : 64;
    sym *v = rg_realloc(t->v, (size_t)cap * sizeof *v);
    if (!v) return;
    t->v = v;
    t->cap = cap;
  }
  y = &t->v[t->n];
  memset(y, 0, sizeof *y);
  y->kind = s->kind;
  y->name = copyn(s->name, strlen(s->name));
  y->display = s->display ? copyn(s->display, strlen(s->display)) : NULL;
  y->container = s->container ? copyn(s->container, strlen(s->container)) : NULL;
  y->path = copyn(s->path, strlen(s->path));
  if (s->source_line && s->source_len <= 1024) {
    y->line_text = copyn(s->source_line, s->source_len);
  } else if (s->source_line) {
    size_t from = b > 64 ? b - 64 : 0, n = s->source_len - from < 256 ? s->source_len - from : 256;
    y->line_text = copyn(s->source_line + from, n);
    y->text_from = (uint32_t)from;
  }
  y->assumed = s->assumed ? copyn(s->assumed, strlen(s->assumed)) : NULL;
  y->tsv = s->tsv ? copyn(s->tsv, strlen(s->tsv)) : NULL;
  y->line = s->line;
  y->byte_col = s->byte_col;
  y->use = s->use;
  if (s->source_line) {
    if (s->source_line != t->last_line || b < t->last_byte) {
      t->last_line = s->source_line;
      t->last_byte = t->last_u = 0;
    }
    t->last_u += utf16_len(s->source_line + t->last_byte, b - t->last_byte);
    t->last_byte = b;
    y->ucol = t->last_u;
  }
  if (!y->name || !y->path || (s->display && !y->display) || (s->container && !y->container) ||
      (s->source_line && !y->line_text) || (s->assumed && !y->assumed) || (s->tsv && !y->tsv)) {
    rg_free(y->name); rg_free(y->display); rg_free(y->container); rg_free(y->path);
    rg_free(y->line_text); rg_free(y->assumed); rg_free(y->tsv);
    return;
  }
  t->n++;
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
  uint32_t l = y->line ? y->line - 1 : 0;
  uint32_t w = y->kind == RG_SYMBOL_NOTE ? 7 : utf16_len(y->name, strlen(y->name));
  return json_pack("{s:o,s:{s:{s:i,s:i},s:{s:i,s:i}}}", "uri", path_uri(y->path), "range", "start",
                   "line", (int)l, "character", (int)y->ucol, "end", "line", (int)l, "character",
                   (int)(y->ucol + w));
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
  case RG_SYMBOL_RULE: return 24;
  case RG_SYMBOL_ROW: return 7;
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
         k != RG_SYMBOL_STRATEGY && k != RG_SYMBOL_DISPLAY && k != RG_SYMBOL_RULE &&
         k != RG_SYMBOL_ROW && k != RG_SYMBOL_NAME;
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
      if (y->line == line && same_file(y->path, d->path) &&
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
            rg_rules_load(y->path, &o, &r) == RG_OK) {
          rg_puts(&b.out, "```\n");
          rg_rules_describe(r, y->name, &b.out);
          rg_puts(&b.out, "```\n");
        }
        rg_rules_free(r);
      }
      if (y->tsv) rg_printf(&b.out, "from `%s`\n", y->tsv);
      if (y->assumed) rg_printf(&b.out, "\n**assumed**: %s\n", y->assumed);
      char where[PATH_MAX];
      rg_printf(&b.out, "\n%s:%u\n", canon(y->path, where), y->line);
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

/* ---- rules, steps and cells: what definition, hover and references are on -- */

/* Fills t with the uses of names in d and the rule sets it extends. */
static void uses_of(server *sv, const doc *d, symtab *t) {
  rg_loader ld;
  rg_compile_options o = options(sv, &ld, NULL, NULL);
  memset(t, 0, sizeof *t);
  rg_rules_uses(d->path, d->text, d->len, &o, on_symbol, t);
}

/* What a position is on. */
typedef struct target {
  rg_symbol_kind kind;      /* RULE, STEP or ROW; 0 a string that may name
                            ** a rule or a step; NAME any other name */
  char name[512];
  char container[512];      /* the procedure of a rule or step, the table
                            ** of a row; "" for any */
  uint32_t line;            /* the position's line (1-based) */
} target;

/* Finds what position pos of d is on (decls and uses: d's symbols): a
** rule's or a step's name (in its declaration, or in `override` / `remove`
** ... `in P`), the keys of a cell in `override T[keys]` or in a table's
** body, or another name.  Returns 0, or -1 when pos is on no word. */
static int target_at(const doc *d, json_t *pos, const symtab *decls, const symtab *uses,
                     target *t) {
  char w[512];
  int in_string;
  uint32_t bcol, line;
  samememo m = { NULL, 0 };
  if (word_at(d, pos, w, sizeof w, &in_string, &bcol, &line) != 0) return -1;
  memset(t, 0, sizeof *t);
  t->line = line;
  snprintf(t->name, sizeof t->name, "%s", w);
  t->kind = in_string ? 0 : RG_SYMBOL_NAME;
  for (int pass = 0; pass < 2; pass++) {
    const symtab *tab = pass ? uses : decls;
    for (int i = 0; i < tab->n; i++) {
      const sym *y = &tab->v[i];
      if (y->line != line || !same_memo(&m, y->path, d->path)) continue;
      if (in_string && (y->kind == RG_SYMBOL_RULE || y->kind == RG_SYMBOL_STEP) &&
          strcmp(y->name, w) == 0) {
        t->kind = y->kind;
        snprintf(t->container, sizeof t->container, "%s", y->container ? y->container : "");
        rg_free(m.path);
        return 0;
      }
      if (!in_string && y->kind == RG_SYMBOL_ROW && y->line_text && bcol >= y->byte_col) {
        /* the keys run from the cell's first key to its ':' or ']' */
        const char *k = y->line_text + (y->byte_col - 1 - y->text_from);
        const char *end = k;
        while (*end && *end != ':' && *end != ']') end++;
        if (bcol - 1 - y->text_from < (size_t)(end - y->line_text)) {
          t->kind = RG_SYMBOL_ROW;
          snprintf(t->name, sizeof t->name, "%s", y->name);
          snprintf(t->container, sizeof t->container, "%s", y->container ? y->container : "");
          rg_free(m.path);
          return 0;
        }
      }
    }
  }
  rg_free(m.path);
  return 0;
}

/* Whether symbol y is what t is on (a declaration of it, or a use). */
static int target_match(const target *t, const sym *y) {
  if (strcmp(y->name, t->name) != 0) return 0;
  if (t->kind == 0) return y->kind == RG_SYMBOL_RULE || y->kind == RG_SYMBOL_STEP;
  if (t->kind == RG_SYMBOL_NAME)
    return y->use ? y->kind == RG_SYMBOL_NAME || y->kind == RG_SYMBOL_PROCEDURE ||
                        y->kind == RG_SYMBOL_MEMBER || y->kind == RG_SYMBOL_TABLE
                  : named(y->kind);
  return y->kind == t->kind &&
         (!t->container[0] || (y->container && strcmp(y->container, t->container) == 0));
}

/* Returns whether symbol y is declared on t's line of document d. */
static int on_line(const doc *d, const target *t, const sym *y) {
  return y->line == t->line && same_file(y->path, d->path);
}

/* Returns a new array of the locations of t's declarations (decls of d):
** those elsewhere than t's own line when there are any (from an `override
** rule` line, the rule it replaces), else those on it. */
static json_t *target_decls(const doc *d, const target *t, const symtab *decls) {
  json_t *here = json_array(), *there = json_array();
  for (int i = 0; here && there && i < decls->n; i++) {
    const sym *y = &decls->v[i];
    if (!target_match(t, y)) continue;
    json_array_append_new(on_line(d, t, y) ? here : there, location(y));
  }
  if (there && json_array_size(there)) {
    json_decref(here);
    return there;
  }
  json_decref(there);
  return here;
}

/* Looks in the TSV file path for the row of key (or of display, when not
** NULL): the first line, not a comment, whose first cell is it.  Returns
** its 1-based line, or 0; its text (at most size - 1 bytes) in buf. */
static uint32_t tsv_row(const char *path, const char *key, const char *display, char *buf,
                        size_t size) {
  FILE *f = fopen(path, "r");
  char *line = NULL;
  size_t cap = 0;
  uint32_t n = 0, found = 0;
  if (!f) return 0;
  while (!found && getline(&line, &cap, f) >= 0) {
    size_t k = strcspn(line, "\t\r\n"), all;
    n++;
    if (line[0] == '#') continue;
    while (k && line[k - 1] == ' ') k--;
    if ((strlen(key) == k && strncmp(line, key, k) == 0) ||
        (display && strlen(display) == k && strncmp(line, display, k) == 0)) {
      found = n;
      all = strcspn(line, "\r\n");
      if (all >= size) all = size - 1;
      memcpy(buf, line, all);
      buf[all] = '\0';
    }
  }
  free(line);
  fclose(f);
  return found;
}

/* For a row t of a table read from a TSV file (its declaration in decls):
** the TSV file and line of the row (found by its first key, or that
** member's display name), its text in buf.  Returns the line (1-based), or
** 0 when there is none; *path the file (decls' copy). */
static uint32_t target_tsv_row(const target *t, const symtab *decls, const char **path, char *buf,
                               size_t size) {
  char key[512];
  const char *display = NULL, *dot;
  snprintf(key, sizeof key, "%s", t->name);
  key[strcspn(key, ",")] = '\0';
  if ((dot = strrchr(key, '.'))) memmove(key, dot + 1, strlen(dot));
  for (int i = 0; i < decls->n; i++)
    if (decls->v[i].kind == RG_SYMBOL_MEMBER && strcmp(decls->v[i].name, key) == 0)
      display = decls->v[i].display;
  for (int i = 0; i < decls->n; i++) {
    const sym *y = &decls->v[i];
    uint32_t line;
    if (y->kind == RG_SYMBOL_TABLE && y->tsv && strcmp(y->name, t->container) == 0 &&
        (line = tsv_row(y->tsv, key, display, buf, size))) {
      *path = y->tsv;
      return line;
    }
  }
  return 0;
}

/* textDocument/definition: the declarations of the name under the cursor
** (every one of that name: a member code may be in several enums); on a
** table's own declaration, or on the `from "..."` of one, its TSV file; on
** the name of a rule or a step (`override rule "..." in P`), the rule or
** step it names; on the keys of `override T[keys]`, that row of T (the
** cell in the file that declares it, or its line of the TSV file). */
static json_t *definition(server *sv, const doc *d, json_t *pos) {
  char w[512];
  int in_string;
  uint32_t bcol, line;
  symtab t, u;
  target tg;
  json_t *locs = NULL;
  if (word_at(d, pos, w, sizeof w, &in_string, &bcol, &line) != 0) return json_array();
  symbols_of(sv, d, &t);
  uses_of(sv, d, &u);
  if (target_at(d, pos, &t, &u, &tg) == 0 && tg.kind != RG_SYMBOL_NAME) {
    locs = target_decls(d, &tg, &t);
    if (locs && tg.kind == RG_SYMBOL_ROW && json_array_size(locs) == 0) {
      char text[512];
      const char *path = NULL;
      uint32_t l = target_tsv_row(&tg, &t, &path, text, sizeof text);
      if (l)
        json_array_append_new(locs, json_pack("{s:o,s:o}", "uri", path_uri(path), "range",
                                              range(l, NULL, 0, 0, 0)));
    }
    if (locs && tg.kind == 0 && json_array_size(locs) == 0) {
      json_decref(locs);        /* a string that names no rule: the TSV's, below */
      locs = NULL;
    }
  }
  if (!locs && (locs = json_array())) {
    for (int i = 0; i < t.n; i++) {
      const sym *y = &t.v[i];
      int here = y->line == line && same_file(y->path, d->path);
      if (y->kind == RG_SYMBOL_TABLE && y->tsv && here &&
          ((in_string && y->line_text && strstr(y->line_text, w)) ||
           (!in_string && strcmp(y->name, w) == 0 && y->byte_col == bcol))) {
        json_array_clear(locs);
        json_array_append_new(locs, json_pack("{s:o,s:o}", "uri", path_uri(y->tsv), "range",
                                              range(1, NULL, 0, 0, 0)));
        break;
      }
      if (!in_string && named(y->kind) && strcmp(y->name, w) == 0)
        json_array_append_new(locs, location(y));
    }
  }
  symtab_free(&u);
  symtab_free(&t);
  return locs;
}

/* Adds symbol y's location to locs unless its place is in seen already
** (keys "path:line:col"); with skip, only marks the place as seen. */
static void add_ref(json_t *locs, json_t *seen, const sym *y, int skip) {
  char key[PATH_MAX + 32], where[PATH_MAX];
  snprintf(key, sizeof key, "%s:%u:%u", canon(y->path, where), y->line, y->byte_col);
  if (json_object_get(seen, key)) return;
  json_object_set_new(seen, key, json_true());
  if (!skip) json_array_append_new(locs, location(y));
}

/* textDocument/references: every declaration (with includeDeclaration) and
** use of what the cursor is on (a name, a rule's or a step's name in its
** procedure, a row of a table), in d and the rule sets it extends, and in
** the other open documents (a variant that extends d among them), each
** place once. */
static json_t *references(server *sv, const doc *d, json_t *params) {
  symtab t, u;
  target tg;
  json_t *locs = json_array(), *seen = json_object();
  int decl = json_is_true(json_object_get(json_object_get(params, "context"), "includeDeclaration"));
  int found;
  symbols_of(sv, d, &t);
  uses_of(sv, d, &u);
  found = target_at(d, json_object_get(params, "position"), &t, &u, &tg) == 0;
  for (int k = -1; locs && seen && found && k < sv->ndocs; k++) {
    const doc *e = k < 0 ? d : &sv->docs[k];
    if (k >= 0) {
      if (e == d) continue;
      symtab_free(&u);
      symtab_free(&t);
      symbols_of(sv, e, &t);
      uses_of(sv, e, &u);
    }
    /* declarations first: an `override rule` is one and a use at one place */
    for (int i = 0; i < t.n; i++)
      if (target_match(&tg, &t.v[i])) add_ref(locs, seen, &t.v[i], !decl);
    for (int i = 0; i < u.n; i++)
      if (target_match(&tg, &u.v[i])) add_ref(locs, seen, &u.v[i], 0);
  }
  json_decref(seen);
  symtab_free(&u);
  symtab_free(&t);
  return locs;
}

/* The hover of a rule, a step or a row (tg), or NULL when tg is a name:
** what it is, and each place that declares it (an override among them)
** with its line; a row of a TSV table, its line of the file. */
static json_t *hover_target(server *sv, const doc *d, json_t *pos) {
  symtab t, u;
  target tg;
  rg_buf b;
  json_t *res = NULL;
  int n = 0;
  symbols_of(sv, d, &t);
  uses_of(sv, d, &u);
  rg_buf_init(&b);
  if (target_at(d, pos, &t, &u, &tg) == 0 && tg.kind != RG_SYMBOL_NAME) {
    for (int i = 0; i < t.n; i++) {
      const sym *y = &t.v[i];
      const char *s = y->line_text ? y->line_text : "";
      if (!target_match(&tg, y)) continue;
      if (n++ == 0)
        rg_printf(&b.out, "%s \"%s\" of %s `%s`\n",
                  y->kind == RG_SYMBOL_RULE ? "rule" : y->kind == RG_SYMBOL_STEP ? "step" : "row",
                  y->name, y->kind == RG_SYMBOL_ROW ? "table" : "procedure",
                  y->container ? y->container : "?");
      while (*s == ' ' || *s == '\t') s++;
      char where[PATH_MAX];
      rg_printf(&b.out, "\n```regula\n%s\n```\n%s:%u\n", s, canon(y->path, where), y->line);
    }
    if (n == 0 && tg.kind == RG_SYMBOL_ROW) {
      char text[512], where[PATH_MAX];
      const char *path = NULL;
      uint32_t l = target_tsv_row(&tg, &t, &path, text, sizeof text);
      if (l)
        rg_printf(&b.out, "row \"%s\" of table `%s`\n\n```\n%s\n```\n%s:%u\n", tg.name,
                  tg.container, text, canon(path, where), l);
    }
    if (!b.out.failed && b.data)
      res = json_pack("{s:{s:s,s:o}}", "contents", "kind", "markdown", "value",
                      lsp_textn(b.data, b.len));
  }
  rg_buf_free(&b);
  symtab_free(&u);
  symtab_free(&t);
  return res;
}

/* textDocument/formatting: the whole document in `regula fmt`'s layout
** (rg_rules_format), as one edit; no edit when it is so already or has
** syntax errors (the diagnostics show them). */
static json_t *formatting(server *sv, const doc *d) {
  rg_loader ld;
  rg_compile_options o = options(sv, &ld, NULL, NULL);
  rg_buf b;
  json_t *edits = json_array();
  rg_buf_init(&b);
  /* (b that could not grow: RG_IO) */
  if (edits && rg_rules_format(d->path, d->text, d->len, &o, &b.out) == RG_OK &&
      (b.len != d->len || memcmp(b.data ? b.data : "", d->text, d->len) != 0)) {
    /* the end of the document: its last line and that line's width */
    uint32_t lines = 0;
    const char *last = d->text;
    for (const char *p = d->text; p < d->text + d->len; p++)
      if (*p == '\n') {
        lines++;
        last = p + 1;
      }
    json_array_append_new(edits, json_pack("{s:{s:{s:i,s:i},s:{s:i,s:i}},s:o}", "range", "start",
                                           "line", 0, "character", 0, "end", "line", (int)lines,
                                           "character",
                                           (int)utf16_len(last, (size_t)(d->text + d->len - last)),
                                           "newText", lsp_textn(b.data, b.len)));
  }
  rg_buf_free(&b);
  return edits;
}

/* What may be written at a place, for completion. */
typedef enum { WANT_ANY, WANT_FIELD, WANT_TYPE, WANT_MEMBER, WANT_OVERRIDE, WANT_RULE, WANT_STEP } want;

/* What position pos of d asks for: after `NAME.` a field, or a member of
** enum NAME (`terrain_name.|`: WANT_FIELD, NAME in base[0..size), told
** apart by the caller, who knows the enums); after `override` a table (or
** `rule`, `step` and the declarations that may be overridden); inside the
** string of `override rule "` or `remove step "` (and the like) a rule's
** or a step's name (*quote: the UTF-16 column after the quote); after `->`
** or after `NAME:` on a line declaring a variable, an input, a parameter
** or a field (`let x: |`, `input x: |`, `procedure f(p: |`, `  field: |` in
** a record) a type; anything else elsewhere. */
static want wanted(const doc *d, json_t *pos, char *base, size_t size, uint32_t *quote) {
  const char *s;
  size_t n, at, k, lead = 0;
  json_int_t l = json_integer_value(json_object_get(pos, "line"));
  json_int_t c = json_integer_value(json_object_get(pos, "character"));
  base[0] = '\0';
  if (l < 0 || c < 0 || doc_line(d, (uint32_t)l, &s, &n) != 0) return WANT_ANY;
  at = utf16_byte(s, n, (uint32_t)c);
  k = at;
  while (k > 0 && name_byte((unsigned char)s[k - 1])) k--;   /* the word begun */
  if (k > 0 && s[k - 1] == '.') {
    size_t b = k - 1;
    while (b > 0 && name_byte((unsigned char)s[b - 1])) b--;
    if (k - 1 - b < size) {
      memcpy(base, s + b, k - 1 - b);
      base[k - 1 - b] = '\0';
    }
    return WANT_FIELD;
  }
  while (lead < n && (s[lead] == ' ' || s[lead] == '\t')) lead++;
  {
    /* (override|remove) (rule|step) "...| : inside the string */
    static const char *const heads[] = { "override rule \"", "override step \"", "remove rule \"",
                                         "remove step \"" };
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++) {
      size_t h = strlen(heads[i]);
      if (at >= lead + h && strncmp(s + lead, heads[i], h) == 0 &&
          !memchr(s + lead + h, '"', at - lead - h)) {
        *quote = utf16_len(s, lead + h);
        return strstr(heads[i], "rule") ? WANT_RULE : WANT_STEP;
      }
    }
  }
  while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t')) k--;
  if (k >= lead + 8 && k - lead == 8 && strncmp(s + lead, "override", 8) == 0) return WANT_OVERRIDE;
  if (k >= 2 && s[k - 2] == '-' && s[k - 1] == '>') return WANT_TYPE;
  if (k == 0 || s[k - 1] != ':') return WANT_ANY;
  static const char *const decl[] = { "let ", "input ", "procedure ", "table " };
  for (size_t i = 0; i < sizeof decl / sizeof *decl; i++)
    if (strncmp(s + lead, decl[i], strlen(decl[i])) == 0) return WANT_TYPE;
  /* `  name: |` alone on its line: a field of a record declaration */
  size_t e = lead;
  while (e < n && name_byte((unsigned char)s[e])) e++;
  return e > lead && e + 1 == k && lead > 0 ? WANT_TYPE : WANT_ANY;
}

/* Whether symbol y is offered where w is wanted (base: the enum whose
** members are wanted). */
static int offered(const sym *y, want w, const char *base) {
  if (w == WANT_FIELD) return y->kind == RG_SYMBOL_FIELD;
  if (w == WANT_MEMBER)
    return y->kind == RG_SYMBOL_MEMBER && y->container && strcmp(y->container, base) == 0;
  if (w == WANT_TYPE) return y->kind == RG_SYMBOL_ENUM || y->kind == RG_SYMBOL_RECORD;
  if (w == WANT_OVERRIDE) return y->kind == RG_SYMBOL_TABLE;
  if (w == WANT_RULE) return y->kind == RG_SYMBOL_RULE && y->container;
  if (w == WANT_STEP) return y->kind == RG_SYMBOL_STEP && y->container;
  return 1;
}

/* A set of symbols of a symtab told apart by kind and name (open
** addressing; 0 marks a free slot, i + 1 holds symbol i). */
typedef struct nameset {
  const symtab *t;
  uint32_t *slot;
  size_t mask;
} nameset;

/* Returns the hash of kind k and name s (FNV-1a). */
static size_t name_hash(rg_symbol_kind k, const char *s) {
  uint64_t h = 14695981039346656037ull ^ (uint64_t)k;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (size_t)h;   /* (a rule's procedure is compared, not hashed) */
}

/* Makes ns an empty set for up to t->n symbols of t.  Returns 0, or -1
** when memory runs out. */
static int nameset_init(nameset *ns, const symtab *t) {
  size_t cap = 16;
  while (cap < 2 * (size_t)t->n) cap *= 2;
  ns->t = t;
  ns->mask = cap - 1;
  ns->slot = rg_malloc(cap * sizeof *ns->slot);
  if (!ns->slot) return -1;
  memset(ns->slot, 0, cap * sizeof *ns->slot);
  return 0;
}

/* Adds symbol i to ns; returns 1 when it was added, 0 when a symbol of its
** kind and name was there already. */
static int nameset_add(nameset *ns, int i) {
  const sym *y = &ns->t->v[i];
  for (size_t h = name_hash(y->kind, y->name) & ns->mask;; h = (h + 1) & ns->mask) {
    const sym *o;
    if (!ns->slot[h]) {
      ns->slot[h] = (uint32_t)i + 1;
      return 1;
    }
    o = &ns->t->v[ns->slot[h] - 1];
    if (o->kind == y->kind && strcmp(o->name, y->name) == 0 &&
        strcmp(o->container ? o->container : "", y->container ? y->container : "") == 0)
      return 0;
  }
}

/* textDocument/completion at pos: the declared names that fit there (see
** wanted), once per name and kind (a hash of the names: linear in the
** symbols); for a type, the language's own types too. */
static json_t *completion(server *sv, const doc *d, json_t *pos) {
  symtab t;
  nameset ns;
  json_t *items = json_array();
  char base[512];
  uint32_t quote = 0;
  json_int_t line = json_integer_value(json_object_get(pos, "line"));
  json_int_t ch = json_integer_value(json_object_get(pos, "character"));
  want w = wanted(d, pos, base, sizeof base, &quote);
  symbols_of(sv, d, &t);
  if (nameset_init(&ns, &t) != 0) {
    symtab_free(&t);
    return items;
  }
  /* after `NAME.`: NAME's members when it is an enum */
  for (int i = 0; w == WANT_FIELD && base[0] && i < t.n; i++)
    if (t.v[i].kind == RG_SYMBOL_ENUM && strcmp(t.v[i].name, base) == 0) w = WANT_MEMBER;
  if (w == WANT_OVERRIDE) {
    static const char *const kw[] = { "rule", "step", "table", "const", "procedure", "enum",
                                      "record", "strategy", "display" };
    for (size_t i = 0; items && i < sizeof kw / sizeof *kw; i++)
      json_array_append_new(items, json_pack("{s:s,s:i,s:s}", "label", kw[i], "kind", 14,
                                             "detail", "keyword"));
  }
  if (w == WANT_TYPE) {
    static const char *const builtin[] = { "int", "bool", "percent", "text", "distance", "list", "set" };
    for (size_t i = 0; items && i < sizeof builtin / sizeof *builtin; i++)
      json_array_append_new(items, json_pack("{s:s,s:i,s:s}", "label", builtin[i], "kind", 25,
                                             "detail", "type"));
  }
  for (int i = 0; items && i < t.n; i++) {
    const sym *y = &t.v[i];
    if (w == WANT_RULE || w == WANT_STEP) {
      /* the name, its closing quote and `in PROCEDURE`, over what was typed */
      char *text;
      size_t n;
      if (!offered(y, w, base) || !nameset_add(&ns, i)) continue;
      n = strlen(y->name) + strlen(y->container) + 8;
      if (!(text = rg_malloc(n))) continue;
      snprintf(text, n, "%s\" in %s", y->name, y->container);
      json_array_append_new(items, json_pack("{s:o,s:i,s:s+,s:{s:{s:{s:I,s:i},s:{s:I,s:I}},s:o}}",
                                             "label", lsp_text(y->name), "kind",
                                             completion_kind(y->kind), "detail", "in ",
                                             y->container, "textEdit", "range", "start", "line",
                                             line, "character", (int)quote, "end", "line", line,
                                             "character", ch, "newText", lsp_text(text)));
      rg_free(text);
      continue;
    }
    if (!named(y->kind) || !offered(y, w, base) || !nameset_add(&ns, i)) continue;
    json_array_append_new(items, json_pack("{s:o,s:i,s:o}", "label", lsp_text(y->name), "kind",
                                           completion_kind(y->kind), "detail",
                                           lsp_text(y->container ? y->container
                                                        : y->display ? y->display : "")));
  }
  rg_free(ns.slot);
  symtab_free(&t);
  return items;
}

/* textDocument/documentSymbol: the declarations and steps of d itself. */
static json_t *outline(server *sv, const doc *d) {
  symtab t;
  samememo m = { NULL, 0 };
  json_t *list = json_array();
  symbols_of(sv, d, &t);
  for (int i = 0; list && i < t.n; i++) {
    const sym *y = &t.v[i];
    json_t *s;
    if (y->kind == RG_SYMBOL_NOTE || y->kind == RG_SYMBOL_ROW || !same_memo(&m, y->path, d->path))
      continue;
    s = json_pack("{s:o,s:i,s:o}", "name", lsp_text(y->name), "kind", symbol_kind(y->kind),
                  "location", location(y));
    if (s && y->container) json_object_set_new(s, "containerName", lsp_text(y->container));
    json_array_append_new(list, s);
  }
  rg_free(m.path);
  symtab_free(&t);
  return list;
}

/* didOpen / didChange: sets the text of document uri (adding it). */
static doc *set_doc(server *sv, const char *uri, const char *text, size_t len) {
  doc *d = find_doc(sv, uri);
  char *copy = copyn(text, len);
  if (!copy) return NULL;
  if (!d) {
    doc *v = rg_realloc(sv->docs, (size_t)(sv->ndocs + 1) * sizeof *v);
    char *u = copyn(uri, strlen(uri)), *p = uri_path(uri);
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
    reply(id, json_pack("{s:{s:i,s:b,s:b,s:{s:[s]},s:b,s:b,s:b},s:{s:s,s:s}}", "capabilities",
                        "textDocumentSync", 1, "hoverProvider", 1, "definitionProvider", 1,
                        "completionProvider", "triggerCharacters", ".",
                        "documentSymbolProvider", 1, "referencesProvider", 1,
                        "documentFormattingProvider", 1, "serverInfo", "name", "regula",
                        "version", rg_version()));
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
        word_at(d, json_object_get(params, "position"), w, sizeof w, &in_string, &bcol, &line) == 0 &&
        !(res = hover_target(sv, d, json_object_get(params, "position"))))
      res = hover_text(sv, d, w, in_string, line, bcol);
    reply(id, res);
  } else if (strcmp(method, "textDocument/definition") == 0) {
    reply(id, (d = param_doc(sv, params)) ? definition(sv, d, json_object_get(params, "position"))
                                          : json_array());
  } else if (strcmp(method, "textDocument/completion") == 0) {
    reply(id, (d = param_doc(sv, params)) ? completion(sv, d, json_object_get(params, "position"))
                                          : json_array());
  } else if (strcmp(method, "textDocument/references") == 0) {
    reply(id, (d = param_doc(sv, params)) ? references(sv, d, params) : json_array());
  } else if (strcmp(method, "textDocument/formatting") == 0) {
    reply(id, (d = param_doc(sv, params)) ? formatting(sv, d) : json_array());
  } else if (strcmp(method, "textDocument/documentSymbol") == 0) {
    reply(id, (d = param_doc(sv, params)) ? outline(sv, d) : json_array());
  } else if (id) {
    send(json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id, "error", "code", -32601,
                   "message", "method not found"));
  }
  return 0;
}

/* Answers a bad frame (why: what was wrong; body[0..len): what may be its
** body): an error with JSON-RPC code `code` when an id can be read from the
** body, else a message to the client's log; then the server goes on. */
static void bad_frame(int code, const char *why, const char *body, size_t len) {
  json_t *id = lsp_frame_id(body, len);
  if (id)
    send(json_pack("{s:s,s:o,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id, "error", "code", code,
                   "message", why));
  else
    send(json_pack("{s:s,s:s,s:{s:i,s:s+}}", "jsonrpc", "2.0", "method", "window/logMessage",
                   "params", "type", 1, "message", "regula lsp: skipped ", why));
}

int lsp_main(void) {
  server sv;
  lsp_reader rd;
  int rc = EX_RUNTIME;
  memset(&sv, 0, sizeof sv);
  memset(&rd, 0, sizeof rd);
  rd.read = stdin_read;
  for (;;) {
    const char *body, *why;
    size_t len;
    json_t *msg, *method;
    lsp_frame_status st = lsp_frame_next(&rd, &body, &len, &why);
    if (st == LSP_FRAME_END) break;
    if (st == LSP_FRAME_BAD) {
      bad_frame(-32600, why, body, len);
      continue;
    }
    if (!(msg = json_loadb(body, len, 0, NULL))) {
      bad_frame(-32700, "a body that is not JSON", body, len);
      continue;
    }
    method = json_object_get(msg, "method");
    if (!json_is_object(msg) || (method && !json_is_string(method))) {
      json_t *id = json_object_get(msg, "id");
      if (id && (json_is_integer(id) || json_is_string(id)))
        send(json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id, "error", "code",
                       -32600, "message", "not a JSON-RPC request"));
      else
        send(json_pack("{s:s,s:s,s:{s:i,s:s}}", "jsonrpc", "2.0", "method", "window/logMessage",
                       "params", "type", 1, "message", "regula lsp: skipped a message that is no request"));
    } else if (handle(&sv, msg, &rc)) {
      json_decref(msg);
      break;
    }
    json_decref(msg);
  }
  lsp_reader_free(&rd);
  while (sv.ndocs) forget(&sv, &sv.docs[0]);
  rg_free(sv.docs);
  return rc;
}
