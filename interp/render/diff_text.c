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
#include "align.h"
#include "diff.h"
#include "path.h"
#include "value.h"

#include "regula_front.h"

#include <stdio.h>
#include <string.h>

/* What the renderer carries from one change to the next. */
typedef struct tctx {
  rg_out *out;
  const char *base;         /* stripped from every path ("" none) */
  uint32_t section;         /* the section whose heading was written last */
  const char *row;          /* the last row heading written in this table */
  const char *row_b;        /* its key on side b when paired by content */
  const char *column;       /* the last odds column heading */
  int color;                /* RG_DIFF_COLOR: words marked in colour */
  const rgi_diff *d;         /* the list being written */
  int oom;                  /* memory ran out: the text is not complete */
} tctx;

void rg_diff_shared_dir(const char *a, const char *b, char *buf, size_t size) {
  rgi_path_shared_dir(a, b, buf, size);
}

void rgi_diff_path(char *out, size_t size, const char *file, const char *base) {
  char p[1024];
  size_t nbase = base ? strlen(base) : 0;
  rgi_path_norm(p, sizeof p, file);
  snprintf(out, size, "%s", nbase && strlen(p) > nbase && strncmp(p, base, nbase) == 0 ? p + nbase : p);
}

/* Writes the place of side s: "-" when it has none, "?" when not known,
** else "path:line" with the path normalized and the shared folder cut. */
static void put_place(tctx *t, const rgi_diff_side *s) {
  char p[1024];
  if (!s->file) {
    rg_putc(t->out, '-');
    return;
  }
  if (!*s->file || s->line == 0) {
    rg_putc(t->out, '?');
    return;
  }
  rgi_diff_path(p, sizeof p, s->file, t->base);
  rg_printf(t->out, "%.400s:%u", p, s->line);
}

/* Writes `INDENT A | B` and a newline: the places of change ch. */
static void put_places(tctx *t, const char *indent, const rgi_change *ch) {
  rg_puts(t->out, indent);
  put_place(t, &ch->a);
  rg_puts(t->out, " | ");
  put_place(t, &ch->b);
  rg_putc(t->out, '\n');
}

/* Writes the places of ch as put_places does, when a side of it has one
** (the places of units, enums, records, strategies and displays come from
** rgi_diff_sources). */
static void put_known_places(tctx *t, const char *indent, const rgi_change *ch) {
  if ((ch->a.file && ch->a.line) || (ch->b.file && ch->b.line)) put_places(t, indent, ch);
}

/* Returns the text of side s of ch ("" when none). */
static const char *txt(const rgi_diff_side *s) {
  return s->text ? s->text : "";
}

/* The side that has the item: b for an addition, else a. */
static const rgi_diff_side *own(const rgi_change *ch) {
  return ch->kind == RG_CHANGE_ADDED ? &ch->b : &ch->a;
}

/* The most words of a text that are marked one by one; a longer text is
** shown whole, before and after. */
enum { MAXWORDS = 2048 };

/* Splits text into its words, each with the spaces after it, into w[0..max);
** returns how many. */
static uint32_t words_of(const char *text, rgi_span *w, uint32_t max) {
  uint32_t n = 0;
  const char *p = text;
  while (*p && n < max) {
    const char *q = p;
    while (*q && *q != ' ') q++;
    while (*q == ' ') q++;
    w[n++] = (rgi_span){ p, (size_t)(q - p) };
    p = q;
  }
  return *p ? max + 1 : n;
}

/* Writes the run of words w[0..n) marked as removed (add 0) or added (add
** 1): `[-...-]` / `{+...+}`, or red / green when t->color.  The spaces
** after the last word are left out of the mark; *trail becomes their count
** when larger, for the caller to write after the marks. */
static void put_run(tctx *t, const rgi_span *w, uint32_t n, int add, size_t *trail) {
  size_t len = (size_t)(w[n - 1].s + w[n - 1].n - w[0].s), sp = 0;
  while (sp < len && w[0].s[len - 1 - sp] == ' ') sp++;
  if (t->color) rg_puts(t->out, add ? "\033[32m" : "\033[31m");
  else rg_puts(t->out, add ? "{+" : "[-");
  rg_write(t->out, w[0].s, len - sp);
  if (t->color) rg_puts(t->out, "\033[m");
  else rg_puts(t->out, add ? "+}" : "-]");
  if (sp > *trail) *trail = sp;
}

