/*
** fuzz_render.c: the printers that show a rule file back to people, on
** arbitrary bytes as a rule file, through the public API (regula.h).
**
**   - the formatter (rg_rules_format): a file it formats must format again
**     to the same bytes (formatting twice equals once), and the formatted
**     text must compile exactly when the input does;
**   - the sheet (rg_rules_sheet): every table and constant printed;
**   - the diff (rg_rules_diff): a rule set compared with itself lists no
**     change, and its text is written.
** Any property broken aborts.  Every file the input names (`extends`,
** `from`) is the input again, from the harness's loader.
*/
#include "fuzz.h"

#include "regula.h"

#include <stdlib.h>
#include <string.h>

/* A growing heap buffer that an rg_out writes into. */
typedef struct grow {
  char *p;
  size_t n, cap;
} grow;

/* rg_out write: appends s[0..n) to the grow buffer ctx.  Returns 0, or -1
** when out of memory. */
static int grow_write(void *ctx, const char *s, size_t n) {
  grow *g = ctx;
  if (g->n + n + 1 > g->cap) {
    size_t c = g->cap ? g->cap : 1024;
    while (c < g->n + n + 1) c *= 2;
    char *p = realloc(g->p, c);
    if (!p) return -1;
    g->p = p;
    g->cap = c;
  }
  memcpy(g->p + g->n, s, n);
  g->n += n;
  return 0;
}

/* Formats text[0..n) into g (emptied first).  Returns the status. */
static rg_status format(const char *text, size_t n, const rg_compile_options *o, grow *g) {
  rg_out out = { grow_write, g, 0 };
  g->n = 0;
  return rg_rules_format("fuzz.rules", text, n, o, &out);
}

/* Whether text[0..n) compiles (with the harness's loader in o). */
static int compiles(const char *text, size_t n, const rg_compile_options *o) {
  rg_rules *r = NULL;
  rg_status st = rg_rules_compile("fuzz.rules", text, n, o, &r);
  rg_rules_free(r);
  if (st == RG_NOMEM) abort();   /* the harness never fails an allocation */
  return st == RG_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = { data, size, 0 };
  rg_loader loader = fuzz_loader(&in);
  rg_compile_options o = { .loader = &loader };
  const char *text = (const char *)data;
  grow once = { NULL, 0, 0 }, twice = { NULL, 0, 0 };

  /* the formatter: idempotent, and it keeps a file compiling (or not) */
  if (format(text, size, &o, &once) == RG_OK) {
    if (format(once.p ? once.p : "", once.n, &o, &twice) != RG_OK) abort();
    if (once.n != twice.n || (once.n && memcmp(once.p, twice.p, once.n) != 0)) abort();
    /* the formatted file is compiled with the loader still serving the
    ** input for `extends`, so both compile the same base */
    if (compiles(text, size, &o) != compiles(once.p ? once.p : "", once.n, &o)) abort();
  }

  /* the sheet */
  rg_rules_sheet("fuzz.rules", text, size, &o, fuzz_null_out());

  /* the diff of the rule set with itself: nothing changed */
  rg_rules *r = NULL;
  if (rg_rules_compile("fuzz.rules", text, size, &o, &r) == RG_OK) {
    uint32_t changes = 0;
    if (rg_rules_diff(r, "fuzz.rules", r, "fuzz.rules", fuzz_null_out(), &changes) != RG_OK)
      abort();
    if (changes != 0) abort();
  }
  rg_rules_free(r);
  free(once.p);
  free(twice.p);
  return 0;
}
