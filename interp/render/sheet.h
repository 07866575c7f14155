/*
** sheet.h: a rule set's tables printed back in the layout of the printed
** sheet, for a proofreader to lay beside the original (`regula sheet`).
**
** A title line per table, NAME(KEYS) -> TYPE; two keys as a grid whose
** columns are the second key (in a TSV table's header order, which is the
** sheet's) with `|` for a cell equal to the one above (a merged cell); one
** key as `key  value` lines, a run of equal values over consecutive integers
** folded into `lo..hi`; records as a grid with a column per field; text
** wrapped to 120 display columns; cells given on a line with an `assumed`
** note marked ` *` and the notes listed under the table; then (for the whole
** sheet) the named constants.  See sheet.c for the details.
*/
#ifndef RG_SHEET_H
#define RG_SHEET_H

#include "diag.h"
#include "module.h"
#include "regula_front.h"

/* Writes the sheet of m to out: the header line, then the tables named in
** names[0..n) (names that are not tables are skipped: check them first), or
** every table and the constants when n is 0.  src is the compile's
** diagnostics, whose files give a TSV table's column order, and assumptions
** its `assumed` notes; both NULL for a module loaded from a .rbc (a line
** then says that none are marked).  Returns 0, or -1 when out of memory
** (what was written so far stays written). */
int rgi_sheet_print(rg_out *out, const rgi_module *m, const rgi_diag *src,
                   const rgi_assumption *assumptions, const char *const *names, int n);

/* Writes table `name` of m to out as rgi_sheet_print does, with no header
** line and no word on assumptions (an editor's hover: the table alone).
** Returns 0, -1 when out of memory, or 1 when m has no such table. */
int rgi_sheet_print_table(rg_out *out, const rgi_module *m, const char *name);

#endif
