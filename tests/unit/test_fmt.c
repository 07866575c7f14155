/*
** test_fmt.c: `regula fmt` (rg_rules_format) on every rule file of rules/
** and tests/ (run from the repository's root):
**
**   - formatting is idempotent: format(format(x)) == format(x);
**   - a file that compiles compiles to the same module after formatting,
**     byte for byte once the display columns of the line table are zeroed
**     (re-indenting moves columns by design; every line stays), and so
**     does the file with blank lines added (three at the start, two before
**     each line at column 0, three at the end): `fmt --help` promises
**     that every line number stays;
**   - a file that does not compile gives as many errors after formatting;
**   - a file with syntax errors is refused (RG_BAD_RULES), nothing written.
**
** Plus a few layouts worked out by hand.
*/
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "module.h"
#include "regula_front.h"
#include "check.h"

static int files, compiled;

/* Reads the file at path into a malloc'd NUL-terminated buffer; NULL when
** it cannot. */
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
  if (buf) buf[n] = '\0';
  fclose(f);
  *len = (size_t)n;
  return buf;
}

/* Formats text[0..len) called name into *b (initialised here).  Returns the
** status. */
static rg_status format(const char *name, const char *text, size_t len, rg_buf *b) {
  rg_buf_init(b);
  return rg_rules_format(name, text, len, NULL, &b->out);
}

/* Compiles text as the file `name` (its extends and tables from the disk)
** and serialises the module with the columns of its line table zeroed into
** *out (rg_malloc'd).  Returns the number of errors (0: compiled), or -1
** when out of memory. */
static int module_bytes(const char *name, const char *text, size_t len, unsigned char **out,
                        size_t *outlen) {
  rgi_arena arena;
  rgi_diag d;
  rgi_module m;
  int rc, errors;
  *out = NULL;
  memset(&m, 0, sizeof m);
  rgi_arena_init(&arena, 0);
  rgi_diag_init(&d, &arena, NULL, NULL);
  rc = rgi_compile_source(&d, name, text, len, NULL, &m, NULL);
  errors = d.errors;
  if (rc == 0) {
    for (uint32_t i = 0; i < m.nlines; i++) m.lines[i].col = 0;
    if (rgi_module_serialize(&m, out, outlen) != 0) errors = -1;
    rgi_module_free(&m);
  } else if (!errors) {
    errors = -1;
  }
  rgi_arena_free(&arena);
  return errors;
}

/* Returns text[0..len) with blank lines added: three at the start, two
** before each line that starts at column 0 but the first, three at the end
** (malloc'd, its length in *outlen). */
static char *add_blank_lines(const char *text, size_t len, size_t *outlen) {
  size_t lines = 1, n = 0;
  char *out;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  if (!(out = malloc(len + 2 * lines + 8))) return NULL;
  memcpy(out, "\n\n\n", 3);
  n = 3;
  for (size_t i = 0; i < len; i++) {
    if (i > 0 && text[i - 1] == '\n' && text[i] != ' ' && text[i] != '\n') {
      out[n++] = '\n';
      out[n++] = '\n';
    }
    out[n++] = text[i];
  }
  memcpy(out + n, "\n\n\n", 3);
  *outlen = n + 3;
  return out;
}

/* Checks that text (the file path, with blank lines added) compiles to the
** module its formatted text compiles to, line numbers and all. */
static void same_lines(const char *path, const char *text, size_t len) {
  size_t plen;
  char *p = add_blank_lines(text, len, &plen);
  rg_buf f;
  unsigned char *a = NULL, *b = NULL;
  size_t alen = 0, blen = 0;
  if (!p) return;
  if (format(path, p, plen, &f) == RG_OK && module_bytes(path, p, plen, &a, &alen) == 0) {
    int eb = module_bytes(path, f.data ? f.data : "", f.len, &b, &blen);
    CHECK(eb == 0 && alen == blen && memcmp(a, b, alen) == 0,
          "%s with blank lines added: the module changes when formatted (a line moved?)", path);
  }
  rg_free(a);
  rg_free(b);
  rg_buf_free(&f);
  free(p);
}

