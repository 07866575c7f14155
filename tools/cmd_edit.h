/*
** cmd_edit.h: the commands for people editing rule files, each a thin
** front end on the library:
**
**   regula fmt [--check] FILE...   fmt.c: rg_rules_format
*/
#ifndef RG_CMD_EDIT_H
#define RG_CMD_EDIT_H

#include "cli.h"

/* regula fmt [--check] FILE...: exit 0, 1 (--check) a file would change, 2
** syntax errors, 3 I/O or out of memory.  Registered with OPT_ARGS: --check
** reaches it as a positional word. */
int cmd_fmt(opts *o);
extern const char fmt_usage[];
extern const char fmt_help[];

#endif
