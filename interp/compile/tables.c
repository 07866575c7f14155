/*
** tables.c: the cells of tables (part of the compiler; see compile_int.h).
**
** A table is flattened to an array, row-major.  Its cells come from the
** rule file (inline cells, ranges as merged cells, _ and else) or from a
** TSV file laid out like the sheet, then from the changes of rule sets that
** extend it.  Every cell is set exactly once before the changes: a cell set
** twice is an error at the second place, a cell never set an error at the
** table; each cell remembers where it was set (for diff and sheet).  A file
** changes a cell once: a second change of it in the same file is an error
** naming the first.  The cells of members that an `extend enum` added are
** left out of the base's coverage; after the changes, those still unset are
** one error per table, at the member that needs them.
*/
#include "compile_int.h"
#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
** Table cells: flattening, overlap and coverage
** ==================================================================== */

/* A change of a cell: where it is written, and the rule file that made it
** (the file of an `override ... from "F.tsv"`, for the rows of F). */
typedef struct change {
  rgi_pos at;
  uint32_t owner;
} change;

/* Filling one table: which cells are set, and by which source line. */
typedef struct filler {
  uint32_t tix;                 /* table index */
  rgi_pos *by;                   /* per cell: who set it (line 0: nobody) */
  unsigned char *merged;        /* per cell: continues the cell before it (rgi_cellsrc) */
  rgi_decl *dc;
  change *changed;              /* per cell: the last change (line 0: none); NULL
                                ** while the base's cells are filled */
  uint32_t owner;               /* while changing: the rule file making the change */
  uint64_t added[8];            /* per key: the enum members an `extend enum` added */
  bool any_added;
} filler;

/* Returns the dimension along which cells merge in table tb: the
** second-to-last key (the sheet's rows), or the only key. */
static uint32_t row_dim(const rgi_table *tb) {
  return tb->ndims >= 2 ? tb->ndims - 2 : 0;
}

/* Writes the key of index i in dimension dm ("S", "14") into buf. */
static const char *key_text(cstate *cs, const rgi_dim *dm, uint32_t i, char *buf, size_t size) {
  if (dm->is_enum)
    snprintf(buf, size, "%s",
             cs->pool + AT(cs->members, rgi_member_info, AT(cs->enums, rgi_enum, dm->ref).first + i).code);
  else snprintf(buf, size, "%lld", (long long)(dm->lo + i));
  return buf;
}

/* Writes "[k1, k2]" for flat cell index flat of table tb. */
static const char *cell_text(cstate *cs, const rgi_table *tb, uint32_t flat, char *buf, size_t size) {
  uint32_t idx[8];
  size_t n = 0;
  for (uint32_t d = tb->ndims; d-- > 0;) {
    const rgi_dim *dm = &AT(cs->dims, rgi_dim, tb->first_dim + d);
    idx[d] = flat % dm->size;
    flat /= dm->size;
  }
  buf[n++] = '[';
  for (uint32_t d = 0; d < tb->ndims && n + 2 < size; d++) {
    char k[128];
    int w = snprintf(buf + n, size - n, "%s%s", d ? ", " : "",
                     key_text(cs, &AT(cs->dims, rgi_dim, tb->first_dim + d), idx[d], k, sizeof k));
    if (w > 0) n += (size_t)w;
  }
  if (n + 2 <= size) { buf[n++] = ']'; buf[n] = '\0'; } else buf[size - 1] = '\0';
  return buf;
}

/* Sets the cells in the box lo[d]..hi[d] of every dimension to v; reports
** the first cell already set (once): while the base's cells are filled, any
** cell set; while changing (f->changed), a cell that a change of the same
** rule file set.  Returns false on an overlap. */
static bool fill_box(cstate *cs, filler *f, rgi_pos pos, const uint32_t *lo, const uint32_t *hi,
                     rgi_value v) {
  const rgi_table *tb = &AT(cs->tables, rgi_table, f->tix);
  uint32_t idx[8];
  bool ok = true;
  for (uint32_t d = 0; d < tb->ndims; d++) idx[d] = lo[d];
  for (;;) {
    uint32_t flat = 0;
    for (uint32_t d = 0; d < tb->ndims; d++)
      flat = flat * AT(cs->dims, rgi_dim, tb->first_dim + d).size + idx[d];
    if (f->changed) {
      change *was = &f->changed[flat];
      if (was->at.line && was->owner == f->owner) {
        if (ok) {
          char c[256];
          if (was->at.file == pos.file)
            rgc_err(cs, pos, "cell %s of table %s is already changed at line %u of this file",
                cell_text(cs, tb, flat, c, sizeof c), cs->pool + tb->name, was->at.line);
          else
            rgc_err(cs, pos, "cell %s of table %s is already changed at %s:%u",
                cell_text(cs, tb, flat, c, sizeof c), cs->pool + tb->name,
                cs->d->files[was->at.file]->path, was->at.line);
        }
        ok = false;
      }
      was->at = pos;
      was->owner = f->owner;
      f->by[flat] = pos;
      f->merged[flat] = idx[row_dim(tb)] > lo[row_dim(tb)];
      AT(cs->cells, rgi_value, tb->first + flat) = v;
    } else if (f->by[flat].line) {
      if (ok) {
        char c[256];
        rgc_err(cs, pos, "cell %s of table %s is already given at line %u",
            cell_text(cs, tb, flat, c, sizeof c), cs->pool + tb->name, f->by[flat].line);
      }
      ok = false;
    } else {
      f->by[flat] = pos;
      f->merged[flat] = idx[row_dim(tb)] > lo[row_dim(tb)];
      AT(cs->cells, rgi_value, tb->first + flat) = v;
    }
    {
      uint32_t d = tb->ndims;
      while (d-- > 0) {
        if (idx[d] < hi[d]) { idx[d]++; break; }
        idx[d] = lo[d];
      }
      if (d == UINT32_MAX) break;
    }
  }
  return ok;
}

