/*
** diff_src.c: the source of changed procedures and steps (see diff.h,
** rgi_diff_sources).
**
** A change list compares code; people read source.  For each procedure or
** step that changed, both sides' rule files are read through a loader and
** parsed (parse.h), the declaration or `step` statement found by name, its
** lines taken from its first line to the brace that closes its block, and
** the two spans compared line by line (indentation set aside, rgi_align): the
** lines that differ, with two of context, become the hunks of a unified
** diff with each side's real line numbers, kept on the change after the
** `source "..."` quotation of an override.
*/
#include "hash.h"
#include "align.h"
#include "regula_front.h"
#include "diag.h"
#include "diff.h"
#include "parse.h"
#include "path.h"

#include <stdio.h>
#include <string.h>

enum { MAXFILES = 32, CONTEXT = 2, MAXLINES = 4096 };

/* The procedures and override steps of a parsed file by name (find_span
** looks each changed procedure up: a walk of every declaration for each
** was quadratic, 84 s for 20,000 changed procedures).  A procedure's key
** is its name; an override step's, its name and its procedure's.  slot
** (open addressing, cap a power of two, 0 empty) holds 1 + the first
** declaration of a key in d; next[i] 1 + the next of d[i]'s key, in the
** file's order.  The srcs' arena owns it all. */
typedef struct dmap {
  const rgi_decl **d;
  uint32_t *next, *slot;
  uint32_t cap, key;
} dmap;

/* The rule files read so far, parsed. */
typedef struct srcs {
  const rg_loader *ld;
  rgi_arena arena;
  rgi_diag diag;
  struct {
    char path[512];             /* normalized */
    uint32_t index;             /* in diag's files */
    rgi_ast_file *ast;           /* NULL: not readable or not parsed */
    dmap map;                   /* of ast (cap 0 when it has none) */
  } f[MAXFILES];
  int n;
} srcs;

/* A span of one side: lines first..last of file index `file` of s->diag. */
typedef struct span {
  int found;
  uint32_t file, first, last;
  const char *quote;            /* the override's `source "..."`, or NULL */
  const char *path;             /* the file as the module names it */
  const rgi_stmt *stmt;          /* a step found inside its procedure, or NULL */
  const rgi_stmt *body;          /* the statements of the block (a procedure's,
                                ** a step's or an override step's) */
} span;

/* Returns whether declaration dc is indexed in a dmap: a procedure, or a
** step (not a rule) of a procedure, named. */
static int mapped(const rgi_decl *dc) {
  return dc->name && (dc->kind == RG_DE_PROC ||
                      (dc->kind == RG_DE_STEP && dc->part != RG_ST_RULE && dc->target));
}

/* Returns the hash of the key (kind, name, target; target NULL for a
** procedure) under key `key` (FNV-1a, then MurmurHash3's finalizer). */
static uint32_t key_hash(int kind, const char *name, const char *target, uint32_t key) {
  uint32_t h = rgi_hash_byte(RGI_HASH_START ^ key, (unsigned char)kind);
  return rgi_hash_mix(rgi_hash_more(rgi_hash_more(h, name), target));
}

/* Whether declaration dc has the key (kind, name, target). */
static int has_key(const rgi_decl *dc, int kind, const char *name, const char *target) {
  return (int)dc->kind == kind && strcmp(dc->name, name) == 0 &&
         (kind == RG_DE_PROC || strcmp(dc->target, target) == 0);
}

/* Returns 1 + the first declaration of map with the key (kind, name,
** target), or 0. */
static uint32_t map_first(const dmap *map, int kind, const char *name, const char *target) {
  if (!map->cap) return 0;
  for (uint32_t i = key_hash(kind, name, target, map->key) & (map->cap - 1); map->slot[i];
       i = (i + 1) & (map->cap - 1))
    if (has_key(map->d[map->slot[i] - 1], kind, name, target)) return map->slot[i];
  return 0;
}

/* Indexes the procedures and override steps of ast into *map (in s's
** arena; cap stays 0 when there are none or memory runs out, and
** find_span then finds nothing in the file, as when it cannot be read). */
static void map_build(srcs *s, const rgi_ast_file *ast, dmap *map) {
  uint32_t n = 0, cap = 16, sum = 0;
  memset(map, 0, sizeof *map);
  for (const rgi_decl *dc = ast->decls; dc; dc = dc->next)
    if (mapped(dc)) {
      if (n == UINT32_MAX / 4) return;
      n++;
      sum = sum * 31u + key_hash(dc->kind, dc->name, dc->kind == RG_DE_STEP ? dc->target : NULL, 0);
    }
  while (cap <= n * 2u) cap *= 2;
  map->d = rgi_arena_alloc(&s->arena, ((size_t)n + 1) * sizeof *map->d);
  map->next = rgi_arena_alloc(&s->arena, ((size_t)n + 1) * sizeof *map->next);
  map->slot = rgi_arena_alloc(&s->arena, (size_t)cap * sizeof *map->slot);
  if (!map->d || !map->next || !map->slot) return;
  n = 0;
  for (const rgi_decl *dc = ast->decls; dc; dc = dc->next)
    if (mapped(dc)) map->d[n++] = dc;
  map->key = sum;
  map->cap = cap;
  /* last to first, each pushed before the others of its key: the file's order */
  for (uint32_t k = n; k-- > 0;) {
    const rgi_decl *dc = map->d[k];
    const char *target = dc->kind == RG_DE_STEP ? dc->target : NULL;
    uint32_t i = key_hash(dc->kind, dc->name, target, map->key) & (cap - 1);
    while (map->slot[i] && !has_key(map->d[map->slot[i] - 1], dc->kind, dc->name, target))
      i = (i + 1) & (cap - 1);
    map->next[k] = map->slot[i];
    map->slot[i] = k + 1;
  }
}

