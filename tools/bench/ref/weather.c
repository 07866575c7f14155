/* Benchmark "weather" by hand in C (see tools/bench/README.md).  The same
** generator as the VM (interp/vm/rng.c, in this file so that it inlines), the
** same draws in the same order: the counts equal regula's for the same n.
** usage: weather N   -> [count of weather 0, .., count of weather 7] */
#include "rng.c"
#include <stdio.h>
#include <stdlib.h>

static const int grid[15][7] = {
  {0, 0, 0, 0, 0, 1, 7},
  {1, 1, 1, 0, 1, 1, 7},
  {2, 2, 2, 1, 2, 3, 3},
  {2, 3, 2, 2, 2, 3, 3},
  {2, 3, 2, 2, 2, 3, 3},
  {3, 4, 3, 3, 3, 4, 4},
  {4, 4, 3, 4, 4, 4, 4},
  {4, 4, 4, 4, 4, 4, 4},
  {4, 4, 4, 4, 4, 5, 5},
  {4, 4, 4, 4, 4, 5, 5},
  {4, 5, 4, 4, 4, 5, 5},
  {5, 5, 5, 5, 5, 6, 6},
  {5, 5, 5, 5, 5, 6, 6},
  {5, 6, 5, 5, 5, 6, 6},
  {5, 6, 5, 5, 5, 6, 6}
};
static const int season[3] = { -2, 0, 2 };

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  long c[8] = { 0 };
  rgi_rng r;
  rgi_rng_stream(&r, 0, 0);   /* a new VM's generator */
  for (long i = 0; i < n; i++) {
    int s = (int)rgi_rng_below(&r, 6) + 1;
    s += (int)rgi_rng_below(&r, 6) + 1;
    s += season[i % 3];
    if (s < 0) s = 0;
    if (s > 14) s = 14;
    c[grid[s][i % 7]]++;
  }
  printf("[%ld, %ld, %ld, %ld, %ld, %ld, %ld, %ld]\n", c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
  return 0;
}