/* Resolves one key pattern of dimension dm to the index range lo..hi. */
static bool key_range(cstate *cs, const rgi_dim *dm, const rgi_keypat *k, uint32_t *lo, uint32_t *hi) {
  char list[512];
  switch (k->kind) {
  case RG_KP_ANY:
    *lo = 0;
    *hi = dm->size - 1;
    return true;
  case RG_KP_NAME: case RG_KP_STR:
    if (k->enum_name && dm->is_enum &&
        strcmp(k->enum_name, cs->pool + AT(cs->enums, rgi_enum, dm->ref).name) != 0) {
      rgc_err(cs, k->pos, "this key must be a member of %s, not of %s",
          cs->pool + AT(cs->enums, rgi_enum, dm->ref).name, k->enum_name);
      return false;
    }
    if (!dm->is_enum) {
      rgc_err(cs, k->pos, "this key must be a number in %lld..%lld", (long long)dm->lo,
          (long long)(dm->lo + dm->size - 1));
      return false;
    } else {
      int m = k->kind == RG_KP_NAME ? rgc_member_by_code(cs, dm->ref, k->name)
                                    : rgc_member_by_text(cs, dm->ref, k->name);
      if (m < 0) {
        rgc_err(cs, k->pos, "'%s' is not a member of %s (members: %s)%s", k->name,
            cs->pool + AT(cs->enums, rgi_enum, dm->ref).name, rgc_member_list(cs, dm->ref, list, sizeof list),
            rgc_hint_member(cs, dm->ref, k->name, k->kind == RG_KP_STR));
        return false;
      }
      *lo = *hi = (uint32_t)m;
      return true;
    }
  case RG_KP_INT: case RG_KP_RANGE: {
    int64_t top = dm->lo + (int64_t)dm->size - 1;
    if (dm->is_enum) {
      rgc_err(cs, k->pos, "this key must be a member of %s, not a number",
          cs->pool + AT(cs->enums, rgi_enum, dm->ref).name);
      return false;
    }
    if (k->lo > k->hi) {
      rgc_err(cs, k->pos, "range %lld..%lld is empty", (long long)k->lo, (long long)k->hi);
      return false;
    }
    if (k->lo < dm->lo || k->hi > top) {
      if (k->kind == RG_KP_INT)
        rgc_err(cs, k->pos, "key %lld is outside %lld..%lld", (long long)k->lo, (long long)dm->lo, (long long)top);
      else
        rgc_err(cs, k->pos, "range %lld..%lld is outside %lld..%lld", (long long)k->lo,
            (long long)k->hi, (long long)dm->lo, (long long)top);
      return false;
    }
    *lo = (uint32_t)(k->lo - dm->lo);
    *hi = (uint32_t)(k->hi - dm->lo);
    return true;
  }
  }
  return false;
}

/* Returns the first key (dimension) of flat cell i of table tb whose
** member an `extend enum` added, storing each key's index in idx; or -1. */
static int added_key(cstate *cs, const filler *f, const rgi_table *tb, uint32_t i, uint32_t *idx) {
  int first = -1;
  for (uint32_t d = tb->ndims; d-- > 0;) {
    const rgi_dim *dm = &AT(cs->dims, rgi_dim, tb->first_dim + d);
    idx[d] = i % dm->size;
    i /= dm->size;
    if (idx[d] < 64 && (f->added[d] >> idx[d] & 1)) first = (int)d;
  }
  return first;
}

/* Reports the cells nobody set (but those of added members: see
** check_added). */
static void check_coverage(cstate *cs, filler *f, rgi_pos pos) {
  const rgi_table *tb = &AT(cs->tables, rgi_table, f->tix);
  uint32_t missing = 0, idx[8];
  char list[512], c[256];
  size_t n = 0;
  list[0] = '\0';
  for (uint32_t i = 0; i < tb->count; i++) {
    if (f->by[i].line) continue;
    if (f->any_added && added_key(cs, f, tb, i, idx) >= 0) continue;
    if (missing < 6 && n + 1 < sizeof list) {
      int w = snprintf(list + n, sizeof list - n, "%s%s", missing ? ", " : "",
                       cell_text(cs, tb, i, c, sizeof c));
      if (w > 0) n += (size_t)w;
    }
    missing++;
  }
  if (missing)
    rgc_err(cs, pos, "table %s leaves %u cell%s uncovered: %s%s", cs->pool + tb->name, missing,
        missing == 1 ? "" : "s", list, missing > 6 ? ", ..." : "");
}

