/*
** parser.y: the grammar of a rule file (docs/language.md), for Lemon.
**
** Conventions (after SQLite's parse.y): terminals are UPPER case, nonterminals
** lower case with `_opt` for optional parts and `list` for repetitions, values
** are named by one-letter aliases.  Every node of the tree (ast.h) comes from
** the arena in the parser state `ps` and carries the position of its first
** token.  Lists are built in source order with head/tail pairs.
**
** Declarations are not collected by the grammar: each one is appended to
** ps->ast as soon as it is reduced, so that a syntax error later in the file,
** or Lemon giving up at the end of the input, loses nothing already parsed.
**
** Error recovery: `decl ::= error` is the only place where the error token is
** shifted.  After a syntax error the driver (parse.c) drops tokens up to the
** next declaration keyword, so a broken declaration gives one message.
*/

%name rgi_parser
%token_prefix RG_TK_
%token_type {rgi_token}
%default_type {rgi_expr *}
%extra_context {rgi_pstate *ps}
%stack_size 1000
%start_symbol file

%include {
#include "lex.h"
#include "parser.h"
#include "diag.h"

#include <assert.h>
#include <string.h>

/* Lemon's template compares signed and unsigned values. */
#if defined(__GNUC__)
# pragma GCC diagnostic ignored "-Wsign-compare"
#endif

/* Lists under construction: first and last node, linked through `next`. */
typedef struct { rgi_note *head, *tail; } rgi_notelist;
typedef struct { rgi_member *head, *tail; int sep; bool mixed; } rgi_memberlist;
typedef struct { rgi_field *head, *tail; } rgi_fieldlist;
typedef struct { rgi_keyspec *head, *tail; } rgi_keyspeclist;
typedef struct { rgi_keypat *head, *tail; } rgi_keypatlist;
typedef struct { rgi_cell *head, *tail; } rgi_celllist;
typedef struct { rgi_param *head, *tail; } rgi_paramlist;
typedef struct { rgi_stmt *head, *tail; } rgi_stmtlist;
typedef struct { rgi_expr *head, *tail; } rgi_exprlist;
typedef struct { rgi_fieldinit *head, *tail; } rgi_fieldinitlist;
typedef struct { rgi_srule *head, *tail; } rgi_srulelist;
typedef struct { rgi_pickx *head, *tail; } rgi_pickxlist;
typedef struct { rgi_dlinex *head, *tail; } rgi_dlinelist;
typedef struct { rgi_dcolx *head, *tail; } rgi_dcollist;
/* An else-if chain under construction: its first and last IF, and how many. */
typedef struct { rgi_stmt *head, *tail; uint32_t n; } rgi_ifchain;

/* The most branches of one else-if chain: the compiler walks a chain in a
** loop, but other walks of the tree (extends.c's search for a step) recurse
** along it. */
#define RG_MAX_ELSE_IF 10000

/* A signed integer of a range bound or a key pattern. */
typedef struct { rgi_pos pos; int64_t v; } rgi_sint;

/* The body of a table: inline cells, or the path of a TSV file and the notes
** on its cells. */
typedef struct { rgi_cell *cells; const char *from; rgi_pos from_pos; rgi_cell *cell_notes; } rgi_tablebody;

#define LIST_ONE(L, X) do { (L).head = (L).tail = (X); } while (0)
#define LIST_ADD(A, L, X) do { (A) = (L); (A).tail->next = (X); (A).tail = (X); } while (0)

/* Returns n zeroed bytes of the tree's arena, or the scratch node of ps when
** out of memory (rgi_parse then returns NULL, so it is never read). */
static void *node(rgi_pstate *ps, size_t n) {
  void *p = rgi_arena_alloc(ps->arena, n);
  if (p) return p;
  assert(n <= sizeof ps->oom);
  memset(&ps->oom, 0, sizeof ps->oom);
  return &ps->oom;
}
#define NEW(T) ((T *)node(ps, sizeof(T)))

/* Returns a new expression of kind k at pos. */
static rgi_expr *new_expr(rgi_pstate *ps, rgi_ekind k, rgi_pos pos) {
  rgi_expr *e = NEW(rgi_expr);
  e->kind = k;
  e->pos = pos;
  e->depth = 1;
  return e;
}

/* Returns the node that stands for an expression deeper than
** RG_MAX_EXPR_DEPTH, whose deepest part is `deepest`, built at pos: an
** RG_EX_ERROR of depth RG_MAX_EXPR_DEPTH + 1.  The error is reported once,
** where the limit is crossed; a node built on that one stays that one, so the
** tree stays bounded however long the chain goes on. */
static rgi_expr *too_deep(rgi_pstate *ps, rgi_expr *deepest, rgi_pos pos) {
  rgi_expr *e;
  if (deepest->depth > RG_MAX_EXPR_DEPTH) return deepest;
  rgi_error(ps->d, pos, "expression too deep (more than %d levels of operators, "
           "brackets and calls); split it with let or const", RG_MAX_EXPR_DEPTH);
  e = new_expr(ps, RG_EX_ERROR, pos);
  e->depth = RG_MAX_EXPR_DEPTH + 1;
  return e;
}

/* Returns the deepest expression of the list that starts at l, or NULL for
** an empty list, or after running out of memory (the lists may then hold
** the scratch node, even in a cycle: they are not walked). */
static rgi_expr *deepest_of(rgi_pstate *ps, rgi_expr *l) {
  rgi_expr *m = NULL;
  if (ps->arena->failed) return NULL;
  for (; l; l = l->next) if (!m || l->depth > m->depth) m = l;
  return m;
}

/* Returns the deepest of m (may be NULL) and the values of the field list
** that starts at f; NULL after running out of memory (as deepest_of). */
static rgi_expr *deepest_field(rgi_pstate *ps, rgi_fieldinit *f, rgi_expr *m) {
  if (ps->arena->failed) return NULL;
  for (; f; f = f->next) if (!m || f->value->depth > m->depth) m = f->value;
  return m;
}

/* Returns e made the parent of child (the deepest of its children, or NULL
** for none): e's depth is one more than child's.  When that passes
** RG_MAX_EXPR_DEPTH, returns the error node of too_deep (at pos) instead. */
static rgi_expr *parent(rgi_pstate *ps, rgi_expr *e, rgi_expr *child, rgi_pos pos) {
  if (!child) return e;
  if (child->depth >= RG_MAX_EXPR_DEPTH) return too_deep(ps, child, pos);
  e->depth = child->depth + 1;
  return e;
}

/* Returns the binary expression `a op b`, positioned at a. */
static rgi_expr *binary(rgi_pstate *ps, rgi_op op, rgi_expr *a, rgi_expr *b, rgi_pos oppos) {
  rgi_expr *e = new_expr(ps, RG_EX_BINARY, a->pos);
  e->op = op;
  e->oppos = oppos;
  e->a = a;
  e->b = b;
  return parent(ps, e, a->depth >= b->depth ? a : b, oppos);
}

/* Returns the unary expression `op a`, positioned at the operator. */
static rgi_expr *unary(rgi_pstate *ps, rgi_op op, rgi_pos pos, rgi_expr *a) {
  rgi_expr *e = new_expr(ps, RG_EX_UNARY, pos);
  e->op = op;
  e->a = a;
  return parent(ps, e, a, pos);
}

/* Returns a new statement of kind k at pos. */
static rgi_stmt *new_stmt(rgi_pstate *ps, rgi_skind k, rgi_pos pos) {
  rgi_stmt *s = NEW(rgi_stmt);
  s->kind = k;
  s->pos = pos;
  return s;
}

/* Returns a new declaration of kind k at pos named name. */
static rgi_decl *new_decl(rgi_pstate *ps, rgi_dkind k, rgi_pos pos, const char *name) {
  rgi_decl *d = NEW(rgi_decl);
  d->kind = k;
  d->pos = pos;
  d->name = name;
  return d;
}

/* Returns a new type of kind k at pos. */
static rgi_typeexpr *new_type(rgi_pstate *ps, rgi_tkind k, rgi_pos pos, const char *name) {
  rgi_typeexpr *t = NEW(rgi_typeexpr);
  t->kind = k;
  t->pos = pos;
  t->name = name;
  return t;
}

/* Appends d to the file's declarations. */
static void add_decl(rgi_pstate *ps, rgi_decl *d) {
  if (ps->last) ps->last->next = d;
  else ps->ast->decls = d;
  ps->last = d;
}

/* Reports the syntax error at token t (kind k).  Errors at an ILLEGAL token
** were reported by the lexer already. */
static void syntax_error(rgi_pstate *ps, int k, const rgi_token *t) {
  if (ps->quiet) { ps->quiet = false; return; }
  if (k == RG_TK_ILLEGAL) return;
  if (k == 0) {
    rgi_error(ps->d, ps->end, "unexpected end of file");
    return;
  }
  if (t->len > 40) {
    uint32_t n = 32;
    while (n > 0 && (t->text[n] & 0xC0) == 0x80) n--;   /* whole characters */
    rgi_error(ps->d, t->pos, "syntax error near \"%.*s...\"", (int)n, t->text);
  } else {
    rgi_error(ps->d, t->pos, "syntax error near \"%.*s\"", (int)t->len, t->text);
  }
}
}

