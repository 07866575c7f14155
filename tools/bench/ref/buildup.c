/* Benchmark "buildup" by hand in C (see tools/bench/README.md).  Run i is
** seeded as `regula sim` seeds it (stream i of the seed) and draws as the
** VM's DRAW does (uniform among the cards left, swap-removed), so the
** tallies equal regula's.
** usage: buildup N [SEED]   -> one line "square count" per square reached */
#include "rng.c"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int allowed[5][5] = {
  { 1, 1, 0, 1, 1 },
  { 1, 1, 1, 0, 1 },
  { 0, 1, 1, 1, 1 },
  { 1, 0, 1, 1, 0 },
  { 1, 1, 1, 1, 1 },
};

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  static const int counts[5] = { 8, 12, 14, 10, 6 };
  int full[50], cards[50], k = 0;
  long tally[25] = { 0 };
  for (int c = 0; c < 5; c++)
    for (int j = 0; j < counts[c]; j++) full[k++] = c;
  for (long i = 0; i < n; i++) {
    rgi_rng r;
    int hand[10], left = 50;
    rgi_rng_stream(&r, seed, (uint64_t)i);
    memcpy(cards, full, sizeof cards);
    for (int h = 0; h < 10; h++) {
      int x = (int)rgi_rng_below(&r, (uint64_t)left);
      hand[h] = cards[x];
      cards[x] = cards[--left];
    }
    int row = 2, col = 2;
    for (int d = 0; d < 5; d++) {
      int diff = hand[d] - hand[5 + d];
      if (diff == 0) continue;
      int ad = diff < 0 ? -diff : diff, dir = diff > 0 ? -1 : 1, diag = ad % 2 == 0;
      for (int s = (ad + 1) / 2; s >= 1; s--) {
        int nc = col + dir * s, nr = diag ? (row + s) % 5 : row;
        if (nc >= 0 && nc <= 4 && allowed[nr][nc]) {
          row = nr;
          col = nc;
          break;
        }
      }
    }
    tally[row * 5 + col]++;
  }
  for (int s = 0; s < 25; s++)
    if (tally[s]) printf("%d %ld\n", s, tally[s]);
  return 0;
}
