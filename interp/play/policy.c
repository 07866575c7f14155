/*
** policy.c: answering a run's questions (see policy.h).
*/
#include "policy.h"

#include "regula_front.h"
#include "diag.h"

#include <errno.h>
#include <stdio.h>
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

/* Matches answer against q->dice numbers, each in lo .. lo + sides - 1,
** separated by spaces, commas or '+'.  Returns the option index or -1. */
static int64_t match_dice(const rgi_question *q, const char *answer) {
  char tok[32];
  uint64_t index = 0, scale = 1;
  uint32_t got = 0;
  const char *s = answer;
  for (;;) {
    size_t n = 0;
    int64_t v;
    while (*s == ' ' || *s == '\t' || *s == ',' || *s == '+') s++;
    if (!*s) break;
    while (*s && *s != ' ' && *s != '\t' && *s != ',' && *s != '+') {
      if (n + 1 >= sizeof tok) return -1;
      tok[n++] = *s++;
    }
    tok[n] = '\0';
    if (got == q->dice || parse_int(tok, &v) != 0) return -1;
    if (v < q->lo || (uint64_t)v - (uint64_t)q->lo >= q->sides) return -1;
    index += ((uint64_t)v - (uint64_t)q->lo) * scale;
    scale *= q->sides;
    got++;
  }
  return got == q->dice && index < q->n ? (int64_t)index : -1;
}

/* Returns 1 when the folded text have starts with want (both folded). */
static int starts_with(const char *have, const char *want) {
  return strncmp(have, want, strlen(want)) == 0;
}

/* Matches answer against q (see rgi_question_match).  Returns the index;
** -1 when nothing matches; -2 when it is a prefix of several options'
** names (their indexes in amb[0..*namb), at most 8). */
static int64_t match(const rgi_question *q, const char *answer, uint32_t *amb, uint32_t *namb) {
  char buf[1024];
  char *folded;
  const char *want;
  int64_t v, found = -1;
  *namb = 0;
  if (!*answer) return -1;
  if (q->range && q->dice > 1) return match_dice(q, answer);
  if (q->range) {
    if (parse_int(answer, &v) != 0) return -1;
    /* Unsigned: v - lo may not fit an int64 (found by fuzz_answers). */
    if (v < q->lo || (uint64_t)v - (uint64_t)q->lo >= q->n) return -1;
    return (int64_t)((uint64_t)v - (uint64_t)q->lo);
  }
  if (!(folded = fold(answer))) return -1;
  want = folded;
  if (q->yesno) {
    /* y, yes, n, no name the options true and false. */
    if (!strcmp(want, "y") || !strcmp(want, "yes")) want = "true";
    else if (!strcmp(want, "n") || !strcmp(want, "no")) want = "false";
  }
  for (uint32_t k = 0; k < q->n && found < 0; k++)
    for (int alt = 0; alt < 2 && found < 0; alt++) {
      char *have;
      if (!q->name(q->ctx, k, alt, buf, sizeof buf)) continue;
      have = fold(buf);
      if (have && strcmp(have, want) == 0) found = k;
      free(have);
    }
  /* An option by its number, as listed; not for a yes-or-no question,
  ** whose options are not listed (is 1 yes, or the first option, false?). */
  if (found < 0 && !q->numeric && !q->yesno && parse_int(answer, &v) == 0 && v >= 1 &&
      (uint64_t)v <= q->n)
    found = v - 1;
  if (found < 0 && !q->numeric) {
    /* A prefix of one option's name (or code) only. */
    for (uint32_t k = 0; k < q->n; k++) {
      int hit = 0;
      for (int alt = 0; alt < 2 && !hit; alt++) {
        char *have;
        if (!q->name(q->ctx, k, alt, buf, sizeof buf)) continue;
        have = fold(buf);
        hit = have && starts_with(have, want);
        free(have);
      }
      if (hit) {
        if (*namb < 8) amb[*namb] = k;
        ++*namb;
        found = k;
      }
    }
    if (*namb > 1) found = -2;
  }
  if (found == -1 && *namb == 0 && !q->numeric) {
    /* The start of a later word of one option's name only ("pass" for
    ** "BLACK pass"). */
    for (uint32_t k = 0; k < q->n; k++) {
      char *have;
      int hit = 0;
      if (!q->name(q->ctx, k, 0, buf, sizeof buf)) continue;
      have = fold(buf);
      for (const char *w = have ? strchr(have, ' ') : NULL; w && !hit; w = strchr(w + 1, ' '))
        hit = starts_with(w + 1, want);
      free(have);
      if (hit) {
        if (*namb < 8) amb[*namb] = k;
        ++*namb;
        found = k;
      }
    }
    if (*namb > 1) found = -2;
  }
  free(folded);
  return found;
}

