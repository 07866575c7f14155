/*
** fileout.c: the CLI's plain input and output, on regula.h alone (see
** fileout.h).
*/
#include "fileout.h"
#include "exitcode.h"
#include "outputs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* rg_out callback: writes s[0..n) to the FILE* ctx; returns 0, or -1 on a
** short write. */
static int file_write(void *ctx, const char *s, size_t n) {
  return fwrite(s, 1, n, (FILE *)ctx) == n ? 0 : -1;
}

/* A terminal's stream (stdout, stderr) written through rg_write_shown:
** its flags, and the start of a UTF-8 sequence that one write cut, kept
** for the next.  One per stream, for the life of the program. */
typedef struct shown_stream {
  int flags;
  size_t npending;
  char pending[4];
} shown_stream;

static shown_stream shown_out = { RG_SHOWN_LINES, 0, "" },
                    shown_colour = { RG_SHOWN_LINES | RG_SHOWN_SGR, 0, "" },
                    shown_err = { RG_SHOWN_LINES, 0, "" };

/* rg_out callback: writes s[0..n) to the stream of the shown_stream ctx
** (stdout for shown_out and shown_colour, stderr for shown_err) with
** rg_write_shown.  Returns 0, or -1 on a short write or out of memory. */
static int shown_write(void *ctx, const char *s, size_t n) {
  shown_stream *st = ctx;
  rg_out raw = { file_write, st == &shown_err ? stderr : stdout, 0 };
  char *joined = NULL;
  size_t used;
  if (st->npending) {
    if (!(joined = malloc(st->npending + n))) {
      /* no failure of the stream, which main would report: say why here */
      fputs("regula: error: out of memory\n", stderr);
      return -1;
    }
    memcpy(joined, st->pending, st->npending);
    memcpy(joined + st->npending, s, n);
    s = joined;
    n += st->npending;
  }
  used = rg_write_shown(&raw, s, n, st->flags | RG_SHOWN_PARTIAL);
  st->npending = n - used;                  /* at most 3 bytes */
  memcpy(st->pending, s + used, st->npending);
  free(joined);
  return raw.failed ? -1 : 0;
}

rg_out cli_file_out(FILE *f) {
  rg_out o = { file_write, f, 0 };
  if (f == stdout) o = (rg_out){ shown_write, &shown_out, 0 };
  else if (f == stderr) o = (rg_out){ shown_write, &shown_err, 0 };
  return o;
}

rg_out cli_colour_out(void) {
  rg_out o = { shown_write, &shown_colour, 0 };
  return o;
}

int cli_written(rg_status st) {
  if (st == RG_OK) return EX_OK;
  if (st == RG_IO) return EX_RUNTIME;
  if (st != RG_NOMEM) return -1;
  fflush(stdout);
  fputs("regula: error: out of memory\n", stderr);
  return EX_RUNTIME;
}

/* cli_watch's write callback: writes s[0..n) through to the watch's `to`
** (the cli_watch ctx) unless it has failed, marking it failed when its
** write fails; returns 0. */
static int watch_write(void *ctx, const char *s, size_t n) {
  cli_watch *w = ctx;
  rg_write(&w->to, s, n);
  return 0;
}

rg_out *cli_watch_init(cli_watch *w, rg_out to) {
  w->to = to;
  w->out = (rg_out){ watch_write, w, 0 };
  return &w->out;
}

rg_status cli_watch_status(const cli_watch *w) {
  return w->out.failed ? RG_NOMEM : w->to.failed ? RG_IO : RG_OK;
}

void cli_veprintf(const char *fmt, va_list ap) {
  rg_out o = cli_file_out(stderr);
  char small[1024], *big = NULL;
  va_list again;
  int n;
  /* formatted here with malloc, not rg_vprintf: a message must get out
  ** even while a test makes the library's allocations fail */
  va_copy(again, ap);
  n = vsnprintf(small, sizeof small, fmt, ap);
  if (n >= (int)sizeof small && (big = malloc((size_t)n + 1)) != NULL)
    vsnprintf(big, (size_t)n + 1, fmt, again);
  va_end(again);
  if (n > 0) {
    size_t len = big ? (size_t)n : (size_t)n < sizeof small ? (size_t)n : sizeof small - 1;
    rg_write(&o, big ? big : small, len);
  }
  free(big);
}

