/*
** diff_text.c: a change list as the text of `regula diff` (see diff.h).
**
**     == tables
**     ~ table weather(score: 0..14, ground)
**         row 3:
**           ~ [Plains]: Light Rain -> Strong Winds
**               base.rules:300 | revised/base.rules:180
**
** Each top-level change is one line (`~ name: old -> new`, `- unit ...`),
** items inside it are indented by 4, and the place of an item on both sides
** follows on the next line, 4 deeper: `A | B`.
*/
#include "diff.h"

#include <stdio.h>
#include <string.h>

/* What the renderer carries from one change to the next. */
typedef struct tctx {
  rg_out *out;
  const char *base;         /* stripped from every path ("" none) */
  size_t nbase;
  uint32_t section;         /* the section whose heading was written last */
  const char *row;          /* the last row heading written in this table */
  const char *row_b;        /* its key on side b when paired by content */
  const char *column;       /* the last odds column heading */
} tctx;

/* Normalizes a path into out: drops "./" and empty parts, folds "dir/..". */
static void norm_path(char *out, size_t size, const char *in) {
  char tmp[1024];
  const char *parts[128];
  size_t lens[128];
  int n = 0, abs = in[0] == '/';
  const char *p = in;
  while (*p) {
    const char *q = strchr(p, '/');
    size_t len = q ? (size_t)(q - p) : strlen(p);
    if (len == 0 || (len == 1 && p[0] == '.')) {
    } else if (len == 2 && p[0] == '.' && p[1] == '.' && n > 0 &&
               !(lens[n - 1] == 2 && parts[n - 1][0] == '.' && parts[n - 1][1] == '.')) {
      n--;
    } else if (n < 128) {
      parts[n] = p;
      lens[n++] = len;
    }
    if (!q) break;
    p = q + 1;
  }
  size_t o = 0;
  tmp[0] = '\0';
  if (abs) tmp[o++] = '/';
  for (int i = 0; i < n && o + lens[i] + 2 < sizeof tmp; i++) {
    if (i) tmp[o++] = '/';
    memcpy(tmp + o, parts[i], lens[i]);
    o += lens[i];
  }
  tmp[o] = '\0';
  snprintf(out, size, "%s", tmp);
}

void rg_diff_shared_dir(const char *a, const char *b, char *buf, size_t size) {
  char na[1024], nb[1024];
  size_t i = 0, last = 0;
  norm_path(na, sizeof na, a);
  norm_path(nb, sizeof nb, b);
  while (na[i] && na[i] == nb[i]) {
    if (na[i] == '/') last = i + 1;
    i++;
  }
  if (last >= size) last = size ? size - 1 : 0;
  if (size) {
    memcpy(buf, na, last);
    buf[last] = '\0';
  }
}

/* Writes the place of side s: "-" when it has none, "?" when not known,
** else "path:line" with the path normalized and the shared folder cut. */
static void put_place(tctx *t, const rg_diff_side *s) {
  char p[1024];
  if (!s->file) {
    rg_putc(t->out, '-');
    return;
  }
  if (!*s->file || s->line == 0) {
    rg_putc(t->out, '?');
    return;
  }
  norm_path(p, sizeof p, s->file);
  rg_printf(t->out, "%.400s:%u",
            strlen(p) > t->nbase && strncmp(p, t->base, t->nbase) == 0 ? p + t->nbase : p, s->line);
}

/* Writes `INDENT A | B` and a newline: the places of change ch. */
static void put_places(tctx *t, const char *indent, const rg_change *ch) {
  rg_puts(t->out, indent);
  put_place(t, &ch->a);
  rg_puts(t->out, " | ");
  put_place(t, &ch->b);
  rg_putc(t->out, '\n');
}

/* Returns the text of side s of ch ("" when none). */
static const char *txt(const rg_diff_side *s) {
  return s->text ? s->text : "";
}

/* The side that has the item: b for an addition, else a. */
static const rg_diff_side *own(const rg_change *ch) {
  return ch->kind == RG_CHANGE_ADDED ? &ch->b : &ch->a;
}

/* Writes `K NAME = VALUE` or `~ NAME: OLD -> NEW` (prefix before NAME). */
static void put_value_line(tctx *t, const char *indent, const rg_change *ch, const char *prefix) {
  if (ch->kind == RG_CHANGE_CHANGED)
    rg_printf(t->out, "%s~ %s%s: %s -> %s\n", indent, prefix, ch->name, txt(&ch->a), txt(&ch->b));
  else
    rg_printf(t->out, "%s%c %s%s = %s\n", indent, ch->kind, prefix, ch->name, txt(own(ch)));
}

/* Writes a table cell: its row heading when the table has two keys or more
** (a cell only in b always repeats it), the cell, its places.  A row paired
** by content under another key shows both keys: `row 6 -> 5:`, `[6 -> 5]`. */
static void put_cell(tctx *t, const rg_change *ch) {
  const char *ind = ch->row ? "      " : "    ";
  const char *arrow = ch->b_key ? " -> " : "", *bk = ch->b_key ? ch->b_key : "";
  char indent[16];
  if (ch->row && (ch->kind == RG_CHANGE_ADDED || !t->row || strcmp(ch->row, t->row) != 0 ||
                  (ch->b_key != NULL) != (t->row_b != NULL) ||
                  (ch->b_key && strcmp(ch->b_key, t->row_b) != 0))) {
    rg_printf(t->out, "    row %s%s%s:\n", ch->row, arrow, bk);
    if (ch->kind != RG_CHANGE_ADDED) {
      t->row = ch->row;
      t->row_b = ch->b_key;
    }
  }
  if (ch->row) arrow = bk = "";
  if (ch->kind == RG_CHANGE_CHANGED)
    rg_printf(t->out, "%s~ [%s%s%s]: %s -> %s\n", ind, ch->name, arrow, bk, txt(&ch->a), txt(&ch->b));
  else
    rg_printf(t->out, "%s%c [%s]: %s\n", ind, ch->kind, ch->name, txt(own(ch)));
  snprintf(indent, sizeof indent, "%s    ", ind);
  put_places(t, indent, ch);
}

