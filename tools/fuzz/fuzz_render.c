/*
** fuzz_render.c: the printers that show a rule set back to people, on
** arbitrary bytes as a rule file, through the public API (regula.h; the
** module's table sizes are read from api_int.h):
**
**   - the sheet (rg_rules_sheet_of): every table and constant printed;
**   - the diff (rg_rules_diff): a rule set compared with itself lists no
**     change, and its text is written.
**
** The input is compiled once (keeping its sources, as `regula sheet` does)
** and both printers work from that.  A rule set of more than
** RENDER_MAX_CELLS table cells is not printed: the sheet writes every cell
** and the diff compares every one, which for the 6,000,000 cells of a
** legal file in the corpus took 9 s under the fuzzer's instrumentation
** (the time limit is 10 s, the machine may be loaded); what the printers
** get wrong shows on small tables, and their time on large ones is
** tools/bench/linear.sh's business.  The formatter has its own harness
** (fuzz_fmt.c).  Any property broken aborts.  Every file the input names (`extends`, `from`) is the input
** again, from the harness's loader.
*/
#include "fuzz.h"

#include "api_int.h"
#include "regula_front.h"

#include <stdlib.h>

/* The most table cells a rule set may have to be printed here. */
#define RENDER_MAX_CELLS 65536u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = { data, size, 0 };
  rg_loader loader = fuzz_loader(&in);
  rg_compile_options o = { .size = sizeof o, .loader = &loader, .keep_sources = 1 };
  rg_rules *r = NULL;
  rg_status st = rg_rules_compile("fuzz.rules", (const char *)data, size, &o, &r);
  if (st == RG_NOMEM) abort();           /* the harness never fails an allocation */
  if (st == RG_OK) {
    uint32_t changes = 0;
    uint64_t cells = 0;
    for (uint32_t t = 0; t < r->m.ntables; t++) cells += r->m.tables[t].count;
    if (cells > RENDER_MAX_CELLS) {
      rg_rules_free(r);
      return 0;
    }
    /* the sheet */
    if (rg_rules_sheet_of(r, NULL, 0, fuzz_null_out()) != RG_OK) abort();
    /* the diff of the rule set with itself: nothing changed */
    if (rg_rules_diff(r, "fuzz.rules", r, "fuzz.rules", fuzz_null_out(), &changes) != RG_OK)
      abort();
    if (changes != 0) abort();
  }
  rg_rules_free(r);
  return 0;
}
