/*
** compile_int.h: the compiler's internals, shared by its parts:
**
**   compile.c        the driver: the order of the passes, the module handed over
**   compile_names.c  allocation, errors, symbols, the string pool, types, members
**   compile_fold.c   operators (what each accepts and gives), constant folding
**   compile_emit.c   emitting instructions and jumps; local variables
**   compile_expr.c   expressions: values, conditions, operators, literals, rolls
**   compile_call.c   calls: procedures, builtins, shapes, choose
**   compile_stmt.c   statements, one function per kind
**   compile_decl.c   declarations: the vocabulary, heads, procedure bodies, tests
**   tables.c         table cells: flattening, overlap, coverage, TSV import
**   extends.c        a rule set built on another: merging, override, remove
**
** Nothing outside the compiler includes this file (compile.h is the API).
** Functions shared between the parts carry the prefix rgc_.
*/
#ifndef RG_COMPILE_INT_H
#define RG_COMPILE_INT_H

#include "compile.h"
#include "regula_front.h"
#include "opcodes.h"
#include "parse.h"
#include "value.h"
#include "hash.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define K_ERR 255u                /* the type of an expression in error */
#define REF_ANY 0xFFFFFFFFu       /* the empty set {} before context: any set */
#define MAX_TABLE_CELLS (1u << 22)     /* cells of one table */
#define MAX_MODULE_CELLS (1u << 23)    /* cells of all the tables of a rule set */
#define MAX_LOCALS 65535
#define MAX_PARAMS 255            /* parameters of a procedure */

/* Types every part uses (compound literals, so each is a value). */
#define T_NONE ((rgi_type){ RG_K_VOID, 0 })
#define T_ERR  ((rgi_type){ K_ERR, 0 })
#define T_INT  ((rgi_type){ RG_K_INT, 0 })
#define T_BOOL ((rgi_type){ RG_K_BOOL, 0 })
#define T_TEXT ((rgi_type){ RG_K_TEXT, 0 })

/* ======================================================================
** Growable arrays
** ==================================================================== */

/* A growable array of fixed-size items, backed by rg_realloc. */
typedef struct vec {
  void *items;
  uint32_t n, cap;
  size_t size;
} vec;

#define AT(v, type, i) (((type *)(v).items)[i])

/* The module's arrays that the compiler grows are module.h's
** RG_MODULE_ARRAYS(X): X(field of the compiler state and of the module,
** count field of the module, item type).  That one list declares,
** initializes, frees and hands them over. */

/* ======================================================================
** Symbols
** ==================================================================== */

/* An entry of a hash table of chains (rgc_htab): the first member of what
** the table holds (a sym, a memref, a string of the pool), so that one
** table serves them all.  hash is rgi_hash_text of the entry's name. */
typedef struct rgc_hlink {
  struct rgc_hlink *next;          /* the next in its bucket */
  uint32_t hash;
} rgc_hlink;

/* A hash table of chains whose buckets double as it fills (never more
** entries than buckets), so a lookup costs the same among a million names
** as among ten.  An entry's bucket is its hash mixed with key (rgc_bucket);
** each doubling draws a new key from the hashes of all the entries, so
** names chosen to share a bucket (their hashes alike in the low bits, or
** alike once mixed under one key) are spread again: to keep them together
** they would have to collide in all 32 bits.  The arena owns the buckets;
** cap is 0 (empty) or a power of two. */
typedef struct rgc_htab {
  rgc_hlink **head;
  uint32_t cap, n;
  uint32_t key;                   /* of the buckets as they are */
  uint32_t sum;                   /* of the entries' hashes (the next key) */
  bool ordered;                   /* entries of one hash stay newest first
                                  ** (names that repeat: member codes) */
} rgc_htab;

/* The order "did you mean" offers declared names and members in
** (suggest.c): by hash modulo NEAR_BUCKETS, newest first in each, the
** order of the compiler's first tables (fixed buckets), kept so that of
** names equally close the same one is suggested.  Not a lookup table. */
#define NEAR_BUCKETS 1024

typedef enum symkind { S_UNIT, S_ENUM, S_RECORD, S_CONST, S_TABLE, S_PROC, S_DICE, S_DECK,
                       S_INPUT } symkind;

