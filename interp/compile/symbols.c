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
*/
#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "parse.h"
#include "regula.h"

#include <ctype.h>
#include <string.h>

/* The walk over one compile's files. */
typedef struct walk {
  rg_diag *d;
  const rg_loader *ld;
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
                 const char *container, rg_pos pos, const rg_note *notes, const char *tsv) {
  rg_symbol s;
  size_t len = 0;
  const char *line = rg_diag_line(w->d, pos.file, pos.line, &len);
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
  if (line && kind != RG_SYMBOL_STEP && kind != RG_SYMBOL_TEST && kind != RG_SYMBOL_NOTE)
    s.byte_col = name_col(line, len, pos.col, s.name);
  for (const rg_note *n = notes; n; n = n->next)
    if (n->assumed) {
      s.assumed = n->text;
      break;
    }
  w->fn(w->ctx, &s);
}

/* Emits the steps and the notes of the statements in the list s (in
** procedure proc), nested blocks included. */
static void walk_stmts(walk *w, const rg_stmt *s, const char *proc) {
  for (; s; s = s->next) {
    if (s->kind == RG_ST_STEP) emit(w, RG_SYMBOL_STEP, s->str, NULL, proc, s->pos, s->notes, NULL);
    for (const rg_note *n = s->notes; n; n = n->next)
      if (n->assumed) emit(w, RG_SYMBOL_NOTE, n->text, NULL, proc, n->pos, NULL, NULL);
    walk_stmts(w, s->body, proc);
    walk_stmts(w, s->orelse, proc);
  }
}

/* Emits every `assumed` note of the list notes (on container). */
static void walk_notes(walk *w, const rg_note *notes, const char *container) {
  for (const rg_note *n = notes; n; n = n->next)
    if (n->assumed) emit(w, RG_SYMBOL_NOTE, n->text, NULL, container, n->pos, NULL, NULL);
}

/* Returns the resolved path of the TSV file `from` names in the file being
** indexed, or NULL when the loader cannot find it (not reported). */
static const char *tsv_path(walk *w, const char *from, rg_pos at) {
  uint32_t idx;
  rg_diagnostic_fn report = w->d->report;
  const char *path = NULL;
  (void)at;
  w->d->report = NULL;         /* a missing TSV is the compile's to report: kept */
  if (rg_diag_fetch(w->d, w->ld, w->d->files[w->file]->path, from, RG_LOAD_TABLE, NULL,
                    &idx) == 0)
    path = w->d->files[idx]->path;
  w->d->report = report;
  return path;
}

/* Emits the declarations of the parsed file ast. */
static void walk_file(walk *w, const rg_ast_file *ast) {
  static const rg_symbol_kind kinds[] = {
    [RG_DE_UNIT] = RG_SYMBOL_UNIT, [RG_DE_ENUM] = RG_SYMBOL_ENUM,
    [RG_DE_RECORD] = RG_SYMBOL_RECORD, [RG_DE_CONST] = RG_SYMBOL_CONST,
    [RG_DE_TABLE] = RG_SYMBOL_TABLE, [RG_DE_PROC] = RG_SYMBOL_PROCEDURE,
    [RG_DE_TEST] = RG_SYMBOL_TEST, [RG_DE_DICE] = RG_SYMBOL_DICE, [RG_DE_DECK] = RG_SYMBOL_DECK,
    [RG_DE_INPUT] = RG_SYMBOL_INPUT, [RG_DE_STRATEGY] = RG_SYMBOL_STRATEGY,
    [RG_DE_DISPLAY] = RG_SYMBOL_DISPLAY,
  };
  for (const rg_decl *dc = ast->decls; dc; dc = dc->next) {
    const char *tsv = NULL;
    if (dc->kind == RG_DE_STEP) {
      emit(w, RG_SYMBOL_STEP, dc->name, NULL, dc->target, dc->pos, dc->notes, NULL);
      walk_stmts(w, dc->body, dc->target);
      continue;
    }
    if (dc->kind == RG_DE_EXTEND) {  /* new members of the base's enum */
      for (const rg_member *m = dc->members; m; m = m->next) {
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
    for (const rg_member *m = dc->members; m; m = m->next) {
      emit(w, RG_SYMBOL_MEMBER, m->code, m->display, dc->name, m->pos, m->notes, NULL);
      walk_notes(w, m->notes, dc->name);
    }
    for (const rg_field *f = dc->fields; f; f = f->next)
      emit(w, RG_SYMBOL_FIELD, f->name, NULL, dc->name, f->pos, NULL, NULL);
    for (const rg_cell *c = dc->cells; c; c = c->next) walk_notes(w, c->notes, dc->name);
    for (const rg_cell *c = dc->cell_notes; c; c = c->next) walk_notes(w, c->notes, dc->name);
    walk_stmts(w, dc->body, dc->name);
  }
}

rg_status rg_rules_symbols(const char *name, const char *text, size_t len,
                           const rg_compile_options *opt, rg_symbol_fn fn, void *ctx) {
  rg_arena arena;
  rg_diag d;
  walk w;
  uint32_t file;
  rg_status st = RG_OK;
  rg_arena_init(&arena, 0);
  rg_diag_init(&d, &arena, opt ? opt->diagnostic : NULL, opt ? opt->diagnostic_ctx : NULL);
  w.d = &d;
  w.ld = opt && opt->loader ? opt->loader : &rg_file_loader;
  w.fn = fn;
  w.ctx = ctx;
  if (rg_diag_add_text(&d, name, text ? text : "", len, &file) != 0) {
    st = d.oom ? RG_NOMEM : RG_BAD_RULES;
  } else {
    for (int depth = 0; depth < 16; depth++) {
      const rg_ast_file *ast = rg_parse(&d, file, &arena);
      const char *base;
      if (!ast) {
        st = RG_NOMEM;
        break;
      }
      w.file = file;
      walk_file(&w, ast);
      if (!ast->header || !(base = ast->header->extends)) break;
      if (rg_diag_fetch(&d, w.ld, d.files[file]->path, base, RG_LOAD_RULES,
                        &ast->header->extends_pos, &file) != 0)
        break;
    }
  }
  if (arena.failed) st = RG_NOMEM;
  rg_arena_free(&arena);
  return st;
}
