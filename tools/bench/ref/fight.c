/* Benchmark "fight" by hand in C (see tools/bench/README.md); the same
** generator and draws as the VM.
** usage: fight N   -> [routs, waverers, courage lost by side B, by side A] */
#include "rng.c"
#include <stdio.h>
#include <stdlib.h>

static int hits(rgi_rng *r, int n, int need) {
  int h = 0;
  for (int k = 0; k < n; k++) h += (int)rgi_rng_below(r, 6) + 1 >= need;
  return h;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  long routs = 0, waverers = 0, dlost = 0, alost = 0;
  rgi_rng r;
  rgi_rng_stream(&r, 0, 0);
  for (long i = 0; i < n; i++) {
    int ah = hits(&r, 6 + 2 * (int)(i % 3), 4);
    int dh = hits(&r, 5, i % 5 == 0 ? 5 : 4);
    int dl = ah - 3 > 0 ? ah - 3 : 0, al = dh - 2 > 0 ? dh - 2 : 0;
    dlost += dl;
    alost += al;
    int c = 4 - dl;
    if (c <= 0) {
      routs++;
    } else if (c <= 2) {
      int failed = 0;
      for (int t = 0; t < (c == 1 ? 2 : 1); t++) {
        int x = (int)rgi_rng_below(&r, 6) + 1, y = (int)rgi_rng_below(&r, 6) + 1;
        if (x < 4 && y < 4) failed = 1;
      }
      waverers += failed;
    }
  }
  printf("[%ld, %ld, %ld, %ld]\n", routs, waverers, dlost, alost);
  return 0;
}