void cli_eprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cli_veprintf(fmt, ap);
  va_end(ap);
}

int cli_read_stdin(char **text, size_t *len) {
  size_t cap = 0;
  *text = NULL;
  *len = 0;
  for (;;) {
    size_t got;
    if (*len + 1 >= cap) {
      char *nb = cap > (size_t)RG_MAX_SOURCE ? NULL : rg_realloc(*text, cap = cap ? 2 * cap : 8192);
      if (!nb) {
        fputs(cap > (size_t)RG_MAX_SOURCE ? "regula: error: -: file too large\n"
                                          : "regula: error: out of memory\n", stderr);
        rg_free(*text);
        *text = NULL;
        return -1;
      }
      *text = nb;
    }
    got = fread(*text + *len, 1, cap - *len - 1, stdin);
    *len += got;
    if (got == 0) break;
  }
  (*text)[*len] = '\0';
  if (ferror(stdin)) {
    fputs("regula: error: cannot read standard input\n", stderr);
    rg_free(*text);
    *text = NULL;
    return -1;
  }
  return 0;
}

/* The diagnostics of one compile: printed on stderr, and counted. */
typedef struct diag_count {
  rg_out err;
  int n;
} diag_count;

/* An rg_diagnostic_fn: prints d on stderr and counts it in the diag_count
** *ctx. */
static void report(void *ctx, const rg_diagnostic *d) {
  diag_count *dc = ctx;
  rg_diagnostic_render(d, &dc->err);
  dc->n++;
}

static int cli_native_required(rg_rules *r);

int cli_rules_load(const char *path, int keep_sources, rg_rules **r) {
  diag_count dc = { cli_file_out(stderr), 0 };
  rg_compile_options opt = { .size = sizeof opt, .diagnostic = report, .diagnostic_ctx = &dc,
                             .keep_sources = keep_sources };
  rg_status st;
  *r = NULL;
  if (strcmp(path, "-") == 0) {           /* a rule file on standard input */
    char *text;
    size_t len;
    if (cli_read_stdin(&text, &len) != 0) return 3;
    st = rg_rules_compile("-", text, len, &opt, r);
    rg_free(text);
  } else {
    st = rg_rules_load(path, &opt, r);
  }
  if (st == RG_NOMEM && dc.n == 0) fputs("regula: error: out of memory\n", stderr);
  else if (st != RG_OK && dc.n == 0) cli_eprintf("regula: error: %s: cannot compile\n", path);
  /* only now are the files it extends and its tables read known: an
  ** output of the command must be none of them */
  if (st == RG_OK && cli_outputs_over(*r, NULL) != EX_OK) {
    rg_rules_free(*r);
    *r = NULL;
    return EX_BAD;
  }
  /* REGULA_NATIVE=1: every command runs in the native tier, and one that
  ** cannot is a failure (the differential test, tests/native.sh, runs the
  ** golden tests so) */
  const char *nat = getenv("REGULA_NATIVE");
  if (st == RG_OK && nat && strcmp(nat, "1") == 0) return cli_native_required(*r);
  return st == RG_OK ? 0 : st == RG_NOMEM ? 3 : 2;
}

int cli_file_save(const char *path, const void *data, size_t len) {
  rg_buf why;
  rg_status st;
  rg_buf_init(&why);
  st = rg_file_save(path, data ? data : "", len, 0644, &why.out);
  if (st != RG_OK)
    cli_eprintf("regula: error: %s\n", why.out.failed || !why.data ? "out of memory" : why.data);
  rg_buf_free(&why);
  return st == RG_OK ? 0 : -1;
}

/* Finds program name (with a '/': as given) on PATH; returns its path
** (malloc'd), or NULL. */
static char *find_program(const char *name) {
  const char *path = getenv("PATH");
  if (!name || !*name) return NULL;
  if (strchr(name, '/')) {
    char *p = NULL;
    if (access(name, X_OK) != 0) return NULL;
    if (name[0] == '/') return strdup(name);
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd) || !(p = malloc(strlen(cwd) + strlen(name) + 2))) return NULL;
    sprintf(p, "%s/%s", cwd, name);
    return p;
  }
  if (!path) path = "/usr/bin:/bin";
  while (*path) {
    const char *end = strchr(path, ':');
    size_t n = end ? (size_t)(end - path) : strlen(path);
    if (n > 0 && n < 4000) {
      char buf[4200];
      snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, name);
      if (buf[0] == '/' && access(buf, X_OK) == 0) return strdup(buf);
    }
    path += n;
    if (*path == ':') path++;
  }
  return NULL;
}