/* Returns how many of option k of q are left to answer with (UINT32_MAX
** when q does not count them). */
static uint32_t left_of(const rgi_question *q, uint32_t k) {
  return q->left ? q->left(q->ctx, k) : UINT32_MAX;
}

int64_t rgi_question_match(const rgi_question *q, const char *answer) {
  uint32_t amb[8], namb;
  int64_t k = match(q, answer, amb, &namb);
  return k < 0 || left_of(q, (uint32_t)k) == 0 ? -1 : k;
}

/* Writes why a card none of which is left is refused (k: its option). */
static void say_none_left(rg_out *why, const rgi_question *q, int64_t k) {
  char buf[1024];
  if (q->secret) {
    /* Others may be looking: the card is not named. */
    rg_puts(why, "none of that card is left by the cards entered so far");
  } else {
    q->name(q->ctx, (uint32_t)k, 0, buf, sizeof buf);
    rg_printf(why, "no %s is left by the cards entered so far", buf);
  }
  rg_puts(why, "; check the card, or undo to correct one entered before");
}

/* Writes into buf (size > 1) the word option k of q answers to in a typed
** hand: its code (else its name) up to a space, case-folded as answers are
** matched ("red" of RED, "épée" of ÉPÉE); as written when it cannot be
** folded (out of memory, or cut inside a character by buf's size). */
static void hand_word(const rgi_question *q, uint32_t k, char *buf, size_t size) {
  char *folded;
  if (!q->name(q->ctx, k, 1, buf, size) && !q->name(q->ctx, k, 0, buf, size)) buf[0] = '\0';
  buf[strcspn(buf, " ")] = '\0';
  if ((folded = fold(buf))) snprintf(buf, size, "%s", folded);
  free(folded);
}

void rgi_question_hand_example(rg_out *o, const rgi_question *q, int listed) {
  char a[64], b[64];
  uint32_t h = q->hand > 1 ? q->hand : 2;
  hand_word(q, 0, a, sizeof a);
  b[0] = '\0';
  for (uint32_t k = 1; k < q->n && !b[0]; k++) {
    hand_word(q, k, b, sizeof b);
    if (strcmp(a, b) == 0) b[0] = '\0';
  }
  if (!listed) {
    if (b[0]) rg_printf(o, "%u %s 1 %s", h - 1, a, b);
    else rg_printf(o, "%u %s", h, a);
    return;
  }
  for (uint32_t i = 0; i < h; i++)
    rg_printf(o, "%s%s", i ? " " : "", i + 1 == h && b[0] ? b : a);
}