/* Returns the parsed file `path` (read and parsed at the first ask), or NULL
** when it cannot be read or parsed; sets *index to its index in s->diag. */
static rgi_ast_file *file_ast(srcs *s, const char *path, uint32_t *index) {
  char norm[512];
  rgi_path_norm(norm, sizeof norm, path);
  for (int i = 0; i < s->n; i++)
    if (strcmp(s->f[i].path, norm) == 0) {
      *index = s->f[i].index;
      return s->f[i].ast;
    }
  if (s->n == MAXFILES) return NULL;
  int k = s->n++;
  snprintf(s->f[k].path, sizeof s->f[k].path, "%s", norm);
  s->f[k].ast = NULL;
  memset(&s->f[k].map, 0, sizeof s->f[k].map);
  int errors = s->diag.errors;
  if (rgi_diag_fetch(&s->diag, s->ld, NULL, path, RG_LOAD_RULES, NULL, &s->f[k].index) != 0) return NULL;
  rgi_ast_file *ast = rgi_parse(&s->diag, s->f[k].index, &s->arena);
  if (ast && s->diag.errors == errors) {
    s->f[k].ast = ast;
    map_build(s, ast, &s->f[k].map);
  }
  *index = s->f[k].index;
  return s->f[k].ast;
}

/* Returns the statement of kind `kind` (a step or a rule) named `name` in
** list (recursively), or NULL. */
static const rgi_stmt *find_stmt(const rgi_stmt *list, rgi_skind kind, const char *name) {
  for (const rgi_stmt *st = list; st; st = st->next) {
    const rgi_stmt *hit;
    if (st->kind == kind && st->str && strcmp(st->str, name) == 0) return st;
    if (st->body && (hit = find_stmt(st->body, kind, name))) return hit;
    if (st->orelse && (hit = find_stmt(st->orelse, kind, name))) return hit;
  }
  return NULL;
}

/* Returns the first `source "..."` of notes, or NULL. */
static const char *source_of(const rgi_note *notes) {
  for (const rgi_note *n = notes; n; n = n->next)
    if (!n->assumed) return n->text;
  return NULL;
}

/* Returns the line of file f that holds the brace closing the first block
** opened at or after line `from` (strings and # comments skipped), or from
** when there is none. */
static uint32_t block_end(const rgi_file *f, uint32_t from) {
  size_t i = from >= 1 && from <= f->nlines ? f->line_start[from - 1] : f->len;
  int depth = 0, opened = 0, str = 0;
  uint32_t line = from;
  for (; i < f->len; i++) {
    char ch = f->text[i];
    if (ch == '\n') {
      line++;
      continue;
    }
    if (str) {
      if (ch == '\\' && i + 1 < f->len) i++;
      else if (ch == '"') str = 0;
      continue;
    }
    if (ch == '"') str = 1;
    else if (ch == '#') while (i + 1 < f->len && f->text[i + 1] != '\n') i++;
    else if (ch == '{') depth++, opened = 1;
    else if (ch == '}' && --depth == 0 && opened) return line;
  }
  return from;
}

/* Returns the parsed rule file k of module m (NULL when it is not a rule
** file or cannot be read), its index in s->diag in *index. */
static rgi_ast_file *module_file(srcs *s, const rgi_module *m, uint32_t k, uint32_t *index) {
  const char *path = rgi_module_str(m, m->files[k]);
  size_t n = strlen(path);
  if (n < 6 || strcmp(path + n - 6, ".rules") != 0) return NULL;
  return file_ast(s, path, index);
}

/* Sets span sp to the block that starts on line `line` of file `index`
** (path as m names it): to its closing brace. */
static void set_span(srcs *s, span *sp, uint32_t index, const char *path, uint32_t line) {
  sp->found = 1;
  sp->file = index;
  sp->path = path;
  sp->first = line;
  sp->last = block_end(s->diag.files[index], line);
}

/* Returns the map of the parsed file of index `index` in s->diag, or NULL. */
static const dmap *map_of(const srcs *s, uint32_t index) {
  for (int i = 0; i < s->n; i++)
    if (s->f[i].ast && s->f[i].index == index) return &s->f[i].map;
  return NULL;
}

