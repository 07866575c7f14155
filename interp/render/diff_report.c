/*
** diff_report.c: a change list as counts (`regula diff --stat`) and as JSON
** (`regula diff --json`, JSON lines built by jansson through json.h); see
** diff.h.
*/
#include "diff.h"
#include "json.h"

#include <stdio.h>
#include <string.h>

const char *rgi_diff_what_name(uint32_t w) {
  static const char *const names[] = {
    "header", "unit", "enum", "member", "order", "record", "field", "constant", "input",
    "table", "dimensions", "cell type", "cell", "odds", "odds value", "procedure", "step",
    "cause", "strategy", "strategy rule", "display", "display line", "rule"
  };
  _Static_assert(sizeof names / sizeof *names == RG_NDIFF_WHAT, "a name for every rgi_diff_what");
  return w < RG_NDIFF_WHAT ? names[w] : "?";
}

const char *rgi_diff_kind_name(int k) {
  return k == RG_CHANGE_ADDED ? "added" : k == RG_CHANGE_REMOVED ? "removed" : "changed";
}

/* The kinds in the order counts are written, and their index. */
static int kind_index(int k) {
  return k == RG_CHANGE_CHANGED ? 0 : k == RG_CHANGE_ADDED ? 1 : 2;
}

/* Writes "N changed, N added, N removed" (the non-zero ones) of n[3]. */
static void put_counts(rg_out *out, const uint32_t *n) {
  int first = 1;
  for (int k = 0; k < 3; k++) {
    if (!n[k]) continue;
    rg_printf(out, "%s%u %s", first ? "" : ", ", n[k], k == 0 ? "changed" : k == 1 ? "added" : "removed");
    first = 0;
  }
}

void rgi_diff_print_stat(rg_out *out, const rgi_diff *d) {
  /* top[s][k]: items of section s; in[s][w][k]: inner items by what. */
  uint32_t top[RG_NDIFF_SECTIONS][3], in[RG_NDIFF_SECTIONS][RG_NDIFF_WHAT][3], total = 0;
  memset(top, 0, sizeof top);
  memset(in, 0, sizeof in);
  for (uint32_t i = 0; i < d->n; i++) {
    const rgi_change *ch = &d->changes[i];
    if (ch->section >= RG_NDIFF_SECTIONS || ch->what >= RG_NDIFF_WHAT) continue;
    if (ch->what == RG_DW_ODDS || ch->what == RG_DW_ODDS_VALUE || ch->what == RG_DW_CAUSE) continue;
    /* an item under the head of the changes that follow from others is an
    ** item of its section all the same */
    /* a run of cells counts its cells */
    uint32_t n = ch->what == RG_DW_CELL && ch->ncells > 1 ? ch->ncells : 1;
    if (ch->parent == RG_DIFF_NONE || (ch->parent < d->n && d->changes[ch->parent].what == RG_DW_CAUSE))
      top[ch->section][kind_index(ch->kind)] += n;
    else in[ch->section][ch->what][kind_index(ch->kind)] += n;
    total += n;
  }
  for (uint32_t s = 0; s < RG_NDIFF_SECTIONS; s++) {
    if (!top[s][0] && !top[s][1] && !top[s][2]) continue;
    rg_printf(out, "%-11s ", rgi_diff_section_name(s));
    put_counts(out, top[s]);
    for (uint32_t w = 0; w < RG_NDIFF_WHAT; w++) {
      if (!in[s][w][0] && !in[s][w][1] && !in[s][w][2]) continue;
      rg_printf(out, "; %s: ", rgi_diff_what_name(w));
      put_counts(out, in[s][w]);
    }
    rg_putc(out, '\n');
  }
  if (total == 0) rg_puts(out, "no differences\n");
  else rg_printf(out, "%u change%s\n", total, total == 1 ? "" : "s");
}

/* Returns s as a new JSON string, or JSON null when s is NULL. */
static json_t *text_or_null(const char *s) {
  return s ? rgi_json_text(s) : json_null();
}

