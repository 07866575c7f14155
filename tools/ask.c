/*
** ask.c: the CLI's side of answering a run's questions (see ask.h): a
** person at a terminal, and answers files read from disk.
*/
#include "ask.h"

#include "regula_front.h"
#include "exitcode.h"
#include "fileout.h"
#include "opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Most options an error message lists before "...". */
#define LIST_MAX 40

/* ---- reading lines -------------------------------------------------------- */

/* Reads the next line of r->f into r->buf (line end removed), at most
** READER_LINE_MAX bytes and no NUL: an endless stream cannot grow it. */
int reader_line(reader *r, char **line) {
  size_t n = 0;
  int c;
  if (!r || !r->f) return READ_END;
  while ((c = getc(r->f)) != EOF && c != '\n') {
    if (c == '\0') { r->line++; return READ_NUL; }
    if (n == READER_LINE_MAX) { r->line++; return READ_LONG; }
    if (n + 1 >= r->cap) {
      size_t cap = r->cap ? r->cap * 2 : 256;
      char *b;
      if (cap > READER_LINE_MAX + 1) cap = READER_LINE_MAX + 1;
      if (!(b = rg_realloc(r->buf, cap))) { r->nomem = 1; return READ_NOMEM; }
      r->buf = b;
      r->cap = cap;
    }
    r->buf[n++] = (char)c;
  }
  if (c == EOF && n == 0) return READ_END;
  if (!r->buf) {
    if (!(r->buf = rg_malloc(1))) { r->nomem = 1; return READ_NOMEM; }
    r->cap = 1;
  }
  if (n > 0 && r->buf[n - 1] == '\r') n--;
  r->buf[n] = '\0';
  r->line++;
  *line = r->buf;
  return 0;
}

int reader_status(const reader *r, int rc, const char *path) {
  if (rc == READ_NOMEM) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  if (rc != READ_END) {
    cli_eprintf("regula: error: %s:%u: %s\n", path, r->line, reader_error(rc));
    return EX_BAD;
  }
  if (ferror(r->f)) {
    cli_eprintf("regula: error: %s: cannot read\n", path);
    return EX_BAD;
  }
  return 0;
}

const char *reader_error(int rc) {
  switch (rc) {
  case READ_LONG: return "line too long (limit 65536 bytes)";
  case READ_NUL: return "a NUL byte in the line";
  case READ_NOMEM: return "out of memory";
  default: return "cannot read";
  }
}

/* Frees the reader's line buffer. */
void reader_free(reader *r) {
  if (!r) return;
  rg_free(r->buf);
  r->buf = NULL;
  r->cap = 0;
}

void ask_put(const rg_game *g, int which) {
  rg_buf b;
  rg_buf_init(&b);
  rg_game_question_write(g, which ? LIST_MAX : 0, &b.out);
  if (b.data) fputs(b.data, stderr);
  rg_buf_free(&b);
}

/* ---- a person -------------------------------------------------------------- */

void ask_show(const rg_game *g) {
  char buf[1024], rem[256];
  rg_game_question q;
  if (!rg_game_asking(g, &q)) return;
  ask_put(g, 0);
  if (q.yesno) {
    fputs(" (yes or no): ", stderr);
  } else if (q.range && q.dice <= 1 && !(q.who && *q.who)) {
    fputs(": ", stderr);
  } else if (q.numeric) {
    fputs(q.range ? " (" : " (one of ", stderr);
    ask_put(g, 1);
    fputs("): ", stderr);
  } else {
    fputc('\n', stderr);
    for (uint32_t k = 0; k < q.noptions; k++) {
      rg_game_option(g, k, buf, sizeof buf);
      fprintf(stderr, "  %u) %s", k + 1, buf);
      if (rg_game_option_remark(g, k, rem, sizeof rem)) fprintf(stderr, "  (%s)", rem);
      fputc('\n', stderr);
    }
    fputs("> ", stderr);
  }
  fflush(stderr);
}

/* ---- policies -------------------------------------------------------------- */

/* The largest answers file, in bytes. */
#define ANSWERS_MAX (16u << 20)

/* Reads the lines of path (reader_line: each at most READER_LINE_MAX bytes,
** no NUL) into an rg_malloc'd NUL-terminated buffer (*text, its length in
** *size), each ended by LF, ANSWERS_MAX bytes at most.  Returns 0, EX_BAD
** (said on stderr, naming FILE:LINE) or EX_RUNTIME (out of memory). */
int ask_read_file(const char *path, char **text, size_t *size) {
  FILE *f = cli_open(path, "rb");
  reader rd = { f, NULL, 0, 0, 0 };
  char *buf = NULL, *line;
  size_t len = 0, cap = 0;
  int rc = 0, k;
  *text = NULL;
  if (!f) {
    cli_eprintf("regula: error: %s: %s\n", path, strerror(errno));
    return EX_BAD;
  }
  while ((k = reader_line(&rd, &line)) == 0) {
    size_t n = strlen(line);
    if (len + n + 2 > ANSWERS_MAX) {
      cli_eprintf("regula: error: %s: file too large (limit %u bytes)\n", path, ANSWERS_MAX);
      rc = EX_BAD;
      break;
    }
    if (len + n + 2 > cap) {
      size_t nc = cap ? cap * 2 : 4096;
      char *more;
      while (nc < len + n + 2) nc *= 2;
      if (!(more = rg_realloc(buf, nc))) { k = READ_NOMEM; break; }
      buf = more;
      cap = nc;
    }
    memcpy(buf + len, line, n);
    len += n;
    buf[len++] = '\n';
  }
  if (rc == 0) rc = reader_status(&rd, k, path);
  if (rc == 0 && !buf && !(buf = rg_malloc(1))) {
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  }
  reader_free(&rd);
  cli_close(f);
  if (rc != 0) {
    rg_free(buf);
    return rc;
  }
  buf[len] = '\0';
  *text = buf;
  *size = len;
  return 0;
}
