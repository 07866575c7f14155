/*
** test_diag.c: diagnostics as records (diag.h, regula.h).
**
** The library hands each diagnostic to a callback, or keeps it, and prints
** nothing itself: stdout and stderr are redirected to a file for the whole
** test, which must stay empty.  Rendering a record gives the text the
** program prints.
*/
#include "arena.h"
#include "diag.h"
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed, failed;

#define CHECK(cond, ...) do { \
    if (cond) passed++; \
    else { failed++; fprintf(report, "FAIL %s:%d: ", __FILE__, __LINE__); \
           fprintf(report, __VA_ARGS__); fputc('\n', report); } \
  } while (0)

static FILE *report;        /* the real stdout, for this test's own lines */

/* Callback: copies each record's fields into the array ctx points to. */
typedef struct seen {
  rg_diagnostic rec[64];
  char msg[64][128];
  int n;
} seen;

static void collect(void *ctx, const rg_diagnostic *d) {
  seen *s = ctx;
  if (s->n >= 64) return;
  s->rec[s->n] = *d;
  snprintf(s->msg[s->n], sizeof s->msg[s->n], "%s", d->message);
  s->rec[s->n].message = s->msg[s->n];
  s->n++;
}

/* A loader that hands back a small TSV text for any name. */
static rg_status fake_load(void *ctx, const char *from, const char *name, rg_load_kind kind,
                           rg_source *src, char *err, size_t errlen) {
  (void)ctx, (void)from, (void)kind, (void)err, (void)errlen;
  src->text = "k\tv\n";
  src->len = 4;
  src->path = name;
  return RG_OK;
}

