/*
** draw.c: pictures.  `regula draw FILE PROCEDURE ARG...` runs a procedure
** (arguments parsed as `regula call` parses them, seeded as call is) and
** writes the pictures its shape statements drew as SVG (pictures.c); the
** picture options (--svg OUT, --map-svg OUT, --picture NAME[=OUT]) are
** shared with `regula run`.  On regula.h alone; nothing here knows a game.
*/
#include "cmd_rules.h"
#include "exitcode.h"
#include "fileout.h"
#include "pictures.h"

#include <stdio.h>
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
  "Example: regula draw tests/svg/shapes.rules shapes A --svg shapes.svg\n"
  "Exit: 0, 1 an expect failed, 2 a bad procedure, argument or picture name,\n"
  "3 a runtime error, a bad shape (a style with a forbidden character, a\n"
  "shape before any canvas) or a file that cannot be written.\n";

/* call_run's done: writes the pictures the request ctx asks for. */
static int write_drawn(void *ctx, rg_rules *r, rg_run *run) {
  return pictures_write(rg_run_drawn(run), ctx, call_fault, r);
}

int draw_main(const char *path, const char *proc, const char *const *args, int nargs,
              const rg_run_options *limits, const picture_request *rq) {
  return call_run("draw", path, proc, args, nargs, limits, 1, write_drawn, (void *)rq);
}
