/*
** test_parse.c: unit tests of the front end (lexer.re, parser.y, parse.c).
**
** Each case parses a string and compares either the tree, printed as an
** S-expression by show_*, or the diagnostics, reduced to their first lines
** (`t.rules:LINE:COL: error: MESSAGE`).  Cases are named parse-N.M.
*/
#include "parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "check.h"

/* rg_out's write callback for the FILE *ctx (the diagnostics, rendered). */
static int file_write(void *ctx, const char *s, size_t n) {
  return fwrite(s, 1, n, ctx) == n ? 0 : -1;
}

/* ---- printing the tree ------------------------------------------------ */

static void show_expr(FILE *o, const rgi_expr *e);

static const char *op_name(rgi_op op) {
  static const char *const names[] = {
    "neg", "not", "+", "-", "*", "/", "mod", "==", "!=", "<", "<=", ">", ">=",
    "and", "or", "in"
  };
  return names[op];
}

/* Prints the expressions of a list, each preceded by a space. */
static void show_exprs(FILE *o, const rgi_expr *e) {
  for (; e; e = e->next) { fputc(' ', o); show_expr(o, e); }
}

static void show_str(FILE *o, const char *s) {
  fputc('"', o);
  for (; *s; s++) {
    if (*s == '\n') fputs("\\n", o);
    else if (*s == '\t') fputs("\\t", o);
    else if (*s == '"' || *s == '\\') { fputc('\\', o); fputc(*s, o); }
    else fputc(*s, o);
  }
  fputc('"', o);
}

static void show_expr(FILE *o, const rgi_expr *e) {
  switch (e->kind) {
    case RG_EX_INT: fprintf(o, "%" PRId64, e->ival); break;
    case RG_EX_PERCENT: fprintf(o, "%" PRId64 "%%", e->ival); break;
    case RG_EX_DIST: fprintf(o, "%" PRId64 "/%s%s", e->ival, e->name, e->starred ? "*" : ""); break;
    case RG_EX_STR: show_str(o, e->str); break;
    case RG_EX_BOOL: fputs(e->ival ? "true" : "false", o); break;
    case RG_EX_NAME: fputs(e->name, o); break;
    case RG_EX_UNARY:
      fprintf(o, "(%s ", op_name(e->op)); show_expr(o, e->a); fputc(')', o); break;
    case RG_EX_BINARY:
      fprintf(o, "(%s ", op_name(e->op)); show_expr(o, e->a); fputc(' ', o);
      show_expr(o, e->b); fputc(')', o); break;
    case RG_EX_INDEX:
      fputs("(index ", o); show_expr(o, e->a); show_exprs(o, e->args); fputc(')', o); break;
    case RG_EX_FIELD:
      fputs("(. ", o); show_expr(o, e->a); fprintf(o, " %s)", e->name); break;
    case RG_EX_CALL:
      fprintf(o, "(call %s", e->name); show_exprs(o, e->args); fputc(')', o); break;
    case RG_EX_SET:
      fputs("(set", o); show_exprs(o, e->args); fputc(')', o); break;
    case RG_EX_RECORD:
      fputs("(record", o);
      for (const rgi_fieldinit *f = e->fields; f; f = f->next) {
        fprintf(o, " %s:", f->name); show_expr(o, f->value);
      }
      fputc(')', o); break;
    case RG_EX_LIST: fputs("(list", o); show_exprs(o, e->args); fputc(')', o); break;
    case RG_EX_DICE: fprintf(o, "%" PRId64 "d%" PRId64, e->ival, e->sides); break;
    case RG_EX_ROLL:
      if (e->name) fprintf(o, "(roll %s)", e->name);
      else fprintf(o, "(roll %" PRId64 "d%" PRId64 ")", e->ival, e->sides);
      break;
    case RG_EX_DRAW: fprintf(o, "(draw %s)", e->name); break;
    case RG_EX_ERROR: fputs("<error>", o); break;
  }
}

static void show_type(FILE *o, const rgi_typeexpr *t) {
  switch (t->kind) {
    case RG_TY_INT: fputs("int", o); break;
    case RG_TY_BOOL: fputs("bool", o); break;
    case RG_TY_PERCENT: fputs("percent", o); break;
    case RG_TY_TEXT: fputs("text", o); break;
    case RG_TY_DISTANCE:
      if (t->name) fprintf(o, "distance(%s)", t->name); else fputs("distance", o);
      break;
    case RG_TY_SET: fprintf(o, "set %s", t->name); break;
    case RG_TY_NAMED: fputs(t->name, o); break;
    case RG_TY_LIST: fputs("list ", o); show_type(o, t->elem); break;
  }
}

static void show_notes(FILE *o, const rgi_note *n) {
  for (; n; n = n->next) {
    fprintf(o, " [%s ", n->assumed ? "assumed" : "source"); show_str(o, n->text); fputc(']', o);
  }
}

static void show_stmts(FILE *o, const rgi_stmt *s);

