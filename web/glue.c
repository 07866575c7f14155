/*
** glue.c: what the page (web/app.js) calls in the library compiled to
** WebAssembly.  No rules logic: it hands text in and out.
**
**   rgw_check(path)         compiles the rule file at path and returns its
**                           diagnostics as a JSON array of
**                           {"file","line","col","message","text"}
**                           ("text": the block exactly as the CLI prints it)
**   rgw_run(path, seed, policy)
**                           runs `main` as `regula run PATH --seed SEED
**                           --policy POLICY` does and returns
**                           {"exit":N,"out":"...","err":"..."}: the exit code
**                           and the text the CLI writes on stdout and stderr
**   rgw_free(s)             frees a string returned by the two above
**
** The files live in Emscripten's in-memory file system: the bundled rules/
** and tables/ are preloaded at /rules and /tables, and the page writes an
** edited rule file over its path before calling rgw_check, so `extends` and
** `from` find their files as the CLI does.  Paths are relative to / (the
** working directory), so messages name files as the CLI run from the
** repository does.
**
** Until the library has a public API (interp/regula.h) and the event log,
** rgw_run calls the CLI's own main (tools/regula.c, compiled with
** -Dmain=rg_cli_main) with its stdout and stderr sent to files of the
** in-memory file system: the page runs the very code the CLI runs.
** rgw_check compiles through the library and reads its diagnostics back
** from the text rg_diag prints (see parse_diags).
*/
#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CLI's main (tools/regula.c, renamed when compiled for the page). */
int rg_cli_main(int argc, char **argv);

#define OUT_PATH "/tmp/rgw-stdout"
#define ERR_PATH "/tmp/rgw-stderr"

/* A growable string.  data is malloc'd (NULL when out of memory: every
** append after that is ignored and the caller sees NULL). */
typedef struct str {
  char *data;
  size_t len, cap;
} str;

/* Appends s[0..n) to b. */
static void str_add(str *b, const char *s, size_t n) {
  if (!b->data && b->cap) return;                /* failed before */
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    char *p;
    while (cap < b->len + n + 1) cap *= 2;
    p = realloc(b->data, cap);
    if (!p) {
      free(b->data);
      b->data = NULL;
      b->cap = 1;
      return;
    }
    b->data = p;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

/* Appends the NUL-terminated s to b. */
static void str_puts(str *b, const char *s) {
  str_add(b, s, strlen(s));
}

/* Appends s[0..n) to b as a JSON string: quotes, backslashes and control
** characters escaped; other bytes (UTF-8) copied. */
static void str_json(str *b, const char *s, size_t n) {
  str_add(b, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char esc[8];
    if (c == '"' || c == '\\') {
      esc[0] = '\\';
      esc[1] = (char)c;
      str_add(b, esc, 2);
    } else if (c == '\n') {
      str_add(b, "\\n", 2);
    } else if (c < 0x20 || c == 0x7f) {
      snprintf(esc, sizeof esc, "\\u%04x", c);
      str_add(b, esc, 6);
    } else {
      str_add(b, s + i, 1);
    }
  }
  str_add(b, "\"", 1);
}

/* Reads the whole file at path into b (nothing when it cannot be read). */
static void str_file(str *b, const char *path) {
  FILE *f = fopen(path, "rb");
  char buf[4096];
  size_t n;
  if (!f) return;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) str_add(b, buf, n);
  fclose(f);
}

/* Returns b's text (an empty string when nothing was added), or NULL when
** memory ran out.  The caller frees it. */
static char *str_take(str *b) {
  if (!b->data && !b->cap) str_add(b, "", 0);
  return b->data;
}

