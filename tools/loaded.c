/*
** loaded.c: a rule set loaded as a module, for the commands that still
** work on the library's internals (sim, odds; see cli.h): loading and
** unloading, runtime errors shown with their source line, values printed,
** procedures found and their arguments parsed, their inputs set up.  The
** commands on regula.h alone load through fileout.c.
*/
#include "regula.h"
#include "cli.h"
#include "compile.h"
#include "diag.h"
#include "evlog.h"
#include "fileout.h"
#include "ask.h"
#include "inputs.h"
#include "module.h"
#include "value.h"

#include <stdio.h>
#include <string.h>

/* Prints "regula: error: PATH: MSG" for a message of the module loader or
** writer, which may already start with "PATH: " (then it is not doubled). */
static void path_error(const char *path, const char *msg) {
  size_t n = strlen(path);
  if (!*msg) msg = "failed";
  if (strncmp(msg, path, n) == 0 && msg[n] == ':') fprintf(stderr, "regula: error: %s\n", msg);
  else fprintf(stderr, "regula: error: %s: %s\n", path, msg);
}

/* Diagnostic callback: prints d on stderr as the program shows it (ctx is
** unused). */
void cli_report(void *ctx, const rg_diagnostic *d) {
  rg_out err = cli_file_out(stderr);
  (void)ctx;
  rg_diagnostic_render(d, &err);
}

rg_limits cli_limits(const opts *o) {
  rg_limits lim = { .max_steps = o->max_steps, .max_memory = o->max_memory,
                    .no_fusion = o->no_fusion };
  return lim;
}

/* ---- loading a rule set ------------------------------------------------ */

/* The rule sets this process compiled, each with the diagnostics that keep
** the text of every source file it read: a runtime error shows its source
** line from these only.  A module loaded from a .rbc names source paths
** that are only data: they are never opened (a crafted module could name
** any file, a FIFO or a terminal).  Filled by load, emptied by unload. */
enum { MAX_SOURCES = 16 };
static struct { const rg_module *m; const rg_diag *d; } sources[MAX_SOURCES];

/* Adds (m, d) to sources (d NULL: removes m's entry). */
static void set_sources(const rg_module *m, const rg_diag *d) {
  for (int i = 0; i < MAX_SOURCES; i++)
    if (d ? !sources[i].m : sources[i].m == m) {
      sources[i].m = d ? m : NULL;
      sources[i].d = d;
      return;
    }
}

/* Compiles (or, for a .rbc, loads and verifies) path into l, reporting
** errors on stderr; collects assumption notes when want_assumptions.
** Returns EX_OK, EX_BAD, or EX_RUNTIME when memory ran out.  Whatever it
** returns, the caller frees l with unload. */
int load(loaded *l, const char *path, int want_assumptions) {
  memset(l, 0, sizeof *l);
  rg_arena_init(&l->arena, 0);
  rg_diag_init(&l->diag, &l->arena, cli_report, NULL);
  if (rg_module_is_rbc(path)) {
    char err[256] = "";
    rg_status st = rg_module_load(&l->m, path, err, sizeof err);
    if (st != RG_OK) {
      path_error(path, err[0] ? err : "cannot load the module");
      return st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
    }
    return EX_OK;
  }
  l->compiled = 1;
  if (strcmp(path, "-") == 0) {           /* a rule file on standard input */
    char *text;
    size_t len;
    int rc;
    if (cli_read_stdin(&text, &len) != 0) return EX_RUNTIME;
    rc = rg_compile_source(&l->diag, "-", text, len, NULL, &l->m,
                           want_assumptions ? &l->assumptions : NULL);
    rg_free(text);
    if (rc != 0) {
      if (l->diag.errors == 0) fputs("regula: error: -: cannot compile\n", stderr);
      return l->arena.failed ? EX_RUNTIME : EX_BAD;
    }
  } else if (rg_compile(&l->diag, path, &l->m, want_assumptions ? &l->assumptions : NULL) != 0) {
    if (l->diag.errors == 0) fprintf(stderr, "regula: error: %s: cannot compile\n", path);
    return l->arena.failed ? EX_RUNTIME : EX_BAD;
  }
  set_sources(&l->m, &l->diag);
  return EX_OK;
}

