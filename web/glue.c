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
#include "alloc.h"
#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "evlog.h"
#include "json.h"
#include "module.h"
#include "out.h"
#include "play.h"
#include "policy.h"
#include "seed.h"
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Returns b's text, or NULL when a write failed (out of memory); the caller
** frees it with rg_free. */
static char *buf_take(rg_buf *b) {
  if (b->out.failed) {
    rg_buf_free(b);
    return NULL;
  }
  return b->data;
}

/* Appends one diagnostic block (a header line "path:line:col: error:
** message" or "regula: error: message", then its indented source and caret
** lines) to the JSON array arr.  text[0..n) is the block.  Returns 0, or
** -1 when out of memory. */
static int diag_json(json_t *arr, char *text, size_t n) {
  const char *end = memchr(text, '\n', n), *err;
  size_t hlen = end ? (size_t)(end - text) : n;
  char head[4096];
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
  return json_array_append_new(arr, json_pack("{s:o,s:I,s:I,s:o,s:o}", "file", rg_json_text(file),
                                              "line", (json_int_t)line, "col", (json_int_t)col,
                                              "message", rg_json_text(msg), "text",
                                              rg_json_textn(text, n)));
}

/* Splits the diagnostics text[0..n) that rg_diag printed into blocks (a
** block starts at a line that is not indented) and returns them as a new
** JSON array, or NULL when out of memory. */
static json_t *parse_diags(char *text, size_t n) {
  size_t start = 0;
  json_t *arr = json_array();
  while (arr && start < n) {
    size_t end = start;
    do {
      const char *nl = memchr(text + end, '\n', n - end);
      end = nl ? (size_t)(nl - text) + 1 : n;
    } while (end < n && text[end] == ' ');
    if (diag_json(arr, text + start, end - start) != 0) {
      json_decref(arr);
      return NULL;
    }
    start = end;
  }
  return arr;
}

/* Compiles the rule file at path into *m with the diagnostics rendered as
** the CLI prints them into *text (malloc'd, *len bytes; the caller frees
** it).  Returns 0, -1 for errors in the file, or -2 when out of memory (no
** text then). */
static int compile_at(const char *path, rg_module *m, char **text, size_t *len) {
  rg_arena arena;
  rg_diag d;
  rg_buf b;
  int rc;
  rg_buf_init(&b);
  rg_arena_init(&arena, 0);
  rg_diag_init(&d, &arena, rg_diagnostic_print, &b.out);
  rc = rg_compile(&d, path, m, NULL);
  if (rc != 0 && d.errors == 0) rg_printf(&b.out, "regula: error: %s: cannot compile\n", path);
  rg_arena_free(&arena);
  if (b.out.failed) { rg_buf_free(&b); return -2; }
  *len = b.len;
  *text = malloc(b.len + 1);
  if (!*text) { rg_buf_free(&b); return -2; }
  if (b.len) memcpy(*text, b.data, b.len);
  (*text)[b.len] = '\0';
  rg_buf_free(&b);
  return rc == 0 ? 0 : -1;
}

/* Compiles the rule file at path (in the in-memory file system) and returns
** its diagnostics as a JSON array (empty when it compiles), or NULL when out
** of memory.  The caller frees the result with rgw_free. */
char *rgw_check(const char *path) {
  rg_module m;
  char *text = NULL;
  size_t len = 0;
  rg_buf out;
  int rc = compile_at(path, &m, &text, &len);
  if (rc == -2) return NULL;
  if (rc == 0) rg_module_free(&m);
  rg_buf_init(&out);
  rg_json_put(&out.out, parse_diags(text, len), 0);
  free(text);
  return buf_take(&out);
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
static int run_main(const rg_module *m, uint64_t seed, const char *policy, rg_out *log,
                    rg_out *err) {
  int pi = rg_module_find_proc(m, "main"), rc = 0;
  rg_policy pol;
  rg_log lg;
  rg_play play;
  rg_sink sink;
  rg_vm *vm = NULL;
  rg_value result = 0;
  if (pi < 0 || m->procs[pi].nparams) {
    rg_puts(err, "regula: error: the rule set has no procedure 'main' without parameters\n");
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
    rg_puts(err, "regula: error: out of memory\n");
    rc = 3;
  } else {
    rg_status st;
    rg_play_attach(&play, vm);
    rg_seed_run_dice(vm, seed);
    for (uint32_t i = 0; i < m->ninputs; i++) rg_vm_set_input(vm, i, m->inputs[i].value);
    rg_log_run(&lg, rg_module_str(m, m->procs[pi].name), seed, policy, "random");
    st = rg_vm_call(vm, (uint32_t)pi, &result, &result);   /* no arguments */
    if (play.stopped) {
      rg_puts(err, "regula: error: ");
      rg_puts(err, rg_play_error(&play));
      rg_puts(err, "\n");
      rc = 2;
    } else if (st != RG_RUN_OK) {
      uint32_t pc = UINT32_MAX, line, col;
      const char *msg = rg_vm_error(vm, &pc), *path;
      if (rg_log_locate(m, pc, &path, &line, &col) == 0) {
        rg_printf(err, "%s:%u:%u: error: ", path, line, col);
      } else {
        rg_puts(err, "regula: error: ");
      }
      rg_puts(err, msg && *msg ? msg : "the run failed");
      rg_puts(err, "\n");
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
  rg_buf out, log, err;
  rg_module m;
  uint64_t s;
  char *text = NULL;
  size_t len = 0;
  int rc;
  rg_buf_init(&out);
  rg_buf_init(&log);
  rg_buf_init(&err);
  if (parse_seed(seed, &s) != 0) {
    rg_puts(&err.out, "regula: error: --seed needs a whole number from 0 to 18446744073709551615\n");
    rc = 2;
  } else if (strcmp(policy, "random") != 0 && strcmp(policy, "first") != 0) {
    rg_puts(&err.out, "regula: error: --policy must be random or first here\n");
    rc = 2;
  } else if ((rc = compile_at(path, &m, &text, &len)) != 0) {
    if (text) rg_write(&err.out, text, len);
    rc = rc == -2 ? 3 : 2;
  } else {
    rc = run_main(&m, s, policy, &log.out, &err.out);
    rg_module_free(&m);
  }
  free(text);
  rg_json_put(&out.out, json_pack("{s:i,s:o,s:o}", "exit",
                                  log.out.failed || err.out.failed ? 3 : rc, "out",
                                  rg_json_textn(log.data, log.len), "err",
                                  rg_json_textn(err.data, err.len)), 0);
  rg_buf_free(&log);
  rg_buf_free(&err);
  return buf_take(&out);
}

/* Frees a string returned by rgw_check or rgw_run. */
void rgw_free(char *s) {
  rg_free(s);
}
