/*
** tables.c: the cells of tables (part of the compiler; see compile_int.h).
**
** A table is flattened to an array, row-major.  Its cells come from the
** rule file (inline cells, ranges as merged cells, _ and else) or from a
** TSV file laid out like the sheet, then from the changes of rule sets that
** extend it.  Every cell is set exactly once before the changes: a cell set
** twice is an error at the second place, a cell never set an error at the
** table; each cell remembers where it was set (for diff and sheet).
*/
#include "compile_int.h"
#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
** Table cells: flattening, overlap and coverage
** ==================================================================== */

/* Filling one table: which cells are set, and by which source line. */
typedef struct filler {
  uint32_t tix;                 /* table index */
  rg_pos *by;                   /* per cell: who set it (line 0: nobody) */
  rg_decl *dc;
} filler;

/* Writes the key of index i in dimension dm ("S", "14") into buf. */
static const char *key_text(cstate *cs, const rg_dim *dm, uint32_t i, char *buf, size_t size) {
  if (dm->is_enum)
    snprintf(buf, size, "%s",
             cs->pool + AT(cs->members, rg_member_info, AT(cs->enums, rg_enum, dm->ref).first + i).code);
  else snprintf(buf, size, "%lld", (long long)(dm->lo + i));
  return buf;
}

/* Writes "[k1, k2]" for flat cell index flat of table tb. */
static const char *cell_text(cstate *cs, const rg_table *tb, uint32_t flat, char *buf, size_t size) {
  uint32_t idx[8];
  size_t n = 0;
  for (uint32_t d = tb->ndims; d-- > 0;) {
    const rg_dim *dm = &AT(cs->dims, rg_dim, tb->first_dim + d);
    idx[d] = flat % dm->size;
    flat /= dm->size;
  }
  buf[n++] = '[';
  for (uint32_t d = 0; d < tb->ndims && n + 2 < size; d++) {
    char k[128];
    int w = snprintf(buf + n, size - n, "%s%s", d ? ", " : "",
                     key_text(cs, &AT(cs->dims, rg_dim, tb->first_dim + d), idx[d], k, sizeof k));
    if (w > 0) n += (size_t)w;
  }
  if (n + 2 <= size) { buf[n++] = ']'; buf[n] = '\0'; } else buf[size - 1] = '\0';
  return buf;
}

