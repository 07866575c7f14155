/*
** test_json.c: rule-language values as JSON (interp/render/json.c), on a
** hand-built module (modbuild.h), each checked against the JSON json.h
** promises, written out by hand:
**
**   json-1  texts: NULL is "", an invalid UTF-8 byte and a NUL are U+FFFD
**   json-2  every kind of value: int, bool, percent, distance (whole and
**           not; a unit the module lacks is "?"), a member (its display
**           name, else its code; one out of range is "?"), a set in
**           declaration order, a text (one out of the pool is "?"), a
**           list, a record, a kind with no JSON form ("?")
**   json-3  a list or record whose heap offset or length is out of the
**           heap is "...", as is a value nested past 16 lists
**   json-4  the printing budget (RG_PRINT_MAX_VALUES): a longer list stops
**           with "..." as its last element
**   json-5  every allocation failing in turn: NULL, or the same JSON
**   json-6  rgi_json_put: compact, a newline only when asked, a bare text
**           too (jansson refused it without JSON_ENCODE_ANY, which failed
**           the output); a value that could not be built (NULL) fails it
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "modbuild.h"
#include "value.h"
#include "check.h"

/* Returns j as compact JSON (malloc'd; "(null)" for NULL) and releases j. */
static char *dump(json_t *j) {
  char *s = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15)) : NULL;
  json_decref(j);
  return s ? s : strdup("(null)");
}

/* Checks that value v of type t of b's module is the JSON want. */
static void check_value(mb *b, rgi_type t, rgi_value v, const char *want, const char *what) {
  char *got = dump(rgi_json_value(&b->m, b->m.heap, b->m.nheap, t, v));
  CHECK(strcmp(got, want) == 0, "%s: %s, want %s", what, got, want);
  free(got);
}