/* Frees everything load made. */
void unload(loaded *l) {
  if (l->compiled) set_sources(&l->m, NULL);
  rg_module_free(&l->m);
  rg_arena_free(&l->arena);
  l->assumptions = NULL;
}

/* ---- run-time errors ----------------------------------------------------- */

/* Finds where instruction pc came from: the source path, line and display
** column.  Returns 0, or -1 when the line table does not say. */
int locate(const rg_module *m, uint32_t pc, const char **path, uint32_t *line,
                  uint32_t *col) {
  return rg_log_locate(m, pc, path, line, col);
}

/* Reports a runtime error of m at pc on stderr as "path:line:col: error:
** msg", with the source line and a caret under the column (as compile
** errors print) when m was compiled by this process from that source, else
** without them. */
/* Reports msg at path:line:col (path NULL: no place) of m on stderr, with
** the source line when m was compiled by this process. */
static void report_at(const rg_module *m, const char *msg, const char *path, uint32_t line,
                      uint32_t col) {
  const rg_diag *src = NULL;
  rg_out err = cli_file_out(stderr);
  fflush(stdout);
  for (int i = 0; i < MAX_SOURCES && !src; i++)
    if (sources[i].m == m) src = sources[i].d;
  rg_diag_runtime(src, msg, path, line, col, &err);
}

void report_runtime(const rg_module *m, const char *msg, uint32_t pc) {
  const char *path;
  uint32_t line, col;
  if (locate(m, pc, &path, &line, &col) != 0) path = NULL;
  report_at(m, msg, path, line, col);
}

/* Returns 1 when procedure p of m is the body of a test. */
int is_test_proc(const rg_module *m, uint32_t p) {
  return rg_module_is_test(m, p);
}

/* Writes "name: type" of every parameter of procedure p, joined by ", ",
** to stderr. */
void print_params(const rg_module *m, const rg_proc *p) {
  char tn[128];
  for (uint32_t i = 0; i < p->nparams && p->first_param + i < m->nparams; i++) {
    const rg_param_info *pi = &m->params[p->first_param + i];
    fprintf(stderr, "%s%s: %s", i ? ", " : "", rg_module_str(m, pi->name),
            rg_type_name(tn, sizeof tn, m, pi->type));
  }
}

/* ---- procedures ---------------------------------------------------------- */

int cli_resolve_proc(const rg_module *m, const char *cmd, const char *name, char **args, int nargs,
                  rg_value **out) {
  int pi = rg_module_find_proc(m, name);
  char err[512], tn[128];
  if (pi < 0 || is_test_proc(m, (uint32_t)pi)) {
    int n = 0;
    fprintf(stderr, "regula: error: no procedure '%s'; ", name);
    for (uint32_t i = 0; i < m->nprocs; i++) {
      if (is_test_proc(m, i)) continue;
      fprintf(stderr, "%s%s", n++ ? ", " : "procedures: ", rg_module_str(m, m->procs[i].name));
    }
    fputs(n ? "\n" : "the rule set has no procedures\n", stderr);
    return -1;
  }
  const rg_proc *p = &m->procs[pi];
  if ((uint32_t)nargs != p->nparams) {
    fprintf(stderr, "regula: error: procedure '%s' takes %u argument%s (", name, p->nparams,
            p->nparams == 1 ? "" : "s");
    print_params(m, p);
    fprintf(stderr, "), got %d\ntry 'regula %s --help'\n", nargs, cmd);
    return -1;
  }
  rg_value *a = rg_malloc((p->nparams ? p->nparams : 1) * sizeof *a);
  if (!a) {
    fputs("regula: error: out of memory\n", stderr);
    return -2;
  }
  a[0] = 0;
  for (uint32_t i = 0; i < p->nparams; i++) {
    const rg_param_info *par = &m->params[p->first_param + i];
    err[0] = '\0';
    if (rg_value_parse(m, par->type, args[i], &a[i], err, sizeof err) != 0) {
      fprintf(stderr, "regula: error: argument %u (%s: %s) of '%s': %s\n", i + 1,
              rg_module_str(m, par->name), rg_type_name(tn, sizeof tn, m, par->type), name,
              err[0] ? err : "not a valid value");
      rg_free(a);
      return -1;
    }
  }
  *out = a;
  return pi;
}