/* Writes texts a and b as one text with the words that changed marked
** (words aligned along a longest common subsequence): returns 0, or -1
** when they are too long or memory ran out (nothing was written; t->oom
** set in the second case). */
static int put_words(tctx *t, const char *a, const char *b) {
  rgi_span *wa = rg_malloc(2 * (MAXWORDS + 1) * sizeof *wa), *wb = wa ? wa + MAXWORDS + 1 : NULL;
  int32_t *match = rg_malloc((MAXWORDS + 1) * sizeof *match);
  uint32_t na = 0, nb = 0;
  if (wa && match) {
    na = words_of(a, wa, MAXWORDS);
    nb = words_of(b, wb, MAXWORDS);
  }
  if (!wa || !match || na > MAXWORDS || nb > MAXWORDS ||
      rgi_align(wa, na, wb, nb, RG_ALIGN_CAP, match) != 0) {
    if (!wa || !match || (na <= MAXWORDS && nb <= MAXWORDS)) t->oom = 1;
    rg_free(wa);
    rg_free(match);
    return -1;
  }
  uint32_t i = 0, j = 0;
  while (i < na || j < nb) {
    if (i < na && match[i] == (int32_t)j) {
      rg_write(t->out, wa[i].s, wa[i].n);
      i++, j++;
      continue;
    }
    uint32_t i0 = i, j0 = j;
    size_t trail = 0;
    while (i < na && match[i] == RG_ALIGN_NONE) i++;
    while (j < nb && (i >= na || (int32_t)j < match[i])) j++;
    if (i > i0) put_run(t, wa + i0, i - i0, 0, &trail);
    if (j > j0) put_run(t, wb + j0, j - j0, 1, &trail);
    for (size_t k = 0; k < trail; k++) rg_putc(t->out, ' ');
  }
  rg_free(wa);
  rg_free(match);
  return 0;
}

/* Returns the position of field `name` in record r of m, or -1. */
static int field_of(const rgi_module *m, const rgi_record *r, const char *name) {
  for (uint32_t k = 0; k < r->count; k++)
    if (strcmp(rgi_module_str(m, m->fields[r->first + k].name), name) == 0) return (int)k;
  return -1;
}

/* Writes a changed record value as its fields that changed only, each with
** its changed words marked: `{going: [-Rough-]{+Difficult+}, ...}` (the
** `...` when some fields are equal).  Returns 0, or -1 (nothing written)
** when the two sides are not records of one shape in their modules' heaps. */
static int put_record(tctx *t, const rgi_change *ch) {
  const rgi_module *ma = t->d->a, *mb = t->d->b;
  const rgi_diff_side *sa = &ch->a, *sb = &ch->b;
  if (sa->type.ref >= ma->nrecords || sb->type.ref >= mb->nrecords) return -1;
  const rgi_record *ra = &ma->records[sa->type.ref], *rb = &mb->records[sb->type.ref];
  if (ra->count != rb->count || sa->value < 0 || sb->value < 0 ||
      (uint64_t)sa->value + ra->count > ma->nheap || (uint64_t)sb->value + rb->count > mb->nheap)
    return -1;
  for (uint32_t k = 0; k < ra->count; k++)
    if (field_of(mb, rb, rgi_module_str(ma, ma->fields[ra->first + k].name)) < 0) return -1;
  char va[1024], vb[1024];
  int first = 1, same = 0;
  rg_putc(t->out, '{');
  for (uint32_t k = 0; k < ra->count; k++) {
    const rgi_field_info *fa = &ma->fields[ra->first + k];
    int kb = field_of(mb, rb, rgi_module_str(ma, fa->name));
    const rgi_field_info *fb = &mb->fields[rb->first + (uint32_t)kb];
    rgi_value_format(va, sizeof va, ma, ma->heap, ma->nheap, fa->type, ma->heap[sa->value + k]);
    rgi_value_format(vb, sizeof vb, mb, mb->heap, mb->nheap, fb->type, mb->heap[sb->value + (uint32_t)kb]);
    if (strcmp(va, vb) == 0) {
      same = 1;
      continue;
    }
    rg_printf(t->out, "%s%s: ", first ? "" : ", ", rgi_module_str(ma, fa->name));
    if (put_words(t, va, vb) != 0) rg_printf(t->out, "%s -> %s", va, vb);
    first = 0;
  }
  rg_puts(t->out, same ? (first ? "...}" : ", ...}") : "}");
  return 0;
}

