/*
** sheet.c: the tables of a rule set in the layout of the printed sheet (see
** sheet.h; `regula sheet FILE [TABLE...]`).
**
** Prints the tables of a rule set (every one, or the named ones) back in the
** layout of the printed sheet, so that a proofreader can lay the output
** beside the original:
**
**   - a title line per table: NAME(KEY, ...) -> TYPE, with `*` when an
**     assumption covers the whole table;
**   - a table of two keys as a grid: one column per member (display name) or
**     integer of the second key, one row per key of the first; a cell equal
**     to the one above it and merged with it (rgi_cellsrc.merged: one range
**     or `_` of the rule file, or `^` in a TSV) prints `|`, so a vertically
**     merged cell of the sheet reads as its value once, at the top of the
**     run, with `|` below, and a cell the sheet prints again shows its value;
**     every row key keeps its own line, as on the sheet (more keys: one grid
**     per combination of the leading ones), except that a run of more than
**     FOLD_MIN equal rows (or columns) of consecutive integer keys, longer
**     than any printed sheet merges, is one row (column) `lo..hi`;
**   - a table of one key as `key  value` lines, runs of merged equal values
**     over an integer key folded into one `lo..hi` line; a record table as a grid
**     with one column per field;
**   - text wider than the page (SHEET_WIDTH display columns) is wrapped
**     inside its column; rows that wrap are separated by a blank line;
**   - a cell given on a source line that carries an `assumed` note is marked
**     ` *`, and the notes are listed under the table as
**         * TABLE[KEYS]: text        (* TABLE: text for the whole table)
**   - finally (when no table is named) a Constants section: every named
**     constant with its value, a starred distance as `6 BW*`, and the
**     assumption on it, if any.
**
** Widths are display columns (utf8proc_charwidth), so accented and wide
** characters line up.  A .rbc module keeps no assumptions: a line says so.
*/
#include "sheet.h"

#include "regula_front.h"
#include "diag.h"
#include "module.h"
#include "parse.h"
#include "value.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#define SHEET_WIDTH 120     /* a grid wider than this wraps its widest columns */
#define MIN_COL 12          /* but no column narrower than this */
#define VALBUF 8192

/* A cell override of a rule set that extends another (`override
** TABLE[keys] = value`): where it is written, and its `source`. */
typedef struct cellover {
  uint32_t file, line;      /* the compile's file index; the line */
  char *table;              /* the table's name (owned) */
  char *source;             /* its `source "..."` text, or NULL (owned) */
} cellover;

typedef struct sheet {
  rg_out *out;
  const rgi_module *m;
  const rgi_diag *src;       /* the compile's files, or NULL (a .rbc) */
  const rgi_assumption *assumptions;
  int oom;                  /* an allocation failed */
  cellover *overs;          /* the cell overrides of the rule files */
  size_t nover;
} sheet;

/* ---- memory and text ---------------------------------------------------- */

/* rg_malloc of n bytes (at least 1), owned by the caller; NULL with s->oom
** set when it fails, and NULL once s->oom is set. */
static void *xmalloc(sheet *s, size_t n) {
  void *p;
  if (s->oom) return NULL;
  p = rg_malloc(n ? n : 1);
  if (!p) s->oom = 1;
  return p;
}

/* xmalloc of n * size bytes, zeroed; NULL when out of memory (s->oom). */
static void *xcalloc(sheet *s, size_t n, size_t size) {
  void *p = xmalloc(s, n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

/* Returns a NUL-terminated copy of t[0..n) from xmalloc (caller frees), or
** NULL. */
static char *xstrndup(sheet *s, const char *t, size_t n) {
  char *p = xmalloc(s, n + 1);
  if (!p) return NULL;
  memcpy(p, t, n);
  p[n] = '\0';
  return p;
}

/* Returns a copy of t from xmalloc (caller frees), or NULL. */
static char *xstrdup(sheet *s, const char *t) {
  return xstrndup(s, t, strlen(t));
}

/* Returns a new string: a followed by b. */
static char *xconcat(sheet *s, const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  char *p = xmalloc(s, na + nb + 1);
  if (!p) return NULL;
  memcpy(p, a, na);
  memcpy(p + na, b, nb + 1);
  return p;
}

/* Decodes the character at t (at most n bytes, n > 0); stores its display
** width in *w, as every table of the library measures it (rgi_text_width_n:
** a tab, written as a space by wrap, and an invalid byte 1 wide), and
** returns its length in bytes (1 for an invalid byte). */
static size_t next_char(const char *t, size_t n, size_t *w) {
  utf8proc_int32_t c;
  utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)t, (utf8proc_ssize_t)n, &c);
  if (k <= 0) k = 1;
  *w = rgi_text_width_n(t, (size_t)k);
  return (size_t)k;
}

/* The display width of the string t: of its widest line, as wrap lays it
** out (the lines of a text that holds newlines stand one under another). */
static size_t width(const char *t) {
  size_t best = 0;
  for (;;) {
    const char *nl = strchr(t, '\n');
    size_t w = rgi_text_width_n(t, nl ? (size_t)(nl - t) : strlen(t));
    if (w > best) best = w;
    if (!nl) return best;
    t = nl + 1;
  }
}

/* A growing list of strings (owned). */
typedef struct strs {
  char **v;
  size_t n, cap;
} strs;

/* Appends t to l, which takes it over (NULL ignored); when out of memory
** sets s->oom and frees t. */
static void strs_push(sheet *s, strs *l, char *t) {
  if (!t) return;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 8;
    char **v = s->oom ? NULL : rg_realloc(l->v, cap * sizeof *v);
    if (!v) { s->oom = 1; rg_free(t); return; }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = t;
}

/* Frees l's strings and array; l is left empty. */
static void strs_free(strs *l) {
  for (size_t i = 0; i < l->n; i++) rg_free(l->v[i]);
  rg_free(l->v);
  memset(l, 0, sizeof *l);
}