static void show_stmt(FILE *o, const rgi_stmt *s) {
  switch (s->kind) {
    case RG_ST_LET:
      fprintf(o, "(let %s", s->name);
      if (s->type) { fputc(':', o); show_type(o, s->type); }
      fputc(' ', o); show_expr(o, s->e); fputc(')', o); break;
    case RG_ST_ASSIGN: fprintf(o, "(= %s ", s->name); show_expr(o, s->e); fputc(')', o); break;
    case RG_ST_IF:
      fputs("(if ", o); show_expr(o, s->e); fputc(' ', o); show_stmts(o, s->body);
      if (s->orelse) { fputs(" else ", o); show_stmt(o, s->orelse); }
      fputc(')', o); break;
    case RG_ST_FOR:
      fprintf(o, "(for %s ", s->name); show_expr(o, s->e); fputc(' ', o); show_expr(o, s->e2);
      fputc(' ', o); show_stmts(o, s->body); fputc(')', o); break;
    case RG_ST_WHILE:
      fputs("(while ", o); show_expr(o, s->e); fputc(' ', o); show_stmts(o, s->body);
      fputc(')', o); break;
    case RG_ST_RETURN: fputs("(return ", o); show_expr(o, s->e); fputc(')', o); break;
    case RG_ST_NOTE: fputs("(note ", o); show_str(o, s->str); show_exprs(o, s->args); fputc(')', o); break;
    case RG_ST_EXPECT: fputs("(expect ", o); show_expr(o, s->e); fputc(')', o); break;
    case RG_ST_CALL: fputs("(do ", o); show_expr(o, s->e); fputc(')', o); break;
    case RG_ST_BLOCK: show_stmts(o, s->body); break;
    case RG_ST_FOREACH:
      fprintf(o, "(foreach %s ", s->name); show_expr(o, s->e); fputc(' ', o);
      show_stmts(o, s->body); fputc(')', o); break;
    case RG_ST_SETITEM:
      fprintf(o, "(set %s ", s->name); show_expr(o, s->e); fputc(' ', o); show_expr(o, s->e2);
      fputc(')', o); break;
    case RG_ST_STEP:
      fputs("(step ", o); show_str(o, s->str); fputc(' ', o); show_stmts(o, s->body);
      fputc(')', o); break;
    case RG_ST_RULE:
      fputs("(rule ", o); show_str(o, s->str); fputc(' ', o); show_stmts(o, s->body);
      show_notes(o, s->notes); fputc(')', o); break;
  }
}

/* Prints a statement list as {s1 s2 ...}. */
static void show_stmts(FILE *o, const rgi_stmt *s) {
  fputc('{', o);
  for (; s; s = s->next) { show_stmt(o, s); if (s->next) fputc(' ', o); }
  fputc('}', o);
}

static void show_keypat(FILE *o, const rgi_keypat *k) {
  switch (k->kind) {
    case RG_KP_NAME: if (k->enum_name) fprintf(o, "%s.", k->enum_name); fputs(k->name, o); break;
    case RG_KP_STR: show_str(o, k->name); break;
    case RG_KP_INT: fprintf(o, "%" PRId64, k->lo); break;
    case RG_KP_RANGE: fprintf(o, "%" PRId64 "..%" PRId64, k->lo, k->hi); break;
    case RG_KP_ANY: fputc('_', o); break;
  }
}

static void show_decl(FILE *o, const rgi_decl *d) {
  switch (d->kind) {
    case RG_DE_UNIT:
      fprintf(o, "(unit %s", d->name);
      if (d->display) { fputc(' ', o); show_str(o, d->display); }
      break;
    case RG_DE_ENUM:
      fprintf(o, "(enum %s %s", d->name, d->ordered ? "<" : ",");
      for (const rgi_member *m = d->members; m; m = m->next) {
        fprintf(o, " %s", m->code);
        if (m->display) { fputc('=', o); show_str(o, m->display); }
        show_notes(o, m->notes);
      }
      break;
    case RG_DE_RECORD:
      fprintf(o, "(record %s", d->name);
      for (const rgi_field *f = d->fields; f; f = f->next) {
        fprintf(o, " %s:", f->name); show_type(o, f->type);
      }
      break;
    case RG_DE_CONST:
      fprintf(o, "(const %s", d->name);
      if (d->type) { fputc(':', o); show_type(o, d->type); }
      fputc(' ', o); show_expr(o, d->value);
      break;
    case RG_DE_DICE: case RG_DE_DECK:
      fprintf(o, "(%s %s:", d->kind == RG_DE_DICE ? "dice" : "deck", d->name);
      show_type(o, d->type);
      for (const rgi_cell *c = d->cells; c; c = c->next) {
        fputs(" [", o); show_keypat(o, c->keys); fputs(": ", o); show_expr(o, c->value); fputc(']', o);
      }
      break;
    case RG_DE_INPUT:
      fprintf(o, "(input %s:", d->name); show_type(o, d->type); fputc(' ', o); show_expr(o, d->value);
      break;
    case RG_DE_STRATEGY:
      fprintf(o, "(strategy %s", d->name);
      if (d->display) { fputc(' ', o); show_str(o, d->display); }
      for (const rgi_srule *r = d->srules; r; r = r->next) {
        fputs(" (", o); show_str(o, r->prompt);
        if (r->who) { fputs(" for ", o); show_expr(o, r->who); }
        for (const rgi_pickx *x = r->picks; x; x = x->next) {
          fputc(' ', o);
          if (x->word) fprintf(o, "%s:%s", x->word, x->field);
          else show_expr(o, x->value);
        }
        fputc(')', o);
      }
      break;
    case RG_DE_DISPLAY:
      fprintf(o, "(display %s ", d->name); show_str(o, d->display);
      for (const rgi_dlinex *x = d->dlines; x; x = x->next) {
        fputc(' ', o);
        if (x->kind == 0) show_str(o, x->text);
        else if (x->kind == 1) {
          fprintf(o, "(table %s", x->text);
          for (const rgi_dcolx *c = x->cols; c; c = c->next) fprintf(o, " %s", c->name);
          fputc(')', o);
        } else {
          fprintf(o, "(list %s", x->text);
          if (x->form) { fputc(' ', o); show_str(o, x->form); }
          fputc(')', o);
        }
      }
      break;
    case RG_DE_SCALE:
      fprintf(o, "(scale %" PRId64 "/%" PRId64 " round %d", d->num, d->den, d->round);
      break;
    case RG_DE_EXTEND:
      fprintf(o, "(extend %s", d->name);
      for (const rgi_member *m = d->members; m; m = m->next) {
        fprintf(o, " %s", m->code);
        if (m->display) { fputc('=', o); show_str(o, m->display); }
        if (m->anchor) fprintf(o, " %s %s", m->before ? "before" : "after", m->anchor);
        show_notes(o, m->notes);
      }
      break;
    case RG_DE_CELL:
      if (d->cells->from) {
        fprintf(o, "(cells %s from ", d->name);
        show_str(o, d->cells->from);
        break;
      }
      fprintf(o, "(cell %s [", d->name);
      for (const rgi_keypat *k = d->cells->keys; k; k = k->next) {
        show_keypat(o, k); if (k->next) fputc(',', o);
      }
      fputs("] ", o); show_expr(o, d->cells->value);
      break;
    case RG_DE_STEP:
      fprintf(o, "(%s \"%s\" in %s ", d->part == RG_ST_RULE ? "rule" : "step", d->name, d->target);
      show_stmts(o, d->body);
      break;
    case RG_DE_REMOVE:
      fprintf(o, "(remove %s%s", d->part == RG_ST_RULE ? "rule " : "", d->name);
      if (d->target) fprintf(o, " in %s", d->target);
      break;
    case RG_DE_NOTES:
      fprintf(o, "(notes %s", d->name);
      break;
    case RG_DE_TABLE:
      fprintf(o, "(table %s (", d->name);
      for (const rgi_keyspec *k = d->keys; k; k = k->next) {
        if (k->name) fprintf(o, "%s:", k->name);
        if (k->enum_name) fputs(k->enum_name, o);
        else fprintf(o, "%" PRId64 "..%" PRId64, k->lo, k->hi);
        if (k->next) fputc(' ', o);
      }
      fputs(") ", o); show_type(o, d->type);
      if (d->from) { fputs(" from ", o); show_str(o, d->from); }
      for (const rgi_cell *c = d->cells; c; c = c->next) {
        fputs(" [", o);
        if (!c->keys) fputs("else", o);
        for (const rgi_keypat *k = c->keys; k; k = k->next) {
          show_keypat(o, k); if (k->next) fputc(',', o);
        }
        fputs(": ", o); show_expr(o, c->value); show_notes(o, c->notes); fputc(']', o);
      }
      break;
    case RG_DE_PROC:
      fprintf(o, "(procedure %s (", d->name);
      for (const rgi_param *p = d->params; p; p = p->next) {
        fprintf(o, "%s:", p->name); show_type(o, p->type); if (p->next) fputc(' ', o);
      }
      fputc(')', o);
      if (d->type) { fputs(" -> ", o); show_type(o, d->type); }
      fputc(' ', o); show_stmts(o, d->body);
      break;
    case RG_DE_TEST:
      fputs("(test ", o); show_str(o, d->name); fputc(' ', o); show_stmts(o, d->body);
      break;
  }
  show_notes(o, d->notes);
  fputc(')', o);
}