/* After a syntax error, drop tokens up to the next declaration keyword.  When
** the error token is itself a declaration keyword, Lemon shifts it after
** `error` and parsing resumes there.  If that keyword is not the first token
** of its line (`const enum = 1`), it was more likely misused than the start of
** a new declaration: the error that follows in it is not reported. */
%syntax_error {
  syntax_error(ps, yymajor, &yyminor);
  if (yymajor == 0) {
    /* end of file: nothing to skip */
  } else if (rgi_starts_decl(yymajor)) {
    if (ps->end.line == yyminor.pos.line) ps->quiet = true;
  } else {
    ps->skipping = true;
  }
}

%stack_overflow {
  rgi_error(ps->d, ps->cur.pos, "nesting too deep");
  ps->skipping = true;
  ps->failed = true;
}

%parse_failure {
  ps->failed = true;
}

/* ---- tokens -------------------------------------------------------------
** Listed first so that their codes stay stable.  DICE is a dice literal
** (`2d6`); DICE_KW is the keyword `dice`.  (`grid` and `repeat`, reserved
** once for a grammar no sheet needed, are ordinary names.) */
%token NAME INTEGER PCT DIST STRING DICE UNDERSCORE ILLEGAL.
%token RULESET REVISION SOURCE UNIT ENUM RECORD CONST TABLE FROM PROCEDURE TEST.
%token LET IF ELSE FOR IN WHILE RETURN NOTE EXPECT.
%token AND OR NOT MOD TRUE FALSE.
%token SET INT BOOL PERCENT TEXT DISTANCE ASSUMED.
%token EXTENDS OVERRIDE REMOVE SCALE DICE_KW DECK ROLL DRAW CHOOSE STEP LIST INPUT WITH.
%token RULE STRATEGY DISPLAY DEFAULT.
%token EXTEND.
%fallback NAME DEFAULT.
%token LBRACE RBRACE LP RP LBRACKET RBRACKET COMMA COLON DOT DOTDOT ARROW.
%token ASSIGN EQ NE LT LE GT GE PLUS MINUS STAR SLASH.

/* Operator precedence, loosest first (docs/language.md, "Expressions"). */
%left OR.
%left AND.
%right NOT.
%nonassoc EQ NE LT LE GT GE IN.
%left PLUS MINUS.
%left STAR SLASH MOD.
%right UMINUS.
%left LBRACKET DOT.

/* ---- file ---------------------------------------------------------------
** file ::= {decl}
*/
file ::= decl_list.

decl_list ::= .
decl_list ::= decl_list decl.

decl ::= error.
decl ::= header.
decl ::= decl_body(D) note_list(N). { D->notes = N.head; add_decl(ps, D); }
decl ::= OVERRIDE(T) decl_body(D) note_list(N). {
  D->notes = N.head; D->is_override = true; D->pos = T.pos; add_decl(ps, D);
}
decl ::= OVERRIDE(T) change(D) note_list(N).  { D->notes = N.head; D->is_override = true; D->pos = T.pos; add_decl(ps, D); }
/* override NAME note...: notes on a declaration of the base, which stays as it is */
decl ::= OVERRIDE(T) NAME(N) note_list(L). {
  rgi_decl *d = new_decl(ps, RG_DE_NOTES, T.pos, N.str); d->notes = L.head; d->is_override = true;
  add_decl(ps, d);
}
decl ::= REMOVE(T) NAME(N) note_list(L). {
  rgi_decl *d = new_decl(ps, RG_DE_REMOVE, T.pos, N.str); d->notes = L.head; add_decl(ps, d);
}
decl ::= REMOVE(T) STEP STRING(S) IN NAME(P) note_list(L). {
  rgi_decl *d = new_decl(ps, RG_DE_REMOVE, T.pos, S.str); d->target = P.str; d->notes = L.head;
  add_decl(ps, d);
}
decl ::= REMOVE(T) RULE STRING(S) IN NAME(P) note_list(L). {
  rgi_decl *d = new_decl(ps, RG_DE_REMOVE, T.pos, S.str); d->target = P.str; d->notes = L.head;
  d->part = RG_ST_RULE; add_decl(ps, d);
}

/* ---- new members of an enum of the base ---------------------------------
** decl ::= 'extend' 'enum' NAME '{' xmember {',' xmember} [','] '}' note_list
** xmember ::= NAME [STRING] [('after' | 'before') NAME] note_list
** (`after` and `before` are words of this place only, not keywords.)
*/
decl ::= EXTEND(T) ENUM NAME(N) LBRACE xmember_list(M) comma_opt RBRACE note_list(L). {
  rgi_decl *d = new_decl(ps, RG_DE_EXTEND, T.pos, N.str);
  d->members = M.head; d->notes = L.head; add_decl(ps, d);
}

