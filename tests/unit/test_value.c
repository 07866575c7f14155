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

static int passed, failed;

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
  rgi_module_free(&b.m);
  printf("test_value: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
