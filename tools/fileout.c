/*
** fileout.c: the CLI's rg_out over a stdio stream (see fileout.h).
*/
#include "fileout.h"

/* rg_out callback: writes s[0..n) to the FILE* ctx; returns 0, or -1 on a
** short write. */
static int file_write(void *ctx, const char *s, size_t n) {
  return fwrite(s, 1, n, (FILE *)ctx) == n ? 0 : -1;
}

rg_out cli_file_out(FILE *f) {
  rg_out o = { file_write, f, 0 };
  return o;
}
