/*
** fuzz_tsv.c: the TSV table reader on arbitrary bytes.
**
** The input is x.tsv, served from memory by the harness's loader; four
** fixed rule files import it as a table of each shape: one key and a plain
** value, one key and a record (every kind of field), two keys with a range,
** two enum keys.  Each is compiled from memory; one that compiles is run
** like fuzz_compile's.
*/
#include "fuzz.h"

#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "module.h"

#include <string.h>

#define HEAD \
  "ruleset \"fuzz\"\n" \
  "unit BW \"base width\"\n" \
  "unit in \"inch\"\n" \
  "enum ground { S \"Standard\", C \"Coastal\", D \"Désert\" }\n" \
  "enum colour { BLACK < WHITE < RED }\n" \
  "record info { n: int, t: set ground, d: distance, p: percent, x: text,\n" \
  "              c: colour, b: bool, i: distance(in) }\n"

/* One rule file per shape of table, each with a procedure that reads it. */
static const char *const rules[] = {
  HEAD
  "table plain(colour) -> percent from \"x.tsv\"\n"
  "procedure main() -> percent {\n  note \"p\", plain[WHITE]\n  return plain[RED]\n}\n",
  HEAD
  "table rec(ground) -> info from \"x.tsv\"\n"
  "procedure main() -> int {\n"
  "  let r = rec[D]\n"
  "  note \"r\", r.x, r.d, r.i, r.p, r.c, r.b\n"
  "  return r.n + count(r.t)\n"
  "}\n",
  HEAD
  "table g2(score: 0..9, t: ground) -> colour from \"x.tsv\"\n"
  "procedure main() -> int {\n"
  "  let n = 0\n"
  "  for s in 0..9 { n = n + ord(g2[s, C]) }\n"
  "  return n\n"
  "}\n",
  HEAD
  "table sets(c: colour, t: ground) -> set ground from \"x.tsv\"\n"
  "procedure main() -> int { return count(sets[WHITE, S] + sets[RED, D]) }\n",
};
#define NRULES (sizeof rules / sizeof *rules)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = { data, size, 1 };
  rg_loader loader = fuzz_loader(&in);
  for (size_t i = 0; i < NRULES; i++) {
    rgi_arena arena;
    rgi_diag d;
    rgi_module m;
    char name[32];
    snprintf(name, sizeof name, "shape%zu.rules", i);
    rgi_arena_init(&arena, 0);
    rgi_diag_init(&d, &arena, rg_diagnostic_print, fuzz_null_out());
    if (rgi_compile_source(&d, name, rules[i], strlen(rules[i]), &loader, &m, NULL) == 0) {
      fuzz_roundtrip(&m);
      fuzz_run_module(&m, data, size);
      rgi_module_free(&m);
    }
    rgi_arena_free(&arena);
  }
  return 0;
}
