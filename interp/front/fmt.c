/*
** fmt.c: the canonical layout of a rule file (`regula fmt`, rg_rules_format
** in regula.h).
**
** Works from the lexer's token stream, not from the syntax tree: the tree
** keeps no comments and no line breaks, and a layout is about exactly
** those.  The file is parsed first, only to refuse a file with syntax
** errors (reported as `regula check` reports them).  Comments are the text
** between two tokens from a `#` to the end of its line (strings are tokens,
** so a `#` in a gap always starts a comment).
**
** The layout:
**   - every token stays on its line: line breaks are the author's (they
**     carry no meaning in the language, and keeping them keeps every line
**     number a module, a message or an `assumed` listing shows);
**   - within a line, one space between tokens or none, by the pair of
**     tokens (see gap()): `f(a, b)`, `t[k]`, `x: T`, `0..14`, `-2`,
**     `a + b`, `{ x: 1 }` (a record literal, a block or a body), `{S, C}`
**     (a set), `{}`, `scale * = 2/3`; strings, numbers, distances and dice
**     as written; the expression of an `expect` as written from its second
**     token on (its text is what a failing test prints);
**   - indentation: two spaces per `{` open at the start of the line; inside
**     `(` or `[` left open on an earlier line, the column after the bracket
**     when something follows it on its line, else two spaces more; a line
**     that continues the one above (it starts with `assumed`, `source`,
**     `revision`, `from`, `->`, `extends`, `with`, a binary operator, `=`,
**     or the line above ends with one of them) two spaces more; a line
**     starting with a closing bracket at its opener's line's indentation;
**   - a comment on a line of its own is indented like code at that point;
**     a trailing comment keeps its column when the code leaves two spaces
**     before it (else it moves to two spaces after the code), and a run of
**     consecutive lines with trailing comments takes the column of its
**     first (or further, to clear the longest code);
**   - no trailing spaces, no tabs; blank lines stay where they are (a line
**     of spaces becomes empty: removing one would move the lines below it),
**     but for those at the end; one newline at the end.
**
** Formatting is idempotent, and the module compiled from the result equals
** the original's but for the display columns of its line table: every line
** number stays (tests/unit/test_fmt.c checks both on every file of rules/
** and tests/, as written and with blank lines added).
*/
#include "arena.h"
#include "diag.h"
#include "lex.h"
#include "outwatch.h"
#include "parse.h"
#include "parser.h"
#include "regula_front.h"

#include <string.h>
#include <utf8proc.h>

/* One token of the file, as the layout needs it. */
typedef struct ftok {
  int kind;
  const char *text;
  uint32_t len;
  uint32_t line;
} ftok;

/* One source line's part in the output. */
typedef struct fline {
  uint32_t first, count;    /* its tokens: toks[first .. first+count) */
  const char *comment;      /* a comment on it (from '#', trailing blanks cut) */
  uint32_t clen;
  uint32_t ccol;            /* the comment's display column in the source */
  int blank;                /* no token, no comment */
} fline;

/* A bracket open at some point of the output. */
typedef struct open_br {
  int kind;                 /* RG_TK_LBRACE, RG_TK_LP or RG_TK_LBRACKET */
  uint32_t content;         /* the indentation of lines inside it */
  uint32_t close;           /* the indentation of a line starting with its closer */
  int pad;                  /* a brace: a space inside it, `{ a }` (else `{a}`) */
  int aligned;              /* lines inside follow content, not statements */
  int items;                /* a brace around items separated by commas */
} open_br;

/* The formatter's state. */
typedef struct fstate {
  ftok *toks;
  uint32_t ntoks;
  fline *lines;
  uint32_t nlines;
  open_br *stack;
  uint32_t depth;
  rg_buf line;              /* the output line being built */
  uint32_t line_w;          /* its display width so far */
  uint8_t *same;            /* of the line's tokens: an opener closed on the line */
  uint32_t *opens;          /* scratch: the openers not yet closed */
  uint32_t cap;             /* the room in same and opens */
} fstate;

/* Returns whether kind is a binary operator (or `=`): a line starting or
** ending with one continues a statement.  `<` and `>` are left out: an
** ordered enum written one member a line ends its lines with them. */
static int binop(int kind) {
  switch (kind) {
  case RG_TK_AND: case RG_TK_OR: case RG_TK_MOD: case RG_TK_IN: case RG_TK_PLUS:
  case RG_TK_MINUS: case RG_TK_STAR: case RG_TK_SLASH: case RG_TK_EQ: case RG_TK_NE:
  case RG_TK_LE: case RG_TK_GE: case RG_TK_ASSIGN: case RG_TK_ARROW:
    return 1;
  default:
    return 0;
  }
}

