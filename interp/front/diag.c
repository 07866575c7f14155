/*
** diag.c: loading source files and reporting diagnostics as records (see
** diag.h); rendering a record as text (see regula.h).
*/
#include "diag.h"
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

void rgi_diag_init(rgi_diag *d, rgi_arena *arena, rg_diagnostic_fn report, void *ctx) {
  memset(d, 0, sizeof *d);
  d->report = report;
  d->report_ctx = ctx;
  d->kept_tail = &d->kept;
  d->arena = arena;
  d->max_errors = 50;
}

/* Hands record r to d's callback, or keeps a copy of it in d's arena (its
** message copied; the path and line live there already).  A copy that
** cannot be made is dropped and the arena marked failed. */
static void emit(rgi_diag *d, const rg_diagnostic *r) {
  rgi_diag_kept *k;
  if (d->report) {
    d->report(d->report_ctx, r);
    return;
  }
  k = rgi_arena_alloc(d->arena, sizeof *k);
  if (k) {
    k->rec = *r;
    k->rec.message = rgi_arena_strdup(d->arena, r->message);
  }
  if (!k || !k->rec.message) {
    d->arena->failed = true;
    return;
  }
  k->next = NULL;
  *d->kept_tail = k;
  d->kept_tail = &k->next;
}

/* Emits a diagnostic without a position: severity sev, message msg. */
static void emit_plain(rgi_diag *d, rg_severity sev, const char *msg) {
  rg_diagnostic r;
  memset(&r, 0, sizeof r);
  r.severity = sev;
  r.path = "?";
  r.message = msg;
  emit(d, &r);
}

/* Reports that memory ran out, once however many layers notice it (the
** file loader, then the compiler unwinding past it), and marks the arena
** failed so that callers can tell it from bad input. */
void rgi_diag_oom(rgi_diag *d) {
  d->arena->failed = true;
  if (d->oom) return;
  d->oom = 1;
  d->errors++;
  emit_plain(d, RG_SEVERITY_ERROR, "out of memory");
}

/* Reports out of memory with rgi_diag_oom (arena marked failed, the message
** printed once). */
static void diag_oom(rgi_diag *d) {
  rgi_diag_oom(d);
}