/* A declared name.  index is the module index of the unit/enum/record/
** table/proc; a constant keeps its folded value. */
typedef struct sym {
  rgc_hlink link;                 /* in cs->syms (first: the table's entry) */
  const char *name;
  symkind kind;
  rgi_decl *decl;
  uint32_t index;
  rgi_type type;                  /* CONST: its type */
  rgi_value value;                /* CONST: its value */
  int state;                     /* CONST: 0 new, 1 folding, 2 done, 3 failed */
  struct sym *near;              /* the next in hint order (cs->near_syms) */
} sym;

/* A member code, for finding bare member names: which enums have it. */
typedef struct memref {
  rgc_hlink link;                 /* in cs->memhash (first: the table's entry) */
  const char *code;
  uint32_t en, index;
  struct memref *near;           /* the next in hint order (cs->near_members) */
} memref;

/* A local variable of the procedure being compiled. */
typedef struct local {
  const char *name;
  uint32_t slot;
  rgi_type type;
  int depth;
  bool loop;                     /* the variable of a for loop (named by failed expects) */
  uint32_t hash;                 /* of name */
  uint32_t prev;                 /* the local before it in its bucket, or UINT32_MAX */
} local;

/* The compiler state. */
typedef struct cstate {
  rgi_diag *d;
  rgi_arena *A;
  const rg_loader *loader;       /* where `extends` and `from` files come from */

  jmp_buf oom_jmp;               /* where running out of memory unwinds to */
  int quiet;                     /* >0: probing; errors are not reported */
  int quiet_errors;              /* errors seen while quiet */
  rgi_assumption *assumed, **assumed_tail;

  rgc_htab syms;                 /* of sym, by name */
  rgc_htab memhash;              /* of memref, by code (one a member: codes repeat;
                                 ** ordered) */
  sym **near_syms;               /* [NEAR_BUCKETS] heads of hint order, NULL until a name */
  memref **near_members;         /* [NEAR_BUCKETS] the same for members */

  /* module under construction */
  char *pool; uint32_t npool, cappool;
  rgc_htab strhash;              /* of struct strent { rgc_hlink; offset in pool } */
#define RG_X(field, count, type) vec field;
  RG_MODULE_ARRAYS(RG_X)
#undef RG_X
  rgi_value name_v, revision_v, source_v;

  /* the procedure being compiled */
  local *locals; uint32_t nlocal, caplocal;
  uint32_t *lhead, lhcap;        /* buckets of locals by name hash: the last local of each */
  uint32_t *khash, khcap;        /* the constants by value: index + 1, 0 empty (a power of two) */
  uint32_t *loops, nloops, caploops;   /* indexes of the loop variables in scope, in order */
  uint32_t nslots;
  int depth;
  rgi_type result;
  uint32_t proc_start;
  rgi_pos pos;                    /* position of the code being emitted */
  bool in_test;                  /* compiling a test block */
  int64_t scale_num, scale_den;  /* scale of starred distances (1/1 by default) */
  int scale_round;               /* 1 up, -1 down, 2 nearest, 0 none */
} cstate;

/* ---- compile_names.c: allocation, errors, symbols, types, members ---- */