/* Wraps t into lines of at most w display columns, breaking at spaces (a
** word wider than w is cut) and at newlines.  Always at least one line. */
static void wrap(sheet *s, const char *t, size_t w, strs *out) {
  char *cur = xmalloc(s, strlen(t) + 1);
  size_t len = 0, curw = 0;
  if (!cur) return;
  if (w < 1) w = 1;
  for (const char *p = t; *p;) {
    const char *q;
    size_t ww;
    if (*p == '\n') {
      strs_push(s, out, xstrndup(s, cur, len));
      len = curw = 0;
      p++;
      continue;
    }
    if (*p == ' ' || *p == '\t') { p++; continue; }
    for (q = p; *q && *q != ' ' && *q != '\t' && *q != '\n'; q++) {}
    ww = rgi_text_width_n(p, (size_t)(q - p));
    if (len && curw + 1 + ww <= w) {
      cur[len++] = ' ';
      memcpy(cur + len, p, (size_t)(q - p));
      len += (size_t)(q - p);
      curw += 1 + ww;
      p = q;
      continue;
    }
    if (len) {
      strs_push(s, out, xstrndup(s, cur, len));
      len = curw = 0;
    }
    /* The word starts a line; while it is too wide, cut it after the last
    ** `_`, `/` or `-` that fits, else where the line is full. */
    while (p < q) {
      const char *r = p, *cut = NULL;
      size_t rw = 0, cw;
      while (r < q) {
        size_t k = next_char(r, (size_t)(q - r), &cw);
        if (rw + cw > w && r > p) break;
        rw += cw;
        r += k;
        if (r < q && (r[-1] == '_' || r[-1] == '/' || r[-1] == '-')) cut = r;
      }
      if (r < q && cut) r = cut;
      memcpy(cur, p, (size_t)(r - p));
      len = (size_t)(r - p);
      curw = rgi_text_width_n(p, len);
      p = r;
      if (p < q) {
        strs_push(s, out, xstrndup(s, cur, len));
        len = curw = 0;
      }
    }
  }
  if (len || out->n == 0) strs_push(s, out, xstrndup(s, cur, len));
  rg_free(cur);
}

/* The widest piece of t that wrap never cuts: a word, or a part of one
** ending in `_`, `/` or `-`. */
static size_t longest_piece(const char *t) {
  size_t best = 0, cur = 0, cw;
  for (size_t i = 0, n = strlen(t); i < n;) {
    char c = t[i];
    i += next_char(t + i, n - i, &cw);
    if (c == ' ' || c == '\t' || c == '\n') { cur = 0; continue; }
    cur += cw;
    if (cur > best) best = cur;
    if (c == '_' || c == '/' || c == '-') cur = 0;
  }
  return best;
}

/* ---- grids ---------------------------------------------------------------- */

/* A grid of text cells, row 0 the header when `header`. */
typedef struct grid {
  size_t nrows, ncols;
  char **cell;              /* nrows * ncols, owned, NULL is empty */
  int header;
} grid;

/* Sets g up with nrows x ncols empty cells (row 0 the header when `header`).
** Returns 0, or -1 when out of memory (s->oom); grid_free(g) either way. */
static int grid_init(sheet *s, grid *g, size_t nrows, size_t ncols, int header) {
  g->nrows = nrows;
  g->ncols = ncols;
  g->header = header;
  g->cell = xcalloc(s, nrows * ncols, sizeof *g->cell);
  return g->cell ? 0 : -1;
}

/* Sets a cell to text (taken over: the grid frees it). */
static void grid_take(grid *g, size_t r, size_t c, char *text) {
  rg_free(g->cell[r * g->ncols + c]);
  g->cell[r * g->ncols + c] = text;
}

/* Frees g's cells and their texts; g is left empty. */
static void grid_free(grid *g) {
  if (g->cell)
    for (size_t i = 0; i < g->nrows * g->ncols; i++) rg_free(g->cell[i]);
  rg_free(g->cell);
  memset(g, 0, sizeof *g);
}

/* Writes n spaces to o. */
static void pad(rg_out *o, size_t n) {
  while (n--) rg_putc(o, ' ');
}

/* Prints g indented by two spaces, columns two spaces apart, a rule of
** dashes under the header; columns are narrowed (wrapping their text) while
** the grid is wider than SHEET_WIDTH. */
static void grid_print(sheet *s, const grid *g) {
  size_t *w = xcalloc(s, 2 * g->ncols, sizeof *w), *least, total = 2;
  strs *lines = xcalloc(s, g->ncols, sizeof *lines);
  int wraps = 0;
  if (!w || !lines) goto done;
  least = w + g->ncols;
  /* Each column as wide as its widest cell; least: as narrow as it may be
  ** made, MIN_COL or its widest uncut piece, whichever is more (the key
  ** column: never narrower). */
  for (size_t c = 0; c < g->ncols; c++) {
    least[c] = MIN_COL;
    for (size_t r = 0; r < g->nrows; r++) {
      const char *t = g->cell[r * g->ncols + c];
      size_t tw = t ? width(t) : 0, pw = t ? longest_piece(t) : 0;
      if (tw > w[c]) w[c] = tw;
      if (pw > least[c]) least[c] = pw;
    }
    if (least[c] > w[c] || c == 0) least[c] = w[c];   /* keys are never wrapped */
    total += w[c] + (c ? 2 : 0);
  }
  /* Too wide: narrow the widest column that may be, one column at a time. */
  while (total > SHEET_WIDTH) {
    size_t widest = g->ncols;
    for (size_t c = 0; c < g->ncols; c++)
      if (w[c] > least[c] && (widest == g->ncols || w[c] > w[widest])) widest = c;
    if (widest == g->ncols) break;
    w[widest]--;
    total--;
  }
  /* Rows that wrap are set apart by blank lines. */
  for (size_t r = g->header ? 1 : 0; r < g->nrows && !wraps; r++)
    for (size_t c = 0; c < g->ncols; c++) {
      const char *t = g->cell[r * g->ncols + c];
      if (t && (width(t) > w[c] || strchr(t, '\n'))) wraps = 1;
    }
  for (size_t r = 0; r < g->nrows && !s->oom; r++) {
    size_t height = 1;
    if (wraps && r > (g->header ? 1u : 0u)) rg_putc(s->out, '\n');
    for (size_t c = 0; c < g->ncols; c++) {
      const char *t = g->cell[r * g->ncols + c];
      wrap(s, t ? t : "", w[c], &lines[c]);
      if (lines[c].n > height) height = lines[c].n;
    }
    for (size_t i = 0; i < height && !s->oom; i++) {
      size_t last = 0;
      for (size_t c = 0; c < g->ncols; c++)
        if (i < lines[c].n && lines[c].v[i][0]) last = c + 1;
      rg_puts(s->out, "  ");
      for (size_t c = 0; c < last; c++) {
        const char *t = i < lines[c].n ? lines[c].v[i] : "";
        rg_puts(s->out, t);
        if (c + 1 < last) pad(s->out, w[c] - width(t) + 2);
      }
      rg_putc(s->out, '\n');
    }
    for (size_t c = 0; c < g->ncols; c++) strs_free(&lines[c]);
    if (r == 0 && g->header) {
      rg_puts(s->out, "  ");
      for (size_t c = 0; c < g->ncols; c++) {
        for (size_t k = 0; k < w[c]; k++) rg_putc(s->out, '-');
        if (c + 1 < g->ncols) pad(s->out, 2);
      }
      rg_putc(s->out, '\n');
    }
  }
done:
  if (lines)
    for (size_t c = 0; c < g->ncols; c++) strs_free(&lines[c]);
  rg_free(lines);
  rg_free(w);
}