/* Returns the 1-based line and byte column of offset off in raw[0..n). */
static rgi_pos raw_pos(uint32_t file, const char *raw, size_t off) {
  rgi_pos p = { file, 1, 1 };
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
static int add_file(rgi_diag *d, const char *path, const rgi_pos *from, char *text,
                    size_t len, uint32_t *index) {
  rgi_file *f;
  if (d->nfiles >= RG_MAX_FILES) {
    /* Said once, at the first clause that asks for one more. */
    if (d->full++) d->errors++;
    else if (from) rgi_error(d, *from, "too many source files (limit %d)", RG_MAX_FILES);
    else rgi_error_plain(d, "too many source files (limit %d)", RG_MAX_FILES);
    return -1;
  }
  f = rgi_arena_alloc(d->arena, sizeof *f);
  if (!f) { diag_oom(d); return -1; }
  f->path = rgi_arena_strdup(d->arena, path);
  if (!f->path) { diag_oom(d); return -1; }
  f->text = text;
  f->len = len;
  d->files[d->nfiles] = f;
  *index = d->nfiles++;
  return 0;
}

/* Computes the line table of f. Returns 0, or -1 when out of memory. */
static int index_lines(rgi_diag *d, rgi_file *f) {
  uint32_t n = 1;
  for (size_t i = 0; i < f->len; i++) n += f->text[i] == '\n';
  f->line_start = rgi_arena_alloc(d->arena, n * sizeof *f->line_start);
  if (!f->line_start) return -1;
  f->nlines = 0;
  f->col_marks = NULL;
  f->line_start[f->nlines++] = 0;
  for (size_t i = 0; i < f->len; i++)
    if (f->text[i] == '\n') f->line_start[f->nlines++] = (uint32_t)(i + 1);
  return 0;
}

/* Sets f's text to text[0..n) in NFC (see add_text), normalizing line by
** line.  Returns 0, or -1 after reporting an error to d. */
static int nfc_lines(rgi_diag *d, const char *path, rgi_file *f, const char *text, size_t n) {
  char *out = NULL;
  size_t len = 0, cap = 0;
  for (size_t i = 0; i < n;) {
    size_t end = i, need = 0;
    while (end < n && text[end] != '\n') need |= (unsigned char)text[end++] >= 0xCC;
    if (end < n) end++;   /* the line feed goes with its line */
    const char *piece = text + i;
    size_t plen = end - i;
    utf8proc_uint8_t *nfc = NULL;
    if (need) {
      utf8proc_ssize_t k = utf8proc_map((const utf8proc_uint8_t *)piece, (utf8proc_ssize_t)plen,
                                        &nfc, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
      if (k < 0) {
        rg_free(out);
        rgi_error_plain(d, "%s: cannot normalize text: %s", path, utf8proc_errmsg(k));
        return -1;
      }
      piece = (const char *)nfc;
      plen = (size_t)k;
    }
    if (len + plen + 1 > cap) {
      size_t nc = cap ? cap : 4096;
      while (nc < len + plen + 1) nc *= 2;
      char *no = rg_realloc(out, nc);
      if (!no) {
        free(nfc);   /* utf8proc allocates with malloc */
        rg_free(out);
        diag_oom(d);
        return -1;
      }
      out = no;
      cap = nc;
    }
    memcpy(out + len, piece, plen);
    len += plen;
    free(nfc);
    i = end;
  }
  f->text = rgi_arena_strndup(d->arena, out ? out : "", len);
  rg_free(out);
  if (!f->text) { diag_oom(d); return -1; }
  f->len = len;
  return 0;
}

/* rgi_diag_add_text for a file asked for at from (NULL: not from a file). */
static int add_text(rgi_diag *d, const char *path, const rgi_pos *from, const char *text,
                    size_t len, uint32_t *index) {
  char *raw, *clean;
  size_t n = 0;
  uint32_t ix;
  rgi_file *f;

  if (len > RG_MAX_SOURCE) {
    rgi_error_plain(d, "%s: file too large (%zu bytes, limit %u)", path, len, RG_MAX_SOURCE);
    return -1;
  }
  raw = rgi_arena_strndup(d->arena, text, len);
  if (!raw) { diag_oom(d); return -1; }
  if (add_file(d, path, from, raw, len, &ix)) return -1;
  f = d->files[ix];
  if (index_lines(d, f)) { diag_oom(d); return -1; }

  /* Validate: every byte sequence a code point, no NUL, nothing unsafe
  ** (rgi_unsafe_char; CR only before LF), at most RG_MAX_MARKS combining
  ** marks in a row (utf8proc's NFC sorts a run of them in quadratic time;
  ** Unicode's stream-safe text has at most 30). */
  utf8proc_int32_t top = 0;   /* the greatest code point */
  for (size_t i = 0, marks = 0; i < len;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)raw + i,
                                          (utf8proc_ssize_t)(len - i), &cp);
    if (k < 0) {
      rgi_error(d, raw_pos(ix, raw, i), "invalid UTF-8 byte 0x%02X", (unsigned char)raw[i]);
      return -1;
    }
    if (cp == 0) {
      rgi_error(d, raw_pos(ix, raw, i), "NUL byte in source");
      return -1;
    }
    /* Nothing that could change what a terminal shows gets in: no string
    ** or comment can hold it, so no message or output prints it. */
    if (rgi_unsafe_char(cp) && !(cp == '\r' && i + 1 < len && raw[i + 1] == '\n')) {
      rgi_error(d, raw_pos(ix, raw, i), "unexpected character U+%04X (control and "
               "bidirectional formatting characters are not allowed)", (unsigned)cp);
      return -1;
    }
    if (cp > top) top = cp;
    marks = cp >= 0x300 && utf8proc_get_property(cp)->combining_class ? marks + 1 : 0;
    if (marks > RG_MAX_MARKS) {
      rgi_error(d, raw_pos(ix, raw, i), "more than %d combining marks in a row", RG_MAX_MARKS);
      return -1;
    }
    i += (size_t)k;
  }

  /* Drop a BOM; turn CRLF into LF. */
  clean = rgi_arena_alloc(d->arena, len + 1);
  if (!clean) { diag_oom(d); return -1; }
  {
    size_t i = 0;
    i = rgi_bom_len(raw, len);
    for (; i < len; i++) {
      if (raw[i] == '\r' && i + 1 < len && raw[i + 1] == '\n') continue;
      clean[n++] = raw[i];
    }
    clean[n] = '\0';
  }

  /* Normalize to NFC.  Text below U+0300 (the first combining mark) has
  ** nothing to compose or reorder, and a line feed is a stable code point
  ** (it never composes and no mark moves across it): so only the lines
  ** holding a code point from U+0300 on (a UTF-8 byte 0xCC or more) go
  ** through utf8proc, each on its own. */
  if (top < 0x300) {
    f->text = clean;
    f->len = n;
  } else if (nfc_lines(d, path, f, clean, n) != 0) {
    return -1;
  }
  if (index_lines(d, f)) { diag_oom(d); return -1; }
  *index = ix;
  return 0;
}

