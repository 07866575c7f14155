/*
** glue.c: what the page (web/app.js) calls in the library compiled to
** WebAssembly.  No rules logic: it hands text in and out.
**
**   rgw_check(path)         compiles the rule file at path and returns its
**                           diagnostics as a JSON array of
**                           {"file","line","col","message","text"}
**                           ("text": the block exactly as the CLI prints it)
**   rgw_run(path, seed, policy)
**                           runs procedure `main` as `regula run PATH --seed
**                           SEED --policy POLICY` does (policy: random or
**                           first) and returns {"exit":N,"out":"...",
**                           "err":"..."}: the exit code, the run's text log
**                           (the same bytes the CLI prints on stdout) and
**                           what went wrong
**   rgw_free(s)             frees a string returned by the two above
**
** The files live in Emscripten's in-memory file system: the bundled rules/
** and tables/ are preloaded at /rules and /tables, and the page writes an
** edited rule file over its path before calling rgw_check, so `extends` and
** `from` find their files as the CLI does.  Paths are relative to / (the
** working directory), so messages name files as the CLI run from the
** repository does.
**
** A run goes through the library's play layer (policy.h, seed.h, play.h,
** evlog.h), as tools/run.c's does.  Until the library hands diagnostics over
** as records (interp/regula.h), they are read back from the text rg_diag
** prints (see parse_diags).
*/
#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "evlog.h"
#include "module.h"
#include "out.h"
#include "play.h"
#include "policy.h"
#include "seed.h"
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Compiles the rule file at path into *m with the diagnostics printed as
** the CLI prints them into *text (malloc'd, *len bytes; the caller frees
** it).  Returns 0, -1 for errors in the file, or -2 when out of memory (no
** text then). */
static int compile_at(const char *path, rg_module *m, char **text, size_t *len) {
  rg_arena arena;
  rg_diag d;
  FILE *mem = open_memstream(text, len);
  int rc;
  if (!mem) return -2;
  rg_arena_init(&arena, 0);
  rg_diag_init(&d, mem, &arena);
  rc = rg_compile(&d, path, m, NULL);
  if (rc != 0 && d.errors == 0) fprintf(mem, "regula: error: %s: cannot compile\n", path);
  rg_arena_free(&arena);
  fclose(mem);
  return rc == 0 ? 0 : -1;
}

/* Compiles the rule file at path (in the in-memory file system) and returns
** its diagnostics as a JSON array (empty when it compiles), or NULL when out
** of memory.  The caller frees the result with rgw_free. */
char *rgw_check(const char *path) {
  rg_module m;
  char *text = NULL;
  size_t len = 0;
  str out = { 0 };
  int rc = compile_at(path, &m, &text, &len);
  if (rc == -2) return NULL;
  if (rc == 0) rg_module_free(&m);
  parse_diags(&out, text, len);
  free(text);
  return str_take(&out);
}

/* An rg_out that appends to the str ctx. */
static int str_write(void *ctx, const char *s, size_t n) {
  str *b = ctx;
  str_add(b, s, n);
  return b->data || !b->cap ? 0 : -1;
}

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

/* Runs procedure main of the compiled module m with seed and policy
** ("random" or "first"), writing the text log to log and what went wrong to
** err.  Returns the CLI's exit code. */
static int run_main(const rg_module *m, uint64_t seed, const char *policy, rg_out *log, str *err) {
  int pi = rg_module_find_proc(m, "main"), rc = 0;
  rg_policy pol;
  rg_log lg;
  rg_play play;
  rg_sink sink;
  rg_vm *vm = NULL;
  rg_value result = 0;
  if (pi < 0 || m->procs[pi].nparams) {
    str_puts(err, "regula: error: the rule set has no procedure 'main' without parameters\n");
    return 2;
  }
  if (strcmp(policy, "first") == 0) {
    rg_policy_first(&pol);
  } else {
    rg_policy_random(&pol);
    rg_seed_run_choices(&pol.rng, seed);
  }
  rg_log_init(&lg, log, m, 0);
  if (rg_play_init(&play, m, &lg, &pol, NULL) == 0) {
    rg_play_sink(&play, &sink);
    vm = rg_vm_new(m, NULL, &sink);
  }
  if (!vm) {
    str_puts(err, "regula: error: out of memory\n");
    rc = 3;
  } else {
    rg_status st;
    rg_play_attach(&play, vm);
    rg_seed_run_dice(vm, seed);
    for (uint32_t i = 0; i < m->ninputs; i++) rg_vm_set_input(vm, i, m->inputs[i].value);
    rg_log_run(&lg, rg_module_str(m, m->procs[pi].name), seed, policy, "random");
    st = rg_vm_call(vm, (uint32_t)pi, &result, &result);   /* no arguments */
    if (play.stopped) {
      str_puts(err, "regula: error: ");
      str_puts(err, rg_play_error(&play));
      str_puts(err, "\n");
      rc = 2;
    } else if (st != RG_RUN_OK) {
      uint32_t pc = UINT32_MAX, line, col;
      const char *msg = rg_vm_error(vm, &pc), *path;
      char where[64];
      if (rg_log_locate(m, pc, &path, &line, &col) == 0) {
        str_puts(err, path);
        snprintf(where, sizeof where, ":%u:%u: error: ", line, col);
        str_puts(err, where);
      } else {
        str_puts(err, "regula: error: ");
      }
      str_puts(err, msg && *msg ? msg : "the run failed");
      str_puts(err, "\n");
      rc = 3;
    } else {
      rg_log_summary(&lg, m->procs[pi].result, result);
      if (play.failed) rc = 1;
    }
  }
  rg_vm_free(vm);
  rg_play_free(&play);
  rg_policy_free(&pol);
  return rc;
}

/* Runs `regula run PATH --seed SEED --policy POLICY` (policy: random or
** first) and returns {"exit":N,"out":LOG,"err":ERRORS} as JSON, or NULL when
** out of memory.  The caller frees the result with rgw_free. */
char *rgw_run(const char *path, const char *seed, const char *policy) {
  str out = { 0 }, log = { 0 }, err = { 0 };
  rg_out lo = { str_write, &log, 0 };
  rg_module m;
  uint64_t s;
  char *text = NULL, num[32];
  size_t len = 0;
  int rc;
  if (parse_seed(seed, &s) != 0) {
    str_puts(&err, "regula: error: --seed needs a whole number from 0 to 18446744073709551615\n");
    rc = 2;
  } else if (strcmp(policy, "random") != 0 && strcmp(policy, "first") != 0) {
    str_puts(&err, "regula: error: --policy must be random or first here\n");
    rc = 2;
  } else if ((rc = compile_at(path, &m, &text, &len)) != 0) {
    if (text) str_add(&err, text, len);
    rc = rc == -2 ? 3 : 2;
  } else {
    rc = run_main(&m, s, policy, &lo, &err);
    rg_module_free(&m);
  }
  free(text);
  snprintf(num, sizeof num, "{\"exit\":%d,\"out\":", rc);
  str_puts(&out, num);
  str_json(&out, log.data ? log.data : "", log.len);
  str_puts(&out, ",\"err\":");
  str_json(&out, err.data ? err.data : "", err.len);
  str_puts(&out, "}");
  free(log.data);
  free(err.data);
  return str_take(&out);
}

/* Frees a string returned by rgw_check or rgw_run. */
void rgw_free(char *s) {
  free(s);
}