/* ---- values and keys -------------------------------------------------------- */

/* Returns v of type t as a new string. */
static char *fmt(sheet *s, rgi_type t, rgi_value v) {
  char buf[VALBUF];
  return xstrdup(s, rgi_value_format(buf, sizeof buf, s->m, s->m->heap, s->m->nheap, t, v));
}

/* Writes key ix (0-based) of dimension d: the integer, or the member's
** display name. */
static char *key_text(char *buf, size_t size, const rgi_module *m, const rgi_dim *d, uint32_t ix) {
  if (d->is_enum) {
    rgi_type t = { RG_K_ENUM, d->ref };
    return rgi_value_format(buf, size, m, m->heap, m->nheap, t, ix);
  }
  snprintf(buf, size, "%lld", (long long)(d->lo + (int64_t)ix));
  return buf;
}

/* The heading of a key column: its label, else its enum's name. */
static const char *dim_head(const rgi_module *m, const rgi_dim *d) {
  const char *label = rgi_module_str(m, d->label);
  if (*label) return label;
  if (d->is_enum && d->ref < m->nenums) return rgi_module_str(m, m->enums[d->ref].name);
  return "key";
}

/* ---- the sheet's order ------------------------------------------------------ */

/* Whether file f of the compile is a TSV file. */
static int is_tsv(const sheet *s, uint32_t f) {
  if (f >= s->src->nfiles) return 0;
  const char *path = s->src->files[f]->path;
  size_t n = strlen(path);
  return n > 4 && strcmp(path + n - 4, ".tsv") == 0;
}

/* Returns the TSV file the cells of t come from (an index into the
** compile's files), or -1: the rows and columns of a TSV table are printed
** in the file's order, which is the sheet's (declaration order otherwise).
** Cells a revision overrides come from its rule file and do not count: the
** revision keeps the base sheet's layout. */
static int tsv_file(const sheet *s, const rgi_table *t) {
  const rgi_module *m = s->m;
  int f = -1;
  if (!s->src || t->count == 0 || t->ndims > 2) return -1;
  for (uint32_t i = 0; i < t->count; i++) {
    uint32_t fi = m->cellsrc[t->first + i].file;
    if (!is_tsv(s, fi)) continue;
    if (f >= 0 && (uint32_t)f != fi) return -1;   /* two TSV files */
    f = (int)fi;
  }
  return f;
}

/* Sets perm[0..size) to the order of the keys of dimension k of table t:
** declaration order, or for a TSV table the order of the file: rows by the
** line they are given on, the columns of a two-key table by its header. */
static void key_order(sheet *s, const rgi_table *t, uint32_t k, uint32_t *perm) {
  const rgi_module *m = s->m;
  const rgi_dim *d = &m->dims[t->first_dim + k];
  int f = tsv_file(s, t);
  for (uint32_t i = 0; i < d->size; i++) perm[i] = i;
  if (f < 0) return;
  if (k == 0) {
    /* Rows: by the first line of each key's cells in the TSV file (a
    ** stable sort); a row the file does not give (a revision overrode it
    ** whole) stays after the row before it in declaration order. */
    uint32_t per = t->count / d->size;
    uint32_t *at = xcalloc(s, d->size, sizeof *at);
    if (!at) return;
    for (uint32_t r = 0; r < d->size; r++) {
      at[r] = UINT32_MAX;
      for (uint32_t k = 0; k < per && at[r] == UINT32_MAX; k++)
        if (m->cellsrc[t->first + r * per + k].file == (uint32_t)f)
          at[r] = m->cellsrc[t->first + r * per + k].line;
      if (at[r] == UINT32_MAX) at[r] = r ? at[r - 1] : 0;
    }
    for (uint32_t i = 1; i < d->size; i++) {
      uint32_t x = perm[i], j = i;
      while (j > 0 && at[perm[j - 1]] > at[x]) {
        perm[j] = perm[j - 1];
        j--;
      }
      perm[j] = x;
    }
    rg_free(at);
    return;
  }
  if (d->is_enum) {
    /* Columns: the header line, the first that is not blank or a comment. */
    const rgi_file *file = s->src->files[f];
    for (uint32_t ln = 1; ln <= file->nlines; ln++) {
      size_t len, i = 0;
      const char *line = rgi_diag_line(s->src, (uint32_t)f, ln, &len);
      uint32_t *got, n = 0, col = 0;
      unsigned char *seen;
      if (!line) return;
      while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
      if (i == len || line[i] == '#') continue;
      got = xcalloc(s, d->size, sizeof *got);
      seen = xcalloc(s, d->size, 1);
      for (i = 0; got && seen && i <= len;) {
        size_t j = i, a, b;
        while (j < len && line[j] != '\t') j++;
        for (a = i; a < j && line[a] == ' '; a++) {}
        for (b = j; b > a && line[b - 1] == ' '; b--) {}
        if (col++ > 0) {
          char *text = xstrndup(s, line + a, b - a);
          int mi = text ? rgi_enum_lookup(m, d->ref, text) : -1;
          rg_free(text);
          if (mi < 0 || (uint32_t)mi >= d->size || seen[mi] || n == d->size) { n = 0; break; }
          seen[mi] = 1;
          got[n++] = (uint32_t)mi;
        }
        i = j + 1;
      }
      /* the header's members in its order, then any it lacks (members a
      ** revision adds to the enum) in declaration order */
      if (n > 0) {
        for (uint32_t k = 0; k < d->size; k++)
          if (!seen[k]) got[n++] = k;
        memcpy(perm, got, d->size * sizeof *perm);
      }
      rg_free(got);
      rg_free(seen);
      return;
    }
  }
}

