/*
** test_vmsort.c: sorted() and best() near the memory limit.
**
** A sort copies its list, then sorts the copy with a scratch area of the
** same length when the heap has room for one, in place otherwise.  Swept
** over memory limits 8 bytes apart (with and without fused instructions),
** every run must give the right list or stop with the memory limit, never
** a wrong order; some limits must leave room for the copy but not for the
** scratch area, so both kinds of sort are met.
*/
#include "regula_front.h"

#include <stdio.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond, ...) do { \
    if (cond) passed++; \
    else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); \
           putchar('\n'); } \
  } while (0)

/* By hand: 11, then (7i mod 11) for i = 1..10: 7 3 10 6 2 9 5 1 8 4.
** Sorted: 1..11; the best 3: 11, 10, 9. */
static const char text[] =
  "procedure l() -> list int {\n"
  "  let l = [11]\n"
  "  for i in 1..10 { l = l + [(i * 7) mod 11] }\n"
  "  return l\n"
  "}\n"
  "procedure s() -> list int { return sorted(l()) }\n"
  "procedure b() -> list int { return best(l(), 3) }\n";

int main(void) {
  rg_rules *r = NULL;
  static const char *const want[2] = { "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]", "[11, 10, 9]" };
  static const char *const proc[2] = { "s", "b" };
  if (rg_rules_compile("sort", text, sizeof text - 1, NULL, &r) != RG_OK) {
    printf("FAIL test_vmsort: the rules do not compile\n");
    return 1;
  }
  for (int fuse = 0; fuse < 2; fuse++)
    for (int p = 0; p < 2; p++) {
      int right = 0, limited = 0, wrong = 0;
      for (size_t mem = 1024; mem <= 4096; mem += 8) {
        rg_run_options o = RG_OPTIONS(rg_run_options);
        rg_run *run = NULL;
        char buf[128] = "";
        rg_status st;
        o.limits.max_memory = mem;
        o.limits.no_fusion = !fuse;
        if (rg_run_new(r, &o, &run) != RG_OK) {
          wrong++;
          continue;
        }
        st = rg_run_call(run, proc[p], NULL, 0);
        if (st == RG_OK && rg_run_result(run, buf, sizeof buf) == RG_OK &&
            strcmp(buf, want[p]) == 0)
          right++;
        else if (st == RG_RUN_LIMIT && strcmp(rg_run_errmsg(run), "memory limit") == 0)
          limited++;
        else if (wrong++ == 0)
          printf("%s at %zu bytes: %s %s\n", proc[p], mem, rg_status_name(st),
                 st == RG_OK ? buf : rg_run_errmsg(run));
        rg_run_free(run);
      }
      CHECK(wrong == 0 && right > 0 && limited > 0,
            "%s (fused %d): %d right, %d at the limit, %d wrong", proc[p], fuse, right, limited,
            wrong);
    }
  rg_rules_free(r);
  printf("test_vmsort: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