int rgi_diag_add_text(rgi_diag *d, const char *path, const char *text, size_t len,
                     uint32_t *index) {
  return add_text(d, path, NULL, text, len, index);
}

int rgi_diag_fetch(rgi_diag *d, const rg_loader *ld, const char *from, const char *name,
                  rg_load_kind kind, const rgi_pos *at, uint32_t *index) {
  rg_source src;
  char err[1024] = "";
  rg_status st;
  int rc;
  memset(&src, 0, sizeof src);
  st = ld->load(ld->ctx, from, name, kind, &src, err, sizeof err);
  if (!from && d->nfiles == 0) d->first_load = st;
  if (st == RG_NOMEM) {
    diag_oom(d);
    return -1;
  }
  if (st != RG_OK) {
    if (!err[0]) snprintf(err, sizeof err, "cannot load %s: %s", name, rg_status_name(st));
    if (at) rgi_error(d, *at, "%s", err);
    else rgi_error_plain(d, "%s", err);
    return -1;
  }
  {
    /* A file already read (another table from the same TSV) is read once:
    ** it counts once against RG_MAX_FILES. */
    const char *path = src.path ? src.path : name;
    uint32_t f;
    for (f = 0; f < d->nfiles; f++)
      if (strcmp(d->files[f]->path, path) == 0) break;
    if (f < d->nfiles && kind == RG_LOAD_TABLE) {
      *index = f;
      rc = 0;
    } else {
      rc = add_text(d, path, at, src.text ? src.text : "", src.len, index);
      if (rc == 0) d->tables[*index] = kind == RG_LOAD_TABLE;
    }
  }
  if (ld->release) ld->release(ld->ctx, &src);
  return rc;
}

int rgi_diag_load(rgi_diag *d, const char *path, const rgi_pos *at, uint32_t *index) {
  return rgi_diag_fetch(d, &rg_file_loader, NULL, path, RG_LOAD_RULES, at, index);
}

const char *rgi_diag_line(const rgi_diag *d, uint32_t file, uint32_t line, size_t *len) {
  const rgi_file *f;
  size_t start, end;
  if (file >= d->nfiles || line == 0) return NULL;
  f = d->files[file];
  if (!f->line_start || line > f->nlines) return NULL;
  start = f->line_start[line - 1];
  end = line < f->nlines ? f->line_start[line] - 1 : f->len;   /* its '\n' */
  *len = end - start;
  return f->text + start;
}

int rgi_unsafe_char(int32_t cp) {
  if (cp == '\t' || cp == '\n') return 0;
  return cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || (cp >= 0x202A && cp <= 0x202E)
      || (cp >= 0x2066 && cp <= 0x2069);
}

/* Returns the display width of the character at s[0..n) (n > 0) and stores
** its length in bytes in *k: bad UTF-8 (one byte), a tab and an unsafe
** character (shown as '?') are 1 wide. */
static uint32_t char_width(const char *s, size_t n, size_t *k) {
  utf8proc_int32_t cp;
  utf8proc_ssize_t m = utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &cp);
  int cw;
  if (m <= 0) { *k = 1; return 1; }
  *k = (size_t)m;
  if (cp == '\t' || rgi_unsafe_char(cp)) return 1;
  cw = utf8proc_charwidth(cp);
  return cw > 0 ? (uint32_t)cw : 0;
}

/* Returns w plus the display width of s[from..to), where the line ends at
** s[end] (to <= end). */
static uint32_t advance(const char *s, size_t from, size_t to, size_t end, uint32_t w) {
  for (size_t i = from, k; i < to; i += k) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7F) { w++; k = 1; continue; }   /* printable ASCII */
    w += char_width(s + i, end - i, &k);
  }
  return w;
}

uint32_t rgi_display_col(const char *line, size_t len, uint32_t col) {
  size_t stop = col > 0 ? col - 1 : 0;
  return advance(line, 0, stop < len ? stop : len, len, 1);
}

size_t rgi_text_width(const char *s) {
  return rgi_text_width_n(s, strlen(s));
}

