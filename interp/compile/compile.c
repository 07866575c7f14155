/*
** compile.c: the checker and code generator (see compile.h).
**
** One pass over the declarations of a parsed rule file, in this order:
**
**   units, enums, records      the vocabulary
**   table and procedure heads  so bodies may refer to anything
**   constants                  folded to values, on first use
**   table cells                flattened, with coverage and overlap checks
**                              (tables.c)
**   procedure and test bodies  type-checked and turned into bytecode
**
** A rule set that extends another is merged into one tree first
** (extends.c).  compile_int.h lists the parts and holds what they share;
** this file is the driver.
**
** Every expression is checked against the type its context wants (a table
** key wants the key's enum, a record field its field's type), which is how a
** bare member name, a display name in quotes, an empty set or a record
** literal learn their type.  An expression in error has the type T_ERR,
** which every later check accepts silently: one mistake, one message.
**
** Module arrays grow with rg_realloc (module.h owns them once built); the
** syntax tree, symbols and scratch space live in the diagnostics' arena.
*/
#include "compile_int.h"
#include "module.h"

#include <string.h>

/* ======================================================================
** The driver
** ==================================================================== */

const char *const rgc_kindname[] = { "unit", "enum", "record", "const", "table",
                                        "procedure", "test", "dice", "deck", "input",
                                        "scale", "cell", "step", "remove",
                                        "strategy", "display", "notes", "extend" };

/* Frees every growable array of cs (after an error, or the rest after
** build_module took them). */
static void free_vecs(cstate *cs) {
#define RG_X(field, count, type) rg_free(cs->field.items); cs->field.items = NULL; cs->field.n = 0;
  RG_MODULE_ARRAYS(RG_X)
#undef RG_X
  rg_free(cs->pool);
  cs->pool = NULL;
}

/* Moves the arrays of cs into m; cs no longer owns them. */
static void build_module(cstate *cs, rgi_module *m) {
#define RG_X(field, count, type) m->field = cs->field.items; m->count = cs->field.n; cs->field.items = NULL;
  RG_MODULE_ARRAYS(RG_X)
#undef RG_X
  m->strings = cs->pool;
  m->nstrings = cs->npool;
  cs->pool = NULL;
  m->name = (uint32_t)cs->name_v;
  m->revision = (uint32_t)cs->revision_v;
  m->source = (uint32_t)cs->source_v;
}

