/*
** lsp_frame.c: the language server's frame reader (lsp_frame.h says what
** it promises).
**
** The reader keeps the bytes read and not yet handed out in one buffer,
** from pos to len; every offset below is counted from pos, so the buffer
** may be compacted (its unread bytes moved to its start) whenever it is
** filled.  A frame is found by its `Content-Length:` header (any case):
** what comes before one is skipped; then the header block to its blank
** line; then the body, watched for the next frame's header as it arrives.
*/
#include "lsp_frame.h"

#include "regula_front.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TOKEN "content-length:"
#define TOKLEN (sizeof TOKEN - 1)
#define VALUE_LINE 256          /* the longest `Content-Length:` line read */
#define HEADER_LINE 8192        /* the longest other header line */
#define HEADER_LINES 32         /* the most header lines of one frame */
#define SKIP_KEEP 65536         /* skipped bytes kept, for their id */
#define CHUNK 65536             /* bytes asked of read at a time */

/* Returns whether s[0..n) equals the lower-case text t without regard to
** the case of ASCII letters. */
static int ci_eq(const char *s, const char *t, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 'A' && c <= 'Z') c = (unsigned char)(c + 32);
    if (c != (unsigned char)t[i]) return 0;
  }
  return 1;
}

/* Reads more bytes into r's buffer (its unread bytes first moved to its
** start, the buffer grown so that at least want unread bytes fit plus a
** chunk).  Returns the number read: 0 at the end of the input (r->end set)
** or when memory runs out (r->end set too: the reader cannot go on). */
static size_t fill(lsp_reader *r, size_t want) {
  size_t got;
  if (r->end) return 0;
  if (r->pos > 0) {
    memmove(r->buf, r->buf + r->pos, r->len - r->pos);
    r->len -= r->pos;
    r->pos = 0;
  }
  if (want < r->len) want = r->len;
  if (r->cap < want + CHUNK) {
    size_t cap = r->cap ? r->cap : CHUNK;
    char *b;
    while (cap < want + CHUNK) cap *= 2;
    if (!(b = rg_realloc(r->buf, cap))) {
      r->end = 1;
      return 0;
    }
    r->buf = b;
    r->cap = cap;
  }
  got = r->read(r->ctx, r->buf + r->len, r->cap - r->len);
  if (got == 0 || got > r->cap - r->len) {
    r->end = 1;
    return 0;
  }
  r->len += got;
  return got;
}

/* Whether the bytes s[k..n) are a frame's header line
** `Content-Length: DIGITS` (any case, blanks around the digits) ending in
** a line feed: 1 they are, 0 they cannot be, -1 they may be once more
** bytes come (s ends inside it). */
static int header_at(const char *s, size_t n, size_t k) {
  size_t i = k, m, blanks, digits;
  for (m = 0; m < TOKLEN; m++, i++) {
    if (i == n) return -1;
    if (!ci_eq(s + i, &TOKEN[m], 1)) return 0;
  }
  for (blanks = 0; i < n && (s[i] == ' ' || s[i] == '\t') && blanks < 8; i++) blanks++;
  for (digits = 0; i < n && s[i] >= '0' && s[i] <= '9' && digits < 20; i++) digits++;
  if (i == n) return -1;
  if (digits == 0) return 0;
  for (blanks = 0; i < n && (s[i] == ' ' || s[i] == '\t') && blanks < 8; i++) blanks++;
  if (i < n && s[i] == '\r') i++;
  if (i == n) return -1;
  return s[i] == '\n';
}

/* Looks in s[*from..to) (s holding n bytes) for a frame's header line.
** Returns its offset, or SIZE_MAX when there is none; *from is moved past
** the offsets decided, and stops at one that more bytes may yet make a
** header line. */
static size_t find_header(const char *s, size_t n, size_t *from, size_t to) {
  for (size_t k = *from; k < to; k++) {
    int m;
    if ((s[k] | 0x20) != 'c') continue;
    if ((m = header_at(s, n, k)) == 1) {
      *from = k;
      return k;
    }
    if (m < 0) {
      *from = k;
      return SIZE_MAX;
    }
  }
  *from = to;
  return SIZE_MAX;
}

/* Keeps the first SKIP_KEEP of the skipped bytes s[0..n) in r->skipped. */
static void keep_skipped(lsp_reader *r, const char *s, size_t n) {
  size_t k = r->nskipped + n > SKIP_KEEP ? SKIP_KEEP - r->nskipped : n;
  if (!k) return;
  if (!r->skipped && !(r->skipped = rg_malloc(SKIP_KEEP))) return;
  memcpy(r->skipped + r->nskipped, s, k);
  r->nskipped += k;
}

