/*
** sheet.h: `regula sheet FILE [TABLE...]` (sheet.c) prints the tables and
** named constants of a rule set in the layout of the printed sheet, for
** proofreading against it.
*/
#ifndef RG_SHEET_H
#define RG_SHEET_H

#include "cli.h"

/* The command, its usage line and its help text (for regula.c's table). */
int cmd_sheet(opts *o);
extern const char sheet_usage[];
extern const char sheet_help[];

#endif
