/*
** diff.c: `regula diff [--odds TABLE=NdS[+K]]... A B`, a semantic diff of two
** rule sets: the options, loading both sides, then the library's change
** list (interp/diff.c) printed by its text renderer (interp/diff_text.c),
** paths shown relative to the folder the two files share.
**
** Exit: 0 equal, 1 different, 2 bad input, 3 out of memory.
*/
#include "cmd_render.h"
#include "diff.h"
#include "fileout.h"

#include <stdio.h>
#include <string.h>

/* The most --odds hints a command line may give. */
#define MAX_HINTS 64

const char diff_usage[] = "diff [--odds TABLE=NdS[+K]]... A B";
const char diff_help[] =
  "Compares two rule sets after resolving `extends` (each a rule file or a\n"
  ".rbc) and lists what differs, by name: the header, units, enums and\n"
  "members, records, named constants and inputs (value before and after, *\n"
  "for a starred distance), table cells (grouped by table, row, column;\n"
  "dimension changes; tables added or removed), and procedures and their\n"
  "steps (compared by opcode and named operands, line numbers ignored).\n"
  "Every item ends with its source on both sides: A-FILE:LINE | B-FILE:LINE.\n"
  "\n"
  "  ~ changed    + only in B    - only in A\n"
  "\n"
  "Odds: when a changed table is looked up under a dice score (`roll 2d6`\n"
  "or `roll d6` feeding the key, directly or through a local), the chance\n"
  "of each changed value is printed before and after, per column.  Give\n"
  "other scores as --odds TABLE=NdS[+K|-K] (the table's first integer key\n"
  "is NdS+K; repeatable).  Only that score is counted: modifiers and clamps applied\n"
  "elsewhere in the rules are not.\n"
  "\n"
  "Example: regula diff SHEET.rules SHEET-revised.rules\n"
  "Exit: 0 equal, 1 different, 2 bad input, 3 out of memory.\n";

/* Parses the positional words of `regula diff`: two files into files[] and
** each --odds hint into hints[] (*nhints).  Returns EX_OK, or EX_BAD after
** saying what is wrong. */
static int diff_args(const opts *o, const char **files, rg_diff_hint *hints, int *nhints) {
  *nhints = 0;
  for (int i = 0; i < o->nodds; i++) {
    if (*nhints >= MAX_HINTS || rg_diff_hint_parse(o->odds[i], &hints[*nhints]) != 0)
      return usage_error("diff", "'%s' is not an odds hint TABLE=NdS[+K]", o->odds[i]);
    ++*nhints;
  }
  if (o->npos > 2) return usage_error("diff", "diff takes two rule files, not '%s'", o->pos[2]);
  if (o->npos < 2) return usage_error("diff", "diff needs two rule files (A and B)");
  files[0] = o->pos[0];
  files[1] = o->pos[1];
  return EX_OK;
}

int cmd_diff(opts *o) {
  const char *files[2] = { NULL, NULL };
  rg_diff_hint hints[MAX_HINTS];
  int nhints, rc;
  loaded A, B;
  rg_diff d;
  char base[1024];
  rg_out out = cli_file_out(stdout);

  rc = diff_args(o, files, hints, &nhints);
  if (rc != EX_OK) return rc;
  rc = load(&A, files[0], 0);
  if (rc == EX_OK) {
    rc = load(&B, files[1], 0);
    if (rc == EX_OK) {
      if (rg_diff_modules(&A.m, &B.m, hints, nhints, &d) != 0) {
        fputs("regula: error: out of memory\n", stderr);
        rc = EX_RUNTIME;
      } else {
        rg_diff_shared_dir(files[0], files[1], base, sizeof base);
        rg_diff_print(&out, &d, base);
        rc = d.n ? EX_FINDINGS : EX_OK;
      }
      rg_diff_free(&d);
    }
    unload(&B);
  }
  unload(&A);
  return rc;
}