/* Finds the offset (from pos) of the end of the line starting at offset
** at (its line feed), reading up to limit bytes of it; returns SIZE_MAX
** when the line is longer or the input ends first. */
static size_t line_end(lsp_reader *r, size_t at, size_t limit) {
  size_t seen = at;
  for (;;) {
    size_t avail = r->len - r->pos, stop = avail < at + limit ? avail : at + limit;
    const char *nl = seen < stop ? memchr(r->buf + r->pos + seen, '\n', stop - seen) : NULL;
    if (nl) return (size_t)(nl - (r->buf + r->pos));
    seen = stop;
    if (stop >= at + limit || fill(r, at + limit) == 0) return SIZE_MAX;
  }
}

/* Reads the value of the Content-Length line s[0..n) (after its name):
** returns it, or -1 (*why set) when it is no length or over max. */
static long long length_value(const char *s, size_t n, size_t max, const char **why) {
  size_t i = 0;
  unsigned long long v = 0;
  while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
  while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
  if (i < n && s[i] == '-') {
    *why = "a negative Content-Length";
    return -1;
  }
  if (i == n) {
    *why = "a Content-Length without a value";
    return -1;
  }
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') {
      *why = "a Content-Length that is not a number";
      return -1;
    }
    v = v * 10 + (unsigned)(s[i] - '0');
    if (v > max) {
      *why = "a Content-Length over the limit";
      return -1;
    }
  }
  return (long long)v;
}

/* Whether s[0..n) is a header line `Name: value` (a name of ASCII letters,
** digits and '-'). */
static int header_line(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && (s[i] == '-' || (s[i] >= '0' && s[i] <= '9') || ((s[i] | 0x20) >= 'a' &&
                                                                   (s[i] | 0x20) <= 'z')))
    i++;
  return i > 0 && i < n && s[i] == ':';
}

/* Whether s[0..n) holds only blank lines and header lines, each ended by a
** line feed (what may come before a frame's Content-Length). */
static int headers_only(const char *s, size_t n) {
  while (n) {
    const char *nl = memchr(s, '\n', n);
    size_t ll = nl ? (size_t)(nl - s) : n, k = ll;
    if (!nl) return 0;
    if (k && s[k - 1] == '\r') k--;
    while (k && (s[k - 1] == ' ' || s[k - 1] == '\t')) k--;
    if (k && !header_line(s, k)) {
      size_t b = 0;
      while (b < k && (s[b] == ' ' || s[b] == '\t')) b++;
      if (b < k) return 0;
    }
    s += ll + 1;
    n -= ll + 1;
  }
  return 1;
}

lsp_frame_status lsp_frame_next(lsp_reader *r, const char **body, size_t *len, const char **why) {
  size_t max = r->max ? r->max : (size_t)64 << 20;
  if (max > (size_t)1 << 40) max = (size_t)1 << 40;
  size_t nl, at, start, from;
  long long n;
  size_t skipped = 0;
  *body = "";
  *len = 0;
  *why = "";
  r->nskipped = 0;

  /* 1. up to the next `Content-Length:`; what is skipped, unless blank
  ** lines and other headers (Content-Type), makes a bad frame of its own */
  for (;;) {
    const char *s = r->buf ? r->buf + r->pos : "";
    size_t avail = r->len - r->pos, k = 0, cut;
    for (; k + TOKLEN <= avail; k++)
      if ((s[k] | 0x20) == 'c' && ci_eq(s + k, TOKEN, TOKLEN)) break;
    cut = k + TOKLEN <= avail ? k : avail > TOKLEN - 1 ? avail - (TOKLEN - 1) : 0;
    if (r->end) cut = k + TOKLEN <= avail ? k : avail;
    keep_skipped(r, s, cut);
    skipped += cut;
    r->pos += cut;
    if (k + TOKLEN <= avail) break;
    if (r->end || fill(r, 0) == 0) {
      r->pos = r->len;
      return LSP_FRAME_END;
    }
  }
  if (skipped > SKIP_KEEP || !headers_only(r->skipped, r->nskipped)) {
    /* what may be a frame's body whose header was unusable or missing:
    ** from its first '{' */
    const char *brace = memchr(r->skipped ? r->skipped : "", '{', r->nskipped);
    *body = brace ? brace : "";
    *len = brace ? r->nskipped - (size_t)(brace - r->skipped) : 0;
    *why = "bytes outside a frame";
    return LSP_FRAME_BAD;
  }

  /* 2. the header block: the length, other headers, a blank line */
  if ((nl = line_end(r, 0, VALUE_LINE)) == SIZE_MAX) {
    if (r->end && r->len - r->pos < VALUE_LINE) {
      r->pos = r->len;
      return LSP_FRAME_END;
    }
    r->pos += TOKLEN;
    *why = "a Content-Length line that does not end";
    return LSP_FRAME_BAD;
  }
  n = length_value(r->buf + r->pos + TOKLEN, nl - TOKLEN, max, why);
  if (n < 0) {
    r->pos += TOKLEN;             /* the next frame may start on this line */
    return LSP_FRAME_BAD;
  }
  at = nl + 1;
  for (int lines = 0;; lines++) {
    const char *line;
    size_t e = line_end(r, at, HEADER_LINE), ll;
    if (e == SIZE_MAX) {
      if (r->end && r->len - r->pos < at + HEADER_LINE) {
        r->pos = r->len;
        return LSP_FRAME_END;
      }
      r->pos += at;
      *why = "a header line too long";
      return LSP_FRAME_BAD;
    }
    line = r->buf + r->pos + at;
    ll = e - at;
    if (ll && line[ll - 1] == '\r') ll--;
    if (ll == 0) {
      at = e + 1;
      break;
    }
    if (lines == HEADER_LINES) {
      r->pos += at;
      *why = "too many header lines";
      return LSP_FRAME_BAD;
    }
    if (ll >= TOKLEN && ci_eq(line, TOKEN, TOKLEN)) {
      const char *ignored;
      if (length_value(line + TOKLEN, ll - TOKLEN, max, &ignored) != n) {
        r->pos += at + TOKLEN;
        *why = "two Content-Length headers that differ";
        return LSP_FRAME_BAD;
      }
    } else if (!header_line(line, ll)) {
      r->pos += at;               /* perhaps the body: looked at again */
      *why = "a header block without its blank line";
      return LSP_FRAME_BAD;
    }
    at = e + 1;
  }

  /* 3. the body: n bytes, unless the next frame's header comes first */
  start = at;
  from = start;
  for (;;) {
    size_t avail = r->len - r->pos;
    size_t to = start + (avail - start < (size_t)n ? avail - start : (size_t)n);
    size_t k = find_header(r->buf + r->pos, avail, &from, to);
    if (k != SIZE_MAX) {
      *body = r->buf + r->pos + start;
      *len = k - start;
      r->pos += k;
      *why = "a body cut short by the next frame";
      return LSP_FRAME_BAD;
    }
    if (avail - start >= (size_t)n && (from >= start + (size_t)n || r->end)) break;
    if (r->end || fill(r, start + (size_t)n + 64) == 0) {
      if (r->len - r->pos - start >= (size_t)n) break;
      r->pos = r->len;
      return LSP_FRAME_END;
    }
  }
  *body = r->buf + r->pos + start;
  *len = (size_t)n;
  r->pos += start + (size_t)n;
  return LSP_FRAME_OK;
}