/* Compiles the rule file in source file `file` into m; out of memory
** unwinds past it. */
static int compile_rules(cstate *cs, uint32_t file, rgi_module *m, rgi_assumption **assumptions) {
  rgi_diag *d = cs->d;
  rgi_ast_file *ast;
  int errors0 = d->errors;
  rgc_link chain[MAX_EXTENDS];
  rgc_intern(cs, "");
  ast = rgc_load_rules(cs, file, chain, 0);
  if (!ast) return -1;                  /* syntax errors: the tree is not worth checking */
  if (ast->header) {
    cs->name_v = rgc_intern(cs, ast->header->name ? ast->header->name : "");
    cs->revision_v = ast->header->revision ? rgc_intern(cs, ast->header->revision) : 0;
    cs->source_v = ast->header->source ? rgc_intern(cs, ast->header->source) : 0;
  }

  /* The vocabulary: units, enums, record and constant names. */
  for (rgi_decl *dc = ast->decls; dc; dc = dc->next) {
    switch (dc->kind) {
    case RG_DE_UNIT: rgc_decl_unit(cs, dc); break;
    case RG_DE_ENUM: rgc_decl_enum(cs, dc); break;
    case RG_DE_RECORD: rgc_decl_record(cs, dc); break;
    case RG_DE_SCALE:
      if (dc->num <= 0 || dc->den <= 0 || dc->num > 1000000 || dc->den > 1000000)
        rgc_err(cs, dc->pos, "a scale must be a positive fraction, such as 2/3");
      else if (cs->scale_den != 1 || cs->scale_num != 1 || cs->scale_round)
        rgc_err(cs, dc->pos, "a rule set has one scale");
      else {
        cs->scale_num = dc->num;
        cs->scale_den = dc->den;
        cs->scale_round = dc->round;
      }
      break;
    case RG_DE_CONST: {
      uint32_t en, ix;
      if (rgc_find_member(cs, dc->name, &en, &ix, NULL, 0)) {
        rgc_err(cs, dc->pos, "'%s' is already a member of enum %s; choose another name", dc->name,
            cs->pool + AT(cs->enums, rgi_enum, en).name);
        break;
      }
      rgc_declare(cs, dc, S_CONST);
      break;
    }
    default: break;
    }
    if (dc->kind != RG_DE_TEST)
      rgc_collect_notes(cs, dc->notes, rgc_describe(cs, "%s %s", rgc_kindname[dc->kind], dc->name));
  }
  for (rgi_decl *dc = ast->decls; dc; dc = dc->next)
    if (dc->kind == RG_DE_RECORD) rgc_record_fields(cs, dc);
  for (rgi_decl *dc = ast->decls; dc; dc = dc->next) {
    if (dc->kind == RG_DE_DICE || dc->kind == RG_DE_DECK) rgc_decl_chance(cs, dc);
    else if (dc->kind == RG_DE_INPUT) rgc_decl_input(cs, dc);
  }
  /* Heads of tables and procedures. */
  for (rgi_decl *dc = ast->decls; dc; dc = dc->next) {
    if (dc->kind == RG_DE_TABLE) rgc_decl_table(cs, dc);
    else if (dc->kind == RG_DE_PROC) rgc_decl_proc(cs, dc);
  }
  /* Constants, then table cells, then code.  Constants are kept by name for
  ** diff and sheet, but for lists and records (the verifier refuses them). */
  for (rgi_decl *dc = ast->decls; dc; dc = dc->next)
    if (dc->kind == RG_DE_CONST) {
      sym *s = rgc_lookup(cs, dc->name);
      rgi_value v;
      if (s && s->decl == dc && !rgc_is_err(rgc_const_value(cs, dc->pos, s, &v)) &&
          s->type.kind != RG_K_LIST && s->type.kind != RG_K_RECORD) {
        rgi_named *nm = rgc_push(cs, &cs->named);
        nm->name = rgc_intern(cs, dc->name);
        nm->type = s->type;
        nm->value = v;
        nm->file = dc->pos.file;
        nm->line = dc->pos.line;
        nm->starred = rgc_expr_starred(cs, dc->value, 0);
      }
    }
  for (rgi_decl *dc = ast->decls; dc; dc = dc->next)
    if (dc->kind == RG_DE_TABLE) rgc_table_cells(cs, dc);
  for (rgi_decl *dc = ast->decls; dc; dc = dc->next) {
    if (dc->kind == RG_DE_PROC) {
      sym *s = rgc_lookup(cs, dc->name);
      if (s && s->decl == dc) rgc_proc_body(cs, dc, s->index);
    } else if (dc->kind == RG_DE_TEST) {
      rgc_decl_test(cs, dc);
    }
  }
  /* One default strategy: a file's own replaces its base's (the root file
  ** is file 0, its base 1, ...); two in one file are an error. */
  {
    rgi_decl *chosen = NULL;
    for (rgi_decl *dc = ast->decls; dc; dc = dc->next) {
      if (dc->kind != RG_DE_STRATEGY || !dc->is_default) continue;
      if (chosen && chosen->default_pos.file == dc->default_pos.file) {
        bool later = dc->default_pos.line > chosen->default_pos.line;
        const rgi_decl *a = later ? chosen : dc, *b = later ? dc : chosen;
        rgc_err(cs, b->default_pos, "a second default strategy ('%s'; the first is '%s' at line %u)",
                b->name, a->name, a->default_pos.line);
      } else if (!chosen || dc->default_pos.file < chosen->default_pos.file) {
        chosen = dc;
      }
    }
    for (rgi_decl *dc = ast->decls; dc; dc = dc->next)
      if (dc->kind == RG_DE_STRATEGY && dc != chosen) dc->is_default = false;
  }
  for (rgi_decl *dc = ast->decls; dc; dc = dc->next)
    if (dc->kind == RG_DE_STRATEGY) rgc_decl_strategy(cs, dc);
    else if (dc->kind == RG_DE_DISPLAY) rgc_decl_display(cs, dc);
  /* The files the line table refers to, each as a message quotes a file
  ** name (rg_write_shown: ESC as \x1b): a module's strings are printed,
  ** and hold nothing a terminal acts on. */
  for (uint32_t i = 0; i < d->nfiles; i++) {
    uint32_t *f = rgc_push(cs, &cs->files);
    rg_buf shown;
    rg_buf_init(&shown);
    rg_write_shown(&shown.out, d->files[i]->path, strlen(d->files[i]->path), 0);
    if (shown.out.failed) {
      rg_buf_free(&shown);
      rgc_oom(cs);
    }
    *f = rgc_intern(cs, shown.data ? shown.data : "");
    rg_buf_free(&shown);
  }
  if (d->errors > errors0) return -1;

  build_module(cs, m);
  {
    char msg[256];
    rg_status st = rgi_module_verify(m, msg, sizeof msg);
    if (st != RG_OK) {
      if (st == RG_NOMEM) rgc_oom(cs);
      rgi_error_plain(d, "internal error: the compiled module fails verification: %s", msg);
      rgi_module_free(m);
      return -1;
    }
  }
  if (assumptions) *assumptions = cs->assumed;
  return 0;
}

