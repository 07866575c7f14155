/*
** test_vmsort.c: sorted(), best(), list subtraction and `in` near the
** memory and step limits.
**
** A sort copies its list, then sorts the copy with a scratch area of the
** same length when the heap has room for one, in place otherwise.  Swept
** over memory limits 8 bytes apart (with and without fused instructions),
** every run must give the right list or stop with the memory limit, never
** a wrong order; some limits must leave room for the copy but not for the
** scratch area, so both kinds of sort are met.  The same for records
** taken from a list of them (`l - m`: the new list and its flags need
** room), looked for in it (`x in l`) and compared (`==`), and over step
** limits one apart (comparing records counts as work): the right answer,
** or the limit.
*/
#include "regula_front.h"

#include <stdio.h>
#include <string.h>
#include "check.h"

/* By hand: 11, then (7i mod 11) for i = 1..10: 7 3 10 6 2 9 5 1 8 4.
** Sorted: 1..11; the best 3: 11, 10, 9. */
static const char text[] =
  "procedure l() -> list int {\n"
  "  let l = [11]\n"
  "  for i in 1..10 { l = l + [(i * 7) mod 11] }\n"
  "  return l\n"
  "}\n"
  "procedure s() -> list int { return sorted(l()) }\n"
  "procedure b() -> list int { return best(l(), 3) }\n"
  "record p { x: int, y: int }\n"
  "procedure pt(x: int, y: int) -> p { return { x: x, y: y } }\n"
  "procedure pts() -> list p {\n"
  "  let l = [pt(0, 0)]\n"
  "  for i in 1..6 { l = l + [pt(i, i * i)] }\n"
  "  return l\n"
  "}\n"
  "procedure sub() -> list p { return pts() - [pt(2, 4), pt(5, 25), pt(9, 0)] }\n"
  "procedure has() -> bool { return pt(6, 36) in pts() }\n"
  "procedure eq() -> bool { return pts() == pts() }\n";

/* Runs proc of r with the limits mem (bytes) and steps (0: the defaults)
** and fusion as given: 1 when it gives want, 0 when it stops at the limit
** (msg), -1 otherwise (printed). */
static int try(const rg_rules *r, const char *proc, size_t mem, uint64_t steps, int fuse,
               const char *want, const char *msg) {
  rg_run_options o = RG_OPTIONS(rg_run_options);
  rg_run *run = NULL;
  char buf[256] = "";
  rg_status st;
  int rc = -1;
  o.limits.max_memory = mem;
  o.limits.max_steps = steps;
  o.limits.no_fusion = !fuse;
  if (rg_run_new(r, &o, &run) != RG_OK) return -1;
  st = rg_run_call(run, proc, NULL, 0);
  if (st == RG_OK && rg_run_result(run, buf, sizeof buf) == RG_OK && strcmp(buf, want) == 0)
    rc = 1;
  else if (st == RG_RUN_LIMIT && strncmp(rg_run_errmsg(run), msg, strlen(msg)) == 0)
    rc = 0;
  else
    printf("%s at %zu bytes, %llu steps: %s %s\n", proc, mem, (unsigned long long)steps,
           rg_status_name(st), st == RG_OK ? buf : rg_run_errmsg(run));
  rg_run_free(run);
  return rc;
}

int main(void) {
  rg_rules *r = NULL;
  static const char *const want[2] = { "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]", "[11, 10, 9]" };
  if (rg_rules_compile("sort", text, sizeof text - 1, NULL, &r) != RG_OK) {
    printf("FAIL test_vmsort: the rules do not compile\n");
    return 1;
  }
  /* By hand: the points (i, i*i) for i = 0..6 without (2, 4) and (5, 25);
  ** (9, 0) is not there and removes nothing.  (6, 36) is there. */
  static const char sub[] = "[{x: 0, y: 0}, {x: 1, y: 1}, {x: 3, y: 9}, {x: 4, y: 16}, "
                            "{x: 6, y: 36}]";
  for (int fuse = 0; fuse < 2; fuse++) {
    for (int p = 0; p < 5; p++) {
      static const char *const procs[5] = { "s", "b", "sub", "has", "eq" };
      const char *want_p = p < 2 ? want[p] : p == 2 ? sub : "true";
      int n[3] = { 0, 0, 0 };
      /* from too little memory up to 16 limits in a row that are enough */
      for (size_t mem = 256, row = 0; mem <= 8192 && row < 16; mem += 8) {
        int rc = try(r, procs[p], mem, 0, fuse, want_p, "memory limit");
        n[1 + rc]++;
        row = rc == 1 ? row + 1 : 0;
      }
      CHECK(n[0] == 0 && n[1] > 0 && n[2] > 0, "%s (fused %d) over memory: %d right, %d at the "
            "limit, %d wrong", procs[p], fuse, n[2], n[1], n[0]);
      if (p < 2) continue;
      n[0] = n[1] = n[2] = 0;
      for (uint64_t steps = 1, row = 0; steps <= 1000 && row < 16; steps++) {
        int rc = try(r, procs[p], 0, steps, fuse, want_p, "step limit of ");
        n[1 + rc]++;
        row = rc == 1 ? row + 1 : 0;
      }
      CHECK(n[0] == 0 && n[1] > 0 && n[2] > 0, "%s (fused %d) over steps: %d right, %d at the "
            "limit, %d wrong", procs[p], fuse, n[2], n[1], n[0]);
    }
  }
  rg_rules_free(r);
  return check_done("test_vmsort");
}
