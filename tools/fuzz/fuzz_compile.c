/*
** fuzz_compile.c: the whole compiler on arbitrary bytes as a rule file.
**
** rg_compile reads files by path, so the input is written to fuzz.rules in
** the harness's temporary folder first.  A rule file that compiles is then
** saved and loaded again (the bytes must survive unchanged and pass the
** verifier), disassembled, and every procedure run under small limits.
*/
#include "fuzz.h"

#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rg_arena arena;
  rg_diag d;
  rg_module m;
  rg_assumption *assumed = NULL;
  const char *path = fuzz_write("fuzz.rules", data, size);
  rg_arena_init(&arena, 0);
  rg_diag_init(&d, &arena, rg_diagnostic_print, fuzz_null_out());
  if (rg_compile(&d, path, &m, &assumed) == 0) {
    fuzz_roundtrip(&m);
    fuzz_run_module(&m, data, size);
    rg_module_free(&m);
  }
  rg_arena_free(&arena);
  return 0;
}