%type xmember_list {rgi_memberlist}
xmember_list(A) ::= xmember(X).            { LIST_ONE(A, X); A.sep = 0; A.mixed = false; }
xmember_list(A) ::= xmember_list(L) COMMA xmember(X). { LIST_ADD(A, L, X); }

%type xmember {rgi_member *}
xmember(A) ::= NAME(C) display_opt(D) note_list(N). {
  A = NEW(rgi_member); A->pos = C.pos; A->code = C.str; A->display = D; A->notes = N.head;
  A->added = true;
}
xmember(A) ::= NAME(C) display_opt(D) NAME(W) NAME(M) note_list(N). {
  A = NEW(rgi_member); A->pos = C.pos; A->code = C.str; A->display = D; A->notes = N.head;
  A->added = true; A->anchor = M.str; A->anchor_pos = M.pos;
  A->before = strcmp(W.str, "before") == 0;
  if (!A->before && strcmp(W.str, "after") != 0)
    rgi_error(ps->d, W.pos, "write 'after MEMBER' or 'before MEMBER' to place a new member");
}

/* ---- changes of a rule set that extends another --------------------------
** change ::= NAME '[' keypat {',' keypat} ']' '=' expr     (cells of a table)
**          | NAME 'from' STRING                             (cells of a table from a TSV)
**          | 'step' STRING 'in' NAME block                  (a step of a procedure)
**          | 'rule' STRING 'in' NAME block                  (a rule of a procedure)
*/
%type change {rgi_decl *}
change(A) ::= NAME(N) LBRACKET keypat_list(K) RBRACKET ASSIGN expr(E). {
  rgi_cell *c = NEW(rgi_cell);
  c->pos = K.head->pos; c->keys = K.head; c->value = E;
  A = new_decl(ps, RG_DE_CELL, N.pos, N.str); A->cells = c;
}
change(A) ::= NAME(N) FROM STRING(S). {
  rgi_cell *c = NEW(rgi_cell);
  c->pos = S.pos; c->from = S.str;
  A = new_decl(ps, RG_DE_CELL, N.pos, N.str); A->cells = c;
}
change(A) ::= STEP(T) STRING(S) IN NAME(P) block(B). {
  A = new_decl(ps, RG_DE_STEP, T.pos, S.str); A->target = P.str; A->body = B;
}
change(A) ::= RULE(T) STRING(S) IN NAME(P) block(B). {
  A = new_decl(ps, RG_DE_STEP, T.pos, S.str); A->target = P.str; A->body = B; A->part = RG_ST_RULE;
}

/* ---- scale of starred sizes ----------------------------------------------
** decl ::= 'scale' '*' '=' INTEGER ['/' INTEGER] ['round' ('up'|'down'|'nearest')]
*/
decl_body(A) ::= SCALE(T) STAR ASSIGN INTEGER(N) scale_den(D) scale_round(R). {
  A = new_decl(ps, RG_DE_SCALE, T.pos, "*"); A->num = N.ival; A->den = D; A->round = R;
}
%type scale_den {int64_t}
scale_den(A) ::= .                         { A = 1; }
scale_den(A) ::= SLASH INTEGER(D).         { A = D.ival; }
%type scale_round {int}
scale_round(A) ::= .                       { A = 0; }
scale_round(A) ::= NAME(R) NAME(W). {
  A = -2;
  if (strcmp(R.str, "round") == 0) {
    if (strcmp(W.str, "up") == 0) A = 1;
    else if (strcmp(W.str, "down") == 0) A = -1;
    else if (strcmp(W.str, "nearest") == 0) A = 2;
  }
  if (A == -2) { rgi_error(ps->d, R.pos, "write 'round up', 'round down' or 'round nearest'"); A = 0; }
}

/* ---- header -------------------------------------------------------------
** header ::= 'ruleset' STRING ['revision' STRING] ['source' STRING] ['extends' STRING]
** At most one, before every declaration.
*/
header ::= RULESET(T) STRING(N) revision_opt(R) source_opt(S) extends_opt(E). {
  rgi_header *h = NEW(rgi_header);
  h->pos = T.pos;
  h->name = N.str;
  h->revision = R;
  h->source = S;
  h->extends = E.str;
  h->extends_pos = E.pos;
  if (ps->ast->header) rgi_error(ps->d, T.pos, "a file has one ruleset header");
  else if (ps->ast->decls) rgi_error(ps->d, T.pos, "the ruleset header must come first");
  else ps->ast->header = h;
}

%type revision_opt {const char *}
revision_opt(A) ::= .                      { A = NULL; }
revision_opt(A) ::= REVISION STRING(S).    { A = S.str; }

%type extends_opt {rgi_token}
extends_opt(A) ::= .                       { memset(&A, 0, sizeof A); }
extends_opt(A) ::= EXTENDS STRING(S).      { A = S; }

%type source_opt {const char *}
source_opt(A) ::= .                        { A = NULL; }
source_opt(A) ::= SOURCE STRING(S).        { A = S.str; }

/* ---- provenance ---------------------------------------------------------
** note_list ::= {'assumed' STRING | 'source' STRING}
*/
%type note_list {rgi_notelist}
note_list(A) ::= .                         { A.head = A.tail = NULL; }
note_list(A) ::= note_list(L) note(X).     {
  A = L;
  if (A.tail) A.tail->next = X; else A.head = X;
  A.tail = X;
}

%type note {rgi_note *}
note(A) ::= ASSUMED(T) STRING(S).          { A = NEW(rgi_note); A->pos = T.pos; A->assumed = true; A->text = S.str; }
note(A) ::= SOURCE(T) STRING(S).           { A = NEW(rgi_note); A->pos = T.pos; A->text = S.str; }

%type decl_body {rgi_decl *}

/* ---- units --------------------------------------------------------------
** decl_body ::= 'unit' unitname [STRING]
** unitname ::= NAME | 'in'
*/
decl_body(A) ::= UNIT(T) unit_name(N) display_opt(D). {
  A = new_decl(ps, RG_DE_UNIT, T.pos, N.str);
  A->display = D;
}

%type unit_name {rgi_token}
unit_name(A) ::= NAME(N).                  { A = N; }
unit_name(A) ::= IN(N).                    { A = N; A.str = "in"; }

%type display_opt {const char *}
display_opt(A) ::= .                       { A = NULL; }
display_opt(A) ::= STRING(S).              { A = S.str; }

