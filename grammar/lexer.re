/*
** lexer.re: the tokens of a rule file (docs/language.md, "Lexical
** structure"), as one re2c table.
**
** The input is the NFC, LF-only, NUL-terminated text that diag.c loaded.  The
** NUL at lx->lim is the sentinel: `re2c:eof` makes re2c compare the cursor with
** YYLIMIT when it reads a NUL, so the input may end anywhere, even inside a
** string.  Positions are 1-based lines and 1-based byte columns; diag.c turns
** byte columns into display columns when it prints.
**
** Rules are in columns: the pattern, then what it returns.  The catch-all
** rules come last and turn into RG_TK_ILLEGAL after reporting the error.
*/
#include "lex.h"
#include "parser.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

/*!include:re2c "unicode_categories.re" */

void rgi_lex_init(rgi_lexer *lx, rgi_diag *d, uint32_t file, rgi_arena *arena) {
  const rgi_file *f = d->files[file];
  memset(lx, 0, sizeof *lx);
  lx->d = d;
  lx->arena = arena;
  lx->file = file;
  lx->cur = f->text;
  lx->lim = f->text + f->len;
  lx->line_start = f->text;
  lx->line = 1;
}

/* Reports a lexical error at pos, unless the parser is skipping tokens. */
static void lex_error(rgi_lexer *lx, rgi_pos pos, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;
static void lex_error(rgi_lexer *lx, rgi_pos pos, const char *fmt, ...) {
  va_list ap;
  if (lx->quiet) return;
  va_start(ap, fmt);
  rgi_verror(lx->d, pos, fmt, ap);
  va_end(ap);
}

/* Returns the position of byte p, which is on the current line. */
static rgi_pos pos_at(const rgi_lexer *lx, const char *p) {
  rgi_pos pos;
  pos.file = lx->file;
  pos.line = lx->line;
  pos.col = (uint32_t)(p - lx->line_start) + 1;
  return pos;
}

/* Returns an arena copy of s[0..n), or "" when out of memory (the arena's
** failed flag then makes rgi_parse return NULL). */
static const char *copy(rgi_lexer *lx, const char *s, size_t n) {
  char *p = rgi_arena_strndup(lx->arena, s, n);
  if (!p) rgi_diag_oom(lx->d);   /* said now: what the parser makes of "" is not */
  return p ? p : "";
}

/* Parses the decimal digits s[0..n) into *v.  Returns 0, or -1 when the
** value does not fit in an int64_t. */
static int parse_digits(const char *s, size_t n, int64_t *v) {
  int64_t x = 0;
  for (size_t i = 0; i < n; i++) {
    int dg = s[i] - '0';
    if (x > (INT64_MAX - dg) / 10) return -1;
    x = x * 10 + dg;
  }
  *v = x;
  return 0;
}

/* Reports "unexpected character" for the code point at tok->text (len bytes:
** one UTF-8 sequence, or one stray byte).  Printable characters are shown as
** themselves, others as U+XXXX. */
static void bad_char(rgi_lexer *lx, const rgi_token *tok) {
  const unsigned char *s = (const unsigned char *)tok->text;
  uint32_t cp;
  if (tok->len == 1) cp = s[0];
  else if (tok->len == 2) cp = (uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3F);
  else if (tok->len == 3)
    cp = (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
  else
    cp = (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12
       | (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
  if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)
      || cp == 0xFEFF || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E))
    lex_error(lx, tok->pos, "unexpected character U+%04X", (unsigned)cp);
  else if (cp == '\'')
    lex_error(lx, tok->pos, "unexpected character \"'\"");
  else
    lex_error(lx, tok->pos, "unexpected character '%.*s'", (int)tok->len, tok->text);
}

/* Finishes a string token: checks the escapes of the body between the quotes
** and stores the unescaped copy in tok->str.  Returns RG_TK_STRING, or
** RG_TK_ILLEGAL after reporting a bad escape. */
static int string_token(rgi_lexer *lx, rgi_token *tok) {
  const char *s = tok->text + 1, *e = tok->text + tok->len - 1;
  char *out = rgi_arena_alloc(lx->arena, (size_t)(e - s) + 1);
  size_t n = 0;
  int bad = 0;
  for (const char *p = s; p < e; p++) {
    char c = *p;
    if (c == '\\') {
      switch (*++p) {
        case '"': c = '"'; break;
        case '\\': c = '\\'; break;
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        default: {
          /* The escaped character may be several bytes long. */
          int k = 1;
          while (p + k < e && (p[k] & 0xC0) == 0x80) k++;
          lex_error(lx, pos_at(lx, p - 1), "unknown escape '\\%.*s' in string "
                   "(use \\\" \\\\ \\n \\t)", k, p);
          bad = 1;
          p += k - 1;
          continue;
        }
      }
    }
    if (out) out[n] = c;
    n++;
  }
  if (bad) return RG_TK_ILLEGAL;
  if (n > RG_MAX_STRING) {
    lex_error(lx, tok->pos, "string too long (%zu bytes, at most %u)", n, RG_MAX_STRING);
    n = 0;
  }
  if (out) out[n] = '\0';
  tok->str = out ? out : "";
  return RG_TK_STRING;
}

/* Finishes a distance token: number (integer or decimal), unit name or `"`,
** optional `*`.  Stores the value in thousandths and the unit.  Returns
** RG_TK_DIST, or RG_TK_ILLEGAL after reporting. */
static int dist_token(rgi_lexer *lx, rgi_token *tok) {
  const char *p = tok->text, *end = tok->text + tok->len;
  const char *ip = p, *fp = NULL;
  size_t in = 0, fn = 0;
  int64_t whole, frac = 0;
  while (p < end && *p >= '0' && *p <= '9') p++;
  in = (size_t)(p - ip);
  if (p < end && *p == '.') {
    fp = ++p;
    while (p < end && *p >= '0' && *p <= '9') p++;
    fn = (size_t)(p - fp);
  }
  if (end[-1] == '*') { tok->starred = true; end--; }
  if (fn > 3) {
    lex_error(lx, tok->pos, "distance '%.*s' has more than 3 decimal places",
             (int)tok->len, tok->text);
    return RG_TK_ILLEGAL;
  }
  if (parse_digits(ip, in, &whole) || whole > (INT64_MAX - 999) / 1000) {
    lex_error(lx, tok->pos, "distance literal too large");
    return RG_TK_ILLEGAL;
  }
  for (size_t i = 0; i < 3; i++) frac = frac * 10 + (i < fn ? fp[i] - '0' : 0);
  tok->ival = whole * 1000 + frac;
  if (*p == '"') tok->str = "in";
  else if ((size_t)(end - p) > RG_MAX_NAME) {
    lex_error(lx, pos_at(lx, p), "unit name too long (at most %u bytes)", RG_MAX_NAME);
    return RG_TK_ILLEGAL;
  } else tok->str = copy(lx, p, (size_t)(end - p));
  return RG_TK_DIST;
}

/* Finishes a dice token `[N]dS` / `[N]DS`: count in ival (1 when omitted),
** sides in tok->sides. */
static int dice_token(rgi_lexer *lx, rgi_token *tok) {
  const char *p = tok->text, *end = tok->text + tok->len;
  const char *d = p;
  while (*d != 'd' && *d != 'D') d++;
  if (d == p) tok->ival = 1;
  else if (parse_digits(p, (size_t)(d - p), &tok->ival)) goto big;
  if (parse_digits(d + 1, (size_t)(end - d - 1), &tok->sides)) goto big;
  return RG_TK_DICE;
big:
  lex_error(lx, tok->pos, "integer literal too large");
  return RG_TK_ILLEGAL;
}

int rgi_lex(rgi_lexer *lx, rgi_token *tok) {
  const unsigned char *cur = (const unsigned char *)lx->cur;
  const unsigned char *lim = (const unsigned char *)lx->lim;
  const unsigned char *mar;
  int k;

loop:
  memset(tok, 0, sizeof *tok);
  tok->text = (const char *)cur;
  tok->pos = pos_at(lx, tok->text);

#define TOK(K) do { k = RG_TK_##K; goto done; } while (0)
/*!re2c
  re2c:define:YYCTYPE  = "unsigned char";
  re2c:define:YYCURSOR = cur;
  re2c:define:YYMARKER = mar;
  re2c:define:YYLIMIT  = lim;
  re2c:yyfill:enable   = 0;
  re2c:eof             = 0;

  digit   = [0-9];
  namech  = L | Mn | Mc | digit | "_";
  name    = (L | "_") namech*;
  int     = digit+;
  dec     = digit+ "." digit+;
  strch   = [^"\\\n] | "\\" [^\n];

  $                     { k = 0; goto done; }
  [ \t]+                { goto loop; }
  "\n"                  { lx->line++; lx->line_start = (const char *)cur; goto loop; }
  "#" [^\n]*            { goto loop; }

  "ruleset"             { TOK(RULESET); }
  "revision"            { TOK(REVISION); }
  "source"              { TOK(SOURCE); }
  "extends"             { TOK(EXTENDS); }
  "extend"              { TOK(EXTEND); }
  "unit"                { TOK(UNIT); }
  "scale"               { TOK(SCALE); }
  "enum"                { TOK(ENUM); }
  "record"              { TOK(RECORD); }
  "const"               { TOK(CONST); }
  "table"               { TOK(TABLE); }
  "from"                { TOK(FROM); }
  "procedure"           { TOK(PROCEDURE); }
  "test"                { TOK(TEST); }
  "let"                 { TOK(LET); }
  "if"                  { TOK(IF); }
  "else"                { TOK(ELSE); }
  "for"                 { TOK(FOR); }
  "in"                  { TOK(IN); }
  "while"               { TOK(WHILE); }
  "return"              { TOK(RETURN); }
  "note"                { TOK(NOTE); }
  "expect"              { TOK(EXPECT); }
  "and"                 { TOK(AND); }
  "or"                  { TOK(OR); }
  "not"                 { TOK(NOT); }
  "mod"                 { TOK(MOD); }
  "true"                { TOK(TRUE); }
  "false"               { TOK(FALSE); }
  "set"                 { TOK(SET); }
  "int"                 { TOK(INT); }
  "bool"                { TOK(BOOL); }
  "percent"             { TOK(PERCENT); }
  "text"                { TOK(TEXT); }
  "distance"            { TOK(DISTANCE); }
  "assumed"             { TOK(ASSUMED); }
  "override"            { TOK(OVERRIDE); }
  "remove"              { TOK(REMOVE); }
  "dice"                { TOK(DICE_KW); }
  "deck"                { TOK(DECK); }
  "roll"                { TOK(ROLL); }
  "draw"                { TOK(DRAW); }
  "choose"              { TOK(CHOOSE); }
  "step"                { TOK(STEP); }
  "list"                { TOK(LIST); }
  "input"               { TOK(INPUT); }
  "with"                { TOK(WITH); }
  "rule"                { TOK(RULE); }
  "strategy"            { TOK(STRATEGY); }
  "display"             { TOK(DISPLAY); }
  "default"             { TOK(DEFAULT); }

  "_"                   { TOK(UNDERSCORE); }
  digit* [dD] digit+    { tok->len = (uint32_t)((const char *)cur - tok->text);
                          k = dice_token(lx, tok); goto finish; }
  name                  {
    tok->len = (uint32_t)((const char *)cur - tok->text);
    if (tok->len > RG_MAX_NAME) {
      lex_error(lx, tok->pos, "name too long (%u bytes, at most %u)", tok->len, RG_MAX_NAME);
      tok->str = copy(lx, tok->text, RG_MAX_NAME);
    } else tok->str = copy(lx, tok->text, tok->len);
    k = RG_TK_NAME; goto finish;
  }
  int                   {
    tok->len = (uint32_t)((const char *)cur - tok->text);
    if (parse_digits(tok->text, tok->len, &tok->ival)) {
      lex_error(lx, tok->pos, "integer literal too large");
      tok->ival = 0;
    }
    k = RG_TK_INTEGER; goto finish;
  }
  int "%"               {
    tok->len = (uint32_t)((const char *)cur - tok->text);
    if (parse_digits(tok->text, tok->len - 1, &tok->ival)) {
      lex_error(lx, tok->pos, "integer literal too large");
      tok->ival = 0;
    }
    k = RG_TK_PCT; goto finish;
  }
  (int | dec) (name | ["]) "*"? {
    tok->len = (uint32_t)((const char *)cur - tok->text);
    k = dist_token(lx, tok); goto finish;
  }
  dec "%"               {
    tok->len = (uint32_t)((const char *)cur - tok->text);
    lex_error(lx, tok->pos, "a percentage is a whole number");
    k = RG_TK_ILLEGAL; goto finish;
  }
  dec                   {
    tok->len = (uint32_t)((const char *)cur - tok->text);
    lex_error(lx, tok->pos, "a decimal number needs a unit (as in 2.5BW)");
    k = RG_TK_ILLEGAL; goto finish;
  }

  ["] strch* ["]        { tok->len = (uint32_t)((const char *)cur - tok->text);
                          k = string_token(lx, tok); goto finish; }
  ["] strch* "\\"?      { lex_error(lx, tok->pos, "unterminated string");
                          k = RG_TK_ILLEGAL; goto done; }

  "{"                   { TOK(LBRACE); }
  "}"                   { TOK(RBRACE); }
  "("                   { TOK(LP); }
  ")"                   { TOK(RP); }
  "["                   { TOK(LBRACKET); }
  "]"                   { TOK(RBRACKET); }
  ","                   { TOK(COMMA); }
  ":"                   { TOK(COLON); }
  "."                   { TOK(DOT); }
  ".."                  { TOK(DOTDOT); }
  "->"                  { TOK(ARROW); }
  "="                   { TOK(ASSIGN); }
  "=="                  { TOK(EQ); }
  "!="                  { TOK(NE); }
  "<"                   { TOK(LT); }
  "<="                  { TOK(LE); }
  ">"                   { TOK(GT); }
  ">="                  { TOK(GE); }
  "+"                   { TOK(PLUS); }
  "-"                   { TOK(MINUS); }
  "*"                   { TOK(STAR); }
  "/"                   { TOK(SLASH); }

  [^]                   { tok->len = (uint32_t)((const char *)cur - tok->text);
                          bad_char(lx, tok); k = RG_TK_ILLEGAL; goto finish; }
  *                     { tok->len = (uint32_t)((const char *)cur - tok->text);
                          bad_char(lx, tok); k = RG_TK_ILLEGAL; goto finish; }
*/
#undef TOK

done:
  tok->len = (uint32_t)((const char *)cur - tok->text);
  /* 'default' is a name wherever the grammar takes no keyword there
  ** (%fallback in parser.y): it carries its spelling as a name does */
  if (k == RG_TK_DEFAULT) tok->str = copy(lx, tok->text, tok->len);
finish:
  tok->kind = k;
  lx->cur = (const char *)cur;
  return k;
}

const char *rgi_token_name(int kind) {
  switch (kind) {
    case 0: return "end of file";
    case RG_TK_NAME: return "NAME";
    case RG_TK_INTEGER: return "INTEGER";
    case RG_TK_PCT: return "PCT";
    case RG_TK_DIST: return "DIST";
    case RG_TK_STRING: return "STRING";
    case RG_TK_DICE: return "DICE";
    case RG_TK_UNDERSCORE: return "'_'";
    case RG_TK_ILLEGAL: return "ILLEGAL";
    case RG_TK_RULESET: return "'ruleset'";
    case RG_TK_REVISION: return "'revision'";
    case RG_TK_SOURCE: return "'source'";
    case RG_TK_EXTENDS: return "'extends'";
    case RG_TK_EXTEND: return "'extend'";
    case RG_TK_UNIT: return "'unit'";
    case RG_TK_SCALE: return "'scale'";
    case RG_TK_ENUM: return "'enum'";
    case RG_TK_RECORD: return "'record'";
    case RG_TK_CONST: return "'const'";
    case RG_TK_TABLE: return "'table'";
    case RG_TK_FROM: return "'from'";
    case RG_TK_PROCEDURE: return "'procedure'";
    case RG_TK_TEST: return "'test'";
    case RG_TK_LET: return "'let'";
    case RG_TK_IF: return "'if'";
    case RG_TK_ELSE: return "'else'";
    case RG_TK_FOR: return "'for'";
    case RG_TK_IN: return "'in'";
    case RG_TK_WHILE: return "'while'";
    case RG_TK_RETURN: return "'return'";
    case RG_TK_NOTE: return "'note'";
    case RG_TK_EXPECT: return "'expect'";
    case RG_TK_AND: return "'and'";
    case RG_TK_OR: return "'or'";
    case RG_TK_NOT: return "'not'";
    case RG_TK_MOD: return "'mod'";
    case RG_TK_TRUE: return "'true'";
    case RG_TK_FALSE: return "'false'";
    case RG_TK_SET: return "'set'";
    case RG_TK_INT: return "'int'";
    case RG_TK_BOOL: return "'bool'";
    case RG_TK_PERCENT: return "'percent'";
    case RG_TK_TEXT: return "'text'";
    case RG_TK_DISTANCE: return "'distance'";
    case RG_TK_ASSUMED: return "'assumed'";
    case RG_TK_OVERRIDE: return "'override'";
    case RG_TK_REMOVE: return "'remove'";
    case RG_TK_DICE_KW: return "'dice'";
    case RG_TK_DECK: return "'deck'";
    case RG_TK_ROLL: return "'roll'";
    case RG_TK_DRAW: return "'draw'";
    case RG_TK_CHOOSE: return "'choose'";
    case RG_TK_STEP: return "'step'";
    case RG_TK_LIST: return "'list'";
    case RG_TK_INPUT: return "'input'";
    case RG_TK_WITH: return "'with'";
    case RG_TK_RULE: return "'rule'";
    case RG_TK_STRATEGY: return "'strategy'";
    case RG_TK_DISPLAY: return "'display'";
    case RG_TK_DEFAULT: return "'default'";
    case RG_TK_LBRACE: return "'{'";
    case RG_TK_RBRACE: return "'}'";
    case RG_TK_LP: return "'('";
    case RG_TK_RP: return "')'";
    case RG_TK_LBRACKET: return "'['";
    case RG_TK_RBRACKET: return "']'";
    case RG_TK_COMMA: return "','";
    case RG_TK_COLON: return "':'";
    case RG_TK_DOT: return "'.'";
    case RG_TK_DOTDOT: return "'..'";
    case RG_TK_ARROW: return "'->'";
    case RG_TK_ASSIGN: return "'='";
    case RG_TK_EQ: return "'=='";
    case RG_TK_NE: return "'!='";
    case RG_TK_LT: return "'<'";
    case RG_TK_LE: return "'<='";
    case RG_TK_GT: return "'>'";
    case RG_TK_GE: return "'>='";
    case RG_TK_PLUS: return "'+'";
    case RG_TK_MINUS: return "'-'";
    case RG_TK_STAR: return "'*'";
    case RG_TK_SLASH: return "'/'";
    default: return "?";
  }
}
