/*
** parse.c: the driver of the front end (see parse.h).
**
** Tokens go from the lexer (lexer.re) to the Lemon parser (parser.y) one at a
** time.  The parser appends each declaration to the tree as it is reduced.
** After a syntax error, parser.y sets ps.skipping and this loop drops tokens
** up to the next declaration keyword, where Lemon's `decl ::= error` rule has
** left the parser ready for a new declaration.
*/
#include "parse.h"
#include "lex.h"
#include "parser.h"

#include <inttypes.h>
#include <string.h>

/* Returns whether token kind k starts a declaration: where parsing resumes
** after a syntax error. */
int rgi_starts_decl(int k) {
  switch (k) {
    case RG_TK_RULESET: case RG_TK_UNIT: case RG_TK_ENUM: case RG_TK_RECORD:
    case RG_TK_CONST: case RG_TK_TABLE: case RG_TK_PROCEDURE: case RG_TK_TEST:
    case RG_TK_DICE_KW: case RG_TK_DECK: case RG_TK_INPUT:
    case RG_TK_OVERRIDE: case RG_TK_REMOVE: case RG_TK_SCALE: case RG_TK_STRATEGY: case RG_TK_DISPLAY:
      return 1;
    default:
      return 0;
  }
}

rgi_ast_file *rgi_parse(rgi_diag *d, uint32_t file, rgi_arena *arena) {
  rgi_lexer lx;
  rgi_pstate *ps = rgi_arena_alloc(arena, sizeof *ps);
  void *parser = rgi_arena_alloc(arena, rgi_parser_size());
  int k;

  if (!ps || !parser) return NULL;
  ps->d = d;
  ps->arena = arena;
  ps->file = file;
  ps->ast = rgi_arena_alloc(arena, sizeof *ps->ast);
  if (!ps->ast) return NULL;
  ps->end.file = file;
  ps->end.line = 1;
  ps->end.col = 1;
  rgi_lex_init(&lx, d, file, arena);
  rgi_parserInit(parser, ps);

  do {
    lx.quiet = ps->skipping;      /* one error per broken declaration */
    k = rgi_lex(&lx, &ps->cur);
    if (ps->skipping) {
      if (k != 0 && !rgi_starts_decl(k)) goto next;
      ps->skipping = false;
    }
    if (rgi_starts_decl(k)) ps->quiet = false;
    rgi_parser(parser, k, ps->cur);
    /* A declaration keyword is a fresh start: let the next error speak. */
    if (rgi_starts_decl(k)) rgi_parser_clear_errors(parser);
    if (ps->failed) {
      /* Lemon emptied its stack (overflow, or no way to recover): start over
      ** with a new parser; the declarations already parsed are kept. */
      rgi_parserFinalize(parser);
      rgi_parserInit(parser, ps);
      ps->failed = false;
      ps->skipping = k != 0;
    }
  next:
    if (k != 0) {
      ps->end = ps->cur.pos;
      ps->end.col += ps->cur.len;
    }
  } while (k != 0);
  rgi_parserFinalize(parser);
  return arena->failed ? NULL : ps->ast;
}

int rgi_dump_tokens(rgi_diag *d, uint32_t file, rgi_arena *arena, rg_out *out) {
  rgi_lexer lx;
  rgi_token t;
  int n = 0;
  rgi_lex_init(&lx, d, file, arena);
  while (rgi_lex(&lx, &t) != 0) {
    rg_printf(out, "%u:%u %s %.*s", t.pos.line, t.pos.col, rgi_token_name(t.kind),
            (int)t.len, t.text);
    switch (t.kind) {
      case RG_TK_INTEGER: case RG_TK_PCT:
        rg_printf(out, " =%" PRId64, t.ival);
        break;
      case RG_TK_DIST:
        rg_printf(out, " =%" PRId64 "/1000 %s%s", t.ival, t.str, t.starred ? " *" : "");
        break;
      case RG_TK_DICE:
        rg_printf(out, " =%" PRId64 "d%" PRId64, t.ival, t.sides);
        break;
      case RG_TK_NAME: case RG_TK_STRING:
        rg_printf(out, " =[%s]", t.str);
        break;
      default:
        break;
    }
    rg_putc(out, '\n');
    n++;
  }
  return n;
}
