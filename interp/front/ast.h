/*
** ast.h: the syntax tree that the parser builds and the checker reads.
**
** Every node lives in the compile arena (arena.h) and is never freed on its
** own.  Lists are singly linked through `next`, in source order.  Names and
** strings are NUL-terminated arena copies of the (NFC-normalized) source text;
** string literals are already unescaped.  Each node carries the position of
** its first token, which is where diagnostics about it point.
*/
#ifndef RG_AST_H
#define RG_AST_H

#include <stdint.h>
#include <stdbool.h>

/* A place in a source file: file index (into the compile's file list),
** 1-based line, and 1-based column counted in bytes of the line. */
typedef struct rgi_pos {
  uint32_t file;
  uint32_t line;
  uint32_t col;
} rgi_pos;

/* Provenance notes that may trail a declaration, an enum member, a table
** cell or a statement (and follow a step's name): `assumed "..."` and
** `source "..."`. */
typedef struct rgi_note {
  rgi_pos pos;
  bool assumed;            /* true: assumed "..."; false: source "..." */
  const char *text;
  struct rgi_note *next;
} rgi_note;

/* ---- types as written ------------------------------------------------- */

typedef enum rgi_tkind {
  RG_TY_INT, RG_TY_BOOL, RG_TY_PERCENT, RG_TY_TEXT,
  RG_TY_DISTANCE,          /* `distance` or `distance(UNIT)`; unit may be NULL */
  RG_TY_SET,               /* `set NAME`; name is the element enum */
  RG_TY_NAMED,             /* an enum or a record, by name */
  RG_TY_LIST               /* `list T`; elem is T */
} rgi_tkind;

typedef struct rgi_typeexpr {
  rgi_pos pos;
  rgi_tkind kind;
  const char *name;        /* RG_TY_SET, RG_TY_NAMED: the enum/record name;
                              RG_TY_DISTANCE: the unit or NULL */
  struct rgi_typeexpr *elem; /* RG_TY_LIST: the element type */
} rgi_typeexpr;

/* ---- expressions ------------------------------------------------------ */

typedef enum rgi_ekind {
  RG_EX_INT,        /* ival */
  RG_EX_PERCENT,    /* ival = whole percent, 40% -> 40 */
  RG_EX_DIST,       /* ival = thousandths of a unit; name = unit; starred */
  RG_EX_STR,        /* str */
  RG_EX_BOOL,       /* ival 0 or 1 */
  RG_EX_NAME,       /* name */
  RG_EX_UNARY,      /* op, a */
  RG_EX_BINARY,     /* op, a, b */
  RG_EX_INDEX,      /* a[args]: table lookup */
  RG_EX_FIELD,      /* a.name: record field, or ENUM.member when a is a name */
  RG_EX_CALL,       /* name(args): procedure or builtin */
  RG_EX_SET,        /* { args }: set literal (args may be NULL: empty set) */
  RG_EX_RECORD,     /* { fields }: record literal, type from context;
                    ** with a: { a with fields }, a copy of record a */
  RG_EX_LIST,       /* [ args ]: list literal (args may be NULL: empty list) */
  RG_EX_DICE,       /* d6, 2d6: ival dice of `sides` sides (an argument of rolls) */
  RG_EX_ROLL,       /* roll 2d6 (ival, sides) or roll NAME (name: a custom die) */
  RG_EX_DRAW,       /* draw NAME: a card from a deck */
  RG_EX_ERROR       /* placeholder after a syntax error */
} rgi_ekind;

typedef enum rgi_op {
  RG_AOP_NEG, RG_AOP_NOT,
  RG_AOP_ADD, RG_AOP_SUB, RG_AOP_MUL, RG_AOP_DIV, RG_AOP_MOD,
  RG_AOP_EQ, RG_AOP_NE, RG_AOP_LT, RG_AOP_LE, RG_AOP_GT, RG_AOP_GE,
  RG_AOP_AND, RG_AOP_OR, RG_AOP_IN
} rgi_op;