size_t rgi_text_width_n(const char *s, size_t n) {
  return advance(s, 0, n, n, 0);
}

void rgi_put_cell(rg_out *out, const char *s, size_t w, int cut) {
  size_t len = strlen(s), i = 0, have = 0, k;
  if (cut) {
    while (i < len) {
      unsigned char c = (unsigned char)s[i];
      uint32_t cw;
      if (c >= 0x20 && c < 0x7F) { cw = 1; k = 1; }   /* printable ASCII */
      else cw = char_width(s + i, len - i, &k);
      if (have + cw > w) break;
      have += cw;
      i += k;
    }
    rg_write(out, s, i);
  } else {
    rg_puts(out, s);
    have = rgi_text_width_n(s, len);
  }
  for (; have < w; have++) rg_putc(out, ' ');
}

/* Marks f's text for rgi_diag_col: for each k, f->col_marks[2k] is the offset
** of the first character at or after byte k * RG_COL_STEP (or f->len) and
** f->col_marks[2k + 1] its display column in its line.  Returns 0, or -1
** when out of memory (reported). */
static int mark_cols(rgi_diag *d, rgi_file *f) {
  size_t n = f->len / RG_COL_STEP + 1, k = 0, i = 0;
  uint32_t w = 1, *m = rgi_arena_alloc(d->arena, 2 * n * sizeof *m);
  if (!m) { diag_oom(d); return -1; }
  while (i < f->len) {
    size_t c;
    for (; k < n && k * RG_COL_STEP <= i; k++) { m[2 * k] = (uint32_t)i; m[2 * k + 1] = w; }
    if (f->text[i] == '\n') { w = 1; i++; continue; }
    w += char_width(f->text + i, f->len - i, &c);
    i += c;
  }
  for (; k < n; k++) { m[2 * k] = (uint32_t)f->len; m[2 * k + 1] = w; }
  f->col_marks = m;
  return 0;
}

uint32_t rgi_diag_col(rgi_diag *d, uint32_t file, uint32_t line, uint32_t col) {
  rgi_file *f;
  size_t start, end, off, from;
  uint32_t w = 1;
  if (file >= d->nfiles || line == 0) return col;
  f = d->files[file];
  if (!f->line_start || line > f->nlines) return col;
  start = f->line_start[line - 1];
  end = line < f->nlines ? f->line_start[line] - 1 : f->len;
  off = start + (col > 0 ? col - 1 : 0);
  if (off > end) off = end;
  from = start;
  if (off - start >= RG_COL_STEP && (f->col_marks || mark_cols(d, f) == 0)) {
    /* The mark at or before off (the one of off's step, else the step
    ** before: off may be inside a character), when it is on this line. */
    size_t k = off / RG_COL_STEP;
    if (f->col_marks[2 * k] > off && k > 0) k--;
    if (f->col_marks[2 * k] <= off && f->col_marks[2 * k] >= start) {
      from = f->col_marks[2 * k];
      w = f->col_marks[2 * k + 1];
    }
  }
  return advance(f->text, from, off, end, w);
}

uint32_t rgi_byte_col(const char *line, size_t len, uint32_t dcol) {
  uint32_t w = 1;
  size_t i = 0, k;
  while (w < dcol && i < len) {
    w += char_width(line + i, len - i, &k);
    i += k;
  }
  return w == dcol ? (uint32_t)i + 1 : 0;
}

/* A line longer than 2 * RG_CARET_SIDE bytes is shown from RG_CARET_SIDE
** characters before the caret to RG_CARET_SIDE after it, with "..." where
** it is cut: an error on a long line prints a bounded excerpt. */
#define RG_CARET_SIDE 80

/* Writes line[from..to) (the line ends at line[len]), each unsafe character
** (rgi_unsafe_char) or byte of bad UTF-8 as '?'. */
static void put_text(rg_out *out, const char *line, size_t from, size_t to, size_t len) {
  for (size_t i = from; i < to;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)line + i,
                                          (utf8proc_ssize_t)(len - i), &cp);
    if (k <= 0 || rgi_unsafe_char(cp)) { rg_putc(out, '?'); i += k > 0 ? (size_t)k : 1; continue; }
    rg_write(out, line + i, (size_t)k);
    i += (size_t)k;
  }
}