/* ---- running the parser ----------------------------------------------- */

typedef struct result {
  char *tree;           /* the declarations, one per line (malloc) */
  char *errors;         /* the first line of each diagnostic (malloc) */
  int nerrors;
  rgi_ast_file *ast;
} result;

/* Parses src as the file "t.rules"; fills r.  The arena is freed by the
** caller (r->ast points into it). */
static void run(rgi_arena *arena, const char *src, size_t len, result *r) {
  rgi_diag d;
  uint32_t ix;
  char *diag = NULL, *tree = NULL;
  size_t dn = 0, tn = 0;
  FILE *dout = open_memstream(&diag, &dn);
  FILE *tout = open_memstream(&tree, &tn);
  memset(r, 0, sizeof *r);
  rg_out dsink = { file_write, dout, 0 };
  rgi_diag_init(&d, arena, rg_diagnostic_print, &dsink);
  if (rgi_diag_add_text(&d, "t.rules", src, len, &ix) == 0) {
    r->ast = rgi_parse(&d, ix, arena);
    if (r->ast) {
      if (r->ast->header) {
        fprintf(tout, "(ruleset ");
        show_str(tout, r->ast->header->name);
        if (r->ast->header->revision) { fputs(" revision ", tout); show_str(tout, r->ast->header->revision); }
        if (r->ast->header->source) { fputs(" source ", tout); show_str(tout, r->ast->header->source); }
        fputs(")\n", tout);
      }
      for (const rgi_decl *x = r->ast->decls; x; x = x->next) {
        show_decl(tout, x);
        fputc('\n', tout);
      }
    }
  }
  fclose(dout);
  fclose(tout);
  r->nerrors = d.errors;
  r->tree = tree;
  /* Keep only the message lines: drop the source line and the caret. */
  {
    char *w = diag, *line = diag;
    while (line && *line) {
      char *nl = strchr(line, '\n');
      size_t n = nl ? (size_t)(nl - line + 1) : strlen(line);
      if (strncmp(line, "t.rules:", 8) == 0 || strncmp(line, "regula:", 7) == 0) {
        memmove(w, line, n);
        w += n;
      }
      line += n;
    }
    if (diag) *w = '\0';
  }
  r->errors = diag;
}

static void check(const char *name, const char *what, const char *got, const char *want) {
  if (strcmp(got ? got : "", want) == 0) { passed++; return; }
  failed++;
  printf("FAIL %s: %s\n--- want\n%s--- got\n%s---\n", name, what, want, got ? got : "");
}

/* Parses src and checks its tree and that there are no errors. */
static void tree_case(const char *name, const char *src, const char *want) {
  rgi_arena a;
  result r;
  rgi_arena_init(&a, 0);
  run(&a, src, strlen(src), &r);
  check(name, "diagnostics", r.errors, "");
  check(name, "tree", r.tree, want);
  free(r.tree);
  free(r.errors);
  rgi_arena_free(&a);
}

/* Parses src (len bytes) and checks the diagnostics' first lines; when
** want_tree is not NULL, checks the (partial) tree as well. */
static void error_case_n(const char *name, const char *src, size_t len, const char *want,
                         const char *want_tree) {
  rgi_arena a;
  result r;
  rgi_arena_init(&a, 0);
  run(&a, src, len, &r);
  check(name, "diagnostics", r.errors, want);
  if (want_tree) check(name, "tree", r.tree, want_tree);
  free(r.tree);
  free(r.errors);
  rgi_arena_free(&a);
}

static void error_case(const char *name, const char *src, const char *want) {
  error_case_n(name, src, strlen(src), want, NULL);
}