/* ---- enums --------------------------------------------------------------
** decl_body ::= 'enum' NAME '{' member {sep member} '}'
** sep ::= ',' | '<'                        (all ',' or all '<')
** member ::= NAME [STRING] note_list
*/
decl_body(A) ::= ENUM(T) NAME(N) LBRACE member_list(M) RBRACE. {
  A = new_decl(ps, RG_DE_ENUM, T.pos, N.str);
  A->members = M.head;
  A->ordered = M.sep == RG_TK_LT && !M.mixed;
}

%type member_list {rgi_memberlist}
member_list(A) ::= member(X).              { LIST_ONE(A, X); A.sep = 0; A.mixed = false; }
member_list(A) ::= member_list(L) member_sep(S) member(X). {
  LIST_ADD(A, L, X);
  if (!A.sep) A.sep = S.kind;
  else if (A.sep != S.kind && !A.mixed) {
    rgi_error(ps->d, S.pos, "enum members are separated by '%s' and by '%s'; "
             "use ',' throughout (unordered) or '<' throughout (ordered)",
             A.sep == RG_TK_LT ? "<" : ",", S.kind == RG_TK_LT ? "<" : ",");
    A.mixed = true;
  }
}

%type member_sep {rgi_token}
member_sep(A) ::= COMMA(T).                { A = T; }
member_sep(A) ::= LT(T).                   { A = T; }

%type member {rgi_member *}
member(A) ::= NAME(C) display_opt(D) note_list(N). {
  A = NEW(rgi_member);
  A->pos = C.pos;
  A->code = C.str;
  A->display = D;
  A->notes = N.head;
}

/* ---- records ------------------------------------------------------------
** decl_body ::= 'record' NAME '{' field {',' field} '}' ['shown' STRING]
** field ::= NAME ':' type
*/
decl_body(A) ::= RECORD(T) NAME(N) LBRACE field_list(F) RBRACE. {
  A = new_decl(ps, RG_DE_RECORD, T.pos, N.str);
  A->fields = F.head;
}
/* shown "{card} {pass}": how people see a value of the record. */
decl_body(A) ::= RECORD(T) NAME(N) LBRACE field_list(F) RBRACE NAME(S) STRING(D). {
  if (strcmp(S.str, "shown") != 0)
    rgi_error(ps->d, S.pos, "expected 'shown \"FORM\"' after a record's fields, not '%s'", S.str);
  A = new_decl(ps, RG_DE_RECORD, T.pos, N.str);
  A->fields = F.head;
  A->display = D.str;
  A->from_pos = D.pos;
}

%type field_list {rgi_fieldlist}
field_list(A) ::= field(X).                        { LIST_ONE(A, X); }
field_list(A) ::= field_list(L) COMMA field(X).    { LIST_ADD(A, L, X); }

%type field {rgi_field *}
field(A) ::= NAME(N) COLON type(T).        { A = NEW(rgi_field); A->pos = N.pos; A->name = N.str; A->type = T; }

/* ---- types --------------------------------------------------------------
** type ::= 'int' | 'bool' | 'percent' | 'text' | 'distance' ['(' unitname ')']
**        | 'set' NAME | NAME
*/
%type type {rgi_typeexpr *}
type(A) ::= INT(T).                        { A = new_type(ps, RG_TY_INT, T.pos, NULL); }
type(A) ::= BOOL(T).                       { A = new_type(ps, RG_TY_BOOL, T.pos, NULL); }
type(A) ::= PERCENT(T).                    { A = new_type(ps, RG_TY_PERCENT, T.pos, NULL); }
type(A) ::= TEXT(T).                       { A = new_type(ps, RG_TY_TEXT, T.pos, NULL); }
type(A) ::= DISTANCE(T).                   { A = new_type(ps, RG_TY_DISTANCE, T.pos, NULL); }
type(A) ::= DISTANCE(T) LP unit_name(U) RP. { A = new_type(ps, RG_TY_DISTANCE, T.pos, U.str); }
type(A) ::= SET(T) NAME(N).                { A = new_type(ps, RG_TY_SET, T.pos, N.str); }
type(A) ::= NAME(N).                       { A = new_type(ps, RG_TY_NAMED, N.pos, N.str); }
type(A) ::= LIST(T) type(E).               { A = new_type(ps, RG_TY_LIST, T.pos, NULL); A->elem = E; }

%type type_opt {rgi_typeexpr *}
type_opt(A) ::= .                          { A = NULL; }
type_opt(A) ::= COLON type(T).             { A = T; }

/* ---- constants ----------------------------------------------------------
** decl_body ::= 'const' NAME [':' type] '=' expr
*/
decl_body(A) ::= CONST(T) NAME(N) type_opt(Y) ASSIGN expr(E). {
  A = new_decl(ps, RG_DE_CONST, T.pos, N.str);
  A->type = Y;
  A->value = E;
}

/* ---- tables -------------------------------------------------------------
** decl_body ::= 'table' NAME '(' keyspec {',' keyspec} ')' '->' type tablebody
** keyspec ::= [NAME ':'] NAME | [NAME ':'] sint '..' sint
** tablebody ::= '{' cell {',' cell} [','] '}' | 'from' STRING ['{' cellnote {',' cellnote} [','] '}']
** cellnote ::= keypat {',' keypat} ':' note note_list      (notes on cells of the file)
** cell ::= keypat {',' keypat} ':' expr note_list | 'else' ':' expr note_list
** keypat ::= NAME | NAME '.' NAME | STRING | sint | sint '..' sint | '_'
*/
decl_body(A) ::= TABLE(T) NAME(N) LP keyspec_list(K) RP ARROW type(Y) table_body(B). {
  A = new_decl(ps, RG_DE_TABLE, T.pos, N.str);
  A->keys = K.head;
  A->type = Y;
  A->cells = B.cells;
  A->from = B.from;
  A->from_pos = B.from_pos;
  A->cell_notes = B.cell_notes;
}

%type keyspec_list {rgi_keyspeclist}
keyspec_list(A) ::= keyspec(X).                        { LIST_ONE(A, X); }
keyspec_list(A) ::= keyspec_list(L) COMMA keyspec(X).  { LIST_ADD(A, L, X); }

%type keyspec {rgi_keyspec *}
keyspec(A) ::= NAME(E).                    { A = NEW(rgi_keyspec); A->pos = E.pos; A->enum_name = E.str; }
keyspec(A) ::= NAME(L) COLON NAME(E).      { A = NEW(rgi_keyspec); A->pos = L.pos; A->name = L.str; A->enum_name = E.str; }
keyspec(A) ::= sint(X) DOTDOT sint(Y).     { A = NEW(rgi_keyspec); A->pos = X.pos; A->lo = X.v; A->hi = Y.v; }
keyspec(A) ::= NAME(L) COLON sint(X) DOTDOT sint(Y). {
  A = NEW(rgi_keyspec); A->pos = L.pos; A->name = L.str; A->lo = X.v; A->hi = Y.v;
}

