/*
** test_diff.c: the change list of two modules (interp/render/diff.c) and its text
** (interp/render/diff_text.c), linked against the library only.
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
**   diff-7  a list of texts (a table keyed 1..n) with its third row removed:
**           one removal, the rows after it not listed (aligned by content)
**   diff-8  the bound of the alignment: a list with a row removed at its top
**           and two added at its end aligns by content under RG_ALIGN_CAP
**           (3 changes); past the cap it falls back to pairing by position
**           (one change per row), and still finishes
**   diff-9  a procedure drawing a shape whose note is another index in b
**           (the pool differs) is not listed: operands are compared by what
**           they name
**   diff-10 a changed text: the words that changed marked, as
**           [-old-]{+new+} or, with RG_DIFF_COLOR, in ANSI red and green
**   diff-11 a constant and a procedure changed at the same place on both
**           sides (the same source): listed under their RG_DW_CAUSE heads,
**           marked derived, after what changed by hand
**   diff-12 the folder paths share (path.h): a folder and a path inside it,
**           a path that only starts like a folder, "dir/.." folded
**   diff-13 odds hints "TABLE=NdS[+K|-K]" (regula.h: 1 to 6 dice of 2 to
**           20 sides): the valid ones parsed into their parts, every other
**           shape refused (spaces, signs and numbers that wrap as an int
**           among them), by rgi_diff_hint_parse and rg_diff_hint_valid;
**           rg_changes_new refuses a bad one with RG_BAD_VALUE, *out NULL
**   diff-14 tests/diff/steps (a step changed by an override) through
**           regula.h with its source: in colour the hunk's removed line
**           red, its added line green, nothing else coloured; a writer
**           that fails gives RG_IO; every allocation failing in turn,
**           RG_NOMEM and *out NULL (rg_changes_new), RG_NOMEM or RG_IO
**           (rg_changes_write: the renderer's memory, or the buffer's,
**           which is the writer failing), never a crash
**   diff-15 the source of a changed procedure read through the caller's
**           loader (files that are not on the disk, as the page has
**           them): the hunk from the loader's text; a loader that finds
**           nothing leaves the procedure without source, still listed at
**           its code's first line
**   diff-16 the goldens of tests/diff (every, every-json, kinds-json,
**           record, rules, odds-helper: their expected text checked by
**           hand against the two files, tests/diff/README.md) through
**           regula.h with every allocation failing in turn, until both
**           calls succeed: RG_NOMEM and *out NULL (rg_changes_new), RG_NOMEM
**           or RG_IO (rg_changes_write), else exactly the golden's text
**   diff-17 a changed text of 2048 words has its changed word marked; one
**           of 2049 words (past MAXWORDS) is shown whole, old -> new; both
**           are longer than the 512 bytes a constant was compared on (the
**           change was lost: "no differences")
**   diff-18 a rule file that no longer parses when the diff reads it for
**           source (the loader's text has a syntax error): its procedure
**           keeps the module's places and gets no source
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "diff.h"
#include "modbuild.h"
#include "regula_front.h"
#include "path.h"
#include "check.h"

enum { CHANGE_CELL = 1, ADD_TABLE = 2, CHANGE_CONST = 4, DROP_UNIT = 8, CHANGE_STEP = 16, SAME_PLACE = 32 };

/* Builds the test module into b: unit BW (unless DROP_UNIT), enum ground
** {S "Standard", C "Coastal"}, table weather(score: 0..2, ground) -> int with
** cell [1, C] = 5 (7 with CHANGE_CELL), a named constant reach = 6 (8 with
** CHANGE_CONST), and with ADD_TABLE a table bonus(score: 1..2) -> int.
** Every cell is given on line 10 + its index, the constant on line 3 (line
** 4 when changed: restated elsewhere, unless SAME_PLACE).  A procedure main
** (line 20 on) has steps "A" (push 1, pop) and "B" (push 2, or 3 on line 25
** with CHANGE_STEP (line 24 with SAME_PLACE), pop), then returns. */
static void build(mb *b, unsigned how) {
  mb_init(b);
  mb_unit(b, "HBW");
  if (!(how & DROP_UNIT)) mb_unit(b, "BW");
  uint32_t e = mb_enum(b, "ground", 2, (const char *[]){"S", "C"});
  b->m.members[b->m.enums[e].first].display = mb_str(b, "Standard");
  b->m.members[b->m.enums[e].first + 1].display = mb_str(b, "Coastal");
  rgi_dim dims[2] = { mb_dim_range(0, 3), mb_dim_enum(b, e) };
  dims[0].label = mb_str(b, "score");
  rgi_value cells[6] = { 1, 2, 3, (how & CHANGE_CELL) ? 7 : 5, 5, 6 };
  mb_table(b, "weather", 2, dims, T_INT, cells);
  if (how & ADD_TABLE) {
    rgi_dim d = mb_dim_range(1, 2);
    mb_table(b, "bonus", 1, &d, T_INT, (rgi_value[]){ 1, 2 });
  }
  rgi_named *n = MB_PUSH(b->m.named, b->m.nnamed);
  n->name = mb_str(b, "reach");
  n->type = T_INT;
  n->value = (how & CHANGE_CONST) ? 8 : 6;
  n->line = (how & CHANGE_CONST) && !(how & SAME_PLACE) ? 4 : 3;
  for (uint32_t i = 0; i < b->m.ncells; i++) MB_PUSH(b->m.cellsrc, b->m.ncellsrc)->line = 10 + i;
  b->line = 20;
  mb_proc(b, "main", T_VOID, 0, NULL, NULL, 0);
  mb_emit(b, RG_OP_STEP, (int32_t)mb_str(b, "A"));
  mb_emit(b, RG_OP_PUSHI, 1);
  mb_emit(b, RG_OP_POP, 0);
  b->line = 24;
  mb_emit(b, RG_OP_STEP, (int32_t)mb_str(b, "B"));
  if ((how & CHANGE_STEP) && !(how & SAME_PLACE)) b->line = 25;
  mb_emit(b, RG_OP_PUSHI, (how & CHANGE_STEP) ? 3 : 2);
  b->line = 24;
  mb_emit(b, RG_OP_POP, 0);
  mb_emit(b, RG_OP_RETV, 0);
}

