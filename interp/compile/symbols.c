/*
** symbols.c: the declarations of a rule file and of the rule sets it
** extends, with their positions (rg_rules_symbols in regula.h), for tools
** that edit rule files: the language server's hover, definitions,
** completion and outline.
**
** From the syntax trees, not from a compiled module: a module keeps no
** positions of declarations, and an editor needs the index of a file that
** does not compile yet.  Each file is parsed (syntax errors go to the
** caller's diagnostic callback; the declarations that parse are indexed);
** `extends` is followed through the loader, up to 16 files, the file
** itself first; a table's TSV file is asked of the loader for its path.
** The same walk finds the uses of names (rg_rules_uses): in expressions and
** types, and what `override` and `remove` name, for references.
*/
#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "parse.h"
#include "regula_front.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The walk over one compile's files. */
typedef struct walk {
  rgi_diag *d;
  const rg_loader *ld;
  rgi_arena *arena;          /* for the names of cells (ROW) */
  uint32_t file;            /* the file being indexed */
  rg_symbol_fn fn;
  void *ctx;
} walk;

/* Returns the 1-based byte column of the first whole-word occurrence of
** name in line[0..len) at or after column col (a declaration's position is
** its keyword's: `const x`), or col when there is none. */
static uint32_t name_col(const char *line, size_t len, uint32_t col, const char *name) {
  size_t n = strlen(name);
  for (size_t i = col ? col - 1 : 0; n && i + n <= len; i++) {
    int before = i == 0 || !(line[i - 1] == '_' || isalnum((unsigned char)line[i - 1]));
    int after = i + n == len || !(line[i + n] == '_' || isalnum((unsigned char)line[i + n]));
    if (before && after && memcmp(line + i, name, n) == 0) return (uint32_t)i + 1;
  }
  return col;
}

/* Hands symbol kind/name at pos to the callback, with its container, its
** notes (the first `assumed` one's text) and, for a table from a TSV, the
** file's resolved path. */
static void emit(walk *w, rg_symbol_kind kind, const char *name, const char *display,
                 const char *container, rgi_pos pos, const rgi_note *notes, const char *tsv) {
  rg_symbol s;
  size_t len = 0;
  const char *line = rgi_diag_line(w->d, pos.file, pos.line, &len);
  memset(&s, 0, sizeof s);
  s.kind = kind;
  s.name = name ? name : "";
  s.display = display;
  s.container = container;
  s.path = w->d->files[pos.file]->path;
  s.line = pos.line;
  s.byte_col = pos.col;
  s.source_line = line;
  s.source_len = len;
  s.tsv = tsv;
  if (line && kind != RG_SYMBOL_TEST && kind != RG_SYMBOL_NOTE && kind != RG_SYMBOL_ROW)
    s.byte_col = name_col(line, len, pos.col, s.name);
  for (const rgi_note *n = notes; n; n = n->next)
    if (n->assumed) {
      s.assumed = n->text;
      break;
    }
  w->fn(w->ctx, &s);
}

/* Emits the steps and the notes of the statements in the list s (in
** procedure proc), nested blocks included. */
static void walk_stmts(walk *w, const rgi_stmt *s, const char *proc) {
  for (; s; s = s->next) {
    if (s->kind == RG_ST_STEP) emit(w, RG_SYMBOL_STEP, s->str, NULL, proc, s->pos, s->notes, NULL);
    if (s->kind == RG_ST_RULE) emit(w, RG_SYMBOL_RULE, s->str, NULL, proc, s->pos, s->notes, NULL);
    for (const rgi_note *n = s->notes; n; n = n->next)
      if (n->assumed) emit(w, RG_SYMBOL_NOTE, n->text, NULL, proc, n->pos, NULL, NULL);
    walk_stmts(w, s->body, proc);
    walk_stmts(w, s->orelse, proc);
  }
}

/* Emits every `assumed` note of the list notes (on container). */
static void walk_notes(walk *w, const rgi_note *notes, const char *container) {
  for (const rgi_note *n = notes; n; n = n->next)
    if (n->assumed) emit(w, RG_SYMBOL_NOTE, n->text, NULL, container, n->pos, NULL, NULL);
}

/* Returns the resolved path of the TSV file `from` names in the file being
** indexed, or NULL when the loader cannot find it (not reported). */
static const char *tsv_path(walk *w, const char *from, rgi_pos at) {
  uint32_t idx;
  rg_diagnostic_fn report = w->d->report;
  const char *path = NULL;
  (void)at;
  w->d->report = NULL;         /* a missing TSV is the compile's to report: kept */
  if (rgi_diag_fetch(w->d, w->ld, w->d->files[w->file]->path, from, RG_LOAD_TABLE, NULL,
                    &idx) == 0)
    path = w->d->files[idx]->path;
  w->d->report = report;
  return path;
}