/* Like error_case, and checks the tree that is left. */
static void error_tree_case(const char *name, const char *src, const char *want,
                            const char *want_tree) {
  error_case_n(name, src, strlen(src), want, want_tree);
}

/* Checks the token dump of src. */
static void token_case(const char *name, const char *src, const char *want) {
  rgi_arena a;
  rgi_diag d;
  uint32_t ix;
  char *diag = NULL;
  size_t dn = 0;
  FILE *dout = open_memstream(&diag, &dn);
  rg_buf toks;
  rg_buf_init(&toks);
  rgi_arena_init(&a, 0);
  rg_out dsink = { file_write, dout, 0 };
  rgi_diag_init(&d, &a, rg_diagnostic_print, &dsink);
  if (rgi_diag_add_text(&d, "t.rules", src, strlen(src), &ix) == 0)
    rgi_dump_tokens(&d, ix, &a, &toks.out);
  fclose(dout);
  check(name, "diagnostics", diag, "");
  check(name, "tokens", toks.data ? toks.data : "", want);
  free(diag);
  rg_buf_free(&toks);
  rgi_arena_free(&a);
}

/* ---- the cases -------------------------------------------------------- */

static void test_tokens(void) {
  token_case("parse-1.1", "6BW 6BW* 2.5BW 12\" 10HBW 0.125in 3\"*",
    "1:1 DIST 6BW =6000/1000 BW\n"
    "1:5 DIST 6BW* =6000/1000 BW *\n"
    "1:10 DIST 2.5BW =2500/1000 BW\n"
    "1:16 DIST 12\" =12000/1000 in\n"
    "1:20 DIST 10HBW =10000/1000 HBW\n"
    "1:26 DIST 0.125in =125/1000 in\n"
    "1:34 DIST 3\"* =3000/1000 in *\n");
  token_case("parse-1.2", "40% 0% 7 0..14 -2",
    "1:1 PCT 40% =40\n1:5 PCT 0% =0\n1:8 INTEGER 7 =7\n"
    "1:10 INTEGER 0 =0\n1:11 '..' ..\n1:13 INTEGER 14 =14\n"
    "1:16 '-' -\n1:17 INTEGER 2 =2\n");
  token_case("parse-1.3", "d6 2d6 D6 d10x",
    "1:1 DICE d6 =1d6\n1:4 DICE 2d6 =2d6\n1:8 DICE D6 =1d6\n1:11 NAME d10x =[d10x]\n");
  token_case("parse-1.4", "Défenseur _ _x x_1 über ÉTÉ",
    "1:1 NAME Défenseur =[Défenseur]\n1:12 '_' _\n1:14 NAME _x =[_x]\n"
    "1:17 NAME x_1 =[x_1]\n1:21 NAME über =[über]\n1:27 NAME ÉTÉ =[ÉTÉ]\n");
  /* A decomposed é (e + U+0301) is composed to NFC before lexing. */
  token_case("parse-1.5", "De\xCC\x81" "fense",
    "1:1 NAME Défense =[Défense]\n");
  token_case("parse-1.6", "\"a\\\"b\\\\c\\nd\\te\" \"\" \"é\"",
    "1:1 STRING \"a\\\"b\\\\c\\nd\\te\" =[a\"b\\c\nd\te]\n"
    "1:17 STRING \"\" =[]\n1:20 STRING \"é\" =[é]\n");
  token_case("parse-1.7", "a # comment\n  in ->..->.= == != <= >= < > + - * / mod",
    "1:1 NAME a =[a]\n2:3 'in' in\n2:6 '->' ->\n2:8 '..' ..\n2:10 '->' ->\n"
    "2:12 '.' .\n2:13 '=' =\n2:15 '==' ==\n2:18 '!=' !=\n2:21 '<=' <=\n"
    "2:24 '>=' >=\n2:27 '<' <\n2:29 '>' >\n2:31 '+' +\n2:33 '-' -\n2:35 '*' *\n"
    "2:37 '/' /\n2:39 'mod' mod\n");
  token_case("parse-1.8", "enum enumx dice deck repeat extends 9223372036854775807",
    "1:1 'enum' enum\n1:6 NAME enumx =[enumx]\n1:12 'dice' dice\n1:17 'deck' deck\n"
    "1:22 NAME repeat =[repeat]\n1:29 'extends' extends\n1:37 INTEGER 9223372036854775807 =9223372036854775807\n");
  /* CRLF and a BOM are accepted; the input may end inside a token. */
  token_case("parse-1.9", "\xEF\xBB\xBFunit\r\nBW", "1:1 'unit' unit\n2:1 NAME BW =[BW]\n");
}