/* Finds in the rule files of m (its own first, then its bases) procedure
** `proc` (step NULL) or its step `step`, an override first, into *sp: the
** first override step of that name of the procedure, else the first
** procedure of the name (that has the step, when one is asked for), each
** through the file's map. */
static void find_span(srcs *s, const rgi_module *m, const char *proc, const char *step, span *sp) {
  uint32_t index;
  memset(sp, 0, sizeof *sp);
  for (int pass = 0; pass < 2 && !sp->found; pass++)
    for (uint32_t k = 0; k < m->nfiles && !sp->found; k++) {
      rgi_ast_file *ast = module_file(s, m, k, &index);
      const dmap *map = ast ? map_of(s, index) : NULL;
      if (!map || (pass == 0 && !step)) continue;
      uint32_t x = pass == 0 ? map_first(map, RG_DE_STEP, step, proc) : map_first(map, RG_DE_PROC, proc, NULL);
      for (; x && !sp->found; x = map->next[x - 1]) {
        const rgi_decl *dc = map->d[x - 1];
        if (pass == 0) {
          set_span(s, sp, index, rgi_module_str(m, m->files[k]), dc->pos.line);
          sp->quote = source_of(dc->notes);
          sp->body = dc->body;
        } else {
          const rgi_stmt *st = step ? find_stmt(dc->body, RG_ST_STEP, step) : NULL;
          if (step && !st) continue;
          set_span(s, sp, index, rgi_module_str(m, m->files[k]), st ? st->pos.line : dc->pos.line);
          sp->stmt = st;
          sp->body = st ? st->body : dc->body;
          sp->quote = !st && dc->is_override ? source_of(dc->notes) : NULL;
        }
      }
    }
}

/* Returns the text of line k of file f without its indentation (len in *n).
** The text has no CR: diag.c turns CRLF into LF and refuses a lone CR. */
static const char *line_at(const rgi_file *f, uint32_t k, size_t *n) {
  size_t a = f->line_start[k - 1], b = k < f->nlines ? f->line_start[k] - 1 : f->len;
  while (a < b && (f->text[a] == ' ' || f->text[a] == '\t')) a++;
  while (b > a && f->text[b - 1] == '\n') b--;
  *n = b - a;
  return f->text + a;
}

/* Writes line k of file f as a line of a hunk: the mark (' ', '-', '+'),
** then the line with `cut` columns of indentation removed (all of it for
** the span's first and last lines, k == edge). */
static void hunk_line(rg_out *o, char mark, const rgi_file *f, uint32_t k, size_t cut, int edge) {
  size_t a = f->line_start[k - 1], b = k < f->nlines ? f->line_start[k] - 1 : f->len, c = 0;
  while (a < b && (edge || c < cut) && (f->text[a] == ' ' || f->text[a] == '\t')) a++, c++;
  if (a == b) rg_printf(o, "%c\n", mark);
  else rg_printf(o, "%c %.*s\n", mark, (int)(b - a), f->text + a);
}

/* How much indentation to cut from the lines inside span x (between its
** first and last lines) so that its body shows 2 columns in. */
static size_t body_cut(const rgi_file *f, const span *x) {
  size_t best = SIZE_MAX;
  for (uint32_t k = x->first + 1; k < x->last; k++) {
    size_t i = f->line_start[k - 1], end = k < f->nlines ? f->line_start[k] - 1 : f->len, c = 0;
    while (i + c < end && (f->text[i + c] == ' ' || f->text[i + c] == '\t')) c++;
    if (i + c < end && c < best) best = c;
  }
  return best == SIZE_MAX || best < 2 ? 0 : best - 2;
}

/* Writes line[0..n) to out with its layout dropped: no spaces at either
** end, every run of spaces and tabs outside a string as one space.
** Returns the length written (at most n). */
static uint32_t collapse(const char *line, uint32_t n, char *out) {
  uint32_t k = 0;
  int in_string = 0, space = 0;
  for (uint32_t i = 0; i < n; i++) {
    char c = line[i];
    if (!in_string && (c == ' ' || c == '\t')) {
      space = 1;
      continue;
    }
    if (space && k > 0) out[k++] = ' ';
    space = 0;
    out[k++] = c;
    if (in_string && c == '\\' && i + 1 < n) {
      out[k++] = line[++i];
      continue;
    }
    if (c == '"') in_string = !in_string;
    else if (c == '#' && !in_string) {   /* a comment: the rest as it is */
      while (++i < n) out[k++] = line[i];
      break;
    }
  }
  return k;
}

/* Returns the length of collapsed line l without a trailing ` source
** "..."` note (the whole length when it has none). */
static size_t sourceless(rgi_span l) {
  static const char tail[] = " source \"";
  size_t n = l.n;
  if (n < sizeof tail || l.s[n - 1] != '"') return n;
  for (size_t i = n - 1; i-- > 0;)                  /* the quotation's opening quote */
    if (l.s[i] == '"' && (i == 0 || l.s[i - 1] != '\\')) {
      size_t k = i + 1;
      if (k >= sizeof tail - 1 && memcmp(l.s + k - (sizeof tail - 1), tail, sizeof tail - 1) == 0)
        return k - (sizeof tail - 1);
      return n;
    }
  return n;
}

