/*
** fuzz_parse.c: the lexer and parser on arbitrary bytes.
**
** The input is a rule file's text: validated and normalized by
** rgi_diag_add_text, then parsed by rgi_parse.  Errors are expected; crashes,
** reads out of bounds, undefined behaviour and leaks are not.
*/
#include "fuzz.h"

#include "arena.h"
#include "diag.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rgi_arena arena;
  rgi_diag d;
  uint32_t file;
  rgi_arena_init(&arena, 0);
  rgi_diag_init(&d, &arena, rg_diagnostic_print, fuzz_null_out());
  if (rgi_diag_add_text(&d, "fuzz.rules", (const char *)data, size, &file) == 0) {
    (void)rgi_parse(&d, file, &arena);
    /* The token dump is the lexer alone, with every literal's value. */
    (void)rgi_dump_tokens(&d, file, &arena, fuzz_null_out());
  }
  rgi_arena_free(&arena);
  return 0;
}