/* The inline cells of table dc. */
static void inline_cells(cstate *cs, filler *f) {
  const rgi_table *tb = &AT(cs->tables, rgi_table, f->tix);
  rgi_cell *other = NULL;
  rgi_value otherv = 0;
  bool bad = false;
  for (rgi_cell *c = f->dc->cells; c; c = c->next) {
    uint32_t lo[8], hi[8], nk = 0, d = 0;
    rgi_value v;
    rgi_type t;
    bool ok = true;
    tb = &AT(cs->tables, rgi_table, f->tix);
    if (!c->keys) {
      if (other) rgc_err(cs, c->pos, "table %s has two else cells (the first at line %u)",
                     f->dc->name, other->pos.line);
      else {
        t = rgc_fold(cs, c->value, tb->value, &otherv);
        if (!rgc_is_err(t) && rgc_check_type(cs, c->value->pos, t, tb->value, "this cell")) other = c;
        else bad = true;
      }
      continue;
    }
    for (rgi_keypat *k = c->keys; k; k = k->next) nk++;
    if (nk != tb->ndims) {
      rgc_err(cs, c->pos, "this cell has %u key%s; table %s has %u", nk, nk == 1 ? "" : "s",
          f->dc->name, tb->ndims);
      bad = true;
      continue;
    }
    for (rgi_keypat *k = c->keys; k; k = k->next, d++)
      if (!key_range(cs, &AT(cs->dims, rgi_dim, tb->first_dim + d), k, &lo[d], &hi[d])) ok = false;
    t = rgc_fold(cs, c->value, tb->value, &v);
    if (rgc_is_err(t) || !rgc_check_type(cs, c->value->pos, t, tb->value, "this cell")) ok = false;
    if (!ok) { bad = true; continue; }
    if (!fill_box(cs, f, c->pos, lo, hi, v)) bad = true;
    rgc_collect_notes(cs, c->notes, rgc_describe(cs, "table %s cell at line %u", f->dc->name, c->pos.line));
  }
  tb = &AT(cs->tables, rgi_table, f->tix);
  if (other) {
    for (uint32_t i = 0; i < tb->count; i++)
      if (!f->by[i].line) {
        f->by[i] = other->pos;
        AT(cs->cells, rgi_value, tb->first + i) = otherv;
      }
    rgc_collect_notes(cs, other->notes, rgc_describe(cs, "table %s else cell", f->dc->name));
  }
  if (!bad) check_coverage(cs, f, f->dc->pos);
}

/* ======================================================================
** TSV tables
** ==================================================================== */

/* A cell of a TSV line: its text (trimmed, NUL-terminated copy) and where
** it starts. */
typedef struct tsvcell {
  char *text;
  rgi_pos pos;
} tsvcell;

#define TSV_MAX_COLS 256

/* Splits line[0..len) of file at tabs into cells; returns the count, or
** UINT32_MAX after reporting a line of more than TSV_MAX_COLS cells. */
static uint32_t tsv_split(cstate *cs, uint32_t file, uint32_t lineno, const char *line, size_t len,
                          tsvcell *cells) {
  uint32_t n = 0;
  size_t i = 0;
  for (;;) {
    size_t start = i, end;
    while (i < len && line[i] != '\t') i++;
    end = i;
    if (n == TSV_MAX_COLS) {
      rgi_pos p = { file, lineno, (uint32_t)start + 1 };
      rgc_err(cs, p, "too many columns (limit %d)", TSV_MAX_COLS);
      return UINT32_MAX;
    }
    while (start < end && line[start] == ' ') start++;
    while (end > start && line[end - 1] == ' ') end--;
    cells[n].text = rgc_strndup(cs, line + start, end - start);
    cells[n].pos.file = file;
    cells[n].pos.line = lineno;
    cells[n].pos.col = (uint32_t)start + 1;
    n++;
    if (i >= len) break;
    i++;
  }
  return n;
}