/* ---- assumptions ---------------------------------------------------------- */

/* An assumption on a table: the whole table, or the cells it marks. */
typedef struct tnote {
  const char *text;         /* the note (an assumption's, or an override's
                            ** `source "..."` in text_own) */
  char *text_own;           /* owned, or NULL */
  char *where;              /* "weather[3, Standard]", or the table's name */
} tnote;

/* Appends note (where, text) to notes[0..*n) (capacity *cap), taking over
** where and own (either may be NULL); returns 0, or -1 when out of memory
** (what was given is freed). */
static int add_note(sheet *s, tnote **notes, size_t *n, size_t *cap, char *where, const char *text,
                    char *own) {
  if (*n == *cap) {
    size_t nc = *cap ? 2 * *cap : 4;
    tnote *v = rg_realloc(*notes, nc * sizeof *v);
    if (!v) {
      s->oom = 1;
      rg_free(where);
      rg_free(own);
      return -1;
    }
    *notes = v;
    *cap = nc;
  }
  (*notes)[*n].text = text;
  (*notes)[*n].text_own = own;
  (*notes)[(*n)++].where = where;
  return 0;
}

/* Returns the override of s->overs (sorted by file and line) that set the
** cell whose source is cs in table `name`, or -1. */
static int cell_override(const sheet *s, const char *name, const rgi_cellsrc *cs) {
  size_t lo = 0, hi = s->nover;
  while (lo < hi) {             /* the first at or after (file, line) */
    size_t mid = lo + (hi - lo) / 2;
    const cellover *o = &s->overs[mid];
    if (o->file < cs->file || (o->file == cs->file && o->line < cs->line)) lo = mid + 1;
    else hi = mid;
  }
  for (size_t k = lo; k < s->nover && s->overs[k].file == cs->file && s->overs[k].line == cs->line; k++)
    if (s->overs[k].table && strcmp(s->overs[k].table, name) == 0) return (int)k;
  return -1;
}

/* Returns 1 when what ("table NAME ...") is about table name. */
static int about_table(const char *what, const char *name) {
  size_t n = strlen(name);
  if (!what || strncmp(what, "table ", 6) != 0) return 0;
  what += 6;
  return strncmp(what, name, n) == 0 && (what[n] == '\0' || what[n] == ' ');
}

/* Describes the matched cells of table t (hit[i] set; or the cells
** list[0..nlist) when list is given) as TABLE[KEYS], each key one member or
** integer, `lo..hi` for a run of integers, `_` for every key of its
** dimension, `{a, b}` otherwise. */
static char *cells_text(sheet *s, const rgi_table *t, const unsigned char *hit, const uint32_t *list,
                        uint32_t nlist) {
  const rgi_module *m = s->m;
  char out[1024], kb[256];
  size_t n = (size_t)snprintf(out, sizeof out, "%s[", rgi_module_str(m, t->name));
  for (uint32_t k = 0; k < t->ndims; k++) {
    const rgi_dim *d = &m->dims[t->first_dim + k];
    unsigned char *seen = xcalloc(s, d->size, 1);
    uint32_t lo = UINT32_MAX, hi = 0, distinct = 0;
    if (!seen) return NULL;
    for (uint32_t j = 0; j < (list ? nlist : t->count); j++) {
      uint32_t i = list ? list[j] : j, flat = i, ix = 0;
      if (!list && !hit[i]) continue;
      for (uint32_t j = t->ndims; j-- > 0;) {
        const rgi_dim *dj = &m->dims[t->first_dim + j];
        if (j == k) ix = flat % dj->size;
        flat /= dj->size;
      }
      if (!seen[ix]) { seen[ix] = 1; distinct++; }
      if (ix < lo) lo = ix;
      if (ix > hi) hi = ix;
    }
    if (k && n < sizeof out) n += (size_t)snprintf(out + n, sizeof out - n, ", ");
    if (n >= sizeof out) { rg_free(seen); break; }
    if (distinct == 1)
      n += (size_t)snprintf(out + n, sizeof out - n, "%s", key_text(kb, sizeof kb, m, d, lo));
    else if (distinct == d->size)
      n += (size_t)snprintf(out + n, sizeof out - n, "_");
    else if (!d->is_enum && distinct == hi - lo + 1)
      n += (size_t)snprintf(out + n, sizeof out - n, "%lld..%lld", (long long)(d->lo + lo),
                            (long long)(d->lo + hi));
    else {
      int first = 1;
      n += (size_t)snprintf(out + n, sizeof out - n, "{");
      for (uint32_t ix = 0; ix < d->size && n < sizeof out; ix++)
        if (seen[ix]) {
          n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", first ? "" : ", ",
                                key_text(kb, sizeof kb, m, d, ix));
          first = 0;
        }
      if (n < sizeof out) n += (size_t)snprintf(out + n, sizeof out - n, "}");
    }
    rg_free(seen);
    if (n >= sizeof out) break;
  }
  if (n < sizeof out) snprintf(out + n, sizeof out - n, "]");
  return xstrdup(s, out);
}

