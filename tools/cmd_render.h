/*
** cmd_render.h: the commands that print a rule set for people to read,
** each a thin front end on a library renderer, on regula.h alone
** (regula.c parses their command lines):
**
**   regula sheet FILE      sheet.c: the tables in the layout of the sheet
*/
#ifndef RG_CMD_RENDER_H
#define RG_CMD_RENDER_H

/* regula sheet FILE [TABLE...]: the tables named in tables[0..ntables), or
** every table and the constants when ntables is 0.  Returns the exit code:
** 0, 2 bad input or an unknown table, 3 out of memory. */
int sheet_main(const char *path, const char *const *tables, int ntables);
extern const char sheet_usage[];
extern const char sheet_help[];

#endif
