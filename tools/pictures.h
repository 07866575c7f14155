/*
** pictures.h: writing the pictures a run drew (--svg OUT, --map-svg OUT,
** --picture NAME[=OUT]) for draw, run and run at the table, on regula.h
** alone (pictures.c).
*/
#ifndef RG_PICTURES_H
#define RG_PICTURES_H

#include <stdint.h>

#include "regula_front.h"

/* A picture to write: name NULL for the first one (or --picture NAME's). */
typedef struct picture_out {
  const char *name;
  const char *path;
} picture_out;

/* What the command line asks of the pictures. */
typedef struct picture_request {
  const picture_out *outs;  /* --svg, --map-svg, --picture NAME=OUT, in order */
  int nouts;
  const char *picture;      /* --picture NAME: the picture --svg (or stdout) gets */
  const char *cmd;          /* the command, for its usage errors */
  int to_stdout;            /* no file named: the picture goes to stdout (draw);
                            ** else that is a usage error (run) */
} picture_request;

/* Says on stderr that a shape was wrong: msg at path:line:col (ctx is the
** caller's; see pictures_write). */
typedef void (*picture_fault_fn)(void *ctx, const char *msg, const char *path, uint32_t line,
                                 uint32_t col);

/* Writes the pictures rq asks for from p (NULL: nothing drawn, nothing
** asked: EX_OK).  A wrong shape is reported through fault(ctx, ...).
** Returns EX_OK, or EX_BAD (no such picture, bad options) / EX_RUNTIME (a
** shape was wrong, a file could not be written) after saying what is
** wrong.  Every name is checked before any file is written. */
int pictures_write(const rg_pictures *p, const picture_request *rq, picture_fault_fn fault,
                   void *ctx);

/* regula draw FILE PROCEDURE ARG... (draw.c): runs proc of path's rules
** with args[0..nargs) as `regula call` does (limits: max_steps,
** max_memory, no_fusion) and writes the pictures rq asks for.  Returns the
** exit code. */
int draw_main(const char *path, const char *proc, const char *const *args, int nargs,
              const rg_run_options *limits, const picture_request *rq);
extern const char draw_help[];

#endif
