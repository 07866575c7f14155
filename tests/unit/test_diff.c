/*
** test_diff.c: the change list of two modules (interp/diff.c) and its text
** (interp/diff_text.c), linked against the library only.
**
** The modules are hand-built (modbuild.h) from one recipe with switches, so
** that each case differs from the base in one known way:
**
**   diff-1  a module against an identical one: an empty list, "no differences"
**   diff-2  one changed cell: the table's `~` item, the cell under it with
**           its keys, values, indexes and places on both sides
**   diff-3  an added table: one `+` item, on side b only
**   diff-4  a changed named constant and a removed unit, in section order
**   diff-5  every allocation failing in turn: -1 and an empty list
**   diff-6  a procedure whose second step pushes another number: the
**           procedure's `~` item and the step's under it, with both sides'
**           code spans; its first step, unchanged, is not listed
*/
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "modbuild.h"
#include "out.h"

static int passed, failed;

#define CHECK(cond, ...) do { \
    if (cond) passed++; \
    else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)

enum { CHANGE_CELL = 1, ADD_TABLE = 2, CHANGE_CONST = 4, DROP_UNIT = 8, CHANGE_STEP = 16 };

/* Builds the test module into b: unit BW (unless DROP_UNIT), enum ground
** {S "Standard", C "Coastal"}, table weather(score: 0..2, ground) -> int with
** cell [1, C] = 5 (7 with CHANGE_CELL), a named constant reach = 6 (8 with
** CHANGE_CONST), and with ADD_TABLE a table bonus(score: 1..2) -> int.
** Every cell is given on line 10 + its index, the constant on line 3.  A
** procedure main (line 20 on) has steps "A" (push 1, pop) and "B" (push 2,
** or 3 with CHANGE_STEP, pop), then returns. */
static void build(mb *b, unsigned how) {
  mb_init(b);
  mb_unit(b, "HBW");
  if (!(how & DROP_UNIT)) mb_unit(b, "BW");
  uint32_t e = mb_enum(b, "ground", 2, (const char *[]){"S", "C"});
  b->m.members[b->m.enums[e].first].display = mb_str(b, "Standard");
  b->m.members[b->m.enums[e].first + 1].display = mb_str(b, "Coastal");
  rg_dim dims[2] = { mb_dim_range(0, 3), mb_dim_enum(b, e) };
  dims[0].label = mb_str(b, "score");
  rg_value cells[6] = { 1, 2, 3, (how & CHANGE_CELL) ? 7 : 5, 5, 6 };
  mb_table(b, "weather", 2, dims, T_INT, cells);
  if (how & ADD_TABLE) {
    rg_dim d = mb_dim_range(1, 2);
    mb_table(b, "bonus", 1, &d, T_INT, (rg_value[]){ 1, 2 });
  }
  rg_named *n = MB_PUSH(b->m.named, b->m.nnamed);
  n->name = mb_str(b, "reach");
  n->type = T_INT;
  n->value = (how & CHANGE_CONST) ? 8 : 6;
  n->line = 3;
  for (uint32_t i = 0; i < b->m.ncells; i++) MB_PUSH(b->m.cellsrc, b->m.ncellsrc)->line = 10 + i;
  b->line = 20;
  mb_proc(b, "main", T_VOID, 0, NULL, NULL, 0);
  mb_emit(b, RG_OP_STEP, (int32_t)mb_str(b, "A"));
  mb_emit(b, RG_OP_PUSHI, 1);
  mb_emit(b, RG_OP_POP, 0);
  b->line = 24;
  mb_emit(b, RG_OP_STEP, (int32_t)mb_str(b, "B"));
  mb_emit(b, RG_OP_PUSHI, (how & CHANGE_STEP) ? 3 : 2);
  mb_emit(b, RG_OP_POP, 0);
  mb_emit(b, RG_OP_RETV, 0);
}

/* Renders d as text into a buffer the caller frees with rg_buf_free. */
static void render(const rg_diff *d, rg_buf *t) {
  rg_buf_init(t);
  rg_diff_print(&t->out, d, "");
}