typedef struct rgi_fieldinit rgi_fieldinit;

typedef struct rgi_expr {
  rgi_pos pos;
  rgi_ekind kind;
  rgi_op op;
  bool starred;                 /* RG_EX_DIST: written with the * marker */
  bool secret;                  /* CALL of choose: `choose secret(...)` */
  int64_t sides;                /* RG_EX_DICE, RG_EX_ROLL of plain dice */
  rgi_pos oppos;                 /* RG_EX_BINARY: where the operator is */
  int64_t ival;
  const char *name;             /* NAME, FIELD, CALL, DIST (unit) */
  const char *str;              /* STR */
  struct rgi_expr *a, *b;        /* UNARY/BINARY operands; INDEX/FIELD base */
  struct rgi_expr *args;         /* INDEX keys, CALL args, SET members */
  rgi_fieldinit *fields;         /* RECORD */
  struct rgi_expr *next;         /* next in an argument/member list */
  uint32_t depth;               /* levels of the tree under and with it (parser.y
                                   bounds it: the checker and compiler recurse) */
} rgi_expr;

/* The deepest expression tree the parser builds (parser.y): operator chains
** such as 1+1+...+1 are left-deep, so every walk of the tree recurses once
** per operator; deeper is an error at the operator. */
#define RG_MAX_EXPR_DEPTH 1000

struct rgi_fieldinit {
  rgi_pos pos;
  const char *name;
  rgi_expr *value;
  rgi_fieldinit *next;
};

/* ---- statements ------------------------------------------------------- */

typedef enum rgi_skind {
  RG_ST_LET,        /* let name [: type] = e */
  RG_ST_ASSIGN,     /* name = e */
  RG_ST_IF,         /* if e body [else orelse] ; orelse is a block or one IF */
  RG_ST_FOR,        /* for name in e .. e2 body */
  RG_ST_WHILE,      /* while e body */
  RG_ST_RETURN,     /* return e */
  RG_ST_NOTE,       /* note str [, args] */
  RG_ST_EXPECT,     /* expect e */
  RG_ST_CALL,       /* e is an RG_EX_CALL whose result is dropped */
  RG_ST_BLOCK,      /* body: a nested block (used for else branches) */
  RG_ST_FOREACH,    /* for name in e body: each element of a list or set */
  RG_ST_STEP,       /* step "str" body */
  RG_ST_SETITEM,    /* name[e] = e2: an element of a list variable, in place */
  RG_ST_RULE        /* rule "str" body: a named part of a step, in its scope */
} rgi_skind;

typedef struct rgi_stmt {
  rgi_pos pos;
  rgi_skind kind;
  const char *name;             /* LET, ASSIGN, FOR */
  const char *str;              /* NOTE text */
  rgi_typeexpr *type;            /* LET, optional */
  rgi_expr *e, *e2;              /* value / condition / range bounds */
  rgi_expr *args;                /* NOTE values */
  struct rgi_stmt *body;         /* IF then-block, FOR/WHILE body, BLOCK */
  struct rgi_stmt *orelse;       /* IF: else branch (BLOCK or IF) or NULL */
  rgi_note *notes;               /* provenance: trailing it, or (STEP) before its block */
  rgi_pos replaced;              /* STEP, RULE: where an override replaced its body (line 0: never) */
  struct rgi_stmt *next;
} rgi_stmt;

/* ---- declarations ----------------------------------------------------- */

/* One member of an enum: `CODE "Display name"` (display may be NULL).  A
** member of `extend enum` may say where it goes: `after M` or `before M`. */
typedef struct rgi_member {
  rgi_pos pos;
  const char *code;
  const char *display;
  const char *anchor;           /* extend: the member it goes after/before, or NULL (the end) */
  rgi_pos anchor_pos;
  bool before;                  /* extend: `before anchor` (else after) */
  bool added;                   /* given by an `extend enum` of a rule set that extends the base */
  rgi_note *notes;
  struct rgi_member *next;
} rgi_member;

