/*
** test_sheet.c: the sheet renderer (interp/render/sheet.c) on a hand-built module,
** linked against the library only, printing into an rg_buf.
**
**   sheet-1  a table of two keys is a grid, columns the second key, each
**            as wide as its widest text; a cell merged with the one above
**            (rgi_cellsrc.merged) prints `|`, an equal cell given on its own
**            prints its value
**   sheet-2  a table of one integer key folds merged equal consecutive
**            values into one lo..hi line; equal cells given on their own
**            keep a line each
**   sheet-3  the whole sheet: the header, every table, then the constants
**            (a starred distance with `*`); a module without sources says
**            that no assumptions are marked
*/
#include <stdio.h>
#include <string.h>

#include "modbuild.h"
#include "regula_front.h"
#include "sheet.h"
#include "check.h"

/* Compares got with want under name; counts the outcome. */
static void check(const char *name, const char *got, const char *want) {
  if (got && strcmp(got, want) == 0) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s:\n--- want\n%s--- got\n%s---\n", name, want, got ? got : "(nothing)");
}

/* Prints the sheet of m (tables names[0..n), all when n is 0) into a buffer
** and checks it against want. */
static void sheet_case(const char *name, const rgi_module *m, const char *const *names, int n,
                       const char *want) {
  rg_buf b;
  rg_buf_init(&b);
  int rc = rgi_sheet_print(&b.out, m, NULL, NULL, names, n);
  check(name, rc == 0 ? b.data : NULL, want);
  rg_buf_free(&b);
}

int main(void) {
  mb b;
  mb_init(&b);
  b.m.revision = mb_str(&b, "2");
  uint32_t u = mb_unit(&b, "BW");
  uint32_t e = mb_enum(&b, "ground", 2, (const char *[]){"S", "C"});
  b.m.members[b.m.enums[e].first].display = mb_str(&b, "Standard");
  b.m.members[b.m.enums[e].first + 1].display = mb_str(&b, "Coastal");
  rgi_dim dims[2] = { mb_dim_range(0, 3), mb_dim_enum(&b, e) };
  dims[0].label = mb_str(&b, "score");
  /* score 0: 1 1; score 1: 1 2; score 2: 3 2 */
  mb_table(&b, "weather", 2, dims, T_INT, (rgi_value[]){ 1, 1, 1, 2, 3, 2 });
  rgi_dim d = mb_dim_range(1, 6);
  mb_table(&b, "bonus", 1, &d, T_INT, (rgi_value[]){ 0, 0, 0, 1, 1, 2 });
  rgi_named *n = MB_PUSH(b.m.named, b.m.nnamed);
  n->name = mb_str(&b, "reach");
  n->type = (rgi_type){ RG_K_DIST, u };
  n->value = 6000;
  n->starred = 1;
  for (uint32_t i = 0; i < b.m.ncells; i++) MB_PUSH(b.m.cellsrc, b.m.ncellsrc)->line = 1;
  /* merged: weather[1, S] (as `^`), bonus 2 and 3 (one range 1..3); not
  ** weather[2, C] nor bonus 5, equal to the cell before but printed */
  b.m.cellsrc[2].merged = 1;
  b.m.cellsrc[7].merged = 1;
  b.m.cellsrc[8].merged = 1;
  const rgi_module *m = &b.m;

  sheet_case("sheet-1", m, (const char *[]){ "weather" }, 1,
             "test rules, revision 2\n"
             "(a compiled module keeps no assumptions: none are marked)\n"
             "\n"
             "weather(score: 0..2, ground) -> int\n"
             "  score  Standard  Coastal\n"
             "  -----  --------  -------\n"
             "  0      1         1\n"
             "  1      |         2\n"
             "  2      3         2\n");
  sheet_case("sheet-2", m, (const char *[]){ "bonus" }, 1,
             "test rules, revision 2\n"
             "(a compiled module keeps no assumptions: none are marked)\n"
             "\n"
             "bonus(1..6) -> int\n"
             "  1..3  0\n"
             "  4     1\n"
             "  5     1\n"
             "  6     2\n");
  sheet_case("sheet-3", m, NULL, 0,
             "test rules, revision 2\n"
             "(a compiled module keeps no assumptions: none are marked)\n"
             "\n"
             "weather(score: 0..2, ground) -> int\n"
             "  score  Standard  Coastal\n"
             "  -----  --------  -------\n"
             "  0      1         1\n"
             "  1      |         2\n"
             "  2      3         2\n"
             "\n"
             "bonus(1..6) -> int\n"
             "  1..3  0\n"
             "  4     1\n"
             "  5     1\n"
             "  6     2\n"
             "\n"
             "Constants\n"
             "  name   value\n"
             "  -----  -----\n"
             "  reach  6 BW*\n");
  rgi_module_free(&b.m);
  return check_done("test_sheet");
}
