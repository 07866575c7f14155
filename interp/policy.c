/*
** policy.c: answering a run's questions (see policy.h).
*/
#include "policy.h"

#include "alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

/* Most options an error message lists before "...". */
#define LIST_MAX 40

/* ---- matching answers ------------------------------------------------------ */

/* Returns a malloc'd NFC, case-folded copy of s, or NULL (bad UTF-8 or out
** of memory); utf8proc allocates it with malloc. */
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

int64_t rg_question_match(const rg_question *q, const char *answer) {
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

void rg_question_options(rg_out *o, const rg_question *q, uint32_t max) {
  char buf[1024];
  if (q->range) {
    rg_printf(o, "%lld..%lld", (long long)q->lo, (long long)(q->lo + (int64_t)q->n - 1));
    return;
  }
  for (uint32_t k = 0; k < q->n; k++) {
    if (k == max) {
      rg_puts(o, ", ...");
      break;
    }
    q->name(q->ctx, k, 0, buf, sizeof buf);
    if (k) rg_puts(o, ", ");
    rg_puts(o, buf);
  }
}

void rg_question_write(rg_out *o, const rg_question *q) {
  if (q->who && *q->who) rg_printf(o, "%s, ", q->who);
  rg_puts(o, q->prompt);
}

/* ---- policies -------------------------------------------------------------- */

/* Sets p up empty, of kind k and shown as name. */
static void init(rg_policy *p, rg_policy_kind k, const char *name) {
  memset(p, 0, sizeof *p);
  p->kind = k;
  p->name = name;
  rg_buf_init(&p->err);
}

void rg_policy_random(rg_policy *p) {
  init(p, RG_POLICY_RANDOM, "random");
}

void rg_policy_first(rg_policy *p) {
  init(p, RG_POLICY_FIRST, "first");
}

void rg_policy_callback(rg_policy *p, const char *name, rg_policy_fn fn, void *ctx) {
  init(p, RG_POLICY_CALLBACK, name);
  p->fn = fn;
  p->fn_ctx = ctx;
}

int rg_policy_answers(rg_policy *p, const char *source, const char *text, size_t len) {
  init(p, RG_POLICY_ANSWERS, "answers");
  p->source = source;
  if (len && memchr(text, '\0', len)) {
    rg_printf(&p->err.out, "%s: a NUL byte in the answers", source);
    return -1;
  }
  if (!(p->text = rg_malloc(len + 1))) return -2;
  memcpy(p->text, text, len);
  p->text[len] = '\0';
  return 0;
}

void rg_policy_free(rg_policy *p) {
  rg_free(p->text);
  p->text = NULL;
  rg_buf_free(&p->err);
}

const char *rg_policy_error(const rg_policy *p) {
  return p->err.data ? p->err.data : "";
}

char *rg_policy_trim(char *s) {
  size_t n;
  while (*s == ' ' || *s == '\t') s++;
  n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
  return s;
}

/* Takes the next answer line of the text (skipping blank and # lines):
** returns it trimmed, with its line number in p->line, or NULL at the end. */
static char *next_answer(rg_policy *p) {
  while (p->text[p->pos]) {
    char *s = p->text + p->pos, *nl = strchr(s, '\n');
    if (nl) {
      *nl = '\0';
      p->pos = (size_t)(nl + 1 - p->text);
    } else {
      p->pos += strlen(s);
    }
    p->line++;
    s = rg_policy_trim(s);
    if (*s && *s != '#') return s;
  }
  return NULL;
}

/* The answers policy: the next line must name an option of q. */
static int64_t from_answers(rg_policy *p, const rg_question *q) {
  char *a = next_answer(p);
  int64_t k;
  rg_out *e = &p->err.out;
  if (!a) {
    rg_printf(e, "%s:%u: no answer for: ", p->source, p->line + 1);
    rg_question_write(e, q);
    rg_puts(e, " (the answers ran out)");
    return -1;
  }
  k = rg_question_match(q, a);
  if (k < 0) {
    rg_printf(e, "%s:%u: '%s' is not an option of: ", p->source, p->line, a);
    rg_question_write(e, q);
    rg_puts(e, "; options: ");
    rg_question_options(e, q, LIST_MAX);
  }
  return k;
}

int64_t rg_policy_choose(rg_policy *p, const rg_question *q) {
  int64_t k;
  rg_buf_free(&p->err);
  switch (p->kind) {
  case RG_POLICY_FIRST: return 0;
  case RG_POLICY_ANSWERS: return from_answers(p, q);
  case RG_POLICY_CALLBACK:
    k = p->fn(p->fn_ctx, q, &p->err.out);
    if (k >= 0 && (uint64_t)k >= q->n) {
      rg_puts(&p->err.out, "the answer is not an option");
      k = -1;
    }
    return k < 0 ? -1 : k;
  default:
    return (int64_t)rg_rng_below(&p->rng, q->n);
  }
}