int main(void) {
  /* Keep our own report on a copy of stdout; the library's stdout and
  ** stderr go to a file that must stay empty. */
  char quiet[] = "/tmp/regula-diag-XXXXXX";
  int qfd = mkstemp(quiet);
  int out = dup(1);
  report = out >= 0 ? fdopen(out, "w") : NULL;
  if (qfd < 0 || !report) { printf("FAIL %s: cannot set up\n", __FILE__); return 1; }
  fflush(stdout);
  dup2(qfd, 1);
  dup2(qfd, 2);

  /* diag-1: two errors give two records, with line, display column and
  ** the end of the token under it; "é" is one column wide, "天" two. */
  {
    rgi_arena a;
    rgi_diag d;
    seen s = { .n = 0 };
    uint32_t ix;
    const char *text = "const x = 1\nconst é = \"two words\" + bad_name\n  天 oops\n";
    rgi_arena_init(&a, 0);
    rgi_diag_init(&d, &a, collect, &s);
    CHECK(rgi_diag_add_text(&d, "t.rules", text, strlen(text), &ix) == 0, "diag-1 add");
    rgi_error(&d, (rgi_pos){ ix, 2, 12 }, "first %s", "one");     /* at the string */
    rgi_error(&d, (rgi_pos){ ix, 3, 7 }, "second");                /* "oops" after 天 */
    CHECK(s.n == 2 && d.errors == 2, "diag-1 count %d", s.n);
    CHECK(s.rec[0].located && s.rec[0].line == 2 && s.rec[0].col == 11 &&
          s.rec[0].end_col == 22 && s.rec[0].byte_col == 12,
          "diag-1.1 line %u col %u end %u", s.rec[0].line, s.rec[0].col, s.rec[0].end_col);
    CHECK(strcmp(s.msg[0], "first one") == 0 && strcmp(s.rec[0].path, "t.rules") == 0,
          "diag-1.1 message '%s'", s.msg[0]);
    CHECK(s.rec[1].line == 3 && s.rec[1].col == 6 && s.rec[1].end_col == 10,
          "diag-1.2 col %u end %u", s.rec[1].col, s.rec[1].end_col);
    CHECK(s.rec[1].severity == RG_SEVERITY_ERROR, "diag-1.2 severity");
    rgi_arena_free(&a);
  }

  /* diag-2: without a callback the records are kept, in order. */
  {
    rgi_arena a;
    rgi_diag d;
    uint32_t ix;
    int n = 0;
    rgi_arena_init(&a, 0);
    rgi_diag_init(&d, &a, NULL, NULL);
    rgi_diag_add_text(&d, "k.rules", "a\nb\n", 4, &ix);
    rgi_error(&d, (rgi_pos){ ix, 1, 1 }, "one");
    rgi_error_plain(&d, "too many source files (limit %d)", 256);
    rgi_error(&d, (rgi_pos){ ix, 2, 1 }, "two");
    for (const rgi_diag_kept *k = d.kept; k; k = k->next) n++;
    CHECK(n == 3, "diag-2 kept %d", n);
    CHECK(d.kept && strcmp(d.kept->rec.message, "one") == 0, "diag-2 first");
    CHECK(d.kept && d.kept->next && !d.kept->next->rec.located &&
          strcmp(d.kept->next->rec.message, "too many source files (limit 256)") == 0,
          "diag-2 plain");
    rgi_arena_free(&a);
  }

  /* diag-3: rendering is the program's text, byte for byte. */
  {
    rgi_arena a;
    rgi_diag d;
    rg_buf b;
    uint32_t ix;
    const char *text = "x\n\ttab \xC3\xA9x bad\n";
    rgi_arena_init(&a, 0);
    rg_buf_init(&b);
    rgi_diag_init(&d, &a, rg_diagnostic_print, &b.out);
    rgi_diag_add_text(&d, "r.rules", text, strlen(text), &ix);
    rgi_error(&d, (rgi_pos){ ix, 2, 10 }, "no '%s'", "bad");
    rgi_error_plain(&d, "cannot open %s", "y.rules");
    CHECK(b.data && strcmp(b.data,
                           "r.rules:2:9: error: no 'bad'\n"
                           "    \ttab \xC3\xA9x bad\n"
                           "    \t       ^\n"      /* "tab " 4, é 1, x 1, space 1 */
                           "regula: error: cannot open y.rules\n") == 0,
          "diag-3 text:\n%s", b.data ? b.data : "(none)");
    rg_buf_free(&b);
    rgi_arena_free(&a);
  }

  /* diag-4: the cap: 50 errors, then one note, then nothing; out of memory
  ** is reported once, even past the cap. */
  {
    rgi_arena a;
    rgi_diag d;
    seen s = { .n = 0 };
    uint32_t ix;
    rgi_arena_init(&a, 0);
    rgi_diag_init(&d, &a, collect, &s);
    rgi_diag_add_text(&d, "c.rules", "x\n", 2, &ix);
    for (int i = 0; i < 60; i++) rgi_error(&d, (rgi_pos){ ix, 1, 1 }, "e%d", i);
    rgi_diag_oom(&d);
    rgi_error_plain(&d, "out of memory");
    CHECK(s.n == 52, "diag-4 records %d", s.n);
    CHECK(s.n == 52 && s.rec[50].severity == RG_SEVERITY_NOTE && !s.rec[50].located &&
          strcmp(s.msg[50], "too many errors, stopping here") == 0, "diag-4 note");
    CHECK(s.n == 52 && strcmp(s.msg[51], "out of memory") == 0 && a.failed, "diag-4 oom");
    CHECK(d.errors == 61, "diag-4 errors %d", d.errors);
    rgi_arena_free(&a);
  }

  /* diag-5: a message longer than any fixed buffer arrives whole. */
  {
    rgi_arena a;
    rgi_diag d;
    rg_buf b;
    uint32_t ix;
    char longname[3000];
    memset(longname, 'n', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    rgi_arena_init(&a, 0);
    rg_buf_init(&b);
    rgi_diag_init(&d, &a, rg_diagnostic_print, &b.out);
    rgi_diag_add_text(&d, "l.rules", "x\n", 2, &ix);
    rgi_error(&d, (rgi_pos){ ix, 1, 1 }, "no '%s'", longname);
    CHECK(b.data && strlen(b.data) == strlen("l.rules:1:1: error: no ''\n    x\n    ^\n") + 2999,
          "diag-5 length %zu", b.data ? strlen(b.data) : 0);
    rg_buf_free(&b);
    rgi_arena_free(&a);
  }

  /* diag-6: at most RG_MAX_FILES source files: the first file past it is
  ** an error at the clause that asked for it (or a plain one), said once;
  ** a later one only counts. */
  {
    rgi_arena a;
    rgi_diag d;
    seen s = { .n = 0 };
    uint32_t ix = 0, first = 0;
    int rc = 0;
    char name[32];
    rgi_arena_init(&a, 0);
    rgi_diag_init(&d, &a, collect, &s);
    for (int i = 0; i < RG_MAX_FILES && rc == 0; i++) {
      snprintf(name, sizeof name, "f%d.rules", i);
      rc = rgi_diag_add_text(&d, name, "x\n", 2, &ix);
      if (i == 0) first = ix;
    }
    CHECK(rc == 0 && d.nfiles == RG_MAX_FILES && s.n == 0, "diag-6 %d files", (int)d.nfiles);
    CHECK(rgi_diag_add_text(&d, "one-more.rules", "y\n", 2, &ix) == -1, "diag-6 one more refused");
    CHECK(rgi_diag_add_text(&d, "two-more.rules", "y\n", 2, &ix) == -1, "diag-6 two more refused");
    CHECK(s.n == 1 && !s.rec[0].located &&
          strcmp(s.msg[0], "too many source files (limit 256)") == 0 && d.errors == 2,
          "diag-6 said once (%d records, %d errors)", s.n, d.errors);
    rgi_arena_free(&a);
    /* at a clause: through a loader, with the position that asked */
    rgi_arena_init(&a, 0);
    s.n = 0;
    rgi_diag_init(&d, &a, collect, &s);
    for (int i = 0; i < RG_MAX_FILES; i++) {
      snprintf(name, sizeof name, "g%d.rules", i);
      rgi_diag_add_text(&d, name, "table t from \"x.tsv\"\n", 21, &ix);
    }
    {
      rg_loader ld = { fake_load, NULL, NULL };
      rgi_pos at = { first, 1, 14 };
      CHECK(rgi_diag_fetch(&d, &ld, "g0.rules", "x.tsv", RG_LOAD_TABLE, &at, &ix) == -1,
            "diag-6 fetch refused");
      CHECK(s.n == 1 && s.rec[0].located && s.rec[0].line == 1 && s.rec[0].col == 14 &&
            strcmp(s.msg[0], "too many source files (limit 256)") == 0,
            "diag-6 at the clause (%d records)", s.n);
    }
    rgi_arena_free(&a);
  }

  /* diag-7: display and byte columns; "天" is 3 bytes, 2 columns wide */
  {
    const char *l = "a\xE5\xA4\xA9" "b";    /* a天b: bytes 1, 2-4, 5 */
    rg_buf b;
    CHECK(rgi_display_col(l, 5, 5) == 4, "diag-7 b is at column 4");
    CHECK(rgi_display_col(l, 5, 0) == 1, "diag-7 column 0 is the first");
    CHECK(rgi_display_col(l, 5, 99) == 5, "diag-7 past the end: one after the line");
    CHECK(rgi_byte_col(l, 5, 4) == 5, "diag-7 column 4 is byte 5");
    CHECK(rgi_byte_col(l, 5, 3) == 0, "diag-7 column 3 is inside 天");
    CHECK(rgi_byte_col(l, 5, 9) == 0, "diag-7 column 9 is past the line");
    CHECK(rgi_text_width("\xC3\xA9\xE5\xA4\xA9") == 3, "diag-7 width of é天");
    rg_buf_init(&b);
    rgi_put_cell(&b.out, l, 2, 1);          /* 天 does not fit after a */
    rgi_put_cell(&b.out, "|\xE5\xA4\xA9", 5, 0);
    rg_putc(&b.out, '|');
    CHECK(b.data && strcmp(b.data, "a |\xE5\xA4\xA9  |") == 0, "diag-7 cells '%s'",
          b.data ? b.data : "");
    rg_buf_free(&b);
    CHECK(rgi_unsafe_char(0x1B) && rgi_unsafe_char(0x7F) && rgi_unsafe_char(0x9F) &&
          !rgi_unsafe_char(0xA0) && rgi_unsafe_char(0x202A) && rgi_unsafe_char(0x202E) &&
          !rgi_unsafe_char(0x202F) && rgi_unsafe_char(0x2066) && rgi_unsafe_char(0x2069) &&
          !rgi_unsafe_char(0x206A) && !rgi_unsafe_char('a'), "diag-7 unsafe characters");
  }

  /* diag-8: rgi_diag_col on a long line (past RG_COL_STEP bytes, through
  ** the marks) and on the line after it; positions it cannot place are
  ** given back as they came */
  {
    rgi_arena a;
    rgi_diag d;
    uint32_t ix;
    static char text[600 * 3 + 1 + 1000 + 2];
    size_t n = 0;
    for (int i = 0; i < 600; i++) { memcpy(text + n, "\xE5\xA4\xA9", 3); n += 3; }
    text[n++] = '\n';
    memset(text + n, 'x', 1000);
    n += 1000;
    text[n++] = '\n';
    rgi_arena_init(&a, 0);
    rgi_diag_init(&d, &a, NULL, NULL);
    CHECK(rgi_diag_add_text(&d, "w.rules", text, n, &ix) == 0, "diag-8 add");
    CHECK(rgi_diag_col(&d, ix, 1, 1501) == 1001, "diag-8 char 501 of line 1: %u",
          rgi_diag_col(&d, ix, 1, 1501));
    CHECK(rgi_diag_col(&d, ix, 1, 4) == 3, "diag-8 char 2 of line 1");
    CHECK(rgi_diag_col(&d, ix, 2, 700) == 700, "diag-8 line 2: %u", rgi_diag_col(&d, ix, 2, 700));
    CHECK(rgi_diag_col(&d, ix, 2, 5000) == 1001, "diag-8 past the end of line 2: %u",
          rgi_diag_col(&d, ix, 2, 5000));
    CHECK(rgi_diag_col(&d, ix + 1, 1, 7) == 7 && rgi_diag_col(&d, ix, 0, 7) == 7 &&
          rgi_diag_col(&d, ix, 99, 7) == 7, "diag-8 no such file or line");
    CHECK(rgi_diag_line(&d, ix, 0, &n) == NULL && rgi_diag_line(&d, ix + 1, 1, &n) == NULL &&
          rgi_diag_line(&d, ix, 99, &n) == NULL, "diag-8 no such line");
    rgi_arena_free(&a);
  }

  /* diag-9: a runtime error as the program prints it: with its line and
  ** caret when the rules hold the file, else one line */
  {
    rgi_arena a;
    rgi_diag d;
    uint32_t ix;
    rg_buf b;
    const char *text = "x\nab\xE5\xA4\xA9" "c = 1\n";
    rgi_arena_init(&a, 0);
    rgi_diag_init(&d, &a, NULL, NULL);
    rgi_diag_add_text(&d, "r.rules", text, strlen(text), &ix);
    rg_buf_init(&b);
    rgi_diag_runtime(&d, "boom", "r.rules", 2, 5, &b.out);      /* c: column 5 */
    rgi_diag_runtime(&d, "mid", "r.rules", 2, 4, &b.out);       /* inside 天 */
    rgi_diag_runtime(&d, "elsewhere", "o.rules", 3, 2, &b.out);
    rgi_diag_runtime(NULL, "none", "o.rules", 1, 1, &b.out);
    rgi_diag_runtime(&d, "nowhere", NULL, 0, 0, &b.out);
    CHECK(b.data && strcmp(b.data,
                           "r.rules:2:5: error: boom\n"
                           "    ab\xE5\xA4\xA9" "c = 1\n"
                           "        ^\n"
                           "r.rules:2:4: error: mid\n"
                           "o.rules:3:2: error: elsewhere\n"
                           "o.rules:1:1: error: none\n"
                           "regula: error: nowhere\n") == 0,
          "diag-9 text:\n%s", b.data ? b.data : "(none)");
    rg_buf_free(&b);
    rgi_arena_free(&a);
  }

  fflush(stdout);
  fflush(stderr);
  {
    long size = lseek(qfd, 0, SEEK_END);
    CHECK(size == 0, "the library printed %ld bytes", size);
  }
  close(qfd);
  unlink(quiet);
  fprintf(report, "test_diag: %d passed, %d failed\n", passed, failed);
  fclose(report);
  return failed != 0;
}
