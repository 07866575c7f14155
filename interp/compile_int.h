/*
** compile_int.h: the compiler's internals, shared by its three parts:
**
**   compile.c    symbols, types, constants, code for procedures, the driver
**   tables.c     table cells: flattening, overlap, coverage, TSV import
**   extends.c    a rule set built on another: merging, override, remove
**
** Nothing outside the compiler includes this file (compile.h is the API).
** Functions shared between the parts carry the prefix rgc_.
*/
#ifndef RG_COMPILE_INT_H
#define RG_COMPILE_INT_H

#include "compile.h"
#include "alloc.h"
#include "parse.h"

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
#define T_NONE ((rg_type){ RG_K_VOID, 0 })
#define T_ERR  ((rg_type){ K_ERR, 0 })
#define T_INT  ((rg_type){ RG_K_INT, 0 })
#define T_BOOL ((rg_type){ RG_K_BOOL, 0 })
#define T_TEXT ((rg_type){ RG_K_TEXT, 0 })

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

typedef enum symkind { S_UNIT, S_ENUM, S_RECORD, S_CONST, S_TABLE, S_PROC, S_DICE, S_DECK,
                       S_INPUT } symkind;

/* A declared name.  index is the module index of the unit/enum/record/
** table/proc; a constant keeps its folded value. */
typedef struct sym {
  const char *name;
  symkind kind;
  rg_decl *decl;
  uint32_t index;
  rg_type type;                  /* CONST: its type */
  rg_value value;                /* CONST: its value */
  int state;                     /* CONST: 0 new, 1 folding, 2 done, 3 failed */
  struct sym *next;              /* hash chain */
} sym;

/* A member code, for finding bare member names: which enums have it. */
typedef struct memref {
  const char *code;
  uint32_t en, index;
  struct memref *next;
} memref;

/* A local variable of the procedure being compiled. */
typedef struct local {
  const char *name;
  uint32_t slot;
  rg_type type;
  int depth;
} local;

#define NBUCKETS 1024

/* The compiler state. */
typedef struct cstate {
  rg_diag *d;
  rg_arena *A;
  const rg_loader *loader;       /* where `extends` and `from` files come from */

  jmp_buf oom_jmp;               /* where running out of memory unwinds to */
  int quiet;                     /* >0: probing; errors are not reported */
  int quiet_errors;              /* errors seen while quiet */
  rg_assumption *assumed, **assumed_tail;

  sym *syms[NBUCKETS];
  memref *memhash[NBUCKETS];

  /* module under construction */
  char *pool; uint32_t npool, cappool;
  struct strent { uint32_t off; struct strent *next; } *strhash[NBUCKETS];
#define RG_X(field, count, type) vec field;
  RG_MODULE_ARRAYS(RG_X)
#undef RG_X
  rg_value name_v, revision_v, source_v;

  /* the procedure being compiled */
  local *locals; uint32_t nlocal, caplocal;
  uint32_t nslots;
  int depth;
  rg_type result;
  uint32_t proc_start;
  rg_pos pos;                    /* position of the code being emitted */
  bool in_test;                  /* compiling a test block */
  int64_t scale_num, scale_den;  /* scale of starred distances (1/1 by default) */
  int scale_round;               /* 1 up, -1 down, 2 nearest, 0 none */
} cstate;

/* ---- shared between the parts (defined in compile.c unless said) ---- */

/* Reports an error at pos unless probing (cs->quiet). */
void rgc_err(cstate *cs, rg_pos pos, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;
/* Out of memory: unwinds the whole compile to rg_compile. */
_Noreturn void rgc_oom(cstate *cs);
/* Appends a zeroed item to v, or unwinds. */
void *rgc_push(cstate *cs, vec *v);
/* Arena allocation and copies that unwind on failure. */
void *rgc_alloc(cstate *cs, size_t n);
char *rgc_strndup(cstate *cs, const char *s, size_t n);
char *rgc_strdup(cstate *cs, const char *s);
/* Returns the symbol named name, or NULL. */
sym *rgc_lookup(cstate *cs, const char *name);
/* Returns the string pool offset of s, adding it once. */
uint32_t rgc_intern(cstate *cs, const char *s);
/* Returns whether type k is the error type. */
static inline bool rgc_is_err(rg_type t) { return t.kind == K_ERR; }
/* Writes a readable name of t into buf; returns buf. */
const char *rgc_tname(cstate *cs, rg_type t, char *buf, size_t size);
/* Reports "WHAT must be W, not G" when got does not fit want. */
bool rgc_check_type(cstate *cs, rg_pos pos, rg_type got, rg_type want, const char *what);
/* Members of enum en: by exact code, by code or display name ignoring case
** (-1 when absent), and the list of codes for messages. */
int rgc_member_by_code(cstate *cs, uint32_t en, const char *code);
int rgc_member_by_text(cstate *cs, uint32_t en, const char *text);
const char *rgc_member_list(cstate *cs, uint32_t en, char *buf, size_t size);
/* Folds constant expression e in the context of want; T_ERR after reporting. */
rg_type rgc_fold(cstate *cs, rg_expr *e, rg_type want, rg_value *v);
/* Appends a record's field values to the constant heap; returns its offset. */
rg_value rgc_heap_record(cstate *cs, const rg_value *vals, uint32_t n);
/* Records the `assumed` notes of n for `regula check --assumptions`. */
void rgc_collect_notes(cstate *cs, rg_note *n, const char *what);
/* Returns an arena string made with printf. */
const char *rgc_describe(cstate *cs, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;
/* The names of the declaration kinds, indexed by rg_dkind. */
extern const char *const rgc_kindname[];

/* tables.c: fills the cells of table declaration dc (inline or TSV, then
** the changes of rule sets that extend it). */
void rgc_table_cells(cstate *cs, rg_decl *dc);

/* extends.c: parses the rule set in source file `file` (loaded) and, when
** it extends another, its chain of bases (from the loader), merged; chain
** holds the paths of the files that extend it (depth of them).  NULL after
** reporting. */
#define MAX_EXTENDS 16
rg_ast_file *rgc_load_rules(cstate *cs, uint32_t file, const char **chain, int depth);

#endif
