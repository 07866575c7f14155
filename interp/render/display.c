/*
** display.c: a record shown as a card (see display.h).
*/
#include "display.h"

#include "value.h"

#include <string.h>

#define CELL_MAX 160        /* a table cell is cut there */
#define WIDTH 80            /* a card's lines wrap to fit a terminal of 80 columns */

/* Returns the columns s[0..n) takes (a character each; UTF-8 continuation
** bytes take none). */
static size_t columns(const char *s, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
  return c;
}

/* Writes s after `col` columns already on the line, its words wrapped at
** spaces so that no line is wider than WIDTH (a word longer than a line
** stays whole), each line after the first indented by `indent`; then a
** newline. */
static void put_wrapped(rg_out *o, const char *s, size_t col, size_t indent) {
  size_t at = col;
  int first = 1;
  while (*s) {
    const char *w = s, *e;
    size_t n, wc;
    while (*w == ' ') w++;
    if (!*w) break;
    for (e = w; *e && *e != ' '; e++) {}
    n = (size_t)(e - w);
    wc = columns(w, n);
    if (!first && at + 1 + wc > WIDTH && at > indent) {
      rg_putc(o, '\n');
      for (size_t k = 0; k < indent; k++) rg_putc(o, ' ');
      at = indent;
    } else if (!first) {
      rg_putc(o, ' ');
      at++;
    }
    rg_write(o, w, n);
    at += wc;
    first = 0;
    s = e;
  }
  rg_putc(o, '\n');
}

int rgi_display_find(const rgi_module *m, rgi_type t) {
  if (t.kind != RG_K_RECORD) return -1;
  for (uint32_t i = 0; i < m->ndisplays; i++)
    if (m->displays[i].record == t.ref) return (int)i;
  return -1;
}

/* Writes a field's name as a heading: underscores as spaces. */
static void put_heading(rg_out *o, const char *name, size_t width) {
  size_t n = 0;
  for (; name[n]; n++) rg_putc(o, name[n] == '_' ? ' ' : name[n]);
  for (; n < width; n++) rg_putc(o, ' ');
}

/* The list at heap[lv] (its length first): its length, 0 when it does not
** fit the heap. */
static rgi_value list_len(const rgi_value *heap, uint32_t nheap, rgi_value lv) {
  if (lv < 0 || (uint64_t)lv >= nheap || heap[lv] < 0 || (uint64_t)heap[lv] >= nheap - (uint64_t)lv)
    return 0;
  return heap[lv];
}

/* The fewest columns the last column of a table keeps beside the others
** before its cells go under their rows. */
#define LAST_MIN 24

/* Returns 1 when the last column of a table with these column widths
** starts early enough to stay beside the others. */
static int last_beside(const size_t *width, uint32_t ncols) {
  size_t start = 2;
  for (uint32_t k = 0; k + 1 < ncols; k++) start += width[k] + 2;
  return start + LAST_MIN <= WIDTH;
}

/* Writes the list of records at heap[lv] (element record er) as a table:
** the column headings, then a row an element, each column as wide as its
** widest cell, two spaces apart, indented by two; the last column's cells
** wrap within it to keep the rows within WIDTH (when it starts early
** enough to leave it room). */
static void put_table(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                      uint32_t er, const uint32_t *cols, uint32_t ncols, rgi_value lv) {
  const rgi_record *r = &m->records[er];
  rgi_value n = list_len(heap, nheap, lv);
  size_t width[64];
  char cell[CELL_MAX];
  if (ncols > 64) ncols = 64;
  for (uint32_t c = 0; c < ncols; c++)
    width[c] = strlen(rgi_module_str(m, m->fields[r->first + cols[c]].name));
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      rg_puts(o, "  ");
      for (uint32_t c = 0; c < ncols; c++) {
        put_heading(o, rgi_module_str(m, m->fields[r->first + cols[c]].name),
                    c + 1 < ncols ? width[c] + 2 : 0);
      }
      rg_putc(o, '\n');
    }
    for (rgi_value i = 0; i < n; i++) {
      rgi_value ev = heap[lv + 1 + i];
      if (ev < 0 || (uint64_t)ev + r->count > nheap) continue;
      if (pass == 1) rg_puts(o, "  ");
      for (uint32_t c = 0; c < ncols; c++) {
        const rgi_field_info *f = &m->fields[r->first + cols[c]];
        size_t len;
        rgi_value_format(cell, sizeof cell, m, heap, nheap, f->type, heap[ev + cols[c]]);
        len = strlen(cell);
        if (pass == 0) {
          if (columns(cell, len) > width[c]) width[c] = columns(cell, len);
          continue;
        }
        if (c + 1 == ncols) {
          size_t start = 2;
          for (uint32_t k = 0; k < c; k++) start += width[k] + 2;
          /* the cell wraps beside its row, or goes under it */
          if (ncols == 1 || last_beside(width, ncols)) {
            put_wrapped(o, cell, start, start);
          } else {          /* no room beside the row: under it, indented */
            rg_puts(o, "\n    ");
            put_wrapped(o, cell, 4, 4);
          }
          continue;
        }
        rg_puts(o, cell);
        if (c + 2 < ncols || last_beside(width, ncols))
          for (size_t k = columns(cell, len); k < width[c] + 2; k++) rg_putc(o, ' ');
      }
    }
  }
}

void rgi_display_print(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                      uint32_t d, rgi_value v) {
  const rgi_display *dp;
  const rgi_record *r;
  if (d >= m->ndisplays) return;
  dp = &m->displays[d];
  r = &m->records[dp->record];
  if (v < 0 || (uint64_t)v + r->count > nheap) return;
  rg_printf(o, "== %s\n", rgi_module_str(m, dp->title));
  for (uint32_t i = dp->first; i < dp->first + dp->count; i++) {
    const rgi_dline *dl = &m->dlines[i];
    if (dl->kind == RG_DL_FORM) {
      rg_buf line;
      rg_buf_init(&line);
      rgi_value_form(&line.out, m, heap, nheap, dp->record, rgi_module_str(m, dl->text), v);
      if (line.out.failed) o->failed = 1;
      put_wrapped(o, line.data ? line.data : "", 0, 2);
      rg_buf_free(&line);
      continue;
    }
    const rgi_field_info *f = &m->fields[r->first + dl->field];
    rgi_type et = m->types[f->type.ref];
    rgi_value lv = heap[v + dl->field];
    put_heading(o, rgi_module_str(m, f->name), 0);
    rg_puts(o, list_len(heap, nheap, lv) ? "\n" : ": none\n");
    if (!list_len(heap, nheap, lv)) continue;
    if (dl->kind == RG_DL_TABLE) {
      put_table(o, m, heap, nheap, et.ref, m->dcols + dl->first, dl->count, lv);
    } else {
      for (rgi_value k = 0, n = list_len(heap, nheap, lv); k < n; k++) {
        char num[32];
        rg_buf item;
        int w = snprintf(num, sizeof num, "  %lld. ", (long long)k + 1);
        rg_buf_init(&item);
        rg_puts(o, num);
        if (dl->text)
          rgi_value_form(&item.out, m, heap, nheap, et.ref, rgi_module_str(m, dl->text),
                        heap[lv + 1 + k]);
        else rgi_value_write(&item.out, m, heap, nheap, et, heap[lv + 1 + k]);
        if (item.out.failed) o->failed = 1;
        put_wrapped(o, item.data ? item.data : "", (size_t)w, (size_t)w);
        rg_buf_free(&item);
      }
    }
  }
}