static void test_trees(void) {
  tree_case("tree-v3.variants",
    "ruleset \"M\" extends \"base.rules\"\nscale * = 2/3 round up\noverride const a = 2 source \"s\"\n"
    "override w[1, S] = Snow source \"t\"\noverride step \"Go\" in main { note \"x\" } source \"u\"\n"
    "remove step \"Camps\" in main source \"v\"\nremove old_table source \"w\"\n",
    "(ruleset \"M\")\n(scale 2/3 round 1)\n(const a 2 [source \"s\"])\n(cell w [1,S] Snow [source \"t\"])\n"
    "(step \"Go\" in main {(note \"x\")} [source \"u\"])\n(remove Camps in main [source \"v\"])\n"
    "(remove old_table [source \"w\"])\n");
  /* override NAME with notes alone; `override w[...] = ...` is still a cell */
  tree_case("tree-v6.notes",
    "ruleset \"M\" extends \"base.rules\"\noverride weather assumed \"a\" source \"s\"\n"
    "override w[1, S] = Snow source \"t\"\n",
    "(ruleset \"M\")\n(notes weather [assumed \"a\"] [source \"s\"])\n(cell w [1,S] Snow [source \"t\"])\n");
  tree_case("tree-v4.rules",
    "procedure p() { step \"S\" { rule \"ties\" assumed \"a\" { let t = 1 } rule \"hook\" {} } }\n"
    "override rule \"ties\" in p { let t = 2 } source \"s\"\nremove rule \"hook\" in p source \"t\"\n",
    "(procedure p () {(step \"S\" {(rule \"ties\" {(let t 1)} [assumed \"a\"]) (rule \"hook\" {})})})\n"
    "(rule \"ties\" in p {(let t 2)} [source \"s\"])\n(remove rule hook in p [source \"t\"])\n");
  tree_case("tree-v6.extend",
    "extend enum terrain { Oasis \"Oasis\" after Wadi, Salt before Hills assumed \"a\", Reef } source \"s\"\n"
    "override terrain from \"new.tsv\" source \"t\"\nconst up = +2\ntable m(k: -1..+1) -> int { +1: +10% }\n",
    "(extend terrain Oasis=\"Oasis\" after Wadi Salt before Hills [assumed \"a\"] Reef [source \"s\"])\n"
    "(cells terrain from \"new.tsv\" [source \"t\"])\n(const up 2)\n(table m (k:-1..1) int [1: 10%])\n");
  tree_case("tree-v2.dice", "dice RED: face = { hit: 2, blank: 4 }\n",
    "(dice RED:face [hit: 2] [blank: 4])\n");
  tree_case("tree-v2.deck", "deck bag: colour = { BLACK: 8, RED: 6, }\n",
    "(deck bag:colour [BLACK: 8] [RED: 6])\n");
  tree_case("tree-v2.input", "input a_cards: int = 6\n", "(input a_cards:int 6)\n");
  tree_case("tree-v5.display",
            "display r \"Card\" {\n  \"a {x}\"\n  table t: p, q\n  list l\n  list m shown \"{p}\"\n}\n",
            "(display r \"Card\" \"a {x}\" (table t p q) (list l) (list m \"{p}\"))\n");
  tree_case("tree-v5.strategy",
            "strategy s \"doc\" {\n  \"a?\": x, max card\n  \"b?\" for A: 2, first\n}\n",
            "(strategy s \"doc\" (\"a?\" x max:card) (\"b?\" for A 2 first))\n");
  tree_case("tree-v2.list-type", "record r { l: list list int }\n", "(record r l:list list int)\n");
  tree_case("tree-v2.chance", "procedure p() { let a = roll 2d6 let b = roll RED let c = draw bag "
    "let d = rolls(n, d6) let e = [] let f = [1, a] }\n",
    "(procedure p () {(let a (roll 2d6)) (let b (roll RED)) (let c (draw bag)) "
    "(let d (call rolls n 1d6)) (let e (list)) (let f (list 1 a))})\n");
  tree_case("tree-v2.choose-step-foreach", "procedure p() { step \"S\" { for x in l { let c = choose(x, \"?\", {A}) } } }\n",
    "(procedure p () {(step \"S\" {(foreach x l {(let c (call choose x \"?\" (set A)))})})})\n");
  tree_case("parse-2.1",
    "ruleset \"MeG\" revision \"2020\" source \"003.txt\"\n"
    "unit BW \"base width\"\nunit in \"inch\" source \"p. 3\"\n",
    "(ruleset \"MeG\" revision \"2020\" source \"003.txt\")\n"
    "(unit BW \"base width\")\n(unit in \"inch\" [source \"p. 3\"])\n");
  tree_case("parse-2.2",
    "enum colour { BLACK < WHITE < GREEN }\n"
    "enum ground { S \"Standard\" assumed \"why\", C \"Coastal\" source \"p\" source \"q\", D }\n"
    "  assumed \"whole enum\"\n"
    "enum one { A }",
    "(enum colour < BLACK WHITE GREEN)\n"
    "(enum ground , S=\"Standard\" [assumed \"why\"] C=\"Coastal\" [source \"p\"] [source \"q\"] D [assumed \"whole enum\"])\n"
    "(enum one , A)\n");
  tree_case("parse-2.3",
    "record terrain_info { grounds: set ground, going: going, visibility: text,\n"
    "  d: distance, e: distance(HBW), f: distance(in), p: percent, b: bool, i: int }",
    "(record terrain_info grounds:set ground going:going visibility:text "
    "d:distance e:distance(HBW) f:distance(in) p:percent b:bool i:int)\n");
  tree_case("parse-2.4",
    "const max_days = 5\nconst sector_width: distance = 10BW*\nconst flanks = {S, C}\n"
    "const none = {}\nconst r: info = { grounds: {S}, going: Rough, visibility: \"x\" }",
    "(const max_days 5)\n(const sector_width:distance 10000/BW*)\n(const flanks (set S C))\n"
    "(const none (set))\n(const r:info (record grounds:(set S) going:Rough visibility:\"x\"))\n");
  tree_case("parse-2.5",
    "table scouting(colour) -> percent { RED: 40%, YELLOW: 20% assumed \"a\", else: 0%, }",
    "(table scouting (colour) percent [RED: 40%] [YELLOW: 20% [assumed \"a\"]] [else: 0%])\n");
  tree_case("parse-2.6",
    "table weather(score: 0..14, t: ground) -> weather {\n"
    "  0..1, D: DustStorms, _, Winter: -2, ground.S, \"Coastal\": Fog, -3..-1, _: x\n}",
    "(table weather (score:0..14 t:ground) weather [0..1,D: DustStorms] "
    "[_,Winter: (neg 2)] [ground.S,\"Coastal\": Fog] [-3..-1,_: x])\n");
  tree_case("parse-2.7",
    "table w(m: -3..3, colour) -> info from \"tables/meg/w.tsv\" source \"sheet\"",
    "(table w (m:-3..3 colour) info from \"tables/meg/w.tsv\" [source \"sheet\"])\n");
  tree_case("parse-2.8",
    "procedure better(a: colour, b: colour) -> int {\n  return abs(ord(a) - ord(b))\n}\n"
    "procedure p() { }",
    "(procedure better (a:colour b:colour) -> int {(return (call abs (- (call ord a) (call ord b))))})\n"
    "(procedure p () {})\n");
  tree_case("parse-2.9",
    "procedure w(t: ground, s: season) -> weather {\n"
    "  let score = clamp(7 + season_mod[s], 0, 14)\n"
    "  let d: distance = 6BW\n"
    "  if score == 0 and t == D { note \"dust\" } else { note \"score\", score, t }\n"
    "  for i in 1..n - 1 { score = score + i f(i) }\n"
    "  while not done(score) { log() }\n"
    "  if a { } else if b { x = 1 } else { x = 2 }\n"
    "  return weather[score, t]\n}",
    "(procedure w (t:ground s:season) -> weather {"
    "(let score (call clamp (+ 7 (index season_mod s)) 0 14)) "
    "(let d:distance 6000/BW) "
    "(if (and (== score 0) (== t D)) {(note \"dust\")} else {(note \"score\" score t)}) "
    "(for i 1 (- n 1) {(= score (+ score i)) (do (call f i))}) "
    "(while (not (call done score)) {(do (call log))}) "
    "(if a {} else (if b {(= x 1)} else {(= x 2)})) "
    "(return (index weather score t))})\n");
  tree_case("parse-2.10",
    "test \"scouting\" { expect scouting[RED] == 40% expect a.b.c != ground.S }",
    "(test \"scouting\" {(expect (== (index scouting RED) 40%)) "
    "(expect (!= (. (. a b) c) (. ground S)))})\n");
  /* Precedence: or < and < not < comparisons < + - < * / mod < unary - < postfix. */
  tree_case("parse-2.11",
    "const a = x or y and not b == c + d * -e[1] mod f\n"
    "const b = not a in s or -x.y - 2 / 3\n"
    "const c = (a + b) * c - d - e\n"
    "const d = a < b and c >= d and e <= f and g > h\n",
    "(const a (or x (and y (not (== b (+ c (mod (* d (neg (index e 1))) f)))))))\n"
    "(const b (or (not (in a s)) (- (neg (. x y)) (/ 2 3))))\n"
    "(const c (- (- (* (+ a b) c) d) e))\n"
    "(const d (and (and (and (< a b) (>= c d)) (<= e f)) (> g h)))\n");
  /* Declarations may come in any order; comments and line breaks are free. */
  tree_case("parse-2.12",
    "# a comment\nconst\n  x\n  =\n  1 # trailing\nunit BW", "(const x 1)\n(unit BW)\n");
  tree_case("parse-2.13", "", "");
  tree_case("parse-2.14", "const s = \"Standard\"\nconst m = {\"Standard\", ground.C}",
    "(const s \"Standard\")\n(const m (set \"Standard\" (. ground C)))\n");
}

