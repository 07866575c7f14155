/*
** fuzz_lsp.c: the language server's frame reader (tools/lsp_frame.c) on
** arbitrary bytes.
**
** The input's first byte picks how the bytes arrive (in reads of 1 byte,
** of a few, or all at once, as a pipe may give them); the rest, X, is what
** the client sent, followed by a blank line and two well-formed frames
** whose bodies are {"s":1} and {"s":2}.  A small body limit (4096 bytes)
** brings the over-the-limit paths within reach.  Promises, any broken one
** aborting:
**   - each call of lsp_frame_next consumes at least one byte or ends the
**     input: the reader never spins;
**   - a frame's body is at most the limit, and is a run of bytes of the
**     input;
**   - whatever X is, the last frame read is the second sentinel: after a
**     bad frame the reader finds the next good one;
**   - lsp_frame_id reads any body without fault (an integer or a string).
*/
#define _GNU_SOURCE            /* memmem */
#include "fuzz.h"

#include "lsp_frame.h"
#include "regula_front.h"

#include <stdlib.h>
#include <string.h>

/* The bytes served to the reader, and how. */
typedef struct feed {
  const char *data;
  size_t size, at;
  uint32_t rng;
  int mode;                 /* 0: one byte, 1: 1..16 bytes, 2: all that fit */
} feed;

/* lsp_read_fn over a feed. */
static size_t feed_read(void *ctx, char *buf, size_t size) {
  feed *f = ctx;
  size_t n = f->size - f->at;
  if (f->mode == 0 && n > 1) n = 1;
  if (f->mode == 1) {
    f->rng = f->rng * 1103515245u + 12345u;
    if (n > 1 + (f->rng >> 16) % 16) n = 1 + (f->rng >> 16) % 16;
  }
  if (n > size) n = size;
  memcpy(buf, f->data + f->at, n);
  f->at += n;
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char tail[] = "\r\n\r\nContent-Length: 7\r\n\r\n{\"s\":1}Content-Length: 7\r\n\r\n{\"s\":2}";
  size_t n = size ? size - 1 : 0, calls = 0;
  char *in = malloc(n + sizeof tail);
  lsp_reader r;
  feed f;
  char last[16] = "";
  if (!in) abort();
  if (n) memcpy(in, data + 1, n);
  memcpy(in + n, tail, sizeof tail - 1);
  memset(&f, 0, sizeof f);
  f.data = in;
  f.size = n + sizeof tail - 1;
  f.mode = size ? data[0] % 3 : 2;
  f.rng = size ? data[0] : 0;
  memset(&r, 0, sizeof r);
  r.read = feed_read;
  r.ctx = &f;
  r.max = 4096;
  for (;;) {
    const char *body, *why;
    size_t len, before = f.at - (r.len - r.pos);
    lsp_frame_status st = lsp_frame_next(&r, &body, &len, &why);
    json_t *id;
    if (st == LSP_FRAME_END) break;
    if (f.at - (r.len - r.pos) <= before) abort();          /* no progress */
    if (++calls > f.size + 1) abort();
    if (st == LSP_FRAME_OK) {
      if (len > r.max) abort();
      if (len && !memmem(in, f.size, body, len)) abort();
      snprintf(last, sizeof last, "%.*s", len < 15 ? (int)len : 15, body);
    } else if (!why || !*why) {
      abort();
    }
    if ((id = lsp_frame_id(body, len))) {
      if (!json_is_integer(id) && !json_is_string(id)) abort();
      json_decref(id);
    }
  }
  if (strcmp(last, "{\"s\":2}") != 0) abort();
  lsp_reader_free(&r);
  free(in);
  return 0;
}
