/*
** out.c: writing text through a caller's callback (rg_out, rg_buf in
** regula.h).
**
** The library prints nothing itself: every renderer (diagnostics, values,
** the event log, sheet, diff, disassembly) writes to an rg_out the caller
** provides (the CLI's writes to a FILE*, the page's to a buffer handed to
** JavaScript).
*/
#include "regula_front.h"
#include "outwatch.h"

#include <stdio.h>
#include <string.h>
#include <utf8proc.h>


void rg_write(rg_out *o, const char *s, size_t n) {
  if (o->failed || n == 0) return;
  if (o->write(o->ctx, s, n) != 0) o->failed = 1;
}

void rg_puts(rg_out *o, const char *s) {
  rg_write(o, s, strlen(s));
}

void rg_putc(rg_out *o, int c) {
  char ch = (char)c;
  rg_write(o, &ch, 1);
}

void rg_vprintf(rg_out *o, const char *fmt, va_list ap) {
  char small[512];
  va_list again;
  int n;
  if (o->failed) return;
  va_copy(again, ap);
  n = vsnprintf(small, sizeof small, fmt, ap);
  if (n < 0) {
    o->failed = 1;
  } else if ((size_t)n < sizeof small) {
    rg_write(o, small, (size_t)n);
  } else {
    char *big = rg_malloc((size_t)n + 1);
    if (!big) {
      o->failed = 1;
    } else {
      vsnprintf(big, (size_t)n + 1, fmt, again);
      rg_write(o, big, (size_t)n);
      rg_free(big);
    }
  }
  va_end(again);
}

void rg_printf(rg_out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rg_vprintf(o, fmt, ap);
  va_end(ap);
}

/* The watch's write callback: writes s[0..n) through to the caller's out
** (the rgi_watch ctx), unless it has failed, marking it failed when its
** write fails; returns 0 always, the caller's failure being no failure of
** the library's. */
static int watch_write(void *ctx, const char *s, size_t n) {
  rgi_watch *w = ctx;
  if (!w->to->failed && w->to->write(w->to->ctx, s, n) != 0) w->to->failed = 1;
  return 0;
}

rg_out *rgi_watch_begin(rgi_watch *w, rg_out *to) {
  w->to = to;
  w->out.write = watch_write;
  w->out.ctx = w;
  w->out.failed = 0;
  return &w->out;
}

rg_status rgi_watch_end(const rgi_watch *w, rg_status st) {
  if (st == RG_NOMEM || w->out.failed) return RG_NOMEM;
  if (st != RG_OK) return st;
  return w->to->failed ? RG_IO : RG_OK;
}

/* Returns whether code point c is one a terminal acts on or that reorders
** text: a C1 control (U+0080..U+009F: U+009B is a CSI) or a bidirectional
** embedding, override or isolate (U+202A..U+202E, U+2066..U+2069). */
static int unsafe_point(utf8proc_int32_t c) {
  return (c >= 0x80 && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

size_t rg_write_shown(rg_out *o, const char *s, size_t n, int flags) {
  static const char hex[] = "0123456789abcdef";
  size_t i = 0, run = 0;       /* s[run..i) is safe and not yet written */
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    char esc[12];
    size_t k = 1;
    if (c >= 0x20 && c < 0x7f) { i++; continue; }
    if ((c == '\n' || c == '\t') && (flags & RG_SHOWN_LINES)) { i++; continue; }
    if (c == 0x1b && (flags & RG_SHOWN_SGR) && i + 1 < n && s[i + 1] == '[') {
      size_t j = i + 2;          /* a colour: ESC [ digits and ; m */
      while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == ';')) j++;
      if (j < n && s[j] == 'm') { i = j + 1; continue; }
    }
    if (c >= 0x80) {
      utf8proc_int32_t cp;
      utf8proc_ssize_t m = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                            (utf8proc_ssize_t)(n - i), &cp);
      if (m <= 0 && (flags & RG_SHOWN_PARTIAL)) {
        /* a sequence cut by the end of s waits for the next write */
        size_t need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0, j = i + 1;
        while (j < n && ((unsigned char)s[j] & 0xc0) == 0x80) j++;
        if (need && j == n && n - i < need) break;
      }
      if (m > 0 && !unsafe_point(cp)) { i += (size_t)m; continue; }
      if (m > 0) {
        snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
        k = (size_t)m;
      }
    }
    if (k == 1) {                /* a control byte, DEL, a byte that is not UTF-8 */
      esc[0] = '\\', esc[1] = 'x', esc[2] = hex[c >> 4], esc[3] = hex[c & 15], esc[4] = 0;
    }
    rg_write(o, s + run, i - run);
    rg_puts(o, esc);
    i += k;
    run = i;
  }
  rg_write(o, s + run, i - run);
  return i;
}

/* rg_buf's write callback: appends s[0..n) to the buffer, growing it. */
static int buf_write(void *ctx, const char *s, size_t n) {
  rg_buf *b = ctx;
  if (n + 1 > b->cap - b->len || !b->data) {
    size_t cap = b->cap ? b->cap : 256;
    char *p;
    while (cap - b->len < n + 1) {
      if (cap > ((size_t)-1) / 2) return -1;
      cap *= 2;
    }
    p = rg_realloc(b->data, cap);
    if (!p) return -1;
    b->data = p;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
  return 0;
}

void rg_buf_init(rg_buf *b) {
  memset(b, 0, sizeof *b);
  b->out.write = buf_write;
  b->out.ctx = b;
}

void rg_buf_free(rg_buf *b) {
  rg_free(b->data);
  rg_buf_init(b);
}