/* cli_native for r; with required, a fallback to the VM is an error (exit
** 3).  Returns an exit code. */
static int native_on(rg_rules *r, int required) {
  const char *want = getenv("REGULA_CC"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  char *cc = find_program(want && *want ? want : "cc"), dir[4200], note[512];
  rg_native_options no;
  if (xdg && xdg[0] == '/') snprintf(dir, sizeof dir, "%s/regula/native", xdg);
  else if (home && home[0] == '/') snprintf(dir, sizeof dir, "%s/.cache/regula/native", home);
  else dir[0] = '\0';
  memset(&no, 0, sizeof no);
  no.size = sizeof no;
  no.cc = cc ? cc : (want && *want ? want : "cc");
  no.cache_dir = dir;
  rg_status st = rg_rules_native(r, &no, note, sizeof note);
  free(cc);
  if (st != RG_OK) {
    fputs("regula: error: out of memory\n", stderr);
    return 3;
  }
  if (strstr(note, "the VM runs")) {
    cli_eprintf("regula: %s: --native: %s\n", required ? "error" : "note", note);
    if (required) return 3;
  }
  return 0;
}

int cli_native(rg_rules *r) {
  return native_on(r, 0);
}

/* cli_native, where falling back to the VM is an error (REGULA_NATIVE=1). */
static int cli_native_required(rg_rules *r) {
  return native_on(r, 1);
}

int cli_rules_no_table(const rg_rules *r, const char *name) {
  int n = rg_rules_count(r, RG_TABLE);
  cli_eprintf("regula: error: no table '%s'; ", name);
  if (n == 0) fputs("the rule set has no tables\n", stderr);
  else {
    fputs("tables: ", stderr);
    for (int i = 0; i < n; i++) cli_eprintf("%s%s", i ? ", " : "", rg_rules_item(r, RG_TABLE, i));
    fputc('\n', stderr);
  }
  return 2;
}

int cli_rules_proc(const rg_rules *r, const char *cmd, const char *name, int nargs) {
  int pi = rg_rules_find(r, RG_PROC, name), n = 0, np;
  char tn[128];
  if (pi < 0) {
    cli_eprintf("regula: error: no procedure '%s'; ", name);
    for (int i = 0; i < rg_rules_count(r, RG_PROC); i++) {
      cli_eprintf("%s%s", n++ ? ", " : "procedures: ", rg_rules_item(r, RG_PROC, i));
    }
    fputs(n ? "\n" : "the rule set has no procedures\n", stderr);
    return -1;
  }
  if (nargs == (np = rg_rules_arity(r, RG_PROC, pi))) return pi;
  cli_eprintf("regula: error: procedure '%s' takes %d argument%s (", name, np,
          np == 1 ? "" : "s");
  for (int k = 0; k < np; k++)
    cli_eprintf("%s%s: %s", k ? ", " : "", rg_rules_param(r, pi, k),
            rg_rules_type(r, RG_PROC, pi, k, tn, sizeof tn));
  cli_eprintf("), got %d\ntry 'regula %s --help'\n", nargs, cmd);
  return -1;
}

int cli_rules_counted(const rg_rules *r, const char *cmd, const char *name,
                      const char *const *args, int nargs) {
  char tn[128];
  rg_status st;
  int pi = cli_rules_proc(r, cmd, name, nargs);
  if (pi < 0) return -1;
  if (!rg_rules_type(r, RG_PROC, pi, -1, tn, sizeof tn)) {
    cli_eprintf("regula: error: procedure '%s' has no result to count\n", name);
    return -1;
  }
  if ((st = rg_rules_check_args(r, name, args, nargs)) != RG_OK) {
    cli_eprintf("regula: error: %s\n", st == RG_NOMEM ? "out of memory" : rg_rules_errmsg(r));
    return st == RG_NOMEM ? -2 : -1;
  }
  return pi;
}
