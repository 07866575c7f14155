/*
** out.c: writing text through a caller's callback (rg_out, rg_buf in
** regula.h).
**
** The library prints nothing itself: every renderer (diagnostics, values,
** the event log, sheet, diff, disassembly) writes to an rg_out the caller
** provides (the CLI's writes to a FILE*, the page's to a buffer handed to
** JavaScript).
*/
#include "regula.h"

#include <stdio.h>
#include <string.h>


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