/* nftw callback: checks one .rules file. */
static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw) {
  size_t len, n = strlen(path);
  char *text;
  rg_buf once, twice;
  rg_status st;
  (void)sb;
  (void)ftw;
  if (type != FTW_F || n < 6 || strcmp(path + n - 6, ".rules") != 0) return 0;
  if (!(text = slurp(path, &len))) {
    CHECK(0, "%s: cannot read", path);
    return 0;
  }
  files++;
  st = format(path, text, len, &once);
  if (st == RG_BAD_RULES) {
    CHECK(once.len == 0, "%s: syntax errors, yet output was written", path);
  } else if (st != RG_OK) {
    CHECK(0, "%s: format failed: %s", path, rg_status_name(st));
  } else {
    unsigned char *a = NULL, *b = NULL;
    size_t alen = 0, blen = 0;
    int ea, eb;
    CHECK(format(path, once.data ? once.data : "", once.len, &twice) == RG_OK &&
              twice.len == once.len && memcmp(twice.data, once.data, once.len) == 0,
          "%s: formatting twice differs from once", path);
    rg_buf_free(&twice);
    ea = module_bytes(path, text, len, &a, &alen);
    eb = module_bytes(path, once.data ? once.data : "", once.len, &b, &blen);
    if (ea == 0) {
      compiled++;
      same_lines(path, text, len);
      CHECK(eb == 0 && alen == blen && memcmp(a, b, alen) == 0,
            "%s: the module changes when formatted (%d errors; %zu vs %zu bytes)", path, eb, alen,
            blen);
    } else {
      CHECK(eb == ea, "%s: %d errors before formatting, %d after", path, ea, eb);
    }
    rg_free(a);
    rg_free(b);
  }
  rg_buf_free(&once);
  free(text);
  return 0;
}

/* Checks that src formats to want. */
static void layout(const char *src, const char *want) {
  rg_buf b;
  rg_status st = format("layout.rules", src, strlen(src), &b);
  CHECK(st == RG_OK && b.len == strlen(want) && memcmp(b.data, want, b.len) == 0,
        "layout of:\n%s\ngot:\n%.*s\nwant:\n%s", src, (int)b.len, b.data ? b.data : "", want);
  rg_buf_free(&b);
}

/* A sink for formatted text that needs no allocation: up to 4 KiB kept. */
typedef struct sink {
  char text[4096];
  size_t len;
  int refuse;               /* 1: every write fails */
} sink;

static int sink_write(void *ctx, const char *s, size_t n) {
  sink *k = ctx;
  if (k->refuse || k->len + n >= sizeof k->text) return -1;
  memcpy(k->text + k->len, s, n);
  k->len += n;
  k->text[k->len] = '\0';
  return 0;
}

/* Counts the diagnostics: ctx is int[2], "out of memory" ones and others. */
static void count_diag(void *ctx, const rg_diagnostic *d) {
  int *n = ctx;
  n[strcmp(d->message, "out of memory") != 0]++;
}

