/*
** lsp_frame.h: the framing of the language server's messages (the Base
** Protocol of LSP: headers, a blank line, a body of Content-Length bytes),
** read from any source of bytes, so that `regula lsp` reads stdin through
** it and tools/fuzz/fuzz_lsp.c reads its input through it.
**
** A bad frame never silences the reader: it says what was wrong, hands
** back what it took to be that frame's body (to answer its id, if one can
** be read), and finds the next frame:
**   - header names are matched without regard to case (`content-length`);
**   - a Content-Length that is missing, negative, not a number, over the
**     limit, or given twice with different values: the frame is bad, and
**     the reader looks for the next `Content-Length:` header;
**   - bytes that are not a frame (garbage between frames, or the body of a
**     frame whose length was unusable) are skipped up to the next
**     `Content-Length:`;
**   - a body cut short by the next frame's header (a Content-Length larger
**     than what was sent) ends where that header begins: a line
**     `Content-Length: N` cannot occur in a JSON text, whose strings hold
**     no raw line feed and whose other tokens no letters.
*/
#ifndef LSP_FRAME_H
#define LSP_FRAME_H

#include <jansson.h>
#include <stddef.h>

/* Reads up to size bytes into buf; returns how many (0 at the end of the
** input, or on an error).  It may return fewer than size (a pipe's read). */
typedef size_t (*lsp_read_fn)(void *ctx, char *buf, size_t size);

/* A frame reader.  Set read, ctx and max (the largest body accepted; 0:
** 64 MiB), zero the rest; lsp_reader_free frees what it holds. */
typedef struct lsp_reader {
  lsp_read_fn read;
  void *ctx;
  size_t max;
  char *buf;                /* bytes read, not yet handed out from pos */
  size_t pos, len, cap;
  int end;                  /* read returned 0 */
  char *skipped;            /* the start of the bytes skipped (for their id) */
  size_t nskipped;
} lsp_reader;

/* What lsp_frame_next found. */
typedef enum lsp_frame_status {
  LSP_FRAME_OK,             /* a frame: its body */
  LSP_FRAME_BAD,            /* a bad frame or skipped bytes: what may be its body */
  LSP_FRAME_END             /* the input ended (a frame cut short by the end too) */
} lsp_frame_status;

/* Reads the next frame from r.  On LSP_FRAME_OK, *body and *len are its
** body; on LSP_FRAME_BAD, what the reader took for the bad frame's body (or
** the skipped bytes; possibly empty) and *why says what was wrong (a static
** string).  *body stays valid until the next call or lsp_reader_free; the
** reader owns it.  Each call consumes at least one byte or returns
** LSP_FRAME_END, so a loop over it ends. */
lsp_frame_status lsp_frame_next(lsp_reader *r, const char **body, size_t *len, const char **why);

/* Frees what r holds (not r). */
void lsp_reader_free(lsp_reader *r);

/* Returns a new reference to the id of the JSON-RPC message that s[0..n)
** starts (its top-level "id" member, a number or a string, read even when
** the text is cut short or broken further on), or NULL when none can be
** read. */
json_t *lsp_frame_id(const char *s, size_t n);

#endif