/* Reports an error at pos unless probing (cs->quiet). */
void rgc_err(cstate *cs, rgi_pos pos, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;
/* Out of memory: unwinds the whole compile to rgi_compile. */
_Noreturn void rgc_oom(cstate *cs);
/* Appends a zeroed item to v, or unwinds: never returns NULL. */
void *rgc_push(cstate *cs, vec *v);
/* Arena allocation and copies that unwind on failure: never NULL. */
void *rgc_alloc(cstate *cs, size_t n);
char *rgc_strndup(cstate *cs, const char *s, size_t n);
char *rgc_strdup(cstate *cs, const char *s);
/* Returns the symbol named name, or NULL. */
sym *rgc_lookup(cstate *cs, const char *name);
/* Returns the string pool offset of s, adding it once. */
uint32_t rgc_intern(cstate *cs, const char *s);
/* Returns whether type k is the error type. */
static inline bool rgc_is_err(rgi_type t) { return t.kind == K_ERR; }
/* Writes a readable name of t into buf; returns buf.  A buffer of
** RGI_TYPE_NAME_SIZE (value.h) holds any type's name whole: two types an
** error tells apart never read the same. */
const char *rgc_tname(cstate *cs, rgi_type t, char *buf, size_t size);
/* Reports "WHAT must be W, not G" when got does not fit want. */
bool rgc_check_type(cstate *cs, rgi_pos pos, rgi_type got, rgi_type want, const char *what);
/* Members of enum en: by exact code, by code or display name ignoring case
** (-1 when absent), and the list of codes for messages. */
int rgc_member_by_code(cstate *cs, uint32_t en, const char *code);
int rgc_member_by_text(cstate *cs, uint32_t en, const char *text);
const char *rgc_member_list(cstate *cs, uint32_t en, char *buf, size_t size);
/* Returns the bucket of hash h in t (cap > 0): h under t's key, mixed. */
static inline uint32_t rgc_bucket(const rgc_htab *t, uint32_t h) {
  return rgi_hash_mix(h ^ t->key) & (t->cap - 1);
}
/* Returns the newest entry of t in the bucket of hash h (then follow
** ->next; entries of other hashes share buckets), or NULL. */
static inline rgc_hlink *rgc_htab_first(const rgc_htab *t, uint32_t h) {
  return t->cap ? t->head[rgc_bucket(t, h)] : NULL;
}
/* Adds entry l (l->hash set) to t, newest in its bucket, doubling the
** buckets first when t is full; out of memory unwinds. */
void rgc_htab_add(cstate *cs, rgc_htab *t, rgc_hlink *l);
/* Adds member reference r (r->code, en and index set) to cs->memhash and
** to the hint order. */
void rgc_add_memref(cstate *cs, memref *r);
/* Declares dc's name as a symbol of kind `kind` (the arena owns it);
** reports a duplicate and returns NULL when the name exists. */
sym *rgc_declare(cstate *cs, rgi_decl *dc, symkind kind);
/* Returns the type of kind `kind` (an rgi_kind) with reference ref (see
** rgi_kind; 0 when unused). */
static inline rgi_type rgc_mktype(uint32_t kind, uint32_t ref) {
  rgi_type t = { kind, ref };
  return t;
}
/* Returns whether a value of type got may stand where want is expected;
** types is the list of element types that list types refer to. */
bool rgc_compatible_in(const rgi_type *types, rgi_type got, rgi_type want);
#define RGC_COMPAT(got, want) rgc_compatible_in((const rgi_type *)cs->types.items, (got), (want))
/* Returns the index in types[] of type t, adding it once. */
uint32_t rgc_type_index(cstate *cs, rgi_type t);
/* Returns whether t is the type of an empty literal before context: [] is
** a list of anything, {} a set of anything (no module type is either). */
static inline bool rgc_is_any(rgi_type t) {
  return (t.kind == RG_K_LIST || t.kind == RG_K_SET) && t.ref == REF_ANY;
}
/* Returns the type `list elem` (T_ERR after reporting lists nested too
** deeply, or an elem that is rgc_is_any). */
rgi_type rgc_list_of(cstate *cs, rgi_type elem);
/* Returns the element type of list type t (T_ERR for the empty list's). */
rgi_type rgc_elem_of(cstate *cs, rgi_type t);
/* Resolves a written type; reports unknown names and returns T_ERR. */
rgi_type rgc_resolve_type(cstate *cs, const rgi_typeexpr *te);
/* Looks a bare member name up in every enum: returns how many enums have
** it, stores the first one's enum and index, and (when enums is not NULL)
** their names, comma-separated, into enums. */
int rgc_find_member(cstate *cs, const char *code, uint32_t *en, uint32_t *index,
                    char *enums, size_t size);

/* ---- compile_fold.c: operators and constant folding ---- */

/* Returns whether t is a numeric type: int, percent or distance. */
bool rgc_numeric(rgi_type t);
/* Returns the type of `a op b` (of `op a`) for the operand types, or T_ERR
** after reporting why the operator does not apply. */
rgi_type rgc_binop_type(cstate *cs, rgi_pos pos, rgi_op op, rgi_type a, rgi_type b);
rgi_type rgc_unop_type(cstate *cs, rgi_pos pos, rgi_op op, rgi_type a);
/* Returns the opcode of binary operator op on operands of types ta, tb
** (for values compared as numbers; see compile_expr.c for records, lists). */
rgi_opcode rgc_binop_code(rgi_op op, rgi_type ta, rgi_type tb);
/* Folds constant expression e in the context of want; T_ERR after reporting. */
rgi_type rgc_fold(cstate *cs, rgi_expr *e, rgi_type want, rgi_value *v);
/* Appends a record's field values to the constant heap; returns its offset. */
rgi_value rgc_heap_record(cstate *cs, const rgi_value *vals, uint32_t n);
/* Returns whether e's value depends on a starred distance (depth: the
** recursion so far, cut at 32). */
bool rgc_expr_starred(cstate *cs, const rgi_expr *e, int depth);
/* Returns a starred distance of v thousandths under the rule set's `scale
** *` (v unchanged without one), rounded as it says; reports an overflow at
** pos (then returns v). */
rgi_value rgc_scaled(cstate *cs, rgi_pos pos, rgi_value v);
/* Folds constant s on first use (use: where it is named); stores its value
** and returns its type (T_ERR on failure). */
rgi_type rgc_const_value(cstate *cs, rgi_pos use, sym *s, rgi_value *v);

/* ---- compile_emit.c: instructions, jumps, locals ---- */

/* A list of forward jumps whose target is not known yet: the instruction
** indexes (relative to the procedure) of JMP, JMPF or JMPT instructions
** emitted with operand 0, linked in the arena.  NULL is the empty list. */
typedef struct jumps {
  uint32_t at;
  rgi_pos pos;                    /* what emitted it (said when it spans too far) */
  struct jumps *next;
} jumps;

/* Appends instruction op A at cs->pos; returns its index relative to the
** procedure start. */
uint32_t rgc_emit(cstate *cs, rgi_opcode op, uint32_t a);
/* Emits code that pushes the value v (PUSHI, or CONST from K[]). */
void rgc_emit_value(cstate *cs, rgi_value v);
/* Turns the PUSHI k just emitted for number literal a into PUSHI -k;
** false when it cannot (the caller emits NEG). */
bool rgc_fold_neg(cstate *cs, const rgi_expr *a);
/* Adds a NOTE or SHAPE entry named text whose n values have the types
** types (copied, contiguously); returns its index. */
uint32_t rgc_note_entry(cstate *cs, const char *text, const rgi_type *types, uint32_t n);
/* Returns the index of the next instruction, relative to the procedure. */
uint32_t rgc_here(cstate *cs);
/* Points the jump at `at` to `target` (both relative to the procedure). */
void rgc_patch(cstate *cs, uint32_t at, uint32_t target);
/* Emits jump op back to target. */
void rgc_emit_back(cstate *cs, rgi_opcode op, uint32_t target);
/* Emits jump op with its target still to come, added to *list (the arena
** owns the list). */
void rgc_emit_jump(cstate *cs, rgi_opcode op, jumps **list);
/* Points every jump of list at target. */
void rgc_patch_list(cstate *cs, jumps *list, uint32_t target);
/* Emits op with operand[k] for the member k held in local slot (an enum of
** n members): a chain of compares (roll by value, an input by key). */
void rgc_emit_by_member(cstate *cs, uint32_t slot, uint32_t n, rgi_opcode op, const uint32_t *operand);
/* Returns the innermost local named name, or NULL. */
local *rgc_find_local(cstate *cs, const char *name);
/* Adds local name (not copied: the tree owns it) of type t to the current
** block; returns its slot.  A name starting with a space is hidden. */
uint32_t rgc_add_local(cstate *cs, rgi_pos pos, const char *name, rgi_type t);
/* Leaves a block: forgets its locals. */
void rgc_end_block(cstate *cs);
/* Forgets every local (a new procedure starts). */
void rgc_reset_locals(cstate *cs);
/* Marks local i (in scope) as a loop's variable, so that expectations name
** it (running out of memory unwinds through rgc_oom). */
void rgc_mark_loop(cstate *cs, uint32_t i);

/* ---- compile_expr.c: expressions ---- */

/* Compiles e so that it pushes one value; returns its type (T_ERR after
** reporting).  want is the type the context expects, or T_NONE. */
rgi_type rgc_expr(cstate *cs, rgi_expr *e, rgi_type want);
bool rgc_label(cstate *cs, rgi_expr *who, const char *what, rgi_pos pos);
/* Type-checks e against want without keeping its code or reporting its errors. */
rgi_type rgc_probe(cstate *cs, rgi_expr *e, rgi_type want);
/* Returns whether e takes its type from context (a bare member name, a
** quoted display name, an empty set or list, a record literal). */
bool rgc_needs_context(cstate *cs, rgi_expr *e);
/* Returns the length of a list of expressions. */
uint32_t rgc_count_list(rgi_expr *e);
/* Returns whether every expression of list e can be folded here. */
bool rgc_foldable(cstate *cs, rgi_expr *e);
/* Compiles boolean e as jumps added to *list, taken when its value is
** jump_when; returns its type (T_ERR after reporting). */
rgi_type rgc_cond(cstate *cs, rgi_expr *e, bool jump_when, jumps **list);

/* ---- compile_call.c: calls ---- */

/* name(args): a procedure, a builtin or a shape.  Pushes the result, if
** any; returns its type (T_NONE for none, T_ERR after reporting). */
rgi_type rgc_call(cstate *cs, rgi_expr *e, rgi_type want);
/* Compiles argument a expecting an int; false after reporting. */
bool rgc_int_arg(cstate *cs, rgi_expr *a);

/* ---- compile_stmt.c: statements ---- */

/* Compiles the statements from s on in a new scope; returns true when the
** block always returns. */
bool rgc_block(cstate *cs, rgi_stmt *s);

/* ---- compile_decl.c: declarations ---- */

/* Records the `assumed` notes of n for `regula check --assumptions`. */
void rgc_collect_notes(cstate *cs, rgi_note *n, const char *what);
/* Returns an arena string made with printf. */
const char *rgc_describe(cstate *cs, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;
/* compile.c: the names of the declaration kinds, indexed by rgi_dkind. */
extern const char *const rgc_kindname[];
/* The declarations, one function each (see compile.c for their order):
** each takes its declaration, fills the module's arrays and reports errors. */
void rgc_decl_unit(cstate *cs, rgi_decl *dc);
void rgc_decl_enum(cstate *cs, rgi_decl *dc);
void rgc_decl_record(cstate *cs, rgi_decl *dc);
void rgc_record_fields(cstate *cs, rgi_decl *dc);
void rgc_decl_table(cstate *cs, rgi_decl *dc);
void rgc_decl_proc(cstate *cs, rgi_decl *dc);
void rgc_decl_chance(cstate *cs, rgi_decl *dc);
void rgc_decl_input(cstate *cs, rgi_decl *dc);
void rgc_decl_test(cstate *cs, rgi_decl *dc);
/* strategy NAME { ... }: compiled after every procedure body. */
void rgc_decl_strategy(cstate *cs, rgi_decl *dc);
/* display RECORD "title" { ... }: after the records' fields. */
void rgc_decl_display(cstate *cs, rgi_decl *dc);
/* Compiles the body of procedure (or test) dc into procedure index. */
void rgc_proc_body(cstate *cs, rgi_decl *dc, uint32_t index);

/* tables.c: fills the cells of table declaration dc (inline or TSV, then
** the changes of rule sets that extend it). */
void rgc_table_cells(cstate *cs, rgi_decl *dc);

/* suggest.c: the closest name to a misspelt one, for "did you mean". */
typedef struct rgc_near {
  const char *word;              /* the name as written */
  const char *best;              /* the closest candidate offered, or NULL */
  uint32_t dist, limit;          /* its distance; the greatest suggested */
} rgc_near;
/* Starts a search for the name closest to word (which must outlive nr). */
void rgc_near_init(rgc_near *nr, const char *word);
/* Offers candidate cand (kept by pointer: it must outlive nr). */
void rgc_near_offer(rgc_near *nr, const char *cand);
/* Offers the declared names of the kinds in mask `kinds` (bit 1 << symkind),
** and when asked the member codes of every enum and the locals in scope. */
void rgc_near_names(cstate *cs, rgc_near *nr, unsigned kinds, bool members, bool locals);
/* Offers the member codes of enum en (and their display names when asked). */
void rgc_near_members(cstate *cs, rgc_near *nr, uint32_t en, bool displays);
/* Returns "; did you mean QxQ?" (an arena string; Q is quote) for the
** closest candidate, or "" when none is close enough. */
const char *rgc_near_hint(cstate *cs, const rgc_near *nr, const char *quote);
/* The hint (as rgc_near_hint) for word among: the declared names of the
** kinds in mask (and member codes, locals in scope, when asked); the
** members of enum en (codes, and display names when asked); the fields of
** record rec. */
const char *rgc_hint_name(cstate *cs, const char *word, unsigned kinds, bool members, bool locals);
const char *rgc_hint_member(cstate *cs, uint32_t en, const char *word, bool displays);
const char *rgc_hint_field(cstate *cs, uint32_t rec, const char *word);
#define RGC_KINDS_ALL 0xFFFFu
#define RGC_KIND(k) (1u << (k))

/* extends.c: parses the rule set in source file `file` (loaded) and, when
** it extends another, its chain of bases (from the loader), merged; chain
** holds the files that extend it (depth of them): each one's identity (its
** canonical path) and its path as shown.  NULL after reporting. */
#define MAX_EXTENDS 16
typedef struct rgc_link { const char *id, *shown; } rgc_link;
rgi_ast_file *rgc_load_rules(cstate *cs, uint32_t file, rgc_link *chain, int depth);

#endif
