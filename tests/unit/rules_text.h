/*
** rules_text.h: compiles a rule file written in a unit test's source, for
** the tests of the play layer (tally, sim, odds, the test runner).
**
** The text is compiled from memory (rgi_compile_source); errors print on
** stdout.  CHECK and the counts come from check.h.  Header-only (static
** inline, so a test that takes only RULES_ROLL_OFF does not warn), so each
** test program stays one .c file.
*/
#ifndef RG_RULES_TEXT_H
#define RG_RULES_TEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "check.h"
#include "compile.h"
#include "diag.h"
#include "module.h"
#include "regula_front.h"

/* rg_out write callback: to stdout. */
static inline int rules_text_write(void *ctx, const char *s, size_t n) {
  (void)ctx;
  return fwrite(s, 1, n, stdout) == n ? 0 : -1;
}

/* rg_diagnostic_fn: prints a diagnostic on stdout. */
static inline void rules_text_report(void *ctx, const rg_diagnostic *r) {
  rg_out o = { rules_text_write, NULL, 0 };
  (void)ctx;
  rg_diagnostic_render(r, &o);
}

/* Compiles source into *m from memory (arena holds the compile's memory;
** the caller frees both).  Returns 0, or -1 after printing why (the
** diagnostics go to stdout, so that a failing test shows them). */
static inline int rules_text(const char *source, rgi_module *m, rgi_arena *arena) {
  rgi_diag d;
  int rc;
  rgi_arena_init(arena, 0);
  memset(m, 0, sizeof *m);
  rgi_diag_init(&d, arena, rules_text_report, NULL);
  rc = rgi_compile_source(&d, "unit.rules", source, strlen(source), NULL, m, NULL);
  if (rc != 0) printf("FAIL %s: the rule text does not compile\n", __FILE__);
  return rc;
}

/* The text of a procedure `name` (a string literal) -> int: a roll-off of d6
** against d6, ties rolled again; 1 when the first side wins, 2 when the
** second (1/2 each: a loop of chance states for the exact odds). */
#define RULES_ROLL_OFF(name)    \
  "procedure " name "() -> int {\n" \
  "  let a = roll d6\n"         \
  "  let b = roll d6\n"         \
  "  while a == b {\n"          \
  "    a = roll d6\n"           \
  "    b = roll d6\n"           \
  "  }\n"                       \
  "  if a > b { return 1 }\n"   \
  "  return 2\n"                \
  "}\n"

#endif
