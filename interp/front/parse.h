/*
** parse.h: from the text of a rule file to its syntax tree (ast.h).
**
** The lexer is grammar/lexer.re (re2c), the grammar grammar/parser.y (Lemon);
** parse.c drives them.  Syntax errors are reported through the diagnostics
** and parsing goes on at the next declaration, so one run finds the errors
** of every broken declaration, one message each.
*/
#ifndef RG_PARSE_H
#define RG_PARSE_H

#include <stdio.h>
#include <stdint.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "regula_front.h"

/* Parses d->files[file]->text (NFC, LF line ends, NUL-terminated, as loaded
** by rgi_diag_load or rgi_diag_add_text).  The tree, its names and strings live
** in arena; nothing else is allocated.  Errors are reported with rgi_error and
** counted in d->errors: the tree is then partial (broken declarations are
** left out) but well formed.  Returns the tree, or NULL only when the arena
** ran out of memory (which is not reported: the caller says "out of memory").
** The parser's own state (about 80 KB) also comes from arena. */
rgi_ast_file *rgi_parse(rgi_diag *d, uint32_t file, rgi_arena *arena);

/* Writes the tokens of d->files[file] to out, one a line, as
** `LINE:COL KIND text` plus the value of literals (for tests and debugging).
** Lexical errors are reported through d.  Copies go to arena.  Returns the
** number of tokens written. */
int rgi_dump_tokens(rgi_diag *d, uint32_t file, rgi_arena *arena, rg_out *out);

#endif
