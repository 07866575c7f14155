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
**   sheet-4  a key with no label is headed "key"; a name that is no table
**            is passed over
**   sheet-5  a record cell off the heap (a crafted module) prints 0s
**   sheet-7  an enum key with no label is headed by its enum's name
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
  {
    /* sheet-4: a key with no label heads its column "key"; a name that is
    ** no table is passed over.  sheet-5: a table of records whose cell
    ** lies off the heap (a crafted module) prints its fields as 0. */
    rgi_dim pd[2] = { mb_dim_range(1, 2), mb_dim_enum(&b, e) };
    mb_table(&b, "plain", 2, pd, T_INT, (rgi_value[]){ 5, 6, 7, 8 });
    uint32_t pair = mb_record(&b, "pair", 2, (const char *[]){ "a", "b" }, (rgi_type[]){ T_INT, T_INT });
    uint32_t pv = mb_heap(&b, 2, (rgi_value[]){ 3, 4 });
    rgi_dim rd = mb_dim_range(1, 2);
    rd.label = mb_str(&b, "row");
    mb_table(&b, "recs", 1, &rd, (rgi_type){ RG_K_RECORD, pair }, (rgi_value[]){ pv, -1 });
    rgi_dim fd[2] = { mb_dim_enum(&b, e), mb_dim_range(1, 2) };
    mb_table(&b, "flip", 2, fd, T_INT, (rgi_value[]){ 1, 2, 3, 4 });
    while (b.m.ncellsrc < b.m.ncells) MB_PUSH(b.m.cellsrc, b.m.ncellsrc)->line = 1;
    m = &b.m;
    sheet_case("sheet-4", m, (const char *[]){ "nope", "plain" }, 2,
               "test rules, revision 2\n"
               "(a compiled module keeps no assumptions: none are marked)\n"
               "\n"
               "plain(1..2, ground) -> int\n"
               "  key  Standard  Coastal\n"
               "  ---  --------  -------\n"
               "  1    5         6\n"
               "  2    7         8\n");
    sheet_case("sheet-7", m, (const char *[]){ "flip" }, 1,
               "test rules, revision 2\n"
               "(a compiled module keeps no assumptions: none are marked)\n"
               "\n"
               "flip(ground, 1..2) -> int\n"
               "  ground    1  2\n"
               "  --------  -  -\n"
               "  Standard  1  2\n"
               "  Coastal   3  4\n");
    sheet_case("sheet-5", m, (const char *[]){ "recs" }, 1,
               "test rules, revision 2\n"
               "(a compiled module keeps no assumptions: none are marked)\n"
               "\n"
               "recs(row: 1..2) -> pair\n"
               "  row  a  b\n"
               "  ---  -  -\n"
               "  1    3  4\n"
               "  2    0  0\n");
  }
  {
    /* sheet-6: out of memory at any allocation of the sheet of a rule set
    ** kept with its sources (notes on cells, records, a grid per leading
    ** key, constants with assumptions, a strategy) is RG_NOMEM (or, when
    ** the output buffer itself could not grow, RG_IO with its rg_out
    ** marked failed: regula.h, rg_out),
    ** never a crash; once the sheet needs no more than the allocator gives, it is
    ** the sheet printed without failures, byte for byte. */
    static const char text[] =
      "ruleset \"faults\"\n"
      "enum ground { S \"Standard\", C \"Coastal\", D }\n"
      "table t(n: 1..5) -> int {\n"
      "  1: 5, 3: 6 assumed \"odd rows\",\n"
      "  2: 0, 4: 0, 5: 0\n"
      "}\n"
      "table g(ground) -> text { S: \"a\\nb\", D: \"long text that wraps\" assumed \"x\", C: \"\" }\n"
      "record kind { move: int, name: text }\n"
      "table stats(k: 1..2) -> kind {\n"
      "  1: { move: 4, name: \"foot\" },\n"
      "  2: { move: 8, name: \"horse\" } assumed \"2nd edition\"\n"
      "}\n"
      "table cube(a: 1..2, ground, b: 1..20) -> int { else: 0 } assumed \"all of it\"\n"
      "const width = 5 assumed \"5 or 6\" assumed \"says 5\"\n"
      "procedure main() -> int { return choose(1, \"how many?\", 1, 3) }\n"
      "strategy bold \"the most\" { \"how many?\": max }\n";
    rg_compile_options o = RG_OPTIONS(rg_compile_options);
    rg_rules *r = NULL;
    rg_buf want;
    rg_buf_init(&want);
    o.keep_sources = 1;
    if (rg_rules_compile("faults.rules", text, sizeof text - 1, &o, &r) != RG_OK ||
        rg_rules_sheet_of(r, NULL, 0, &want.out) != RG_OK || !want.data) {
      failed++;
      printf("FAIL sheet-6: the sheet without failures\n");
    } else {
      int bad = 0;
      unsigned long k;
      for (k = 1; k < 5000; k++) {
        rg_buf got;
        rg_buf_init(&got);
        rg_alloc_fail_at(k);
        rg_status st = rg_rules_sheet_of(r, NULL, 0, &got.out);
        rg_alloc_fail_at(0);
        if (st == RG_IO && got.out.failed) {   /* the buffer itself could not grow: */
          rg_buf_free(&got);                    /* the output says so (rg_out.failed) */
          continue;
        }
        if (st == RG_OK) {
          if (!got.data || strcmp(got.data, want.data) != 0) bad = 1;
          rg_buf_free(&got);
          break;
        }
        if (st != RG_NOMEM) bad = 1;
        rg_buf_free(&got);
      }
      check("sheet-6", bad || k == 1 || k == 5000 ? NULL : "ok", "ok");
    }
    rg_rules_free(r);
    rg_buf_free(&want);
  }
  rgi_module_free(&b.m);
  return check_done("test_sheet");
}
