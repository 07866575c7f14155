/*
** diag.c: loading source files and printing diagnostics (see diag.h).
*/
#include "diag.h"
#include "alloc.h"

#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <utf8proc.h>

void rg_diag_init(rg_diag *d, FILE *out, rg_arena *arena) {
  memset(d, 0, sizeof *d);
  d->out = out;
  d->arena = arena;
  d->max_errors = 50;
}

/* Reports that memory ran out, once however many layers notice it (the
** file loader, then the compiler unwinding past it), and marks the arena
** failed so that callers can tell it from bad input. */
void rg_diag_oom(rg_diag *d) {
  d->arena->failed = true;
  if (d->oom) return;
  d->oom = 1;
  d->errors++;
  fputs("regula: error: out of memory\n", d->out);
}

/* Reports out of memory with rg_diag_oom (arena marked failed, the message
** printed once). */
static void diag_oom(rg_diag *d) {
  rg_diag_oom(d);
}

/* Returns the 1-based line and byte column of offset off in raw[0..n). */
static rg_pos raw_pos(uint32_t file, const char *raw, size_t off) {
  rg_pos p = { file, 1, 1 };
  for (size_t i = 0; i < off; i++) {
    if (raw[i] == '\n') { p.line++; p.col = 1; }
    else p.col++;
  }
  return p;
}

/* Registers a file with raw text as its display text, so that an error in
** validation can show the offending line; from is where it was asked for
** (NULL: the command line).  Returns 0 and the new index in *index, or -1
** after reporting. */
static int add_file(rg_diag *d, const char *path, const rg_pos *from, char *text,
                    size_t len, uint32_t *index) {
  rg_file *f;
  if (d->nfiles >= RG_MAX_FILES) {
    /* Said once, at the first clause that asks for one more. */
    if (d->full++) d->errors++;
    else if (from) rg_error(d, *from, "too many source files (limit %d)", RG_MAX_FILES);
    else rg_error_plain(d, "too many source files (limit %d)", RG_MAX_FILES);
    return -1;
  }
  f = rg_arena_alloc(d->arena, sizeof *f);
  if (!f) { diag_oom(d); return -1; }
  f->path = rg_arena_strdup(d->arena, path);
  if (!f->path) { diag_oom(d); return -1; }
  f->text = text;
  f->len = len;
  d->files[d->nfiles] = f;
  *index = d->nfiles++;
  return 0;
}

/* Computes the line table of f. Returns 0, or -1 when out of memory. */
static int index_lines(rg_diag *d, rg_file *f) {
  uint32_t n = 1;
  for (size_t i = 0; i < f->len; i++) n += f->text[i] == '\n';
  f->line_start = rg_arena_alloc(d->arena, n * sizeof *f->line_start);
  if (!f->line_start) return -1;
  f->nlines = 0;
  f->line_start[f->nlines++] = 0;
  for (size_t i = 0; i < f->len; i++)
    if (f->text[i] == '\n') f->line_start[f->nlines++] = (uint32_t)(i + 1);
  return 0;
}

/* rg_diag_add_text for a file asked for at from (NULL: not from a file). */
static int add_text(rg_diag *d, const char *path, const rg_pos *from, const char *text,
                    size_t len, uint32_t *index) {
  char *raw, *clean;
  size_t n = 0;
  uint32_t ix;
  rg_file *f;
  utf8proc_uint8_t *nfc = NULL;
  utf8proc_ssize_t nfclen;

  if (len > RG_MAX_SOURCE) {
    rg_error_plain(d, "%s: file too large (%zu bytes, limit %u)", path, len, RG_MAX_SOURCE);
    return -1;
  }
  raw = rg_arena_strndup(d->arena, text, len);
  if (!raw) { diag_oom(d); return -1; }
  if (add_file(d, path, from, raw, len, &ix)) return -1;
  f = d->files[ix];
  if (index_lines(d, f)) { diag_oom(d); return -1; }

  /* Validate: every byte sequence a code point, no NUL. */
  for (size_t i = 0; i < len;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)raw + i,
                                          (utf8proc_ssize_t)(len - i), &cp);
    if (k < 0) {
      rg_error(d, raw_pos(ix, raw, i), "invalid UTF-8 byte 0x%02X", (unsigned char)raw[i]);
      return -1;
    }
    if (cp == 0) {
      rg_error(d, raw_pos(ix, raw, i), "NUL byte in source");
      return -1;
    }
    i += (size_t)k;
  }

  /* Drop a BOM; turn CRLF into LF. */
  clean = rg_arena_alloc(d->arena, len + 1);
  if (!clean) { diag_oom(d); return -1; }
  {
    size_t i = 0;
    if (len >= 3 && memcmp(raw, "\xEF\xBB\xBF", 3) == 0) i = 3;
    for (; i < len; i++) {
      if (raw[i] == '\r' && i + 1 < len && raw[i + 1] == '\n') continue;
      clean[n++] = raw[i];
    }
    clean[n] = '\0';
  }

  /* Normalize to NFC. */
  nfclen = utf8proc_map((const utf8proc_uint8_t *)clean, (utf8proc_ssize_t)n, &nfc,
                        UTF8PROC_STABLE | UTF8PROC_COMPOSE);
  if (nfclen < 0) {
    rg_error_plain(d, "%s: cannot normalize text: %s", path, utf8proc_errmsg(nfclen));
    return -1;
  }
  f->text = rg_arena_strndup(d->arena, (const char *)nfc, (size_t)nfclen);
  free(nfc);   /* utf8proc allocates with malloc */
  if (!f->text) { diag_oom(d); return -1; }
  f->len = (size_t)nfclen;
  if (index_lines(d, f)) { diag_oom(d); return -1; }
  *index = ix;
  return 0;
}