/* Writes the value part of a change: `OLD -> NEW`; for a text one text with
** the words that changed marked; for a record its fields that changed. */
static void put_change_value(tctx *t, const rgi_change *ch) {
  unsigned k = ch->a.type.kind;
  if (k == RG_K_RECORD && ch->b.type.kind == k && put_record(t, ch) == 0) return;
  if ((k == RG_K_TEXT || k == RG_K_RECORD) && ch->b.type.kind == k && ch->a.text && ch->b.text &&
      put_words(t, ch->a.text, ch->b.text) == 0)
    return;
  rg_printf(t->out, "%s -> %s", txt(&ch->a), txt(&ch->b));
}

/* Writes `K NAME = VALUE` or `~ NAME: OLD -> NEW` (prefix before NAME). */
static void put_value_line(tctx *t, const char *indent, const rgi_change *ch, const char *prefix) {
  if (ch->kind == RG_CHANGE_CHANGED) {
    rg_printf(t->out, "%s~ %s%s: ", indent, prefix, ch->name);
    put_change_value(t, ch);
    rg_putc(t->out, '\n');
  } else
    rg_printf(t->out, "%s%c %s%s = %s\n", indent, ch->kind, prefix, ch->name, txt(own(ch)));
}

/* Writes a table cell: its row heading when the table has two keys or more
** (a cell only in b always repeats it), the cell, its places.  A row paired
** by content under another key shows both keys: `row 6 -> 5:`, `[6 -> 5]`. */
static void put_cell(tctx *t, const rgi_change *ch) {
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
  if (ch->kind == RG_CHANGE_CHANGED) {
    rg_printf(t->out, "%s~ [%s%s%s]: ", ind, ch->name, arrow, bk);
    put_change_value(t, ch);
    rg_putc(t->out, '\n');
  } else
    rg_printf(t->out, "%s%c [%s]: %s\n", ind, ch->kind, ch->name, txt(own(ch)));
  snprintf(indent, sizeof indent, "%s    ", ind);
  put_places(t, indent, ch);
}

/* Writes one line of odds: a value's chance before and after. */
static void put_odds_value(tctx *t, const rgi_change *ch) {
  const char *col = ch->row ? ch->row : "";
  double total = (double)ch->odds.total;
  if (*col && (!t->column || strcmp(col, t->column) != 0)) rg_printf(t->out, "      %s:\n", col);
  t->column = col;
  rg_printf(t->out, "      %s%s: %llu/%llu (%.1f%%) -> %llu/%llu (%.1f%%)\n", *col ? "  " : "",
            ch->name, (unsigned long long)ch->odds.before, (unsigned long long)ch->odds.total,
            100.0 * (double)ch->odds.before / total, (unsigned long long)ch->odds.after,
            (unsigned long long)ch->odds.total, 100.0 * (double)ch->odds.after / total);
}

void rgi_diff_put_source(rg_out *out, const char *indent, const char *source, const char *base,
                         int color) {
  const char *p = source;
  char path[1024], raw[1024];
  while (p && *p) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n > 4 && (strncmp(p, "--- ", 4) == 0 || strncmp(p, "+++ ", 4) == 0) && n - 4 < sizeof raw) {
      memcpy(raw, p + 4, n - 4);
      raw[n - 4] = '\0';
      if (strcmp(raw, "-") == 0) snprintf(path, sizeof path, "-");
      else rgi_diff_path(path, sizeof path, raw, base);
      rg_printf(out, "%s%.4s%s\n", indent, p, path);
    } else {
      const char *on = color && *p == '-' ? "\033[31m" : color && *p == '+' ? "\033[32m" : "";
      rg_printf(out, "%s%s%.*s%s\n", indent, on, (int)n, p, *on ? "\033[m" : "");
    }
    p += e ? n + 1 : n;
  }
}

/* Writes the source of change ch after indent (rgi_diff_put_source). */
static void put_source(tctx *t, const char *indent, const rgi_change *ch) {
  rgi_diff_put_source(t->out, indent, ch->source, t->base, t->color);
}