/* Returns whether a line starting with kind continues the line above. */
static int continues(int kind) {
  switch (kind) {
  case RG_TK_ASSUMED: case RG_TK_SOURCE: case RG_TK_REVISION: case RG_TK_FROM:
  case RG_TK_EXTENDS: case RG_TK_WITH: case RG_TK_DOT: case RG_TK_DOTDOT:
    return 1;
  default:
    return kind != RG_TK_MINUS && binop(kind);
  }
}

/* Returns whether kind ends a value (a `-` after it is binary, a `(` or
** `[` after it a call or a lookup). */
static int ends_value(int kind) {
  switch (kind) {
  case RG_TK_NAME: case RG_TK_INTEGER: case RG_TK_PCT: case RG_TK_DIST: case RG_TK_STRING:
  case RG_TK_DICE: case RG_TK_UNDERSCORE: case RG_TK_TRUE: case RG_TK_FALSE: case RG_TK_RP:
  case RG_TK_RBRACKET: case RG_TK_RBRACE:
    return 1;
  default:
    return 0;
  }
}

/* Returns whether a brace after a token of kind prev opens a set or record
** literal (an expression), not a block or a declaration's body. */
static int literal_brace(int prev) {
  switch (prev) {
  case RG_TK_LP: case RG_TK_LBRACKET: case RG_TK_LBRACE: case RG_TK_COMMA: case RG_TK_COLON:
  case RG_TK_RETURN: case RG_TK_NOTE: case RG_TK_EXPECT: case RG_TK_NOT: case RG_TK_LT:
  case RG_TK_GT: case RG_TK_DOTDOT:
    return 1;
  default:
    return binop(prev);
  }
}

/* Returns whether the literal brace t[i] opens a record literal (`{name:`
** or `{r with`), not a set. */
static int record_brace(const ftok *t, uint32_t i, uint32_t n) {
  return i + 2 < n && t[i + 1].kind == RG_TK_NAME &&
         (t[i + 2].kind == RG_TK_COLON || t[i + 2].kind == RG_TK_WITH);
}

/* Returns whether the brace t[i] of a line of n tokens opens a list of
** items separated by commas (an enum, a record, a table's cells, the notes
** on a TSV's cells, a die's faces, a deck's cards, a literal) rather than a
** block of statements: in a block, a line ending in a comma continues.
** from is the index of the line's first `from` (n: none). */
static int item_brace(const ftok *t, uint32_t i, uint32_t n, int literal, uint32_t from) {
  int lead = (t[0].kind == RG_TK_OVERRIDE || t[0].kind == RG_TK_EXTEND) && n > 1 ? t[1].kind : t[0].kind;
  return literal || lead == RG_TK_ENUM || lead == RG_TK_RECORD || lead == RG_TK_TABLE ||
         lead == RG_TK_DICE_KW || lead == RG_TK_DECK || from < i;
}

/* Returns the spaces (0 or 1) between tokens a and b on one line; pp is
** the token before a (0 at the start of the line), lead the line's first
** token; pad says whether the brace a opens or b closes is padded. */
static int gap(int pp, int a, int b, int lead, int pad) {
  int a_unary = (a == RG_TK_MINUS || a == RG_TK_PLUS) && !ends_value(pp);
  if (a == RG_TK_LP || a == RG_TK_LBRACKET || a == RG_TK_DOT || a == RG_TK_DOTDOT || a_unary)
    return 0;
  if (b == RG_TK_RP || b == RG_TK_RBRACKET || b == RG_TK_COMMA || b == RG_TK_COLON ||
      b == RG_TK_DOT || b == RG_TK_DOTDOT)
    return 0;
  if (a == RG_TK_LBRACE) return b != RG_TK_RBRACE && pad;
  if (b == RG_TK_RBRACE) return a != RG_TK_LBRACE && pad;
  if (b == RG_TK_LP) return !(a == RG_TK_NAME || a == RG_TK_RP || a == RG_TK_RBRACKET ||
                              a == RG_TK_CHOOSE || a == RG_TK_DISTANCE ||
                              a == RG_TK_ROLL || a == RG_TK_DRAW);   /* roll(p, "x", d6) */
  if (b == RG_TK_LBRACKET) return !(a == RG_TK_NAME || a == RG_TK_RP || a == RG_TK_RBRACKET);
  if (lead == RG_TK_SCALE && (a == RG_TK_SLASH || b == RG_TK_SLASH)) return 0;   /* 2/3 */
  return 1;
}

