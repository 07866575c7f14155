/*
** test_value.c: printing values through rg_out (value.c), linked against the
** library only.
**
** A hand-built module (modbuild.h) gives an enum with display names, a unit,
** a record and lists on the constant heap; each case prints one value into
** an rg_buf and compares the text.  Cases are named value-N.
*/
#include <stdio.h>
#include <string.h>

#include "modbuild.h"
#include "regula_front.h"
#include "value.h"
#include "check.h"

/* Compares got with want under name; counts the outcome. */
static void check(const char *name, const char *got, const char *want) {
  if (strcmp(got, want) == 0) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s:\n  want [%s]\n  got  [%s]\n", name, want, got);
}

/* Prints v of type t with rgi_value_print (block) or rgi_value_write (inline)
** into a fresh buffer and checks the text. */
static void value_case(const char *name, const rgi_module *m, rgi_type t, rgi_value v, int block,
                       const char *want) {
  rg_buf b;
  rg_buf_init(&b);
  if (block) rgi_value_print(&b.out, m, m->heap, m->nheap, t, v);
  else rgi_value_write(&b.out, m, m->heap, m->nheap, t, v);
  check(name, b.data ? b.data : "", want);
  rg_buf_free(&b);
}

/* An rg_out whose writes fail: a printer must mark it failed, not crash. */
static int refuse(void *ctx, const char *s, size_t n) {
  (void)ctx, (void)s, (void)n;
  return -1;
}