/* Appends one diagnostic block (a header line "path:line:col: error:
** message" or "regula: error: message", then its indented source and caret
** lines) to the JSON array in out.  text[0..n) is the block. */
static void diag_json(str *out, const char *text, size_t n, int first) {
  const char *end = memchr(text, '\n', n), *err;
  size_t hlen = end ? (size_t)(end - text) : n;
  char head[4096], num[64];
  const char *file = "", *msg;
  unsigned long line = 0, col = 0;
  if (hlen >= sizeof head) hlen = sizeof head - 1;
  memcpy(head, text, hlen);
  head[hlen] = '\0';
  msg = head;
  /* "path:line:col: error: message": the path is what precedes the last two
  ** colons before ": error: " (or ": "). */
  err = strstr(head, ": error: ");
  if (!err) err = strstr(head, ": ");
  if (err) {
    char *c2 = NULL, *c1 = NULL;
    for (char *p = head; p < err; p++)
      if (*p == ':') {
        c1 = c2;
        c2 = p;
      }
    msg = err + (strncmp(err, ": error: ", 9) == 0 ? 9 : 2);
    if (c1 && c2) {
      char *e1, *e2;
      line = strtoul(c1 + 1, &e1, 10);
      col = strtoul(c2 + 1, &e2, 10);
      if (e1 == c2 && e2 == err && line > 0) {
        *c1 = '\0';
        file = head;
      } else {
        line = col = 0;
      }
    }
  }
  if (!first) str_puts(out, ",");
  str_puts(out, "{\"file\":");
  str_json(out, file, strlen(file));
  snprintf(num, sizeof num, ",\"line\":%lu,\"col\":%lu,\"message\":", line, col);
  str_puts(out, num);
  str_json(out, msg, strlen(msg));
  str_puts(out, ",\"text\":");
  str_json(out, text, n);
  str_puts(out, "}");
}

/* Splits the diagnostics text[0..n) that rg_diag printed into blocks (a
** block starts at a line that is not indented) and appends them to out as
** a JSON array. */
static void parse_diags(str *out, const char *text, size_t n) {
  size_t start = 0;
  int first = 1;
  str_puts(out, "[");
  while (start < n) {
    size_t end = start;
    do {
      const char *nl = memchr(text + end, '\n', n - end);
      end = nl ? (size_t)(nl - text) + 1 : n;
    } while (end < n && text[end] == ' ');
    diag_json(out, text + start, end - start, first);
    first = 0;
    start = end;
  }
  str_puts(out, "]");
}

/* Compiles the rule file at path (in the in-memory file system) and returns
** its diagnostics as a JSON array (empty when it compiles), or NULL when out
** of memory.  The caller frees the result with rgw_free. */
char *rgw_check(const char *path) {
  rg_arena arena;
  rg_diag d;
  rg_module m;
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  str out = { 0 };
  if (!mem) return NULL;
  rg_arena_init(&arena, 0);
  rg_diag_init(&d, mem, &arena);
  if (rg_compile(&d, path, &m, NULL) == 0) rg_module_free(&m);
  else if (d.errors == 0) fprintf(mem, "regula: error: %s: cannot compile\n", path);
  rg_arena_free(&arena);
  fclose(mem);
  parse_diags(&out, text, len);
  free(text);
  return str_take(&out);
}

/* Runs `regula run PATH --seed SEED --policy POLICY` and returns
** {"exit":N,"out":STDOUT,"err":STDERR} as JSON, or NULL when out of memory.
** The caller frees the result with rgw_free. */
char *rgw_run(const char *path, const char *seed, const char *policy) {
  char *argv[] = { "regula", "run", (char *)path, "--seed", (char *)seed, "--policy",
                   (char *)policy, NULL };
  str out = { 0 }, text = { 0 };
  char num[32];
  int rc;
  fflush(stdout);
  fflush(stderr);
  if (!freopen(OUT_PATH, "w", stdout) || !freopen(ERR_PATH, "w", stderr)) return NULL;
  rc = rg_cli_main(7, argv);
  fflush(stdout);
  fflush(stderr);
  snprintf(num, sizeof num, "{\"exit\":%d,\"out\":", rc);
  str_puts(&out, num);
  str_file(&text, OUT_PATH);
  str_json(&out, text.data ? text.data : "", text.len);
  text.len = 0;
  str_puts(&out, ",\"err\":");
  str_file(&text, ERR_PATH);
  str_json(&out, text.data ? text.data : "", text.len);
  free(text.data);
  str_puts(&out, "}");
  return str_take(&out);
}

/* Frees a string returned by rgw_check or rgw_run. */
void rgw_free(char *s) {
  free(s);
}