/* Finds the assumptions on table t: marks the cells they cover in mark[]
** (1), and lists them in *notes (*nnotes); sets *whole when one covers the
** whole table.  A note names its cell's line ("cell at line N"), else it
** sits on it (a TSV row) or just after it (an else cell): the nearest cell
** line at or before the note; a note on cells of a TSV table carries its box
** of cells.  A note that matches no cell, or one on the declaration, is
** about the whole table. */
static void table_notes(sheet *s, const rgi_table *t, unsigned char *mark, tnote **notes,
                        size_t *nnotes, int *whole) {
  const rgi_module *m = s->m;
  const char *name = rgi_module_str(m, t->name);
  size_t cap = 0;
  unsigned char *hit = xcalloc(s, t->count, 1);
  int *over = xcalloc(s, t->count ? t->count : 1, sizeof *over);
  *notes = NULL;
  *nnotes = 0;
  *whole = 0;
  if (!hit || !over) {
    rg_free(hit);
    rg_free(over);
    return;
  }
  /* the cells a revision's `override TABLE[...]` set: its notes replace the
  ** base's there */
  int any_over = 0;
  for (uint32_t i = 0; i < t->count; i++) {
    over[i] = s->nover ? cell_override(s, name, &m->cellsrc[t->first + i]) : -1;
    if (over[i] >= 0) any_over = 1;
  }
  for (const rgi_assumption *a = s->assumptions; a && !s->oom; a = a->next) {
    const char *rest, *at;
    uint32_t file = a->pos.file, line = 0, matched = 0;
    char *where = NULL;
    if (!about_table(a->what, name)) continue;
    rest = a->what + 6 + strlen(name);
    memset(hit, 0, t->count);
    if (a->table == (uint32_t)(t - m->tables) + 1) {
      /* a note on a box of cells (cells of a TSV table, from the rule file) */
      for (uint32_t i = 0; i < t->count; i++) {
        uint32_t flat = i, inside = 1;
        for (uint32_t k = t->ndims; k-- > 0;) {
          const rgi_dim *d = &m->dims[t->first_dim + k];
          uint32_t ix = flat % d->size;
          flat /= d->size;
          inside &= k < 8 && ix >= a->lo[k] && ix <= a->hi[k];
        }
        if (inside && over[i] < 0) { hit[i] = 1; matched++; }
      }
      if (!matched) continue;     /* every cell of it overridden */
    } else if (*rest) {
      if ((at = strstr(rest, " at line ")) != NULL) line = (uint32_t)strtoul(at + 9, NULL, 10);
      else
        for (uint32_t i = 0; i < t->count; i++) {
          const rgi_cellsrc *cs = &m->cellsrc[t->first + i];
          if (cs->file == file && cs->line <= a->pos.line && cs->line > line) line = cs->line;
        }
    }
    if (line)
      for (uint32_t i = 0; i < t->count; i++) {
        const rgi_cellsrc *cs = &m->cellsrc[t->first + i];
        if (cs->file == file && cs->line == line) { hit[i] = 1; matched++; }
      }
    if (matched) {
      for (uint32_t i = 0; i < t->count; i++)
        if (hit[i]) mark[i] = 1;
      where = cells_text(s, t, hit, NULL, 0);
    } else {
      *whole = 1;
      where = xstrdup(s, name);
    }
    if (!where) break;
    if (add_note(s, notes, nnotes, &cap, where, a->text ? a->text : "", NULL) != 0) break;
  }
  /* each override's `source`, on the cells it set: the cells ordered by
  ** override (a counting sort), each override's described from its own */
  uint32_t *first = any_over ? xcalloc(s, s->nover + 1, sizeof *first) : NULL;
  uint32_t *byover = any_over ? xcalloc(s, t->count, sizeof *byover) : NULL;
  if (any_over && first && byover) {
    for (uint32_t i = 0; i < t->count; i++)
      if (over[i] >= 0) first[over[i] + 1]++;
    for (size_t k = 0; k < s->nover; k++) first[k + 1] += first[k];
    uint32_t *fill = xcalloc(s, s->nover + 1, sizeof *fill);
    if (fill) {
      memcpy(fill, first, (s->nover + 1) * sizeof *fill);
      for (uint32_t i = 0; i < t->count; i++)
        if (over[i] >= 0) byover[fill[over[i]]++] = i;
      rg_free(fill);
    }
  }
  for (size_t k = 0; first && byover && k < s->nover && !s->oom; k++) {
    uint32_t matched = first[k + 1] - first[k];
    if (!s->overs[k].source || !matched) continue;
    for (uint32_t j = first[k]; j < first[k + 1]; j++) mark[byover[j]] = 1;
    char *where = cells_text(s, t, NULL, byover + first[k], matched);
    char *text = xmalloc(s, strlen(s->overs[k].source) + 10);
    if (!where || !text) {
      rg_free(where);
      rg_free(text);
      break;
    }
    sprintf(text, "source \"%s\"", s->overs[k].source);
    if (add_note(s, notes, nnotes, &cap, where, text, text) != 0) break;
  }
  rg_free(first);
  rg_free(byover);
  rg_free(hit);
  rg_free(over);
}

/* ---- tables --------------------------------------------------------------- */

/* Returns whether cell c (an index into m->cells) continues the cell
** before it: a merged cell of the sheet (rgi_cellsrc.merged); without cell
** sources (a hand-built module), any cell may. */
static int merged(const rgi_module *m, uint32_t c) {
  return m->ncellsrc != m->ncells || m->cellsrc[c].merged;
}

