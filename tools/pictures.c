/*
** pictures.c: writing the pictures a run drew (see pictures.h), on
** regula.h alone.  The SVG itself is the library's business.
*/
#include "pictures.h"
#include "exitcode.h"
#include "fileout.h"
#include "opts.h"

#include <stdio.h>

/* Writes the names of the pictures of p to stderr. */
static void list_pictures(const rg_pictures *p) {
  uint32_t n = rg_pictures_count(p);
  if (n == 0) {
    fputs("no canvas was drawn\n", stderr);
    return;
  }
  fputs("pictures: ", stderr);
  for (uint32_t i = 0; i < n; i++) cli_eprintf("%s%s", i ? ", " : "", rg_pictures_name(p, i));
  fputc('\n', stderr);
}

/* The index of picture name (NULL: rq->picture, else the first), or -1
** after saying what is missing. */
static int pick(const rg_pictures *p, const picture_request *rq, const char *name) {
  int i;
  if (!name) name = rq->picture;
  if (!name) {
    if (rg_pictures_count(p) > 0) return 0;
    fputs("regula: error: the procedure drew no picture: ", stderr);
    list_pictures(p);
    return -1;
  }
  i = rg_pictures_find(p, name);
  if (i < 0) {
    cli_eprintf("regula: error: no picture '%s'; ", name);
    list_pictures(p);
  }
  return i;
}

int pictures_write(const rg_pictures *p, const picture_request *rq, picture_fault_fn fault,
                   void *ctx) {
  const char *msg;
  rg_place at;
  int i;
  if (!p) return EX_OK;
  if ((msg = rg_pictures_error(p, &at))) {
    fault(ctx, msg, at.path, at.line, at.col);
    return EX_RUNTIME;
  }
  if (rq->nouts == 0) {
    rg_out out = cli_file_out(stdout);
    if (!rq->to_stdout)
      return usage_error(rq->cmd, "--picture NAME chooses the picture of --svg OUT.svg; give "
                                  "one, or --picture NAME=OUT.svg");
    if ((i = pick(p, rq, NULL)) < 0) return EX_BAD;
    /* the shapes were checked above: RG_OK, RG_IO or RG_NOMEM */
    return cli_written(rg_pictures_write(p, (uint32_t)i, &out));
  }
  /* Every name first: a missing picture writes nothing. */
  for (int k = 0; k < rq->nouts; k++)
    if (pick(p, rq, rq->outs[k].name) < 0) return EX_BAD;
  for (int k = 0; k < rq->nouts; k++) {
    i = pick(p, rq, rq->outs[k].name);
    rg_buf why;
    rg_status st;
    rg_buf_init(&why);
    st = rg_pictures_save(p, (uint32_t)i, rq->outs[k].path, &why.out);
    if (st != RG_OK)
      cli_eprintf("regula: error: %s\n", why.out.failed || !why.data ? "out of memory" : why.data);
    rg_buf_free(&why);
    if (st != RG_OK) return EX_RUNTIME;
  }
  return EX_OK;
}
