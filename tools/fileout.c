/*
** fileout.c: the CLI's plain input and output (see fileout.h).
*/
#include "fileout.h"

#include <stdlib.h>

/* rg_out callback: writes s[0..n) to the FILE* ctx; returns 0, or -1 on a
** short write. */
static int file_write(void *ctx, const char *s, size_t n) {
  return fwrite(s, 1, n, (FILE *)ctx) == n ? 0 : -1;
}

rg_out cli_file_out(FILE *f) {
  rg_out o = { file_write, f, 0 };
  return o;
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