%type sint {rgi_sint}
sint(A) ::= INTEGER(I).                    { A.pos = I.pos; A.v = I.ival; }
sint(A) ::= MINUS(M) INTEGER(I).           { A.pos = M.pos; A.v = -I.ival; }
sint(A) ::= PLUS(M) INTEGER(I).            { A.pos = M.pos; A.v = I.ival; }

%type table_body {rgi_tablebody}
table_body(A) ::= LBRACE cell_list(C) comma_opt RBRACE. { memset(&A, 0, sizeof A); A.cells = C.head; }
table_body(A) ::= FROM STRING(S).          { memset(&A, 0, sizeof A); A.from = S.str; A.from_pos = S.pos; }
table_body(A) ::= FROM STRING(S) LBRACE cellnote_list(N) comma_opt RBRACE. {
  memset(&A, 0, sizeof A); A.from = S.str; A.from_pos = S.pos; A.cell_notes = N.head;
}

%type cellnote_list {rgi_celllist}
cellnote_list(A) ::= cellnote(X).          { LIST_ONE(A, X); }
cellnote_list(A) ::= cellnote_list(L) COMMA cellnote(X). { LIST_ADD(A, L, X); }

%type cellnote {rgi_cell *}
cellnote(A) ::= keypat_list(K) COLON note(X) note_list(N). {
  A = NEW(rgi_cell); A->pos = K.head->pos; A->keys = K.head; A->notes = X; X->next = N.head;
}

comma_opt ::= .
comma_opt ::= COMMA.

%type cell_list {rgi_celllist}
cell_list(A) ::= cell(X).                  { LIST_ONE(A, X); }
cell_list(A) ::= cell_list(L) COMMA cell(X). { LIST_ADD(A, L, X); }

%type cell {rgi_cell *}
cell(A) ::= keypat_list(K) COLON expr(E) note_list(N). {
  A = NEW(rgi_cell); A->pos = K.head->pos; A->keys = K.head; A->value = E; A->notes = N.head;
}
cell(A) ::= ELSE(T) COLON expr(E) note_list(N). {
  A = NEW(rgi_cell); A->pos = T.pos; A->value = E; A->notes = N.head;
}

%type keypat_list {rgi_keypatlist}
keypat_list(A) ::= keypat(X).                          { LIST_ONE(A, X); }
keypat_list(A) ::= keypat_list(L) COMMA keypat(X).     { LIST_ADD(A, L, X); }

%type keypat {rgi_keypat *}
keypat(A) ::= NAME(N).                     { A = NEW(rgi_keypat); A->pos = N.pos; A->kind = RG_KP_NAME; A->name = N.str; }
keypat(A) ::= NAME(E) DOT NAME(N).         {
  A = NEW(rgi_keypat); A->pos = E.pos; A->kind = RG_KP_NAME; A->name = N.str; A->enum_name = E.str;
}
keypat(A) ::= STRING(S).                   { A = NEW(rgi_keypat); A->pos = S.pos; A->kind = RG_KP_STR; A->name = S.str; }
keypat(A) ::= sint(X).                     { A = NEW(rgi_keypat); A->pos = X.pos; A->kind = RG_KP_INT; A->lo = A->hi = X.v; }
keypat(A) ::= sint(X) DOTDOT sint(Y).      { A = NEW(rgi_keypat); A->pos = X.pos; A->kind = RG_KP_RANGE; A->lo = X.v; A->hi = Y.v; }
keypat(A) ::= UNDERSCORE(U).               { A = NEW(rgi_keypat); A->pos = U.pos; A->kind = RG_KP_ANY; }

/* ---- procedures and tests -----------------------------------------------
** decl_body ::= 'procedure' NAME '(' [param {',' param}] ')' ['->' type] block
** param ::= NAME ':' type
** decl_body ::= 'test' STRING block
*/
decl_body(A) ::= PROCEDURE(T) NAME(N) LP param_list_opt(P) RP result_opt(Y) block(B). {
  A = new_decl(ps, RG_DE_PROC, T.pos, N.str);
  A->params = P.head;
  A->type = Y;
  A->body = B;
}
decl_body(A) ::= TEST(T) STRING(S) block(B). {
  A = new_decl(ps, RG_DE_TEST, T.pos, S.str);
  A->body = B;
}

/* ---- chance and inputs ------------------------------------------------
** decl ::= 'dice' NAME ':' type '=' '{' cell {',' cell} [','] '}'
**        | 'deck' NAME ':' type '=' '{' cell {',' cell} [','] '}'
**        | 'input' NAME ':' type '=' expr
*/
decl_body(A) ::= DICE_KW(T) NAME(N) COLON type(Y) ASSIGN LBRACE cell_list(C) comma_opt RBRACE. {
  A = new_decl(ps, RG_DE_DICE, T.pos, N.str); A->type = Y; A->cells = C.head;
}
decl_body(A) ::= DECK(T) NAME(N) COLON type(Y) ASSIGN LBRACE cell_list(C) comma_opt RBRACE. {
  A = new_decl(ps, RG_DE_DECK, T.pos, N.str); A->type = Y; A->cells = C.head;
}
/* deck NAME: T = { ... } secret: who draws a card keeps it to himself. */
decl_body(A) ::= DECK(T) NAME(N) COLON type(Y) ASSIGN LBRACE cell_list(C) comma_opt RBRACE NAME(S). {
  if (strcmp(S.str, "secret") != 0)
    rgi_error(ps->d, S.pos, "expected 'secret' or the next declaration after a deck's cards, not '%s'", S.str);
  A = new_decl(ps, RG_DE_DECK, T.pos, N.str); A->type = Y; A->cells = C.head; A->secret = true;
}
decl_body(A) ::= INPUT(T) NAME(N) COLON type(Y) ASSIGN expr(E). {
  A = new_decl(ps, RG_DE_INPUT, T.pos, N.str); A->type = Y; A->value = E;
}
/* An input per member of enum X (one per player): input rating[side]: ... */
decl_body(A) ::= INPUT(T) NAME(N) LBRACKET type(X) RBRACKET COLON type(Y) ASSIGN expr(E). {
  A = new_decl(ps, RG_DE_INPUT, T.pos, N.str); A->index = X; A->type = Y; A->value = E;
}

/* ---- strategies ----------------------------------------------------------
** decl_body ::= ['default'] 'strategy' NAME [STRING] '{' srule {srule} '}'
** srule ::= STRING ['for' expr] ':' pick {',' pick}
** pick ::= expr | NAME NAME                 (a value; max/min/first/random;
**                                            max FIELD, min FIELD)
** How a player answers the choices that ask STRING: the first pick that
** finds an option (see docs/language.md, "Strategies").
*/
decl_body(A) ::= STRATEGY(T) NAME(N) display_opt(D) LBRACE srule_list(L) RBRACE. {
  A = new_decl(ps, RG_DE_STRATEGY, T.pos, N.str); A->display = D; A->srules = L.head;
}
/* default strategy NAME ...: the one sim, odds and runs without people use
** when no policy is asked for.  Elsewhere 'default' is a name (%fallback). */
decl_body(A) ::= DEFAULT(W) STRATEGY(T) NAME(N) display_opt(D) LBRACE srule_list(L) RBRACE. {
  A = new_decl(ps, RG_DE_STRATEGY, T.pos, N.str); A->display = D; A->srules = L.head;
  A->is_default = true; A->default_pos = W.pos;
}

