/*
** draw.c: pictures.  `regula draw FILE PROCEDURE ARG...` runs a procedure
** (arguments parsed as `regula call` parses them) and writes the pictures
** its shape statements drew as SVG; the picture options (--svg OUT,
** --map-svg OUT, --picture NAME[=OUT]) are shared with `regula run`.
** The SVG itself is interp/svg.c's business; nothing here knows a game.
*/
#include "regula.h"
#include "cli.h"
#include "fileout.h"
#include "svg.h"
#include "value.h"
#include "vm.h"

#include <stdlib.h>
#include <string.h>

const char draw_help[] =
  "Runs PROCEDURE with the arguments (parsed by the parameters' types, as\n"
  "`regula call` does) and writes the pictures its canvas, rect, line,\n"
  "circle, polygon and label statements drew, each as a self-contained SVG\n"
  "file.  Without an output file the picture is written to stdout.\n"
  "\n"
  "  --svg OUT.svg            the first picture (or --picture NAME's)\n"
  "  --picture NAME           which picture --svg (or stdout) gets\n"
  "  --picture NAME=OUT.svg   the picture whose canvas is called NAME\n"
  "  --map-svg OUT.svg        the picture called \"map\"\n"
  "\n"
  "The same options work with `regula run`.  Files are written through a\n"
  "temporary file, so a failure never leaves a partial one.\n"
  "\n"
  "Example: regula draw rules/ninthage/deployment.rules draw_zones Encircle --svg encircle.svg\n"
  "Exit: 0, 1 an expect failed, 2 a bad procedure, argument or picture name,\n"
  "3 a runtime error, a bad shape (a style with a forbidden character, a\n"
  "shape before any canvas) or a file that cannot be written.\n";

/* ---- options --------------------------------------------------------------- */

/* Adds a picture to write. */
static int add_out(opts *o, int argc, const char *name, const char *path) {
  if (!o->pictures && !(o->pictures = rg_malloc((size_t)argc * sizeof *o->pictures))) {
    fputs("regula: error: out of memory\n", stderr);
    return -EX_RUNTIME;
  }
  o->pictures[o->npictures].name = name;
  o->pictures[o->npictures].path = path;
  o->npictures++;
  return 1;
}

int picture_option(const char *cmd, int which, const char *v, int argc, opts *o) {
  static const char *const names[] = { "--svg", "--map-svg", "--picture" };
  int k = which;
  if (!*v) return -usage_error(cmd, "option %s needs a value", names[k]);
  if (k == 0) return add_out(o, argc, NULL, v);
  if (k == 1) return add_out(o, argc, "map", v);
  {
    char *eq = strchr(v, '=');
    if (!eq) {
      o->picture = v;
      return 1;
    }
    if (eq == v || !eq[1])
      return -usage_error(cmd, "--picture needs NAME or NAME=OUT.svg, not '%s'", v);
    *eq = '\0';   /* the argument (argv's own) is ours to split */
    return add_out(o, argc, v, eq + 1);
  }
}

/* ---- choosing and writing pictures ----------------------------------------- */

/* Writes the names of the pictures to stderr. */
static void list_pictures(const rg_svg *svg) {
  uint32_t n = rg_svg_count(svg);
  if (n == 0) {
    fputs("no canvas was drawn\n", stderr);
    return;
  }
  fputs("pictures: ", stderr);
  for (uint32_t i = 0; i < n; i++) fprintf(stderr, "%s%s", i ? ", " : "", rg_svg_name(svg, i));
  fputc('\n', stderr);
}

/* The index of picture name (NULL: o->picture, else the first), or -1 after
** saying what is missing. */
static int pick(const rg_svg *svg, const opts *o, const char *name) {
  int i;
  if (!name) name = o->picture;
  if (!name) {
    if (rg_svg_count(svg) > 0) return 0;
    fputs("regula: error: the procedure drew no picture: ", stderr);
    list_pictures(svg);
    return -1;
  }
  i = rg_svg_find(svg, name);
  if (i < 0) {
    fprintf(stderr, "regula: error: no picture '%s'; ", name);
    list_pictures(svg);
  }
  return i;
}