/* Writes into o `--- A`, `+++ B` and the hunks of a unified diff of span x
** (side a; NULL: added, every line of y is `+`) and span y (side b; NULL:
** removed, every line of x is `-`), with the files' own line numbers.  The
** two paths are written only before a first hunk: spans that read the same
** write nothing.  pair_first: the spans' first lines pair whatever they say
** (a block and its override; not a procedure whose signature changed).
** Returns 0, or -1 when out of memory. */
static int unified(srcs *s, const span *x, const span *y, int pair_first, rg_out *o) {
  if (!x && !y) return 0;
  if (!x || !y) {
    const span *z = x ? x : y;
    const rgi_file *f = s->diag.files[z->file];
    uint32_t n = z->last - z->first + 1;
    size_t cut = body_cut(f, z);
    rg_printf(o, "--- %s\n+++ %s\n", x ? x->path : "-", y ? y->path : "-");
    if (x) rg_printf(o, "@@ -%u,%u +0,0 @@\n", x->first, n);
    else rg_printf(o, "@@ -0,0 +%u,%u @@\n", y->first, n);
    for (uint32_t k = 0; k < n; k++) hunk_line(o, x ? '-' : '+', f, z->first + k, cut, k == 0 || k == n - 1);
    return 0;
  }
  const rgi_file *fa = s->diag.files[x->file];
  uint32_t na = x->last - x->first + 1;
  const rgi_file *fb = s->diag.files[y->file];
  uint32_t nb = y->last - y->first + 1;
  if (na > MAXLINES || nb > MAXLINES) {
    rg_printf(o, "--- %s\n+++ %s\n", x->path, y->path);
    rg_printf(o, "@@ -%u,%u +%u,%u @@\n(%u and %u lines: too long to compare here)\n", x->first, na,
              y->first, nb, na, nb);
    return 0;
  }
  rgi_span *la = rg_malloc(((size_t)na + nb) * sizeof *la), *lb = la ? la + na : NULL;
  int32_t *match = rg_malloc((size_t)na * sizeof *match);
  if (!la || !match) {
    rg_free(la);
    rg_free(match);
    return -1;
  }
  for (uint32_t k = 0; k < na; k++) la[k].s = line_at(fa, x->first + k, &la[k].n);
  for (uint32_t k = 0; k < nb; k++) lb[k].s = line_at(fb, y->first + k, &lb[k].n);
  /* Lines are compared by their tokens, not their layout: each is read
  ** with its spaces collapsed (a string's kept), into one buffer. */
  size_t total = 1;
  for (uint32_t k = 0; k < na + nb; k++) total += la[k].n;
  char *norm = rg_malloc(total);
  if (!norm) {
    rg_free(la);
    rg_free(match);
    return -1;
  }
  for (uint32_t k = 0, at = 0; k < na + nb; k++) {
    uint32_t n = collapse(la[k].s, la[k].n, norm + at);
    la[k].s = norm + at;
    la[k].n = n;
    at += n;
  }
  /* The first lines pair whatever they say: `step "X" {` of the base and
  ** `override step "X" in main {` are the same step (unless the caller
  ** says a procedure's parameters changed there); so do the last lines,
  ** `}` and `} source "..."` (the quotation is shown above the hunks), but
  ** not when they differ otherwise (`} assumed "..."` that an override
  ** drops). */
  if (pair_first) lb[0] = la[0];
  if (na > 1 && nb > 1 && sourceless(la[na - 1]) == sourceless(lb[nb - 1]) &&
      memcmp(la[na - 1].s, lb[nb - 1].s, sourceless(la[na - 1])) == 0)
    lb[nb - 1] = la[na - 1];
  if (rgi_align(la, na, lb, nb, RG_ALIGN_CAP, match) != 0) {
    rg_free(norm);
    rg_free(la);
    rg_free(match);
    return -1;
  }
  size_t cuta = body_cut(fa, x), cutb = body_cut(fb, y);
  /* Walk both, grouping changes with CONTEXT lines around them into hunks. */
  uint32_t i = 0, j = 0;
  int headed = 0;
  while (i < na || j < nb) {
    if (i < na && match[i] == (int32_t)j) {
      i++, j++;
      continue;
    }
    /* a change starts at (i, j): the hunk starts CONTEXT equal lines back */
    uint32_t back = 0;
    while (back < CONTEXT && back < i && back < j && match[i - back - 1] == (int32_t)(j - back - 1)) back++;
    uint32_t hi = i - back, hj = j - back, ei = i, ej = j;
    /* extend while the next change is within 2 * CONTEXT equal lines */
    for (;;) {
      while (ei < na && match[ei] == RG_ALIGN_NONE) ei++;
      while (ej < nb && (ei >= na || (int32_t)ej < match[ei])) ej++;
      uint32_t eq = 0;
      while (ei + eq < na && ej + eq < nb && match[ei + eq] == (int32_t)(ej + eq)) eq++;
      if ((ei + eq >= na && ej + eq >= nb) || eq > 2 * CONTEXT) {
        uint32_t keep = eq < CONTEXT ? eq : CONTEXT;   /* the context after */
        ei += keep;
        ej += keep;
        break;
      }
      ei += eq;
      ej += eq;
    }
    if (!headed) rg_printf(o, "--- %s\n+++ %s\n", x->path, y->path);
    headed = 1;
    rg_printf(o, "@@ -%u,%u +%u,%u @@\n", x->first + hi, ei - hi, y->first + hj, ej - hj);
    uint32_t p = hi, q = hj;
    while (p < ei || q < ej) {
      if (p < ei && q < ej && match[p] == (int32_t)q) {
        hunk_line(o, ' ', fa, x->first + p, cuta, p == 0 || p == na - 1);
        p++, q++;
      } else if (p < ei && match[p] == RG_ALIGN_NONE) {
        hunk_line(o, '-', fa, x->first + p, cuta, p == 0 || p == na - 1);
        p++;
      } else {
        hunk_line(o, '+', fb, y->first + q, cutb, q == 0 || q == nb - 1);
        q++;
      }
    }
    i = ei;
    j = ej;
  }
  rg_free(norm);
  rg_free(la);
  rg_free(match);
  return 0;
}