/* Writes the head of the changes that follow from others (RG_DW_CAUSE,
** change `index` of d): its cause, how many follow from it, its place. */
static void put_cause(tctx *t, const rgi_change *ch, uint32_t index) {
  uint32_t n = 0;
  int procs = ch->section == RG_DS_PROCEDURES;
  for (uint32_t k = index + 1; k < t->d->n; k++) n += t->d->changes[k].parent == index;
  if (ch->name)             /* a scale: only the constants' head is named (name_scale) */
    rg_printf(t->out, "~ %s: %u constant%s change%s\n", ch->name, n, n == 1 ? "" : "s", n == 1 ? "s" : "");
  else if (procs)
    rg_printf(t->out, "~ the same source on both sides, what %u procedure%s do%s follows from the "
              "changes above:\n", n, n == 1 ? "" : "s", n == 1 ? "es" : "");
  else
    rg_printf(t->out, "~ the same declaration on both sides, %u constant%s computed from the changes "
              "above:\n", n, n == 1 ? "" : "s");
  if (ch->b.file) put_places(t, "    ", ch);
}

/* Writes change `index` of d: a top-level item, or one inside its parent. */
static void put_change(tctx *t, uint32_t index) {
  const rgi_change *ch = &t->d->changes[index];
  rg_out *o = t->out;
  int k = ch->kind;
  int in_cause = ch->parent < t->d->n && t->d->changes[ch->parent].what == RG_DW_CAUSE;
  if (ch->parent == RG_DIFF_NONE && ch->section != t->section) {
    rg_printf(o, "== %s\n", rgi_diff_section_name(ch->section));
    t->section = ch->section;
  }
  if (ch->parent == RG_DIFF_NONE || in_cause) t->row = t->row_b = t->column = NULL;
  switch (ch->what) {
  case RG_DW_HEADER:
    rg_printf(o, "~ %s: \"%s\" -> \"%s\"\n", ch->name, txt(&ch->a), txt(&ch->b));
    put_known_places(t, "    ", ch);
    break;
  case RG_DW_UNIT:
    rg_printf(o, "%c unit %s \"%s\"\n", k, ch->name, txt(own(ch)));
    put_known_places(t, "    ", ch);
    break;
  case RG_DW_ENUM:
    if (k == RG_CHANGE_CHANGED) rg_printf(o, "~ enum %s\n", ch->name);
    else rg_printf(o, "%c enum %s %s\n", k, ch->name, txt(own(ch)));
    put_known_places(t, "    ", ch);
    break;
  case RG_DW_MEMBER:
    if (k == RG_CHANGE_CHANGED)
      rg_printf(o, "    ~ %s: \"%s\" -> \"%s\"\n", ch->name, txt(&ch->a), txt(&ch->b));
    else rg_printf(o, "    %c %s\n", k, ch->name);
    put_known_places(t, "        ", ch);
    break;
  case RG_DW_ORDER: rg_printf(o, "    ~ %s -> %s\n", txt(&ch->a), txt(&ch->b)); break;
  case RG_DW_RECORD:
    rg_printf(o, "%c record %s\n", k, ch->name);
    put_known_places(t, "    ", ch);
    break;
  case RG_DW_FIELD:
    if (k == RG_CHANGE_CHANGED)
      rg_printf(o, "    ~ %s: %s -> %s\n", ch->name, txt(&ch->a), txt(&ch->b));
    else rg_printf(o, "    %c %s: %s\n", k, ch->name, txt(own(ch)));
    put_known_places(t, "        ", ch);
    break;
  case RG_DW_CONST:
    put_value_line(t, in_cause ? "    " : "", ch, "");
    put_places(t, in_cause ? "        " : "    ", ch);
    break;
  case RG_DW_CAUSE: put_cause(t, ch, index); break;
  case RG_DW_STRATEGY:
    if (k == RG_CHANGE_CHANGED && strcmp(txt(&ch->a), txt(&ch->b)) != 0)
      rg_printf(o, "~ strategy %s: \"%s\" -> \"%s\"\n", ch->name, txt(&ch->a), txt(&ch->b));
    else if (k == RG_CHANGE_CHANGED) rg_printf(o, "~ strategy %s\n", ch->name);
    else if (*txt(own(ch))) rg_printf(o, "%c strategy %s \"%s\"\n", k, ch->name, txt(own(ch)));
    else rg_printf(o, "%c strategy %s\n", k, ch->name);
    put_known_places(t, "    ", ch);
    break;
  case RG_DW_DISPLAY:
    if (k == RG_CHANGE_CHANGED && strcmp(txt(&ch->a), txt(&ch->b)) != 0)
      rg_printf(o, "~ display %s: \"%s\" -> \"%s\"\n", ch->name, txt(&ch->a), txt(&ch->b));
    else rg_printf(o, "%c display %s \"%s\"\n", k, ch->name, txt(own(ch)));
    put_known_places(t, "    ", ch);
    break;
  case RG_DW_DLINE: rg_printf(o, "    %c %s\n", k, txt(own(ch))); break;
  case RG_DW_SRULE:
    if (k == RG_CHANGE_CHANGED)
      rg_printf(o, "    ~ %s: %s -> %s\n", ch->name, txt(&ch->a), txt(&ch->b));
    else rg_printf(o, "    %c %s: %s\n", k, ch->name, txt(own(ch)));
    break;
  case RG_DW_INPUT: put_value_line(t, "", ch, "input "); break;
  case RG_DW_TABLE:
    rg_printf(o, "%c table %s%s\n", k, ch->name, txt(own(ch)));
    put_known_places(t, "    ", ch);
    break;
  case RG_DW_DIMS: rg_printf(o, "    dimensions: %s -> %s\n", txt(&ch->a), txt(&ch->b)); break;
  case RG_DW_CELLTYPE: rg_printf(o, "    cell type: %s -> %s\n", txt(&ch->a), txt(&ch->b)); break;
  case RG_DW_CELL: put_cell(t, ch); break;
  case RG_DW_ODDS:
    /* the key (a helper's call when one computes it) and where each side
    ** rolls the dice (`-`: that side does not roll for the table) */
    if (ch->row) rg_printf(o, "    odds, %s = %s (", ch->name, ch->row);
    else rg_printf(o, "    odds, %s = %dd%d%+d (", ch->name, ch->odds.n, ch->odds.sides, ch->odds.plus);
    if (ch->a.file || ch->b.file) {
      rg_printf(o, "roll %dd%d in %s at ", ch->odds.n, ch->odds.sides, txt(ch->a.file ? &ch->a : &ch->b));
      put_place(t, &ch->a);
      rg_puts(o, " | ");
      put_place(t, &ch->b);
    } else {
      rg_puts(o, "given on the command line");
    }
    rg_puts(o, "):\n");
    t->column = NULL;
    break;
  case RG_DW_ODDS_VALUE: put_odds_value(t, ch); break;
  case RG_DW_PROC:
    rg_printf(o, "%s%c procedure %s", in_cause ? "    " : "", k, ch->name);
    /* parameters or result changed: the signature, its words marked */
    if (k == RG_CHANGE_CHANGED && ch->a.text && ch->b.text && put_words(t, ch->a.text, ch->b.text) != 0)
      rg_printf(o, "%s -> %s", ch->a.text, ch->b.text);
    rg_putc(o, '\n');
    put_places(t, in_cause ? "        " : "    ", ch);
    put_source(t, "    ", ch);
    break;
  case RG_DW_STEP:
    rg_printf(o, "    %c step \"%s\"%s\n", k, ch->name ? ch->name : "(before the first step)",
              ch->derived ? " (the same source: follows from the changes above)" : "");
    put_places(t, "        ", ch);
    put_source(t, "        ", ch);
    break;
  case RG_DW_RULE: {
    int deep = ch->parent < t->d->n && t->d->changes[ch->parent].what == RG_DW_STEP;
    const char *in = deep ? "            " : "        ";
    rg_printf(o, "%s%c rule \"%s\"\n", in + 4, k, ch->name);
    put_places(t, in, ch);
    put_source(t, in, ch);
    break;
  }
  default: break;
  }
}

int rgi_diff_print(rg_out *out, const rgi_diff *d, const char *base, int flags) {
  tctx t = { out, base ? base : "", RG_NDIFF_SECTIONS, NULL, NULL, NULL, flags & RG_DIFF_COLOR, d, 0 };
  if (d->n == 0) {
    rg_puts(out, "no differences\n");
    return 0;
  }
  for (uint32_t i = 0; i < d->n && !t.oom; i++) put_change(&t, i);
  return t.oom ? -1 : 0;
}