int rgi_question_hand(const rgi_question *q, const char *line, uint32_t *ks, rg_out *why) {
  char tok[256];
  uint32_t n = 0, amb[8], namb;
  int64_t count = -1;       /* a count before the next name, or -1 */
  const char *s = line;
  for (;;) {
    size_t len = 0;
    int64_t v, k;
    while (*s == ' ' || *s == '\t' || *s == ',') s++;
    if (!*s) break;
    while (*s && *s != ' ' && *s != '\t' && *s != ',') {
      if (len + 1 < sizeof tok) tok[len] = *s;
      len++;
      s++;
    }
    if (len >= sizeof tok) len = sizeof tok - 1;
    tok[len] = '\0';
    if (!q->numeric && count < 0 && parse_int(tok, &v) == 0) {
      if (v < 1 || v > (int64_t)q->hand) {
        rg_printf(why, "%lld cards: this hand is %u cards at most", (long long)v, q->hand);
        return -1;
      }
      count = v;
      continue;
    }
    k = match(q, tok, amb, &namb);
    if (k < 0) {
      if (q->secret) rg_puts(why, k == -2 ? "a card's name could be several cards; type more of it"
                                          : "a card's name is not one of the cards");
      else rg_printf(why, k == -2 ? "'%s' could be several cards; type more of it"
                                  : "'%s' is not one of the cards", tok);
      rg_puts(why, " (a hand is names, each may be after a count: ");
      rgi_question_hand_example(why, q, 0);
      rg_puts(why, ")");
      return -1;
    }
    for (int64_t c = count < 0 ? 1 : count; c > 0; c--) {
      uint32_t same = 1;
      if (n == q->hand) {
        rg_printf(why, "more than %u cards: this hand is %u cards", q->hand, q->hand);
        return -1;
      }
      for (uint32_t i = 0; i < n; i++) same += ks[i] == (uint32_t)k;
      if (same > left_of(q, (uint32_t)k)) {
        say_none_left(why, q, k);
        return -1;
      }
      ks[n++] = (uint32_t)k;
    }
    count = -1;
  }
  if (count >= 0 || n == 0) {
    rg_puts(why, "a count needs a card after it (");
    rgi_question_hand_example(why, q, 0);
    rg_puts(why, ")");
    return -1;
  }
  return (int)n;
}

/* Writes what a right answer to q looks like, for "answer ..." */
static void say_expected(rg_out *o, const rgi_question *q) {
  if (q->range && q->dice > 1)
    rg_printf(o, "%u numbers from %lld to %lld, such as %lld %lld", q->dice, (long long)q->lo,
              (long long)(q->lo + (int64_t)q->sides - 1), (long long)q->lo,
              (long long)(q->lo + (int64_t)q->sides - 1));
  else if (q->range) rg_printf(o, "a number from %lld to %lld", (long long)q->lo,
                               (long long)(q->lo + (int64_t)q->n - 1));
  else if (q->numeric) rg_puts(o, "one of the numbers listed");
  else if (q->yesno) rg_puts(o, "yes or no");
  else rg_printf(o, "a number from 1 to %u or an option's name", q->n);
}

/* Returns 1 when the folded line equals one of the words in list (joined
** by '|'). */
static int is_word(const char *line, const char *list) {
  size_t n = strlen(line);
  for (const char *w = list; *w;) {
    const char *bar = strchr(w, '|');
    size_t len = bar ? (size_t)(bar - w) : strlen(w);
    if (len == n && strncmp(w, line, n) == 0) return 1;
    if (!bar) break;
    w = bar + 1;
  }
  return 0;
}