/* Compiles source file `file` of d (loaded) into m, with the files it
** names from ld: sets up the compiler state, and frees what it built when
** errors or out of memory stop it.  Returns 0 or -1 (rgi_compile_source). */
static int compile_loaded(rgi_diag *d, uint32_t file, const rg_loader *ld, rgi_module *m,
                          rgi_assumption **assumptions) {
  cstate *cs;
  int rc;
  cs = rgi_arena_alloc(d->arena, sizeof *cs);
  if (!cs) { rgi_error_plain(d, "out of memory"); return -1; }
  cs->d = d;
  cs->A = d->arena;
  cs->loader = ld;
  cs->assumed_tail = &cs->assumed;
  cs->scale_num = cs->scale_den = 1;
  cs->memhash.ordered = true;
#define RG_X(field, count, type) cs->field.size = sizeof(type);
  RG_MODULE_ARRAYS(RG_X)
#undef RG_X
  if (setjmp(cs->oom_jmp)) {
    /* The arena's sticky failure flag is how callers tell out of memory
    ** (exit 3) from bad input (exit 2). */
    d->arena->failed = true;
    rgi_error_plain(d, "out of memory");
    free_vecs(cs);
    rgi_module_free(m);
    if (assumptions) *assumptions = NULL;
    return -1;
  }
  rc = compile_rules(cs, file, m, assumptions);
  free_vecs(cs);
  return rc;
}

/* Compiles text (named name) into m; see compile.h.  m owns what it gets. */
int rgi_compile_source(rgi_diag *d, const char *name, const char *text, size_t len,
                      const rg_loader *ld, rgi_module *m, rgi_assumption **assumptions) {
  uint32_t file;
  memset(m, 0, sizeof *m);
  if (assumptions) *assumptions = NULL;
  if (rgi_diag_add_text(d, name, text, len, &file)) return -1;
  return compile_loaded(d, file, ld ? ld : &rg_file_loader, m, assumptions);
}

/* Compiles the file path, found by ld, into m; see compile.h. */
int rgi_compile_path(rgi_diag *d, const char *path, const rg_loader *ld, rgi_module *m,
                    rgi_assumption **assumptions) {
  uint32_t file;
  memset(m, 0, sizeof *m);
  if (assumptions) *assumptions = NULL;
  if (!ld) ld = &rg_file_loader;
  if (rgi_diag_fetch(d, ld, NULL, path, RG_LOAD_RULES, NULL, &file)) return -1;
  return compile_loaded(d, file, ld, m, assumptions);
}

/* Compiles the file path from the disk into m; see compile.h. */
int rgi_compile(rgi_diag *d, const char *path, rgi_module *m, rgi_assumption **assumptions) {
  return rgi_compile_path(d, path, NULL, m, assumptions);
}