/* A `scale` declaration found in a module's rule files. */
typedef struct scale_decl {
  int found;
  int64_t num, den;
  int round;
  uint32_t file, line;          /* the module's file index; the line */
  const char *text;             /* its line, indentation cut (in s's arena) */
} scale_decl;

/* Finds the first `scale` declaration in the rule files of m, in the order
** m lists them (the rule set's own file first), into *sc. */
static void find_scale(srcs *s, const rgi_module *m, scale_decl *sc) {
  memset(sc, 0, sizeof *sc);
  for (uint32_t f = 0; f < m->nfiles && !sc->found; f++) {
    uint32_t index;
    rgi_ast_file *ast = module_file(s, m, f, &index);
    for (const rgi_decl *dc = ast ? ast->decls : NULL; dc; dc = dc->next)
      if (dc->kind == RG_DE_SCALE) {
        size_t len;
        const char *line = line_at(s->diag.files[index], dc->pos.line, &len);
        sc->found = 1;
        sc->num = dc->num;
        sc->den = dc->den;
        sc->round = dc->round;
        sc->file = f;
        sc->line = dc->pos.line;
        sc->text = rgi_arena_strndup(&s->arena, line, len);
        break;
      }
  }
}

/* When the scale of b differs from a's, names it as the cause of the
** constants that follow from other changes (d's RG_DW_CAUSE item of the
** constants), with its place; "and" the other changes when constants of a
** kind that follows were also changed by hand.  Returns 0, or -1 when out
** of memory. */
static int name_scale(srcs *s, rgi_diff *d) {
  scale_decl sa, sb;
  uint32_t head = RG_DIFF_NONE, hand = 0, derived = 0;   /* masks of value kinds */
  for (uint32_t i = 0; i < d->n; i++) {
    const rgi_change *ch = &d->changes[i];
    uint32_t kind = 1u << (ch->a.type.kind < 32 ? ch->a.type.kind : 0);
    if (ch->what == RG_DW_CAUSE && ch->section == RG_DS_CONSTANTS) head = i;
    if (ch->what == RG_DW_CONST) *(ch->derived ? &derived : &hand) |= kind;
  }
  /* Constants changed by hand share the blame only when of a kind that
  ** follows (a text restated does not move a distance). */
  int by_hand = (hand & derived) != 0;
  if (head == RG_DIFF_NONE) return 0;
  find_scale(s, d->a, &sa);
  find_scale(s, d->b, &sb);
  if (!sb.found || !sb.text ||
      (sa.found && sa.num == sb.num && sa.den == sb.den && sa.round == sb.round))
    return 0;
  rg_buf t;
  rg_buf_init(&t);
  rg_printf(&t.out, "%s%s", sb.text, by_hand ? ", and the changes above" : "");
  rgi_change *h = &d->changes[head];
  h->name = t.out.failed ? NULL : rgi_arena_strdup(&d->arena, t.data ? t.data : "");
  rg_buf_free(&t);
  if (!h->name) return -1;
  h->b.file = rgi_module_str(d->b, d->b->files[sb.file]);
  h->b.line = sb.line;
  return 0;
}

/* ---- rules ------------------------------------------------------------ */

/* Where a rule of a procedure is written as one side runs it. */
typedef struct rule_at {
  int state;                    /* 1: present, 2: removed */
  uint32_t file;                /* index in s->diag */
  const char *path;             /* the file as the module names it */
  uint32_t line;                /* the rule's first line, the override's or
                                ** the `remove rule`'s */
  const char *quote;            /* the override's or remove's `source "..."` */
  int over;                     /* given by an override or a remove */
} rule_at;

/* A rule whose two sides differ, waiting to be put into the list after
** change `after`. */
typedef struct rule_change {
  const rgi_stmt *rule;          /* in the procedure both sides declare */
  rule_at a, b;
  uint32_t after;               /* the change it is listed under */
  char *source;                 /* rule_source's text (d's arena), or NULL:
                                ** the two read the same, nothing to list */
  struct rule_change *next;
} rule_change;

/* Sets *r to rule st (written on line st->pos.line of file `file`, `path`)
** of procedure proc as m runs it: the first `override rule` or `remove
** rule` of it in m's files (the rule set's own file first, so the most
** derived), else st itself. */
static void rule_side(srcs *s, const rgi_module *m, const char *proc, const rgi_stmt *st, uint32_t file,
                      const char *path, rule_at *r) {
  uint32_t index;
  memset(r, 0, sizeof *r);
  for (uint32_t k = 0; k < m->nfiles; k++) {
    rgi_ast_file *ast = module_file(s, m, k, &index);
    for (const rgi_decl *dc = ast ? ast->decls : NULL; dc; dc = dc->next)
      if ((dc->kind == RG_DE_STEP || dc->kind == RG_DE_REMOVE) && dc->part == RG_ST_RULE && dc->name &&
          dc->target && strcmp(dc->target, proc) == 0 && strcmp(dc->name, st->str) == 0) {
        r->state = dc->kind == RG_DE_REMOVE ? 2 : 1;
        r->file = index;
        r->path = rgi_module_str(m, m->files[k]);
        r->line = dc->pos.line;
        r->quote = source_of(dc->notes);
        r->over = 1;
        return;
      }
  }
  r->state = 1;
  r->file = file;
  r->path = path;
  r->line = st->pos.line;
}