/* Positions: every node carries its first token's position. */
static void test_positions(void) {
  rgi_arena a;
  result r;
  const char *src =
    "enum e { A, B }\n"
    "procedure p(x: int) -> int {\n"
    "  let y = x + 1\n"
    "  return -y\n"
    "}\n"
    "table t(e) -> int { A: 1,\n   else: 2 }\n";
  rgi_arena_init(&a, 0);
  run(&a, src, strlen(src), &r);
  check("parse-3.1", "diagnostics", r.errors, "");
  if (r.ast && r.ast->decls && r.ast->decls->next && r.ast->decls->next->next) {
    const rgi_decl *e = r.ast->decls, *p = e->next, *t = p->next;
    const rgi_stmt *let = p->body, *ret = let->next;
    char buf[512];
    snprintf(buf, sizeof buf,
             "enum %u:%u B %u:%u proc %u:%u param %u:%u type %u:%u let %u:%u "
             "+ %u:%u 1 %u:%u return %u:%u neg %u:%u y %u:%u cell %u:%u else %u:%u",
             e->pos.line, e->pos.col, e->members->next->pos.line, e->members->next->pos.col,
             p->pos.line, p->pos.col, p->params->pos.line, p->params->pos.col,
             p->type->pos.line, p->type->pos.col, let->pos.line, let->pos.col,
             let->e->pos.line, let->e->pos.col, let->e->b->pos.line, let->e->b->pos.col,
             ret->pos.line, ret->pos.col, ret->e->pos.line, ret->e->pos.col,
             ret->e->a->pos.line, ret->e->a->pos.col,
             t->cells->pos.line, t->cells->pos.col,
             t->cells->next->pos.line, t->cells->next->pos.col);
    check("parse-3.1", "positions", buf,
          "enum 1:1 B 1:13 proc 2:1 param 2:13 type 2:24 let 3:3 + 3:11 1 3:15 "
          "return 4:3 neg 4:10 y 4:11 cell 6:21 else 7:4");
  } else {
    check("parse-3.1", "tree", "missing", "present");
  }
  free(r.tree);
  free(r.errors);
  rgi_arena_free(&a);

  /* Two parses in one process are independent. */
  {
    rgi_arena a1, a2;
    result r1, r2;
    rgi_arena_init(&a1, 0);
    rgi_arena_init(&a2, 0);
    run(&a1, "const a = $", 11, &r1);
    run(&a2, "const b = 2", 11, &r2);
    check("parse-3.2", "first", r1.errors, "t.rules:1:11: error: unexpected character '$'\n");
    check("parse-3.2", "second", r2.errors, "");
    check("parse-3.2", "second tree", r2.tree, "(const b 2)\n");
    free(r1.tree); free(r1.errors); free(r2.tree); free(r2.errors);
    rgi_arena_free(&a1);
    rgi_arena_free(&a2);
  }
}