/* Returns the display width of s[0..n). */
static uint32_t width(const char *s, size_t n) {
  uint32_t w = 0;
  size_t i = 0;
  while (i < n) {
    utf8proc_int32_t c;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                          (utf8proc_ssize_t)(n - i), &c);
    if (k <= 0) { w++; i++; continue; }
    w += c == '\t' ? 1 : (uint32_t)(utf8proc_charwidth(c) > 0 ? utf8proc_charwidth(c) : 0);
    i += (size_t)k;
  }
  return w;
}

/* Writes n spaces to o. */
static void spaces(rg_out *o, uint32_t n) {
  static const char sp[] = "                                ";
  while (n) {
    uint32_t k = n < 32 ? n : 32;
    rg_write(o, sp, k);
    n -= k;
  }
}

/* Pushes an open bracket; returns 0 or -1 when out of memory. */
static int push(fstate *f, open_br br) {
  if ((f->depth & (f->depth + 1)) == 0 || !f->stack) {    /* grow at 0, 1, 3, 7, ... */
    open_br *s = rg_realloc(f->stack, (size_t)(f->depth + 1) * 2 * sizeof *s);
    if (!s) return -1;
    f->stack = s;
  }
  f->stack[f->depth++] = br;
  return 0;
}

/* Marks in f->same, for each of the n tokens t of one line, whether it is
** a bracket closed on the line (brackets of any kind pair up, innermost
** first), in one pass.  Returns 0 or -1 when out of memory. */
static int mark_closed(fstate *f, const ftok *t, uint32_t n) {
  uint32_t top = 0;
  if (n > f->cap) {
    uint32_t cap = n < 64 ? 64 : n;
    uint8_t *s = rg_realloc(f->same, cap);
    uint32_t *o;
    if (s) f->same = s;
    o = s ? rg_realloc(f->opens, (size_t)cap * sizeof *o) : NULL;
    if (!o) return -1;
    f->opens = o;
    f->cap = cap;
  }
  for (uint32_t j = 0; j < n; j++) {
    int k = t[j].kind;
    f->same[j] = 0;
    if (k == RG_TK_LBRACE || k == RG_TK_LP || k == RG_TK_LBRACKET) f->opens[top++] = j;
    else if ((k == RG_TK_RBRACE || k == RG_TK_RP || k == RG_TK_RBRACKET) && top)
      f->same[f->opens[--top]] = 1;
  }
  return 0;
}

/* Writes s[0..n) to the output line, counting its display width. */
static void put_text(fstate *f, const char *s, size_t n) {
  rg_write(&f->line.out, s, n);
  f->line_w += width(s, n);
}

/* Writes n spaces to the output line, counting them. */
static void put_spaces(fstate *f, uint32_t n) {
  spaces(&f->line.out, n);
  f->line_w += n;
}

/* Returns the indentation of a code line whose first token is t, given the
** brackets open before it and the last token of the code line above (0:
** none); *stmt receives the indentation of the statement it belongs to
** (less than the line's when the line continues an expression), which
** blocks opened on the line are indented from. */
static uint32_t indent_of(const fstate *f, const ftok *t, int above, uint32_t *stmt) {
  const open_br *top = f->depth ? &f->stack[f->depth - 1] : NULL;
  uint32_t in = top ? top->content : 0;
  if (t->kind == RG_TK_RBRACE || t->kind == RG_TK_RP || t->kind == RG_TK_RBRACKET) {
    in = top ? top->close : 0;
  } else if (top && top->aligned) {
    /* inside a group aligned on its first item */
  } else if (binop(t->kind) || binop(above) ||
             (above == RG_TK_COMMA && top && top->kind == RG_TK_LBRACE && !top->items)) {
    *stmt = in;                     /* an expression goes on */
    return in + 2;
  } else if (continues(t->kind)) {
    in += 2;                        /* a clause of the declaration above */
  }
  *stmt = in;
  return in;
}

