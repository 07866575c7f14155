/*
** fmt.c: `regula fmt [--check] FILE...`, rule files in the canonical
** layout (the layout is the library's: rg_rules_format in regula.h).
*/
#include "cmd_edit.h"
#include "exitcode.h"
#include "fileout.h"
#include "regula_front.h"

#include <stdio.h>
#include <string.h>

const char fmt_usage[] = "fmt [--check] FILE...";

const char fmt_help[] =
  "Rewrites each rule file in the canonical layout: every token stays on its\n"
  "line and blank lines stay (but those at the end), so every line number\n"
  "stays; indentation (two spaces a block), the spaces between tokens and the\n"
  "column of trailing comments follow one rule; comments are kept.\n"
  "Formatting twice changes nothing, and the compiled module is the same but\n"
  "for the columns of its line table.  A file that already is formatted is\n"
  "left alone; a changed one is replaced through a temporary file, keeping\n"
  "its mode (through a symbolic link, the link's target).  FILE - reads\n"
  "standard input and writes the result to standard output.\n"
  "\n"
  "  --check   change nothing: list the files that would change, one a line\n"
  "\n"
  "Example: regula fmt --check rules/*/*.rules\n"
  "Exit: 0 done (--check: nothing would change), 1 --check: some file would\n"
  "change, 2 a file has syntax errors (reported as by check) or cannot be\n"
  "read, 3 a file cannot be written or memory ran out.\n";

/* Formats the file at path (check: only reports whether it would change).
** Returns an exit code. */
static int fmt_one(const char *path, int check) {
  rg_compile_options copt;
  rg_out err = cli_file_out(stderr);
  rg_source src;
  rg_buf b;
  rg_status st;
  char msg[512] = "";
  int rc = EX_OK, from_stdin = strcmp(path, "-") == 0;
  char *in = NULL;
  memset(&src, 0, sizeof src);
  if (from_stdin) {
    size_t n;
    if (cli_read_stdin(&in, &n) != 0) return EX_RUNTIME;
    src.text = in ? in : "";
    src.len = n;
  } else if ((st = rg_file_loader.load(NULL, NULL, path, RG_LOAD_RULES, &src, msg, sizeof msg)) !=
             RG_OK) {
    cli_eprintf("regula: error: %s\n", msg);
    return st == RG_NOMEM ? EX_RUNTIME : EX_BAD;   /* missing or unreadable: as check */
  }
  copt = RG_OPTIONS(rg_compile_options);
  copt.diagnostic = rg_diagnostic_print;
  copt.diagnostic_ctx = &err;
  rg_buf_init(&b);
  st = rg_rules_format(path, src.text, src.len, &copt, &b.out);
  if (st == RG_BAD_RULES) {
    rc = EX_BAD;
  } else if (st != RG_OK) {              /* RG_NOMEM, or RG_IO: b could not grow */
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  } else if (from_stdin) {
    if (check) {
      if (b.len != src.len || memcmp(b.data, src.text, b.len) != 0) {
        puts("-");
        rc = EX_FINDINGS;
      }
    } else {
      fwrite(b.data ? b.data : "", 1, b.len, stdout);
    }
  } else if (b.len != src.len || (b.len && memcmp(b.data, src.text, b.len) != 0)) {
    if (check) {
      rg_out o = cli_file_out(stdout);        /* a file name, shown safe */
      rg_puts(&o, path);
      rg_putc(&o, '\n');
      rc = EX_FINDINGS;
    } else {
      /* the file keeps its mode; through a symbolic link, its target changes */
      if (cli_file_save(path, b.data, b.len) != 0) rc = EX_RUNTIME;
    }
  }
  rg_buf_free(&b);
  if (from_stdin) rg_free(in);
  else if (rg_file_loader.release) rg_file_loader.release(NULL, &src);
  return rc;
}

int fmt_main(const char *const *files, int nfiles, int check) {
  int rc = EX_OK;
  for (int i = 0; i < nfiles; i++) {
    int r = fmt_one(files[i], check);
    if (r > rc) rc = r;
  }
  return rc;
}