int main(void) {
  mb b;
  mb_init(&b);
  uint32_t e = mb_enum(&b, "ground", 3, (const char *[]){"S", "C", "D"});
  b.m.members[b.m.enums[e].first + 0].display = mb_str(&b, "Standard");
  b.m.members[b.m.enums[e].first + 1].display = mb_str(&b, "Coastal");
  uint32_t u = mb_unit(&b, "BW");
  rgi_type tg = {RG_K_ENUM, e}, ts = {RG_K_SET, e}, td = {RG_K_DIST, u};
  rgi_type tp = {RG_K_PERCENT, 0};
  uint32_t r = mb_record(&b, "pick", 2, (const char *[]){"where", "how_far"},
                         (rgi_type[]){tg, td});
  rgi_type tr = {RG_K_RECORD, r};
  *MB_PUSH(b.m.types, b.m.ntypes) = T_INT;       /* types[0]: int */
  *MB_PUSH(b.m.types, b.m.ntypes) = tr;          /* types[1]: pick */
  rgi_type tli = {RG_K_LIST, 0}, tlr = {RG_K_LIST, 1};
  uint32_t rec = mb_heap(&b, 2, (rgi_value[]){1, 2500});
  uint32_t ints = mb_heap(&b, 4, (rgi_value[]){3, 4, -1, 6});
  uint32_t none = mb_heap(&b, 1, (rgi_value[]){0});
  uint32_t recs = mb_heap(&b, 2, (rgi_value[]){1, rec});
  uint32_t holder = mb_record(&b, "holder", 2, (const char *[]){"name", "picks"},
                              (rgi_type[]){T_TEXT, tlr});
  uint32_t hv = mb_heap(&b, 2, (rgi_value[]){mb_str(&b, "Alpha"), recs});
  rgi_type th = {RG_K_RECORD, holder};
  const rgi_module *m = &b.m;

  value_case("value-1 int", m, T_INT, -42, 0, "-42");
  value_case("value-2 bool", m, T_BOOL, 1, 0, "true");
  value_case("value-3 percent", m, tp, 40, 0, "40%");
  value_case("value-4 distance", m, td, 2500, 0, "2.5 BW");
  value_case("value-5 distance whole", m, td, -6000, 0, "-6 BW");
  value_case("value-6 member by display name", m, tg, 1, 0, "Coastal");
  value_case("value-7 member by code", m, tg, 2, 0, "D");
  value_case("value-8 set", m, ts, 5, 0, "Standard, D");
  value_case("value-9 empty set", m, ts, 0, 0, "none");
  value_case("value-10 text", m, T_TEXT, (rgi_value)mb_str(&b, "hello"), 0, "hello");
  m = &b.m;   /* mb_str may have moved the pool */
  value_case("value-11 list", m, tli, ints, 0, "[4, -1, 6]");
  value_case("value-12 empty list", m, tli, none, 0, "[]");
  value_case("value-13 record inline", m, tr, rec, 0, "{where: Coastal, how_far: 2.5 BW}");
  value_case("value-14 record as lines", m, tr, rec, 1, "where: Coastal\nhow_far: 2.5 BW\n");
  value_case("value-15 scalar block", m, T_INT, 7, 1, "7\n");
  value_case("value-16 list of records a line each", m, th, hv, 1,
             "name: Alpha\npicks:\n  - {where: Coastal, how_far: 2.5 BW}\n");
  value_case("value-17 list off the heap", m, tli, 9999, 0, "?");
  value_case("value-18 record off the heap", m, tr, 9999, 1, "?\n");

  {
    /* rgi_value_format truncates to its buffer, NUL-terminated. */
    char small[6];
    rgi_value_format(small, sizeof small, m, m->heap, m->nheap, tli, ints);
    check("value-19 format truncates", small, "[4, -");
  }
  {
    rg_out bad = {refuse, NULL, 0};
    rgi_value_print(&bad, m, m->heap, m->nheap, th, hv);
    if (bad.failed) passed++;
    else failed++, printf("FAIL value-20 a failed write is remembered\n");
  }
  {
    /* forms: {FIELD:TEXT} shows the form TEXT when a number is not 0; a
    ** crafted module's forms (the compiler refuses these) print safely */
    uint32_t zero = mb_heap(&b, 2, (rgi_value[]){0, 0});
    static const struct { const char *name, *form, *want; int at_zero; } fc[] = {
      {"value-21 form, a number set", "{where}{how_far: at {how_far}}", "Coastal at 2.5 BW", 0},
      {"value-22 form, a number 0", "{where}{how_far: at {how_far}}", "Standard", 1},
      {"value-23 form, unclosed", "{where} {a{b", "Coastal {a{b", 0},
      {"value-24 form, not a flag", "{where:x}!", "?!", 0},
      {"value-25 form, nested too deep",
       "{how_far:a{how_far:b{how_far:c{how_far:d{how_far:e}}}}}", "abcd?", 0},
    };
    m = &b.m;
    for (size_t i = 0; i < sizeof fc / sizeof *fc; i++) {
      rg_buf fb;
      rg_buf_init(&fb);
      rgi_value_form(&fb.out, m, m->heap, m->nheap, r, fc[i].form, fc[i].at_zero ? zero : rec);
      check(fc[i].name, fb.data ? fb.data : "", fc[i].want);
      rg_buf_free(&fb);
    }
  }
  {
    /* parsing numbers as arguments and TSV cells give them: thousandths of
    ** a distance (at most 3 decimals) and whole ints, each within int64_t */
    static const struct { const char *name, *text; size_t used; int64_t want; } mc[] = {
      {"value-30 milli whole", "6", 1, 6000},
      {"value-31 milli negative, stops at the unit", "-2.5 BW", 4, -2500},
      {"value-32 milli plus, 3 decimals", "+0.125", 6, 125},
      {"value-33 milli dot without digits", "6.", 1, 6000},
      {"value-34 milli 4 decimals", "1.2345", 0, 0},
      {"value-35 milli no digits", "-x", 0, 0},
      {"value-36 milli largest", "9223372036854775.807", 20, INT64_MAX},
      {"value-37 milli a thousandth past", "9223372036854775.808", 0, 0},
      {"value-38 milli smallest", "-9223372036854775.808", 21, INT64_MIN},
      {"value-39 milli a thousandth below", "-9223372036854775.809", 0, 0},
      {"value-40 milli whole part past", "9223372036854776", 0, 0},
    }, ic[] = {
      {"value-41 int negative", "-12", 3, -12},
      {"value-42 int plus", "+3", 2, 3},
      {"value-43 int .000 is whole", "6.000", 5, 6},
      {"value-44 int .05 is not", "6.05", 1, 6},
      {"value-45 int largest", "9223372036854775807", 19, INT64_MAX},
      {"value-46 int one past", "9223372036854775808", 0, 0},
      {"value-47 int smallest", "-9223372036854775808", 20, INT64_MIN},
      {"value-48 int no digits", "+", 0, 0},
    };
    for (size_t i = 0; i < sizeof mc / sizeof *mc; i++) {
      int64_t v = 0;
      size_t used = rgi_parse_milli(mc[i].text, &v);
      if (used == mc[i].used && (!used || v == mc[i].want)) passed++;
      else failed++, printf("FAIL %s: used %zu, %lld\n", mc[i].name, used, (long long)v);
    }
    for (size_t i = 0; i < sizeof ic / sizeof *ic; i++) {
      int64_t v = 0;
      size_t used = rgi_parse_int(ic[i].text, &v);
      if (used == ic[i].used && (!used || v == ic[i].want)) passed++;
      else failed++, printf("FAIL %s: used %zu, %lld\n", ic[i].name, used, (long long)v);
    }
  }
  {
    /* rgi_value_parse: a value as a user types it (call arguments, inputs,
    ** dice faces); the error names the type and, for an enum, the members */
    static const char members[] = "S (Standard), C (Coastal), D";
    rgi_type tlist = {RG_K_LIST, 0};
    char want_enum[160], want_set[160];
    const struct { const char *name; rgi_type t; const char *text; rgi_value want; const char *err; }
    pc[] = {
      {"value-50 int", T_INT, "12", 12, NULL},
      {"value-51 int with %", T_INT, "12%", 0, "'12%' is not a valid int"},
      {"value-52 percent with %", tp, "40%", 40, NULL},
      {"value-53 percent without", tp, "40", 40, NULL},
      {"value-54 percent %%", tp, "40%%", 0, "'40%%' is not a valid percent"},
      {"value-55 bool true", T_BOOL, "true", 1, NULL},
      {"value-56 bool false", T_BOOL, "false", 0, NULL},
      {"value-57 bool yes", T_BOOL, "yes", 0, "'yes' is not a valid bool"},
      {"value-58 distance with unit", td, "2.5 BW", 2500, NULL},
      {"value-59 distance starred", td, "2.5BW*", 2500, NULL},
      {"value-60 distance bare", td, "3", 3000, NULL},
      {"value-61 distance in inches, unit BW", td, "3\"", 0, "'3\"' is not a valid distance BW"},
      {"value-62 distance other unit", td, "3 MU", 0, "'3 MU' is not a valid distance BW"},
      {"value-63 distance no number", td, "BW", 0, "'BW' is not a valid distance BW"},
      {"value-64 text of the pool", T_TEXT, "Alpha", (rgi_value)mb_str(&b, "Alpha"), NULL},
      {"value-65 text not in the pool", T_TEXT, "Omega", 0,
       "'Omega' is not one of the texts of this rule set"},
      {"value-66 member by display name, any case", tg, "coastal", 1, NULL},
      {"value-67 member by code, any case", tg, "d", 2, NULL},
      {"value-68 no member", tg, "X", 0, want_enum},
      {"value-69 set none", ts, "none", 0, NULL},
      {"value-70 set empty", ts, "", 0, NULL},
      {"value-71 set of two", ts, "S, coastal", 3, NULL},
      {"value-72 set, commas and spaces", ts, ",D,, S ", 5, NULL},
      {"value-73 set with a stranger", ts, "S, Q", 0, want_set},
      {"value-74 a record", tr, "x", 0, "a pick cannot be given on the command line"},
      {"value-75 a list", tlist, "x", 0, "a list int cannot be given on the command line"},
    };
    m = &b.m;
    snprintf(want_enum, sizeof want_enum, "'X' is not a ground; valid: %s", members);
    snprintf(want_set, sizeof want_set, "'Q' is not a ground; valid: %s", members);
    for (size_t i = 0; i < sizeof pc / sizeof *pc; i++) {
      rgi_value v = -1;
      char err[256] = "";
      int rc = rgi_value_parse(m, pc[i].t, pc[i].text, &v, err, sizeof err);
      if (pc[i].err) check(pc[i].name, rc == -1 ? err : "(parsed)", pc[i].err);
      else if (rc == 0 && v == pc[i].want) passed++;
      else failed++, printf("FAIL %s: rc %d, value %lld, %s\n", pc[i].name, rc, (long long)v, err);
    }
  }
  {
    /* type and dimension names, safe on a crafted module's references */
    char tn[128], small[8];
    uint32_t self = mb_type(&b, (rgi_type){RG_K_LIST, 2});   /* a list of itself */
    rgi_dim ds = mb_dim_range(0, 15), dg = mb_dim_enum(&b, e), dr = mb_dim_range(-2, 5);
    m = &b.m;
    check("value-80 list of records", rgi_type_name(tn, sizeof tn, m, tlr), "list pick");
    check("value-81 set", rgi_type_name(tn, sizeof tn, m, ts), "set ground");
    check("value-82 nothing", rgi_type_name(tn, sizeof tn, m, T_VOID), "nothing");
    check("value-83 unit out of range", rgi_type_name(tn, sizeof tn, m, (rgi_type){RG_K_DIST, 9}),
          "distance ?");
    check("value-84 enum out of range", rgi_type_name(tn, sizeof tn, m, (rgi_type){RG_K_ENUM, 9}), "?");
    check("value-85 record out of range",
          rgi_type_name(tn, sizeof tn, m, (rgi_type){RG_K_RECORD, 9}), "?");
    check("value-86 list of no type", rgi_type_name(tn, sizeof tn, m, (rgi_type){RG_K_LIST, 99}),
          "list ?");
    check("value-87 endless list cut at 8", self == 2 ? rgi_type_name(tn, sizeof tn, m,
          (rgi_type){RG_K_LIST, self}) : "", "list list list list list list list list ?");
    check("value-88 type name truncated", rgi_type_name(small, sizeof small, m, tli), "list in");
    ds.label = mb_str(&b, "score");
    dg.label = mb_str(&b, "ground");
    dr.label = mb_str(&b, "-2..2");
    m = &b.m;
    check("value-89 range with a label", rgi_dim_name(tn, sizeof tn, m, &ds), "score: 0..14");
    check("value-90 enum named as its enum", rgi_dim_name(tn, sizeof tn, m, &dg), "ground");
    check("value-91 label that is the range", rgi_dim_name(tn, sizeof tn, m, &dr), "-2..2");
  }
  {
    /* rgi_table_cell: the lookup behind `regula query`; cell (s, g) holds
    ** 10 s + g, rows by score (the last key varies fastest) */
    rgi_dim dims[2] = {mb_dim_range(1, 3), mb_dim_enum(&b, e)};
    dims[0].label = mb_str(&b, "score");
    uint32_t ti = mb_table(&b, "weather", 2, dims, T_INT,
                           (rgi_value[]){10, 11, 12, 20, 21, 22, 30, 31, 32});
    static const struct { const char *name, *keys[2]; int nkeys; rgi_value want; const char *err; }
    tc[] = {
      {"value-92 cell by display name", {"2", "coastal"}, 2, 21, NULL},
      {"value-93 last cell", {"3", "D"}, 2, 32, NULL},
      {"value-94 too few keys", {"2", NULL}, 1, 0,
       "table 'weather' takes 2 keys (score: 1..3, ground), got 1"},
      {"value-95 key outside", {"4", "S"}, 2, 0,
       "key 1 of table 'weather' (score: 1..3): 4 is outside 1..3"},
      {"value-96 key no number", {"x", "S"}, 2, 0,
       "key 1 of table 'weather' (score: 1..3): 'x' is not a valid int"},
      {"value-97 key no member", {"1", "Q"}, 2, 0,
       "key 2 of table 'weather' (ground): 'Q' is not a ground; valid: S (Standard), C (Coastal), D"},
    };
    m = &b.m;
    for (size_t i = 0; i < sizeof tc / sizeof *tc; i++) {
      rgi_value v = -1;
      char err[256] = "";
      int rc = rgi_table_cell(m, ti, tc[i].keys, tc[i].nkeys, &v, err, sizeof err);
      if (tc[i].err) check(tc[i].name, rc == -1 ? err : "(found)", tc[i].err);
      else if (rc == 0 && v == tc[i].want) passed++;
      else failed++, printf("FAIL %s: rc %d, value %lld, %s\n", tc[i].name, rc, (long long)v, err);
    }
  }
  {
    /* value-100..: what a module built by hand (an embedder's, or a crafted
    ** .rbc) may hold that the compiler never makes: every reference out of
    ** range prints as '?' (or a set as none), never a read outside */
    rgi_value bad_len[2] = {-1, 100};              /* a list of length -1, of 100 */
    uint32_t lneg = mb_heap(&b, 1, bad_len), lbig = mb_heap(&b, 1, bad_len + 1);
    m = &b.m;
    value_case("value-100 a kind with no value (nothing)", m, T_VOID, 0, 0, "?");
    value_case("value-101 a text off the pool", m, T_TEXT, -1, 0, "?");
    value_case("value-102 a negative distance with decimals", m, td, -2500, 0, "-2.5 BW");
    value_case("value-103 a distance of no unit", m, (rgi_type){RG_K_DIST, 9}, 1500, 0, "1.5 ?");
    value_case("value-104 a member past the enum", m, tg, 5, 0, "?");
    value_case("value-105 a member of no enum", m, (rgi_type){RG_K_ENUM, 9}, 0, 0, "?");
    value_case("value-106 a member number past 63", m, tg, 64, 0, "?");
    value_case("value-107 a set of no enum", m, (rgi_type){RG_K_SET, 9}, 7, 0, "none");
    value_case("value-108 a record of no record type", m, (rgi_type){RG_K_RECORD, 9}, rec, 0, "?");
    value_case("value-109 a record at a negative offset", m, tr, -1, 0, "?");
    value_case("value-110 a list of no element type", m, (rgi_type){RG_K_LIST, 99}, ints, 0, "?");
    value_case("value-111 a list at a negative offset", m, tli, -1, 0, "?");
    value_case("value-112 a list of length -1", m, tli, lneg, 0, "?");
    value_case("value-113 a list longer than the heap", m, tli, lbig, 0, "?");
    value_case("value-114 a record off the heap as lines", m, tr, -1, 1, "?\n");
    value_case("value-115 a text past the pool", m, T_TEXT, (rgi_value)m->nstrings + 5, 0, "?");
    value_case("value-116 a member number below 0", m, tg, -1, 0, "?");
    value_case("value-117 a record running off the heap's end, as lines", m, tr,
               (rgi_value)m->nheap - 1, 1, "?\n");
    uint32_t hbad = mb_heap(&b, 2, (rgi_value[]){mb_str(&b, "Gamma"), -1});
    m = &b.m;
    value_case("value-118 a list of records off the heap, as lines", m, th, hbad, 1,
               "name: Gamma\npicks: ?\n");
  }
  {
    /* value-120: a record that holds itself prints 17 levels, then '?';
    ** a list of itself likewise */
    uint32_t node = mb_record(&b, "node", 1, (const char *[]){"next"}, (rgi_type[]){T_INT});
    b.m.fields[b.m.records[node].first].type = (rgi_type){RG_K_RECORD, node};
    uint32_t self = b.m.nheap;
    mb_heap(&b, 1, (rgi_value[]){self});
    uint32_t lt = mb_type(&b, (rgi_type){RG_K_LIST, 0});
    b.m.types[lt].ref = lt;                        /* list of list of ... */
    uint32_t lself = b.m.nheap;
    mb_heap(&b, 2, (rgi_value[]){1, lself});
    char want[512] = "", wantl[64] = "";
    for (int i = 0; i < 17; i++) strcat(want, "{next: ");
    strcat(want, "?");
    for (int i = 0; i < 17; i++) strcat(want, "}");
    for (int i = 0; i < 17; i++) strcat(wantl, "[");
    strcat(wantl, "?");
    for (int i = 0; i < 17; i++) strcat(wantl, "]");
    m = &b.m;
    value_case("value-120 a record that holds itself", m, (rgi_type){RG_K_RECORD, node}, self, 0, want);
    value_case("value-121 a list that holds itself", m, (rgi_type){RG_K_LIST, lt}, lself, 0, wantl);
  }
  {
    /* value-122: a record of no fields prints as {} on its line; a list of
    ** records that is empty prints inline */
    uint32_t empty = mb_record(&b, "empty", 0, NULL, NULL);
    uint32_t nolist = mb_heap(&b, 1, (rgi_value[]){0});
    uint32_t hv2 = mb_heap(&b, 2, (rgi_value[]){mb_str(&b, "Beta"), nolist});
    m = &b.m;
    value_case("value-122 a record of no fields", m, (rgi_type){RG_K_RECORD, empty}, 0, 1, "{}\n");
    value_case("value-123 an empty list of records inline", m, th, hv2, 1, "name: Beta\npicks: []\n");
  }
  {
    /* value-124: printing stops after RG_PRINT_MAX_VALUES values: a record
    ** whose first field is a list of 100001 zeros prints the list (itself
    ** one value) with 99998 zeros, then "...", and its next field empty */
    uint32_t big = mb_record(&b, "big", 2, (const char *[]){"a", "b"}, (rgi_type[]){tli, T_INT});
    /* the heap grown once (mb_heap grows it a value at a time: slow under
    ** the sanitizers' realloc for 100002 values) */
    uint32_t lz = b.m.nheap;
    b.m.heap = rg_realloc(b.m.heap, ((size_t)b.m.nheap + 100002) * sizeof *b.m.heap);
    if (!b.m.heap) abort();
    memset(b.m.heap + lz, 0, 100002 * sizeof *b.m.heap);
    b.m.heap[lz] = 100001;
    b.m.nheap += 100002;
    uint32_t bv = mb_heap(&b, 2, (rgi_value[]){lz, 7});
    rg_buf pb;
    rg_buf_init(&pb);
    m = &b.m;
    rgi_value_print(&pb.out, m, m->heap, m->nheap, (rgi_type){RG_K_RECORD, big}, bv);
    size_t zeros_seen = 0;
    for (size_t i = 0; pb.data && i < pb.len; i++) zeros_seen += pb.data[i] == '0';
    check("value-124 the print ends after the limit",
          pb.data && pb.len > 14 ? pb.data + pb.len - 14 : "", ", 0, ...]\nb: \n");
    check("value-125 99998 values before it", zeros_seen == 99998 ? "yes" : "no", "yes");
    rg_buf_free(&pb);
  }
  {
    /* value-130: forms, the rest of their grammar: {{ inside a {FIELD:TEXT}
    ** is a brace, a form ending in '{' or in an unclosed part prints it as
    ** written, an unknown field is '?', spaces at either end are dropped
    ** (also when nothing else is left); a form of no record, or of a record
    ** off the heap, is '?' */
    uint32_t zero = mb_heap(&b, 2, (rgi_value[]){0, 0});
    static const struct { const char *name, *form, *want; int at_zero; } fc[] = {
      {"value-130 form, {{ in a part", "{how_far:a{{b}", "a{b", 0},
      {"value-131 form, a last '{'", "{where}{", "Coastal{", 0},
      {"value-132 form, unclosed at its end", "{where} {x{", "Coastal {x{", 0},
      {"value-133 form, unknown field", "{nope}!", "?!", 0},
      {"value-134 form, spaces trimmed", "  {where}  ", "Coastal", 0},
      {"value-135 form, nothing left", " {how_far: far} ", "", 1},
    };
    m = &b.m;
    for (size_t i = 0; i < sizeof fc / sizeof *fc; i++) {
      rg_buf fb;
      rg_buf_init(&fb);
      rgi_value_form(&fb.out, m, m->heap, m->nheap, r, fc[i].form, fc[i].at_zero ? zero : rec);
      check(fc[i].name, fb.data ? fb.data : "", fc[i].want);
      rg_buf_free(&fb);
    }
    rg_buf fb;
    rg_buf_init(&fb);
    rgi_value_form(&fb.out, m, m->heap, m->nheap, 99, "{where}", rec);
    rgi_value_form(&fb.out, m, m->heap, m->nheap, r, "{where}", -1);
    rgi_value_form(&fb.out, m, m->heap, m->nheap, r, "{where}", (rgi_value)m->nheap - 1);
    check("value-136 form of no record, or off the heap", fb.data ? fb.data : "", "???");
    rg_buf_free(&fb);
  }
  {
    /* value-140: rgi_value_format into no room writes nothing; parsing
    ** stops where a number stops */
    char none[1] = {'x'};
    rgi_value_format(none, 0, m, m->heap, m->nheap, T_INT, 5);
    check("value-140 format into 0 bytes", none[0] == 'x' ? "untouched" : "written", "untouched");
    static const struct { const char *name, *text; size_t used; int64_t want; int milli; } nc[] = {
      {"value-141 milli empty", "", 0, 0, 1},
      {"value-142 milli a lone sign", "-", 0, 0, 1},
      {"value-143 milli dot and a letter", "6.a", 1, 6000, 1},
      {"value-144 int stops at a letter", "12a", 2, 12, 0},
      {"value-145 int .5 is not whole", "6.5", 1, 6, 0},
      {"value-146 int .0 then a letter", "6.0x", 3, 6, 0},
      {"value-147 int a letter first", "a1", 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof nc / sizeof *nc; i++) {
      int64_t v = 0;
      size_t used = nc[i].milli ? rgi_parse_milli(nc[i].text, &v) : rgi_parse_int(nc[i].text, &v);
      if (used == nc[i].used && (!used || v == nc[i].want)) passed++;
      else failed++, printf("FAIL %s: used %zu, %lld\n", nc[i].name, used, (long long)v);
    }
  }
  {
    /* value-150: parsing, the rest: a percent with a stranger after it; a
    ** distance of no unit takes a bare number; a set text ending in a
    ** comma; a member word longer than 255 bytes is cut there; enum lookup
    ** of no enum, or of text that is not UTF-8, finds nothing */
    char longword[300], err[512] = "", want[300];
    rgi_value v = -1;
    memset(longword, 'q', 299);
    longword[299] = '\0';
    m = &b.m;
    check("value-150 percent 40x",
          rgi_value_parse(m, tp, "40x", &v, err, sizeof err) == -1 ? err : "(parsed)",
          "'40x' is not a valid percent");
    v = -1;
    check("value-151 distance of no unit",
          rgi_value_parse(m, (rgi_type){RG_K_DIST, 9}, "3", &v, err, sizeof err) == 0 && v == 3000
            ? "3000" : err, "3000");
    v = -1;
    check("value-152 set ending in a comma",
          rgi_value_parse(m, ts, "C, ", &v, err, sizeof err) == 0 && v == 2 ? "2" : err, "2");
    snprintf(want, sizeof want, "'%.40s", longword);
    err[0] = '\0';
    check("value-153 a long word cut at 255 bytes",
          rgi_value_parse(m, ts, longword, &v, err, sizeof err) == -1 &&
          strncmp(err, want, strlen(want)) == 0 && strstr(err, "' is not a ground") ==
          err + 1 + 255 ? "cut" : err, "cut");
    check("value-154 lookup in no enum", rgi_enum_lookup(m, 9, "S") == -1 ? "none" : "found", "none");
    check("value-155 lookup of bad UTF-8", rgi_enum_lookup(m, e, "\xff") == -1 ? "none" : "found",
          "none");
  }
  {
    /* value-160: names of what a crafted module refers to; a table lookup
    ** below the range, with -1 keys, with a message cut to its buffer, and
    ** a table holding fewer cells than its keys span */
    char tn[64];
    rgi_dim dn = mb_dim_enum(&b, e);
    dn.ref = 9;
    m = &b.m;
    check("value-160 set of no enum", rgi_type_name(tn, sizeof tn, m, (rgi_type){RG_K_SET, 9}), "set ?");
    check("value-161 a dimension of no enum", rgi_dim_name(tn, sizeof tn, m, &dn), "?");
    rgi_dim dims[1] = {mb_dim_range(1, 3)};
    uint32_t short_t = mb_table(&b, "short", 1, dims, T_INT, (rgi_value[]){5, 6, 7});
    b.m.tables[short_t].count = 2;
    m = &b.m;
    const char *keys[1] = {"0"}, *three[1] = {"3"};
    rgi_value v = -1;
    char err[256] = "", small[20] = "";
    check("value-162 key below the range",
          rgi_table_cell(m, short_t, keys, 1, &v, err, sizeof err) == -1 ? err : "(found)",
          "key 1 of table 'short' (1..3): 0 is outside 1..3");
    check("value-163 a negative count of keys",
          rgi_table_cell(m, short_t, keys, -1, &v, err, sizeof err) == -1 ? err : "(found)",
          "table 'short' takes 1 key (1..3), got -1");
    check("value-164 the message cut to 20 bytes",
          rgi_table_cell(m, short_t, keys, 2, &v, small, sizeof small) == -1 ? small : "(found)",
          "table 'short' takes");
    check("value-165 no cell there",
          rgi_table_cell(m, short_t, three, 1, &v, err, sizeof err) == -1 ? err : "(found)",
          "table 'short' has no cell there");
  }
  rgi_module_free(&b.m);
  return check_done("test_value");
}