rg_reply rgi_question_reply(const rgi_question *q, char *line, int64_t *k, const char **arg,
                           rg_out *why) {
  char buf[1024];
  char word[16];
  uint32_t amb[8], namb;
  size_t n = 0;
  line = rgi_policy_trim(line);
  *k = -1;
  *arg = NULL;
  while (line[n] && line[n] != ' ' && line[n] != '\t' && n + 1 < sizeof word) {
    char c = line[n];
    word[n++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  word[n] = '\0';
  if (!line[n] || line[n] == ' ' || line[n] == '\t') {
    const char *rest = rgi_policy_trim(line + n);
    /* Commands are words no option can be named by: an option called
    ** "back" would be answered by its number. */
    if (!*rest && (is_word(word, "undo|back"))) return RG_REPLY_UNDO;
    if (!*rest && (is_word(word, "?|help"))) return RG_REPLY_HELP;
    if (is_word(word, "save")) {
      *arg = *rest ? rest : NULL;
      return RG_REPLY_SAVE;
    }
  }
  *k = match(q, line, amb, &namb);
  if (*k >= 0 && left_of(q, (uint32_t)*k) == 0) {
    say_none_left(why, q, *k);
    *k = -1;
    return RG_REPLY_BAD;
  }
  if (*k >= 0) return RG_REPLY_ANSWER;
  if (q->secret) {
    /* Others may be looking: the answer is not repeated. */
    rg_puts(why, *k == -2 ? "that could be several options; type more of the name"
                          : "that is not an option; answer ");
    if (*k != -2) say_expected(why, q);
  } else if (*k == -2) {
    rg_printf(why, "'%s' could be ", line);
    for (uint32_t i = 0; i < namb && i < 8; i++) {
      q->name(q->ctx, amb[i], 0, buf, sizeof buf);
      rg_printf(why, "%s%s", i == 0 ? "" : i + 1 == namb ? " or " : ", ", buf);
    }
    if (namb > 8) rg_puts(why, ", ...");
    rg_puts(why, "; type more of the name");
  } else {
    rg_printf(why, "'%s' is not an option; answer ", line);
    say_expected(why, q);
  }
  rg_puts(why, " (? for help, undo to go back)");
  return RG_REPLY_BAD;
}

/* Returns 1 when name, written as a line of an answers file or a
** transcript, reads back as itself: not empty, no control character
** (newline, tab, CR, DEL), no space or tab around it (a line is trimmed),
** not starting with '#' (a comment) and no command a person types at a
** question (undo, back, ?, help, save). */
static int one_line(const char *name) {
  char word[8];
  size_t n = strlen(name), w = 0;
  if (!n || name[0] == '#' || name[0] == ' ' || name[n - 1] == ' ') return 0;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f) return 0;
  while (name[w] && name[w] != ' ' && w + 1 < sizeof word) {
    word[w] = (char)(name[w] >= 'A' && name[w] <= 'Z' ? name[w] - 'A' + 'a' : name[w]);
    w++;
  }
  word[w] = '\0';
  if (name[w] && name[w] != ' ') return 1;          /* a longer first word */
  if (is_word(word, "save")) return 0;              /* "save" and "save X" */
  return name[w] || !is_word(word, "undo|back|?|help");
}

void rgi_question_answer_text(const rgi_question *q, int64_t k, char *buf, size_t size) {
  char name[1024];
  if (q->range && q->dice > 1) {
    size_t at = 0;
    uint64_t rest = (uint64_t)k;
    buf[0] = '\0';
    for (uint32_t i = 0; i < q->dice && at < size; i++) {
      int w = snprintf(buf + at, size - at, "%s%lld", i ? " " : "",
                       (long long)(q->lo + (int64_t)(rest % q->sides)));
      if (w < 0) break;
      at += (size_t)w;
      rest /= q->sides;
    }
    return;
  }
  if (q->range) {
    snprintf(buf, size, "%lld", (long long)(q->lo + k));
    return;
  }
  q->name(q->ctx, (uint32_t)k, 0, name, sizeof name);
  if (one_line(name) && rgi_question_match(q, name) == k) snprintf(buf, size, "%s", name);
  else snprintf(buf, size, "%lld", (long long)k + 1);
}

void rgi_question_help(rg_out *o, const rgi_question *q) {
  char buf[1024], rem[256];
  if (q->step && *q->step) rg_printf(o, "step: %s\n", q->step);
  if (q->where && *q->where) {
    rg_printf(o, "rule file: %s", q->where);
    if (q->rule && *q->rule) rg_printf(o, ": %s", q->rule);
    rg_putc(o, '\n');
  }
  if (q->range) {
    rg_puts(o, "answer ");
    say_expected(o, q);
    rg_putc(o, '\n');
  } else if (q->yesno) {
    rg_puts(o, "answer yes or no\n");
  } else if (q->numeric) {
    /* numbers are answered by themselves, not by their place in a list */
    rg_puts(o, "answer one of: ");
    rgi_question_options(o, q, q->n);
    rg_putc(o, '\n');
  } else {
    for (uint32_t k = 0; k < q->n; k++) {
      q->name(q->ctx, k, 0, buf, sizeof buf);
      rg_printf(o, "  %u) %s", k + 1, buf);
      if (q->remark && q->remark(q->ctx, k, rem, sizeof rem)) rg_printf(o, "  (%s)", rem);
      rg_putc(o, '\n');
    }
  }
  if (q->hand > 1 && !q->numeric && !q->range) {
    rg_printf(o, "the whole hand at once (%u cards): \"", q->hand);
    rgi_question_hand_example(o, q, 0);
    rg_puts(o, "\", or \"");
    rgi_question_hand_example(o, q, 1);
    rg_puts(o, "\"\n");
  }
  rg_puts(o, "a name may be shortened while only one fits; undo (or back) takes back\n"
             "the last answer; save [FILE] writes the game so far\n");
}

void rgi_question_options(rg_out *o, const rgi_question *q, uint32_t max) {
  char buf[1024];
  if (q->range && q->dice > 1) {
    rg_printf(o, "%u numbers, each %lld..%lld", q->dice, (long long)q->lo,
              (long long)(q->lo + (int64_t)q->sides - 1));
    return;
  }
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

void rgi_question_write(rg_out *o, const rgi_question *q) {
  if (q->who && *q->who) rg_printf(o, "%s, ", q->who);
  rg_puts(o, q->prompt);
}

/* ---- policies -------------------------------------------------------------- */

/* Sets p up empty, of kind k and shown as name. */
static void init(rgi_policy *p, rgi_policy_kind k, const char *name) {
  memset(p, 0, sizeof *p);
  p->kind = k;
  p->name = name;
  rg_buf_init(&p->err);
}

void rgi_policy_random(rgi_policy *p) {
  init(p, RG_POLICY_RANDOM, "random");
}

void rgi_policy_first(rgi_policy *p) {
  init(p, RG_POLICY_FIRST, "first");
}

void rgi_policy_callback(rgi_policy *p, const char *name, rgi_policy_fn fn, void *ctx) {
  init(p, RG_POLICY_CALLBACK, name);
  p->fn = fn;
  p->fn_ctx = ctx;
}

int rgi_policy_answers(rgi_policy *p, const char *source, const char *text, size_t len) {
  size_t bom = rgi_bom_len(text, len);
  init(p, RG_POLICY_ANSWERS, "answers");
  p->source = source;
  text += bom;                              /* a file's byte order mark */
  len -= bom;
  if (len && memchr(text, '\0', len)) {
    rg_printf(&p->err.out, "%s: a NUL byte in the answers", source);
    return -1;
  }
  if (!(p->text = rg_malloc(len + 1)) || !(p->cur = rg_malloc(len + 1))) return -2;
  memcpy(p->text, text, len);
  p->text[len] = '\0';
  return 0;
}

void rgi_policy_free(rgi_policy *p) {
  rg_free(p->text);
  rg_free(p->cur);
  p->text = p->cur = NULL;
  rg_buf_free(&p->err);
}

const char *rgi_policy_error(const rgi_policy *p) {
  return p->err.data ? p->err.data : "";
}

char *rgi_policy_trim(char *s) {
  size_t n;
  while (*s == ' ' || *s == '\t') s++;
  n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
  return s;
}

/* Takes the next answer line of the text (skipping blank and # lines):
** returns it trimmed, in p->cur (the text stays as it was, so that a run
** after the first, from pos 0, reads the same lines), with its line number
** in p->line, or NULL at the end. */
static char *next_answer(rgi_policy *p) {
  while (p->text[p->pos]) {
    const char *s = p->text + p->pos, *nl = strchr(s, '\n');
    size_t n = nl ? (size_t)(nl - s) : strlen(s);
    char *t;
    p->pos += n + (nl ? 1 : 0);
    p->line++;
    memcpy(p->cur, s, n);
    p->cur[n] = '\0';
    t = rgi_policy_trim(p->cur);
    if (*t && *t != '#') return t;
  }
  return NULL;
}

/* The answers policy: the next line must name an option of q. */
static int64_t from_answers(rgi_policy *p, const rgi_question *q) {
  char *a = next_answer(p);
  int64_t k;
  rg_out *e = &p->err.out;
  if (!a) {
    rg_printf(e, "%s:%u: no answer for: ", p->source, p->line + 1);
    rgi_question_write(e, q);
    rg_puts(e, " (the answers ran out)");
    return -1;
  }
  k = rgi_question_match(q, a);
  if (k < 0) {
    rg_printf(e, "%s:%u: '%s' is not an option of: ", p->source, p->line, a);
    rgi_question_write(e, q);
    rg_puts(e, "; options: ");
    rgi_question_options(e, q, LIST_MAX);
  }
  return k;
}

int64_t rgi_policy_choose(rgi_policy *p, const rgi_question *q) {
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
    return (int64_t)rgi_rng_below(&p->rng, q->n);
  }
}