/* Writes the blanks under line[from..to) as put_text shows it: a tab under
** a tab, a space per display column of everything else. */
static void put_blank(rg_out *out, const char *line, size_t from, size_t to, size_t len) {
  for (size_t i = from, k; i < to; i += k) {
    uint32_t w = char_width(line + i, len - i, &k);
    if (line[i] == '\t') rg_putc(out, '\t');
    else while (w--) rg_putc(out, ' ');
  }
}

/* Returns the byte offset just past the token that starts at byte offset
** i of line[0..len): a name or number (letters, digits, '_', '.', and any
** byte of a multibyte character), a string up to its closing quote, or else
** one character. */
static size_t token_end(const char *line, size_t len, size_t i) {
  unsigned char c;
  if (i >= len) return i;
  c = (unsigned char)line[i];
  if (c == '"') {
    for (i++; i < len && line[i] != '"'; i++)
      if (line[i] == '\\' && i + 1 < len) i++;
    return i < len ? i + 1 : len;
  }
  if (c == '_' || c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) {
    while (i < len) {
      c = (unsigned char)line[i];
      if (!(c == '_' || c == '.' || c >= 0x80 || (c >= '0' && c <= '9') ||
            ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')))
        break;
      i++;
    }
    return i;
  }
  {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)line + i,
                                          (utf8proc_ssize_t)(len - i), &cp);
    return i + (k > 0 ? (size_t)k : 1);
  }
}

/* Formats fmt/ap into buf[0..size) or, when longer, into an rg_malloc'd
** string stored in *big (the caller frees it).  Returns the text, or NULL
** when out of memory. */
static const char *format(char *buf, size_t size, char **big, const char *fmt, va_list ap) {
  va_list again;
  int n;
  *big = NULL;
  va_copy(again, ap);
  n = vsnprintf(buf, size, fmt, ap);
  if (n >= 0 && (size_t)n >= size && (*big = rg_malloc((size_t)n + 1)) != NULL)
    vsnprintf(*big, (size_t)n + 1, fmt, again);
  va_end(again);
  if (n < 0) return "?";
  return (size_t)n < size ? buf : *big;
}

/* rgi_error with a va_list (consumed): counts the error and, while within
** d->max_errors, emits its record (columns in display width, the source
** line); emits the note "too many errors, stopping here" after the last. */
void rgi_verror(rgi_diag *d, rgi_pos pos, const char *fmt, va_list ap) {
  char buf[1024], *big;
  rg_diagnostic r;
  size_t len = 0;
  const char *line;
  d->errors++;
  /* After "out of memory" an error may come of what could not be kept (a
  ** name the lexer could not copy reads as ''): only the first is said. */
  if (d->oom || d->errors > d->max_errors) return;
  memset(&r, 0, sizeof r);
  r.severity = RG_SEVERITY_ERROR;
  r.located = 1;
  r.file = pos.file;
  r.path = pos.file < d->nfiles ? d->files[pos.file]->path : "?";
  r.line = pos.line;
  r.col = r.end_col = pos.col;
  r.byte_col = pos.col;
  line = rgi_diag_line(d, pos.file, pos.line, &len);
  if (line) {
    size_t b = pos.col > 0 ? pos.col - 1 : 0;
    size_t t = token_end(line, len, b < len ? b : len);
    r.col = rgi_diag_col(d, pos.file, pos.line, pos.col);   /* linear on long lines */
    r.end_col = advance(line, b < len ? b : len, t, len, r.col);
    r.source_line = line;
    r.source_len = len;
  }
  if (r.end_col <= r.col) r.end_col = r.col + 1;
  r.message = format(buf, sizeof buf, &big, fmt, ap);
  if (!r.message) {
    rgi_diag_oom(d);
    return;
  }
  emit(d, &r);
  rg_free(big);
  if (d->errors == d->max_errors) emit_plain(d, RG_SEVERITY_NOTE, "too many errors, stopping here");
}

void rgi_error(rgi_diag *d, rgi_pos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rgi_verror(d, pos, fmt, ap);
  va_end(ap);
}

void rgi_error_plain(rgi_diag *d, const char *fmt, ...) {
  char buf[1024], *big;
  const char *msg;
  va_list ap;
  if (strcmp(fmt, "out of memory") == 0) {
    rgi_diag_oom(d);
    return;
  }
  d->errors++;
  if (d->oom || d->errors > d->max_errors) return;   /* see rgi_verror */
  va_start(ap, fmt);
  msg = format(buf, sizeof buf, &big, fmt, ap);
  va_end(ap);
  if (!msg) {
    rgi_diag_oom(d);
    return;
  }
  emit_plain(d, RG_SEVERITY_ERROR, msg);
  rg_free(big);
}

