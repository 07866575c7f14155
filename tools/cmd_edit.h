/*
** cmd_edit.h: the commands for people editing rule files, each a thin
** front end on regula.h alone (regula.c parses their command lines):
**
**   regula fmt [--check] FILE...   fmt.c: rg_rules_format
**   regula lsp                     lsp.c: a language server (rg_rules_compile,
**                                  rg_rules_symbols, rg_rules_describe)
*/
#ifndef RG_CMD_EDIT_H
#define RG_CMD_EDIT_H

/* regula fmt [--check] FILE... on the nfiles files (at least one; "-" is
** standard input): returns the exit code: 0, 1 (check) a file would
** change, 2 syntax errors, 3 I/O or out of memory. */
int fmt_main(const char *const *files, int nfiles, int check);
extern const char fmt_usage[];
extern const char fmt_help[];

/* regula lsp: a language server on stdin/stdout.  Returns the exit code:
** 0 after shutdown and exit, 1 exit without shutdown, 3 the input ended. */
int lsp_main(void);
extern const char lsp_usage[];
extern const char lsp_help[];

#endif
