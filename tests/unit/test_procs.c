/*
** test_procs.c: regula.h's RG_PROC items are the rule set's procedures,
** "tests not among them": rg_rules_count counts the procedures alone,
** every index below it names one (in the order the file declares them),
** and a test's title is not a procedure, whether the tests come before,
** between or after the procedures in the file, compiled or loaded from
** the module the compile saved.  (rg_rules_count counted the tests too,
** and each front end skipped them by hand.)
*/
#include "regula.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

/* Three procedures, one with a parameter, and three tests around them. */
static const char text[] =
  "ruleset \"procs\"\n"
  "test \"first, before any procedure\" {\n"
  "  expect one() == 1\n"
  "}\n"
  "procedure one() -> int {\n"
  "  return 1\n"
  "}\n"
  "test \"second, between\" {\n"
  "  expect twice(2) == 4\n"
  "}\n"
  "procedure twice(n: int) -> int {\n"
  "  return 2 * n\n"
  "}\n"
  "procedure nothing() {\n"
  "}\n"
  "test \"third, last\" {\n"
  "  expect twice(one()) == 2\n"
  "}\n";

/* Checks what rules r (label: how it was made) says of its procedures. */
static void check_procs(const rg_rules *r, const char *label) {
  static const char *const names[] = { "one", "twice", "nothing" };
  static const int arity[] = { 0, 1, 0 };
  char buf[64];
  CHECK(rg_rules_count(r, RG_PROC) == 3, "%s: %d procedures, not 3", label,
        rg_rules_count(r, RG_PROC));
  for (int i = 0; i < 3; i++) {
    const char *n = rg_rules_item(r, RG_PROC, i);
    CHECK(n && strcmp(n, names[i]) == 0, "%s: procedure %d is '%s', not '%s'", label, i,
          n ? n : "(null)", names[i]);
    CHECK(rg_rules_find(r, RG_PROC, names[i]) == i, "%s: '%s' found at %d", label, names[i],
          rg_rules_find(r, RG_PROC, names[i]));
    CHECK(rg_rules_arity(r, RG_PROC, i) == arity[i], "%s: '%s' takes %d", label, names[i],
          rg_rules_arity(r, RG_PROC, i));
  }
  /* past the last procedure: no item, whatever the tests behind it */
  for (int i = 3; i < 7; i++) {
    CHECK(rg_rules_item(r, RG_PROC, i) == NULL && rg_rules_arity(r, RG_PROC, i) == -1 &&
          rg_rules_type(r, RG_PROC, i, -1, buf, sizeof buf) == NULL &&
          rg_rules_param(r, i, 0) == NULL, "%s: index %d is an item", label, i);
  }
  CHECK(rg_rules_find(r, RG_PROC, "first, before any procedure") == -1 &&
        rg_rules_find(r, RG_PROC, "third, last") == -1, "%s: a test's title found", label);
  CHECK(rg_rules_type(r, RG_PROC, 1, -1, buf, sizeof buf) && strcmp(buf, "int") == 0 &&
        strcmp(rg_rules_param(r, 1, 0), "n") == 0, "%s: twice's types", label);
}

/* Runs the checks; returns 0 when all pass. */
int main(void) {
  rg_rules *r = NULL, *back = NULL;
  char path[] = "/tmp/regula-procs-XXXXXX";
  int fd = mkstemp(path);
  CHECK(rg_rules_compile("procs.rules", text, strlen(text), NULL, &r) == RG_OK && r, "compile");
  if (r) {
    check_procs(r, "compiled");
    CHECK(fd >= 0 && rg_rules_save(r, path) == RG_OK, "save");
    CHECK(rg_rules_load(path, NULL, &back) == RG_OK && back, "load the saved module");
    if (back) check_procs(back, "loaded");
  }
  if (fd >= 0) {
    close(fd);
    unlink(path);
  }
  rg_rules_free(back);
  rg_rules_free(r);
  return check_done("test_procs");
}