/* Returns the keys of a cell as written, joined by ", " ("10, Standard",
** "3..5, _"), in arena a; NULL when memory runs out. */
static const char *row_name(rgi_arena *a, const rgi_keypat *k) {
  size_t n = 1;
  char *out, *w;
  for (const rgi_keypat *p = k; p; p = p->next)
    n += (p->name ? strlen(p->name) : 0) + (p->enum_name ? strlen(p->enum_name) + 1 : 0) + 48;
  if (!(out = rgi_arena_alloc(a, n))) return NULL;
  w = out;
  for (const rgi_keypat *p = k; p; p = p->next) {
    size_t left = n - (size_t)(w - out);
    int m;
    if (p != k) {
      memcpy(w, ", ", 2);
      w += 2;
      left -= 2;
    }
    switch (p->kind) {
    case RG_KP_NAME:
      m = snprintf(w, left, "%s%s%s", p->enum_name ? p->enum_name : "", p->enum_name ? "." : "",
                   p->name);
      break;
    case RG_KP_STR: m = snprintf(w, left, "\"%s\"", p->name); break;
    case RG_KP_INT: m = snprintf(w, left, "%lld", (long long)p->lo); break;
    case RG_KP_RANGE: m = snprintf(w, left, "%lld..%lld", (long long)p->lo, (long long)p->hi); break;
    default: m = snprintf(w, left, "_"); break;
    }
    w += m > 0 && (size_t)m < left ? (size_t)m : 0;
  }
  *w = '\0';
  return out;
}

/* Emits the declarations of the parsed file ast. */
static void walk_file(walk *w, const rgi_ast_file *ast) {
  static const rg_symbol_kind kinds[] = {
    [RG_DE_UNIT] = RG_SYMBOL_UNIT, [RG_DE_ENUM] = RG_SYMBOL_ENUM,
    [RG_DE_RECORD] = RG_SYMBOL_RECORD, [RG_DE_CONST] = RG_SYMBOL_CONST,
    [RG_DE_TABLE] = RG_SYMBOL_TABLE, [RG_DE_PROC] = RG_SYMBOL_PROCEDURE,
    [RG_DE_TEST] = RG_SYMBOL_TEST, [RG_DE_DICE] = RG_SYMBOL_DICE, [RG_DE_DECK] = RG_SYMBOL_DECK,
    [RG_DE_INPUT] = RG_SYMBOL_INPUT, [RG_DE_STRATEGY] = RG_SYMBOL_STRATEGY,
    [RG_DE_DISPLAY] = RG_SYMBOL_DISPLAY,
  };
  for (const rgi_decl *dc = ast->decls; dc; dc = dc->next) {
    const char *tsv = NULL;
    if (dc->kind == RG_DE_STEP) {
      emit(w, dc->part == RG_ST_RULE ? RG_SYMBOL_RULE : RG_SYMBOL_STEP, dc->name, NULL, dc->target,
           dc->pos, dc->notes, NULL);
      walk_stmts(w, dc->body, dc->target);
      continue;
    }
    if (dc->kind == RG_DE_EXTEND) {  /* new members of the base's enum */
      for (const rgi_member *m = dc->members; m; m = m->next) {
        emit(w, RG_SYMBOL_MEMBER, m->code, m->display, dc->name, m->pos, m->notes, NULL);
        walk_notes(w, m->notes, dc->name);
      }
      walk_notes(w, dc->notes, dc->name);
      continue;
    }
    if ((size_t)dc->kind >= sizeof kinds / sizeof kinds[0] || kinds[dc->kind] == 0)
      continue;                 /* scale, a cell override, remove: no name of their own */
    if (dc->kind == RG_DE_TABLE && dc->from) tsv = tsv_path(w, dc->from, dc->from_pos);
    emit(w, kinds[dc->kind], dc->name, dc->display, NULL, dc->pos, dc->notes, tsv);
    walk_notes(w, dc->notes, dc->name);
    for (const rgi_member *m = dc->members; m; m = m->next) {
      emit(w, RG_SYMBOL_MEMBER, m->code, m->display, dc->name, m->pos, m->notes, NULL);
      walk_notes(w, m->notes, dc->name);
    }
    for (const rgi_field *f = dc->fields; f; f = f->next)
      emit(w, RG_SYMBOL_FIELD, f->name, NULL, dc->name, f->pos, NULL, NULL);
    for (const rgi_cell *c = dc->cells; c; c = c->next) {
      const char *row = c->keys ? row_name(w->arena, c->keys) : NULL;
      if (row) emit(w, RG_SYMBOL_ROW, row, NULL, dc->name, c->pos, c->notes, NULL);
      walk_notes(w, c->notes, dc->name);
    }
    for (const rgi_cell *c = dc->cell_notes; c; c = c->next) walk_notes(w, c->notes, dc->name);
    walk_stmts(w, dc->body, dc->name);
  }
}

