/*
** policy.c: answering a run's questions (see policy.h).
*/
#include "policy.h"

#include "alloc.h"
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <utf8proc.h>

/* Most options an error message lists before "...". */
#define LIST_MAX 40

/* ---- reading lines -------------------------------------------------------- */

/* Reads the next line of r->f into r->buf (line end removed). */
int reader_line(reader *r, char **line) {
  ssize_t n;
  if (!r || !r->f) return -1;
  n = getline(&r->buf, &r->cap, r->f);
  if (n < 0) return -1;
  while (n > 0 && (r->buf[n - 1] == '\n' || r->buf[n - 1] == '\r')) r->buf[--n] = '\0';
  *line = r->buf;
  return 0;
}

/* Frees the buffer getline allocated (with malloc). */
void reader_free(reader *r) {
  if (!r) return;
  free(r->buf);
  r->buf = NULL;
  r->cap = 0;
}

/* ---- matching answers ------------------------------------------------------ */

/* Returns s without the spaces and tabs around it (in place). */
static char *trim(char *s) {
  size_t n;
  while (*s == ' ' || *s == '\t') s++;
  n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
  return s;
}

/* Returns a malloc'd NFC, case-folded copy of s, or NULL (bad UTF-8 or out
** of memory). */
static char *fold(const char *s) {
  utf8proc_uint8_t *out = NULL;
  if (utf8proc_map((const utf8proc_uint8_t *)s, 0, &out,
                   UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD) < 0)
    return NULL;
  return (char *)out;
}

/* Parses s as a whole decimal integer (optional sign) into *v; returns 0 or
** -1. */
static int parse_int(const char *s, int64_t *v) {
  char *end;
  long long x;
  if (!*s || (*s != '-' && *s != '+' && (*s < '0' || *s > '9'))) return -1;
  errno = 0;
  x = strtoll(s, &end, 10);
  if (errno || *end) return -1;
  *v = x;
  return 0;
}

/* Returns the index of the option that answer (trimmed) names, or -1. */
static int64_t match(const question *q, const char *answer) {
  char buf[1024];
  char *want;
  int64_t v, found = -1;
  if (!*answer) return -1;
  if (q->range) {
    if (parse_int(answer, &v) != 0) return -1;
    /* Unsigned: v - lo may not fit an int64 (found by fuzz_answers). */
    if (v < q->lo || (uint64_t)v - (uint64_t)q->lo >= q->n) return -1;
    return (int64_t)((uint64_t)v - (uint64_t)q->lo);
  }
  want = fold(answer);
  if (want) {
    for (uint32_t k = 0; k < q->n && found < 0; k++)
      for (int alt = 0; alt < 2 && found < 0; alt++) {
        char *have;
        if (!q->name(q->ctx, k, alt, buf, sizeof buf)) continue;
        have = fold(buf);
        if (have && strcmp(have, want) == 0) found = k;
        free(have);
      }
    free(want);
  }
  if (found < 0 && !q->numeric && parse_int(answer, &v) == 0 && v >= 1 && (uint64_t)v <= q->n)
    found = v - 1;
  return found;
}

/* Writes the options of q to out joined by ", " (at most LIST_MAX, then
** "..."), or "lo..hi" for a range. */
static void list_options(FILE *out, const question *q) {
  char buf[1024];
  if (q->range) {
    fprintf(out, "%lld..%lld", (long long)q->lo, (long long)(q->lo + (int64_t)q->n - 1));
    return;
  }
  for (uint32_t k = 0; k < q->n; k++) {
    if (k == LIST_MAX) {
      fputs(", ...", out);
      break;
    }
    q->name(q->ctx, k, 0, buf, sizeof buf);
    fprintf(out, "%s%s", k ? ", " : "", buf);
  }
}

/* Writes "WHO, PROMPT" (or PROMPT alone) to out. */
static void put_question(FILE *out, const question *q) {
  if (q->who && *q->who) fprintf(out, "%s, %s", q->who, q->prompt);
  else fputs(q->prompt, out);
}

/* ---- a person -------------------------------------------------------------- */

/* Prints q for a person on stderr: numbers inline ("PROMPT (1..6): "),
** other options one a line ("  1) Standard") then "> ". */
static void show_question(const question *q) {
  char buf[1024], rem[256];
  put_question(stderr, q);
  if (q->range && !(q->who && *q->who)) {
    fputs(": ", stderr);
  } else if (q->numeric) {
    fputs(q->range ? " (" : " (one of ", stderr);
    list_options(stderr, q);
    fputs("): ", stderr);
  } else {
    fputc('\n', stderr);
    for (uint32_t k = 0; k < q->n; k++) {
      q->name(q->ctx, k, 0, buf, sizeof buf);
      fprintf(stderr, "  %u) %s", k + 1, buf);
      if (q->remark && q->remark(q->ctx, k, rem, sizeof rem)) fprintf(stderr, "  (%s)", rem);
      fputc('\n', stderr);
    }
    fputs("> ", stderr);
  }
  fflush(stderr);
}