/* Returns the source text of a change (NULL: JSON null) as a new JSON
** string, its `--- A` and `+++ B` paths with `base` cut off as the places'
** files are (rgi_diff_put_source); NULL when out of memory. */
static json_t *source_json(const char *source, const char *base) {
  rg_buf t;
  json_t *j;
  if (!source) return json_null();
  rg_buf_init(&t);
  rgi_diff_put_source(&t.out, "", source, base, 0);
  j = t.out.failed ? NULL : rgi_json_text(t.data ? t.data : "");
  rg_buf_free(&t);
  return j;
}

/* Returns side s of a change, on module m, as a new JSON object {"file",
** "line", "text", "value" (typed, for constants, inputs and cells)}, or
** JSON null when the item is not on that side; NULL when out of memory. */
static json_t *json_side(const rgi_diff_side *s, const rgi_module *m, const char *base) {
  char p[1024];
  if (!s->file && !s->text) return json_null();
  if (s->file && *s->file) rgi_diff_path(p, sizeof p, s->file, base);
  json_t *o = json_pack("{s:o,s:I,s:o}", "file", s->file && *s->file ? rgi_json_text(p) : json_null(),
                        "line", (json_int_t)s->line, "text", text_or_null(s->text));
  if (o && s->text && s->type.kind != RG_K_VOID &&
      json_object_set_new(o, "value", rgi_json_value(m, m->heap, m->nheap, s->type, s->value)) != 0) {
    json_decref(o);
    o = NULL;
  }
  return o;
}

/* Returns change ch (index i of d) as a new JSON object; NULL when out of
** memory. */
static json_t *json_change(const rgi_diff *d, uint32_t i, const char *base) {
  const rgi_change *ch = &d->changes[i];
  json_t *o = json_pack("{s:I,s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:b,s:o,s:o,s:o}", "index", (json_int_t)i,
                        "kind", rgi_diff_kind_name(ch->kind), "section", rgi_diff_section_name(ch->section),
                        "what", rgi_diff_what_name(ch->what),
                        "parent", ch->parent == RG_DIFF_NONE ? json_null() : json_integer(ch->parent),
                        "name", text_or_null(ch->name), "row", text_or_null(ch->row),
                        "b_key", text_or_null(ch->b_key), "derived", ch->derived != 0,
                        "source", source_json(ch->source, base), "a", json_side(&ch->a, d->a, base),
                        "b", json_side(&ch->b, d->b, base));
  json_t *extra = NULL;
  const char *key = NULL;
  if (ch->what == RG_DW_CELL) {
    key = "cells";
    extra = json_integer(ch->ncells);
  } else if (ch->what == RG_DW_ODDS) {
    key = "dice";
    extra = json_pack("{s:i,s:i,s:i}", "n", ch->odds.n, "sides", ch->odds.sides, "plus", ch->odds.plus);
  } else if (ch->what == RG_DW_ODDS_VALUE) {
    key = "odds";
    extra = json_pack("{s:I,s:I,s:I}", "before", (json_int_t)ch->odds.before, "after",
                      (json_int_t)ch->odds.after, "total", (json_int_t)ch->odds.total);
  }
  /* json_object_set_new takes extra in every case; o goes when it fails */
  if (key && (!o || json_object_set_new(o, key, extra) != 0)) {
    if (!o) json_decref(extra);
    json_decref(o);
    o = NULL;
  }
  return o;
}

int rgi_diff_print_json(rg_out *out, const rgi_diff *d, const char *base) {
  json_t *j = json_pack("{s:i,s:I}", "format", RG_JSON_FORMAT, "changes", (json_int_t)d->n);
  for (uint32_t i = 0; j; i++) {
    rgi_json_put(out, j, 1);
    if (i == d->n) return 0;
    j = json_change(d, i, base);
  }
  return -1;   /* a JSON value could not be built: out of memory */
}