int main(void) {
  mb base, same, cell, table, misc;
  rg_diff d;
  rg_buf t;
  build(&base, 0);
  build(&same, 0);
  build(&cell, CHANGE_CELL);
  build(&table, ADD_TABLE);
  build(&misc, CHANGE_CONST | DROP_UNIT);

  /* diff-1 */
  CHECK(rg_diff_modules(&base.m, &same.m, NULL, 0, &d) == 0, "diff-1: out of memory");
  CHECK(d.n == 0, "diff-1: %u changes between equal modules", d.n);
  render(&d, &t);
  CHECK(t.data && strcmp(t.data, "no differences\n") == 0, "diff-1: text [%s]", t.data);
  rg_buf_free(&t);
  rg_diff_free(&d);

  /* diff-2 */
  CHECK(rg_diff_modules(&base.m, &cell.m, NULL, 0, &d) == 0, "diff-2: out of memory");
  CHECK(d.n == 2, "diff-2: %u changes, want the table and its cell", d.n);
  if (d.n == 2) {
    const rg_change *h = &d.changes[0], *c = &d.changes[1];
    CHECK(h->kind == RG_CHANGE_CHANGED && h->what == RG_DW_TABLE && h->section == RG_DS_TABLES &&
          h->parent == RG_DIFF_NONE && strcmp(h->name, "weather") == 0 && h->a.index == 0 &&
          h->b.index == 0, "diff-2: the table item");
    CHECK(c->kind == RG_CHANGE_CHANGED && c->what == RG_DW_CELL && c->parent == 0 &&
          strcmp(c->row, "1") == 0 && strcmp(c->name, "Coastal") == 0, "diff-2: the cell's keys");
    CHECK(c->a.value == 5 && c->b.value == 7 && strcmp(c->a.text, "5") == 0 &&
          strcmp(c->b.text, "7") == 0 && c->a.type.kind == RG_K_INT, "diff-2: the cell's values");
    CHECK(c->a.index == 3 && c->b.index == 3 && c->a.line == 13 && c->b.line == 13 &&
          strcmp(c->a.file, "test.rules") == 0, "diff-2: the cell's places");
    render(&d, &t);
    CHECK(t.data && strcmp(t.data, "== tables\n"
                                   "~ table weather(score: 0..2, ground)\n"
                                   "    row 1:\n"
                                   "      ~ [Coastal]: 5 -> 7\n"
                                   "          test.rules:13 | test.rules:13\n") == 0,
          "diff-2: text [%s]", t.data);
    rg_buf_free(&t);
  }
  rg_diff_free(&d);

  /* diff-3 */
  CHECK(rg_diff_modules(&base.m, &table.m, NULL, 0, &d) == 0, "diff-3: out of memory");
  CHECK(d.n == 1 && d.changes[0].kind == RG_CHANGE_ADDED && d.changes[0].what == RG_DW_TABLE &&
        strcmp(d.changes[0].name, "bonus") == 0 && d.changes[0].a.index == RG_DIFF_NONE &&
        !d.changes[0].a.file && d.changes[0].b.index == 1 && d.changes[0].b.line == 16,
        "diff-3: %u changes, want one added table", d.n);
  render(&d, &t);
  CHECK(t.data && strcmp(t.data, "== tables\n+ table bonus(1..2)\n    - | test.rules:16\n") == 0,
        "diff-3: text [%s]", t.data);
  rg_buf_free(&t);
  rg_diff_free(&d);

  /* diff-4 */
  CHECK(rg_diff_modules(&base.m, &misc.m, NULL, 0, &d) == 0, "diff-4: out of memory");
  CHECK(d.n == 2 && d.changes[0].what == RG_DW_UNIT && d.changes[0].kind == RG_CHANGE_REMOVED &&
        d.changes[1].what == RG_DW_CONST && d.changes[1].a.value == 6 && d.changes[1].b.value == 8,
        "diff-4: %u changes, want the unit then the constant", d.n);
  render(&d, &t);
  CHECK(t.data && strcmp(t.data, "== units\n- unit BW \"\"\n== constants\n~ reach: 6 -> 8\n"
                                 "    test.rules:3 | test.rules:3\n") == 0,
        "diff-4: text [%s]", t.data);
  rg_buf_free(&t);
  rg_diff_free(&d);

  /* Every allocation failing in turn: -1 and an empty list, never a leak. */
  for (unsigned long k = 1; k < 200; k++) {
    rg_alloc_fail_at(k);
    int rc = rg_diff_modules(&base.m, &cell.m, NULL, 0, &d);
    rg_alloc_fail_at(0);
    CHECK(rc == 0 ? d.n == 2 : rc == -1 && d.n == 0, "diff-5: allocation %lu", k);
    rg_diff_free(&d);
  }

  /* diff-6 */
  {
    mb step;
    build(&step, CHANGE_STEP);
    CHECK(rg_diff_modules(&base.m, &step.m, NULL, 0, &d) == 0, "diff-6: out of memory");
    CHECK(d.n == 2, "diff-6: %u changes, want the procedure and one step", d.n);
    if (d.n == 2) {
      const rg_change *p = &d.changes[0], *st = &d.changes[1];
      CHECK(p->what == RG_DW_PROC && p->kind == RG_CHANGE_CHANGED && strcmp(p->name, "main") == 0 &&
            p->a.code == 0 && p->a.ncode == 7 && p->b.ncode == 7 && p->a.line == 20,
            "diff-6: the procedure item");
      CHECK(st->what == RG_DW_STEP && st->parent == 0 && strcmp(st->name, "B") == 0 &&
            st->a.code == 3 && st->a.ncode == 4 && st->b.code == 3 && st->b.ncode == 4 &&
            st->a.line == 24 && st->b.line == 24, "diff-6: the step item");
      render(&d, &t);
      CHECK(t.data && strcmp(t.data, "== procedures\n~ procedure main\n    test.rules:20 | test.rules:20\n"
                                     "    ~ step \"B\"\n        test.rules:24 | test.rules:24\n") == 0,
            "diff-6: text [%s]", t.data);
      rg_buf_free(&t);
    }
    rg_diff_free(&d);
    rg_module_free(&step.m);
  }

  rg_module_free(&base.m);
  rg_module_free(&same.m);
  rg_module_free(&cell.m);
  rg_module_free(&table.m);
  rg_module_free(&misc.m);
  printf("test_diff: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