/* Parses the text of a TSV cell as a value of type t. */
static bool tsv_value(cstate *cs, const tsvcell *c, rgi_type t, rgi_value *v) {
  const char *s = c->text;
  char list[512], x[RGI_TYPE_NAME_SIZE];
  int64_t m;
  size_t k;
  switch (t.kind) {
  case RG_K_TEXT:
    *v = rgc_intern(cs, s);
    return true;
  case RG_K_ENUM: {
    int i = rgc_member_by_text(cs, t.ref, s);
    if (i >= 0) { *v = i; return true; }
    rgc_err(cs, c->pos, "'%s' is not a member of %s (members: %s)%s", s,
        cs->pool + AT(cs->enums, rgi_enum, t.ref).name, rgc_member_list(cs, t.ref, list, sizeof list),
        rgc_hint_member(cs, t.ref, s, true));
    return false;
  }
  case RG_K_SET: {
    uint64_t mask = 0;
    int whole;
    if (!*s || strcmp(s, "-") == 0) { *v = 0; return true; }
    whole = rgc_member_by_text(cs, t.ref, s);
    if (whole >= 0) { *v = (rgi_value)((uint64_t)1 << whole); return true; }
    for (const char *p = s; *p;) {
      char word[256];
      size_t n = 0;
      int i;
      while (*p == ' ' || *p == ',') p++;
      if (!*p) break;
      while (*p && *p != ' ' && *p != ',' && n + 1 < sizeof word) word[n++] = *p++;
      word[n] = '\0';
      i = rgc_member_by_text(cs, t.ref, word);
      if (i < 0) {
        rgc_err(cs, c->pos, "'%s' is not a member of %s (members: %s)%s", word,
            cs->pool + AT(cs->enums, rgi_enum, t.ref).name, rgc_member_list(cs, t.ref, list, sizeof list),
            rgc_hint_member(cs, t.ref, word, true));
        return false;
      }
      mask |= (uint64_t)1 << i;
    }
    *v = (rgi_value)mask;
    return true;
  }
  case RG_K_BOOL:
    if (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0) { *v = 1; return true; }
    if (strcmp(s, "false") == 0 || strcmp(s, "no") == 0) { *v = 0; return true; }
    break;
  case RG_K_INT: case RG_K_PERCENT:
    k = rgi_parse_int(s, &m);
    if (k && (s[k] == '\0' || (t.kind == RG_K_PERCENT && s[k] == '%' && !s[k + 1]))) {
      *v = m;
      return true;
    }
    break;
  case RG_K_DIST: {
    const char *unit = cs->pool + AT(cs->units, rgi_unit, t.ref).name;
    size_t ul = strlen(unit);
    k = rgi_parse_milli(s, &m);
    if (!k) break;
    if (strncmp(s + k, unit, ul) == 0) k += ul;
    else if (s[k] == '"' && strcmp(unit, "in") == 0) k++;
    if (s[k] == '*') {              /* starred: scaled as in the rule file */
      if (s[k + 1]) break;
      *v = rgc_scaled(cs, c->pos, m);
      return true;
    }
    if (s[k]) break;
    *v = m;
    return true;
  }
  default:
    rgc_err(cs, c->pos, "a TSV cell cannot hold a %s", rgc_tname(cs, t, x, sizeof x));
    return false;
  }
  rgc_err(cs, c->pos, "'%s' is not a valid %s", s, rgc_tname(cs, t, x, sizeof x));
  return false;
}

/* Parses a TSV key cell of dimension dm into the index range lo..hi. */
static bool tsv_key(cstate *cs, const tsvcell *c, const rgi_dim *dm, uint32_t *lo, uint32_t *hi) {
  rgi_keypat k;
  memset(&k, 0, sizeof k);
  k.pos = c->pos;
  if (dm->is_enum) {
    k.kind = RG_KP_STR;
    k.name = c->text;
  } else {
    char *end;
    long long a, b;
    a = strtoll(c->text, &end, 10);
    if (end == c->text) goto bad;
    b = a;
    if (end[0] == '.' && end[1] == '.') {
      char *e2;
      b = strtoll(end + 2, &e2, 10);
      if (e2 == end + 2) goto bad;
      end = e2;
    }
    if (*end) goto bad;
    k.kind = a == b ? RG_KP_INT : RG_KP_RANGE;
    k.lo = a;
    k.hi = b;
  }
  return key_range(cs, dm, &k, lo, hi);
bad:
  rgc_err(cs, c->pos, "'%s' is not a key: write a number or a range lo..hi", c->text);
  return false;
}

