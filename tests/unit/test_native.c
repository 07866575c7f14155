/*
** test_native.c: the native tier through regula.h (rg_rules_native).
**
** native-1  no options, or a compiler that is not there: RG_OK, a note
**           saying why, and the runs give the VM's results.
** native-2  with /usr/bin/cc (when there) and a fresh cache folder: the
**           folder is made 0700, and results, errors and their places and
**           limit stops are the VM's.
** native-3  the same rules again: the code comes from the cache.
** native-4  runs without fusion stay in the VM (and agree).
** native-5  two rule sets sharing one loaded object (the second from the
**           cache), the first freed: other rules' code compiled next still
**           loads and runs (the loader knows an object by the number of the
**           descriptor it came through; the freed set's number, taken
**           again, named the object still loaded, so the new code was
**           refused as foreign and the VM ran).
*/
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"

/* By hand: total(10) = 55; tri(3) adds 1..3 three times (18); stop(0)
** divides by zero at line 11, column 43 (the /). */
static const char text[] =
  "procedure total(n: int) -> int {\n"
  "  let s = 0\n"
  "  for i in 1..n { s = s + i }\n"
  "  return s\n"
  "}\n"
  "procedure tri(n: int) -> int {\n"
  "  let t = 0\n"
  "  for k in 1..n { t = t + total(n) }\n"
  "  return t\n"
  "}\n"
  "procedure stop(d: int) -> int { return 10 / d }\n";

/* Runs proc(arg) of r (no_fusion as given, max_steps 0: the default) and
** writes "ok RESULT" or "error LINE:COL MESSAGE" into buf. */
static void run(const rg_rules *r, const char *proc, const char *arg, uint64_t max_steps,
                int no_fusion, char *buf, size_t size) {
  rg_run_options o;
  rg_run *run = NULL;
  const char *args[1] = { arg };
  o = RG_OPTIONS(rg_run_options);
  o.limits.max_steps = max_steps;
  o.limits.no_fusion = no_fusion;
  if (rg_run_new(r, &o, &run) != RG_OK) {
    snprintf(buf, size, "no run");
    return;
  }
  if (rg_run_call(run, proc, args, 1) == RG_OK) {
    char res[64];
    rg_run_result(run, res, sizeof res);
    snprintf(buf, size, "ok %s", res);
  } else {
    rg_place at;
    const char *msg = rg_run_errmsg(run);
    rg_run_where(run, &at);
    snprintf(buf, size, "error %u:%u %s", (unsigned)at.line, (unsigned)at.col, msg);
  }
  rg_run_free(run);
}