/* Returns the cell text: the value (or `|` when same_as_above), then ` *`
** when marked. */
static char *cell_text(sheet *s, rgi_type t, rgi_value v, int same_as_above, int marked) {
  char *text = same_as_above ? xstrdup(s, "|") : fmt(s, t, v), *both;
  if (!text || !marked) return text;
  both = xconcat(s, text, " *");
  rg_free(text);
  return both;
}

/* A run of more than this many rows (or columns) of consecutive integer
** keys whose cells are all equal prints as one row (column) `lo..hi`: a
** table of 2048 x 2048 cells filled by `else` is one line, not 4 million
** `|` (printed sheets merge fewer, so their rows keep a line each). */
enum { FOLD_MIN = 16 };

/* Groups the n positions of display order p of dimension d into spans:
** positions i-1, i with eq[i] set and consecutive integer keys belong to
** one run, and a run longer than FOLD_MIN is one span; any other position
** is a span of its own.  Writes each span's first and last position into
** lo[], hi[]; returns how many. */
static uint32_t spans(const rgi_dim *d, const uint32_t *p, uint32_t n, const unsigned char *eq,
                      uint32_t *lo, uint32_t *hi) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < n;) {
    uint32_t e = i + 1;
    while (e < n && !d->is_enum && eq[e] && p[e] == p[e - 1] + 1) e++;
    if (e - i > FOLD_MIN) {
      lo[k] = i;
      hi[k++] = e - 1;
    } else {
      for (uint32_t j = i; j < e; j++) lo[k] = hi[k] = j, k++;
    }
    i = e;
  }
  return k;
}

/* Returns the key text of positions lo..hi of display order p of d: the
** key, or "first..last". */
static char *span_text(sheet *s, const rgi_module *m, const rgi_dim *d, const uint32_t *p, uint32_t lo,
                       uint32_t hi) {
  char a[256], b[256], both[520];
  key_text(a, sizeof a, m, d, p[lo]);
  if (hi == lo) return xstrdup(s, a);
  key_text(b, sizeof b, m, d, p[hi]);
  snprintf(both, sizeof both, "%s..%s", a, b);
  return xstrdup(s, both);
}

/* A table of two (or more) keys: one grid per combination of the keys
** before the last two, long runs of equal rows and columns folded
** (FOLD_MIN). */
static void print_grid(sheet *s, const rgi_table *t, const unsigned char *mark) {
  const rgi_module *m = s->m;
  const rgi_dim *dr = &m->dims[t->first_dim + t->ndims - 2];
  const rgi_dim *dc = &m->dims[t->first_dim + t->ndims - 1];
  uint32_t block = dr->size * dc->size;
  char kb[256];
  uint32_t *rp = xcalloc(s, dr->size, sizeof *rp), *cp = xcalloc(s, dc->size, sizeof *cp);
  uint32_t *rlo = xcalloc(s, 2 * (size_t)dr->size, sizeof *rlo), *clo = xcalloc(s, 2 * (size_t)dc->size, sizeof *clo);
  unsigned char *eqr = xcalloc(s, dr->size, 1), *eqc = xcalloc(s, dc->size, 1);
  if (!rp || !cp || !rlo || !clo || !eqr || !eqc) goto done;
  uint32_t *rhi = rlo + dr->size, *chi = clo + dc->size;
  key_order(s, t, t->ndims - 2, rp);
  key_order(s, t, t->ndims - 1, cp);
  for (uint32_t b = 0; b * block < t->count && !s->oom; b++) {
    grid g;
    const rgi_value *cells = m->cells + t->first + b * block;
    const unsigned char *mk = mark + b * block;
#define AT(r, c) ((size_t)rp[r] * dc->size + cp[c])
    /* rows (columns) equal to the one before, cell by cell, marks too */
    for (uint32_t r = 1; r < dr->size; r++) {
      eqr[r] = 1;
      for (uint32_t c = 0; c < dc->size && eqr[r]; c++)
        eqr[r] = cells[AT(r, c)] == cells[AT(r - 1, c)] && mk[AT(r, c)] == mk[AT(r - 1, c)];
    }
    for (uint32_t c = 1; c < dc->size; c++) {
      eqc[c] = 1;
      for (uint32_t r = 0; r < dr->size && eqc[c]; r++)
        eqc[c] = cells[AT(r, c)] == cells[AT(r, c - 1)] && mk[AT(r, c)] == mk[AT(r, c - 1)];
    }
    uint32_t nr = spans(dr, rp, dr->size, eqr, rlo, rhi), nc = spans(dc, cp, dc->size, eqc, clo, chi);
    if (t->ndims > 2) {
      /* The leading keys of this block. */
      uint32_t flat = b;
      char line[1024] = "";
      size_t n = 0;
      uint32_t ix[8] = { 0 };
      for (uint32_t j = t->ndims - 2; j-- > 0;) {
        ix[j] = flat % m->dims[t->first_dim + j].size;
        flat /= m->dims[t->first_dim + j].size;
      }
      for (uint32_t j = 0; j + 2 < t->ndims && n < sizeof line; j++) {
        const rgi_dim *d = &m->dims[t->first_dim + j];
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%s = %s", j ? ", " : "",
                              dim_head(m, d), key_text(kb, sizeof kb, m, d, ix[j]));
      }
      rg_printf(s->out, "  %s:\n", line);
    }
    if (grid_init(s, &g, (size_t)nr + 1, (size_t)nc + 1, 1) != 0) break;
    grid_take(&g, 0, 0, xstrdup(s, dim_head(m, dr)));
    for (uint32_t c = 0; c < nc; c++) grid_take(&g, 0, c + 1, span_text(s, m, dc, cp, clo[c], chi[c]));
    for (uint32_t r = 0; r < nr; r++) {
      grid_take(&g, r + 1, 0, span_text(s, m, dr, rp, rlo[r], rhi[r]));
      for (uint32_t c = 0; c < nc; c++) {
        size_t i = AT(rlo[r], clo[c]);
        rgi_value v = cells[i];
        int same = r > 0 && cells[AT(rlo[r - 1], clo[c])] == v &&
                   merged(m, t->first + b * block + (uint32_t)i);
        grid_take(&g, r + 1, c + 1, cell_text(s, t->value, v, same, mk[i]));
      }
    }
#undef AT
    grid_print(s, &g);
    grid_free(&g);
  }