%type srule_list {rgi_srulelist}
srule_list(A) ::= srule(X).                { LIST_ONE(A, X); }
srule_list(A) ::= srule_list(L) srule(X).  { LIST_ADD(A, L, X); }

%type srule {rgi_srule *}
srule(A) ::= STRING(S) COLON pick_list(P). {
  A = NEW(rgi_srule); A->pos = S.pos; A->prompt = S.str; A->picks = P.head;
}
srule(A) ::= STRING(S) FOR expr(W) COLON pick_list(P). {
  A = NEW(rgi_srule); A->pos = S.pos; A->prompt = S.str; A->who = W; A->picks = P.head;
}

%type pick_list {rgi_pickxlist}
pick_list(A) ::= pick(X).                  { LIST_ONE(A, X); }
pick_list(A) ::= pick_list(L) COMMA pick(X). { LIST_ADD(A, L, X); }

%type pick {rgi_pickx *}
pick(A) ::= expr(E).                       { A = NEW(rgi_pickx); A->pos = E->pos; A->value = E; }
pick(A) ::= NAME(W) NAME(F).               { A = NEW(rgi_pickx); A->pos = W.pos; A->word = W.str; A->field = F.str; }

/* ---- displays -------------------------------------------------------------
** decl_body ::= 'display' NAME STRING '{' dline {dline} '}'
** dline ::= STRING | 'table' NAME ':' NAME {',' NAME} | 'list' NAME ['shown' STRING]
** How people see a record (a procedure's result) as a card: lines of text
** with {FIELD}s, a list of records as a table, a list as numbered lines.
*/
decl_body(A) ::= DISPLAY(T) NAME(N) STRING(S) LBRACE dline_list(L) RBRACE. {
  A = new_decl(ps, RG_DE_DISPLAY, T.pos, N.str); A->display = S.str; A->dlines = L.head;
}

%type dline_list {rgi_dlinelist}
dline_list(A) ::= dline(X).                { LIST_ONE(A, X); }
dline_list(A) ::= dline_list(L) dline(X).  { LIST_ADD(A, L, X); }

%type dline {rgi_dlinex *}
dline(A) ::= STRING(S).                    { A = NEW(rgi_dlinex); A->pos = S.pos; A->kind = 0; A->text = S.str; }
dline(A) ::= TABLE(T) NAME(F) COLON dcol_list(C). {
  A = NEW(rgi_dlinex); A->pos = T.pos; A->kind = 1; A->text = F.str; A->cols = C.head;
}
dline(A) ::= LIST(T) NAME(F).              { A = NEW(rgi_dlinex); A->pos = T.pos; A->kind = 2; A->text = F.str; }
/* list FIELD shown "form": each element (a record) by the form */
dline(A) ::= LIST(T) NAME(F) NAME(W) STRING(S). {
  if (strcmp(W.str, "shown") != 0)
    rgi_error(ps->d, W.pos, "expected 'shown \"FORM\"' after a list's field, not '%s'", W.str);
  A = NEW(rgi_dlinex); A->pos = T.pos; A->kind = 2; A->text = F.str; A->form = S.str; A->form_pos = S.pos;
}

%type dcol_list {rgi_dcollist}
dcol_list(A) ::= dcol(X).                  { LIST_ONE(A, X); }
dcol_list(A) ::= dcol_list(L) COMMA dcol(X). { LIST_ADD(A, L, X); }

%type dcol {rgi_dcolx *}
dcol(A) ::= NAME(N).                       { A = NEW(rgi_dcolx); A->pos = N.pos; A->name = N.str; }

%type param_list_opt {rgi_paramlist}
param_list_opt(A) ::= .                    { A.head = A.tail = NULL; }
param_list_opt(A) ::= param_list(L).       { A = L; }

%type param_list {rgi_paramlist}
param_list(A) ::= param(X).                        { LIST_ONE(A, X); }
param_list(A) ::= param_list(L) COMMA param(X).    { LIST_ADD(A, L, X); }

%type param {rgi_param *}
param(A) ::= NAME(N) COLON type(T).        { A = NEW(rgi_param); A->pos = N.pos; A->name = N.str; A->type = T; }

%type result_opt {rgi_typeexpr *}
result_opt(A) ::= .                        { A = NULL; }
result_opt(A) ::= ARROW type(T).           { A = T; }

/* ---- statements ---------------------------------------------------------
** block ::= '{' {stmt note_list} '}'      (notes trail a statement)
** stmt ::= 'let' NAME [':' type] '=' expr | NAME '=' expr | call
**        | 'step' STRING note_list block   (notes on the step, before its block)
**        | 'if' expr block ['else' (block | ifstmt)]
**        | 'for' NAME 'in' expr '..' expr block | 'while' expr block
**        | 'return' expr | 'note' STRING {',' expr} | 'expect' expr
*/
%type block {rgi_stmt *}
block(A) ::= LBRACE stmt_list(L) RBRACE.   { A = L.head; }

%type stmt_list {rgi_stmtlist}
stmt_list(A) ::= .                         { A.head = A.tail = NULL; }
stmt_list(A) ::= stmt_list(L) stmt(X) note_list(N). {
  A = L;
  if (N.head) {                            /* after the notes a step has before its block */
    rgi_note **end = &X->notes;
    while (*end) end = &(*end)->next;
    *end = N.head;
  }
  if (A.tail) A.tail->next = X; else A.head = X;
  A.tail = X;
}

