/*
** test_verify.c: one good module, then one bad variant per check of the
** verifier and the file reader, each with its exact message; save/load.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#include "modbuild.h"
#include "check.h"

static unsigned char *good_buf;
static size_t good_len;
static rgi_module M;          /* the variant under test */

/* Builds the good module:
**   enum terrain {S, C, D}; record info {a: int, t: terrain}
**   table weather(2..12, terrain) -> int; recs(terrain) -> info;
**   tset(terrain) -> set terrain; tenum(terrain) -> terrain; ttext(terrain) -> text
**   f(a: int) -> int       (8 instructions, see below)
**   g()                    calls f, notes the result
*/
static void build_good(mb *b) {
  mb_init(b);
  static const char *const codes[] = {"S", "C", "D"};
  uint32_t terrain = mb_enum(b, "terrain", 3, codes);
  static const char *const fn[] = {"a", "t"};
  rgi_type ft[] = {T_INT, {RG_K_ENUM, terrain}};
  uint32_t info = mb_record(b, "info", 2, fn, ft);
  mb_unit(b, "BW");
  rgi_dim wd[2] = {mb_dim_range(2, 11), mb_dim_enum(b, terrain)};
  rgi_value wc[33];
  for (int i = 0; i < 33; i++) wc[i] = i;
  mb_table(b, "weather", 2, wd, T_INT, wc);
  static const rgi_value hv[] = {1, 0, 2, 1, 3, 2};
  mb_heap(b, 6, hv);
  rgi_dim ed[1] = {mb_dim_enum(b, terrain)};
  mb_table(b, "recs", 1, ed, (rgi_type){RG_K_RECORD, info}, (rgi_value[]){0, 2, 4});
  mb_table(b, "tset", 1, ed, (rgi_type){RG_K_SET, terrain}, (rgi_value[]){0, 7, 5});
  mb_table(b, "tenum", 1, ed, (rgi_type){RG_K_ENUM, terrain}, (rgi_value[]){2, 1, 0});
  mb_table(b, "ttext", 1, ed, T_TEXT, (rgi_value[]){0, mb_str(b, "coast"), 1});
  mb_const(b, 1000);
  mb_note(b, "f gives", 1, &T_INT);
  mb_expect(b, "f(3) == 1", T_INT);

  static const char *const pn[] = {"a"};
  uint32_t f = mb_proc(b, "f", T_INT, 1, pn, &T_INT, 2);
  mb_emit(b, RG_OP_LOAD, 0);     /* 0 */
  mb_emit(b, RG_OP_JMPF, 3);     /* 1 -> 5 */
  mb_emit(b, RG_OP_PUSHI, 1);    /* 2 */
  mb_emit(b, RG_OP_STORE, 1);    /* 3 */
  mb_emit(b, RG_OP_JMP, 1);      /* 4 -> 6 */
  mb_emit(b, RG_OP_NOP, 0);      /* 5 */
  mb_emit(b, RG_OP_LOAD, 1);     /* 6 */
  mb_emit(b, RG_OP_RET, 0);      /* 7 */
  uint32_t g = mb_proc(b, "g", T_VOID, 0, NULL, NULL, 0);
  mb_emit(b, RG_OP_PUSHI, 3);
  mb_emit(b, RG_OP_CALL, (int32_t)f);
  mb_emit(b, RG_OP_NOTE, 0);
  mb_emit(b, RG_OP_PUSHI, 3);
  mb_emit(b, RG_OP_CALL, (int32_t)f);
  mb_emit(b, RG_OP_PUSHI, 1);
  mb_emit(b, RG_OP_EXPECTEQ, 0);
  mb_emit(b, RG_OP_RETV, 0);

  /* Language v2: a list type (types[1]), a die, a deck, three choice
  ** sites (set, list, range), an input, and h() using each new opcode. */
  rgi_type tt = {RG_K_ENUM, terrain};
  mb_list_of(b, T_INT);
  mb_dice(b, "red", tt, 3, (const rgi_value[]){0, 1, 2});
  mb_deck(b, "bag", tt, 3, (const rgi_value[]){0, 0, 1});
  mb_choice(b, "where?", T_INT, tt, RG_OPT_SET);
  mb_choice(b, "which?", T_INT, T_INT, RG_OPT_LIST);
  mb_choice(b, "how many?", T_INT, T_INT, RG_OPT_RANGE);
  mb_input(b, "rating", T_INT, 3);
  mb_proc(b, "h", T_INT, 0, NULL, NULL, 0);
  mb_emit(b, RG_OP_PUSHI, 1); mb_emit(b, RG_OP_ROLL, 6);              /* 0 1 */
  mb_emit(b, RG_OP_ROLLDIE, 0); mb_emit(b, RG_OP_ADD, 0);             /* 2 3 */
  mb_emit(b, RG_OP_DRAW, 0); mb_emit(b, RG_OP_ADD, 0);                /* 4 5 */
  mb_emit(b, RG_OP_LEFT, 0); mb_emit(b, RG_OP_ADD, 0);                /* 6 7 */
  mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_PUSHI, 7);             /* 8 9 */
  mb_emit(b, RG_OP_CHOOSE, 0); mb_emit(b, RG_OP_ADD, 0);              /* 10 11 */
  mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_PUSHI, 1);             /* 12 13 */
  mb_emit(b, RG_OP_PUSHI, 2); mb_emit(b, RG_OP_LIST, 2);              /* 14 15 */
  mb_emit(b, RG_OP_CHOOSE, 1); mb_emit(b, RG_OP_ADD, 0);              /* 16 17 */
  mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_PUSHI, 1);             /* 18 19 */
  mb_emit(b, RG_OP_PUSHI, 3); mb_emit(b, RG_OP_CHOOSE, 2);            /* 20 21 */
  mb_emit(b, RG_OP_ADD, 0); mb_emit(b, RG_OP_INPUT, 0);               /* 22 23 */
  mb_emit(b, RG_OP_ADD, 0); mb_emit(b, RG_OP_PUSHI, 1);               /* 24 25 */
  mb_emit(b, RG_OP_NTH, 0); mb_emit(b, RG_OP_ADD, 0);                 /* 26 27 */
  mb_emit(b, RG_OP_STEP, (int32_t)mb_str(b, "a step"));               /* 28 */
  mb_emit(b, RG_OP_LIST, 0); mb_emit(b, RG_OP_LEN, 0);                /* 29 30 */
  mb_emit(b, RG_OP_ADD, 0); mb_emit(b, RG_OP_RET, 0);                 /* 31 32 */
  /* the test's procedure, last as the compiler puts tests: it calls g */
  uint32_t t = mb_proc(b, "g works", T_VOID, 0, NULL, NULL, 0);
  mb_emit(b, RG_OP_CALL, (int32_t)g);
  mb_emit(b, RG_OP_RETV, 0);
  mb_test(b, "g works", t);
}

/* Sets instruction rel of procedure 'h' (index 2). */
static void set_h(uint32_t rel, unsigned op, int32_t a) {
  M.code[M.procs[2].code + rel] = RG_INS(op, (uint32_t)a & RG_A_MAX);
}

/* Resets M to a fresh copy of the good module. */
static void fresh(void) {
  char err[256];
  rgi_module_free(&M);
  if (rgi_module_deserialize(&M, good_buf, good_len, err, sizeof err) != 0) {
    printf("good module does not load: %s\n", err);
    exit(1);
  }
}

/* Verifies M and checks the message. */
static void expect_msg(int line, const char *want) {
  char err[256] = "";
  int r = rgi_module_verify(&M, err, sizeof err);
  if (r == RG_BAD_MODULE && strcmp(err, want) == 0) passed++;
  else { failed++; printf("FAIL line %d: got %d '%s', want '%s'\n", line, r, err, want); }
}
#define EXPECT_MSG(want) expect_msg(__LINE__, want)