/* Whether spans x and y are the same block of the same file. */
static int same_place(const span *x, const span *y) {
  char px[1024], py[1024];
  rgi_path_norm(px, sizeof px, x->path);
  rgi_path_norm(py, sizeof py, y->path);
  return strcmp(px, py) == 0 && x->first == y->first;
}

/* Returns the step child of change `proc` of d named `step` (NULL: the
** code before the first step), or proc itself when d lists none. */
static uint32_t step_change(const rgi_diff *d, uint32_t proc, const char *step) {
  for (uint32_t k = proc + 1; k < d->n; k++) {
    const rgi_change *ch = &d->changes[k];
    if (ch->parent != proc || ch->what != RG_DW_STEP) continue;
    if ((ch->name == NULL) == (step == NULL) && (!step || strcmp(ch->name, step) == 0)) return k;
  }
  return proc;
}

/* Walks statements st (recursively; `step` the innermost step around them)
** of procedure change `proc` of d, whose block x both sides share, and
** prepends to *out each rule whose two sides differ (rule_side), to go
** under its step's change (or the procedure's).  Returns 0, or -1 when out
** of memory. */
static int rule_walk(srcs *s, const rgi_diff *d, uint32_t proc, const span *x, const rgi_stmt *st,
                     const char *step, rule_change **out) {
  const char *name = d->changes[proc].name;
  for (; st; st = st->next) {
    if (st->kind == RG_ST_RULE && st->str) {
      rule_at ra, rb;
      rule_side(s, d->a, name, st, x->file, x->path, &ra);
      rule_side(s, d->b, name, st, x->file, x->path, &rb);
      char pa[1024], pb[1024];
      rgi_path_norm(pa, sizeof pa, ra.path);
      rgi_path_norm(pb, sizeof pb, rb.path);
      /* removed on both sides (by two files): no rule to compare */
      if (!(ra.state == 2 && rb.state == 2) &&
          (ra.state != rb.state || ra.line != rb.line || strcmp(pa, pb) != 0)) {
        rule_change *rc = rgi_arena_alloc(&s->arena, sizeof *rc);
        if (!rc) return -1;
        rc->rule = st;
        rc->a = ra;
        rc->b = rb;
        rc->after = step_change(d, proc, step);
        rc->next = *out;
        *out = rc;
      }
    }
    const char *in = st->kind == RG_ST_STEP ? st->str : step;
    if (rule_walk(s, d, proc, x, st->body, in, out) != 0) return -1;
    if (rule_walk(s, d, proc, x, st->orelse, step, out) != 0) return -1;
  }
  return 0;
}

/* Writes into o the source of rule change rc: the quotation of the
** override or remove that made it (b's first), then the rule of side a
** against side b's as hunks.  Returns 0, or -1 when out of memory. */
static int rule_source(srcs *s, const rule_change *rc, rg_out *o) {
  span x, y;
  const char *quote = rc->b.quote ? rc->b.quote : rc->a.quote;
  memset(&x, 0, sizeof x);
  memset(&y, 0, sizeof y);
  if (quote) rg_printf(o, "source \"%s\"\n", quote);
  if (rc->a.state == 1) set_span(s, &x, rc->a.file, rc->a.path, rc->a.line);
  if (rc->b.state == 1) set_span(s, &y, rc->b.file, rc->b.path, rc->b.line);
  return unified(s, rc->a.state == 1 ? &x : NULL, rc->b.state == 1 ? &y : NULL, 1, o);
}

/* Sets side sd of a rule change from r: its place (text NULL: a rule is
** shown by its source). */
static void rule_place(rgi_diff_side *sd, const rule_at *r) {
  sd->file = r->path;
  sd->line = r->line;
}

