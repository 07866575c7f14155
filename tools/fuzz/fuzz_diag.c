/*
** fuzz_diag.c: diagnostics rendering (rg_diagnostic_render) on arbitrary
** records, through the public API (regula.h).
**
** The input is one diagnostic: its first 17 bytes the severity, whether it
** is located, the line, the column, the end column and the byte column
** (any 32-bit values, so columns past the line and inside a character
** happen), then the message up to the first NUL, then the source line
** (its newlines, which the API's callers never pass, made spaces).  The
** rendering must keep its promises whatever the record says:
**   - a located diagnostic with a source line prints exactly three lines:
**     the position, the line (or its excerpt around the caret), the caret;
**   - the shown line holds no control character (a tab aside), no C1
**     control and no bidirectional override: the terminal shows what the
**     rule file says, nothing it could be made to do; nor does the header
**     (newlines aside), whose message is shown through rg_write_shown;
**   - the caret line is blanks (spaces and tabs) and one '^';
**   - both lines are bounded (an excerpt of a long line, not the line).
** Any promise broken aborts.
*/
#include "fuzz.h"

#include "regula_front.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

static uint32_t u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Aborts unless s[0..n) is a safe line of text: valid UTF-8 (bad bytes were
** to be shown as '?'), no control character but a tab, no C1 control, no
** bidirectional override. */
static void check_safe(const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(n - i), &cp);
    if (k <= 0) abort();
    if (cp != '\t' && (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0x202a && cp <= 0x202e) ||
                       (cp >= 0x2066 && cp <= 0x2069)))
      abort();
    i += (size_t)k;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 17) return 0;
  rg_diagnostic d;
  memset(&d, 0, sizeof d);
  d.severity = data[0] & 1 ? RG_SEVERITY_NOTE : RG_SEVERITY_ERROR;
  d.located = (data[0] & 2) != 0;
  d.path = "fuzz.rules";
  d.line = u32(data + 1);
  d.col = u32(data + 5);
  d.end_col = u32(data + 9);
  d.byte_col = u32(data + 13);
  /* small columns are the interesting ones: keep the raw value one time in four */
  if (data[0] & 0x0c) {
    d.col %= 300;
    d.end_col %= 300;
    d.byte_col %= 300;
  }
  const uint8_t *rest = data + 17, *end = data + size;
  const uint8_t *nul = memchr(rest, 0, (size_t)(end - rest));
  size_t mlen = nul ? (size_t)(nul - rest) : (size_t)(end - rest);
  char *msg = malloc(mlen + 1);
  size_t slen = nul ? (size_t)(end - nul - 1) : 0;
  char *src = malloc(slen + 1);
  if (!msg || !src) abort();
  memcpy(msg, rest, mlen);
  msg[mlen] = 0;
  if (slen) memcpy(src, nul + 1, slen);
  for (size_t i = 0; i < slen; i++)
    if (src[i] == '\n') src[i] = ' ';
  src[slen] = 0;
  d.message = msg;
  d.source_line = nul && (data[0] & 0x10) == 0 ? src : NULL;
  d.source_len = slen;

  /* the header line (path, numbers, message: each byte shown as at most
  ** four, \xNN) plus two bounded lines */
  size_t bound = 4 * mlen + 128 + 2 * 2048;
  rg_buf b;
  rg_buf_init(&b);
  rg_diagnostic_render(&d, &b.out);
  if (b.out.failed || b.len == 0 || b.len > bound || b.data[b.len - 1] != '\n') abort();
  if (d.located && d.source_line) {
    /* the three lines: the header (the message shown through
    ** rg_write_shown, which keeps its newlines: found by its size), the
    ** text, the caret */
    rg_buf h;
    rg_buf_init(&h);
    rg_printf(&h.out, "%s:%u:%u: %s: ", d.path, d.line, d.col,
              d.severity == RG_SEVERITY_NOTE ? "note" : "error");
    rg_write_shown(&h.out, msg, mlen, RG_SHOWN_LINES);
    rg_putc(&h.out, '\n');
    size_t head = h.len;
    if (h.out.failed || head > b.len || memcmp(h.data, b.data, head) != 0) abort();
    rg_buf_free(&h);
    /* the header holds no control character but newlines and tabs */
    for (const char *l = b.data; l < b.data + head;) {
      const char *e = memchr(l, '\n', (size_t)(b.data + head - l));
      check_safe(l, (size_t)(e - l));
      l = e + 1;
    }
    const char *text = b.data + head, *stop = b.data + b.len;
    const char *tnl = memchr(text, '\n', (size_t)(stop - text));
    if (!tnl || strncmp(text, "    ", 4) != 0) abort();
    if ((size_t)(tnl - text) > 8 + 4 * 161 + 3) abort();
    check_safe(text, (size_t)(tnl - text));
    const char *caret = tnl + 1;
    if (stop - caret < 2 || stop[-2] != '^' || (size_t)(stop - caret) > 8 + 2 * 161 + 2) abort();
    for (const char *c = caret; c < stop - 2; c++)
      if (*c != ' ' && *c != '\t') abort();
  }
  rg_buf_free(&b);
  free(msg);
  free(src);
  return 0;
}