%type stmt {rgi_stmt *}
stmt(A) ::= LET(T) NAME(N) type_opt(Y) ASSIGN expr(E). {
  A = new_stmt(ps, RG_ST_LET, T.pos); A->name = N.str; A->type = Y; A->e = E;
}
stmt(A) ::= NAME(N) ASSIGN expr(E).        { A = new_stmt(ps, RG_ST_ASSIGN, N.pos); A->name = N.str; A->e = E; }
stmt(A) ::= NAME(N) LBRACKET expr(K) RBRACKET ASSIGN expr(E). {
  A = new_stmt(ps, RG_ST_SETITEM, N.pos); A->name = N.str; A->e = K; A->e2 = E;
}
stmt(A) ::= call(C).                       { A = new_stmt(ps, RG_ST_CALL, C->pos); A->e = C; }
stmt(A) ::= if_stmt(X).                    { A = X; }
stmt(A) ::= FOR(T) NAME(N) IN expr(X) DOTDOT expr(Y) block(B). {
  A = new_stmt(ps, RG_ST_FOR, T.pos); A->name = N.str; A->e = X; A->e2 = Y; A->body = B;
}
stmt(A) ::= FOR(T) NAME(N) IN expr(X) block(B). {
  A = new_stmt(ps, RG_ST_FOREACH, T.pos); A->name = N.str; A->e = X; A->body = B;
}
stmt(A) ::= STEP(T) STRING(S) note_list(N) block(B). {
  A = new_stmt(ps, RG_ST_STEP, T.pos); A->str = S.str; A->notes = N.head; A->body = B;
}
stmt(A) ::= RULE(T) STRING(S) note_list(N) block(B). {
  A = new_stmt(ps, RG_ST_RULE, T.pos); A->str = S.str; A->notes = N.head; A->body = B;
}
stmt(A) ::= WHILE(T) expr(E) block(B).     { A = new_stmt(ps, RG_ST_WHILE, T.pos); A->e = E; A->body = B; }
stmt(A) ::= RETURN(T) expr(E).             { A = new_stmt(ps, RG_ST_RETURN, T.pos); A->e = E; }
stmt(A) ::= NOTE(T) STRING(S) note_args(X). { A = new_stmt(ps, RG_ST_NOTE, T.pos); A->str = S.str; A->args = X.head; }
stmt(A) ::= EXPECT(T) expr(E).             { A = new_stmt(ps, RG_ST_EXPECT, T.pos); A->e = E; }

/* if_stmt ::= 'if' expr block {'else' 'if' expr block} ['else' block]
** An else-if chain is a list, built left to right: it does not nest (a chain
** of any length leaves the parser's stack as it found it).  Each IF's orelse
** is the next IF of the chain, the last one's the else block or NULL. */
%type if_stmt {rgi_stmt *}
if_stmt(A) ::= if_chain(C).                { A = C.head; }
if_stmt(A) ::= if_chain(C) ELSE LBRACE(T) stmt_list(L) RBRACE. {
  rgi_stmt *b = new_stmt(ps, RG_ST_BLOCK, T.pos);
  b->body = L.head;
  C.tail->orelse = b;
  A = C.head;
}

%type if_chain {rgi_ifchain}
if_chain(A) ::= IF(T) expr(E) block(B).    {
  A.head = A.tail = new_stmt(ps, RG_ST_IF, T.pos); A.head->e = E; A.head->body = B; A.n = 1;
}
if_chain(A) ::= if_chain(C) ELSE IF(T) expr(E) block(B). {
  A = C;
  if (A.n < RG_MAX_ELSE_IF) {
    rgi_stmt *s = new_stmt(ps, RG_ST_IF, T.pos);
    s->e = E; s->body = B;
    A.tail->orelse = s;
    A.tail = s;
  } else if (A.n == RG_MAX_ELSE_IF) {
    rgi_error(ps->d, T.pos, "too many branches in an else-if chain (limit %d)", RG_MAX_ELSE_IF);
  }
  if (A.n <= RG_MAX_ELSE_IF) A.n++;
}

%type note_args {rgi_exprlist}
note_args(A) ::= .                         { A.head = A.tail = NULL; }
note_args(A) ::= note_args(L) COMMA expr(X). {
  A = L;
  if (A.tail) A.tail->next = X; else A.head = X;
  A.tail = X;
}

/* ---- expressions --------------------------------------------------------
** expr ::= expr binop expr | 'not' expr | '-' expr | '+' (INTEGER | PCT | DIST)
**        | expr '[' expr {',' expr} ']' | expr '.' NAME | call | '(' expr ')'
**        | INTEGER | PCT | DIST | STRING | 'true' | 'false' | NAME
**        | '{' [expr {',' expr}] '}' | '{' NAME ':' expr {',' NAME ':' expr} '}'
** call ::= NAME '(' [expr {',' expr}] ')'
*/
%type expr {rgi_expr *}
expr(A) ::= expr(X) OR(O) expr(Y).         { A = binary(ps, RG_AOP_OR, X, Y, O.pos); }
expr(A) ::= expr(X) AND(O) expr(Y).        { A = binary(ps, RG_AOP_AND, X, Y, O.pos); }
expr(A) ::= NOT(T) expr(X).                { A = unary(ps, RG_AOP_NOT, T.pos, X); }
expr(A) ::= expr(X) EQ(O) expr(Y).         { A = binary(ps, RG_AOP_EQ, X, Y, O.pos); }
expr(A) ::= expr(X) NE(O) expr(Y).         { A = binary(ps, RG_AOP_NE, X, Y, O.pos); }
expr(A) ::= expr(X) LT(O) expr(Y).         { A = binary(ps, RG_AOP_LT, X, Y, O.pos); }
expr(A) ::= expr(X) LE(O) expr(Y).         { A = binary(ps, RG_AOP_LE, X, Y, O.pos); }
expr(A) ::= expr(X) GT(O) expr(Y).         { A = binary(ps, RG_AOP_GT, X, Y, O.pos); }
expr(A) ::= expr(X) GE(O) expr(Y).         { A = binary(ps, RG_AOP_GE, X, Y, O.pos); }
expr(A) ::= expr(X) IN(O) expr(Y).         { A = binary(ps, RG_AOP_IN, X, Y, O.pos); }
expr(A) ::= expr(X) PLUS(O) expr(Y).       { A = binary(ps, RG_AOP_ADD, X, Y, O.pos); }
expr(A) ::= expr(X) MINUS(O) expr(Y).      { A = binary(ps, RG_AOP_SUB, X, Y, O.pos); }
expr(A) ::= expr(X) STAR(O) expr(Y).       { A = binary(ps, RG_AOP_MUL, X, Y, O.pos); }
expr(A) ::= expr(X) SLASH(O) expr(Y).      { A = binary(ps, RG_AOP_DIV, X, Y, O.pos); }
expr(A) ::= expr(X) MOD(O) expr(Y).        { A = binary(ps, RG_AOP_MOD, X, Y, O.pos); }
expr(A) ::= MINUS(T) expr(X). [UMINUS]     { A = unary(ps, RG_AOP_NEG, T.pos, X); }

expr(A) ::= expr(X) LBRACKET expr_list(K) RBRACKET. {
  rgi_expr *k = deepest_of(ps, K.head);
  A = new_expr(ps, RG_EX_INDEX, X->pos); A->a = X; A->args = K.head;
  A = parent(ps, A, k && k->depth > X->depth ? k : X, X->pos);
}
expr(A) ::= expr(X) DOT(D) NAME(N).        {
  A = new_expr(ps, RG_EX_FIELD, X->pos); A->a = X; A->name = N.str; A = parent(ps, A, X, D.pos);
}
expr(A) ::= call(C).                       { A = C; }
expr(A) ::= LP expr(X) RP.                 { A = X; }