/* Puts the rule changes of list rcs into d, each after the change it goes
** under (after the ones before it there, in source order), with parents
** and causes renumbered.  Returns 0, or -1 when out of memory (d is then
** unchanged). */
static int insert_rules(srcs *s, rgi_diff *d, rule_change *rcs) {
  uint32_t extra = 0;
  rule_change *rev = NULL;
  for (rule_change *rc = rcs, *next; rc; rc = next) {   /* back to source order */
    next = rc->next;
    rc->next = rev;
    rev = rc;
    /* its source; a rule that reads the same on both sides (written again
    ** elsewhere, token for token) is no change */
    rg_buf t;
    rg_buf_init(&t);
    int failed = rule_source(s, rc, &t.out) != 0 || t.out.failed;
    rc->source = !failed && t.data && strstr(t.data, "\n@@ ") ? rgi_arena_strdup(&d->arena, t.data) : NULL;
    rg_buf_free(&t);
    if (failed || d->arena.failed) return -1;
    if (rc->source) extra++;
  }
  if (!extra) return 0;
  uint32_t n = d->n + extra;
  rgi_change *nc = rg_malloc((size_t)n * sizeof *nc);
  uint32_t *map = rg_malloc(((size_t)d->n + 1) * sizeof *map);
  if (!nc || !map) {
    rg_free(nc);
    rg_free(map);
    return -1;
  }
  uint32_t k = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    uint32_t self = k;
    int placed_a = 0, placed_b = 0;
    map[i] = k;
    nc[k++] = d->changes[i];
    for (rule_change *rc = rev; rc; rc = rc->next) {
      if (rc->after != i || !rc->source) continue;
      /* the step (procedure) is placed, on a side that changed it through
      ** its rules, at its first override there: where the change is written */
      if (rc->b.over && !placed_b) {
        rule_place(&nc[self].b, &rc->b);
        placed_b = 1;
      }
      if (rc->a.over && !placed_a) {
        rule_place(&nc[self].a, &rc->a);
        placed_a = 1;
      }
      rgi_change *ch = &nc[k++];
      memset(ch, 0, sizeof *ch);
      ch->kind = rc->a.state == rc->b.state ? RG_CHANGE_CHANGED
                 : rc->b.state == 2 ? RG_CHANGE_REMOVED : RG_CHANGE_ADDED;
      ch->what = RG_DW_RULE;
      ch->section = RG_DS_PROCEDURES;
      ch->parent = i;               /* renumbered below */
      ch->cause = RG_DIFF_NONE;
      ch->a.index = ch->b.index = RG_DIFF_NONE;
      ch->name = rgi_arena_strdup(&d->arena, rc->rule->str);
      rule_place(&ch->a, &rc->a);
      rule_place(&ch->b, &rc->b);
      ch->source = rc->source;
      if (!ch->name) {
        rg_free(nc);
        rg_free(map);
        return -1;
      }
    }
  }
  map[d->n] = n;
  for (uint32_t i = 0; i < n; i++) {
    rgi_change *ch = &nc[i];
    if (ch->parent != RG_DIFF_NONE && ch->parent < d->n) ch->parent = map[ch->parent];
    if (ch->cause != RG_DIFF_NONE && ch->cause < d->n) ch->cause = map[ch->cause];
  }
  rg_free(d->changes);
  rg_free(map);
  d->changes = nc;
  d->n = d->cap = n;
  return 0;
}

/* ---- places of declarations ------------------------------------------ */

/* Returns the declaration of kind `kind` named `name` in m's rule files,
** the rule set's own file first (an override before what it replaces), its
** file's index in m in *k; NULL when none. */
static const rgi_decl *decl_of(srcs *s, const rgi_module *m, rgi_dkind kind, const char *name, uint32_t *k) {
  uint32_t index;
  for (uint32_t f = 0; f < m->nfiles; f++) {
    rgi_ast_file *ast = module_file(s, m, f, &index);
    for (const rgi_decl *dc = ast ? ast->decls : NULL; dc; dc = dc->next)
      if (dc->kind == kind && dc->name && strcmp(dc->name, name) == 0) {
        *k = f;
        return dc;
      }
  }
  return NULL;
}

/* Sets side sd (of module m) to where declaration `name` of kind `kind` is
** written, or, with member set, its member of that code (an enum's) or its
** field of that name (a record's); leaves sd as it is when not found. */
static void decl_place(srcs *s, const rgi_module *m, rgi_diff_side *sd, rgi_dkind kind, const char *name,
                       const char *member) {
  uint32_t k = 0, index;
  const rgi_decl *dc = name ? decl_of(s, m, kind, name, &k) : NULL;
  uint32_t line = dc ? dc->pos.line : 0;
  if (name && member && kind == RG_DE_ENUM) {
    /* a member: in whichever declaration of that name lists it (an
    ** enum, or one a variant adds members with), the most derived first */
    line = 0;
    for (uint32_t f = 0; f < m->nfiles && !line; f++) {
      rgi_ast_file *ast = module_file(s, m, f, &index);
      for (const rgi_decl *x = ast ? ast->decls : NULL; x && !line; x = x->next) {
        if (!x->name || strcmp(x->name, name) != 0) continue;
        for (const rgi_member *mb = x->members; mb && !line; mb = mb->next)
          if (mb->code && strcmp(mb->code, member) == 0) {
            line = mb->pos.line;
            k = f;
          }
      }
    }
  } else if (dc && member && kind == RG_DE_RECORD) {
    line = 0;
    for (const rgi_field *fd = dc->fields; fd; fd = fd->next)
      if (fd->name && strcmp(fd->name, member) == 0) line = fd->pos.line;
  }
  if (!line) return;
  sd->file = rgi_module_str(m, m->files[k]);
  sd->line = line;
}

/* Sets side sd to the `ruleset` line of m's own file (its first), when
** that file is a rule file that parses. */
static void header_place(srcs *s, const rgi_module *m, rgi_diff_side *sd) {
  uint32_t index;
  rgi_ast_file *ast = m->nfiles ? module_file(s, m, 0, &index) : NULL;
  if (!ast || !ast->header || !ast->header->pos.line) return;
  sd->file = rgi_module_str(m, m->files[0]);
  sd->line = ast->header->pos.line;
}

