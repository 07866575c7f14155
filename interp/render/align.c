/*
** align.c: longest common subsequence alignment with a bound (align.h).
*/
#include "align.h"

#include "regula_front.h"

#include <string.h>

/* Whether spans x and y hold the same bytes. */
static int same(const rgi_span *x, const rgi_span *y) {
  return x->n == y->n && (x->n == 0 || memcmp(x->s, y->s, x->n) == 0);
}

int rgi_align(const rgi_span *a, uint32_t na, const rgi_span *b, uint32_t nb, uint32_t cap,
             int32_t *match) {
  uint32_t pre = 0, suf = 0;
  for (uint32_t i = 0; i < na; i++) match[i] = RG_ALIGN_NONE;
  while (pre < na && pre < nb && same(&a[pre], &b[pre])) {
    match[pre] = (int32_t)pre;
    pre++;
  }
  while (suf < na - pre && suf < nb - pre && same(&a[na - 1 - suf], &b[nb - 1 - suf])) {
    match[na - 1 - suf] = (int32_t)(nb - 1 - suf);
    suf++;
  }
  uint32_t n = na - pre - suf, m = nb - pre - suf;
  if (n == 0 || m == 0) return 0;
  if ((uint64_t)(n + 1) * (m + 1) > cap) return 0;   /* the linear fallback */
  /* L[i][j]: the LCS length of a's middle from i and b's middle from j. */
  uint32_t *L = rg_malloc((size_t)(n + 1) * (m + 1) * sizeof *L);
  if (!L) return -1;
#define AT(i, j) L[(size_t)(i) * (m + 1) + (j)]
  for (uint32_t j = 0; j <= m; j++) AT(n, j) = 0;
  for (uint32_t i = n; i-- > 0;) {
    AT(i, m) = 0;
    for (uint32_t j = m; j-- > 0;)
      AT(i, j) = same(&a[pre + i], &b[pre + j]) ? AT(i + 1, j + 1) + 1
                 : AT(i + 1, j) >= AT(i, j + 1) ? AT(i + 1, j) : AT(i, j + 1);
  }
  uint32_t i = 0, j = 0;
  while (i < n && j < m) {
    if (same(&a[pre + i], &b[pre + j])) {
      match[pre + i] = (int32_t)(pre + j);
      i++, j++;
    } else if (AT(i + 1, j) >= AT(i, j + 1)) {
      i++;
    } else {
      j++;
    }
  }
#undef AT
  rg_free(L);
  return 0;
}

uint32_t rgi_align_words(const char *text, size_t n, rgi_span *out, uint32_t max) {
  uint32_t k = 0;
  size_t i = 0;
  while (i < n && k < max) {
    size_t j = i;
    int space = text[i] == ' ';
    if (k == max - 1) j = n;
    else while (j < n && (text[j] == ' ') == space) j++;
    out[k++] = (rgi_span){ text + i, j - i };
    i = j;
  }
  return k;
}

enum { MAXW = 128 };

/* Returns how many words x and y share (as multisets; the first MAXW words
** of each), and their word counts in *wx and *wy. */
static uint32_t shared_words(const rgi_span *x, const rgi_span *y, uint32_t *wx, uint32_t *wy) {
  rgi_span sx[2 * MAXW], sy[2 * MAXW];
  unsigned char used[2 * MAXW];
  uint32_t nx = rgi_align_words(x->s, x->n, sx, 2 * MAXW), ny = rgi_align_words(y->s, y->n, sy, 2 * MAXW);
  uint32_t common = 0;
  *wx = *wy = 0;
  memset(used, 0, sizeof used);
  for (uint32_t j = 0; j < ny; j++) *wy += sy[j].s[0] != ' ';
  for (uint32_t i = 0; i < nx; i++) {
    if (sx[i].s[0] == ' ') continue;
    ++*wx;
    for (uint32_t j = 0; j < ny; j++)
      if (!used[j] && sy[j].s[0] != ' ' && same(&sx[i], &sy[j])) {
        used[j] = 1;
        common++;
        break;
      }
  }
  return common;
}

/* Pairs a[ia..ia+n) with b[ib..ib+m) into match: the order-keeping pairing
** with the most shared words, pairs sharing a quarter of their words or more.
** Returns 0 or -1 when out of memory. */
static int pair_gap(const rgi_span *a, uint32_t ia, uint32_t n, const rgi_span *b, uint32_t ib,
                    uint32_t m, int32_t *match) {
  if ((uint64_t)n * m > RG_ALIGN_GAP_CAP) {
    for (uint32_t k = 0; k < n && k < m; k++) match[ia + k] = (int32_t)(ib + k);
    return 0;
  }
  /* S[i][j]: the best score of a's gap from i and b's gap from j; W[i][j]:
  ** the score of pairing i with j (0: not allowed). */
  uint32_t *S = rg_malloc((size_t)(n + 1) * (m + 1) * sizeof *S);
  uint32_t *W = rg_malloc((size_t)(n + 1) * (m + 1) * sizeof *W);
  if (!S || !W) {
    rg_free(S);
    rg_free(W);
    return -1;
  }
#define AT(T, i, j) T[(size_t)(i) * (m + 1) + (j)]
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < m; j++) {
      uint32_t wx, wy, c = shared_words(&a[ia + i], &b[ib + j], &wx, &wy);
      AT(W, i, j) = c > 0 && 4 * 2 * c >= wx + wy ? c : 0;
    }
  for (uint32_t j = 0; j <= m; j++) AT(S, n, j) = 0;
  for (uint32_t i = n; i-- > 0;) {
    AT(S, i, m) = 0;
    for (uint32_t j = m; j-- > 0;) {
      uint32_t best = AT(S, i + 1, j) >= AT(S, i, j + 1) ? AT(S, i + 1, j) : AT(S, i, j + 1);
      if (AT(W, i, j) && AT(W, i, j) + AT(S, i + 1, j + 1) > best) best = AT(W, i, j) + AT(S, i + 1, j + 1);
      AT(S, i, j) = best;
    }
  }
  uint32_t i = 0, j = 0;
  while (i < n && j < m) {
    if (AT(W, i, j) && AT(S, i, j) == AT(W, i, j) + AT(S, i + 1, j + 1)) {
      match[ia + i] = (int32_t)(ib + j);
      i++, j++;
    } else if (AT(S, i, j) == AT(S, i + 1, j)) {
      i++;
    } else {
      j++;
    }
  }
#undef AT
  rg_free(S);
  rg_free(W);
  return 0;
}

int rgi_align_gaps(const rgi_span *a, uint32_t na, const rgi_span *b, uint32_t nb, int32_t *match) {
  uint32_t i = 0, j = 0;
  while (i < na || j < nb) {
    uint32_t gi = i, gj = j;
    while (i < na && match[i] == RG_ALIGN_NONE) i++;
    uint32_t nj = i < na ? (uint32_t)match[i] : nb;
    if (i - gi > 0 && nj > gj && pair_gap(a, gi, i - gi, b, gj, nj - gj, match) != 0) return -1;
    if (i >= na) break;
    j = (uint32_t)match[i] + 1;
    i++;
  }
  return 0;
}
