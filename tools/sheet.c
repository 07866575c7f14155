/*
** sheet.c: `regula sheet FILE [TABLE...]`, on regula.h alone: compiles the
** rule set keeping its sources, checks the table names, and prints the
** sheet through the library (rg_rules_sheet_of).
*/
#include "cmd_render.h"
#include "fileout.h"
#include "regula_front.h"

#include <stdio.h>

const char sheet_usage[] = "sheet FILE [TABLE...]";
const char sheet_help[] =
  "Prints every table of FILE (or only the named ones) in the layout of the\n"
  "sheet, for proofreading against the printed original:\n"
  "  - a title line per table: NAME(KEYS) -> TYPE;\n"
  "  - two keys: a grid, columns the second key, rows the first; a cell that\n"
  "    continues the one above (a range or `_` of the rule file, `^` in a TSV:\n"
  "    a merged cell of the sheet) prints `|`; every other cell its value;\n"
  "  - one key: `key  value` lines (a range of integers given as one cell\n"
  "    folded into `lo..hi`); records: one column per field, long text wrapped;\n"
  "  - a cell whose source line carries an `assumed` note is marked ` *`, and\n"
  "    the notes are listed under its table (`*` on the title: the whole table);\n"
  "  - with no TABLE, a last section lists the named constants (a starred\n"
  "    distance as `6 BW*`) and their assumptions.\n"
  "A .rbc module keeps no assumptions: none are marked then.\n"
  "\n"
  "Example: regula sheet SHEET.rules weather\n"
  "Exit: 0, or 2 for errors in FILE or an unknown table (the tables are listed).\n";

int sheet_main(const char *path, const char *const *tables, int ntables) {
  rg_rules *r;
  rg_out out = cli_file_out(stdout);
  int rc = cli_rules_load(path, 1, &r);
  for (int i = 0; rc == 0 && i < ntables; i++)
    if (rg_rules_find(r, RG_TABLE, tables[i]) < 0) rc = cli_rules_no_table(r, tables[i]);
  /* the tables were found above: RG_OK, RG_IO or RG_NOMEM */
  if (rc == 0) rc = cli_written(rg_rules_sheet_of(r, tables, ntables, &out));
  rg_rules_free(r);
  return rc;
}
