/*
** fuzz_fmt.c: the formatter (rg_rules_format) on arbitrary bytes as a rule
** file, checking what `fmt --help` promises:
**
**   - formatting is idempotent: a file it formats formats again to the same
**     bytes;
**   - the formatted file compiles exactly when the input does, and to the
**     same module, byte for byte once the display columns of the line table
**     are zeroed: every line number stays, every name, cell and opcode;
**   - a file it refuses (syntax errors) gets no output.
**
** Any property broken aborts.  Every file the input names (`extends`,
** `from`) is the input again, from the harness's loader, for both compiles
** (so both extend the same base).  When the formatted text equals the
** input, the second compile is skipped (it is the same compile).
*/
#include "fuzz.h"

#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "module.h"
#include "regula_front.h"

#include <stdlib.h>
#include <string.h>

/* Compiles text[0..n) as fuzz.rules with loader and serialises its module,
** the columns of its line table zeroed, into *out (rg_malloc'd).  Returns
** 1 when it compiled, 0 when it did not (*out NULL). */
static int module_bytes(const char *text, size_t n, const rg_loader *loader, unsigned char **out,
                        size_t *outlen) {
  rgi_arena arena;
  rgi_diag d;
  rgi_module m;
  int ok = 0;
  *out = NULL;
  *outlen = 0;
  memset(&m, 0, sizeof m);
  rgi_arena_init(&arena, 0);
  rgi_diag_init(&d, &arena, rg_diagnostic_print, fuzz_null_out());
  if (rgi_compile_source(&d, "fuzz.rules", text, n, loader, &m, NULL) == 0) {
    for (uint32_t i = 0; i < m.nlines; i++) m.lines[i].col = 0;
    if (rgi_module_serialize(&m, out, outlen) != 0) abort();   /* never fails here */
    rgi_module_free(&m);
    ok = 1;
  }
  if (arena.failed) abort();
  rgi_arena_free(&arena);
  return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = { data, size, 0 };
  rg_loader loader = fuzz_loader(&in);
  rg_compile_options o = { .size = sizeof o, .loader = &loader };
  const char *text = (const char *)data;
  rg_buf once, twice;
  rg_status st;

  rg_buf_init(&once);
  rg_buf_init(&twice);
  st = rg_rules_format("fuzz.rules", text, size, &o, &once.out);
  if (once.out.failed) abort();          /* the harness never fails an allocation */
  if (st == RG_BAD_RULES) {
    if (once.len != 0) abort();          /* refused: nothing written */
  } else if (st != RG_OK) {
    abort();
  } else {
    const char *f = once.data ? once.data : "";
    /* idempotent */
    if (rg_rules_format("fuzz.rules", f, once.len, &o, &twice.out) != RG_OK) abort();
    if (once.len != twice.len || (once.len && memcmp(f, twice.data, once.len) != 0)) abort();
    /* the same module, line numbers and all */
    if (once.len != size || memcmp(f, text, size) != 0) {
      unsigned char *a, *b;
      size_t alen, blen;
      int ca = module_bytes(text, size, &loader, &a, &alen);
      int cb = module_bytes(f, once.len, &loader, &b, &blen);
      if (ca != cb) abort();
      if (ca && (alen != blen || memcmp(a, b, alen) != 0)) abort();
      rg_free(a);
      rg_free(b);
    }
  }
  rg_buf_free(&once);
  rg_buf_free(&twice);
  return 0;
}
