/*
** cmd_render.h: the commands that print a rule set for people to read,
** each a thin front end on a library renderer:
**
**   regula sheet FILE      sheet.c: the tables in the layout of the sheet
*/
#ifndef RG_CMD_RENDER_H
#define RG_CMD_RENDER_H

#include "cli.h"

/* regula sheet FILE [TABLE...] */
int cmd_sheet(opts *o);
extern const char sheet_usage[];
extern const char sheet_help[];

#endif