/* Builds into b a module with one table `steps(n: 1..count)` of texts: row
** k is "row K" for K = first + k, except that rows in [skip, skip + nskip)
** are left out (the numbering goes on) and `extra` rows "extra E" follow. */
static void build_list(mb *b, uint32_t first, uint32_t count, uint32_t skip, uint32_t nskip,
                       uint32_t extra) {
  uint32_t n = 0;
  rgi_value *cells = malloc(((size_t)count + extra) * sizeof *cells);
  char text[32];
  mb_init(b);
  for (uint32_t k = 0; n < count; k++) {
    if (k >= skip && k < skip + nskip) continue;
    snprintf(text, sizeof text, "row %u", first + k);
    cells[n++] = mb_str(b, text);
  }
  for (uint32_t e = 0; e < extra; e++) {
    snprintf(text, sizeof text, "extra %u", e);
    cells[n++] = mb_str(b, text);
  }
  rgi_dim d = mb_dim_range(1, n);
  d.label = mb_str(b, "n");
  mb_table(b, "steps", 1, &d, T_TEXT, cells);
  for (uint32_t i = 0; i < b->m.ncells; i++) MB_PUSH(b->m.cellsrc, b->m.ncellsrc)->line = 10 + i;
  free(cells);
}

/* A writer that always fails (an rg_out's write). */
static int failing_write(void *ctx, const char *s, size_t n) {
  (void)ctx;
  (void)s;
  (void)n;
  return -1;
}

/* Two rule files held in memory ("mem/a.rules", "mem/b.rules"). */
static const char mem_a[] = "ruleset \"mem\"\nprocedure main() -> int {\n  return 1\n}\n";
static const char mem_b[] = "ruleset \"mem\"\n\nprocedure main() -> int {\n  return 2\n}\n";

/* An rg_loader's load over mem_a and mem_b (ctx non-NULL: finds nothing). */
static rg_status mem_load(void *ctx, const char *from, const char *name, rg_load_kind kind, rg_source *src,
                          char *err, size_t errlen) {
  (void)from;
  (void)kind;
  const char *text = ctx ? NULL : strcmp(name, "mem/a.rules") == 0 ? mem_a
                                : strcmp(name, "mem/b.rules") == 0 ? mem_b : NULL;
  if (!text) {
    snprintf(err, errlen, "cannot open %s", name);
    return RG_NOT_FOUND;
  }
  src->text = text;
  src->len = strlen(text);
  src->path = NULL;
  src->handle = NULL;
  return RG_OK;
}

/* An rg_loader's load: mem/b.rules as a text that does not parse (a
** procedure cut short), anything else as mem_load finds it. */
static rg_status broken_load(void *ctx, const char *from, const char *name, rg_load_kind kind,
                             rg_source *src, char *err, size_t errlen) {
  static const char broken[] = "ruleset \"mem\"\n\nprocedure main() -> int {\n  return 2 +\n}\n";
  (void)ctx;
  if (strcmp(name, "mem/b.rules") != 0) return mem_load(NULL, from, name, kind, src, err, errlen);
  src->text = broken;
  src->len = strlen(broken);
  src->path = NULL;
  src->handle = NULL;
  return RG_OK;
}

/* Returns the stdout part of golden tests/diff/NAME.out (what comes
** before `--- stderr` or `exit: N`), malloc'd, or NULL when unreadable. */
static char *golden(const char *name) {
  char path[256], *text;
  long n;
  FILE *f;
  snprintf(path, sizeof path, "tests/diff/%s.out", name);
  if (!(f = fopen(path, "rb"))) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  rewind(f);
  text = malloc((size_t)n + 1);
  if (text && fread(text, 1, (size_t)n, f) != (size_t)n) n = 0;
  fclose(f);
  if (!text) return NULL;
  text[n] = '\0';
  char *end = strstr(text, "exit: "), *err = strstr(text, "--- stderr\n");
  if (err && (!end || err < end)) end = err;
  if (end) *end = '\0';
  return text;
}