/* Lays out the code of source line ln (not its comment) into f->line,
** updating the open brackets; *code_w receives the display width of the
** line.  above is the last token of the code line above.  Returns 0 or -1
** when out of memory. */
static int code_line(fstate *f, const fline *ln, int above, uint32_t *code_w) {
  const ftok *t = &f->toks[ln->first];
  uint32_t n = ln->count, base, ind = indent_of(f, t, above, &base), from = n;
  int verbatim = 0;          /* past `expect X`: spaces as written */
  if (mark_closed(f, t, n) != 0) return -1;
  for (uint32_t i = 0; i < n && from == n; i++)
    if (t[i].kind == RG_TK_FROM) from = i;
  put_spaces(f, ind);
  for (uint32_t i = 0; i < n; i++) {
    const ftok *k = &t[i];
    int closer = k->kind == RG_TK_RBRACE || k->kind == RG_TK_RP || k->kind == RG_TK_RBRACKET;
    if (i && verbatim) {
      /* the source's own spaces: an expect's text is shown as written */
      const char *end = t[i - 1].text + t[i - 1].len;
      put_text(f, end, (size_t)(k->text - end));
    } else if (i) {
      int pad = 1;
      if ((closer || t[i - 1].kind == RG_TK_LBRACE) && f->depth) pad = f->stack[f->depth - 1].pad;
      put_spaces(f, (uint32_t)gap(i >= 2 ? t[i - 2].kind : 0, t[i - 1].kind, k->kind, t[0].kind, pad));
    }
    if (i && t[i - 1].kind == RG_TK_EXPECT) verbatim = 1;
    if (closer && f->depth) {
      /* a block opened after a closed group starts at the group's line */
      if (f->stack[f->depth - 1].close < base) base = f->stack[f->depth - 1].close;
      f->depth--;
    }
    put_text(f, k->text, k->len);
    if (k->kind == RG_TK_LBRACE || k->kind == RG_TK_LP || k->kind == RG_TK_LBRACKET) {
      int prev = i ? t[i - 1].kind : above, brace = k->kind == RG_TK_LBRACE;
      int literal = brace && t[0].kind != RG_TK_DICE_KW && t[0].kind != RG_TK_DECK &&
                    literal_brace(prev);
      int same = f->same[i];
      open_br br = { k->kind, base + 2, base, 0, 0, 0 };
      br.pad = brace && (!literal || !same || record_brace(t, i, n));
      br.items = brace && item_brace(t, i, n, literal, from);
      if (!same && i + 1 < n) {       /* aligned on what follows the opener */
        br.aligned = 1;
        br.content = f->line_w + (uint32_t)br.pad;
      }
      if (push(f, br) != 0) return -1;
    }
  }
  *code_w = f->line_w;
  return 0;
}

/* Writes the lines of f to out. */
static int layout(fstate *f, rg_out *out) {
  int above = 0;
  uint32_t pending_blank = 0;  /* blank lines not yet written (none at the end) */
  uint32_t run_col = 0;      /* the comment column of the current run, 0: none */
  rg_buf_init(&f->line);
  for (uint32_t li = 0; li < f->nlines; li++) {
    const fline *ln = &f->lines[li];
    uint32_t code_w = 0;
    if (ln->blank) {
      pending_blank++;
      run_col = 0;
      continue;
    }
    for (; pending_blank; pending_blank--) rg_putc(out, '\n');
    f->line.len = 0;
    f->line_w = 0;
    if (ln->count) {
      if (code_line(f, ln, above, &code_w) != 0) return -1;
      above = f->toks[ln->first + ln->count - 1].kind;
    } else {
      const open_br *top = f->depth ? &f->stack[f->depth - 1] : NULL;
      spaces(&f->line.out, top ? top->content : 0);
    }
    if (ln->comment && ln->count) {
      uint32_t col = ln->ccol > code_w + 2 ? ln->ccol - 1 : code_w + 2;
      if (run_col && run_col - 1 >= code_w + 2) col = run_col - 1;
      spaces(&f->line.out, col - code_w);
      run_col = col + 1;
    } else {
      run_col = 0;
    }
    if (ln->comment) rg_write(&f->line.out, ln->comment, ln->clen);
    if (f->line.out.failed) return -1;
    rg_write(out, f->line.data ? f->line.data : "", f->line.len);
    rg_putc(out, '\n');
  }
  return 0;
}

