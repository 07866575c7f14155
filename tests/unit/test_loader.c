/*
** test_loader.c: compiling from memory, with the caller's loader for the
** files a rule file names (compile.h, rg_loader in regula.h), and the
** files compiled rules say they were read from (rg_rules_file).
*/
#include "arena.h"
#include "compile.h"
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

/* Files the loader knows: name -> text. */
static const char *const files[][2] = {
  { "lib/base.rules",
    "ruleset \"base\"\n"
    "enum colour { RED, BLUE }\n"
    "table score(colour) -> int from \"score.tsv\"\n"
    "procedure main() -> int { return score[BLUE] }\n" },
  { "lib/score.tsv", "key\tvalue\nRED\t1\nBLUE\t2\n" },
  { "lib/two.rules",
    "enum colour { RED, BLUE }\n"
    "table a(colour) -> int from \"score.tsv\"\n"
    "table b(colour) -> int from \"score.tsv\"\n"
    "procedure main() -> int { return a[RED] + b[BLUE] }\n" },
};

/* What the loader saw. */
typedef struct seen {
  char asked[8][128];       /* "from|name|kind" for each request */
  int n, released;
} seen;

/* Loader: resolves name beside `from` ("lib/x" from "lib/y"), from the
** table above; records each request. */
static rg_status mem_load(void *ctx, const char *from, const char *name, rg_load_kind kind,
                          rg_source *src, char *err, size_t errlen) {
  seen *s = ctx;
  char path[256];
  const char *slash = from ? strrchr(from, '/') : NULL;
  if (s->n < 8)
    snprintf(s->asked[s->n++], sizeof s->asked[0], "%s|%s|%d", from ? from : "-", name, (int)kind);
  snprintf(path, sizeof path, "%.*s%s%s", slash ? (int)(slash - from) : 0, slash ? from : "",
           slash ? "/" : "", name);
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    if (strcmp(files[i][0], path) == 0) {
      memset(src, 0, sizeof *src);
      src->text = files[i][1];
      src->len = strlen(files[i][1]);
      src->path = files[i][0];
      return RG_OK;
    }
  snprintf(err, errlen, "no file %s in memory", path);
  return RG_NOT_FOUND;
}

/* Release: counts. */
static void mem_release(void *ctx, rg_source *src) {
  seen *s = ctx;
  (void)src;
  s->released++;
}

/* Diagnostics: copies each record's position and message. */
typedef struct diags {
  rg_diagnostic rec[8];
  char msg[8][160];
  int n;
} diags;

static void collect(void *ctx, const rg_diagnostic *d) {
  diags *s = ctx;
  if (s->n >= 8) return;
  s->rec[s->n] = *d;
  snprintf(s->msg[s->n], sizeof s->msg[0], "%s", d->message);
  s->n++;
}