expr(A) ::= INTEGER(T).                    { A = new_expr(ps, RG_EX_INT, T.pos); A->ival = T.ival; }
expr(A) ::= PCT(T).                        { A = new_expr(ps, RG_EX_PERCENT, T.pos); A->ival = T.ival; }
/* A number with its sign, as sheets print modifiers: +2, +10%, +1 BW. */
expr(A) ::= PLUS(P) INTEGER(T).            { A = new_expr(ps, RG_EX_INT, P.pos); A->ival = T.ival; }
expr(A) ::= PLUS(P) PCT(T).                { A = new_expr(ps, RG_EX_PERCENT, P.pos); A->ival = T.ival; }
expr(A) ::= PLUS(P) DIST(T).               {
  A = new_expr(ps, RG_EX_DIST, P.pos); A->ival = T.ival; A->name = T.str; A->starred = T.starred;
}
expr(A) ::= DIST(T).                       {
  A = new_expr(ps, RG_EX_DIST, T.pos); A->ival = T.ival; A->name = T.str; A->starred = T.starred;
}
expr(A) ::= STRING(T).                     { A = new_expr(ps, RG_EX_STR, T.pos); A->str = T.str; }
expr(A) ::= TRUE(T).                       { A = new_expr(ps, RG_EX_BOOL, T.pos); A->ival = 1; }
expr(A) ::= FALSE(T).                      { A = new_expr(ps, RG_EX_BOOL, T.pos); A->ival = 0; }
expr(A) ::= NAME(T).                       { A = new_expr(ps, RG_EX_NAME, T.pos); A->name = T.str; }

expr(A) ::= LBRACE(T) RBRACE.              { A = new_expr(ps, RG_EX_SET, T.pos); }
expr(A) ::= LBRACE(T) expr_list(L) RBRACE. {
  A = new_expr(ps, RG_EX_SET, T.pos); A->args = L.head; A = parent(ps, A, deepest_of(ps, L.head), T.pos);
}
expr(A) ::= LBRACE(T) fieldinit_list(L) RBRACE. {
  A = new_expr(ps, RG_EX_RECORD, T.pos); A->fields = L.head;
  A = parent(ps, A, deepest_field(ps, L.head, NULL), T.pos);
}
/* A record update: a copy of X with the fields given changed. */
expr(A) ::= LBRACE(T) expr(X) WITH fieldinit_list(L) RBRACE. {
  A = new_expr(ps, RG_EX_RECORD, T.pos); A->a = X; A->fields = L.head;
  A = parent(ps, A, deepest_field(ps, L.head, X), T.pos);
}

expr(A) ::= LBRACKET(T) RBRACKET.          { A = new_expr(ps, RG_EX_LIST, T.pos); }
expr(A) ::= LBRACKET(T) expr_list(L) RBRACKET. {
  A = new_expr(ps, RG_EX_LIST, T.pos); A->args = L.head; A = parent(ps, A, deepest_of(ps, L.head), T.pos);
}
expr(A) ::= DICE(T).                       { A = new_expr(ps, RG_EX_DICE, T.pos); A->ival = T.ival; A->sides = T.sides; }
expr(A) ::= ROLL(R) DICE(T).               { A = new_expr(ps, RG_EX_ROLL, R.pos); A->ival = T.ival; A->sides = T.sides; }
expr(A) ::= ROLL(R) NAME(N).               { A = new_expr(ps, RG_EX_ROLL, R.pos); A->name = N.str; }
expr(A) ::= DRAW(R) NAME(N).               { A = new_expr(ps, RG_EX_DRAW, R.pos); A->name = N.str; }
/* roll(who, "what for", DIE) and draw(who, "what for", DECK): the same roll
** or draw, labelled for people who read real dice and cards ("player A:
** commander die"). */
expr(A) ::= ROLL(R) LP expr(W) COMMA STRING(S) COMMA DICE(T) RP. {
  A = new_expr(ps, RG_EX_ROLL, R.pos); A->ival = T.ival; A->sides = T.sides; A->a = W; A->str = S.str;
  A = parent(ps, A, W, R.pos);
}
expr(A) ::= ROLL(R) LP expr(W) COMMA STRING(S) COMMA NAME(N) RP. {
  A = new_expr(ps, RG_EX_ROLL, R.pos); A->name = N.str; A->a = W; A->str = S.str;
  A = parent(ps, A, W, R.pos);
}
expr(A) ::= DRAW(R) LP expr(W) COMMA STRING(S) COMMA NAME(N) RP. {
  A = new_expr(ps, RG_EX_DRAW, R.pos); A->name = N.str; A->a = W; A->str = S.str;
  A = parent(ps, A, W, R.pos);
}

%type call {rgi_expr *}
call(A) ::= NAME(N) LP RP.                 { A = new_expr(ps, RG_EX_CALL, N.pos); A->name = N.str; }
call(A) ::= NAME(N) LP expr_list(L) RP.    {
  A = new_expr(ps, RG_EX_CALL, N.pos); A->name = N.str; A->args = L.head;
  A = parent(ps, A, deepest_of(ps, L.head), N.pos);
}
call(A) ::= CHOOSE(N) LP expr_list(L) RP.  {
  A = new_expr(ps, RG_EX_CALL, N.pos); A->name = "choose"; A->args = L.head;
  A = parent(ps, A, deepest_of(ps, L.head), N.pos);
}
/* choose secret(...): the players answer without seeing each other's answers. */
call(A) ::= CHOOSE(N) NAME(S) LP expr_list(L) RP.  {
  if (strcmp(S.str, "secret") != 0)
    rgi_error(ps->d, S.pos, "expected '(' or 'secret' after choose, not '%s'", S.str);
  A = new_expr(ps, RG_EX_CALL, N.pos); A->name = "choose"; A->args = L.head; A->secret = true;
  A = parent(ps, A, deepest_of(ps, L.head), N.pos);
}

%type expr_list {rgi_exprlist}
expr_list(A) ::= expr(X).                  { LIST_ONE(A, X); }
expr_list(A) ::= expr_list(L) COMMA expr(X). { LIST_ADD(A, L, X); }

%type fieldinit_list {rgi_fieldinitlist}
fieldinit_list(A) ::= fieldinit(X).        { LIST_ONE(A, X); }
fieldinit_list(A) ::= fieldinit_list(L) COMMA fieldinit(X). { LIST_ADD(A, L, X); }

%type fieldinit {rgi_fieldinit *}
fieldinit(A) ::= NAME(N) COLON expr(E).    { A = NEW(rgi_fieldinit); A->pos = N.pos; A->name = N.str; A->value = E; }

%code {
/* Returns the size of a parser, so that parse.c can take it from an arena. */
size_t rgi_parser_size(void) {
  return sizeof(yyParser);
}

/* Lets the next syntax error be reported at once.  Lemon stays silent until
** three tokens have been shifted after an error; parse.c calls this at the
** start of each declaration, which is a fresh start. */
void rgi_parser_clear_errors(void *p) {
  ((yyParser *)p)->yyerrcnt = -1;
}
}
