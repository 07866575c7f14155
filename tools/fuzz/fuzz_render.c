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

/* Formats text[0..n) into the empty buffer b.  Returns the status. */
static rg_status format(const char *text, size_t n, const rg_compile_options *o, rg_buf *b) {
  rg_status st = rg_rules_format("fuzz.rules", text, n, o, &b->out);
  if (b->out.failed) abort();    /* the harness never fails an allocation */
  return st;
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
  rg_buf once, twice;

  rg_buf_init(&once);
  rg_buf_init(&twice);
  /* the formatter: idempotent, and it keeps a file compiling (or not) */
  if (format(text, size, &o, &once) == RG_OK) {
    if (format(once.data ? once.data : "", once.len, &o, &twice) != RG_OK) abort();
    if (once.len != twice.len || (once.len && memcmp(once.data, twice.data, once.len) != 0))
      abort();
    /* the formatted file is compiled with the loader still serving the
    ** input for `extends`, so both compile the same base */
    if (compiles(text, size, &o) != compiles(once.data ? once.data : "", once.len, &o)) abort();
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
  rg_buf_free(&once);
  rg_buf_free(&twice);
  return 0;
}
