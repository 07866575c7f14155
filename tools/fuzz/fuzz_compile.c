/*
** fuzz_compile.c: the whole compiler on arbitrary bytes as a rule file.
**
** The input is compiled from memory as fuzz.rules; every file it names
** (`extends`, `from`) is the input again, from a loader of the harness, so
** the disk is never read.  A rule file that compiles is then saved and
** loaded again (the bytes must survive unchanged and pass the verifier),
** disassembled, and every procedure run under small limits.
*/
#include "fuzz.h"

#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rgi_arena arena;
  rgi_diag d;
  rgi_module m;
  rgi_assumption *assumed = NULL;
  fuzz_input in = { data, size, 0 };
  rg_loader loader = fuzz_loader(&in);
  rgi_arena_init(&arena, 0);
  rgi_diag_init(&d, &arena, rg_diagnostic_print, fuzz_null_out());
  if (rgi_compile_source(&d, "fuzz.rules", (const char *)data, size, &loader, &m, &assumed) == 0) {
    fuzz_roundtrip(&m);
    fuzz_run_module(&m, data, size);
    rgi_module_free(&m);
  }
  rgi_arena_free(&arena);
  return 0;
}