int main(void) {
  rg_rules *vm = NULL, *nat = NULL;
  char note[512], a[256], b[256], dir[64], cache[128];
  rg_compile_options co;
  co = RG_OPTIONS(rg_compile_options);
  if (rg_rules_compile("t.rules", text, sizeof text - 1, &co, &vm) != RG_OK ||
      rg_rules_compile("t.rules", text, sizeof text - 1, &co, &nat) != RG_OK) {
    printf("FAIL test_native: the rules do not compile\n");
    return 1;
  }
  strcpy(dir, "/tmp/regula-test-native.XXXXXX");
  if (!mkdtemp(dir)) return 1;
  snprintf(cache, sizeof cache, "%s/cache/native", dir);

  /* native-1 */
  CHECK(rg_rules_native(nat, NULL, note, sizeof note) == RG_OK && strstr(note, "the VM runs"),
        "native-1 no options: %s", note);
  rg_native_options no = { sizeof no, "/nonexistent/cc", cache };
  CHECK(rg_rules_native(nat, &no, note, sizeof note) == RG_OK &&
        strcmp(note, "no C compiler at /nonexistent/cc: the VM runs") == 0, "native-1 note: %s", note);
  run(nat, "total", "10", 0, 0, a, sizeof a);
  CHECK(strcmp(a, "ok 55") == 0, "native-1 total(10): %s", a);

  /* native-2 */
  if (access("/usr/bin/cc", X_OK) == 0) {
    struct stat st;
    no.cc = "/usr/bin/cc";
    CHECK(rg_rules_native(nat, &no, note, sizeof note) == RG_OK && strstr(note, "compiled"),
          "native-2 compiled: %s", note);
    CHECK(stat(cache, &st) == 0 && (st.st_mode & 0777) == 0700, "native-2 cache folder mode %o",
          (unsigned)(st.st_mode & 0777));
    static const struct { const char *proc, *arg; uint64_t steps; const char *want; } cases[] = {
      { "total", "10", 0, "ok 55" },
      { "tri", "3", 0, "ok 18" },
      { "stop", "0", 0, "error 11:43 division by zero" },
      { "stop", "3", 0, "ok 3" },
      { "tri", "3", 20, NULL },      /* a step limit, wherever the VM stops */
      { "tri", "3", 40, NULL },
      { "total", "100", 50, NULL },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
      run(vm, cases[k].proc, cases[k].arg, cases[k].steps, 0, a, sizeof a);
      run(nat, cases[k].proc, cases[k].arg, cases[k].steps, 0, b, sizeof b);
      CHECK(strcmp(a, b) == 0, "native-2 %s(%s) steps %llu: VM '%s', native '%s'", cases[k].proc,
            cases[k].arg, (unsigned long long)cases[k].steps, a, b);
      if (cases[k].want) CHECK(strcmp(b, cases[k].want) == 0, "native-2 %s: '%s'", cases[k].proc, b);
      else CHECK(strstr(b, "step limit of") != NULL, "native-2 limit: '%s'", b);
    }

    /* native-3 */
    rg_rules *again = NULL;
    CHECK(rg_rules_compile("t.rules", text, sizeof text - 1, &co, &again) == RG_OK &&
          rg_rules_native(again, &no, note, sizeof note) == RG_OK && strstr(note, "from the cache"),
          "native-3 cached: %s", note);
    run(again, "tri", "4", 0, 0, b, sizeof b);
    CHECK(strcmp(b, "ok 40") == 0, "native-3 tri(4): %s", b);
    rg_rules_free(again);

    /* native-4 */
    run(nat, "stop", "0", 0, 1, b, sizeof b);
    CHECK(strcmp(b, "error 11:43 division by zero") == 0, "native-4 unfused: %s", b);

    /* native-5: by hand, twice(21) = 42 */
    {
      static const char other_text[] = "procedure twice(n: int) -> int { return n * 2 }\n";
      rg_rules *twin = NULL, *other = NULL;
      CHECK(rg_rules_compile("t.rules", text, sizeof text - 1, &co, &twin) == RG_OK &&
            rg_rules_native(twin, &no, note, sizeof note) == RG_OK && strstr(note, "from the cache"),
            "native-5 the twin cached: %s", note);
      rg_rules_free(nat);
      nat = NULL;
      CHECK(rg_rules_compile("o.rules", other_text, sizeof other_text - 1, &co, &other) == RG_OK &&
            rg_rules_native(other, &no, note, sizeof note) == RG_OK &&
            strncmp(note, "native code compiled in ", 24) == 0 && !strstr(note, "replaced"),
            "native-5 other rules compiled and loaded: %s", note);
      run(other, "twice", "21", 0, 0, b, sizeof b);
      CHECK(strcmp(b, "ok 42") == 0, "native-5 twice(21): %s", b);
      run(twin, "tri", "4", 0, 0, b, sizeof b);
      CHECK(strcmp(b, "ok 40") == 0, "native-5 the twin's tri(4): %s", b);
      rg_rules_free(other);
      rg_rules_free(twin);
    }
  }
  rg_rules_free(vm);
  rg_rules_free(nat);
  char cmd[200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) printf("test_native: could not remove %s\n", dir);
  return check_done("test_native");
}