/* Returns the byte offset of the character that ends at byte offset i > 0
** of line, as put_text reads characters: a valid UTF-8 sequence of up to 4
** bytes ending at i, else the one bad byte before i.  (Walking back over
** every continuation byte instead would take a run of bad bytes as one
** character, and an excerpt of a long line as the whole line.) */
static size_t prev_char(const char *line, size_t i) {
  for (size_t n = 2; n <= 4 && n <= i; n++) {
    utf8proc_int32_t cp;
    if (utf8proc_iterate((const utf8proc_uint8_t *)line + i - n, (utf8proc_ssize_t)n, &cp) ==
        (utf8proc_ssize_t)n)
      return i - n;
  }
  return i - 1;
}

/* Returns the byte offset just past the character at byte offset i < len of
** line, as put_text reads it (a bad byte is one character). */
static size_t next_char(const char *line, size_t i, size_t len) {
  utf8proc_int32_t cp;
  utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)line + i,
                                        (utf8proc_ssize_t)(len - i), &cp);
  return i + (k > 0 ? (size_t)k : 1);
}

/* Writes the source line of r (or, for a long line, its excerpt around the
** caret: RG_CARET_SIDE characters either side, "..." where it is cut), each
** unsafe character or bad byte as '?', then a caret under r's column. */
static void show_caret(const rg_diagnostic *r, rg_out *o) {
  const char *line = r->source_line;
  size_t len = r->source_len, from = 0, to, c;
  c = r->byte_col > 0 ? r->byte_col - 1 : 0;
  if (c > len) c = len;
  to = len;
  if (len > 2 * RG_CARET_SIDE) {
    from = c;
    for (int n = 0; n < RG_CARET_SIDE && from > 0; n++) from = prev_char(line, from);
    to = c;
    for (int n = 0; n < RG_CARET_SIDE && to < len; n++) to = next_char(line, to, len);
  }
  rg_puts(o, from > 0 ? "    ..." : "    ");
  put_text(o, line, from, to, len);
  rg_puts(o, to < len ? "...\n    " : "\n    ");
  if (from > 0) rg_puts(o, "   ");
  put_blank(o, line, from, c, len);
  rg_puts(o, "^\n");
}

void rg_diagnostic_render(const rg_diagnostic *r, rg_out *o) {
  const char *sev = r->severity == RG_SEVERITY_NOTE ? "note" : "error";
  const char *path = r->path ? r->path : "?";
  /* the path and the message may quote a file name or an argument */
  if (!r->located) {
    rg_puts(o, "regula: ");
    if (r->severity != RG_SEVERITY_NOTE) rg_printf(o, "%s: ", sev);
  } else {
    rg_write_shown(o, path, strlen(path), 0);
    rg_printf(o, ":%u:%u: %s: ", r->line, r->col, sev);
  }
  rg_write_shown(o, r->message, strlen(r->message), RG_SHOWN_LINES);
  rg_putc(o, '\n');
  if (r->located && r->source_line) show_caret(r, o);
}

void rg_diagnostic_print(void *ctx, const rg_diagnostic *r) {
  rg_diagnostic_render(r, ctx);
}

void rgi_diag_runtime(const rgi_diag *src, const char *msg, const char *path, uint32_t line,
                     uint32_t col, rg_out *out) {
  const char *text = NULL;
  uint32_t ix = 0, b = 0;
  size_t len = 0;
  if (!path) {
    rg_printf(out, "regula: error: %s\n", msg);
    return;
  }
  if (src)
    for (ix = 0; ix < src->nfiles; ix++)
      if (strcmp(src->files[ix]->path, path) == 0) break;
  if (src && ix < src->nfiles) text = rgi_diag_line(src, ix, line, &len);
  /* the position holds a display column; the diagnostics take a byte one */
  if (text) b = rgi_byte_col(text, len, col);
  if (b) {
    rgi_diag d = *src;           /* a copy, to render one error to out */
    rgi_pos pos = { ix, line, b };
    d.report = rg_diagnostic_print;   /* renders to the rg_out report_ctx */
    d.report_ctx = out;
    d.errors = 0;
    d.max_errors = 2;
    rgi_error(&d, pos, "%s", msg);
  } else {
    rg_printf(out, "%s:%u:%u: error: %s\n", path, line, col, msg);
  }
}

size_t rgi_bom_len(const char *text, size_t len) {
  return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}
