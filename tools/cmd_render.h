/*
** cmd_render.h: the commands that print a rule set for people to read,
** each a thin front end on a library renderer:
**
**   regula diff A B        diff.c: rg_diff_modules, then rg_diff_print
**   regula sheet FILE      sheet.c: the tables in the layout of the sheet
*/
#ifndef RG_CMD_RENDER_H
#define RG_CMD_RENDER_H

#include "cli.h"

/* regula diff [--odds TABLE=NdS[+K]]... A B: exit 0 equal, 1 different, 2
** bad input, 3 out of memory.  The hints arrive in o->odds. */
int cmd_diff(opts *o);
extern const char diff_usage[];
extern const char diff_help[];

/* regula sheet FILE [TABLE...] */
int cmd_sheet(opts *o);
extern const char sheet_usage[];
extern const char sheet_help[];

#endif
