/*
** rules_text.h: compiles a rule file written in a unit test's source, for
** the tests of the play layer (tally, sim, odds, the test runner).
**
** The text goes through a temporary file (rg_compile reads a path) that is
** removed at once; errors print on stdout.  CHECK counts a test program's
** checks in passed and failed, printing each failure.  Header-only
** (static), so each test program stays one .c file.
*/
#ifndef RG_RULES_TEXT_H
#define RG_RULES_TEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "module.h"

static int passed, failed;   /* checks so far */

#define CHECK(cond, ...) do { \
    if (cond) passed++; \
    else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)

/* Compiles source into *m (arena holds the compile's memory; the caller
** frees both).  Returns 0, or -1 after printing why. */
static int rules_text(const char *source, rg_module *m, rg_arena *arena) {
  char path[] = "/tmp/regula-unit-XXXXXX";
  int fd = mkstemp(path), rc;
  rg_diag d;
  rg_arena_init(arena, 0);
  memset(m, 0, sizeof *m);
  if (fd < 0 || write(fd, source, strlen(source)) != (ssize_t)strlen(source)) {
    printf("FAIL %s: cannot write %s\n", __FILE__, path);
    if (fd >= 0) close(fd);
    return -1;
  }
  close(fd);
  rg_diag_init(&d, stdout, arena);
  rc = rg_compile(&d, path, m, NULL);
  unlink(path);
  if (rc != 0) printf("FAIL %s: the rule text does not compile\n", __FILE__);
  return rc;
}

#endif