done:
  rg_free(rp);
  rg_free(cp);
  rg_free(rlo);
  rg_free(clo);
  rg_free(eqr);
  rg_free(eqc);
}

/* A table of one key: `key  value` lines, or a grid of records. */
static void print_list(sheet *s, const rgi_table *t, const unsigned char *mark) {
  const rgi_module *m = s->m;
  const rgi_dim *d = &m->dims[t->first_dim];
  const rgi_value *cells = m->cells + t->first;
  char kb[256];
  grid g = { 0 };
  uint32_t *p = xcalloc(s, d->size, sizeof *p);
  if (!p) return;
  key_order(s, t, 0, p);
  if (t->value.kind == RG_K_RECORD && t->value.ref < m->nrecords) {
    const rgi_record *rec = &m->records[t->value.ref];
    if (grid_init(s, &g, t->count + 1, rec->count + 1, 1) == 0) {
      grid_take(&g, 0, 0, xstrdup(s, dim_head(m, d)));
      for (uint32_t k = 0; k < rec->count; k++)
        grid_take(&g, 0, k + 1, xstrdup(s, rgi_module_str(m, m->fields[rec->first + k].name)));
      for (uint32_t r = 0; r < t->count; r++) {
        uint32_t i = p[r];
        rgi_value off = cells[i];
        char *key = xstrdup(s, key_text(kb, sizeof kb, m, d, i));
        if (key && mark[i]) {
          char *k2 = xconcat(s, key, " *");
          rg_free(key);
          key = k2;
        }
        grid_take(&g, r + 1, 0, key);
        for (uint32_t k = 0; k < rec->count; k++) {
          rgi_value v = off >= 0 && (uint64_t)off + rec->count <= m->nheap ? m->heap[off + k] : 0;
          grid_take(&g, r + 1, k + 1, fmt(s, m->fields[rec->first + k].type, v));
        }
      }
      grid_print(s, &g);
    }
  } else {
    /* Plain values: a run of equal cells over consecutive integer keys folds
    ** into one lo..hi line. */
    uint32_t rows = 0, r = 0;
#define FOLDS(j) (!d->is_enum && p[j] == p[(j) - 1] + 1 && cells[p[j]] == cells[p[(j) - 1]] && \
                  mark[p[j]] == mark[p[(j) - 1]] && merged(m, t->first + p[j]))
    for (uint32_t j = 0; j < t->count; j++)
      if (j == 0 || !FOLDS(j)) rows++;
    if (grid_init(s, &g, rows, 2, 0) == 0) {
      for (uint32_t j = 0; j < t->count; r++) {
        uint32_t e = j + 1, i = p[j];
        char range[128];
        while (e < t->count && FOLDS(e)) e++;
        if (e - j > 1)
          snprintf(range, sizeof range, "%lld..%lld", (long long)(d->lo + i),
                   (long long)(d->lo + p[e - 1]));
        else
          key_text(range, sizeof range, m, d, i);
        grid_take(&g, r, 0, xstrdup(s, range));
        grid_take(&g, r, 1, cell_text(s, t->value, cells[i], 0, mark[i]));
        j = e;
      }
      grid_print(s, &g);
    }
#undef FOLDS
  }
  grid_free(&g);
  rg_free(p);
}

/* Prints table ti: title, layout, assumptions. */
static void print_table(sheet *s, uint32_t ti) {
  const rgi_module *m = s->m;
  const rgi_table *t = &m->tables[ti];
  unsigned char *mark = xcalloc(s, t->count, 1);
  tnote *notes = NULL;
  size_t nnotes = 0;
  int whole = 0;
  char buf[256];
  if (!mark) return;
  if (s->src) table_notes(s, t, mark, &notes, &nnotes, &whole);
  rg_printf(s->out, "%s(", rgi_module_str(m, t->name));
  for (uint32_t k = 0; k < t->ndims; k++)
    rg_printf(s->out, "%s%s", k ? ", " : "", rgi_dim_name(buf, sizeof buf, m, &m->dims[t->first_dim + k]));
  rg_printf(s->out, ") -> %s%s\n", rgi_type_name(buf, sizeof buf, m, t->value), whole ? " *" : "");
  if (t->ndims >= 2) print_grid(s, t, mark);
  else print_list(s, t, mark);
  for (size_t i = 0; i < nnotes; i++) {
    rg_printf(s->out, "  * %s: %s\n", notes[i].where, notes[i].text);
    rg_free(notes[i].where);
    rg_free(notes[i].text_own);
  }
  rg_free(notes);
  rg_free(mark);
}

/* The named constants, with their assumptions. */
static void print_constants(sheet *s) {
  const rgi_module *m = s->m;
  int any = 0;
  grid g;
  for (uint32_t i = 0; i < m->nnamed && !any; i++)
    for (const rgi_assumption *a = s->assumptions; a; a = a->next)
      if (a->what && strncmp(a->what, "const ", 6) == 0 &&
          strcmp(a->what + 6, rgi_module_str(m, m->named[i].name)) == 0)
        any = 1;
  rg_puts(s->out, "Constants\n");
  if (grid_init(s, &g, m->nnamed + 1, any ? 3 : 2, 1) != 0) return;
  grid_take(&g, 0, 0, xstrdup(s, "name"));
  grid_take(&g, 0, 1, xstrdup(s, "value"));
  if (any) grid_take(&g, 0, 2, xstrdup(s, "assumed"));
  for (uint32_t i = 0; i < m->nnamed; i++) {
    const rgi_named *c = &m->named[i];
    const char *name = rgi_module_str(m, c->name);
    char *v = fmt(s, c->type, c->value);
    if (v && c->starred) {
      char *v2 = xconcat(s, v, "*");
      rg_free(v);
      v = v2;
    }
    grid_take(&g, i + 1, 0, xstrdup(s, name));
    grid_take(&g, i + 1, 1, v);
    if (!any) continue;
    for (const rgi_assumption *a = s->assumptions; a; a = a->next)
      if (a->what && strncmp(a->what, "const ", 6) == 0 && strcmp(a->what + 6, name) == 0) {
        char *prev = g.cell[(i + 1) * g.ncols + 2];
        char *text = prev ? xconcat(s, prev, "; ") : xstrdup(s, "");
        char *all = text ? xconcat(s, text, a->text ? a->text : "") : NULL;
        rg_free(text);
        grid_take(&g, i + 1, 2, all);
      }
  }
  grid_print(s, &g);
  grid_free(&g);
}