static void test_errors(void) {
  error_case("parse-4.1", "const x = 1 $ 2",
    "t.rules:1:13: error: unexpected character '$'\n");
  error_case("parse-4.2", "const x = \"abc\nconst y = 2",
    "t.rules:1:11: error: unterminated string\n");
  error_case("parse-4.3", "const x = \"abc",
    "t.rules:1:11: error: unterminated string\n");
  error_case("parse-4.4", "enum e { A, B",
    "t.rules:1:14: error: unexpected end of file\n");
  error_case("parse-4.5", "enum e { A, B < C, D }",
    "t.rules:1:15: error: enum members are separated by ',' and by '<'; "
    "use ',' throughout (unordered) or '<' throughout (ordered)\n");
  error_case("parse-4.6", "enum e { A < B, C }",
    "t.rules:1:15: error: enum members are separated by '<' and by ','; "
    "use ',' throughout (unordered) or '<' throughout (ordered)\n");
  error_case("parse-4.7", "const x = 99999999999999999999",
    "t.rules:1:11: error: integer literal too large\n");
  error_case("parse-4.8", "const x = \"a\\qb\"",
    "t.rules:1:13: error: unknown escape '\\q' in string (use \\\" \\\\ \\n \\t)\n");
  error_case("parse-4.9", "const x = 2.5",
    "t.rules:1:11: error: a decimal number needs a unit (as in 2.5BW)\n");
  error_case("parse-4.10", "const x = 2.5%",
    "t.rules:1:11: error: a percentage is a whole number\n");
  error_case("parse-4.11", "const x = 1.2345BW",
    "t.rules:1:11: error: distance '1.2345BW' has more than 3 decimal places\n");
  error_case("parse-4.12", "const x = a < b < c",
    "t.rules:1:17: error: syntax error near \"<\"\n");
  error_case("parse-4.13", "const x = a == b in s",
    "t.rules:1:18: error: syntax error near \"in\"\n");
  error_case("parse-4.14", "procedure p() { return }",
    "t.rules:1:24: error: syntax error near \"}\"\n");
  error_case("parse-4.15", "procedure p() { x + 1 }",
    "t.rules:1:19: error: syntax error near \"+\"\n");
  error_case("parse-4.16", "procedure p() { a.b = 1 }",
    "t.rules:1:18: error: syntax error near \".\"\n");
  error_case("parse-4.17", "const enum = 1",
    "t.rules:1:7: error: syntax error near \"enum\"\n");
  error_case("parse-4.18", "unit BW\nruleset \"x\"",
    "t.rules:2:1: error: the ruleset header must come first\n");
  error_case("parse-4.19", "ruleset \"x\"\nruleset \"y\"",
    "t.rules:2:1: error: a file has one ruleset header\n");
  error_case("parse-4.20", "const x = 1\n\nprocedure p() {\n  let = 2\n}\n",
    "t.rules:4:7: error: syntax error near \"=\"\n");
  error_case("parse-4.21", "table t(c) -> int { A: 1, , B: 2 }",
    "t.rules:1:27: error: syntax error near \",\"\n");
  error_case("parse-4.22", "table t(c) -> int { }",
    "t.rules:1:21: error: syntax error near \"}\"\n");
  error_case("parse-4.23", "const x = roll 2d6 3",
    "t.rules:1:20: error: syntax error near \"3\"\n");
  error_case("parse-4.24", "const x = \"a long string that goes on and on and on and on\" 1",
    "t.rules:1:61: error: syntax error near \"1\"\n");
  error_case("parse-4.25", "const x = 1 \"a long string that goes on and on and on and on\"",
    "t.rules:1:13: error: syntax error near \"\"a long string that goes on and ...\"\n");
  error_case("parse-4.26", "const x = 1 € 2",
    "t.rules:1:13: error: unexpected character '€'\n");
  error_case("parse-4.27", "const x = 1 \x01",
    "t.rules:1:13: error: unexpected character U+0001 (control and bidirectional "
    "formatting characters are not allowed)\n");
  error_case("parse-4.28", "const x = 1 'a'",
    "t.rules:1:13: error: unexpected character \"'\"\n");
  error_case("parse-4.29", "const x = _",
    "t.rules:1:11: error: syntax error near \"_\"\n");
  error_case("parse-4.30", "test foo { }",
    "t.rules:1:6: error: syntax error near \"foo\"\n");
  error_case("parse-4.31", "procedure p() { if x { } else }",
    "t.rules:1:31: error: syntax error near \"}\"\n");
  error_case("parse-4.32", "enum e { }",
    "t.rules:1:10: error: syntax error near \"}\"\n");
  error_case("parse-4.33", "const x = f(1,)",
    "t.rules:1:15: error: syntax error near \")\"\n");
  error_case("parse-4.34", "record r { a: int, b }",
    "t.rules:1:22: error: syntax error near \"}\"\n");
  error_case("parse-4.35", "const x = 1 extends",
    "t.rules:1:13: error: syntax error near \"extends\"\n");
  error_case("parse-4.36", "const x = 9223372036854775808%",
    "t.rules:1:11: error: integer literal too large\n");
  error_case("parse-4.37", "const x = 99999999999999999BW",
    "t.rules:1:11: error: distance literal too large\n");
  error_case("parse-4.38", "const x = {a: 1, b}",
    "t.rules:1:19: error: syntax error near \"}\"\n");
  error_case("parse-4.39", "  \tconst é = ",
    "t.rules:1:13: error: unexpected end of file\n");   /* display column */
  error_case("parse-4.40", "table t(c) -> int { A: 1 } assumed",
    "t.rules:1:35: error: unexpected end of file\n");
  /* diag.c rejects NUL bytes and invalid UTF-8 before the lexer runs. */
  error_case_n("parse-4.41", "const x = 1\0", 12, "t.rules:1:12: error: NUL byte in source\n", "");
  error_case_n("parse-4.42", "const x = \"\xFF\"", 13,
               "t.rules:1:12: error: invalid UTF-8 byte 0xFF\n", "");
  error_case("parse-4.43", "unit BW \"x\" \\",
    "t.rules:1:13: error: unexpected character '\\'\n");
  error_case("parse-4.44", "const x = f(a)(b)",
    "t.rules:1:15: error: syntax error near \"(\"\n");
  error_case("parse-4.45", "const x = \"abc\\",
    "t.rules:1:11: error: unterminated string\n");
}

