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
