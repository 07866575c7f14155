/*
** diff.c: `regula diff [--stat | --json] [--odds TABLE=NdS[+K]]... A B`, a
** semantic diff of two rule sets, on the public header alone: the options,
** compiling both sides (cli_rules_load), the library's change list
** (rg_changes_new) written by one of its renderers (rg_changes_write), paths
** shown relative to the folder the two files share.  Colour marks changed
** words when stdout is a terminal and NO_COLOR is not set.
**
** Exit: 0 equal, 1 different, 2 bad input, 3 out of memory or output failed.
*/
#include "cmd_diff.h"
#include "exitcode.h"
#include "fileout.h"
#include "regula_front.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The most --odds hints a command line may give. */
#define MAX_HINTS 64

const char diff_usage[] = "diff [--stat | --json] [--odds TABLE=NdS[+K]]... A B";
const char diff_help[] =
  "Compares two rule sets after resolving `extends` (each a rule file or a\n"
  ".rbc) and lists what differs, by name: the header, units, enums and\n"
  "members, records, named constants and inputs (value before and after, *\n"
  "for a starred distance), table cells (grouped by table, row, column;\n"
  "dimension changes; tables added or removed; the rows of a list whose\n"
  "length changed aligned by content, so one removed row is one removal;\n"
  "neighbour cells that change alike as one item with key ranges),\n"
  "procedures and their steps (compared by opcode and named operands,\n"
  "line numbers ignored), each rule an `override rule` or `remove rule`\n"
  "changed (in a step, or directly in the procedure), strategies and\n"
  "displays.  Every item ends with its source on both sides:\n"
  "A-FILE:LINE | B-FILE:LINE, paths relative to the folder A and B share.\n"
  "In a changed text the words that changed are marked [-removed-]{+added+}\n"
  "(in colour on a terminal, unless NO_COLOR is set).  A changed procedure\n"
  "or step shows its override's source quotation and a unified diff of its\n"
  "source.  Changes that follow from others (constants declared, procedures\n"
  "written, at the same place on both sides) are grouped under their cause:\n"
  "a `scale` line when it is one.\n"
  "\n"
  "  ~ changed    + only in B    - only in A\n"
  "\n"
  "  --stat   how many changes of each kind, per section\n"
  "  --json   the change list as JSON lines: {\"format\":2,\"changes\":N},\n"
  "           then one object per change\n"
  "\n"
  "Odds: when a table is looked up under a dice score (`roll 2d6`, or\n"
  "sum(rolls(2, d6)), feeding the key directly, through a local, or through\n"
  "a helper procedure that rolls and asks nothing and takes enums besides\n"
  "the dice, such as weather_score(2d6, season)), the chance of each value\n"
  "that moved is printed before and after, per column (and per member of\n"
  "the helper's enums): for a changed table, and for an unchanged one whose\n"
  "helper now gives other scores.  Give other scores as --odds\n"
  "TABLE=NdS[+K|-K] (the table's first integer key is NdS+K; repeatable).\n"
  "Modifiers applied outside such a helper are not followed.  Dice whose\n"
  "largest sum is 128 or more (1d200, 22d6) have no odds.\n"
  "\n"
  "Example: regula diff SHEET.rules SHEET-revised.rules\n"
  "Exit: 0 equal, 1 different, 2 bad input, 3 out of memory or the output\n"
  "could not be written.\n";

/* Prints "regula: error: MSG" and the hint to read diff's help; returns 2. */
static int usage(const char *fmt, ...) {
  va_list ap;
  fputs("regula: error: ", stderr);
  va_start(ap, fmt);
  cli_veprintf(fmt, ap);
  va_end(ap);
  fputs("\ntry 'regula diff --help'\n", stderr);
  return 2;
}

/* What the command line asks for, checked. */
typedef struct diff_args {
  const char *files[2];
  const char *hints[MAX_HINTS];
  int nhints;
  rg_diff_format format;
} diff_args;

/* Checks request r into *a.  Returns 0, or 2 after saying what is wrong. */
static int parse_args(const diff_request *r, diff_args *a) {
  memset(a, 0, sizeof *a);
  if (r->stat && r->json) return usage("--stat and --json exclude each other");
  a->format = r->stat ? RG_DIFF_STAT : r->json ? RG_DIFF_JSON : RG_DIFF_TEXT;
  for (int i = 0; i < r->nodds; i++) {
    if (a->nhints >= MAX_HINTS || !rg_diff_hint_valid(r->odds[i]))
      return usage("'%s' is not an odds hint TABLE=NdS[+K] (dice up to a sum of 127)", r->odds[i]);
    a->hints[a->nhints++] = r->odds[i];
  }
  if (r->nfiles > 2) return usage("diff takes two rule files, not '%s'", r->files[2]);
  if (r->nfiles < 2) return usage("diff needs two rule files (A and B)");
  a->files[0] = r->files[0];
  a->files[1] = r->files[1];
  return 0;
}

int diff_main(const diff_request *r) {
  diff_args a;
  rg_rules *A = NULL, *B = NULL;
  rg_changes *c = NULL;
  rg_out out = cli_file_out(stdout);
  char base[1024];
  int rc = parse_args(r, &a);
  if (rc == 0) rc = cli_rules_load(a.files[0], 0, &A);
  if (rc == 0) rc = cli_rules_load(a.files[1], 0, &B);
  if (rc == 0) {
    rg_diff_options opt = RG_OPTIONS(rg_diff_options);
    opt.odds = a.hints;
    opt.nodds = a.nhints;
    opt.with_source = 1;
    rg_status st = rg_changes_new(A, B, &opt, &c);
    if (st != RG_OK) {
      cli_eprintf("regula: error: %s\n", rg_status_name(st));
      rc = st == RG_NOMEM ? 3 : 2;
    } else {
      const char *nc = getenv("NO_COLOR");
      int color = a.format == RG_DIFF_TEXT && isatty(fileno(stdout)) && !(nc && *nc);
      rg_diff_shared_dir(a.files[0], a.files[1], base, sizeof base);
      if (color) out = cli_colour_out();     /* its colours kept, nothing else */
      st = rg_changes_write(c, a.format, color ? RG_DIFF_COLOR : 0, base, &out);
      rc = cli_written(st);
      if (rc == EX_OK && rg_changes_count(c)) rc = EX_FINDINGS;
    }
  }
  rg_changes_free(c);
  rg_rules_free(B);
  rg_rules_free(A);
  return rc;
}