void lsp_reader_free(lsp_reader *r) {
  rg_free(r->buf);
  rg_free(r->skipped);
  r->buf = r->skipped = NULL;
  r->pos = r->len = r->cap = r->nskipped = 0;
}

/* Returns the offset just past the JSON string that starts at s[i] (a
** '"'), or n when it does not end in s[0..n). */
static size_t string_end(const char *s, size_t n, size_t i) {
  for (i++; i < n; i++) {
    if (s[i] == '\\') i++;
    else if (s[i] == '"') return i + 1;
  }
  return n;
}

json_t *lsp_frame_id(const char *s, size_t n) {
  size_t i = 0;
  int depth = 0, key = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
  if (i == n || s[i] != '{') return NULL;
  for (; i < n; i++) {
    char c = s[i];
    if (c == '{' || c == '[') {
      depth++;
      key = depth == 1;
    } else if (c == '}' || c == ']') {
      if (--depth <= 0) return NULL;
    } else if (c == ',') {
      key = depth == 1;
    } else if (c == '"') {
      size_t e = string_end(s, n, i);
      int is_id = key && e - i == 4 && memcmp(s + i, "\"id\"", 4) == 0;
      key = 0;
      if (is_id) {
        size_t v = e;
        while (v < n && (s[v] == ' ' || s[v] == '\t' || s[v] == '\r' || s[v] == '\n')) v++;
        if (v == n || s[v] != ':') return NULL;
        for (v++; v < n && (s[v] == ' ' || s[v] == '\t' || s[v] == '\r' || s[v] == '\n'); v++) {}
        if (v < n && s[v] == '"') {
          size_t ve = string_end(s, n, v);
          return ve <= n && s[ve - 1] == '"' && ve - v >= 2
                   ? json_loadb(s + v, ve - v, JSON_DECODE_ANY, NULL) : NULL;
        }
        if (v < n && (s[v] == '-' || (s[v] >= '0' && s[v] <= '9'))) {
          size_t ve = v + 1;
          long long id = 0;
          int neg = s[v] == '-';
          while (ve < n && s[ve] >= '0' && s[ve] <= '9') ve++;
          if (ve < n && (s[ve] == '.' || s[ve] == 'e' || s[ve] == 'E')) return NULL;
          if (ve == n || ve - v > 18 || (neg && ve - v == 1)) return NULL;   /* cut, or too long */
          for (size_t d = v + neg; d < ve; d++) id = id * 10 + (s[d] - '0');
          return json_integer(neg ? -id : id);
        }
        return NULL;
      }
      i = e - 1;
    }
  }
  return NULL;
}
