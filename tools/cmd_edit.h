/*
** cmd_edit.h: the commands for people editing rule files, each a thin
** front end on the library:
**
**   regula fmt [--check] FILE...   fmt.c: rg_rules_format
**   regula lsp                     lsp.c: a language server (rg_rules_compile,
**                                  rg_rules_symbols, rg_rules_describe)
*/
#ifndef RG_CMD_EDIT_H
#define RG_CMD_EDIT_H

#include "cli.h"

/* regula fmt [--check] FILE...: exit 0, 1 (--check) a file would change, 2
** syntax errors, 3 I/O or out of memory. */
int cmd_fmt(opts *o);
extern const char fmt_usage[];
extern const char fmt_help[];

/* regula lsp: a language server on stdin/stdout.  Exit 0 after shutdown
** and exit, 1 exit without shutdown, 2 arguments, 3 the input ended. */
int cmd_lsp(opts *o);
extern const char lsp_usage[];
extern const char lsp_help[];

#endif