int cli_resolve_result(const rg_module *m, const char *cmd, const char *name, char **args,
                       int nargs, rg_value **out) {
  int pi = rg_module_find_proc(m, name);
  if (pi >= 0 && !is_test_proc(m, (uint32_t)pi) && (uint32_t)nargs == m->procs[pi].nparams &&
      m->procs[pi].result.kind == RG_K_VOID) {
    fprintf(stderr, "regula: error: procedure '%s' has no result to count\n", name);
    return -1;
  }
  return cli_resolve_proc(m, cmd, name, args, nargs, out);
}

/* ---- inputs and policies of the commands on a module (sim, odds) ------------ */

/* Prints the message in b as "regula: error: MSG" on stderr. */
static void print_error(rg_buf *b) {
  fprintf(stderr, "regula: error: %s\n", b->data ? b->data : "out of memory");
}

int cli_setup(rg_setup *s, const rg_module *m, const char *inputs, const char *const *sets,
              int nsets) {
  rg_buf err;
  int rc = 0;
  if (rg_setup_init(s, m) != 0) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  rg_buf_init(&err);
  if (inputs) {
    char *text = NULL;
    size_t len = 0;
    int frc = ask_read_file(inputs, &text, &len);
    if (frc != EX_OK) {
      rg_buf_free(&err);
      return frc;
    }
    rc = rg_setup_lines(s, text, len, inputs, &err.out);
    rg_free(text);
  }
  for (int i = 0; rc == 0 && i < nsets; i++) {
    char where[64];
    snprintf(where, sizeof where, "--set %.50s", sets[i]);
    rc = rg_setup_set(s, sets[i], where, &err.out);
  }
  if (rc == -1 || rc == -3) print_error(&err);
  else if (rc == -2) fputs("regula: error: out of memory\n", stderr);
  rg_buf_free(&err);
  return rc == 0 ? EX_OK : rc == -2 ? EX_RUNTIME : EX_BAD;
}

int cli_strategy(const char *cmd, const rg_module *m, const char *policy,
                 const char *const *allowed, uint32_t *strategy) {
  rg_buf names;
  int si;
  *strategy = 0;
  if (!policy || (strncmp(policy, "answers:", 8) == 0 && policy[8])) return EX_OK;
  for (int k = 0; allowed[k]; k++)
    if (strcmp(policy, allowed[k]) == 0) return EX_OK;
  if ((si = rg_module_find_strategy(m, policy)) >= 0) {
    *strategy = (uint32_t)si + 1;
    return EX_OK;
  }
  rg_buf_init(&names);
  for (int k = 0; allowed[k]; k++) rg_printf(&names.out, "%s, ", allowed[k]);
  rg_puts(&names.out, "answers:FILE");
  if (m->nstrategies) {
    rg_puts(&names.out, " or a strategy of the rules (");
    for (uint32_t i = 0; i < m->nstrategies; i++)
      rg_printf(&names.out, "%s%s", i ? ", " : "", rg_module_str(m, m->strategies[i].name));
    rg_puts(&names.out, ")");
  } else {
    rg_puts(&names.out, " (the rules declare no strategy)");
  }
  int rc = usage_error(cmd, "--policy must be %s, not '%s'", names.out.failed ? "..." : names.data,
                       policy);
  rg_buf_free(&names);
  return rc;
}

int cli_load_setup(loaded *l, rg_setup *s, const char *path, const char *inputs,
                   const char *const *sets, int nsets) {
  int rc = load(l, path, 1);
  memset(s, 0, sizeof *s);
  if (rc == EX_OK) rc = cli_setup(s, &l->m, inputs, sets, nsets);
  return rc;
}

int cli_write_chart(const char *path, const char *title, const char *const *names,
                    uint32_t nseries, const rg_chart *charts, uint32_t n) {
  rg_buf b;
  char err[512];
  int rc = EX_OK;
  rg_buf_init(&b);
  rg_chart_svg(&b.out, title, names, nseries, charts, n);
  if (b.out.failed) {
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  } else if (rg_file_save(path, b.data, b.len, 0644, err, sizeof err) != 0) {
    fprintf(stderr, "regula: error: %s\n", err);
    rc = EX_RUNTIME;
  }
  rg_buf_free(&b);
  return rc;
}
