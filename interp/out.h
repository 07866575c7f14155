/*
** out.h: where the library's text goes.
**
** The library prints nothing itself: every renderer (diagnostics, values,
** the event log, sheet, diff, disassembly) writes to an rg_out, a write
** callback the caller provides (the CLI's writes to a FILE*, the page's to
** a buffer handed to JavaScript).  A failed write is remembered, so a
** renderer can go on writing and the caller checks `failed` once at the end.
**
** rg_buf is a growable memory buffer with an rg_out that appends to it, for
** callers that want the text as a string.
*/
#ifndef RG_OUT_H
#define RG_OUT_H

#include <stdarg.h>
#include <stddef.h>

#include "regula.h"

/* rg_out itself (a write callback, its context, a failed flag) is public:
** see regula.h. */

/* Writes s[0..n) to o (nothing once o has failed). */
void rg_write(rg_out *o, const char *s, size_t n);

/* Writes the NUL-terminated s to o. */
void rg_puts(rg_out *o, const char *s);

/* Writes one byte to o. */
void rg_putc(rg_out *o, int c);

/* Writes printf-style text to o (any length: long text is formatted into a
** heap buffer; when that fails, o is marked failed). */
void rg_printf(rg_out *o, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;
void rg_vprintf(rg_out *o, const char *fmt, va_list ap);

/* A growable byte buffer, always NUL-terminated when len > 0. */
typedef struct rg_buf {
  char *data;               /* rg_malloc'd; NULL until something is written */
  size_t len, cap;
  rg_out out;               /* writes append to the buffer */
} rg_buf;

/* Sets b up empty, with b->out appending to it. */
void rg_buf_init(rg_buf *b);

/* Frees b's data and empties it. */
void rg_buf_free(rg_buf *b);

#endif