/* Limits: name, string, nesting. */
static void test_limits(void) {
  char *src = malloc(70000 + 64);
  size_t n;
  /* A name of 255 bytes is fine, 256 is not. */
  n = (size_t)sprintf(src, "const ");
  memset(src + n, 'a', 255); n += 255;
  n += (size_t)sprintf(src + n, " = 1");
  error_case_n("parse-5.1", src, n, "", NULL);
  n = (size_t)sprintf(src, "const ");
  memset(src + n, 'a', 256); n += 256;
  n += (size_t)sprintf(src + n, " = 1");
  error_case_n("parse-5.2", src, n, "t.rules:1:7: error: name too long (256 bytes, at most 255)\n", NULL);
  /* A string of 65535 bytes is fine, 65536 is not. */
  n = (size_t)sprintf(src, "const s = \"");
  memset(src + n, 'x', 65535); n += 65535;
  src[n++] = '"';
  error_case_n("parse-5.3", src, n, "", NULL);
  n = (size_t)sprintf(src, "const s = \"");
  memset(src + n, 'x', 65536); n += 65536;
  src[n++] = '"';
  error_case_n("parse-5.4", src, n,
               "t.rules:1:11: error: string too long (65536 bytes, at most 65535)\n", NULL);
  /* Nesting: 200 parentheses parse, 5000 overflow the stack (one error),
  ** and parsing goes on at the next declaration. */
  n = (size_t)sprintf(src, "const x = ");
  for (int i = 0; i < 200; i++) src[n++] = '(';
  src[n++] = '1';
  for (int i = 0; i < 200; i++) src[n++] = ')';
  error_case_n("parse-5.5", src, n, "", "(const x 1)\n");
  n = (size_t)sprintf(src, "const x = ");
  for (int i = 0; i < 5000; i++) src[n++] = '(';
  src[n++] = '1';
  for (int i = 0; i < 5000; i++) src[n++] = ')';
  n += (size_t)sprintf(src + n, "\nconst y = 2");
  {
    char want[128];
    rgi_arena a;
    result r;
    rgi_arena_init(&a, 0);
    run(&a, src, n, &r);
    check("parse-5.6", "tree", r.tree, "(const y 2)\n");
    check("parse-5.6", "count", r.nerrors == 1 ? "1" : "not 1", "1");
    snprintf(want, sizeof want, "nesting too deep");
    check("parse-5.6", "message", r.errors && strstr(r.errors, want) ? want : r.errors, want);
    free(r.tree);
    free(r.errors);
    rgi_arena_free(&a);
  }
  free(src);

  /* Out of memory: an arena limit makes rgi_parse return NULL, not crash. */
  {
    rgi_arena a, big;
    rgi_diag d;
    uint32_t ix;
    char *diag = NULL;
    size_t dn = 0;
    FILE *dout = open_memstream(&diag, &dn);
    const char *text = "enum e { A, B, C }\nconst x = {A, B}\n";
    rgi_arena_init(&big, 0);
    rg_out dsink = { file_write, dout, 0 };
    rgi_diag_init(&d, &big, rg_diagnostic_print, &dsink);
    rgi_diag_add_text(&d, "t.rules", text, strlen(text), &ix);
    rgi_arena_init(&a, 1);   /* every allocation fails */
    check("parse-5.7", "oom", rgi_parse(&d, ix, &a) == NULL ? "NULL" : "tree", "NULL");
    rgi_arena_free(&a);
    fclose(dout);
    free(diag);
    rgi_arena_free(&big);
  }
}

/* Recovery: several errors per file, one per broken declaration, and the
** good declarations around them are kept. */
static void test_recovery(void) {
  error_tree_case("parse-6.1",
    "const a = 1\n"
    "const b = * \n"           /* (a `+` would start a signed number: +2) */
    "enum e { A, B < C }\n"
    "procedure p() {\n"
    "  let x = 1 +\n"
    "  if x { }\n"
    "}\n"
    "const c = 3\n"
    "table t(c) -> int { A 1 }\n"
    "record r { a: int }\n"
    "const d = $ 4\n"
    "test \"t\" { expect 1 == 1 }\n",
    "t.rules:2:11: error: syntax error near \"*\"\n"
    "t.rules:3:15: error: enum members are separated by ',' and by '<'; "
    "use ',' throughout (unordered) or '<' throughout (ordered)\n"
    "t.rules:6:3: error: syntax error near \"if\"\n"
    "t.rules:9:23: error: syntax error near \"1\"\n"
    "t.rules:11:11: error: unexpected character '$'\n",
    "(const a 1)\n"
    "(enum e , A B C)\n"
    "(const c 3)\n"
    "(record r a:int)\n"
    "(test \"t\" {(expect (== 1 1))})\n");
  /* An error right at a declaration keyword resumes there. */
  error_tree_case("parse-6.2", "const a =\nconst b = 2\nconst c = = 3\n",
    "t.rules:2:1: error: syntax error near \"const\"\n"
    "t.rules:3:11: error: syntax error near \"=\"\n",
    "(const b 2)\n");
  /* The first token is wrong. */
  error_tree_case("parse-6.3", "} const a = 1\n",
    "t.rules:1:1: error: syntax error near \"}\"\n", "(const a 1)\n");
  /* Errors in consecutive declarations, close together. */
  error_tree_case("parse-6.4", "const = 1 const = 2 const = 3 const z = 4",
    "t.rules:1:7: error: syntax error near \"=\"\n"
    "t.rules:1:17: error: syntax error near \"=\"\n"
    "t.rules:1:27: error: syntax error near \"=\"\n", "(const z 4)\n");
  /* A lexical error costs one message, not a second syntax error. */
  error_tree_case("parse-6.5", "const a = \"x\nconst b = 1 @\nconst c = 3\n",
    "t.rules:1:11: error: unterminated string\n"
    "t.rules:2:13: error: unexpected character '@'\n", "(const b 1)\n(const c 3)\n");
}

int main(void) {
  test_tokens();
  test_trees();
  test_positions();
  test_errors();
  test_limits();
  test_recovery();
  return check_done("test_parse");
}