/* The cells of table f->dc read from TSV file `from` (named at from_pos):
** its own file, or the file of a change (f->changed set). */
static void tsv_cells(cstate *cs, filler *f, const char *from, rgi_pos from_pos) {
  const rgi_table *tb = &AT(cs->tables, rgi_table, f->tix);
  rgi_decl *dc = f->dc;
  uint32_t file, ncols = 0;
  tsvcell head[TSV_MAX_COLS], row[TSV_MAX_COLS];
  int colfield[TSV_MAX_COLS];          /* record tables: field of each column, -1 assumed */
  rgi_value prev[TSV_MAX_COLS];
  bool hasprev[TSV_MAX_COLS];
  bool badprev[TSV_MAX_COLS];          /* the cell above was reported: a `^` under it says nothing more */
  bool bad = false, header = false;
  const rgi_record *rec = NULL;
  uint32_t nfields = 0;

  /* The loader looks for the file, by default beside the rule file that
  ** names it and in the folders above. */
  if (rgi_diag_fetch(cs->d, cs->loader, cs->d->files[from_pos.file]->path, from,
                    RG_LOAD_TABLE, &from_pos, &file))
    return;
  if (tb->ndims > 2) {
    rgc_err(cs, dc->pos, "a TSV table has one or two keys, not %u", tb->ndims);
    return;
  }
  if (tb->value.kind == RG_K_RECORD) {
    if (tb->ndims != 1) {
      rgc_err(cs, dc->pos, "a TSV table of records has one key");
      return;
    }
    rec = &AT(cs->records, rgi_record, tb->value.ref);
    nfields = rec->count;
  }
  memset(hasprev, 0, sizeof hasprev);
  memset(badprev, 0, sizeof badprev);
  for (uint32_t ln = 1; ln <= cs->d->files[file]->nlines; ln++) {
    size_t len;
    const char *line = rgi_diag_line(cs->d, file, ln, &len);
    uint32_t n;
    if (!line) break;
    {
      size_t i = 0;
      while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
      if (i == len) continue;
      if (line[i] == '#') {
        const char *tag = "# assumed:";
        if (len - i > strlen(tag) && strncmp(line + i, tag, strlen(tag)) == 0) {
          size_t t = i + strlen(tag);        /* the text, from its first character */
          while (t < len && (line[t] == ' ' || line[t] == '\t')) t++;
          rgi_note note = { { file, ln, (uint32_t)i + 1 }, true, rgc_strndup(cs, line + t, len - t), NULL };
          if (note.text) rgc_collect_notes(cs, &note, rgc_describe(cs, "table %s", dc->name));
        }
        continue;
      }
    }
    if (!header) {
      header = true;
      ncols = tsv_split(cs, file, ln, line, len, head);
      if (ncols == UINT32_MAX) return;
      if (rec) {
        bool *seen = rgc_alloc(cs, nfields + 1);
        for (uint32_t c = 1; c < ncols; c++) {
          uint32_t k;
          colfield[c] = -2;
          if (strcmp(head[c].text, "assumed") == 0) { colfield[c] = -1; continue; }
          for (k = 0; k < nfields; k++)
            if (strcmp(cs->pool + AT(cs->fields, rgi_field_info, rec->first + k).name, head[c].text) == 0)
              break;
          if (k == nfields) {
            rgc_err(cs, head[c].pos, "record %s has no field '%s'%s", cs->pool + rec->name, head[c].text,
                rgc_hint_field(cs, tb->value.ref, head[c].text));
            bad = true;
          } else if (seen[k]) {
            rgc_err(cs, head[c].pos, "field '%s' is given twice", head[c].text);
            bad = true;
          } else {
            seen[k] = true;
            colfield[c] = (int)k;
          }
        }
        for (uint32_t k = 0; k < nfields && !bad; k++)
          if (!seen[k]) {
            rgc_err(cs, head[0].pos, "the header lacks field '%s' of %s",
                cs->pool + AT(cs->fields, rgi_field_info, rec->first + k).name, cs->pool + rec->name);
            bad = true;
          }
        if (bad) return;
      } else if (tb->ndims == 1) {
        if (ncols != 2) {
          rgc_err(cs, head[0].pos, "this table has one key and one value: the header needs 2 columns, not %u", ncols);
          return;
        }
      } else {
        const rgi_dim *d2 = &AT(cs->dims, rgi_dim, tb->first_dim + 1);
        for (uint32_t c = 1; c < ncols; c++) {
          uint32_t lo, hi;
          if (!tsv_key(cs, &head[c], d2, &lo, &hi)) { bad = true; continue; }
          if (lo != hi) { rgc_err(cs, head[c].pos, "a column is one key, not a range"); bad = true; continue; }
          colfield[c] = (int)lo;
        }
        if (bad) return;
      }
      continue;
    }
    n = tsv_split(cs, file, ln, line, len, row);
    if (n == UINT32_MAX) { bad = true; continue; }
    if (n != ncols) {
      rgi_pos p = { file, ln, 1 };
      rgc_err(cs, p, "this row has %u cell%s; the header has %u", n, n == 1 ? "" : "s", ncols);
      bad = true;
      continue;
    }
    {
      uint32_t lo[2], hi[2];
      const rgi_dim *d1 = &AT(cs->dims, rgi_dim, tb->first_dim);
      if (!tsv_key(cs, &row[0], d1, &lo[0], &hi[0])) { bad = true; continue; }
      if (rec) {
        rgi_value *vals = rgc_alloc(cs, nfields * sizeof *vals);
        bool ok = true;
        for (uint32_t c = 1; c < n; c++) {
          if (colfield[c] == -1) {
            if (row[c].text[0]) {
              rgi_note note = { row[c].pos, true, row[c].text, NULL };
              rgc_collect_notes(cs, &note, rgc_describe(cs, "table %s row %s", dc->name, row[0].text));
            }
            continue;
          }
          if (!tsv_value(cs, &row[c], AT(cs->fields, rgi_field_info, rec->first + colfield[c]).type,
                         &vals[colfield[c]]))
            ok = false;
        }
        if (!ok) { bad = true; continue; }
        if (!fill_box(cs, f, row[0].pos, lo, hi, rgc_heap_record(cs, vals, nfields))) bad = true;
      } else if (tb->ndims == 1) {
        rgi_value v;
        if (!tsv_value(cs, &row[1], tb->value, &v)) { bad = true; continue; }
        if (!fill_box(cs, f, row[1].pos, lo, hi, v)) bad = true;
      } else {
        for (uint32_t c = 1; c < n; c++) {
          rgi_value v;
          if (strcmp(row[c].text, "^") == 0) {
            if (!hasprev[c]) {
              if (!badprev[c]) rgc_err(cs, row[c].pos, "'^' repeats the cell above, but there is none");
              bad = true;
              continue;
            }
            v = prev[c];
          } else if (!tsv_value(cs, &row[c], tb->value, &v)) {
            bad = true;
            hasprev[c] = false;
            badprev[c] = true;
            continue;
          }
          prev[c] = v;
          hasprev[c] = true;
          lo[1] = hi[1] = (uint32_t)colfield[c];
          if (!fill_box(cs, f, row[c].pos, lo, hi, v)) bad = true;
          else if (strcmp(row[c].text, "^") == 0) {
            /* a `^` continues the cell above: merged, each row of a range too */
            for (uint32_t r = lo[0]; r <= hi[0]; r++)
              f->merged[r * AT(cs->dims, rgi_dim, tb->first_dim + 1).size + lo[1]] = 1;
          }
        }
      }
    }
  }
  if (!header) {
    rgi_pos p = { file, 1, 1 };
    rgc_err(cs, p, "this TSV file has no header line");
    return;
  }
  if (!bad && !f->changed) check_coverage(cs, f, dc->pos);
}

