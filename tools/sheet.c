/*
** sheet.c: `regula sheet FILE [TABLE...]`: loads the rule set, checks the
** table names, and prints the sheet through the library (interp/sheet.c).
*/
#include "cmd_render.h"
#include "fileout.h"
#include "sheet.h"

#include <stdio.h>

const char sheet_usage[] = "sheet FILE [TABLE...]";
const char sheet_help[] =
  "Prints every table of FILE (or only the named ones) in the layout of the\n"
  "sheet, for proofreading against the printed original:\n"
  "  - a title line per table: NAME(KEYS) -> TYPE;\n"
  "  - two keys: a grid, columns the second key, rows the first; a cell equal\n"
  "    to the one above prints `|` (a merged cell of the sheet);\n"
  "  - one key: `key  value` lines (equal values over a range of integers\n"
  "    folded into `lo..hi`); records: one column per field, long text wrapped;\n"
  "  - a cell whose source line carries an `assumed` note is marked ` *`, and\n"
  "    the notes are listed under its table (`*` on the title: the whole table);\n"
  "  - with no TABLE, a last section lists the named constants (a starred\n"
  "    distance as `6 BW*`) and their assumptions.\n"
  "A .rbc module keeps no assumptions: none are marked then.\n"
  "\n"
  "Example: regula sheet SHEET.rules weather\n"
  "Exit: 0, or 2 for errors in FILE or an unknown table (the tables are listed).\n";

/* regula sheet FILE [TABLE...] */
int cmd_sheet(opts *o) {
  loaded l;
  rg_out out = cli_file_out(stdout);
  int rc;
  if (o->npos < 1) return usage_error("sheet", "no rule file given");
  rc = load(&l, o->pos[0], 1);
  for (int i = 1; rc == EX_OK && i < o->npos; i++)
    if (rg_module_find_table(&l.m, o->pos[i]) < 0) rc = cli_no_table(&l.m, o->pos[i]);
  if (rc == EX_OK &&
      rg_sheet_print(&out, &l.m, l.compiled ? &l.diag : NULL, l.assumptions,
                     (const char *const *)(o->pos + 1), o->npos - 1) != 0) {
    fflush(stdout);
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  }
  unload(&l);
  return rc;
}