/* One field of a record type: `name: type`. */
typedef struct rgi_field {
  rgi_pos pos;
  const char *name;
  rgi_typeexpr *type;
  struct rgi_field *next;
} rgi_field;

/* One key dimension of a table: `[name:] ENUM` or `[name:] lo..hi`. */
typedef struct rgi_keyspec {
  rgi_pos pos;
  const char *name;             /* optional label, may be NULL */
  const char *enum_name;        /* the key enum, or NULL for a range */
  int64_t lo, hi;               /* the range, when enum_name is NULL */
  struct rgi_keyspec *next;
} rgi_keyspec;

/* One key pattern of a table cell. */
typedef enum rgi_kpkind {
  RG_KP_NAME,       /* an enum member by code: name */
  RG_KP_STR,        /* an enum member by display name: name */
  RG_KP_INT,        /* lo (== hi) */
  RG_KP_RANGE,      /* lo..hi */
  RG_KP_ANY         /* _ */
} rgi_kpkind;

typedef struct rgi_keypat {
  rgi_pos pos;
  rgi_kpkind kind;
  const char *name;
  const char *enum_name;        /* RG_KP_NAME written ENUM.member, else NULL */
  int64_t lo, hi;
  struct rgi_keypat *next;
} rgi_keypat;

/* One cell of an inline table: `keys: value` or `else: value` (keys NULL);
** or notes on cells of a TSV table: `keys: assumed "..."` (value NULL); or,
** among a table's changes, the cells of a TSV file (`override NAME from
** "file"`: from set, keys and value NULL). */
typedef struct rgi_cell {
  rgi_pos pos;
  rgi_keypat *keys;              /* NULL for the else cell */
  rgi_expr *value;
  const char *from;             /* changes: a TSV of cells, relative to the rule file */
  rgi_note *notes;
  struct rgi_cell *next;
} rgi_cell;

typedef struct rgi_param {
  rgi_pos pos;
  const char *name;
  rgi_typeexpr *type;
  struct rgi_param *next;
} rgi_param;

typedef enum rgi_dkind {
  RG_DE_UNIT,       /* unit NAME ["display"] */
  RG_DE_ENUM,       /* enum NAME { members }; ordered when written with < */
  RG_DE_RECORD,     /* record NAME { fields } */
  RG_DE_CONST,      /* const NAME [: type] = e */
  RG_DE_TABLE,      /* table NAME(keys) -> type { cells } | from "file" */
  RG_DE_PROC,       /* procedure NAME(params) [-> type] { body } */
  RG_DE_TEST,       /* test "name" { body } */
  RG_DE_DICE,       /* dice NAME: type = { face: count, ... }; in cells */
  RG_DE_DECK,       /* deck NAME: type = { card: count, ... }; in cells */
  RG_DE_INPUT,      /* input NAME: type = e */
  RG_DE_SCALE,      /* scale * = num/den [round up|down|nearest] */
  RG_DE_CELL,       /* override NAME[keys] = e: cells of a table; one cell */
  RG_DE_STEP,       /* override step|rule "name" in PROC { body } (part) */
  RG_DE_REMOVE,     /* remove NAME, or remove step|rule "name" in PROC (target, part) */
  RG_DE_STRATEGY,   /* strategy NAME ["doc"] { "prompt" [for who]: pick, ... } */
  RG_DE_DISPLAY,    /* display RECORD "title" { lines } (dlines) */
  RG_DE_NOTES,      /* override NAME notes: notes added to the base's NAME, unchanged */
  RG_DE_EXTEND      /* extend enum NAME { members }: members added to the base's enum */
} rgi_dkind;

/* A column of a display's table: a field of the listed records. */
typedef struct rgi_dcolx {
  rgi_pos pos;
  const char *name;
  struct rgi_dcolx *next;
} rgi_dcolx;

