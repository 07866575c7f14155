/*
** test_status.c: rg_status_name names every status code of regula.h as
** its comment there says, and an unknown one as such.
*/
#include "regula_front.h"

#include <stdio.h>
#include <string.h>
#include "check.h"

/* Checks that status s is named want. */
static void named(rg_status s, const char *want) {
  const char *have = rg_status_name(s);
  CHECK(have && strcmp(have, want) == 0, "status %d is named '%s', not '%s'", (int)s,
        have ? have : "(null)", want);
}

/* Runs the checks; returns 0 when all pass. */
int main(void) {
  named(RG_OK, "ok");
  named(RG_RUN_ERROR, "runtime error");
  named(RG_RUN_LIMIT, "limit reached");
  named(RG_NOMEM, "out of memory");
  named(RG_BAD_RULES, "errors in the rules");
  named(RG_BAD_MODULE, "bad bytecode module");
  named(RG_NOT_FOUND, "not found");
  named(RG_BAD_VALUE, "bad value");
  named(RG_IO, "input/output error");
  named((rg_status)-1, "unknown status");
  named((rg_status)1000, "unknown status");
  return check_done("test_status");
}