/* Writes one line of odds: a value's chance before and after. */
static void put_odds_value(tctx *t, const rg_change *ch) {
  const char *col = ch->row ? ch->row : "";
  double total = (double)ch->odds.total;
  if (*col && (!t->column || strcmp(col, t->column) != 0)) rg_printf(t->out, "      %s:\n", col);
  t->column = col;
  rg_printf(t->out, "      %s%s: %llu/%llu (%.1f%%) -> %llu/%llu (%.1f%%)\n", *col ? "  " : "",
            ch->name, (unsigned long long)ch->odds.before, (unsigned long long)ch->odds.total,
            100.0 * (double)ch->odds.before / total, (unsigned long long)ch->odds.after,
            (unsigned long long)ch->odds.total, 100.0 * (double)ch->odds.after / total);
}

/* Writes change ch: a top-level item, or one inside its parent. */
static void put_change(tctx *t, const rg_change *ch) {
  rg_out *o = t->out;
  int k = ch->kind;
  if (ch->parent == RG_DIFF_NONE && ch->section != t->section) {
    rg_printf(o, "== %s\n", rg_diff_section_name(ch->section));
    t->section = ch->section;
  }
  if (ch->parent == RG_DIFF_NONE) t->row = t->row_b = t->column = NULL;
  switch (ch->what) {
  case RG_DW_HEADER:
    rg_printf(o, "~ %s: \"%s\" -> \"%s\"\n", ch->name, txt(&ch->a), txt(&ch->b));
    break;
  case RG_DW_UNIT: rg_printf(o, "%c unit %s \"%s\"\n", k, ch->name, txt(own(ch))); break;
  case RG_DW_ENUM:
    if (k == RG_CHANGE_CHANGED) rg_printf(o, "~ enum %s\n", ch->name);
    else rg_printf(o, "%c enum %s %s\n", k, ch->name, txt(own(ch)));
    break;
  case RG_DW_MEMBER:
    if (k == RG_CHANGE_CHANGED)
      rg_printf(o, "    ~ %s: \"%s\" -> \"%s\"\n", ch->name, txt(&ch->a), txt(&ch->b));
    else rg_printf(o, "    %c %s\n", k, ch->name);
    break;
  case RG_DW_ORDER: rg_printf(o, "    ~ %s -> %s\n", txt(&ch->a), txt(&ch->b)); break;
  case RG_DW_RECORD: rg_printf(o, "%c record %s\n", k, ch->name); break;
  case RG_DW_FIELD:
    if (k == RG_CHANGE_CHANGED)
      rg_printf(o, "    ~ %s: %s -> %s\n", ch->name, txt(&ch->a), txt(&ch->b));
    else rg_printf(o, "    %c %s: %s\n", k, ch->name, txt(own(ch)));
    break;
  case RG_DW_CONST:
    put_value_line(t, "", ch, "");
    put_places(t, "    ", ch);
    break;
  case RG_DW_INPUT: put_value_line(t, "", ch, "input "); break;
  case RG_DW_TABLE:
    rg_printf(o, "%c table %s%s\n", k, ch->name, txt(own(ch)));
    if (k != RG_CHANGE_CHANGED) put_places(t, "    ", ch);
    break;
  case RG_DW_DIMS: rg_printf(o, "    dimensions: %s -> %s\n", txt(&ch->a), txt(&ch->b)); break;
  case RG_DW_CELLTYPE: rg_printf(o, "    cell type: %s -> %s\n", txt(&ch->a), txt(&ch->b)); break;
  case RG_DW_CELL: put_cell(t, ch); break;
  case RG_DW_ODDS:
    rg_printf(o, "    odds, %s = %dd%d%+d (", ch->name, ch->odds.n, ch->odds.sides, ch->odds.plus);
    if (ch->a.file) {
      rg_printf(o, "roll %dd%d at ", ch->odds.n, ch->odds.sides);
      put_place(t, &ch->a);
    } else {
      rg_puts(o, "given on the command line");
    }
    rg_puts(o, "):\n");
    t->column = NULL;
    break;
  case RG_DW_ODDS_VALUE: put_odds_value(t, ch); break;
  case RG_DW_PROC:
    rg_printf(o, "%c procedure %s\n", k, ch->name);
    put_places(t, "    ", ch);
    break;
  case RG_DW_STEP:
    rg_printf(o, "    %c step \"%s\"\n", k, ch->name ? ch->name : "(before the first step)");
    put_places(t, "        ", ch);
    break;
  default: break;
  }
}

void rg_diff_print(rg_out *out, const rg_diff *d, const char *base) {
  tctx t = { out, base ? base : "", 0, RG_NDIFF_SECTIONS, NULL, NULL, NULL };
  t.nbase = strlen(t.base);
  if (d->n == 0) {
    rg_puts(out, "no differences\n");
    return;
  }
  for (uint32_t i = 0; i < d->n; i++) put_change(&t, &d->changes[i]);
}