/* Counts the changes of d of kind k that are cells. */
static uint32_t cells_of(const rgi_diff *d, int k) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < d->n; i++) n += d->changes[i].what == RG_DW_CELL && d->changes[i].kind == k;
  return n;
}

/* Renders d as text into a buffer the caller frees with rg_buf_free. */
static void render(const rgi_diff *d, rg_buf *t) {
  rg_buf_init(t);
  rgi_diff_print(&t->out, d, "", 0);
}

int main(void) {
  mb base, same, cell, table, misc;
  rgi_diff d;
  rg_buf t;
  build(&base, 0);
  build(&same, 0);
  build(&cell, CHANGE_CELL);
  build(&table, ADD_TABLE);
  build(&misc, CHANGE_CONST | DROP_UNIT);

  /* diff-1 */
  CHECK(rgi_diff_modules(&base.m, &same.m, NULL, 0, NULL, &d) == 0, "diff-1: out of memory");
  CHECK(d.n == 0, "diff-1: %u changes between equal modules", d.n);
  render(&d, &t);
  CHECK(t.data && strcmp(t.data, "no differences\n") == 0, "diff-1: text [%s]", t.data);
  rg_buf_free(&t);
  rgi_diff_free(&d);

  /* diff-2 */
  CHECK(rgi_diff_modules(&base.m, &cell.m, NULL, 0, NULL, &d) == 0, "diff-2: out of memory");
  CHECK(d.n == 2, "diff-2: %u changes, want the table and its cell", d.n);
  if (d.n == 2) {
    const rgi_change *h = &d.changes[0], *c = &d.changes[1];
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
                                   "    test.rules:10 | test.rules:10\n"
                                   "    row 1:\n"
                                   "      ~ [Coastal]: 5 -> 7\n"
                                   "          test.rules:13 | test.rules:13\n") == 0,
          "diff-2: text [%s]", t.data);
    rg_buf_free(&t);
  }
  rgi_diff_free(&d);

  /* diff-3 */
  CHECK(rgi_diff_modules(&base.m, &table.m, NULL, 0, NULL, &d) == 0, "diff-3: out of memory");
  CHECK(d.n == 1 && d.changes[0].kind == RG_CHANGE_ADDED && d.changes[0].what == RG_DW_TABLE &&
        strcmp(d.changes[0].name, "bonus") == 0 && d.changes[0].a.index == RG_DIFF_NONE &&
        !d.changes[0].a.file && d.changes[0].b.index == 1 && d.changes[0].b.line == 16,
        "diff-3: %u changes, want one added table", d.n);
  render(&d, &t);
  CHECK(t.data && strcmp(t.data, "== tables\n+ table bonus(1..2)\n    - | test.rules:16\n") == 0,
        "diff-3: text [%s]", t.data);
  rg_buf_free(&t);
  rgi_diff_free(&d);

  /* diff-4 */
  CHECK(rgi_diff_modules(&base.m, &misc.m, NULL, 0, NULL, &d) == 0, "diff-4: out of memory");
  CHECK(d.n == 2 && d.changes[0].what == RG_DW_UNIT && d.changes[0].kind == RG_CHANGE_REMOVED &&
        d.changes[1].what == RG_DW_CONST && d.changes[1].a.value == 6 && d.changes[1].b.value == 8,
        "diff-4: %u changes, want the unit then the constant", d.n);
  render(&d, &t);
  CHECK(t.data && strcmp(t.data, "== units\n- unit BW \"\"\n== constants\n~ reach: 6 -> 8\n"
                                 "    test.rules:3 | test.rules:4\n") == 0,
        "diff-4: text [%s]", t.data);
  rg_buf_free(&t);
  rgi_diff_free(&d);

  /* Every allocation failing in turn: -1 and an empty list, never a leak. */
  for (unsigned long k = 1; k < 200; k++) {
    rg_alloc_fail_at(k);
    int rc = rgi_diff_modules(&base.m, &cell.m, NULL, 0, NULL, &d);
    rg_alloc_fail_at(0);
    CHECK(rc == 0 ? d.n == 2 : rc == -1 && d.n == 0, "diff-5: allocation %lu", k);
    rgi_diff_free(&d);
  }

  /* diff-6 */
  {
    mb step;
    build(&step, CHANGE_STEP);
    CHECK(rgi_diff_modules(&base.m, &step.m, NULL, 0, NULL, &d) == 0, "diff-6: out of memory");
    CHECK(d.n == 2, "diff-6: %u changes, want the procedure and one step", d.n);
    if (d.n == 2) {
      const rgi_change *p = &d.changes[0], *st = &d.changes[1];
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
    rgi_diff_free(&d);
    rgi_module_free(&step.m);
  }

  /* diff-7 */
  {
    mb la, lb;
    build_list(&la, 1, 8, 99, 0, 0);
    build_list(&lb, 1, 7, 2, 1, 0);
    CHECK(rgi_diff_modules(&la.m, &lb.m, NULL, 0, NULL, &d) == 0, "diff-7: out of memory");
    CHECK(d.n == 3 && cells_of(&d, '-') == 1 && cells_of(&d, '~') == 0 && cells_of(&d, '+') == 0,
          "diff-7: %u changes, want the table, its dimensions and one removed row", d.n);
    render(&d, &t);
    CHECK(t.data && strcmp(t.data, "== tables\n~ table steps(n: 1..8)\n"
                                   "    test.rules:10 | test.rules:10\n"
                                   "    dimensions: (n: 1..8) -> (n: 1..7)\n"
                                   "    - [3]: \"row 3\"\n        test.rules:12 | -\n") == 0,
          "diff-7: text [%s]", t.data);
    rg_buf_free(&t);
    rgi_diff_free(&d);
    rgi_module_free(&la.m);
    rgi_module_free(&lb.m);
  }

  /* diff-8: under the cap (500 rows: 251,502 cells), then past it (1100
  ** rows: 1,211,102 cells > RG_ALIGN_CAP). */
  for (int big = 0; big < 2; big++) {
    mb la, lb;
    uint32_t n = big ? 1100 : 500;
    build_list(&la, 1, n, 99999, 0, 0);
    build_list(&lb, 1, n - 1, 0, 1, 2);   /* row 1 gone, two extra rows: n + 1 */
    CHECK(((uint64_t)(n + 1) * (n + 2) > RG_ALIGN_CAP) == (big == 1), "diff-8: the sizes straddle the cap");
    CHECK(rgi_diff_modules(&la.m, &lb.m, NULL, 0, NULL, &d) == 0, "diff-8: out of memory");
    if (!big)
      CHECK(cells_of(&d, '-') == 1 && cells_of(&d, '+') == 2 && cells_of(&d, '~') == 0,
            "diff-8: %u removed, %u added, %u changed; want 1, 2, 0 under the cap",
            cells_of(&d, '-'), cells_of(&d, '+'), cells_of(&d, '~'));
    else
      CHECK(cells_of(&d, '-') == 0 && cells_of(&d, '+') == 1 && cells_of(&d, '~') == n,
            "diff-8: %u removed, %u added, %u changed; want 0, 1, %u past the cap",
            cells_of(&d, '-'), cells_of(&d, '+'), cells_of(&d, '~'), n);
    rgi_diff_free(&d);
    rgi_module_free(&la.m);
    rgi_module_free(&lb.m);
  }

  /* diff-9 */
  {
    mb sa, sb;
    for (int side = 0; side < 2; side++) {
      mb *b = side ? &sb : &sa;
      mb_init(b);
      if (side) mb_note(b, "an unused note first", 0, NULL);
      uint32_t note = mb_note(b, "rect", 1, (rgi_type[]){ T_INT });
      b->line = 20;
      mb_proc(b, "draw", T_VOID, 0, NULL, NULL, 0);
      mb_emit(b, RG_OP_PUSHI, 4);
      mb_emit(b, RG_OP_SHAPE, (int32_t)note);
      mb_emit(b, RG_OP_RETV, 0);
    }
    CHECK(sa.m.code[1] != sb.m.code[1], "diff-9: the SHAPE instructions differ as numbers");
    CHECK(rgi_diff_modules(&sa.m, &sb.m, NULL, 0, NULL, &d) == 0 && d.n == 0,
          "diff-9: %u changes, want none", d.n);
    rgi_diff_free(&d);
    rgi_module_free(&sa.m);
    rgi_module_free(&sb.m);
  }

  /* diff-10 */
  {
    mb ta, tb;
    for (int side = 0; side < 2; side++) {
      mb *b = side ? &tb : &ta;
      mb_init(b);
      rgi_named *n = MB_PUSH(b->m.named, b->m.nnamed);
      n->name = mb_str(b, "motto");
      n->type = T_TEXT;
      n->value = mb_str(b, side ? "place the camp last" : "place the camp first");
      n->line = side ? 5 : 3;
    }
    CHECK(rgi_diff_modules(&ta.m, &tb.m, NULL, 0, NULL, &d) == 0 && d.n == 1, "diff-10: %u changes", d.n);
    render(&d, &t);
    CHECK(t.data && strcmp(t.data, "== constants\n~ motto: \"place the camp [-first\"-]{+last\"+}\n"
                                   "    test.rules:3 | test.rules:5\n") == 0, "diff-10: text [%s]", t.data);
    rg_buf_free(&t);
    rg_buf_init(&t);
    rgi_diff_print(&t.out, &d, "", RG_DIFF_COLOR);
    CHECK(t.data && strcmp(t.data, "== constants\n~ motto: \"place the camp \033[31mfirst\"\033[m"
                                   "\033[32mlast\"\033[m\n    test.rules:3 | test.rules:5\n") == 0,
          "diff-10: colour [%s]", t.data);
    rg_buf_free(&t);
    rgi_diff_free(&d);
    rgi_module_free(&ta.m);
    rgi_module_free(&tb.m);
  }

  /* diff-11 */
  {
    mb same_place;
    build(&same_place, CHANGE_CONST | CHANGE_STEP | SAME_PLACE);
    CHECK(rgi_diff_modules(&base.m, &same_place.m, NULL, 0, NULL, &d) == 0 && d.n == 4,
          "diff-11: %u changes, want two heads and two items", d.n);
    if (d.n == 4) {
      const rgi_change *c = d.changes;
      CHECK(c[0].what == RG_DW_CAUSE && c[0].section == RG_DS_CONSTANTS && c[1].what == RG_DW_CONST &&
            c[1].parent == 0 && c[1].cause == 0 && c[1].derived, "diff-11: the constant under its head");
      CHECK(c[2].what == RG_DW_CAUSE && c[2].section == RG_DS_PROCEDURES && c[3].what == RG_DW_PROC &&
            c[3].parent == 2 && c[3].derived, "diff-11: the procedure under its head");
      render(&d, &t);
      CHECK(t.data && strstr(t.data, "~ the same declaration on both sides, 1 constant computed from "
                                     "the changes above:\n    ~ reach: 6 -> 8\n"), "diff-11: text [%s]", t.data);
      rg_buf_free(&t);
    }
    rgi_diff_free(&d);
    rgi_module_free(&same_place.m);
  }

  /* diff-12 */
  {
    static const char *const cases[][3] = {
      { "tests/lang/", "tests/lang/variants/parts.rules", "tests/lang/" },
      { "tests/run/places/", "tests/run/places-base.rules", "tests/run/" },
      { "rules/game/revised/../base.rules", "rules/game/revised/base.rules", "rules/game/" },
      { "x.rules", "x.rules", "" },
      { "a/x.rules", "a/x.rules", "a/" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
      char buf[64];
      rgi_path_shared_dir(cases[k][0], cases[k][1], buf, sizeof buf);
      CHECK(strcmp(buf, cases[k][2]) == 0, "diff-12: %s, %s: [%s], want [%s]", cases[k][0], cases[k][1],
            buf, cases[k][2]);
    }
  }

  /* diff-13 */
  {
    static const struct { const char *text; int n, sides, plus; } good[] = {
      { "weather=2d6", 2, 6, 0 }, { "w=d6", 1, 6, 0 }, { "w=D6", 1, 6, 0 }, { "w=3D10+2", 3, 10, 2 },
      { "w=2d6-1", 2, 6, -1 }, { "w=6d20", 6, 20, 0 }, { "w=1d2", 1, 2, 0 },
      /* sums up to 127, totals up to INT64_MAX (3^39 and 2^62 below it) */
      { "w=7d6", 7, 6, 0 }, { "w=1d21", 1, 21, 0 }, { "w=1d100", 1, 100, 0 }, { "w=1d127", 1, 127, 0 },
      { "w=21d6", 21, 6, 0 }, { "w=39d3", 39, 3, 0 }, { "w=62d2", 62, 2, 0 },
      { "w=2d6+2147483647", 2, 6, 2147483647 }, { "w=2d6-2147483647", 2, 6, -2147483647 },
    };
    static const char *const bad[] = {
      "=2d6",        /* no table */
      "w2d6",        /* no `=` */
      "w=2x6",       /* no `d` */
      "w=",          /* nothing after `=` */
      "w=2d",        /* no sides */
      "w=2d6+",      /* a sign without a number */
      "w=2d6-",      /* the same */
      "w=2d6x",      /* something after the dice */
      "w=2d6+1x",    /* the same after a modifier */
      "w=1d128",     /* a sum of 128 */
      "w=22d6",      /* a sum of 132 */
      "w=40d3",      /* 3^40 outcomes: past INT64_MAX */
      "w=63d2",      /* 2^63 outcomes: past INT64_MAX */
      "w=0d6",       /* no dice */
      "w=1d1",       /* fewer than 2 sides */
      "w=-1d6",      /* a negative count */
      /* what strtol would take: spaces, a sign, a number that wraps (as
      ** an int, 4294967297 is 1 and 4294967302 is 6) */
      "w= 2d6", "w=2d 6", "w=+2d6", "w=2d+6", "w=2d6+ 1", "w=4294967297d6", "w=2d4294967302",
      "w=2d6+2147483648", "w=2d6+99999999999",
      "w=2dx", "w=xd6",   /* a letter where the digits go */
    };
    rgi_diff_hint h;
    char longname[200];
    for (size_t k = 0; k < sizeof good / sizeof *good; k++) {
      int rc = rgi_diff_hint_parse(good[k].text, &h);
      CHECK(rc == 0 && h.n == good[k].n && h.sides == good[k].sides && h.plus == good[k].plus &&
            strncmp(h.table, good[k].text, strlen(h.table)) == 0 && good[k].text[strlen(h.table)] == '=',
            "diff-13: %s: rc %d, %dd%d%+d in [%s]", good[k].text, rc, h.n, h.sides, h.plus, h.table);
      CHECK(rg_diff_hint_valid(good[k].text) == 1, "diff-13: %s is valid", good[k].text);
    }
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
      CHECK(rgi_diff_hint_parse(bad[k], &h) == -1, "diff-13: %s parsed", bad[k]);
      CHECK(rg_diff_hint_valid(bad[k]) == 0, "diff-13: %s is valid", bad[k]);
    }
    /* a table name that does not fit the hint's 128 bytes */
    memset(longname, 'x', 150);
    strcpy(longname + 150, "=2d6");
    CHECK(rg_diff_hint_valid(longname) == 0, "diff-13: a 150-byte table name is valid");
    CHECK(rg_diff_hint_valid(NULL) == 0, "diff-13: NULL is valid");

    static const char text[] = "ruleset \"hint\"\ntable t(n: 2..12) -> int { else: 1 }\n";
    rg_rules *r = NULL;
    rg_changes *ch = (rg_changes *)&h;   /* set to NULL on failure */
    const char *hints[2] = { "t=2d6", "t=2x6" };
    rg_diff_options opt;
    memset(&opt, 0, sizeof opt);
    opt.size = sizeof opt;
    opt.odds = hints;
    opt.nodds = 2;
    CHECK(rg_rules_compile("hint.rules", text, strlen(text), NULL, &r) == RG_OK, "diff-13: compile");
    CHECK(rg_changes_new(r, r, &opt, &ch) == RG_BAD_VALUE && ch == NULL,
          "diff-13: a bad hint among good ones is not refused");
    opt.nodds = 1;
    CHECK(rg_changes_new(r, r, &opt, &ch) == RG_OK && ch && rg_changes_count(ch) == 0,
          "diff-13: a rule set against itself with a good hint");
    rg_changes_free(ch);
    CHECK(rg_changes_new(r, r, NULL, &ch) == RG_OK && ch && rg_changes_count(ch) == 0,
          "diff-13: NULL options");
    rg_changes_free(ch);
    CHECK(rg_changes_count(NULL) == 0, "diff-13: the count of no list");
    rg_rules_free(r);
  }

  /* diff-14 */
  {
    static const char want[] =
      "== ruleset\n"
      "~ name: \"Steps base\" -> \"Steps variant\"\n"
      "    steps-base.rules:2 | steps-variant.rules:2\n"
      "== procedures\n"
      "~ procedure main\n"
      "    steps-base.rules:4 | steps-base.rules:4\n"
      "    ~ step \"Scouting\"\n"
      "        steps-base.rules:7 | steps-variant.rules:4\n"
      "        source \"sheet B line 7: four cards each\"\n"
      "        --- steps-base.rules\n"
      "        +++ steps-variant.rules\n"
      "        @@ -7,4 +4,4 @@\n"
      "          step \"Scouting\" {\n"
      "        \033[31m-   let n = 3\033[m\n"
      "        \033[32m+   let n = 4\033[m\n"
      "            note \"draw cards\", n\n"
      "            note \"compare totals\"\n";
    rg_rules *ra = NULL, *rb = NULL;
    rg_changes *ch = NULL;
    rg_diff_options opt;
    memset(&opt, 0, sizeof opt);
    opt.size = sizeof opt;
    opt.with_source = 1;
    CHECK(rg_rules_load("tests/diff/steps-base.rules", NULL, &ra) == RG_OK &&
          rg_rules_load("tests/diff/steps-variant.rules", NULL, &rb) == RG_OK, "diff-14: load");
    CHECK(rg_changes_new(ra, rb, &opt, &ch) == RG_OK && rg_changes_count(ch) == 3,
          "diff-14: %u changes, want the header, main and its step", rg_changes_count(ch));
    rg_buf_init(&t);
    CHECK(rg_changes_write(ch, RG_DIFF_TEXT, RG_DIFF_COLOR, "tests/diff/", &t.out) == RG_OK &&
          t.data && strcmp(t.data, want) == 0, "diff-14: colour [%s]", t.data);
    rg_buf_free(&t);
    /* a writer that fails: RG_IO, in each format */
    for (int f = RG_DIFF_TEXT; f <= RG_DIFF_JSON; f++) {
      rg_out bad = { failing_write, NULL, 0 };
      CHECK(rg_changes_write(ch, (rg_diff_format)f, 0, NULL, &bad) == RG_IO, "diff-14: format %d to a failing writer", f);
    }
    rg_changes_free(ch);
    /* every allocation failing in turn, until both calls succeed */
    unsigned long k;
    for (k = 1; k < 100000; k++) {
      ch = (rg_changes *)&opt;          /* must become NULL on failure */
      rg_alloc_fail_at(k);
      rg_status st = rg_changes_new(ra, rb, &opt, &ch);
      rg_status wt = RG_OK;
      if (st == RG_OK) {
        rg_buf_init(&t);
        wt = rg_changes_write(ch, RG_DIFF_TEXT, RG_DIFF_COLOR, "tests/diff/", &t.out);
      }
      rg_alloc_fail_at(0);
      if (st != RG_OK) {
        CHECK(st == RG_NOMEM && ch == NULL, "diff-14: allocation %lu: %s", k, rg_status_name(st));
        continue;
      }
      int done = wt == RG_OK;
      /* the renderer's own allocation: RG_NOMEM; the buffer's (the writer
      ** failing): RG_IO */
      CHECK(wt == RG_OK ? t.data && strcmp(t.data, want) == 0 : wt == RG_NOMEM || wt == RG_IO,
            "diff-14: allocation %lu: write %s", k, rg_status_name(wt));
      rg_buf_free(&t);
      rg_changes_free(ch);
      if (done) break;
    }
    CHECK(k > 1 && k < 100000, "diff-14: the failures end (%lu)", k);
    rg_rules_free(ra);
    rg_rules_free(rb);
  }

  /* diff-15 */
  {
    rg_loader ld = { mem_load, NULL, NULL }, none = { mem_load, NULL, &ld };
    rg_rules *ra = NULL, *rb = NULL;
    rg_changes *ch = NULL;
    rg_diff_options opt;
    memset(&opt, 0, sizeof opt);
    opt.size = sizeof opt;
    opt.with_source = 1;
    opt.loader = &ld;
    CHECK(rg_rules_compile("mem/a.rules", mem_a, strlen(mem_a), NULL, &ra) == RG_OK &&
          rg_rules_compile("mem/b.rules", mem_b, strlen(mem_b), NULL, &rb) == RG_OK, "diff-15: compile");
    CHECK(rg_changes_new(ra, rb, &opt, &ch) == RG_OK && rg_changes_count(ch) == 1, "diff-15: %u changes",
          rg_changes_count(ch));
    rg_buf_init(&t);
    CHECK(rg_changes_write(ch, RG_DIFF_TEXT, 0, "mem/", &t.out) == RG_OK && t.data &&
          strcmp(t.data, "== procedures\n~ procedure main\n    a.rules:2 | b.rules:3\n"
                         "    --- a.rules\n    +++ b.rules\n    @@ -2,3 +3,3 @@\n"
                         "      procedure main() -> int {\n    -   return 1\n    +   return 2\n      }\n") == 0,
          "diff-15: through the loader [%s]", t.data);
    rg_buf_free(&t);
    rg_changes_free(ch);
    /* unread, the procedure keeps the module's place: its first
    ** instruction's line (`return 1` on line 3, `return 2` on line 4) */
    opt.loader = &none;
    CHECK(rg_changes_new(ra, rb, &opt, &ch) == RG_OK && rg_changes_count(ch) == 1, "diff-15: nothing found");
    rg_buf_init(&t);
    CHECK(rg_changes_write(ch, RG_DIFF_TEXT, 0, "mem/", &t.out) == RG_OK && t.data &&
          strcmp(t.data, "== procedures\n~ procedure main\n    a.rules:3 | b.rules:4\n") == 0,
          "diff-15: no source [%s]", t.data);
    rg_buf_free(&t);
    rg_changes_free(ch);
    rg_rules_free(ra);
    rg_rules_free(rb);
  }

  /* diff-16 */
  {
    static const struct { const char *golden, *a, *b; rg_diff_format format; } pairs[] = {
      { "every", "every-base", "every-variant", RG_DIFF_TEXT },
      { "every-json", "every-base", "every-variant", RG_DIFF_JSON },
      { "kinds-json", "kinds-base", "kinds-revised", RG_DIFF_JSON },
      { "record", "record-base", "record-variant", RG_DIFF_TEXT },
      { "rules", "rules-base", "rules-revised", RG_DIFF_TEXT },
      { "odds-helper", "odds-helper-base", "odds-helper-variant", RG_DIFF_TEXT },
    };
    for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p++) {
      char pa[128], pb[128];
      char *want = golden(pairs[p].golden);
      rg_rules *ra = NULL, *rb = NULL;
      rg_changes *ch = NULL;
      rg_diff_options opt;
      memset(&opt, 0, sizeof opt);
      opt.size = sizeof opt;
      opt.with_source = 1;
      snprintf(pa, sizeof pa, "tests/diff/%s.rules", pairs[p].a);
      snprintf(pb, sizeof pb, "tests/diff/%s.rules", pairs[p].b);
      CHECK(want && rg_rules_load(pa, NULL, &ra) == RG_OK && rg_rules_load(pb, NULL, &rb) == RG_OK,
            "diff-16: %s: load", pairs[p].golden);
      unsigned long k;
      for (k = 0; want && ra && rb && k < 100000; k++) {
        rg_alloc_fail_at(k);                /* 0: nothing fails */
        rg_status st = rg_changes_new(ra, rb, &opt, &ch);
        rg_status wt = RG_OK;
        if (st == RG_OK) {
          rg_buf_init(&t);
          wt = rg_changes_write(ch, pairs[p].format, 0, "tests/diff/", &t.out);
        }
        rg_alloc_fail_at(0);
        if (st != RG_OK) {
          CHECK(st == RG_NOMEM && ch == NULL, "diff-16: %s: allocation %lu: %s", pairs[p].golden, k,
                rg_status_name(st));
          continue;
        }
        CHECK(wt == RG_OK ? t.data && strcmp(t.data, want) == 0 : k > 0 && (wt == RG_NOMEM || wt == RG_IO),
              "diff-16: %s: allocation %lu: write %s [%s]", pairs[p].golden, k, rg_status_name(wt),
              wt == RG_OK && t.data ? t.data : "");
        rg_buf_free(&t);
        rg_changes_free(ch);
        if (wt == RG_OK && k > 0) break;
      }
      CHECK(k > 1 && k < 100000, "diff-16: %s: the failures end (%lu)", pairs[p].golden, k);
      free(want);
      rg_rules_free(ra);
      rg_rules_free(rb);
    }
  }

  /* diff-17: "w w ... w first" of `words` words against "... last" */
  for (int words = 2048; words <= 2049; words++) {
    mb ta, tb;
    size_t size = 2 * (size_t)words + 8;
    char *x = malloc(size), *y = malloc(size), *want = malloc(4 * size + 200);
    for (int side = 0; side < 2; side++) {
      char *v = side ? y : x;
      v[0] = '\0';
      for (int k = 0; k < words - 1; k++) strcat(v, "w ");
      strcat(v, side ? "last" : "first");
      mb *b = side ? &tb : &ta;
      mb_init(b);
      rgi_named *n = MB_PUSH(b->m.named, b->m.nnamed);
      n->name = mb_str(b, "motto");
      n->type = T_TEXT;
      n->value = mb_str(b, v);
      n->line = side ? 5 : 3;           /* restated: a change by hand */
    }
    /* marked: the words before the last kept, "first\"" -> "last\""; else whole */
    if (words == 2048)
      snprintf(want, 4 * size + 200, "== constants\n~ motto: \"%.*s[-first\"-]{+last\"+}\n"
               "    test.rules:3 | test.rules:5\n", 2 * (words - 1), x);
    else
      snprintf(want, 4 * size + 200, "== constants\n~ motto: \"%s\" -> \"%s\"\n"
               "    test.rules:3 | test.rules:5\n", x, y);
    CHECK(rgi_diff_modules(&ta.m, &tb.m, NULL, 0, NULL, &d) == 0 && d.n == 1, "diff-17: %u changes", d.n);
    render(&d, &t);
    CHECK(t.data && strcmp(t.data, want) == 0, "diff-17: %d words: text [%.200s]", words,
          t.data ? t.data : "");
    rg_buf_free(&t);
    rgi_diff_free(&d);
    rgi_module_free(&ta.m);
    rgi_module_free(&tb.m);
    free(x);
    free(y);
    free(want);
  }

  /* diff-18 */
  {
    rg_loader ld = { broken_load, NULL, NULL };
    rg_rules *ra = NULL, *rb = NULL;
    rg_changes *ch = NULL;
    rg_diff_options opt;
    memset(&opt, 0, sizeof opt);
    opt.size = sizeof opt;
    opt.with_source = 1;
    opt.loader = &ld;
    CHECK(rg_rules_compile("mem/a.rules", mem_a, strlen(mem_a), NULL, &ra) == RG_OK &&
          rg_rules_compile("mem/b.rules", mem_b, strlen(mem_b), NULL, &rb) == RG_OK, "diff-18: compile");
    CHECK(rg_changes_new(ra, rb, &opt, &ch) == RG_OK && rg_changes_count(ch) == 1, "diff-18: %u changes",
          rg_changes_count(ch));
    rg_buf_init(&t);
    CHECK(rg_changes_write(ch, RG_DIFF_TEXT, 0, "mem/", &t.out) == RG_OK && t.data &&
          strcmp(t.data, "== procedures\n~ procedure main\n    a.rules:3 | b.rules:4\n") == 0,
          "diff-18: b does not parse [%s]", t.data);
    rg_buf_free(&t);
    rg_changes_free(ch);
    rg_rules_free(ra);
    rg_rules_free(rb);
  }

  rgi_module_free(&base.m);
  rgi_module_free(&same.m);
  rgi_module_free(&cell.m);
  rgi_module_free(&table.m);
  rgi_module_free(&misc.m);
  return check_done("test_diff");
}