int rg_diag_add_text(rg_diag *d, const char *path, const char *text, size_t len,
                     uint32_t *index) {
  return add_text(d, path, NULL, text, len, index);
}

int rg_diag_load(rg_diag *d, const char *path, const rg_pos *from, uint32_t *index) {
  FILE *fp = fopen(path, "rb");
  char *buf = NULL;
  size_t len = 0, cap = 0;
  int rc;
  if (!fp) {
    if (from) rg_error(d, *from, "cannot open %s: %s", path, strerror(errno));
    else rg_error_plain(d, "cannot open %s: %s", path, strerror(errno));
    return -1;
  }
  for (;;) {
    size_t got;
    if (cap - len < 4096) {
      char *nb;
      cap = cap ? cap * 2 : 8192;
      if (cap > (size_t)RG_MAX_SOURCE + 8192) {
        fclose(fp);
        rg_free(buf);
        if (from) rg_error(d, *from, "%s: file too large (limit %u bytes)", path, RG_MAX_SOURCE);
        else rg_error_plain(d, "%s: file too large (limit %u bytes)", path, RG_MAX_SOURCE);
        return -1;
      }
      nb = rg_realloc(buf, cap);
      if (!nb) {
        fclose(fp);
        rg_free(buf);
        diag_oom(d);
        return -1;
      }
      buf = nb;
    }
    got = fread(buf + len, 1, cap - len, fp);
    len += got;
    if (got == 0) break;
  }
  if (ferror(fp)) {
    fclose(fp);
    rg_free(buf);
    if (from) rg_error(d, *from, "cannot read %s", path);
    else rg_error_plain(d, "cannot read %s", path);
    return -1;
  }
  fclose(fp);
  rc = add_text(d, path, from, buf ? buf : "", len, index);
  rg_free(buf);
  return rc;
}

const char *rg_diag_line(const rg_diag *d, uint32_t file, uint32_t line, size_t *len) {
  const rg_file *f;
  size_t start, end;
  if (file >= d->nfiles || line == 0) return NULL;
  f = d->files[file];
  if (!f->line_start || line > f->nlines) return NULL;
  start = f->line_start[line - 1];
  end = start;
  while (end < f->len && f->text[end] != '\n') end++;
  *len = end - start;
  return f->text + start;
}

uint32_t rg_display_col(const char *line, size_t len, uint32_t col) {
  uint32_t w = 1;
  size_t i = 0, stop = col > 0 ? col - 1 : 0;
  if (stop > len) stop = len;
  while (i < stop) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)line + i,
                                          (utf8proc_ssize_t)(len - i), &cp);
    if (k <= 0) { w++; i++; continue; }
    if (cp == '\t') w++;
    else {
      int cw = utf8proc_charwidth(cp);
      w += (uint32_t)(cw > 0 ? cw : 0);
    }
    i += (size_t)k;
  }
  return w;
}

/* Prints the source line and a caret under display column of byte col. */
static void show_caret(rg_diag *d, rg_pos pos) {
  size_t len, i = 0, stop;
  const char *line = rg_diag_line(d, pos.file, pos.line, &len);
  if (!line) return;
  fputs("    ", d->out);
  /* Print the line, replacing bytes that are not valid UTF-8 with '?'. */
  while (i < len) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)line + i,
                                          (utf8proc_ssize_t)(len - i), &cp);
    if (k <= 0 || cp == 0) { fputc('?', d->out); i++; continue; }
    fwrite(line + i, 1, (size_t)k, d->out);
    i += (size_t)k;
  }
  fputs("\n    ", d->out);
  stop = pos.col > 0 ? pos.col - 1 : 0;
  if (stop > len) stop = len;
  for (i = 0; i < stop;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)line + i,
                                          (utf8proc_ssize_t)(len - i), &cp);
    if (k <= 0) { fputc(' ', d->out); i++; continue; }
    if (cp == '\t') fputc('\t', d->out);
    else {
      int cw = utf8proc_charwidth(cp);
      for (int j = 0; j < cw; j++) fputc(' ', d->out);
    }
    i += (size_t)k;
  }
  fputs("^\n", d->out);
}

/* rg_error with a va_list (consumed): counts the error and, while within
** d->max_errors, prints path:line:col (display column), the message, the
** source line and a caret; says so when the limit is reached. */
void rg_verror(rg_diag *d, rg_pos pos, const char *fmt, va_list ap) {
  size_t len;
  const char *line;
  uint32_t col = pos.col;
  d->errors++;
  if (d->errors > d->max_errors) return;
  line = rg_diag_line(d, pos.file, pos.line, &len);
  if (line) col = rg_display_col(line, len, pos.col);
  fprintf(d->out, "%s:%u:%u: error: ",
          pos.file < d->nfiles ? d->files[pos.file]->path : "?", pos.line, col);
  vfprintf(d->out, fmt, ap);
  fputc('\n', d->out);
  show_caret(d, pos);
  if (d->errors == d->max_errors)
    fprintf(d->out, "regula: too many errors, stopping here\n");
}

void rg_error(rg_diag *d, rg_pos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rg_verror(d, pos, fmt, ap);
  va_end(ap);
}

void rg_error_plain(rg_diag *d, const char *fmt, ...) {
  va_list ap;
  if (strcmp(fmt, "out of memory") == 0) {
    rg_diag_oom(d);
    return;
  }
  d->errors++;
  if (d->errors > d->max_errors) return;
  fputs("regula: error: ", d->out);
  va_start(ap, fmt);
  vfprintf(d->out, fmt, ap);
  va_end(ap);
  fputc('\n', d->out);
}