/* The notes on cells of a TSV table, written in the rule file (`from "F" {
** 1..4, S: assumed "..." }`): each note is listed as on `table NAME cells
** [KEYS]` and remembers its box of cells, so that `regula sheet` marks
** exactly those cells. */
static void tsv_cell_notes(cstate *cs, filler *f) {
  for (rgi_cell *c = f->dc->cell_notes; c; c = c->next) {
    const rgi_table *tb = &AT(cs->tables, rgi_table, f->tix);
    uint32_t lo[8], hi[8], nk = 0, d = 0;
    rgi_assumption **first = cs->assumed_tail;
    char keys[256];
    size_t n = 0;
    bool ok = true;
    for (rgi_keypat *k = c->keys; k; k = k->next) nk++;
    if (nk != tb->ndims) {
      rgc_err(cs, c->pos, "this cell has %u key%s; table %s has %u", nk, nk == 1 ? "" : "s",
          f->dc->name, tb->ndims);
      continue;
    }
    keys[0] = '\0';
    for (rgi_keypat *k = c->keys; k; k = k->next, d++) {
      const char *sep = d ? ", " : "";
      if (!key_range(cs, &AT(cs->dims, rgi_dim, tb->first_dim + d), k, &lo[d], &hi[d])) ok = false;
      if (n >= sizeof keys) continue;
      if (k->kind == RG_KP_ANY) n += (size_t)snprintf(keys + n, sizeof keys - n, "%s_", sep);
      else if (k->kind == RG_KP_INT) n += (size_t)snprintf(keys + n, sizeof keys - n, "%s%lld", sep, (long long)k->lo);
      else if (k->kind == RG_KP_RANGE)
        n += (size_t)snprintf(keys + n, sizeof keys - n, "%s%lld..%lld", sep, (long long)k->lo, (long long)k->hi);
      else n += (size_t)snprintf(keys + n, sizeof keys - n, "%s%s", sep, k->name);
    }
    if (!ok) continue;
    rgc_collect_notes(cs, c->notes, rgc_describe(cs, "table %s cells [%s]", f->dc->name, keys));
    for (rgi_assumption *a = *first; a; a = a->next) {
      a->table = f->tix + 1;
      memcpy(a->lo, lo, sizeof lo);
      memcpy(a->hi, hi, sizeof hi);
    }
  }
}

/* Marks in f->added the members of each enum key of table f->tix that an
** `extend enum` added (rgi_member.added). */
static void mark_added(cstate *cs, filler *f) {
  const rgi_table *tb = &AT(cs->tables, rgi_table, f->tix);
  for (uint32_t d = 0; d < tb->ndims && d < 8; d++) {
    const rgi_dim *dm = &AT(cs->dims, rgi_dim, tb->first_dim + d);
    const sym *es;
    f->added[d] = 0;
    if (!dm->is_enum) continue;
    es = rgc_lookup(cs, cs->pool + AT(cs->enums, rgi_enum, dm->ref).name);
    if (!es || es->kind != S_ENUM || !es->decl) continue;
    for (const rgi_member *m = es->decl->members; m; m = m->next) {
      int k;
      if (!m->added || (k = rgc_member_by_code(cs, dm->ref, m->code)) < 0 || k >= 64) continue;
      f->added[d] |= (uint64_t)1 << k;
      f->any_added = true;
    }
  }
}

/* Returns the member of enum key d of table tb at index k as declared (for
** its position), or NULL. */
static const rgi_member *key_member(cstate *cs, const rgi_table *tb, uint32_t d, uint32_t k) {
  const rgi_dim *dm = &AT(cs->dims, rgi_dim, tb->first_dim + d);
  const char *code = cs->pool + AT(cs->members, rgi_member_info, AT(cs->enums, rgi_enum, dm->ref).first + k).code;
  const sym *es = rgc_lookup(cs, cs->pool + AT(cs->enums, rgi_enum, dm->ref).name);
  if (!es || !es->decl) return NULL;
  for (const rgi_member *m = es->decl->members; m; m = m->next)
    if (strcmp(m->code, code) == 0) return m;
  return NULL;
}

/* A group of missing cells that share their added members: the key of each
** dimension (-1 where it varies: a key that is no added member), how many,
** and the least and greatest index of each varying key. */
typedef struct gap {
  int64_t key[8];
  uint32_t count, lo[8], hi[8];
} gap;

#define MAX_GAPS 16

/* Returns whether gap a comes before gap b (n keys): by their keys, first
** to last, a varying key first. */
static bool gap_before(const gap *a, const gap *b, uint32_t n) {
  for (uint32_t d = 0; d < n; d++)
    if (a->key[d] != b->key[d]) return a->key[d] < b->key[d];
  return false;
}