/* Sets the cells in the box lo[d]..hi[d] of every dimension to v; reports
** the first cell already set (once).  Returns false on an overlap. */
static bool fill_box(cstate *cs, filler *f, rg_pos pos, const uint32_t *lo, const uint32_t *hi,
                     rg_value v) {
  const rg_table *tb = &AT(cs->tables, rg_table, f->tix);
  uint32_t idx[8];
  bool ok = true;
  for (uint32_t d = 0; d < tb->ndims; d++) idx[d] = lo[d];
  for (;;) {
    uint32_t flat = 0;
    for (uint32_t d = 0; d < tb->ndims; d++)
      flat = flat * AT(cs->dims, rg_dim, tb->first_dim + d).size + idx[d];
    if (f->by[flat].line) {
      if (ok) {
        char c[256];
        rgc_err(cs, pos, "cell %s of table %s is already given at line %u",
            cell_text(cs, tb, flat, c, sizeof c), cs->pool + tb->name, f->by[flat].line);
      }
      ok = false;
    } else {
      f->by[flat] = pos;
      AT(cs->cells, rg_value, tb->first + flat) = v;
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
static bool key_range(cstate *cs, const rg_dim *dm, const rg_keypat *k, uint32_t *lo, uint32_t *hi) {
  char list[512];
  switch (k->kind) {
  case RG_KP_ANY:
    *lo = 0;
    *hi = dm->size - 1;
    return true;
  case RG_KP_NAME: case RG_KP_STR:
    if (k->enum_name && dm->is_enum &&
        strcmp(k->enum_name, cs->pool + AT(cs->enums, rg_enum, dm->ref).name) != 0) {
      rgc_err(cs, k->pos, "this key must be a member of %s, not of %s",
          cs->pool + AT(cs->enums, rg_enum, dm->ref).name, k->enum_name);
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
        rgc_err(cs, k->pos, "'%s' is not a member of %s (members: %s)", k->name,
            cs->pool + AT(cs->enums, rg_enum, dm->ref).name, rgc_member_list(cs, dm->ref, list, sizeof list));
        return false;
      }
      *lo = *hi = (uint32_t)m;
      return true;
    }
  case RG_KP_INT: case RG_KP_RANGE: {
    int64_t top = dm->lo + (int64_t)dm->size - 1;
    if (dm->is_enum) {
      rgc_err(cs, k->pos, "this key must be a member of %s, not a number",
          cs->pool + AT(cs->enums, rg_enum, dm->ref).name);
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

/* Reports the cells nobody set, or fills them with the else value. */
static void check_coverage(cstate *cs, filler *f, rg_pos pos) {
  const rg_table *tb = &AT(cs->tables, rg_table, f->tix);
  uint32_t missing = 0;
  char list[512], c[256];
  size_t n = 0;
  list[0] = '\0';
  for (uint32_t i = 0; i < tb->count; i++) {
    if (f->by[i].line) continue;
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
  const rg_table *tb = &AT(cs->tables, rg_table, f->tix);
  rg_cell *other = NULL;
  rg_value otherv = 0;
  bool bad = false;
  for (rg_cell *c = f->dc->cells; c; c = c->next) {
    uint32_t lo[8], hi[8], nk = 0, d = 0;
    rg_value v;
    rg_type t;
    bool ok = true;
    tb = &AT(cs->tables, rg_table, f->tix);
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
    for (rg_keypat *k = c->keys; k; k = k->next) nk++;
    if (nk != tb->ndims) {
      rgc_err(cs, c->pos, "this cell has %u key%s; table %s has %u", nk, nk == 1 ? "" : "s",
          f->dc->name, tb->ndims);
      bad = true;
      continue;
    }
    for (rg_keypat *k = c->keys; k; k = k->next, d++)
      if (!key_range(cs, &AT(cs->dims, rg_dim, tb->first_dim + d), k, &lo[d], &hi[d])) ok = false;
    t = rgc_fold(cs, c->value, tb->value, &v);
    if (rgc_is_err(t) || !rgc_check_type(cs, c->value->pos, t, tb->value, "this cell")) ok = false;
    if (!ok) { bad = true; continue; }
    if (!fill_box(cs, f, c->pos, lo, hi, v)) bad = true;
    rgc_collect_notes(cs, c->notes, rgc_describe(cs, "table %s cell at line %u", f->dc->name, c->pos.line));
  }
  tb = &AT(cs->tables, rg_table, f->tix);
  if (other) {
    for (uint32_t i = 0; i < tb->count; i++)
      if (!f->by[i].line) {
        f->by[i] = other->pos;
        AT(cs->cells, rg_value, tb->first + i) = otherv;
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
  rg_pos pos;
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
      rg_pos p = { file, lineno, (uint32_t)start + 1 };
      rgc_err(cs, p, "too many columns (limit %d)", TSV_MAX_COLS);
      return UINT32_MAX;
    }
    while (start < end && line[start] == ' ') start++;
    while (end > start && line[end - 1] == ' ') end--;
    cells[n].text = rgc_strndup(cs, line + start, end - start);
    if (!cells[n].text) { rgc_oom(cs); return n; }
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
static bool tsv_value(cstate *cs, const tsvcell *c, rg_type t, rg_value *v) {
  const char *s = c->text;
  char list[512], x[96];
  int64_t m;
  size_t k;
  switch (t.kind) {
  case RG_K_TEXT:
    *v = rgc_intern(cs, s);
    return true;
  case RG_K_ENUM: {
    int i = rgc_member_by_text(cs, t.ref, s);
    if (i >= 0) { *v = i; return true; }
    rgc_err(cs, c->pos, "'%s' is not a member of %s (members: %s)", s,
        cs->pool + AT(cs->enums, rg_enum, t.ref).name, rgc_member_list(cs, t.ref, list, sizeof list));
    return false;
  }
  case RG_K_SET: {
    uint64_t mask = 0;
    int whole;
    if (!*s || strcmp(s, "-") == 0) { *v = 0; return true; }
    whole = rgc_member_by_text(cs, t.ref, s);
    if (whole >= 0) { *v = (rg_value)((uint64_t)1 << whole); return true; }
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
        rgc_err(cs, c->pos, "'%s' is not a member of %s (members: %s)", word,
            cs->pool + AT(cs->enums, rg_enum, t.ref).name, rgc_member_list(cs, t.ref, list, sizeof list));
        return false;
      }
      mask |= (uint64_t)1 << i;
    }
    *v = (rg_value)mask;
    return true;
  }
  case RG_K_BOOL:
    if (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0) { *v = 1; return true; }
    if (strcmp(s, "false") == 0 || strcmp(s, "no") == 0) { *v = 0; return true; }
    break;
  case RG_K_INT: case RG_K_PERCENT:
    k = rg_parse_int(s, &m);
    if (k && (s[k] == '\0' || (t.kind == RG_K_PERCENT && s[k] == '%' && !s[k + 1]))) {
      *v = m;
      return true;
    }
    break;
  case RG_K_DIST: {
    const char *unit = cs->pool + AT(cs->units, rg_unit, t.ref).name;
    size_t ul = strlen(unit);
    k = rg_parse_milli(s, &m);
    if (!k) break;
    if (strncmp(s + k, unit, ul) == 0) k += ul;
    else if (s[k] == '"' && strcmp(unit, "in") == 0) k++;
    if (s[k] == '*') k++;
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
static bool tsv_key(cstate *cs, const tsvcell *c, const rg_dim *dm, uint32_t *lo, uint32_t *hi) {
  rg_keypat k;
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

/* The cells of table f->dc, read from its TSV file. */
static void tsv_cells(cstate *cs, filler *f) {
  const rg_table *tb = &AT(cs->tables, rg_table, f->tix);
  rg_decl *dc = f->dc;
  uint32_t file, ncols = 0;
  tsvcell head[TSV_MAX_COLS], row[TSV_MAX_COLS];
  int colfield[TSV_MAX_COLS];          /* record tables: field of each column, -1 assumed */
  rg_value prev[TSV_MAX_COLS];
  bool hasprev[TSV_MAX_COLS];
  bool bad = false, header = false;
  const rg_record *rec = NULL;
  uint32_t nfields = 0;

  /* The loader looks for the file, by default beside the rule file that
  ** names it and in the folders above. */
  if (rg_diag_fetch(cs->d, cs->loader, cs->d->files[dc->from_pos.file]->path, dc->from,
                    RG_LOAD_TABLE, &dc->from_pos, &file))
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
    rec = &AT(cs->records, rg_record, tb->value.ref);
    nfields = rec->count;
  }
  memset(hasprev, 0, sizeof hasprev);
  for (uint32_t ln = 1; ln <= cs->d->files[file]->nlines; ln++) {
    size_t len;
    const char *line = rg_diag_line(cs->d, file, ln, &len);
    uint32_t n;
    if (!line) break;
    {
      size_t i = 0;
      while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
      if (i == len) continue;
      if (line[i] == '#') {
        const char *tag = "# assumed:";
        if (len - i > strlen(tag) && strncmp(line + i, tag, strlen(tag)) == 0) {
          rg_note note = { { file, ln, (uint32_t)i + 1 }, true,
                           rgc_strndup(cs, line + i + strlen(tag), len - i - strlen(tag)), NULL };
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
        if (!seen) { rgc_oom(cs); return; }
        for (uint32_t c = 1; c < ncols; c++) {
          uint32_t k;
          colfield[c] = -2;
          if (strcmp(head[c].text, "assumed") == 0) { colfield[c] = -1; continue; }
          for (k = 0; k < nfields; k++)
            if (strcmp(cs->pool + AT(cs->fields, rg_field_info, rec->first + k).name, head[c].text) == 0)
              break;
          if (k == nfields) {
            rgc_err(cs, head[c].pos, "record %s has no field '%s'", cs->pool + rec->name, head[c].text);
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
                cs->pool + AT(cs->fields, rg_field_info, rec->first + k).name, cs->pool + rec->name);
            bad = true;
          }
        if (bad) return;
      } else if (tb->ndims == 1) {
        if (ncols != 2) {
          rgc_err(cs, head[0].pos, "this table has one key and one value: the header needs 2 columns, not %u", ncols);
          return;
        }
      } else {
        const rg_dim *d2 = &AT(cs->dims, rg_dim, tb->first_dim + 1);
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
      rg_pos p = { file, ln, 1 };
      rgc_err(cs, p, "this row has %u cell%s; the header has %u", n, n == 1 ? "" : "s", ncols);
      bad = true;
      continue;
    }
    {
      uint32_t lo[2], hi[2];
      const rg_dim *d1 = &AT(cs->dims, rg_dim, tb->first_dim);
      if (!tsv_key(cs, &row[0], d1, &lo[0], &hi[0])) { bad = true; continue; }
      if (rec) {
        rg_value *vals = rgc_alloc(cs, nfields * sizeof *vals);
        bool ok = true;
        if (!vals) { rgc_oom(cs); return; }
        for (uint32_t c = 1; c < n; c++) {
          if (colfield[c] == -1) {
            if (row[c].text[0]) {
              rg_note note = { row[c].pos, true, row[c].text, NULL };
              rgc_collect_notes(cs, &note, rgc_describe(cs, "table %s row %s", dc->name, row[0].text));
            }
            continue;
          }
          if (!tsv_value(cs, &row[c], AT(cs->fields, rg_field_info, rec->first + colfield[c]).type,
                         &vals[colfield[c]]))
            ok = false;
        }
        if (!ok) { bad = true; continue; }
        if (!fill_box(cs, f, row[0].pos, lo, hi, rgc_heap_record(cs, vals, nfields))) bad = true;
      } else if (tb->ndims == 1) {
        rg_value v;
        if (!tsv_value(cs, &row[1], tb->value, &v)) { bad = true; continue; }
        if (!fill_box(cs, f, row[1].pos, lo, hi, v)) bad = true;
      } else {
        for (uint32_t c = 1; c < n; c++) {
          rg_value v;
          if (strcmp(row[c].text, "^") == 0) {
            if (!hasprev[c]) {
              rgc_err(cs, row[c].pos, "'^' repeats the cell above, but there is none");
              bad = true;
              continue;
            }
            v = prev[c];
          } else if (!tsv_value(cs, &row[c], tb->value, &v)) {
            bad = true;
            hasprev[c] = false;
            continue;
          }
          prev[c] = v;
          hasprev[c] = true;
          lo[1] = hi[1] = (uint32_t)colfield[c];
          if (!fill_box(cs, f, row[c].pos, lo, hi, v)) bad = true;
        }
      }
    }
  }
  if (!header) {
    rg_pos p = { file, 1, 1 };
    rgc_err(cs, p, "this TSV file has no header line");
    return;
  }
  if (!bad) check_coverage(cs, f, dc->pos);
}

/* The notes on cells of a TSV table, written in the rule file (`from "F" {
** 1..4, S: assumed "..." }`): each note is listed as on `table NAME cells
** [KEYS]` and remembers its box of cells, so that `regula sheet` marks
** exactly those cells. */
static void tsv_cell_notes(cstate *cs, filler *f) {
  for (rg_cell *c = f->dc->cell_notes; c; c = c->next) {
    const rg_table *tb = &AT(cs->tables, rg_table, f->tix);
    uint32_t lo[8], hi[8], nk = 0, d = 0;
    rg_assumption **first = cs->assumed_tail;
    char keys[256];
    size_t n = 0;
    bool ok = true;
    for (rg_keypat *k = c->keys; k; k = k->next) nk++;
    if (nk != tb->ndims) {
      rgc_err(cs, c->pos, "this cell has %u key%s; table %s has %u", nk, nk == 1 ? "" : "s",
          f->dc->name, tb->ndims);
      continue;
    }
    keys[0] = '\0';
    for (rg_keypat *k = c->keys; k; k = k->next, d++) {
      const char *sep = d ? ", " : "";
      if (!key_range(cs, &AT(cs->dims, rg_dim, tb->first_dim + d), k, &lo[d], &hi[d])) ok = false;
      if (n >= sizeof keys) continue;
      if (k->kind == RG_KP_ANY) n += (size_t)snprintf(keys + n, sizeof keys - n, "%s_", sep);
      else if (k->kind == RG_KP_INT) n += (size_t)snprintf(keys + n, sizeof keys - n, "%s%lld", sep, (long long)k->lo);
      else if (k->kind == RG_KP_RANGE)
        n += (size_t)snprintf(keys + n, sizeof keys - n, "%s%lld..%lld", sep, (long long)k->lo, (long long)k->hi);
      else n += (size_t)snprintf(keys + n, sizeof keys - n, "%s%s", sep, k->name);
    }
    if (!ok) continue;
    rgc_collect_notes(cs, c->notes, rgc_describe(cs, "table %s cells [%s]", f->dc->name, keys));
    for (rg_assumption *a = *first; a; a = a->next) {
      a->table = f->tix + 1;
      memcpy(a->lo, lo, sizeof lo);
      memcpy(a->hi, hi, sizeof hi);
    }
  }
}

/* Fills the cells of table declaration dc. */
void rgc_table_cells(cstate *cs, rg_decl *dc) {
  sym *s = rgc_lookup(cs, dc->name);
  filler f;
  const rg_table *tb;
  if (!s || s->decl != dc) return;
  tb = &AT(cs->tables, rg_table, s->index);
  if (rgc_is_err(tb->value) || tb->count == 0) return;
  f.tix = s->index;
  f.dc = dc;
  f.by = rgc_alloc(cs, tb->count * sizeof *f.by);
  if (!f.by) { rgc_oom(cs); return; }
  if (dc->from) {
    tsv_cells(cs, &f);
    tsv_cell_notes(cs, &f);
  } else inline_cells(cs, &f);
  /* Cells changed by a rule set that extends this one replace what is there. */
  for (rg_cell *c = dc->changes; c; c = c->next) {
    uint32_t lo[8], hi[8], nk = 0, d = 0;
    rg_value v;
    rg_type t;
    bool ok = true;
    tb = &AT(cs->tables, rg_table, s->index);
    for (rg_keypat *k = c->keys; k; k = k->next) nk++;
    if (nk != tb->ndims) {
      rgc_err(cs, c->pos, "table %s takes %u key%s, not %u", dc->name, tb->ndims, tb->ndims == 1 ? "" : "s", nk);
      continue;
    }
    for (rg_keypat *k = c->keys; k; k = k->next, d++)
      if (!key_range(cs, &AT(cs->dims, rg_dim, tb->first_dim + d), k, &lo[d], &hi[d])) ok = false;
    t = rgc_fold(cs, c->value, tb->value, &v);
    if (rgc_is_err(t) || !rgc_check_type(cs, c->value->pos, t, tb->value, "this cell")) ok = false;
    if (!ok) continue;
    /* the box lo..hi only, key by key (not every cell of the table: a
    ** revision of 30,000 one-cell overrides was quadratic) */
    uint32_t idx[8];
    for (d = 0; d < tb->ndims; d++) idx[d] = lo[d];
    for (;;) {
      uint32_t i = 0;
      for (d = 0; d < tb->ndims; d++) i = i * AT(cs->dims, rg_dim, tb->first_dim + d).size + idx[d];
      f.by[i] = c->pos;
      AT(cs->cells, rg_value, tb->first + i) = v;
      for (d = tb->ndims; d-- > 0;) {
        if (idx[d] < hi[d]) { idx[d]++; break; }
        idx[d] = lo[d];
      }
      if (d == UINT32_MAX) break;
    }
    rgc_collect_notes(cs, c->notes, rgc_describe(cs, "table %s cell changed at line %u", dc->name, c->pos.line));
  }
  tb = &AT(cs->tables, rg_table, s->index);
  for (uint32_t i = 0; i < tb->count; i++) {
    rg_cellsrc *src = &AT(cs->cellsrc, rg_cellsrc, tb->first + i);
    src->file = f.by[i].file;
    src->line = f.by[i].line;
  }
}