/* The strategies of the rules (what `--policy NAME` answers with), each
** with the text that says how it plays. */
static void print_strategies(sheet *s) {
  const rgi_module *m = s->m;
  grid g;
  rg_puts(s->out, "Strategies (regula run, sim or odds --policy NAME)\n");
  if (grid_init(s, &g, m->nstrategies + 1, 2, 1) != 0) return;
  grid_take(&g, 0, 0, xstrdup(s, "name"));
  grid_take(&g, 0, 1, xstrdup(s, "how it plays"));
  for (uint32_t i = 0; i < m->nstrategies; i++) {
    grid_take(&g, i + 1, 0, xstrdup(s, rgi_module_str(m, m->strategies[i].name)));
    grid_take(&g, i + 1, 1, xstrdup(s, rgi_module_str(m, m->strategies[i].doc)));
  }
  grid_print(s, &g);
  grid_free(&g);
}

/* Orders cell overrides by file, then line (qsort). */
static int over_cmp(const void *x, const void *y) {
  const cellover *a = x, *b = y;
  if (a->file != b->file) return a->file < b->file ? -1 : 1;
  return a->line < b->line ? -1 : a->line > b->line;
}

/* Fills s->overs with the cell overrides (`override TABLE[keys] = value`)
** of the compile's rule files, read again from their text. */
static void find_overrides(sheet *s) {
  rgi_arena arena;
  rgi_diag d;
  size_t cap = 0;
  rgi_arena_init(&arena, 0);
  rgi_diag_init(&d, &arena, NULL, NULL);
  for (uint32_t f = 0; f < s->src->nfiles && !s->oom; f++) {
    const rgi_file *file = s->src->files[f];
    size_t n = strlen(file->path);
    uint32_t index;
    if (n < 6 || strcmp(file->path + n - 6, ".rules") != 0) continue;
    if (rgi_diag_add_text(&d, file->path, file->text, file->len, &index) != 0) break;
    rgi_ast_file *ast = rgi_parse(&d, index, &arena);
    for (const rgi_decl *dc = ast ? ast->decls : NULL; dc && !s->oom; dc = dc->next) {
      if (dc->kind != RG_DE_CELL || !dc->name) continue;
      const char *source = NULL;
      for (const rgi_note *nt = dc->notes; nt; nt = nt->next)
        if (!nt->assumed && !source) source = nt->text;
      if (s->nover == cap) {
        size_t nc = cap ? 2 * cap : 8;
        cellover *v = rg_realloc(s->overs, nc * sizeof *v);
        if (!v) { s->oom = 1; break; }
        s->overs = v;
        cap = nc;
      }
      cellover *o = &s->overs[s->nover];
      o->file = f;
      o->line = dc->pos.line;
      o->table = xstrdup(s, dc->name);
      o->source = source ? xstrdup(s, source) : NULL;
      s->nover++;
    }
  }
  if (arena.failed || d.oom) s->oom = 1;
  rgi_arena_free(&arena);
  if (s->nover > 1) qsort(s->overs, s->nover, sizeof *s->overs, over_cmp);
}

/* Frees s->overs. */
static void free_overrides(sheet *s) {
  for (size_t k = 0; k < s->nover; k++) {
    rg_free(s->overs[k].table);
    rg_free(s->overs[k].source);
  }
  rg_free(s->overs);
  s->overs = NULL;
  s->nover = 0;
}

int rgi_sheet_print(rg_out *out, const rgi_module *m, const rgi_diag *src,
                   const rgi_assumption *assumptions, const char *const *names, int n) {
  sheet sh = { out, m, src, assumptions, 0, NULL, 0 }, *s = &sh;
  int first = 1;
  if (src) find_overrides(s);
  if (m->name) {
    rg_printf(s->out, "%s", rgi_module_str(m, m->name));
    if (m->revision) rg_printf(s->out, ", revision %s", rgi_module_str(m, m->revision));
    if (m->source) rg_printf(s->out, ", from %s", rgi_module_str(m, m->source));
    rg_putc(s->out, '\n');
    first = 0;
  }
  if (!src) {
    rg_puts(s->out, "(a compiled module keeps no assumptions: none are marked)\n");
    first = 0;
  }
  if (n) {
    for (int i = 0; i < n && !s->oom; i++) {
      int ti = rgi_module_find_table(m, names[i]);
      if (ti < 0) continue;
      if (!first) rg_putc(s->out, '\n');
      print_table(s, (uint32_t)ti);
      first = 0;
    }
  } else {
    for (uint32_t i = 0; i < m->ntables && !s->oom; i++) {
      if (!first) rg_putc(s->out, '\n');
      print_table(s, i);
      first = 0;
    }
    if (m->nnamed && !s->oom) {
      if (!first) rg_putc(s->out, '\n');
      print_constants(s);
      first = 0;
    }
    if (m->nstrategies && !s->oom) {
      if (!first) rg_putc(s->out, '\n');
      print_strategies(s);
    }
  }
  free_overrides(s);
  return s->oom ? -1 : 0;
}

int rgi_sheet_print_table(rg_out *out, const rgi_module *m, const char *name) {
  sheet sh = { out, m, NULL, NULL, 0, NULL, 0 };
  int ti = rgi_module_find_table(m, name);
  if (ti < 0) return 1;
  print_table(&sh, (uint32_t)ti);
  return sh.oom ? -1 : 0;
}