/* Writes the keys of gap g of table tb as a pattern into b: `_` for a
** varying key that spans its whole dimension, lo..hi for part of a range;
** returns false when the cells are not one box (then listed one by one). */
static bool gap_pattern(cstate *cs, const rgi_table *tb, const gap *g, rg_out *o) {
  uint64_t box = 1;
  char k[128];
  for (uint32_t d = 0; d < tb->ndims; d++)
    if (g->key[d] < 0) box *= (uint64_t)(g->hi[d] - g->lo[d] + 1);
  if (box != g->count) return false;
  for (uint32_t d = 0; d < tb->ndims; d++) {
    const rgi_dim *dm = &AT(cs->dims, rgi_dim, tb->first_dim + d);
    if (g->key[d] >= 0) continue;
    if (!(g->lo[d] == 0 && g->hi[d] == dm->size - 1) && dm->is_enum && g->lo[d] != g->hi[d])
      return false;             /* part of an enum: no pattern for it */
  }
  rg_printf(o, "%s[", cs->pool + tb->name);
  for (uint32_t d = 0; d < tb->ndims; d++) {
    const rgi_dim *dm = &AT(cs->dims, rgi_dim, tb->first_dim + d);
    rg_puts(o, d ? ", " : "");
    if (g->key[d] >= 0) rg_puts(o, key_text(cs, dm, (uint32_t)g->key[d], k, sizeof k));
    else if (g->lo[d] == 0 && g->hi[d] == dm->size - 1) rg_putc(o, '_');
    else if (g->lo[d] == g->hi[d]) rg_puts(o, key_text(cs, dm, g->lo[d], k, sizeof k));
    else rg_printf(o, "%lld..%lld", (long long)(dm->lo + g->lo[d]), (long long)(dm->lo + g->hi[d]));
  }
  rg_putc(o, ']');
  return true;
}

/* After the changes: reports, in one error at the first added member that
** needs them, the cells of members that an `extend enum` added and that no
** change set, as patterns (`terrain[Oasis]`, `weather[_, Oasis]`). */
static void check_added(cstate *cs, filler *f) {
  const rgi_table *tb = &AT(cs->tables, rgi_table, f->tix);
  gap gaps[MAX_GAPS];
  uint32_t ngaps = 0, idx[8], missing = 0, listed = 0;
  const rgi_member *first = NULL;
  rg_buf b, members;
  if (!f->any_added) return;
  for (uint32_t i = 0; i < tb->count; i++) {
    uint32_t g;
    int d0;
    if (f->by[i].line || (d0 = added_key(cs, f, tb, i, idx)) < 0) continue;
    missing++;
    if (!first) first = key_member(cs, tb, (uint32_t)d0, idx[d0]);   /* if not grouped */
    for (g = 0; g < ngaps; g++) {
      uint32_t d;
      for (d = 0; d < tb->ndims; d++)
        if (gaps[g].key[d] >= 0 ? gaps[g].key[d] != idx[d]
                                : idx[d] < 64 && (f->added[d] >> idx[d] & 1)) break;
      if (d == tb->ndims) break;
    }
    if (g == ngaps) {
      if (ngaps == MAX_GAPS) continue;
      ngaps++;
      gaps[g].count = 0;
      for (uint32_t d = 0; d < tb->ndims; d++) {
        bool is_added = idx[d] < 64 && (f->added[d] >> idx[d] & 1);
        gaps[g].key[d] = is_added ? (int64_t)idx[d] : -1;
        gaps[g].lo[d] = gaps[g].hi[d] = idx[d];
      }
    }
    gaps[g].count++;
    for (uint32_t d = 0; d < tb->ndims; d++) {
      if (idx[d] < gaps[g].lo[d]) gaps[g].lo[d] = idx[d];
      if (idx[d] > gaps[g].hi[d]) gaps[g].hi[d] = idx[d];
    }
  }
  if (!missing) return;
  /* In the order of the keys and of the members (insertion sort: a few). */
  for (uint32_t g = 1; g < ngaps; g++)
    for (uint32_t h = g; h > 0 && gap_before(&gaps[h], &gaps[h - 1], tb->ndims); h--) {
      gap t = gaps[h];
      gaps[h] = gaps[h - 1];
      gaps[h - 1] = t;
    }
  /* (missing > 0: the first missing cell made gaps[0]) */
  for (uint32_t d = 0; d < tb->ndims; d++)
    if (gaps[0].key[d] >= 0) {
      first = key_member(cs, tb, d, (uint32_t)gaps[0].key[d]);
      break;
    }
  rg_buf_init(&b);
  rg_buf_init(&members);
  /* The added members the missing cells have, in the order of the keys. */
  for (uint32_t d = 0; d < tb->ndims; d++) {
    const rgi_dim *dm = &AT(cs->dims, rgi_dim, tb->first_dim + d);
    for (uint32_t k = 0; k < 64 && k < dm->size; k++) {
      bool needed = false;
      char kt[128];
      if (!(f->added[d] >> k & 1)) continue;
      for (uint32_t g = 0; g < ngaps && !needed; g++) needed = gaps[g].key[d] == (int64_t)k;
      if (needed)
        rg_printf(&members.out, "%s%s", members.len ? ", " : "", key_text(cs, dm, k, kt, sizeof kt));
    }
  }
  for (uint32_t g = 0; g < ngaps; g++) {
    rg_buf one;
    rg_buf_init(&one);
    if (gap_pattern(cs, tb, &gaps[g], &one.out)) {
      rg_printf(&b.out, "%soverride %s = ...", listed ? ", " : "", one.data ? one.data : "");
      listed++;
    } else {
      /* not one box: its cells one by one (a few) */
      uint32_t shown = 0;
      for (uint32_t i = 0; i < tb->count && shown < 6; i++) {
        uint32_t d;
        char c[256];
        if (f->by[i].line || added_key(cs, f, tb, i, idx) < 0) continue;
        for (d = 0; d < tb->ndims; d++)
          if (gaps[g].key[d] >= 0 ? gaps[g].key[d] != idx[d]
                                  : idx[d] < 64 && (f->added[d] >> idx[d] & 1)) break;
        if (d < tb->ndims) continue;
        rg_printf(&b.out, "%soverride %s%s = ...", listed ? ", " : "", cs->pool + tb->name,
                  cell_text(cs, tb, i, c, sizeof c));
        listed++;
        shown++;
      }
      if (shown < gaps[g].count) rg_puts(&b.out, ", ...");
    }
    rg_buf_free(&one);
  }
  if (ngaps == MAX_GAPS) rg_puts(&b.out, ", ...");
  if (b.out.failed || members.out.failed) {
    rg_buf_free(&b);
    rg_buf_free(&members);
    rgc_oom(cs);
  }
  rgc_err(cs, first ? first->pos : f->dc->pos,
      "table %s has no cell%s for %s, added here: write %s (or override %s from \"FILE.tsv\" "
      "with the new rows)", cs->pool + tb->name, missing == 1 ? "" : "s",
      members.data ? members.data : "?", b.data ? b.data : "", cs->pool + tb->name);
  rg_buf_free(&b);
  rg_buf_free(&members);
}