int main(void) {
  /* hand-made layouts */
  /* blank lines stay (a line of spaces becomes empty), but at the end */
  layout("enum  c {A<B}\n\n  \n\nconst x=-1# one\nconst yy = {A,B}   # two\n",
         "enum c { A < B }\n\n\n\nconst x = -1  # one\nconst yy = {A, B}  # two\n");
  layout("procedure f(a: int,\n  b: int) -> int {\n if a>b { return a-b }\n"
         "    return f(b,\n    a)\n}\n",
         "procedure f(a: int,\n            b: int) -> int {\n  if a > b { return a - b }\n"
         "  return f(b,\n           a)\n}\n");
  layout("table t(k: 0..2) -> int { 0..1: 1, else: 2 }\n  assumed \"x\"\n",
         "table t(k: 0..2) -> int { 0..1: 1, else: 2 }\n  assumed \"x\"\n");
  layout("procedure g() -> int {\nlet r={ x: 1 , y:[1,2] }\n  let s = t[1]  +\n 2\n"
         "note \"n\",\n r.x\nreturn r.y[0]*s }\n",
         "procedure g() -> int {\n  let r = { x: 1, y: [1, 2] }\n  let s = t[1] +\n    2\n"
         "  note \"n\",\n    r.x\n  return r.y[0] * s }\n");
  /* a list or call opened at a line's end: its items one indentation in,
  ** all alike (a comma ends an item there, it does not continue one) */
  layout("procedure h() -> int {\n  let q = { a: [\n1,\n 2,\n   3\n], b: 2 }\n"
         "  return f(\n1,\n   2\n)\n}\n",
         "procedure h() -> int {\n  let q = { a: [\n    1,\n    2,\n    3\n  ], b: 2 }\n"
         "  return f(\n    1,\n    2\n  )\n}\n");
  layout("test \"t\" {\nexpect  f({a:1})==2 and x\n}\n",
         "test \"t\" {\n  expect f({a:1})==2 and x\n}\n");
  layout("\n\n# c\nscale * = 2 / 3 round up\n\n", "\n\n# c\nscale * = 2/3 round up\n");
  {
    rg_buf b;
    CHECK(format("bad.rules", "const = 1\n", 10, &b) == RG_BAD_RULES && b.len == 0,
          "a syntax error is refused with nothing written");
    rg_buf_free(&b);
  }
  {
    /* fmt-oom: every allocation that fails (the lines, the tokens, the
    ** stack of open brackets, the parse) ends in RG_NOMEM with one "out of
    ** memory" diagnostic and no other; past the last, the text is the one
    ** formatted without failures */
    static const char text[] =
      "# deep\nprocedure f(a: int,\n  b: int) -> int {\n let q = { a: [\n1,\n [2, [3, [4, [5,\n"
      "[6, [7, [8, [9]]]]]]]]\n], b: 2 }\n  if a>b { return a-b }  # there\n"
      "    return f(b,\n    a)\n}\n\n\n\nenum c {A<B}\n";
    static sink want, got;
    rg_compile_options opt = RG_OPTIONS(rg_compile_options);
    rg_out o = { sink_write, &want, 0 };
    int counts[2] = {0, 0};
    unsigned long k;
    opt.diagnostic = count_diag;
    opt.diagnostic_ctx = counts;
    CHECK(rg_rules_format("oom.rules", text, strlen(text), &opt, &o) == RG_OK && counts[1] == 0,
          "fmt-oom the text formats");
    for (k = 1; k < 2000; k++) {
      rg_status st;
      memset(&got, 0, sizeof got);
      o = (rg_out){ sink_write, &got, 0 };
      counts[0] = counts[1] = 0;
      rg_alloc_fail_at(k);
      st = rg_rules_format("oom.rules", text, strlen(text), &opt, &o);
      rg_alloc_fail_at(0);
      if (st == RG_OK) {
        CHECK(strcmp(got.text, want.text) == 0, "fmt-oom after %lu failures:\n%s", k, got.text);
        break;
      }
      CHECK(st == RG_NOMEM && counts[0] == 1 && counts[1] == 0,
            "fmt-oom failure %lu: %s, %d out of memory, %d other", k, rg_status_name(st),
            counts[0], counts[1]);
    }
    CHECK(k > 3 && k < 2000, "fmt-oom ended after %lu", k);
    /* fmt-io: an out that refuses every write gives RG_IO */
    memset(&got, 0, sizeof got);
    got.refuse = 1;
    o = (rg_out){ sink_write, &got, 0 };
    CHECK(rg_rules_format("io.rules", text, strlen(text), NULL, &o) == RG_IO, "fmt-io");
  }
  nftw("rules", visit, 16, FTW_PHYS);
  nftw("tests", visit, 16, FTW_PHYS);
  CHECK(files > 200 && compiled > 100, "files seen: %d, compiled: %d", files, compiled);
  printf("fmt: %d files (%d compile), %d passed, %d failed\n", files, compiled, passed, failed);
  return failed ? 1 : 0;
}