int write_pictures(rg_svg *svg, const rg_module *m, const opts *o, const char *cmd,
                   int to_stdout) {
  uint32_t pc = UINT32_MAX;
  const char *msg;
  char err[1200];
  int i;
  if (!svg) return EX_OK;
  if ((msg = rg_svg_error(svg, &pc))) {
    report_runtime(m, msg, pc);
    return EX_RUNTIME;
  }
  if (o->npictures == 0) {
    if (!to_stdout)
      return usage_error(cmd, "--picture NAME chooses the picture of --svg OUT.svg; give one, or --picture NAME=OUT.svg");
    rg_out out = cli_file_out(stdout);
    if ((i = pick(svg, o, NULL)) < 0) return EX_BAD;
    if (rg_svg_write(svg, (uint32_t)i, &out) != 0) {
      fputs("regula: error: cannot write the picture\n", stderr);
      return EX_RUNTIME;
    }
    return EX_OK;
  }
  /* Every name first: a missing picture writes nothing. */
  for (int k = 0; k < o->npictures; k++)
    if (pick(svg, o, o->pictures[k].name) < 0) return EX_BAD;
  for (int k = 0; k < o->npictures; k++) {
    i = pick(svg, o, o->pictures[k].name);
    if (rg_svg_save(svg, (uint32_t)i, o->pictures[k].path, err, sizeof err) != 0) {
      fprintf(stderr, "regula: error: %s\n", err);
      return EX_RUNTIME;
    }
  }
  return EX_OK;
}

/* ---- regula draw ------------------------------------------------------------ */

typedef struct draw_ctx {
  rg_vm *vm;
  rg_svg *svg;
  int failed;               /* expectations failed */
} draw_ctx;

/* rg_sink shape: adds the shape to the draw_ctx ctx's collection. */
static void on_shape(void *ctx, const rg_module *m, uint32_t note, const rg_value *vals,
                     uint32_t pc) {
  draw_ctx *c = ctx;
  rg_svg_add_run(c->svg, c->vm, m, note, vals, pc);
}

/* rg_sink expect_fail: counts the failed expectation in draw_ctx ctx. */
static void on_expect_fail(void *ctx, const rg_module *m, uint32_t expect, rg_value actual,
                           rg_value expected, uint32_t pc) {
  draw_ctx *c = ctx;
  (void)m, (void)expect, (void)actual, (void)expected, (void)pc;
  c->failed++;
}

/* Runs procedure o->pos[1] of l with the arguments o->pos[2..] and writes
** its pictures.  Returns an exit code. */
static int draw(loaded *l, opts *o) {
  const rg_module *m = &l->m;
  const char *name = o->pos[1];
  int pi;
  rg_value *args = NULL, result = 0;
  draw_ctx ctx = { 0 };
  rg_sink sink = { .ctx = &ctx, .shape = on_shape, .expect_fail = on_expect_fail };
  int rc = EX_OK;

  pi = cli_resolve_proc(m, "draw", name, o->pos + 2, o->npos - 2, &args);
  if (pi < 0) return pi == -2 ? EX_RUNTIME : EX_BAD;
  ctx.svg = rg_svg_new();
  ctx.vm = ctx.svg ? rg_vm_new(m, &o->limits, &sink) : NULL;
  if (!ctx.vm) {
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  } else if (rg_vm_call(ctx.vm, (uint32_t)pi, args, &result) != RG_RUN_OK) {
    uint32_t pc = UINT32_MAX;
    const char *msg = rg_vm_error(ctx.vm, &pc);
    report_runtime(m, msg && *msg ? msg : "the run failed", pc);
    rc = EX_RUNTIME;
  } else {
    rc = write_pictures(ctx.svg, m, o, "draw", 1);
    if (rc == EX_OK && ctx.failed) rc = EX_FINDINGS;
  }
  rg_vm_free(ctx.vm);
  rg_svg_free(ctx.svg);
  rg_free(args);
  return rc;
}

/* regula draw FILE PROCEDURE ARG... [--svg OUT] ...: draws a procedure. */
int cmd_draw(opts *o) {
  loaded l;
  int rc;
  if (o->npos < 2)
    return usage_error("draw", o->npos ? "no procedure given" : "no rule file given");
  rc = load(&l, o->pos[0], 0);
  if (rc == EX_OK) rc = draw(&l, o);
  unload(&l);
  return rc;
}
