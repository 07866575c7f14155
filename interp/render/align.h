/*
** align.h: aligning two sequences by content, for the diff.
**
** Table rows, source lines and the words of a text are all sequences of
** spans of text.  rgi_align pairs the items of a with equal items of b along
** a longest common subsequence, so one item removed from the middle is one
** removal and the items after it still pair with their equals.  The LCS
** table costs (na+1)*(nb+1) cells: beyond `cap` cells (after the common
** prefix and suffix are set aside, which costs nothing) it is not built and
** the middle is left unpaired, a linear fallback that still finds a change
** at one place.  rgi_align_gaps then pairs the unequal items left between
** the equal ones, the most alike first (shared words), so a changed row
** shows as one change, not a removal and an addition.
*/
#ifndef RG_ALIGN_H
#define RG_ALIGN_H

#include <stddef.h>
#include <stdint.h>

/* The most LCS cells rgi_align builds (4 MB of uint32_t), and the most
** pairs rgi_align_gaps scores in one gap. */
#define RG_ALIGN_CAP (1u << 20)
#define RG_ALIGN_GAP_CAP (1u << 14)

/* No partner. */
#define RG_ALIGN_NONE (-1)

/* An item: n bytes at s (not NUL-terminated). */
typedef struct rgi_span {
  const char *s;
  size_t n;
} rgi_span;

/* Pairs equal items of a[0..na) and b[0..nb) along a longest common
** subsequence (when the middle's table fits in `cap` cells; else only the
** common prefix and suffix): match[i] is the index in b of a's item i, or
** RG_ALIGN_NONE.  match has na entries, filled here.  Returns 0, or -1 when
** out of memory (match then holds the prefix and suffix pairs only). */
int rgi_align(const rgi_span *a, uint32_t na, const rgi_span *b, uint32_t nb, uint32_t cap,
             int32_t *match);

/* Pairs, in each gap between the pairs of match (rgi_align's), unequal items
** of a and b that share words: in a gap of at most RG_ALIGN_GAP_CAP pairs,
** the order-keeping pairing with the most shared words, each pair sharing
** at least a quarter of its words; a larger gap pairs by position.  Adds the
** pairs to match.  Returns 0, or -1 when out of memory (match unchanged
** beyond the pairs made so far). */
int rgi_align_gaps(const rgi_span *a, uint32_t na, const rgi_span *b, uint32_t nb, int32_t *match);

/* Splits text[0..n) into words and the runs of spaces between them, in
** order, into out[0..max); returns how many (at most max: the rest of the
** text is then the last item). */
uint32_t rgi_align_words(const char *text, size_t n, rgi_span *out, uint32_t max);

#endif