int64_t ask_person(reader *in, const question *q) {
  char *line;
  show_question(q);
  for (;;) {
    int64_t k;
    if (reader_line(in, &line) != 0) {
      fputs("\nregula: error: no answer (end of input) for: ", stderr);
      put_question(stderr, q);
      fputc('\n', stderr);
      return -1;
    }
    line = trim(line);
    /* Piped answers are not echoed by a terminal: echo them, so that the
    ** transcript on stderr reads as a dialogue. */
    if (!isatty(fileno(in->f))) fprintf(stderr, "%s\n", line);
    k = match(q, line);
    if (k >= 0) return k;
    fprintf(stderr, "'%s' is not an option; answer ", line);
    if (q->range) fprintf(stderr, "a number from %lld to %lld", (long long)q->lo,
                          (long long)(q->lo + (int64_t)q->n - 1));
    else if (q->numeric) fputs("one of the numbers listed", stderr);
    else fprintf(stderr, "a number from 1 to %u or an option's name", q->n);
    fputs("\n", stderr);
    show_question(q);
  }
}

/* ---- policies -------------------------------------------------------------- */

/* Reads the whole of path into a malloc'd NUL-terminated buffer (*text).
** Returns 0, EX_BAD (cannot read: said on stderr) or EX_RUNTIME. */
static int read_file(const char *path, char **text) {
  FILE *f = fopen(path, "rb");
  size_t len = 0, cap = 4096;
  char *buf;
  *text = NULL;
  if (!f) {
    fprintf(stderr, "regula: error: %s: %s\n", path, strerror(errno));
    return EX_BAD;
  }
  buf = rg_malloc(cap);
  while (buf) {
    size_t got = fread(buf + len, 1, cap - len - 1, f);
    len += got;
    if (len + 1 < cap) break;
    char *more = rg_realloc(buf, cap * 2);
    if (!more) {
      rg_free(buf);
      buf = NULL;
      break;
    }
    buf = more;
    cap *= 2;
  }
  if (!buf) {
    fclose(f);
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  if (ferror(f)) {
    fprintf(stderr, "regula: error: %s: cannot read\n", path);
    fclose(f);
    rg_free(buf);
    return EX_BAD;
  }
  fclose(f);
  buf[len] = '\0';
  if (memchr(buf, '\0', len)) {
    fprintf(stderr, "regula: error: %s: a NUL byte in the answers\n", path);
    rg_free(buf);
    return EX_BAD;
  }
  *text = buf;
  return 0;
}

int policy_open(policy *p, const char *spec, uint64_t seed, reader *in) {
  memset(p, 0, sizeof *p);
  p->in = in;
  rg_rng_stream(&p->rng, seed, 1);
  if (!spec || strcmp(spec, "random") == 0) p->kind = POLICY_RANDOM;
  else if (strcmp(spec, "first") == 0) p->kind = POLICY_FIRST;
  else if (strcmp(spec, "ask") == 0) p->kind = POLICY_ASK;
  else if (strncmp(spec, "answers:", 8) == 0 && spec[8]) {
    p->kind = POLICY_ANSWERS;
    p->path = spec + 8;
    return read_file(p->path, &p->text);
  } else {
    return usage_error("run", "--policy must be random, first, ask or answers:FILE, not '%s'",
                       spec);
  }
  return 0;
}

void policy_close(policy *p) {
  rg_free(p->text);
  p->text = NULL;
}

const char *policy_name(const policy *p) {
  switch (p->kind) {
  case POLICY_FIRST: return "first";
  case POLICY_ASK: return "ask";
  case POLICY_ANSWERS: return "answers";
  default: return "random";
  }
}

/* Takes the next answer line of the file (skipping blank and # lines):
** returns it trimmed, with its line number in p->line, or NULL at the end. */
static char *next_answer(policy *p) {
  while (p->text[p->pos]) {
    char *s = p->text + p->pos, *nl = strchr(s, '\n');
    if (nl) {
      *nl = '\0';
      p->pos = (size_t)(nl + 1 - p->text);
    } else {
      p->pos += strlen(s);
    }
    p->line++;
    s = trim(s);
    if (*s && *s != '#') return s;
  }
  return NULL;
}

int64_t policy_choose(policy *p, const question *q) {
  char *a;
  int64_t k;
  switch (p->kind) {
  case POLICY_FIRST: return 0;
  case POLICY_ASK: return ask_person(p->in, q);
  case POLICY_ANSWERS:
    a = next_answer(p);
    if (!a) {
      fprintf(stderr, "regula: error: %s:%u: no answer for: ", p->path, p->line + 1);
      put_question(stderr, q);
      fputs(" (the answers ran out)\n", stderr);
      return -1;
    }
    k = match(q, a);
    if (k < 0) {
      fprintf(stderr, "regula: error: %s:%u: '%s' is not an option of: ", p->path, p->line, a);
      put_question(stderr, q);
      fputs("; options: ", stderr);
      list_options(stderr, q);
      fputc('\n', stderr);
    }
    return k;
  default:
    return (int64_t)rg_rng_below(&p->rng, q->n);
  }
}