/* Gives the header's changes, the units, enums and members, records and
** fields, tables, strategies and displays of d the places where each side
** declares them (the module keeps no line for them; a table's is its first
** cell's). */
static void decl_places(srcs *s, rgi_diff *d) {
  for (uint32_t i = 0; i < d->n; i++) {
    rgi_change *ch = &d->changes[i];
    const rgi_change *up = ch->parent < d->n ? &d->changes[ch->parent] : NULL;
    rgi_dkind kind;
    const char *name = ch->name, *member = NULL;
    if (ch->what == RG_DW_HEADER) {   /* the `ruleset` line of each side's own file */
      header_place(s, d->a, &ch->a);
      header_place(s, d->b, &ch->b);
      continue;
    }
    switch (ch->what) {
    case RG_DW_UNIT: kind = RG_DE_UNIT; break;
    case RG_DW_ENUM: kind = RG_DE_ENUM; break;
    case RG_DW_RECORD: kind = RG_DE_RECORD; break;
    case RG_DW_STRATEGY: kind = RG_DE_STRATEGY; break;
    case RG_DW_DISPLAY: kind = RG_DE_DISPLAY; break;
    case RG_DW_TABLE: kind = RG_DE_TABLE; break;
    case RG_DW_MEMBER: kind = RG_DE_ENUM; name = up ? up->name : NULL; member = ch->name; break;
    case RG_DW_FIELD: kind = RG_DE_RECORD; name = up ? up->name : NULL; member = ch->name; break;
    default: continue;
    }
    if (ch->kind != RG_CHANGE_ADDED) decl_place(s, d->a, &ch->a, kind, name, member);
    if (ch->kind != RG_CHANGE_REMOVED) decl_place(s, d->b, &ch->b, kind, name, member);
  }
}

int rgi_diff_sources(rgi_diff *d, const rg_loader *ld) {
  srcs *s = rg_malloc(sizeof *s);
  uint8_t *ruled = d->n ? rg_malloc(d->n) : NULL;   /* & 1: got rules; & 2: has children */
  rule_change *rcs = NULL;
  int rc = 0;
  if (!s || (d->n && !ruled)) {
    rg_free(s);
    rg_free(ruled);
    return -1;
  }
  if (d->n) memset(ruled, 0, d->n);
  memset(s, 0, sizeof *s);
  s->ld = ld ? ld : &rg_file_loader;
  rgi_arena_init(&s->arena, 0);
  rgi_diag_init(&s->diag, &s->arena, NULL, NULL);
  /* The rules an override or a remove changed, in procedures that both
  ** sides declare at the same place: each under its step, or under the
  ** procedure when it is in no step (ruled[]: the changes that get some). */
  for (uint32_t i = 0; i < d->n && rc == 0; i++) {
    const rgi_change *ch = &d->changes[i];
    if (ch->kind != RG_CHANGE_CHANGED || ch->what != RG_DW_PROC || ch->derived) continue;
    span x, y;
    rule_change *before = rcs;
    find_span(s, d->a, ch->name, NULL, &x);
    find_span(s, d->b, ch->name, NULL, &y);
    if (x.found && y.found && same_place(&x, &y) && rule_walk(s, d, i, &x, x.body, NULL, &rcs) != 0)
      rc = -1;
    for (rule_change *r = rcs; r != before; r = r->next) ruled[r->after] |= 1;
  }
  /* ruled[i] & 2: a later change has i as its parent (marked once, not
  ** looked for after each changed procedure: quadratic) */
  for (uint32_t k = 0; k < d->n; k++)
    if (d->changes[k].parent < k) ruled[d->changes[k].parent] |= 2;
  for (uint32_t i = 0; i < d->n && rc == 0; i++) {
    rgi_change *ch = &d->changes[i];
    if (ch->kind != RG_CHANGE_CHANGED || (ch->what != RG_DW_PROC && ch->what != RG_DW_STEP) || ch->derived)
      continue;
    if ((ruled[i] & 1) || (ch->what == RG_DW_PROC && (ruled[i] & 2))) continue;
    if (ch->what == RG_DW_STEP && (!ch->name || ch->parent >= d->n)) continue;
    const char *proc = ch->what == RG_DW_STEP ? d->changes[ch->parent].name : ch->name;
    const char *step = ch->what == RG_DW_STEP ? ch->name : NULL;
    span x, y;
    find_span(s, d->a, proc, step, &x);
    find_span(s, d->b, proc, step, &y);
    if (s->arena.failed || s->diag.oom) rc = -1;   /* not read for want of memory */
    /* the same block on both sides: what changed is not in its text */
    if (rc != 0 || !x.found || !y.found || same_place(&x, &y)) continue;
    rg_buf t;
    rg_buf_init(&t);
    /* the override's quotation, b's first (as a rule's, rule_source): a
    ** revision read backward still names the override it takes away */
    const char *quote = y.quote ? y.quote : x.quote;
    if (quote) rg_printf(&t.out, "source \"%s\"\n", quote);
    /* a procedure's texts are its signatures when they differ (diff.c) */
    int sig = ch->what == RG_DW_PROC && ch->a.text && ch->b.text;
    if (unified(s, &x, &y, !sig, &t.out) != 0) rc = -1;
    if (t.out.failed) rc = -1;
    if (rc == 0 && t.len) {
      ch->source = rgi_arena_strdup(&d->arena, t.data);
      if (!ch->source) rc = -1;
      /* the places of the block replaced: the lines its hunks start from */
      ch->a.file = x.path;
      ch->a.line = x.first;
      ch->b.file = y.path;
      ch->b.line = y.first;
    }
    rg_buf_free(&t);
  }
  if (rc == 0) decl_places(s, d);
  if (rc == 0) rc = insert_rules(s, d, rcs);
  if (rc == 0) rc = name_scale(s, d);
  if (s->arena.failed || s->diag.oom || d->arena.failed) rc = -1;
  rgi_arena_free(&s->arena);
  rg_free(s);
  rg_free(ruled);
  return rc;
}