int main(void) {
  /* loader-1: extends and from resolved by the callback, nothing read
  ** from the disk. */
  {
    static const char text[] =
      "ruleset \"derived\" extends \"base.rules\"\n"
      "override table score(colour) -> int { RED: 5, BLUE: 7 } source \"test\"\n";
    seen s = { .n = 0 };
    rg_loader ld = { mem_load, mem_release, &s };
    rgi_arena a;
    rgi_diag d;
    diags ds = { .n = 0 };
    rgi_module m;
    rgi_arena_init(&a, 0);
    rgi_diag_init(&d, &a, collect, &ds);
    int rc = rgi_compile_source(&d, "lib/derived.rules", text, strlen(text), &ld, &m, NULL);
    CHECK(rc == 0, "loader-1 compiles: %s", ds.n ? ds.msg[0] : "");
    CHECK(s.n == 1 && strcmp(s.asked[0], "lib/derived.rules|base.rules|0") == 0,
          "loader-1 asked %d: %s", s.n, s.asked[0]);
    CHECK(s.released == 1, "loader-1 released %d", s.released);
    CHECK(rc == 0 && m.nfiles == 2 && strcmp(rgi_module_str(&m, m.files[1]), "lib/base.rules") == 0,
          "loader-1 files");
    if (rc == 0) rgi_module_free(&m);
    rgi_arena_free(&a);
  }

  /* loader-2: the base alone reads its table through the loader, beside it. */
  {
    seen s = { .n = 0 };
    rg_loader ld = { mem_load, mem_release, &s };
    rgi_arena a;
    rgi_diag d;
    diags ds = { .n = 0 };
    rgi_module m;
    rgi_arena_init(&a, 0);
    rgi_diag_init(&d, &a, collect, &ds);
    int rc = rgi_compile_path(&d, "lib/base.rules", &ld, &m, NULL);
    CHECK(rc == 0, "loader-2 compiles: %s", ds.n ? ds.msg[0] : "");
    CHECK(s.n == 2 && strcmp(s.asked[0], "-|lib/base.rules|0") == 0 &&
          strcmp(s.asked[1], "lib/base.rules|score.tsv|1") == 0, "loader-2 asked %s, %s",
          s.asked[0], s.asked[1]);
    CHECK(rc == 0 && m.ncells == 2 && m.cells[1] == 2, "loader-2 cells");
    if (rc == 0) rgi_module_free(&m);
    rgi_arena_free(&a);
  }

  /* loader-3: a missing include is an error at the `extends` clause, with
  ** the loader's message; two errors in a file are two records. */
  {
    static const char text[] =
      "ruleset \"lost\" extends \"nowhere.rules\"\n";
    static const char two[] =
      "const a = x1\n"
      "const b = 2 + y22\n";
    seen s = { .n = 0 };
    rg_loader ld = { mem_load, mem_release, &s };
    rgi_arena a;
    rgi_diag d;
    diags ds = { .n = 0 };
    rgi_module m;
    rgi_arena_init(&a, 0);
    rgi_diag_init(&d, &a, collect, &ds);
    CHECK(rgi_compile_source(&d, "lib/lost.rules", text, strlen(text), &ld, &m, NULL) == -1,
          "loader-3 fails");
    CHECK(ds.n == 1 && ds.rec[0].located && ds.rec[0].line == 1 && ds.rec[0].col == 24 &&
          ds.rec[0].end_col == 39 && strcmp(ds.rec[0].path, "lib/lost.rules") == 0,
          "loader-3 position %d %u:%u-%u", ds.n, ds.rec[0].line, ds.rec[0].col, ds.rec[0].end_col);
    CHECK(ds.n == 1 && strcmp(ds.msg[0], "no file lib/nowhere.rules in memory") == 0,
          "loader-3 message '%s'", ds.msg[0]);
    CHECK(s.released == 0, "loader-3 nothing to release");
    rgi_arena_free(&a);

    ds.n = 0;
    rgi_arena_init(&a, 0);
    rgi_diag_init(&d, &a, collect, &ds);
    CHECK(rgi_compile_source(&d, "two.rules", two, strlen(two), &ld, &m, NULL) == -1,
          "loader-4 fails");
    CHECK(ds.n == 2 && d.errors == 2, "loader-4 two records, got %d", ds.n);
    CHECK(ds.n == 2 && ds.rec[0].line == 1 && ds.rec[0].col == 11 && ds.rec[0].end_col == 13,
          "loader-4.1 %u:%u-%u %s", ds.rec[0].line, ds.rec[0].col, ds.rec[0].end_col, ds.msg[0]);
    CHECK(ds.n == 2 && ds.rec[1].line == 2 && ds.rec[1].col == 15 && ds.rec[1].end_col == 18,
          "loader-4.2 %u:%u-%u %s", ds.rec[1].line, ds.rec[1].col, ds.rec[1].end_col, ds.msg[1]);
    rgi_arena_free(&a);
  }

  /* loader-5: rg_rules_nfiles and rg_rules_file name every file the rules
  ** were read from, as the loader resolved them: the file compiled first,
  ** the base it extends, the TSV its table reads (a table file), each once;
  ** a copy names its rules' files; a module its own file alone. */
  {
    static const char text[] = "ruleset \"derived\" extends \"base.rules\"\nconst x = 1\n";
    seen s = { .n = 0 };
    rg_loader ld = { mem_load, mem_release, &s };
    rg_compile_options o = RG_OPTIONS(rg_compile_options);
    rg_rules *r = NULL, *c = NULL, *two = NULL, *back = NULL;
    rg_load_kind k0 = RG_LOAD_TABLE, k1 = RG_LOAD_TABLE, k2 = RG_LOAD_RULES, k = RG_LOAD_RULES;
    o.loader = &ld;
    CHECK(rg_rules_compile("lib/derived.rules", text, strlen(text), &o, &r) == RG_OK,
          "loader-5 compiles");
    CHECK(rg_rules_nfiles(r) == 3, "loader-5 three files, got %u", (unsigned)rg_rules_nfiles(r));
    const char *f0 = rg_rules_file(r, 0, &k0), *f1 = rg_rules_file(r, 1, &k1),
               *f2 = rg_rules_file(r, 2, &k2);
    CHECK(f0 && strcmp(f0, "lib/derived.rules") == 0 && k0 == RG_LOAD_RULES, "loader-5 file 0 %s",
          f0 ? f0 : "NULL");
    CHECK(f1 && strcmp(f1, "lib/base.rules") == 0 && k1 == RG_LOAD_RULES, "loader-5 file 1 %s",
          f1 ? f1 : "NULL");
    CHECK(f2 && strcmp(f2, "lib/score.tsv") == 0 && k2 == RG_LOAD_TABLE, "loader-5 file 2 %s",
          f2 ? f2 : "NULL");
    CHECK(!rg_rules_file(r, 3, &k) && !rg_rules_file(r, 3, NULL) && rg_rules_file(r, 2, NULL),
          "loader-5 out of range");
    CHECK(rg_rules_nfiles(NULL) == 0 && !rg_rules_file(NULL, 0, NULL), "loader-5 NULL rules");
    CHECK(rg_rules_copy(r, &c) == RG_OK && rg_rules_nfiles(c) == 3 &&
          strcmp(rg_rules_file(c, 1, NULL), "lib/base.rules") == 0, "loader-5 a copy's files");
    CHECK(rg_rules_load("lib/two.rules", &o, &two) == RG_OK && rg_rules_nfiles(two) == 2 &&
          strcmp(rg_rules_file(two, 1, &k), "lib/score.tsv") == 0 && k == RG_LOAD_TABLE,
          "loader-5 two tables from one TSV: it is read once");
    {
      char path[] = "/tmp/regula-loader-XXXXXX", rbc[64];
      int fd = mkstemp(path);
      CHECK(fd >= 0, "loader-5 mkstemp");
      if (fd >= 0) {
        close(fd);
        unlink(path);
        snprintf(rbc, sizeof rbc, "%s.rbc", path);
        CHECK(r && rg_rules_save(r, rbc) == RG_OK, "loader-5 save");
        k = RG_LOAD_TABLE;
        CHECK(rg_rules_load(rbc, NULL, &back) == RG_OK && rg_rules_nfiles(back) == 1 &&
              strcmp(rg_rules_file(back, 0, &k), rbc) == 0 && k == RG_LOAD_RULES &&
              !rg_rules_file(back, 1, NULL), "loader-5 a module names itself alone");
        unlink(rbc);
      }
    }
    rg_rules_free(back);
    rg_rules_free(two);
    rg_rules_free(c);
    rg_rules_free(r);
  }

  return check_done("test_loader");
}