/* A line of a display: "form" (text, {FIELD} a field's value), `table
** FIELD: col, ...` (a list of records, one row each) or `list FIELD` (a
** list, one numbered line an element). */
typedef struct rgi_dlinex {
  rgi_pos pos;
  int kind;                     /* 0 form, 1 table, 2 list */
  const char *text;             /* form: the form; table, list: the field */
  rgi_dcolx *cols;                /* table */
  const char *form;             /* list of records: each by this form, or NULL */
  rgi_pos form_pos;
  struct rgi_dlinex *next;
} rgi_dlinex;

/* One pick of a strategy's rule: a value (the option equal to it), or a
** word with an optional field: max/min [FIELD], first, random. */
typedef struct rgi_pickx {
  rgi_pos pos;
  rgi_expr *value;               /* a value, or a bare word (max, min, first, random) */
  const char *word, *field;     /* `max FIELD` / `min FIELD`: NULL for a value */
  struct rgi_pickx *next;
} rgi_pickx;

/* A strategy's rule: how the choices asking `prompt` are answered (only
** those asked of `who`, when given): its picks in order. */
typedef struct rgi_srule {
  rgi_pos pos;
  const char *prompt;
  rgi_expr *who;                 /* or NULL: any chooser */
  rgi_pickx *picks;
  struct rgi_srule *next;
} rgi_srule;

typedef struct rgi_decl {
  rgi_pos pos;
  rgi_dkind kind;
  const char *name;             /* declared name; TEST: the test's title */
  const char *display;          /* UNIT display name; RECORD shown form; or NULL */
  bool ordered;                 /* ENUM: members separated by < */
  bool secret;                  /* DECK: written `... } secret` */
  rgi_member *members;           /* ENUM */
  rgi_field *fields;             /* RECORD */
  rgi_typeexpr *type;            /* CONST (optional), TABLE value, PROC result, INPUT */
  rgi_typeexpr *index;           /* INPUT NAME[E]: the enum E it is indexed by, or NULL */
  rgi_expr *value;               /* CONST */
  rgi_keyspec *keys;             /* TABLE */
  rgi_cell *cells;               /* TABLE inline cells */
  rgi_cell *changes;             /* TABLE: cells set by rule sets that extend it */
  const char *from;             /* TABLE: TSV path, relative to the rule file */
  rgi_pos from_pos;              /* TABLE: of `from`; RECORD: of its shown form */
  rgi_cell *cell_notes;          /* TABLE from a TSV: notes on its cells (no values) */
  rgi_param *params;             /* PROC */
  rgi_srule *srules;             /* STRATEGY */
  rgi_dlinex *dlines;             /* DISPLAY (name: the record) */
  rgi_stmt *body;                /* PROC, TEST */
  rgi_note *notes;
  bool is_override;             /* written `override ...` */
  bool is_default;              /* STRATEGY: written `default strategy ...`, or an
                                ** override of one */
  rgi_pos default_pos;           /* STRATEGY: where `default` was written */
  const char *target;           /* STEP, REMOVE of a step or rule: the procedure */
  rgi_skind part;                /* STEP, REMOVE with a target: RG_ST_RULE for a rule, else a step */
  int64_t num, den;             /* SCALE: the factor num/den */
  int round;                    /* SCALE: 1 up, -1 down, 2 nearest, 0 exact */
  struct rgi_decl *next;
} rgi_decl;

/* The ruleset header: ruleset "name" [revision "r"] [source "s"]. */
typedef struct rgi_header {
  rgi_pos pos;
  const char *name;
  const char *revision;
  const char *source;
  const char *extends;          /* path of the base rule set, or NULL */
  rgi_pos extends_pos;
} rgi_header;

/* A parsed file: the header (may be NULL) and its declarations. */
typedef struct rgi_ast_file {
  rgi_header *header;
  rgi_decl *decls;
} rgi_ast_file;

#endif