int main(void) {
  /* json-1 */
  {
    char *s = dump(rgi_json_text(NULL));
    CHECK(strcmp(s, "\"\"") == 0, "json-1: NULL is %s", s);
    free(s);
    s = dump(rgi_json_textn("a\xff" "b\0c", 5));
    CHECK(strcmp(s, "\"a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\"") == 0, "json-1: bad byte and NUL: %s", s);
    free(s);
    s = dump(rgi_json_textn("a\0b", 3));
    CHECK(strcmp(s, "\"a\xef\xbf\xbd" "b\"") == 0, "json-1: NUL: %s", s);
    free(s);
    s = dump(rgi_json_text("caf\xc3\xa9"));
    CHECK(strcmp(s, "\"caf\xc3\xa9\"") == 0, "json-1: valid UTF-8 kept: %s", s);
    free(s);
  }

  mb b;
  mb_init(&b);
  uint32_t bw = mb_unit(&b, "BW");
  uint32_t e = mb_enum(&b, "ground", 3, (const char *[]){ "S", "C", "D" });
  b.m.members[b.m.enums[e].first].display = mb_str(&b, "Standard");
  uint32_t rec = mb_record(&b, "terrain", 2, (const char *[]){ "going", "cover" },
                           (rgi_type[]){ T_TEXT, T_INT });
  rgi_value open = mb_str(&b, "Open");
  uint32_t list = mb_heap(&b, 4, (rgi_value[]){ 3, 1, 2, 3 });
  uint32_t card = mb_heap(&b, 2, (rgi_value[]){ open, 1 });
  rgi_type tlist = mb_list_of(&b, T_INT);

  /* json-2 */
  check_value(&b, T_INT, 42, "42", "json-2 int");
  check_value(&b, T_BOOL, 1, "true", "json-2 bool");
  check_value(&b, (rgi_type){ RG_K_PERCENT, 0 }, 40, "{\"percent\":40}", "json-2 percent");
  check_value(&b, (rgi_type){ RG_K_DIST, bw }, 3000, "{\"distance\":3,\"unit\":\"BW\"}", "json-2 distance");
  check_value(&b, (rgi_type){ RG_K_DIST, bw }, 2500, "{\"distance\":2.5,\"unit\":\"BW\"}",
              "json-2 half a distance");
  check_value(&b, (rgi_type){ RG_K_DIST, 99 }, 1000, "{\"distance\":1,\"unit\":\"?\"}", "json-2 no unit");
  check_value(&b, (rgi_type){ RG_K_ENUM, e }, 0, "{\"code\":\"S\",\"name\":\"Standard\"}", "json-2 member");
  check_value(&b, (rgi_type){ RG_K_ENUM, e }, 2, "{\"code\":\"D\",\"name\":\"D\"}", "json-2 member, no display");
  check_value(&b, (rgi_type){ RG_K_ENUM, e }, 3, "\"?\"", "json-2 member out of range");
  check_value(&b, (rgi_type){ RG_K_ENUM, e }, -1, "\"?\"", "json-2 negative member");
  check_value(&b, (rgi_type){ RG_K_SET, e }, 5,
              "[{\"code\":\"S\",\"name\":\"Standard\"},{\"code\":\"D\",\"name\":\"D\"}]", "json-2 set");
  check_value(&b, (rgi_type){ RG_K_SET, e }, 0, "[]", "json-2 empty set");
  check_value(&b, T_TEXT, open, "\"Open\"", "json-2 text");
  check_value(&b, T_TEXT, -1, "\"?\"", "json-2 text out of the pool");
  check_value(&b, tlist, list, "[1,2,3]", "json-2 list");
  check_value(&b, (rgi_type){ RG_K_RECORD, rec }, card, "{\"going\":\"Open\",\"cover\":1}", "json-2 record");
  check_value(&b, T_VOID, 0, "\"?\"", "json-2 void");

  /* json-3 */
  check_value(&b, tlist, (rgi_value)b.m.nheap, "\"...\"", "json-3 list past the heap");
  check_value(&b, tlist, -1, "\"...\"", "json-3 list at a negative offset");
  check_value(&b, tlist, card + 1, "\"...\"", "json-3 list longer than the heap");   /* length 1: its element past the end */
  check_value(&b, (rgi_type){ RG_K_RECORD, rec }, (rgi_value)b.m.nheap - 1, "\"...\"",
              "json-3 record past the heap");
  check_value(&b, (rgi_type){ RG_K_RECORD, 7 }, card, "\"...\"", "json-3 no such record");
  check_value(&b, (rgi_type){ RG_K_RECORD, rec }, -1, "\"...\"", "json-3 record at a negative offset");
  {
    uint32_t neg = mb_heap(&b, 1, (rgi_value[]){ -1 });
    check_value(&b, tlist, neg, "\"...\"", "json-3 list of negative length");
  }
  {
    /* 17 lists around an int: the lists at depths 0..15 are arrays, the
    ** one at depth 16 is "..." */
    rgi_type t = T_INT;
    rgi_value v = 7;
    for (int k = 0; k < 17; k++) {
      t = mb_list_of(&b, t);
      v = mb_heap(&b, 2, (rgi_value[]){ 1, v });
    }
    char want[64] = "";
    for (int k = 0; k < 16; k++) strcat(want, "[");
    strcat(want, "\"...\"");
    for (int k = 0; k < 16; k++) strcat(want, "]");
    check_value(&b, t, v, want, "json-3 17 lists deep");
  }

  /* json-4: the list counts 1 and each element 1 until the budget runs
  ** out: RG_PRINT_MAX_VALUES - 2 ints, then "..." */
  {
    uint32_t n = (uint32_t)RG_PRINT_MAX_VALUES + 5;
    rgi_value *vals = malloc(((size_t)n + 1) * sizeof *vals);
    vals[0] = n;
    for (uint32_t k = 1; k <= n; k++) vals[k] = k;
    uint32_t big = mb_heap(&b, n + 1, vals);
    free(vals);
    json_t *j = rgi_json_value(&b.m, b.m.heap, b.m.nheap, tlist, big);
    size_t size = json_array_size(j);
    CHECK(size == (size_t)RG_PRINT_MAX_VALUES - 1, "json-4: %zu elements", size);
    CHECK(size && json_is_string(json_array_get(j, size - 1)) &&
          strcmp(json_string_value(json_array_get(j, size - 1)), "...") == 0 &&
          json_integer_value(json_array_get(j, size - 2)) == (json_int_t)size - 1,
          "json-4: the last elements");
    json_decref(j);
  }

  /* json-5 */
  {
    static const char want[] = "[{\"code\":\"S\",\"name\":\"Standard\"},{\"code\":\"C\",\"name\":\"C\"}]";
    static const char wantr[] = "{\"going\":\"Open\",\"cover\":1}";
    static const char wantd[] = "{\"distance\":2.5,\"unit\":\"BW\"}";
    static const char wantp[] = "{\"percent\":40}";
    static const char wantl[] = "[1,2,3]";
    static const char wantt[] = "\"a\xef\xbf\xbd\"";
    unsigned long k;
    int done = 0;
    for (k = 1; k < 1000 && done < 6; k++) {
      json_t *js, *jr, *jd, *jp, *jl, *jt;
      rg_alloc_fail_at(k);
      js = rgi_json_value(&b.m, b.m.heap, b.m.nheap, (rgi_type){ RG_K_SET, e }, 3);
      rg_alloc_fail_at(k);
      jr = rgi_json_value(&b.m, b.m.heap, b.m.nheap, (rgi_type){ RG_K_RECORD, rec }, card);
      rg_alloc_fail_at(k);
      jd = rgi_json_value(&b.m, b.m.heap, b.m.nheap, (rgi_type){ RG_K_DIST, bw }, 2500);
      rg_alloc_fail_at(k);
      jp = rgi_json_value(&b.m, b.m.heap, b.m.nheap, (rgi_type){ RG_K_PERCENT, 0 }, 40);
      rg_alloc_fail_at(k);
      jl = rgi_json_value(&b.m, b.m.heap, b.m.nheap, tlist, list);
      rg_alloc_fail_at(k);
      jt = rgi_json_textn("a\xff", 2);
      rg_alloc_fail_at(0);
      char *s = dump(js), *r = dump(jr), *d = dump(jd), *p = dump(jp), *l = dump(jl), *t = dump(jt);
      CHECK(strcmp(s, "(null)") == 0 || strcmp(s, want) == 0, "json-5: allocation %lu: set %s", k, s);
      CHECK(strcmp(r, "(null)") == 0 || strcmp(r, wantr) == 0, "json-5: allocation %lu: record %s", k, r);
      CHECK(strcmp(d, "(null)") == 0 || strcmp(d, wantd) == 0, "json-5: allocation %lu: distance %s", k, d);
      CHECK(strcmp(p, "(null)") == 0 || strcmp(p, wantp) == 0, "json-5: allocation %lu: percent %s", k, p);
      CHECK(strcmp(l, "(null)") == 0 || strcmp(l, wantl) == 0, "json-5: allocation %lu: list %s", k, l);
      CHECK(strcmp(t, "(null)") == 0 || strcmp(t, wantt) == 0, "json-5: allocation %lu: text %s", k, t);
      done = !strcmp(s, want) + !strcmp(r, wantr) + !strcmp(d, wantd) + !strcmp(p, wantp) +
             !strcmp(l, wantl) + !strcmp(t, wantt);
      free(l);
      free(t);
      free(s);
      free(r);
      free(d);
      free(p);
    }
    CHECK(done == 6 && k > 2, "json-5: the failures end (%lu)", k);
  }

  /* json-6 */
  {
    rg_buf t;
    rg_buf_init(&t);
    CHECK(rgi_json_put(&t.out, rgi_json_value(&b.m, b.m.heap, b.m.nheap, tlist, list), 0) == 0 &&
          rgi_json_put(&t.out, rgi_json_text("x"), 1) == 0 && t.data && strcmp(t.data, "[1,2,3]\"x\"\n") == 0,
          "json-6: %s", t.data ? t.data : "(null)");
    CHECK(rgi_json_put(&t.out, NULL, 1) == -1 && t.out.failed, "json-6: NULL does not fail the output");
    rg_buf_free(&t);
  }

  rgi_module_free(&b.m);
  return check_done("test_json");
}