/* ---- uses ----------------------------------------------------------------- */

/* Hands the callback a use of name (kind, in container) found as a whole
** word on pos's line at or after column from (1-based; exact: at from
** itself).  Returns the column it was found at. */
static uint32_t use_at(walk *w, rg_symbol_kind kind, const char *name, const char *container,
                       rgi_pos pos, uint32_t from, int exact) {
  rg_symbol s;
  size_t len = 0;
  const char *line = rgi_diag_line(w->d, pos.file, pos.line, &len);
  if (!name || !*name) return from;
  memset(&s, 0, sizeof s);
  s.kind = kind;
  s.name = name;
  s.container = container;
  s.path = w->d->files[pos.file]->path;
  s.line = pos.line;
  s.byte_col = line && !exact ? name_col(line, len, from, name) : from;
  s.source_line = line;
  s.source_len = len;
  s.use = 1;
  w->fn(w->ctx, &s);
  return s.byte_col;
}

/* A use of name at pos (the first whole word name from pos's column). */
static void use(walk *w, rg_symbol_kind kind, const char *name, const char *container, rgi_pos pos) {
  use_at(w, kind, name, container, pos, pos.col, 0);
}

static void uses_expr(walk *w, const rgi_expr *e);

/* The uses in the expressions of the list e (linked by next). */
static void uses_exprs(walk *w, const rgi_expr *e) {
  for (; e; e = e->next) uses_expr(w, e);
}

/* The uses in expression e (not its successors). */
static void uses_expr(walk *w, const rgi_expr *e) {
  if (!e) return;
  switch (e->kind) {
  case RG_EX_NAME: use(w, RG_SYMBOL_NAME, e->name, NULL, e->pos); break;
  case RG_EX_FIELD:
    uses_expr(w, e->a);
    use(w, RG_SYMBOL_NAME, e->name, e->a && e->a->kind == RG_EX_NAME ? e->a->name : NULL,
        e->a && e->a->kind == RG_EX_NAME ? (rgi_pos){ e->pos.file, e->pos.line,
                                                     e->a->pos.col + (uint32_t)strlen(e->a->name) }
                                         : e->pos);
    break;
  case RG_EX_CALL:
    use(w, RG_SYMBOL_PROCEDURE, e->name, NULL, e->pos);
    uses_exprs(w, e->args);
    break;
  case RG_EX_ROLL:
  case RG_EX_DRAW:
    if (e->name) use(w, RG_SYMBOL_NAME, e->name, NULL, e->pos);
    break;
  case RG_EX_RECORD:
    uses_expr(w, e->a);
    for (const rgi_fieldinit *f = e->fields; f; f = f->next) uses_expr(w, f->value);
    break;
  default:
    uses_expr(w, e->a);
    uses_expr(w, e->b);
    uses_exprs(w, e->args);
    break;
  }
}

/* The uses in type t. */
static void uses_type(walk *w, const rgi_typeexpr *t) {
  for (; t; t = t->elem)
    if ((t->kind == RG_TY_NAMED || t->kind == RG_TY_SET) && t->name)
      use(w, RG_SYMBOL_NAME, t->name, NULL, t->pos);
}

/* The uses in the statements of the list s. */
static void uses_stmts(walk *w, const rgi_stmt *s) {
  for (; s; s = s->next) {
    uses_type(w, s->type);
    uses_expr(w, s->e);
    uses_expr(w, s->e2);
    uses_exprs(w, s->args);
    uses_stmts(w, s->body);
    uses_stmts(w, s->orelse);
  }
}

/* The uses in the key patterns of a cell: its members. */
static void uses_keys(walk *w, const rgi_keypat *k) {
  for (; k; k = k->next)
    if (k->kind == RG_KP_NAME) use(w, RG_SYMBOL_MEMBER, k->name, k->enum_name, k->pos);
}

