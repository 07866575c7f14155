/*
** ruleset.c: check, build, dis, query and test (see cmd_rules.h), on
** regula.h alone: each loads the rule set with cli_rules_load (its
** diagnostics on stderr) and prints what the library writes.
*/
#include "cmd_rules.h"
#include "exitcode.h"
#include "fileout.h"

#include <stdio.h>
#include <string.h>

/* The file an assumption is in when the rules do not say: the path given. */
typedef struct note_ctx {
  const char *path;
} note_ctx;

/* rg_assumption_fn: prints the note on stdout as "path:line: what: text". */
static void print_note(void *ctx, const char *path, uint32_t line, const char *what,
                       const char *text) {
  const note_ctx *c = ctx;
  rg_out o = cli_file_out(stdout);          /* the path is the user's: shown safe */
  rg_printf(&o, "%s:%u: %s: %s\n", path ? path : c->path, line, what, text);
}

int check_main(const char *const *paths, int n, int assumptions) {
  int status = EX_OK;
  for (int i = 0; i < n; i++) {
    rg_rules *r;
    int rc = cli_rules_load(paths[i], assumptions, &r);
    status = ex_worst(status, rc);
    if (rc == EX_OK && assumptions) {
      note_ctx c = { paths[i] };
      rg_rules_assumptions(r, print_note, &c);
    }
    rg_rules_free(r);
  }
  return status;
}

int build_main(const char *path, const char *output) {
  rg_rules *r;
  int rc = cli_rules_load(path, 0, &r);
  if (rc == EX_OK && rg_rules_save(r, output) != RG_OK) {
    const char *err = rg_rules_errmsg(r);
    size_t n = strlen(output);
    /* the writer's message may already start with "OUT: " */
    if (strncmp(err, output, n) == 0 && err[n] == ':') cli_eprintf("regula: error: %s\n", err);
    else cli_eprintf("regula: error: %s: %s\n", output, err);
    rc = EX_RUNTIME;
  }
  rg_rules_free(r);
  return rc;
}

int dis_main(const char *path, int flags) {
  rg_rules *r;
  rg_out out = cli_file_out(stdout);
  int rc = cli_rules_load(path, 0, &r);
  if (rc == EX_OK) rc = cli_written(rg_rules_dis(r, flags, &out));
  rg_rules_free(r);
  return rc;
}

int query_main(const char *path, const char *table, const char *const *keys, int nkeys) {
  rg_rules *r;
  rg_out out = cli_file_out(stdout);
  int rc = cli_rules_load(path, 0, &r), ti;
  if (rc != EX_OK) {
    rg_rules_free(r);
    return rc;
  }
  if ((ti = rg_rules_find(r, RG_TABLE, table)) < 0) {
    rc = cli_rules_no_table(r, table);
  } else if ((rc = cli_written(rg_rules_query_write(r, table, keys, nkeys, &out))) < 0) {
    cli_eprintf("regula: error: %s\n", rg_rules_errmsg(r));
    if (nkeys != rg_rules_arity(r, RG_TABLE, ti)) fputs("try 'regula query --help'\n", stderr);
    rc = EX_BAD;
  }
  rg_rules_free(r);
  return rc;
}

int test_main(const char *const *paths, int n, const rg_run_options *opt) {
  int status = EX_OK, loaded_any = 0;
  uint32_t passed = 0, failed = 0;
  rg_out out = cli_file_out(stdout);
  for (int i = 0; i < n; i++) {
    rg_rules *r;
    int rc = cli_rules_load(paths[i], 0, &r);
    if (rc == EX_OK) {
      loaded_any = 1;
      rc = cli_written(rg_rules_test(r, opt ? &opt->limits : NULL, &out, &passed, &failed));
    }
    status = ex_worst(status, rc);
    rg_rules_free(r);
  }
  /* No summary when nothing could be compiled: "0 passed" would read as a
  ** success of nothing. */
  if (loaded_any) printf("%u passed, %u failed\n", passed, failed);
  if (failed) status = ex_worst(status, EX_FINDINGS);
  return status;
}