/* Sets instruction rel of procedure 'f' (index 0). */
static void set_f(uint32_t rel, unsigned op, int32_t a) {
  M.code[M.procs[0].code + rel] = RG_INS(op, (uint32_t)a & RG_A_MAX);
}

/* Deserializes buf[0..len) and checks the message. */
static void expect_load(int line, const unsigned char *buf, size_t len, const char *want) {
  char err[256] = "";
  rgi_module m;
  int r = rgi_module_deserialize(&m, buf, len, err, sizeof err);
  if (r == RG_BAD_MODULE && strcmp(err, want) == 0) passed++;
  else { failed++; printf("FAIL line %d: got %d '%s', want '%s'\n", line, r, err, want); }
  if (r == 0) rgi_module_free(&m);
}
#define EXPECT_LOAD(buf, len, want) expect_load(__LINE__, buf, len, want)

static void put32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24);
}

int main(void) {
  char err[256];
  mb b;
  build_good(&b);
  if (rgi_module_verify(&b.m, err, sizeof err) != 0) {
    printf("test_verify: good module rejected: %s\n", err);
    return 1;
  }
  CHECK(b.m.procs[0].max_stack == 1 && b.m.procs[1].max_stack == 2, "max_stack %u %u",
        b.m.procs[0].max_stack, b.m.procs[1].max_stack);
  if (rgi_module_serialize(&b.m, &good_buf, &good_len) != 0) { printf("serialize failed\n"); return 1; }

  /* Round trip: serialize(deserialize(x)) == x, byte for byte. */
  fresh();
  {
    unsigned char *buf2; size_t len2;
    CHECK(rgi_module_serialize(&M, &buf2, &len2) == 0 && len2 == good_len &&
          memcmp(buf2, good_buf, good_len) == 0, "round trip");
    rg_free(buf2);
  }
  CHECK(memcmp(good_buf, "RGLA\10\0\0\0\43\0\0\0", 12) == 0, "header bytes (version 8)");

  /* The default strategy (version 8): a known flag, on one strategy at most. */
  fresh(); M.nstrategies = 1; M.strategies = rg_malloc(sizeof *M.strategies);
  memset(M.strategies, 0, sizeof *M.strategies); M.strategies[0].flags = 2;
  EXPECT_MSG("strategy 0: bad flags, or a second default");
  fresh(); M.nstrategies = 2; M.strategies = rg_malloc(2 * sizeof *M.strategies);
  memset(M.strategies, 0, 2 * sizeof *M.strategies);
  M.strategies[0].flags = M.strategies[1].flags = RG_STRATEGY_DEFAULT;
  EXPECT_MSG("strategy 1: bad flags, or a second default");

  /* Strategies (version 5): picks in range, of a known kind. */
  fresh(); M.nstrategies = 1; M.strategies = rg_malloc(sizeof *M.strategies);
  memset(M.strategies, 0, sizeof *M.strategies); M.strategies[0].count = 1;
  EXPECT_MSG("strategy 0: picks out of range");
  fresh(); M.nstrategies = 1; M.strategies = rg_malloc(sizeof *M.strategies);
  memset(M.strategies, 0, sizeof *M.strategies); M.strategies[0].count = 1;
  M.npicks = 1; M.picks = rg_malloc(sizeof *M.picks); memset(M.picks, 0, sizeof *M.picks);
  M.picks[0].kind = 9; EXPECT_MSG("pick 0: bad kind, order, rule or field");
  fresh(); M.nstrategies = 1; M.strategies = rg_malloc(sizeof *M.strategies);
  memset(M.strategies, 0, sizeof *M.strategies); M.strategies[0].count = 1;
  M.npicks = 1; M.picks = rg_malloc(sizeof *M.picks); memset(M.picks, 0, sizeof *M.picks);
  M.picks[0].rule = 1; EXPECT_MSG("pick 0: bad kind, order, rule or field");

  /* A pick must fit the choices that ask its prompt: their types agree, a
  ** chooser `who` and a value of theirs, a field of a record option that
  ** holds no list or record; rules numbered in order, one prompt each. */
  {
    static const struct { const char *why; uint32_t n; rgi_pick p[2]; int choice1, field0; } pc[] = {
      {"pick 0: member out of range", 1, {{.kind = RG_PICK_VALUE, .value = 3}}, -1, -1},
      {NULL, 1, {{.kind = RG_PICK_VALUE, .value = 2}}, -1, -1},
      {"pick 0: string out of range", 1, {{.who_set = 1, .who = 99999}}, RG_K_TEXT, -1},
      {"pick 0: a chooser that is a record or list", 1, {{.who_set = 1}}, RG_K_RECORD, -1},
      {"pick 0: a value of a record or list option", 1, {{.kind = RG_PICK_VALUE}}, RG_K_LIST, -1},
      {"pick 0: a field out of range", 1, {{.kind = RG_PICK_MAX, .field = 1}}, -1, -1},
      {"pick 0: a field out of range", 1, {{.kind = RG_PICK_MIN, .field = 3}}, RG_K_RECORD + 100, -1},
      {NULL, 1, {{.kind = RG_PICK_MIN, .field = 2}}, RG_K_RECORD + 100, -1},
      {"pick 0: a field that is not simple", 1, {{.kind = RG_PICK_MAX, .field = 1}}, RG_K_RECORD + 100, 1},
      {"pick 1: bad kind, order, rule or field", 2, {{.rule = 0}, {.rule = 0, .prompt = 1}}, -1, -1},
      {"pick 1: bad kind, order, rule or field", 2, {{.rule = 0}, {.rule = 2}}, -1, -1},
      {"pick 1: bad kind, order, rule or field", 2, {{.rule = 0, .prompt = 1}, {.rule = 1}}, -1, -1},
      {"pick 0: bad kind, order, rule or field", 1, {{.kind = RG_PICK_FIRST, .field = 1}}, -1, -1},
      {"pick 0: choices of one prompt with other types", 1, {{.kind = RG_PICK_FIRST}}, -2, -1},
    };
    for (size_t i = 0; i < sizeof pc / sizeof *pc; i++) {
      char err[256] = "";
      int r;
      fresh();
      M.nstrategies = 1;
      M.strategies = rg_malloc(sizeof *M.strategies);
      memset(M.strategies, 0, sizeof *M.strategies);
      M.strategies[0].count = pc[i].n;
      M.npicks = pc[i].n;
      M.picks = rg_malloc(pc[i].n * sizeof *M.picks);
      for (uint32_t k = 0; k < pc[i].n; k++) {
        M.picks[k] = pc[i].p[k];
        /* prompt 0 of the table: "where?" (choice 0); prompt 1: "which?" */
        M.picks[k].prompt = M.choices[pc[i].p[k].prompt].prompt;
      }
      /* choice 0 ("where?", int chooser, terrain options) changed: */
      if (pc[i].choice1 == RG_K_TEXT) M.choices[0].chooser = T_TEXT;
      if (pc[i].choice1 == RG_K_RECORD) M.choices[0].chooser = (rgi_type){RG_K_RECORD, 0};
      if (pc[i].choice1 == RG_K_LIST || pc[i].choice1 == RG_K_RECORD + 100) {
        M.choices[0].kind = RG_OPT_LIST;
        M.choices[0].option = pc[i].choice1 == RG_K_LIST ? (rgi_type){RG_K_LIST, 0}
                                                         : (rgi_type){RG_K_RECORD, 0};
      }
      if (pc[i].field0 == 1) M.fields[0].type = (rgi_type){RG_K_LIST, 0};
      if (pc[i].choice1 == -2) M.choices[1].prompt = M.choices[0].prompt;
      r = rgi_module_verify(&M, err, sizeof err);
      if (pc[i].why) CHECK(r == RG_BAD_MODULE && strcmp(err, pc[i].why) == 0,
                           "picks %zu: got %d '%s', want '%s'", i, r, err, pc[i].why);
      else CHECK(r == 0, "picks %zu: a good pick refused: %s", i, err);
    }
  }

  /* An input's default must be a value of its type. */
  fresh(); M.inputs[0].type = (rgi_type){RG_K_SET, 0}; M.inputs[0].value = 8;
  EXPECT_MSG("input 'rating': default: set has members outside the enum");
  fresh(); M.inputs[0].type = T_TEXT; M.inputs[0].value = 99999;
  EXPECT_MSG("input 'rating': default: string out of range");
  fresh(); M.inputs[0].type = (rgi_type){RG_K_ENUM, 0}; M.inputs[0].value = 3;
  EXPECT_MSG("input 'rating': default: member out of range");
  /* A table of lists: each cell a heap offset whose count fits the heap
  ** (the heap holds 1 0 2 1 3 2: at 1 an empty list, at 4 a count of 3
  ** with one value after it). */
  {
    char err[256] = "";
    fresh();
    M.tables[0].value = (rgi_type){RG_K_LIST, 1};
    for (uint32_t k = 0; k < M.tables[0].count; k++) M.cells[M.tables[0].first + k] = 1;
    CHECK(M.nheap == 6 && rgi_module_verify(&M, err, sizeof err) == 0, "lists: good (%s)", err);
    M.cells[M.tables[0].first + 5] = -1;
    EXPECT_MSG("table 'weather': cell 5: list offset -1 outside the heap");
    M.cells[M.tables[0].first + 5] = 6;
    EXPECT_MSG("table 'weather': cell 5: list offset 6 outside the heap");
    M.cells[M.tables[0].first + 5] = 4;
    EXPECT_MSG("table 'weather': cell 5: list offset 4 outside the heap");
  }

  /* Provenance (version 3). */
  fresh(); M.ncellsrc = 1; M.cellsrc = rg_malloc(sizeof *M.cellsrc); M.cellsrc[0].file = 0; M.cellsrc[0].line = 1;
  if (M.ncells != 1) EXPECT_MSG("cell sources: 1 for 45 cells");
  /* merged (version 6) is 0 or 1 */
  fresh(); M.ncellsrc = M.ncells; M.cellsrc = rg_malloc(M.ncells * sizeof *M.cellsrc);
  memset(M.cellsrc, 0, M.ncells * sizeof *M.cellsrc); M.cellsrc[0].merged = 2;
  EXPECT_MSG("cell 0: merged is 2, not 0 or 1");
  fresh(); M.nnamed = 1; M.named = rg_malloc(sizeof *M.named); memset(M.named, 0, sizeof *M.named);
  M.named[0].type.kind = RG_K_INT; M.named[0].starred = 2; EXPECT_MSG("constant '': bad source position");
  /* A constant kept by name: not a record, a value of its type, a file
  ** the module has (found by a coverage test: no case ran these). */
  fresh(); M.nnamed = 1; M.named = rg_malloc(sizeof *M.named); memset(M.named, 0, sizeof *M.named);
  M.named[0].type = (rgi_type){RG_K_RECORD, 0}; EXPECT_MSG("constant 0: a record type is not allowed here");
  fresh(); M.nnamed = 1; M.named = rg_malloc(sizeof *M.named); memset(M.named, 0, sizeof *M.named);
  M.named[0].type = (rgi_type){RG_K_SET, 0}; M.named[0].value = 8;
  EXPECT_MSG("constant '': set has members outside the enum");
  fresh(); M.nnamed = 1; M.named = rg_malloc(sizeof *M.named); memset(M.named, 0, sizeof *M.named);
  M.named[0].type = T_TEXT; M.named[0].value = 99999; EXPECT_MSG("constant '': string out of range");
  fresh(); M.nnamed = 1; M.named = rg_malloc(sizeof *M.named); memset(M.named, 0, sizeof *M.named);
  M.named[0].type = T_INT; M.named[0].file = 5; M.named[0].line = 1;
  EXPECT_MSG("constant '': bad source position");
  fresh(); M.ncellsrc = M.ncells; M.cellsrc = rg_malloc(M.ncells * sizeof *M.cellsrc);
  memset(M.cellsrc, 0, M.ncells * sizeof *M.cellsrc); M.cellsrc[3].file = 5; M.cellsrc[3].line = 2;
  EXPECT_MSG("cell 3: source file out of range");
  /* Displays (version 5): a record the module has, lines of a known kind
  ** naming a field of it, a table or list line's field a list. */
  fresh(); M.ndisplays = 1; M.displays = rg_malloc(sizeof *M.displays);
  M.displays[0] = (rgi_display){ .record = 5 }; EXPECT_MSG("display 0: bad record, title or lines");
  fresh(); M.ndisplays = 1; M.displays = rg_malloc(sizeof *M.displays);
  M.displays[0] = (rgi_display){ .record = 0, .first = 0, .count = 1 };
  EXPECT_MSG("display 0: bad record, title or lines");
  fresh(); M.ndisplays = 1; M.displays = rg_malloc(sizeof *M.displays);
  M.displays[0] = (rgi_display){ .record = 0, .first = 0, .count = 1 };
  M.ndlines = 1; M.dlines = rg_malloc(sizeof *M.dlines);
  M.dlines[0] = (rgi_dline){ .kind = RG_DL_FORM, .text = 99999 };
  EXPECT_MSG("display line 0: string 99999 out of range");
  fresh(); M.ndisplays = 1; M.displays = rg_malloc(sizeof *M.displays);
  M.displays[0] = (rgi_display){ .record = 0, .first = 0, .count = 1 };
  M.ndlines = 1; M.dlines = rg_malloc(sizeof *M.dlines);
  M.dlines[0] = (rgi_dline){ .kind = 9 }; EXPECT_MSG("display line 0: bad kind or field");
  fresh(); M.ndisplays = 1; M.displays = rg_malloc(sizeof *M.displays);
  M.displays[0] = (rgi_display){ .record = 0, .first = 0, .count = 1 };
  M.ndlines = 1; M.dlines = rg_malloc(sizeof *M.dlines);
  M.dlines[0] = (rgi_dline){ .kind = RG_DL_TABLE, .field = 2 }; EXPECT_MSG("display line 0: bad kind or field");
  fresh(); M.ndisplays = 1; M.displays = rg_malloc(sizeof *M.displays);
  M.displays[0] = (rgi_display){ .record = 0, .first = 0, .count = 1 };
  M.ndlines = 1; M.dlines = rg_malloc(sizeof *M.dlines);
  M.dlines[0] = (rgi_dline){ .kind = RG_DL_LIST, .field = 1 }; EXPECT_MSG("display line 0: the field is not a list");

  /* The string pool. */
  fresh(); M.strings[0] = 'x'; EXPECT_MSG("string pool does not start with the empty string");
  fresh(); M.strings[M.nstrings - 1] = 'x'; EXPECT_MSG("string pool does not end with NUL");
  fresh(); M.nstrings = 0; EXPECT_MSG("string pool is empty");
  fresh(); M.strings[1] = 0x1B; EXPECT_MSG("string pool: a control or bidirectional formatting character at byte 1");
  fresh(); M.name = M.nstrings; { char w[64]; snprintf(w, sizeof w, "header 0: string %u out of range", M.nstrings); EXPECT_MSG(w); }
  fresh(); M.files[0] = 99999; EXPECT_MSG("file 0: string 99999 out of range");
  fresh(); M.members[1].display = 99999; EXPECT_MSG("member 1: string 99999 out of range");
  fresh(); M.units[0].name = 99999; EXPECT_MSG("unit 0: string 99999 out of range");

  /* Enums and records. */
  fresh(); M.enums[0].count = 0; EXPECT_MSG("enum 'terrain': member count 0 not in 1..64");
  fresh(); M.enums[0].count = 65; EXPECT_MSG("enum 'terrain': member count 65 not in 1..64");
  fresh(); M.enums[0].first = 1; EXPECT_MSG("enum 'terrain': members out of range");
  fresh(); M.enums[0].first = UINT32_MAX; EXPECT_MSG("enum 'terrain': members out of range");
  fresh(); M.enums[0].ordered = 2; EXPECT_MSG("enum 'terrain': bad ordered flag 2");
  fresh(); M.records[0].count = 0; EXPECT_MSG("record 'info': field count 0 out of range");
  fresh(); M.records[0].first = 1; EXPECT_MSG("record 'info': fields out of range");
  fresh(); M.records[0].shown = 99999; EXPECT_MSG("record 0: string 99999 out of range");

  /* Types. */
  fresh(); M.fields[1].type.kind = 99; EXPECT_MSG("field 1: bad type kind 99");
  fresh(); M.fields[1].type.ref = 1; EXPECT_MSG("field 1: type reference 1 out of range");
  fresh(); M.fields[0].type.ref = 1; EXPECT_MSG("field 0: type reference 1 out of range");
  fresh(); M.fields[0].type.kind = RG_K_VOID; EXPECT_MSG("field 0: void type");
  fresh(); M.fields[0].type = (rgi_type){RG_K_SET, 1}; EXPECT_MSG("field 0: type reference 1 out of range");
  fresh(); M.fields[0].type = (rgi_type){RG_K_DIST, 1}; EXPECT_MSG("field 0: type reference 1 out of range");
  fresh(); M.fields[0].type = (rgi_type){RG_K_RECORD, 1}; EXPECT_MSG("field 0: type reference 1 out of range");
  /* A kind that needs a reference when there is nothing to refer to. */
  fresh(); M.fields[0].type = (rgi_type){RG_K_DIST, 0}; M.nunits = 0; EXPECT_MSG("field 0: type reference 0 out of range");
  fresh(); M.params[0].type.kind = RG_NKINDS; EXPECT_MSG("parameter 0: bad type kind 10");
  fresh(); M.types[0].kind = 42; EXPECT_MSG("type 0: bad type kind 42");
  fresh(); M.expects[0].type.kind = RG_K_VOID; EXPECT_MSG("expectation 0: void type");
  /* Loop variables of expectations (version 6): in range, named, locals of
  ** the procedure whose EXPECT uses them (g has none). */
  fresh(); M.expects[0].nvars = 1; EXPECT_MSG("expectation 0: loop variables out of range");
  fresh(); M.nevars = 1; M.evars = rg_malloc(sizeof *M.evars);
  M.evars[0] = (rgi_expect_var){M.expects[0].text, 0, {RG_K_INT, 0}}; M.expects[0].nvars = 1;
  EXPECT_MSG("procedure 'g': instruction 6: loop variable 0 of expectation 0 is not a local");
  fresh(); M.nevars = 1; M.evars = rg_malloc(sizeof *M.evars);
  M.evars[0] = (rgi_expect_var){M.expects[0].text, 0, {RG_K_VOID, 0}};
  EXPECT_MSG("loop variable 0: void type");
  fresh(); M.procs[0].result.ref = 3; EXPECT_MSG("procedure 0: type reference 3 out of range");

  /* Tables and dimensions. */
  fresh(); M.tables[0].ndims = 0; EXPECT_MSG("table 'weather': 0 dimensions not in 1..8");
  fresh(); M.tables[0].ndims = 9; EXPECT_MSG("table 'weather': 9 dimensions not in 1..8");
  fresh(); M.tables[0].first_dim = M.ndims - 1; EXPECT_MSG("table 'weather': dimensions out of range");
  fresh(); M.tables[0].count = 32; EXPECT_MSG("table 'weather': cell count 32 is not the product of its sizes (33)");
  fresh(); M.dims[0].size = 0x10000; M.dims[1].is_enum = 0; M.dims[1].ref = 0; M.dims[1].size = 0x10000;
  EXPECT_MSG("table 'weather': too many cells");
  fresh(); M.tables[4].first = M.ncells - 2; EXPECT_MSG("table 'ttext': cells out of range");
  fresh(); M.dims[1].size = 4; EXPECT_MSG("dimension 1: size 4 differs from enum 'terrain' (3 members)");
  fresh(); M.dims[1].ref = 5; EXPECT_MSG("dimension 1: enum 5 out of range");
  fresh(); M.dims[1].lo = 1; EXPECT_MSG("dimension 1: size 3 differs from enum 'terrain' (3 members)");
  fresh(); M.dims[0].size = 0; EXPECT_MSG("dimension 0: size 0");
  fresh(); M.dims[0].is_enum = 7; EXPECT_MSG("dimension 0: bad enum flag 7");
  fresh(); M.dims[0].lo = INT64_MAX - 5; EXPECT_MSG("dimension 0: range overflows");
  fresh(); M.dims[0].ref = 1; EXPECT_MSG("dimension 0: range with enum reference");
  fresh(); M.dims[0].label = 99999; EXPECT_MSG("dimension 0: string 99999 out of range");
  fresh(); M.tables[0].value.kind = RG_K_VOID; EXPECT_MSG("table 0: void type");

  /* Cells by type. */
  fresh(); M.cells[M.tables[1].first + 2] = 5; EXPECT_MSG("table 'recs': cell 2: record offset 5 outside the heap");
  fresh(); M.cells[M.tables[1].first] = -1; EXPECT_MSG("table 'recs': cell 0: record offset -1 outside the heap");
  fresh(); M.cells[M.tables[2].first + 1] = 8; EXPECT_MSG("table 'tset': cell 1: set has members outside the enum");
  fresh(); M.cells[M.tables[2].first + 1] = -1; EXPECT_MSG("table 'tset': cell 1: set has members outside the enum");
  fresh(); M.cells[M.tables[3].first] = 3; EXPECT_MSG("table 'tenum': cell 0: member 3 out of range");
  fresh(); M.cells[M.tables[3].first] = -1; EXPECT_MSG("table 'tenum': cell 0: member -1 out of range");
  fresh(); M.cells[M.tables[4].first] = 99999; EXPECT_MSG("table 'ttext': cell 0: string 99999 out of range");

  /* Procedures, notes, expectations, tests, lines. */
  fresh(); M.procs[0].first_param = M.nparams; EXPECT_MSG("procedure 'f': parameters out of range");
  fresh(); M.procs[0].nlocals = 0; EXPECT_MSG("procedure 'f': 0 locals but 1 parameters");
  fresh(); M.procs[0].nlocals = 1u << 20; EXPECT_MSG("procedure 'f': absurd local count 1048576");
  fresh(); M.procs[0].ncode = 0; EXPECT_MSG("procedure 'f': code out of range");
  fresh(); M.procs[3].ncode = 3; EXPECT_MSG("procedure 'g works': code out of range");
  fresh(); M.notes[0].nvals = 5; EXPECT_MSG("note 0: value types out of range");
  fresh(); M.notes[0].text = 99999; EXPECT_MSG("note 0: string 99999 out of range");
  fresh(); M.tests[0].proc = 4; EXPECT_MSG("test 0: procedure 4, not 3 (tests come last)");
  fresh(); M.tests[0].proc = 1; EXPECT_MSG("test 0: procedure 1, not 3 (tests come last)");
  fresh(); M.ntests = 5; EXPECT_MSG("5 tests for 4 procedures");
  fresh(); M.nlines--; EXPECT_MSG("line table has 50 entries for 51 instructions");
  fresh(); M.lines[3].file = 1; EXPECT_MSG("line entry 3: file 1 out of range");

  /* Operands. */
  fresh(); set_f(0, 200, 0); EXPECT_MSG("procedure 'f': instruction 0: bad opcode 200");
  fresh(); set_f(0, RG_NOPCODES, 0); { char w[80]; snprintf(w, sizeof w, "procedure 'f': instruction 0: bad opcode %d", RG_NOPCODES); EXPECT_MSG(w); }
  fresh(); set_f(5, RG_OP_NOP, 3); EXPECT_MSG("procedure 'f': instruction 5: NOP takes no operand (has 3)");
  fresh(); set_f(2, RG_OP_CONST, 99); EXPECT_MSG("procedure 'f': instruction 2: constant 99 out of range");
  fresh(); set_f(3, RG_OP_STORE, 2); EXPECT_MSG("procedure 'f': instruction 3: local 2 out of range");
  fresh(); set_f(4, RG_OP_JMP, 40); EXPECT_MSG("procedure 'f': instruction 4: jump target 45 outside the procedure");
  fresh(); set_f(4, RG_OP_JMP, 3); EXPECT_MSG("procedure 'f': instruction 4: jump target 8 outside the procedure");
  fresh(); set_f(4, RG_OP_JMP, -10); EXPECT_MSG("procedure 'f': instruction 4: jump target -5 outside the procedure");
  fresh(); set_f(1, RG_OP_JMPT, RG_SA_MIN); EXPECT_MSG("procedure 'f': instruction 1: jump target -8388606 outside the procedure");
  fresh(); set_f(5, RG_OP_LOOKUP, 9); EXPECT_MSG("procedure 'f': instruction 5: table 9 out of range");
  fresh(); set_f(5, RG_OP_CALL, 4); EXPECT_MSG("procedure 'f': instruction 5: procedure 4 out of range");
  fresh(); set_f(5, RG_OP_NOTE, 1); EXPECT_MSG("procedure 'f': instruction 5: note 1 out of range");
  fresh(); set_f(5, RG_OP_EXPECT, 1); EXPECT_MSG("procedure 'f': instruction 5: expectation 1 out of range");
  fresh(); set_f(5, RG_OP_MKREC, 1); EXPECT_MSG("procedure 'f': instruction 5: record 1 out of range");
  fresh(); set_f(5, RG_OP_FAIL, 99999); EXPECT_MSG("procedure 'f': instruction 5: string 99999 out of range");
  fresh(); set_f(5, RG_OP_MIN, 0); EXPECT_MSG("procedure 'f': instruction 5: count must be at least 1");
  fresh(); set_f(5, RG_OP_MAX, 0); EXPECT_MSG("procedure 'f': instruction 5: count must be at least 1");

  /* Language v2: dice, decks, choices, inputs, list types. */
  fresh(); M.dice[0].count = 0; EXPECT_MSG("dice 'red': no faces");
  fresh(); M.dice[0].first = 1; EXPECT_MSG("dice 'red': faces out of range");
  fresh(); M.dice[0].first = UINT32_MAX; EXPECT_MSG("dice 'red': faces out of range");
  fresh(); M.faces[2] = 3; EXPECT_MSG("dice 'red': face 2: member out of range");
  fresh(); M.faces[0] = -1; EXPECT_MSG("dice 'red': face 0: member out of range");
  fresh(); M.dice[0].face = (rgi_type){RG_K_LIST, 0}; EXPECT_MSG("dice 0: a list type is not allowed here");
  fresh(); M.dice[0].face = (rgi_type){RG_K_RECORD, 0}; EXPECT_MSG("dice 0: a record type is not allowed here");
  fresh(); M.dice[0].face = (rgi_type){RG_K_ENUM, 4}; EXPECT_MSG("dice 0: type reference 4 out of range");
  fresh(); M.dice[0].face.kind = RG_K_VOID; EXPECT_MSG("dice 0: void type");
  fresh(); M.dice[0].name = 99999; EXPECT_MSG("dice 0: string 99999 out of range");
  fresh(); M.decks[0].count = 0; EXPECT_MSG("deck 'bag': no cards");
  fresh(); M.decks[0].first = 2; EXPECT_MSG("deck 'bag': cards out of range");
  fresh(); M.decks[0].flags = 6; EXPECT_MSG("deck 'bag': bad flags 6");
  fresh(); M.cards[1] = 7; EXPECT_MSG("deck 'bag': card 1: member out of range");
  fresh(); M.decks[0].card = (rgi_type){RG_K_RECORD, 0}; EXPECT_MSG("deck 0: a record type is not allowed here");
  fresh(); M.decks[0].card = (rgi_type){RG_K_LIST, 1}; EXPECT_MSG("deck 0: a list type is not allowed here");
  fresh(); M.decks[0].card = T_TEXT; M.cards[0] = 99999; EXPECT_MSG("deck 'bag': card 0: string out of range");
  fresh(); M.decks[0].card = (rgi_type){RG_K_SET, 0}; M.cards[0] = 8; EXPECT_MSG("deck 'bag': card 0: set has members outside the enum");
  fresh(); M.choices[0].kind = 3; EXPECT_MSG("choice 0: bad option kind 3");
  fresh(); M.choices[0].flags = 2; EXPECT_MSG("choice 0: bad flags 2");
  fresh(); M.choices[0].flags = RG_CHOICE_SECRET;
  { char e[256]; CHECK(rgi_module_verify(&M, e, sizeof e) == RG_OK, "a secret choice verifies: %s", e); }
  fresh(); M.choices[0].option = T_INT; EXPECT_MSG("choice 0: options from a set must be enum members");
  fresh(); M.choices[2].option = (rgi_type){RG_K_ENUM, 0}; EXPECT_MSG("choice 2: options from a range must be ints");
  fresh(); M.choices[1].option = T_VOID; EXPECT_MSG("choice 1: void type");
  fresh(); M.choices[1].option = (rgi_type){RG_K_LIST, 9}; EXPECT_MSG("choice 1: type reference 9 out of range");
  fresh(); M.choices[1].chooser.kind = 77; EXPECT_MSG("choice 1: bad type kind 77");
  fresh(); M.choices[1].prompt = 99999; EXPECT_MSG("choice 1: string 99999 out of range");
  fresh(); M.inputs[0].type = (rgi_type){RG_K_LIST, 1}; EXPECT_MSG("input 0: a list type is not allowed here");
  fresh(); M.inputs[0].type = (rgi_type){RG_K_RECORD, 0}; EXPECT_MSG("input 0: a record type is not allowed here");
  fresh(); M.inputs[0].type = (rgi_type){RG_K_ENUM, 0}; M.inputs[0].value = 3;
  EXPECT_MSG("input 'rating': default: member out of range");
  fresh(); M.inputs[0].name = 99999; EXPECT_MSG("input 0: string 99999 out of range");
  fresh(); M.types[1] = (rgi_type){RG_K_LIST, 1}; EXPECT_MSG("type 1: list nested too deeply or in a cycle");
  fresh(); M.types[1] = (rgi_type){RG_K_LIST, 2}; EXPECT_MSG("type 1: type reference 2 out of range");
  fresh(); M.types[0] = (rgi_type){RG_K_LIST, 1}; M.types[1] = (rgi_type){RG_K_LIST, 0};
  EXPECT_MSG("type 0: list nested too deeply or in a cycle");
  fresh(); M.params[0].type = (rgi_type){RG_K_LIST, 1}; CHECK(rgi_module_verify(&M, err, sizeof err) == 0, "list of list: %s", err);
  fresh(); M.params[0].type = (rgi_type){RG_K_LIST, 0}; CHECK(rgi_module_verify(&M, err, sizeof err) == 0, "list param: %s", err);
  /* New operands and stack effects. */
  fresh(); set_h(2, RG_OP_ROLLDIE, 1); EXPECT_MSG("procedure 'h': instruction 2: dice 1 out of range");
  fresh(); set_h(4, RG_OP_DRAW, 1); EXPECT_MSG("procedure 'h': instruction 4: deck 1 out of range");
  fresh(); set_h(6, RG_OP_LEFT, 5); EXPECT_MSG("procedure 'h': instruction 6: deck 5 out of range");
  fresh(); set_h(10, RG_OP_CHOOSE, 3); EXPECT_MSG("procedure 'h': instruction 10: choice 3 out of range");
  fresh(); set_h(23, RG_OP_INPUT, 1); EXPECT_MSG("procedure 'h': instruction 23: input 1 out of range");
  fresh(); set_h(26, RG_OP_NTH, 1); EXPECT_MSG("procedure 'h': instruction 26: enum 1 out of range");
  fresh(); set_h(1, RG_OP_ROLL, 0); EXPECT_MSG("procedure 'h': instruction 1: count must be at least 1");
  fresh(); set_h(1, RG_OP_ROLLS, 0); EXPECT_MSG("procedure 'h': instruction 1: count must be at least 1");
  fresh(); set_h(28, RG_OP_STEP, 99999); EXPECT_MSG("procedure 'h': instruction 28: string 99999 out of range");
  fresh(); set_h(30, RG_OP_LEN, 1); EXPECT_MSG("procedure 'h': instruction 30: LEN takes no operand (has 1)");
  /* A range choice pops three, a set choice two. */
  fresh(); set_h(21, RG_OP_CHOOSE, 0); EXPECT_MSG("procedure 'h': instruction 32: RET needs exactly 1 value on the stack (has 2)");
  fresh(); set_h(10, RG_OP_CHOOSE, 2); EXPECT_MSG("procedure 'h': instruction 11: stack underflow (ADD needs 2, has 1)");
  fresh(); set_h(15, RG_OP_LIST, 3); EXPECT_MSG("procedure 'h': instruction 17: stack underflow (ADD needs 2, has 1)");
  fresh(); set_h(29, RG_OP_LIST, 1); EXPECT_MSG("procedure 'h': instruction 31: stack underflow (ADD needs 2, has 1)");
  {
    int pops, pushes;
    fresh();
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_CHOOSE, 0), &pops, &pushes) == 0 && pops == 2 && pushes == 1, "effect choose set");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_CHOOSE, 1), &pops, &pushes) == 0 && pops == 2 && pushes == 1, "effect choose list");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_CHOOSE, 2), &pops, &pushes) == 0 && pops == 3 && pushes == 1, "effect choose range");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_CHOOSE, 3), &pops, &pushes) == -1, "effect choose bad");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_LIST, 0), &pops, &pushes) == 0 && pops == 0 && pushes == 1, "effect list 0");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_LIST, 5), &pops, &pushes) == 0 && pops == 5 && pushes == 1, "effect list 5");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_ROLL, 6), &pops, &pushes) == 0 && pops == 1 && pushes == 1, "effect roll");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_ROLLS, 0), &pops, &pushes) == -1, "effect rolls 0");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_ITEM, 0), &pops, &pushes) == 0 && pops == 2 && pushes == 1, "effect item");
  }

  /* Stack heights. */
  fresh(); set_f(0, RG_OP_POP, 0); EXPECT_MSG("procedure 'f': instruction 0: stack underflow (POP needs 1, has 0)");
  fresh(); set_f(5, RG_OP_ADD, 0); EXPECT_MSG("procedure 'f': instruction 5: stack underflow (ADD needs 2, has 0)");
  fresh(); set_f(5, RG_OP_MAX, 2); EXPECT_MSG("procedure 'f': instruction 5: stack underflow (MAX needs 2, has 0)");
  fresh(); set_f(5, RG_OP_PUSHI, 1); EXPECT_MSG("procedure 'f': stack height differs where paths meet at 6 (0 vs 1)");
  fresh(); set_f(2, RG_OP_NOP, 0); set_f(3, RG_OP_PUSHI, 5); set_f(5, RG_OP_PUSHI, 5);
  EXPECT_MSG("procedure 'f': instruction 7: RET needs exactly 1 value on the stack (has 2)");
  fresh(); set_f(7, RG_OP_RETV, 0); EXPECT_MSG("procedure 'f': instruction 7: RETV in a procedure with a result");
  fresh(); M.procs[0].result = T_VOID; EXPECT_MSG("procedure 'f': instruction 7: RET in a procedure without a result");
  fresh(); set_f(7, RG_OP_NOP, 0); EXPECT_MSG("procedure 'f': falls off the end");
  fresh(); set_f(7, RG_OP_JMPF, -2); EXPECT_MSG("procedure 'f': falls off the end");
  fresh(); set_f(7, RG_OP_FAIL, 0); CHECK(rgi_module_verify(&M, err, sizeof err) == 0, "FAIL ends a path: %s", err);
  fresh(); set_f(5, RG_OP_JMP, -6); /* 5 -> 0: a loop back to the start, heights agree */
  CHECK(rgi_module_verify(&M, err, sizeof err) == 0, "loop: %s", err);
  /* g: a void call pushes nothing, so the NOTE after it underflows. */
  fresh(); M.procs[0].result = T_VOID; set_f(7, RG_OP_RETV, 0);
  EXPECT_MSG("procedure 'g': instruction 2: stack underflow (NOTE needs 1, has 0)");
  /* A call with the wrong arity underflows. */
  fresh(); M.code[M.procs[1].code] = RG_INS(RG_OP_NOP, 0);
  EXPECT_MSG("procedure 'g': instruction 1: stack underflow (CALL needs 1, has 0)");
  /* rgi_op_effect. */
  {
    int pops, pushes;
    fresh();
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_LOOKUP, 0), &pops, &pushes) == 0 && pops == 2 && pushes == 1, "effect lookup");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_MIN, 4), &pops, &pushes) == 0 && pops == 4 && pushes == 1, "effect min");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_MKREC, 0), &pops, &pushes) == 0 && pops == 2 && pushes == 1, "effect mkrec");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_CALL, 0), &pops, &pushes) == 0 && pops == 1 && pushes == 1, "effect call");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_CALL, 1), &pops, &pushes) == 0 && pops == 0 && pushes == 0, "effect call void");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_NOTE, 0), &pops, &pushes) == 0 && pops == 1 && pushes == 0, "effect note");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_ADD, 0), &pops, &pushes) == 0 && pops == 2 && pushes == 1, "effect add");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_LOOKUP, 7), &pops, &pushes) == -1, "effect bad table");
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_MIN, 0), &pops, &pushes) == -1, "effect min 0");
    CHECK(rgi_op_effect(&M, RG_INS(250, 0), &pops, &pushes) == -1, "effect bad op");
    CHECK(strcmp(rgi_opnames[RG_OP_EXPECTEQ], "EXPECTEQ") == 0 && strcmp(rgi_opnames[0], "NOP") == 0, "opnames");
    CHECK(rgi_module_find_proc(&M, "g") == 1 && rgi_module_find_proc(&M, "zz") == -1, "find proc");
    CHECK(rgi_module_find_table(&M, "tenum") == 3 && rgi_module_find_enum(&M, "terrain") == 0 &&
          rgi_module_find_enum(&M, "x") == -1, "find table/enum");
    CHECK(strcmp(rgi_module_str(&M, 99999), "") == 0, "str out of range");
    /* an effect decided by a count too large for an operand: -1 */
    M.records[0].count = RG_A_MAX + 1;
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_MKREC, 0), &pops, &pushes) == -1, "effect mkrec huge");
    M.procs[0].nparams = RG_A_MAX + 1;
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_CALL, 0), &pops, &pushes) == -1, "effect call huge");
    M.notes[0].nvals = RG_A_MAX + 1;
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_NOTE, 0), &pops, &pushes) == -1, "effect note huge");
    M.choices[0].kind = RG_OPT_RANGE + 1;
    CHECK(rgi_op_effect(&M, RG_INS(RG_OP_CHOOSE, 0), &pops, &pushes) == -1, "effect choose kind");
    fresh();
    /* g works (3) is the one test: the last procedure; past the end none */
    CHECK(rgi_module_is_test(&M, 3) && !rgi_module_is_test(&M, 0) && !rgi_module_is_test(&M, 4),
          "is_test");
    /* the size on disk of one element: the header's 12 bytes, the pool's
    ** chars 1 byte, no section 0 or past the last */
    CHECK(rgi_module_section_elem(1) == 12 && rgi_module_section_elem(2) == 1 &&
          rgi_module_section_elem(0) == 0 && rgi_module_section_elem(1000) == 0, "section_elem");
  }
  {
    rgi_module empty;
    memset(&empty, 0, sizeof empty);
    CHECK(strcmp(rgi_module_str(&empty, 0), "") == 0, "str of a module without a pool");
    CHECK(!rgi_module_is_rbc("") && !rgi_module_is_rbc("/nonexistent/m"), "no file is no module");
  }

  /* The remaining checks, each with its message (found by a coverage
  ** run: no case reached these). */
  /* a list type's chain reaching a reference out of range, from a field */
  fresh(); M.fields[0].type = (rgi_type){RG_K_LIST, 1}; M.types[1] = (rgi_type){RG_K_LIST, 9};
  EXPECT_MSG("field 0: type reference 9 out of range");
  /* negative strings, a unit's display, a loop variable's and a
  ** constant's name */
  fresh(); M.inputs[0].type = T_TEXT; M.inputs[0].value = -1;
  EXPECT_MSG("input 'rating': default: string out of range");
  fresh(); M.cells[M.tables[4].first] = -1; EXPECT_MSG("table 'ttext': cell 0: string -1 out of range");
  fresh(); M.units[0].display = 99999; EXPECT_MSG("unit 0: string 99999 out of range");
  fresh(); M.nevars = 1; M.evars = rg_malloc(sizeof *M.evars);
  M.evars[0] = (rgi_expect_var){99999, 0, {RG_K_INT, 0}};
  EXPECT_MSG("loop variable 0: string 99999 out of range");
  fresh(); M.nnamed = 1; M.named = rg_malloc(sizeof *M.named); memset(M.named, 0, sizeof *M.named);
  M.named[0].name = 99999; M.named[0].type = T_INT; EXPECT_MSG("constant 0: string 99999 out of range");
  /* a pool that is not there, though counted */
  fresh(); rg_free(M.strings); M.strings = NULL; EXPECT_MSG("string pool is empty");
  /* a constant or cell without a line may name no file */
  fresh(); M.nnamed = 1; M.named = rg_malloc(sizeof *M.named); memset(M.named, 0, sizeof *M.named);
  M.named[0].type = T_INT; M.named[0].file = 5;
  CHECK(rgi_module_verify(&M, err, sizeof err) == 0, "a constant without a line: %s", err);
  fresh(); M.ncellsrc = M.ncells; M.cellsrc = rg_malloc(M.ncells * sizeof *M.cellsrc);
  memset(M.cellsrc, 0, M.ncells * sizeof *M.cellsrc); M.cellsrc[3].file = 5;
  CHECK(rgi_module_verify(&M, err, sizeof err) == 0, "a cell without a line: %s", err);
  /* a list cell whose count is negative */
  fresh(); M.tables[0].value = (rgi_type){RG_K_LIST, 1};
  for (uint32_t k = 0; k < M.tables[0].count; k++) M.cells[M.tables[0].first + k] = 1;
  M.heap[1] = -1; EXPECT_MSG("table 'weather': cell 0: list offset 1 outside the heap");
  /* no room for the message: the status alone */
  fresh(); M.strings[0] = 'x';
  CHECK(rgi_module_verify(&M, NULL, 0) == RG_BAD_MODULE, "verify without a message buffer");
  /* strategies: a name or doc out of the pool, a who_set flag of 2, a
  ** prompt no choice asks (nothing to check), a list chooser, a record
  ** option's value, a field that is a record */
  {
    static const struct { const char *why; rgi_strategy st; rgi_pick p; int option_rec; } sc[] = {
      {"strategy 0: string 99999 out of range", {.name = 99999, .count = 1}, {0}, 0},
      {"strategy 0: string 99999 out of range", {.doc = 99999, .count = 1}, {0}, 0},
      {"pick 0: string 99999 out of range", {.count = 1}, {.prompt = 99999}, 0},
      {"pick 0: bad kind, order, rule or field", {.count = 1}, {.who_set = 2}, 0},
      {NULL, {.count = 1}, {.prompt = 1}, 0},
      {"pick 0: a chooser that is a record or list", {.count = 1}, {.who_set = 1}, 2},
      {"pick 0: a value of a record or list option", {.count = 1}, {.kind = RG_PICK_VALUE}, 1},
      {"pick 0: a field that is not simple", {.count = 1}, {.kind = RG_PICK_MAX, .field = 1}, 3},
    };
    for (size_t i = 0; i < sizeof sc / sizeof *sc; i++) {
      int r;
      fresh();
      M.nstrategies = 1;
      M.strategies = rg_malloc(sizeof *M.strategies);
      M.strategies[0] = sc[i].st;
      M.npicks = 1;
      M.picks = rg_malloc(sizeof *M.picks);
      M.picks[0] = sc[i].p;
      /* prompt 0: choice 0's ("where?"); 1: a string no choice asks (the
      ** module's name) */
      if (sc[i].p.prompt == 0) M.picks[0].prompt = M.choices[0].prompt;
      else if (sc[i].p.prompt == 1) M.picks[0].prompt = M.name;
      if (sc[i].option_rec == 2) M.choices[0].chooser = (rgi_type){RG_K_LIST, 1};
      if (sc[i].option_rec == 1 || sc[i].option_rec == 3) {
        M.choices[0].kind = RG_OPT_LIST;
        M.choices[0].option = (rgi_type){RG_K_RECORD, 0};
      }
      if (sc[i].option_rec == 3) M.fields[0].type = (rgi_type){RG_K_RECORD, 0};
      err[0] = '\0';
      r = rgi_module_verify(&M, err, sizeof err);
      if (sc[i].why) CHECK(r == RG_BAD_MODULE && strcmp(err, sc[i].why) == 0,
                           "strategy case %zu: got %d '%s', want '%s'", i, r, err, sc[i].why);
      else CHECK(r == 0, "strategy case %zu: refused: %s", i, err);
    }
  }
  /* choices of one prompt: the same types agree (a pick for it passes);
  ** another chooser kind does not */
  {
    int r;
    fresh();
    M.choices[1] = M.choices[0];
    M.nstrategies = 1; M.strategies = rg_malloc(sizeof *M.strategies);
    M.strategies[0] = (rgi_strategy){.count = 1};
    M.npicks = 1; M.picks = rg_malloc(sizeof *M.picks);
    M.picks[0] = (rgi_pick){.prompt = M.choices[0].prompt};
    CHECK(rgi_module_verify(&M, err, sizeof err) == 0, "choices that agree: %s", err);
    M.choices[1].chooser = T_BOOL;
    err[0] = '\0';
    r = rgi_module_verify(&M, err, sizeof err);
    CHECK(r == RG_BAD_MODULE && strcmp(err, "pick 0: choices of one prompt with other types") == 0,
          "choosers that differ: %d '%s'", r, err);
  }
  /* displays: a title out of the pool; a form for elements that are not
  ** records; a table line whose columns are out of range, or whose column
  ** names no field (info has 2); then a good table */
  fresh(); M.ndisplays = 1; M.displays = rg_malloc(sizeof *M.displays);
  M.displays[0] = (rgi_display){ .record = 0, .title = 99999 };
  EXPECT_MSG("display 0: bad record, title or lines");
  fresh(); M.ndisplays = 1; M.displays = rg_malloc(sizeof *M.displays);
  M.displays[0] = (rgi_display){ .record = 0, .first = 0, .count = 1 };
  M.ndlines = 1; M.dlines = rg_malloc(sizeof *M.dlines);
  M.fields[0].type = (rgi_type){RG_K_LIST, 0};   /* a list of ints */
  M.dlines[0] = (rgi_dline){ .kind = RG_DL_LIST, .field = 0, .text = M.name };
  EXPECT_MSG("display line 0: a form for elements not records");
  fresh(); M.ndisplays = 1; M.displays = rg_malloc(sizeof *M.displays);
  M.displays[0] = (rgi_display){ .record = 0, .first = 0, .count = 1 };
  M.ndlines = 1; M.dlines = rg_malloc(sizeof *M.dlines);
  M.types[0] = (rgi_type){RG_K_RECORD, 0};
  M.fields[0].type = (rgi_type){RG_K_LIST, 0};   /* a list of infos */
  M.dlines[0] = (rgi_dline){ .kind = RG_DL_TABLE, .field = 0, .first = 0, .count = 1 };
  EXPECT_MSG("display line 0: not a table of records");
  M.ndcols = 1; M.dcols = rg_malloc(sizeof *M.dcols); M.dcols[0] = 2;
  EXPECT_MSG("display line 0: column 0 out of range");
  M.dcols[0] = 1;
  CHECK(rgi_module_verify(&M, err, sizeof err) == 0, "a table of infos' t: %s", err);

  /* The file reader. */
  {
    unsigned char *buf = malloc(good_len + 64);
    memcpy(buf, good_buf, good_len);
    EXPECT_LOAD(buf, 3, "bad magic");
    buf[0] = 'X'; EXPECT_LOAD(buf, good_len, "bad magic"); buf[0] = 'R';
    EXPECT_LOAD(buf, 10, "truncated header");
    put32(buf + 4, 99); EXPECT_LOAD(buf, good_len, "unsupported version 99"); put32(buf + 4, RG_MODULE_VERSION);
    put32(buf + 8, 1000); EXPECT_LOAD(buf, good_len, "absurd section count 1000"); put32(buf + 8, 27);
    EXPECT_LOAD(buf, 100, "section table out of bounds");
    put32(buf + 12 + 12 * 5 + 4, (uint32_t)good_len); EXPECT_LOAD(buf, good_len, "section 5 out of bounds");
    memcpy(buf, good_buf, good_len);
    put32(buf + 12 + 12 * 5 + 4, 0); EXPECT_LOAD(buf, good_len, "section 5 out of bounds");
    memcpy(buf, good_buf, good_len);
    put32(buf + 12 + 12 * 5 + 8, 0xFFFFFFF0u); EXPECT_LOAD(buf, good_len, "section 5 out of bounds");
    memcpy(buf, good_buf, good_len);
    /* Section 2 (files) pointed at section 1's bytes (the string pool). */
    memcpy(buf + 12 + 12 * 2 + 4, buf + 12 + 12 * 1 + 4, 4);
    EXPECT_LOAD(buf, good_len, "sections 1 and 2 overlap");
    memcpy(buf, good_buf, good_len);
    put32(buf + 12 + 12 * 3, 99); EXPECT_LOAD(buf, good_len, "section 3: unknown id 99");
    put32(buf + 12 + 12 * 3, 3); EXPECT_LOAD(buf, good_len, "section 3: duplicate id 3");
    memcpy(buf, good_buf, good_len);
    put32(buf + 12 + 12 * 0 + 8, 8); EXPECT_LOAD(buf, good_len, "section 0: header size 8 is not 12");
    memcpy(buf, good_buf, good_len);
    /* The header entry moved after the string pool's, with a bad size: the
    ** pool read before it is freed (LeakSanitizer under make sanitize). */
    {
      unsigned char e[12];
      memcpy(e, buf + 12, 12);
      memcpy(buf + 12, buf + 24, 12);
      memcpy(buf + 24, e, 12);
      put32(buf + 12 + 12 * 1 + 8, 8);
      EXPECT_LOAD(buf, good_len, "section 1: header size 8 is not 12");
      memcpy(buf, good_buf, good_len);
    }
    put32(buf + 12 + 12 * 3 + 8, 7); EXPECT_LOAD(buf, good_len, "section 3: size 7 is not a multiple of 8");
    memcpy(buf, good_buf, good_len);
    /* A verifier failure comes through deserialize too. */
    put32(buf + 8, 20); EXPECT_LOAD(buf, good_len, "line table has 0 entries for 51 instructions");
    memcpy(buf, good_buf, good_len);
    rgi_module m;
    CHECK(rgi_module_deserialize(&m, buf, good_len, err, sizeof err) == 0, "good loads");
    rgi_module_free(&m);
    /* Empty sections may be left out. */
    put32(buf + 8, 0);
    EXPECT_LOAD(buf, 12, "string pool is empty");
    free(buf);
  }

  /* Save and load through a temporary directory. */
  {
    char dir[] = "/tmp/test_verify.XXXXXX";
    char path[128], bad[160];
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(path, sizeof path, "%s/m.rbc", dir);
    fresh();
    CHECK(rgi_module_save(&M, path, err, sizeof err) == 0, "save: %s", err);
    rgi_module m;
    CHECK(rgi_module_load(&m, path, err, sizeof err) == 0, "load: %s", err);
    unsigned char *buf2; size_t len2;
    CHECK(rgi_module_serialize(&m, &buf2, &len2) == 0 && len2 == good_len &&
          memcmp(buf2, good_buf, len2) == 0, "save/load round trip");
    rg_free(buf2);
    rgi_module_free(&m);
    CHECK(rgi_module_is_rbc(path) == 1, "is_rbc by name");
    snprintf(bad, sizeof bad, "%s/m.bin", dir);
    CHECK(rename(path, bad) == 0 && rgi_module_is_rbc(bad) == 1, "is_rbc by magic");
    CHECK(rgi_module_is_rbc("/nonexistent/x.rules") == 0, "is_rbc no");
    FILE *f = fopen(bad, "wb"); fputs("nope", f); fclose(f);
    CHECK(rgi_module_load(&m, bad, err, sizeof err) == RG_BAD_MODULE && strstr(err, "bad magic"), "load bad: %s", err);
    unlink(bad);
    /* Saving into a missing directory fails and leaves nothing behind. */
    snprintf(bad, sizeof bad, "%s/missing/m.rbc", dir);
    CHECK(rgi_module_save(&M, bad, err, sizeof err) == -1, "save into missing dir");
    /* Saving onto a directory fails at the rename: the temp file is removed. */
    snprintf(bad, sizeof bad, "%s/adir", dir);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir %s && touch %s/x", bad, bad);
    CHECK(system(cmd) == 0, "mkdir");
    CHECK(rgi_module_save(&M, bad, err, sizeof err) == -1, "save onto a directory");
    int nfiles = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) if (e->d_name[0] != '.') nfiles++;
    closedir(d);
    CHECK(nfiles == 1, "no temporary file left (%d entries)", nfiles);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "cleanup");
    CHECK(rgi_module_load(&m, "/nonexistent/m.rbc", err, sizeof err) == RG_NOT_FOUND, "load missing");
  }

  /* Out of memory during deserialize fails cleanly. */
  for (unsigned long k = 1; k < 60; k++) {
    rgi_module m;
    rg_alloc_fail_at(k);
    int r = rgi_module_deserialize(&m, good_buf, good_len, err, sizeof err);
    rg_alloc_fail_at(0);
    if (r == 0) { rgi_module_free(&m); break; }
    CHECK(r == RG_NOMEM && strcmp(err, "out of memory") == 0, "oom %lu: %d %s", k, r, err);
  }

  rgi_module_free(&M);
  rgi_module_free(&b.m);
  rg_free(good_buf);
  return check_done("test_verify");
}