/* Adds the comment that starts at p (a '#') on source line `line` to the
** lines; line_start is that line's first byte.  Returns the end of the
** comment (its newline or the end of the text). */
static const char *take_comment(fstate *f, const char *p, const char *end, uint32_t line,
                                const char *line_start) {
  const char *e = p;
  uint32_t n;
  fline *ln;
  while (e < end && *e != '\n') e++;
  n = (uint32_t)(e - p);
  while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r')) n--;
  if (line - 1 < f->nlines) {
    ln = &f->lines[line - 1];
    ln->comment = p;
    ln->clen = n;
    ln->ccol = width(line_start, (size_t)(p - line_start)) + 1;
    ln->blank = 0;
  }
  return e;
}

/* Scans the text between two tokens, text[from..to), which starts on line
** *line, for comments; *line_start tracks the first byte of that line. */
static void scan_gap(fstate *f, const char *from, const char *to, uint32_t *line,
                     const char **line_start) {
  const char *p = from;
  while (p < to) {
    if (*p == '\n') {
      (*line)++;
      *line_start = p + 1;
      p++;
    } else if (*p == '#') {
      p = take_comment(f, p, to, *line, *line_start);
    } else {
      p++;
    }
  }
}

/* Formats d->files[file] into out.  Returns 0, -1 after reporting syntax
** errors through d, -2 when out of memory. */
static int format_file(rgi_diag *d, uint32_t file, rgi_arena *arena, rg_out *out) {
  fstate f;
  rgi_lexer lx;
  rgi_token t;
  const char *text, *prev_end, *line_start;
  uint32_t cap = 0, line = 1;
  int rc = 0;
  if (!rgi_parse(d, file, arena)) return -2;
  if (d->errors) return -1;
  memset(&f, 0, sizeof f);
  text = d->files[file]->text;
  for (const char *p = text; *p; p++) f.nlines += *p == '\n';
  f.nlines++;
  f.lines = rg_malloc((size_t)f.nlines * sizeof *f.lines);
  if (!f.lines) return -2;
  for (uint32_t i = 0; i < f.nlines; i++) f.lines[i] = (fline){ 0, 0, NULL, 0, 0, 1 };
  rgi_lex_init(&lx, d, file, arena);
  prev_end = line_start = text;
  while (rgi_lex(&lx, &t) != 0) {
    fline *ln;
    scan_gap(&f, prev_end, t.text, &line, &line_start);
    if (f.ntoks == cap) {
      ftok *nt = rg_realloc(f.toks, (size_t)(cap = cap ? 2 * cap : 1024) * sizeof *nt);
      if (!nt) { rc = -2; goto done; }
      f.toks = nt;
    }
    f.toks[f.ntoks] = (ftok){ t.kind, t.text, t.len, t.pos.line };
    ln = &f.lines[t.pos.line - 1];
    if (ln->count == 0) ln->first = f.ntoks;
    ln->count++;
    ln->blank = 0;
    f.ntoks++;
    prev_end = t.text + t.len;
  }
  scan_gap(&f, prev_end, prev_end + strlen(prev_end), &line, &line_start);
  if (d->errors) rc = -1;
  else if (layout(&f, out) != 0) rc = -2;
done:
  rg_buf_free(&f.line);
  rg_free(f.same);
  rg_free(f.opens);
  rg_free(f.stack);
  rg_free(f.toks);
  rg_free(f.lines);
  return rc;
}

rg_status rg_rules_format(const char *name, const char *text, size_t len,
                          const rg_compile_options *opt, rg_out *out) {
  rgi_arena arena;
  rgi_diag d;
  uint32_t file;
  int rc;
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  rgi_arena_init(&arena, 0);
  rgi_diag_init(&d, &arena, opt ? opt->diagnostic : NULL, opt ? opt->diagnostic_ctx : NULL);
  if (rgi_diag_add_text(&d, name, text ? text : "", len, &file) != 0) rc = d.oom ? -2 : -1;
  else rc = format_file(&d, file, &arena, o);
  if (arena.failed && rc == 0) rc = -2;
  if (w.out.failed && rc == 0) rc = -2;        /* rg_printf's memory */
  if (rc == -2 && !d.oom) rgi_diag_oom(&d);
  rgi_arena_free(&arena);
  return rgi_watch_end(&w, rc == 0 ? RG_OK : rc == -1 ? RG_BAD_RULES : RG_NOMEM);
}