/* Fills the cells of table declaration dc: its own (inline or from its
** TSV), then the changes of the rule sets that extend it, in order. */
void rgc_table_cells(cstate *cs, rgi_decl *dc) {
  sym *s = rgc_lookup(cs, dc->name);
  filler f;
  const rgi_table *tb;
  int errors0 = cs->d->errors;
  if (!s || s->decl != dc) return;
  tb = &AT(cs->tables, rgi_table, s->index);
  if (rgc_is_err(tb->value) || tb->count == 0) return;
  memset(&f, 0, sizeof f);
  f.tix = s->index;
  f.dc = dc;
  f.by = rgc_alloc(cs, tb->count * sizeof *f.by);
  f.merged = rgc_alloc(cs, tb->count);
  memset(f.merged, 0, tb->count);
  mark_added(cs, &f);
  if (dc->from) {
    tsv_cells(cs, &f, dc->from, dc->from_pos);
    tsv_cell_notes(cs, &f);
  } else inline_cells(cs, &f);
  /* Cells changed by a rule set that extends this one replace what is there. */
  if (dc->changes) {
    tb = &AT(cs->tables, rgi_table, s->index);
    f.changed = rgc_alloc(cs, tb->count * sizeof *f.changed);
  }
  for (rgi_cell *c = dc->changes; c; c = c->next) {
    uint32_t lo[8], hi[8], nk = 0, d = 0;
    rgi_value v;
    rgi_type t;
    bool ok = true;
    tb = &AT(cs->tables, rgi_table, s->index);
    f.owner = c->pos.file;
    if (c->from) {
      tsv_cells(cs, &f, c->from, c->pos);
      rgc_collect_notes(cs, c->notes, rgc_describe(cs, "table %s cells from %s", dc->name, c->from));
      continue;
    }
    for (rgi_keypat *k = c->keys; k; k = k->next) nk++;
    if (nk != tb->ndims) {
      rgc_err(cs, c->pos, "table %s takes %u key%s, not %u", dc->name, tb->ndims, tb->ndims == 1 ? "" : "s", nk);
      continue;
    }
    for (rgi_keypat *k = c->keys; k; k = k->next, d++)
      if (!key_range(cs, &AT(cs->dims, rgi_dim, tb->first_dim + d), k, &lo[d], &hi[d])) ok = false;
    t = rgc_fold(cs, c->value, tb->value, &v);
    if (rgc_is_err(t) || !rgc_check_type(cs, c->value->pos, t, tb->value, "this cell")) ok = false;
    if (!ok) continue;
    fill_box(cs, &f, c->pos, lo, hi, v);
    rgc_collect_notes(cs, c->notes, rgc_describe(cs, "table %s cell changed at line %u", dc->name, c->pos.line));
  }
  if (cs->d->errors == errors0) check_added(cs, &f);
  tb = &AT(cs->tables, rgi_table, s->index);
  for (uint32_t i = 0; i < tb->count; i++) {
    rgi_cellsrc *src = &AT(cs->cellsrc, rgi_cellsrc, tb->first + i);
    src->file = f.by[i].file;
    src->line = f.by[i].line;
    src->merged = f.merged[i];
  }
}