/* The uses in the parsed file ast. */
static void uses_file(walk *w, const rgi_ast_file *ast) {
  for (const rgi_decl *dc = ast->decls; dc; dc = dc->next) {
    if ((dc->kind == RG_DE_STEP || dc->kind == RG_DE_REMOVE) && dc->target) {
      /* override|remove step|rule "NAME" in PROC */
      uint32_t c = use_at(w, dc->part == RG_ST_RULE ? RG_SYMBOL_RULE : RG_SYMBOL_STEP, dc->name,
                          dc->target, dc->pos, dc->pos.col, 0);
      use_at(w, RG_SYMBOL_PROCEDURE, dc->target, NULL, dc->pos,
             c + (uint32_t)strlen(dc->name ? dc->name : ""), 0);
    } else if (dc->kind == RG_DE_REMOVE) {
      use(w, RG_SYMBOL_NAME, dc->name, NULL, dc->pos);
    } else if (dc->kind == RG_DE_CELL) {
      use(w, RG_SYMBOL_TABLE, dc->name, NULL, dc->pos);
      for (const rgi_cell *c = dc->cells; c; c = c->next) {
        const char *row = c->keys ? row_name(w->arena, c->keys) : NULL;
        if (row) use_at(w, RG_SYMBOL_ROW, row, dc->name, c->pos, c->pos.col, 1);
      }
    }
    uses_type(w, dc->type);
    uses_type(w, dc->index);
    for (const rgi_field *f = dc->fields; f; f = f->next) uses_type(w, f->type);
    for (const rgi_param *p = dc->params; p; p = p->next) uses_type(w, p->type);
    for (const rgi_keyspec *k = dc->keys; k; k = k->next)
      if (k->enum_name) use(w, RG_SYMBOL_NAME, k->enum_name, NULL, k->pos);
    uses_expr(w, dc->value);
    for (const rgi_cell *c = dc->cells; c; c = c->next) {
      uses_keys(w, c->keys);
      uses_expr(w, c->value);
    }
    for (const rgi_cell *c = dc->cell_notes; c; c = c->next) uses_keys(w, c->keys);
    for (const rgi_srule *r = dc->srules; r; r = r->next) {
      uses_expr(w, r->who);
      for (const rgi_pickx *k = r->picks; k; k = k->next) uses_expr(w, k->value);
    }
    uses_stmts(w, dc->body);
  }
}

/* ---- the files --------------------------------------------------------------- */

/* Parses the rule file text[0..len) and the rule sets it extends (up to 16
** files, through opt's loader) and hands each file's tree to visit, the
** file itself first.  Returns RG_OK, RG_BAD_RULES (the text cannot be
** added), or RG_NOMEM. */
static rg_status each_file(const char *name, const char *text, size_t len,
                           const rg_compile_options *opt, rg_symbol_fn fn, void *ctx,
                           void (*visit)(walk *, const rgi_ast_file *)) {
  rgi_arena arena;
  rgi_diag d;
  walk w;
  uint32_t file;
  rg_status st = RG_OK;
  rgi_arena_init(&arena, 0);
  rgi_diag_init(&d, &arena, opt ? opt->diagnostic : NULL, opt ? opt->diagnostic_ctx : NULL);
  w.d = &d;
  w.arena = &arena;
  w.ld = opt && opt->loader ? opt->loader : &rg_file_loader;
  w.fn = fn;
  w.ctx = ctx;
  if (rgi_diag_add_text(&d, name, text ? text : "", len, &file) != 0) {
    st = d.oom ? RG_NOMEM : RG_BAD_RULES;
  } else {
    for (int depth = 0; depth < 16; depth++) {
      const rgi_ast_file *ast = rgi_parse(&d, file, &arena);
      const char *base;
      if (!ast) {
        st = RG_NOMEM;
        break;
      }
      w.file = file;
      visit(&w, ast);
      if (!ast->header || !(base = ast->header->extends)) break;
      if (rgi_diag_fetch(&d, w.ld, d.files[file]->path, base, RG_LOAD_RULES,
                        &ast->header->extends_pos, &file) != 0)
        break;
    }
  }
  if (arena.failed) st = RG_NOMEM;
  rgi_arena_free(&arena);
  return st;
}

rg_status rg_rules_symbols(const char *name, const char *text, size_t len,
                           const rg_compile_options *opt, rg_symbol_fn fn, void *ctx) {
  return each_file(name, text, len, opt, fn, ctx, walk_file);
}

rg_status rg_rules_uses(const char *name, const char *text, size_t len,
                        const rg_compile_options *opt, rg_symbol_fn fn, void *ctx) {
  return each_file(name, text, len, opt, fn, ctx, uses_file);
}
