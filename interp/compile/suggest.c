/*
** suggest.c: "did you mean ...?" for a misspelt name (part of the
** compiler; see compile_int.h).
**
** An error about a name that is not there offers the candidates of its
** place (the names in scope, a record's fields, an enum's members, the
** rules of a procedure) to an rgc_near, which keeps the closest by edit
** distance (insertions, deletions, substitutions and swaps of two
** neighbouring characters, ASCII letters compared without case).  The
** hint is part of the diagnostic's message, so the CLI, the language server
** and the page show the same suggestion.
*/
#include "compile_int.h"

#include <string.h>

#define NEAR_MAX 64     /* longer names are not compared */

/* Returns c in lower case when it is an ASCII capital. */
static unsigned char fold(unsigned char c) {
  return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* Returns the edit distance between a[0..n) and b[0..m) (n, m <=
** NEAR_MAX), counting a swap of two neighbours as one edit; gives up
** (returns limit + 1) as soon as it must be over limit. */
static uint32_t distance(const char *a, size_t n, const char *b, size_t m, uint32_t limit) {
  uint32_t row[3][NEAR_MAX + 1];
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  for (size_t j = 0; j <= m; j++) row[0][j] = (uint32_t)j;
  for (size_t i = 1; i <= n; i++) {
    uint32_t *cur = row[i % 3], *up = row[(i - 1) % 3], *up2 = row[(i + 1) % 3], low;
    cur[0] = (uint32_t)i;
    low = cur[0];
    for (size_t j = 1; j <= m; j++) {
      uint32_t cost = fold((unsigned char)a[i - 1]) != fold((unsigned char)b[j - 1]);
      uint32_t v = up[j - 1] + cost;
      if (up[j] + 1 < v) v = up[j] + 1;
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
      if (i > 1 && j > 1 && fold((unsigned char)a[i - 1]) == fold((unsigned char)b[j - 2]) &&
          fold((unsigned char)a[i - 2]) == fold((unsigned char)b[j - 1]) && up2[j - 2] + 1 < v)
        v = up2[j - 2] + 1;
      cur[j] = v;
      if (v < low) low = v;
    }
    if (low > limit) return limit + 1;
  }
  return row[n % 3][m];
}

void rgc_near_init(rgc_near *nr, const char *word) {
  size_t n = strlen(word);
  nr->word = word;
  nr->best = NULL;
  /* A short name needs most of its letters right: one letter alone is
  ** suggested only for a difference of case. */
  nr->limit = n <= 1 ? 0 : n < 4 ? 1 : n < 8 ? 2 : 3;
  nr->dist = nr->limit + 1;
}

void rgc_near_offer(rgc_near *nr, const char *cand) {
  size_t n = strlen(nr->word), m;
  uint32_t d;
  if (!cand || !*cand || strcmp(cand, nr->word) == 0 || cand[0] == ' ') return;
  m = strlen(cand);
  if (n > NEAR_MAX || m > NEAR_MAX) return;
  d = distance(nr->word, n, cand, m, nr->dist <= nr->limit ? nr->dist : nr->limit);
  if (d < nr->dist && d <= nr->limit) {   /* the first of equals stays */
    nr->dist = d;
    nr->best = cand;
  }
}

void rgc_near_names(cstate *cs, rgc_near *nr, unsigned kinds, bool members, bool locals) {
  if (locals)
    for (uint32_t i = cs->nlocal; i-- > 0;) rgc_near_offer(nr, cs->locals[i].name);
  /* In hint order (NEAR_BUCKETS): among names equally close, the one found
  ** first (the same every time for the same rule file). */
  for (uint32_t b = 0; cs->near_syms && b < NEAR_BUCKETS; b++)
    for (const sym *s = cs->near_syms[b]; s; s = s->near)
      if (kinds >> s->kind & 1) rgc_near_offer(nr, s->name);
  if (members)
    for (uint32_t b = 0; cs->near_members && b < NEAR_BUCKETS; b++)
      for (const memref *m = cs->near_members[b]; m; m = m->near) rgc_near_offer(nr, m->code);
}

void rgc_near_members(cstate *cs, rgc_near *nr, uint32_t en, bool displays) {
  const rgi_enum *e = &AT(cs->enums, rgi_enum, en);
  for (uint32_t i = 0; i < e->count; i++) {
    const rgi_member_info *mi = &AT(cs->members, rgi_member_info, e->first + i);
    rgc_near_offer(nr, cs->pool + mi->code);
    if (displays && mi->display) rgc_near_offer(nr, cs->pool + mi->display);
  }
}

const char *rgc_near_hint(cstate *cs, const rgc_near *nr, const char *quote) {
  if (!nr->best) return "";
  return rgc_describe(cs, "; did you mean %s%s%s?", quote, nr->best, quote);
}

const char *rgc_hint_name(cstate *cs, const char *word, unsigned kinds, bool members, bool locals) {
  rgc_near nr;
  rgc_near_init(&nr, word);
  rgc_near_names(cs, &nr, kinds, members, locals);
  return rgc_near_hint(cs, &nr, "'");
}

const char *rgc_hint_member(cstate *cs, uint32_t en, const char *word, bool displays) {
  rgc_near nr;
  rgc_near_init(&nr, word);
  rgc_near_members(cs, &nr, en, displays);
  return rgc_near_hint(cs, &nr, "'");
}

const char *rgc_hint_field(cstate *cs, uint32_t rec, const char *word) {
  const rgi_record *r = &AT(cs->records, rgi_record, rec);
  rgc_near nr;
  rgc_near_init(&nr, word);
  for (uint32_t k = 0; k < r->count; k++)
    rgc_near_offer(&nr, cs->pool + AT(cs->fields, rgi_field_info, r->first + k).name);
  return rgc_near_hint(cs, &nr, "'");
}
