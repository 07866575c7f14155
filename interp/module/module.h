/*
** module.h: a compiled rule set, in memory and on disk.
**
** A module is a set of flat arrays that refer to each other by index.  The
** compiler fills them; rgi_module_save writes them to a .rbc file section by
** section, little-endian; rgi_module_load reads them back and
** rgi_module_verify checks every index and every procedure's code before the
** VM may run it.  The VM trusts a verified module for everything static and
** checks only what depends on run-time values (table keys, heap offsets,
** set members, arithmetic).
**
** Values are 64-bit integers; what they mean comes from their static type:
**
**   int       the integer
**   bool      0 or 1
**   percent   whole percent (40% is 40)
**   text      an offset into the string pool
**   distance  thousandths of the type's unit (6 BW is 6000)
**   enum      the member's index, 0-based in declaration order
**   set       a mask of member indexes (bit i is member i; at most 64)
**   record    an offset into the heap H[]; field k is at H[offset + k]
**   list      an offset into the heap: H[offset] is the length n, the
**             elements follow at H[offset + 1 .. offset + n]; lists are
**             never changed in place (list operations build new ones)
**
** All strings are offsets into one pool of NUL-terminated strings; offset 0
** is always the empty string.
*/
#ifndef RG_MODULE_H
#define RG_MODULE_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "ast.h"
#include "regula_front.h"

typedef int64_t rgi_value;

/* A provenance note of the rule set (`assumed`), for `regula check
** --assumptions`, the sheet and a run's placeholders: made by the compiler,
** kept beside the module it annotates. */
typedef struct rgi_assumption {
  rgi_pos pos;
  const char *what;         /* what it annotates: "enum colour", "table weather [3, S]" */
  const char *text;
  uint32_t table;           /* a note on cells of a TSV table: the table's index + 1; else 0 */
  uint32_t lo[8], hi[8];    /* those cells: key k runs from index lo[k] to hi[k] */
  struct rgi_assumption *next;
} rgi_assumption;

/* A run's values as those that only read them see them (the log, the
** pictures): the heap as it is now, its size in *n, and the cards left in
** deck `deck` (their count in *n), through functions of the run's, so that
** a reader needs no VM.  heap NULL: no run yet (the module's own heap). */
typedef struct rgi_view {
  const rgi_value *(*heap)(const void *ctx, uint32_t *n);
  const rgi_value *(*deck_left)(const void *ctx, uint32_t deck, uint32_t *n);
  const void *ctx;
} rgi_view;

#define RG_MODULE_MAGIC   "RGLA"
#define RG_MODULE_VERSION 8u   /* 4: rgi_choice.flags (secret choices); 5: strategies,
                                ** displays; 6: rgi_cellsrc.merged; 7: the loop variables of
                                ** expectations; 8: rgi_strategy.flags (the default) */

/* Deepest nesting of list types (list of list of ... T): the verifier
** refuses more, so the compiler reports it where the type is written. */
#define RG_MAX_LIST_NEST 8u

/* The kinds of static types. */
typedef enum rgi_kind {
  RG_K_VOID,      /* no value (procedures without a result) */
  RG_K_INT, RG_K_BOOL, RG_K_PERCENT, RG_K_TEXT,
  RG_K_DIST,      /* ref: unit index */
  RG_K_ENUM,      /* ref: enum index */
  RG_K_SET,       /* ref: enum index of the members */
  RG_K_RECORD,    /* ref: record index */
  RG_K_LIST,      /* ref: index into types[] of the element type */
  RG_NKINDS
} rgi_kind;

typedef struct rgi_type {
  uint32_t kind;            /* rgi_kind */
  uint32_t ref;             /* see rgi_kind; 0 when unused */
} rgi_type;

typedef struct rgi_unit {
  uint32_t name;            /* string: the symbol written after numbers, "BW" */
  uint32_t display;         /* string: "base width", or 0 */
} rgi_unit;

typedef struct rgi_enum {
  uint32_t name;            /* string */
  uint32_t first;           /* index of the first member in members[] */
  uint32_t count;           /* members, 1..64 */
  uint32_t ordered;         /* 1 when declared with < */
} rgi_enum;

typedef struct rgi_member_info {
  uint32_t code;            /* string: the code, "S" */
  uint32_t display;         /* string: the display name, "Standard", or 0 */
} rgi_member_info;

typedef struct rgi_record {
  uint32_t name;            /* string */
  uint32_t first;           /* index of the first field in fields[] */
  uint32_t count;           /* fields, >= 1 */
  uint32_t shown;           /* string: how people see a value ("{card} {pass}": a
                            ** field's value in braces, a bool field's name when
                            ** true), or 0 for {field: value, ...} (version 4) */
} rgi_record;

typedef struct rgi_field_info {
  uint32_t name;            /* string */
  rgi_type type;
} rgi_field_info;

/* One key dimension of a table: an enum (lo = 0, size = its member count)
** or an integer range lo..lo+size-1. */
typedef struct rgi_dim {
  uint32_t label;           /* string: the key's name, or 0 */
  uint32_t is_enum;         /* 1: enum dimension; 0: integer range */
  uint32_t ref;             /* enum index when is_enum */
  int64_t lo;               /* first key (0 for enums) */
  uint32_t size;            /* number of keys, >= 1 */
} rgi_dim;

/* A table flattened to an array: the cell for keys k1..kn is
** cells[first + sum((ki - lo_i) * stride_i)], row-major, last key fastest. */
typedef struct rgi_table {
  uint32_t name;            /* string */
  uint32_t first_dim;       /* index of the first dimension in dims[] */
  uint32_t ndims;           /* 1..8 */
  rgi_type value;            /* type of every cell */
  uint32_t first;           /* index of the first cell in cells[] */
  uint32_t count;           /* cells: the product of the dimension sizes */
} rgi_table;

/* A procedure (a test block compiles to one with no parameters). */
typedef struct rgi_proc {
  uint32_t name;            /* string */
  uint32_t nparams;         /* parameters are the first locals */
  uint32_t first_param;     /* index of the first parameter in params[] */
  uint32_t nlocals;         /* >= nparams */
  rgi_type result;           /* RG_K_VOID for none */
  uint32_t code;            /* index of the first instruction in code[] */
  uint32_t ncode;           /* instructions, >= 1 */
  uint32_t max_stack;       /* deepest operand stack; the verifier computes it */
} rgi_proc;

typedef struct rgi_param_info {
  uint32_t name;            /* string */
  rgi_type type;
} rgi_param_info;

/* A note: its text, and the types of the values it prints after it. */
typedef struct rgi_note_info {
  uint32_t text;            /* string */
  uint32_t first_type;      /* index into types[] */
  uint32_t nvals;
} rgi_note_info;

/* An expectation of a test: EXPECT compares with true; EXPECTEQ compares two
** values of `type`.  text is the expression as written, for messages; a
** failure names the values of the loop variables around the expectation,
** evars[first_var .. first_var + nvars), outermost first. */
typedef struct rgi_expect {
  uint32_t text;            /* string */
  rgi_type type;
  uint32_t first_var;       /* index into evars[] */
  uint32_t nvars;
} rgi_expect;

/* A loop variable in scope at an expectation: its name, the local slot of
** the procedure that holds it, and its type. */
typedef struct rgi_expect_var {
  uint32_t name;            /* string */
  uint32_t slot;            /* < the procedure's nlocals */
  rgi_type type;
} rgi_expect_var;

typedef struct rgi_test {
  uint32_t name;            /* string: the test's title */
  uint32_t proc;            /* the procedure that runs it */
} rgi_test;

/* A die with custom faces: rolling it gives faces[first + k] for a uniform
** k in 0..count-1.  (Plain dice, d6 or 2d6, need no declaration.) */
typedef struct rgi_dice {
  uint32_t name;            /* string */
  rgi_type face;             /* type of every face (not a list) */
  uint32_t first;           /* index of the first face in faces[] */
  uint32_t count;           /* faces, >= 1 */
} rgi_dice;

/* A deck (a bag of cards or discs) drawn without replacement: every run
** starts with all of cards[first .. first + count - 1] in it. */
typedef struct rgi_deck {
  uint32_t name;            /* string */
  rgi_type card;             /* type of every card (not a record or list) */
  uint32_t first;           /* index of the first card in cards[] */
  uint32_t count;           /* cards when full, >= 1 */
  uint32_t flags;           /* RG_DECK_SECRET (since version 4) */
} rgi_deck;

/* rgi_deck.flags: whoever draws a card keeps it to himself: the text log
** says "a card", a person reading real cards answers unseen. */
#define RG_DECK_SECRET 1u

/* A choice site: `choose(chooser, "prompt", options)`.  The options are a
** set (the members of option.ref's enum that are in it), a list (its
** elements), or an int range lo..hi pushed as two ints. */
typedef enum rgi_optkind { RG_OPT_SET, RG_OPT_LIST, RG_OPT_RANGE } rgi_optkind;

typedef struct rgi_choice {
  uint32_t prompt;          /* string */
  rgi_type chooser;          /* type of the chooser value (printed for people) */
  rgi_type option;           /* type of one option, which is the result */
  uint32_t kind;            /* rgi_optkind */
  uint32_t flags;           /* RG_CHOICE_SECRET (since version 4) */
} rgi_choice;

/* rgi_choice.flags: the choice is secret (`choose secret(...)`): the players
** make it without seeing each other's answers. */
#define RG_CHOICE_SECRET 1u

/* A strategy: how a player answers choices, written in the rule file
** (`strategy bold "..." { "attack or hold?": "attack" ... }`).
** Its picks are picks[first .. first + count), grouped into rules. */
typedef struct rgi_strategy {
  uint32_t name, doc;       /* strings (doc "" when none) */
  uint32_t first, count;
  uint32_t flags;           /* RG_STRATEGY_DEFAULT (since version 6) */
} rgi_strategy;

/* rgi_strategy.flags: the rules' default strategy (`default strategy NAME
** {...}`), which answers sim, odds and runs without people when no policy
** is asked for.  At most one strategy of a module has it. */
#define RG_STRATEGY_DEFAULT 1u

/* What a pick takes among the options offered. */
typedef enum rgi_pickkind {
  RG_PICK_VALUE,            /* the option equal to value, when offered */
  RG_PICK_MAX,              /* the greatest option (by field, when not 0) */
  RG_PICK_MIN,              /* the least */
  RG_PICK_FIRST,            /* the first option */
  RG_PICK_RANDOM            /* one at random, as the random policy would */
} rgi_pickkind;

/* One pick of a strategy.  Consecutive picks with the same rule number are
** one rule: it answers the choices whose prompt is `prompt` (asked of
** `who` only, when who_set), taking the first of its picks that finds an
** option; the first rule of a strategy that applies to a choice answers
** it.  A strategy's picks are sorted by prompt (rules of one prompt in
** their written order), so a choice finds its rules by binary search. */
typedef struct rgi_pick {
  uint32_t prompt;          /* string */
  uint32_t rule;            /* the rule's number in its strategy, from 0 */
  uint32_t who_set;         /* 1: the rule applies to chooser `who` only */
  uint32_t kind;            /* rgi_pickkind */
  uint32_t field;           /* MAX, MIN of a record option: field index + 1; else 0 */
  rgi_value who;             /* of the choices' chooser type */
  rgi_value value;           /* VALUE: of the choices' option type (not a record or list) */
} rgi_pick;

/* A display: how people see a record (a procedure's result) as a card,
** `display pre_battle_summary "Result card" { ... }`.  Its lines are
** dlines[first .. first + count). */
typedef struct rgi_display {
  uint32_t record;          /* the record it shows (records[]) */
  uint32_t title;           /* string */
  uint32_t first, count;
} rgi_display;

/* What a line of a display is. */
typedef enum rgi_dlkind {
  RG_DL_FORM,               /* text: a form, as a record's shown form */
  RG_DL_TABLE,              /* field: a list of records, one row each; its
                            ** columns: fields dcols[first .. first + count)
                            ** of the element record */
  RG_DL_LIST                /* field: a list, one numbered line an element
                            ** (records by the form text, when not 0) */
} rgi_dlkind;

typedef struct rgi_dline {
  uint32_t kind;            /* rgi_dlkind */
  uint32_t text;            /* FORM, LIST: string (LIST: 0, or a form for
                            ** the elements, records) */
  uint32_t field;           /* TABLE, LIST: index among the record's fields */
  uint32_t first, count;    /* TABLE: its columns in dcols[] */
} rgi_dline;

/* An input: a named value with a default that a run may override from the
** command line (an army's commander rating, its number of cards). */
typedef struct rgi_input {
  uint32_t name;            /* string */
  rgi_type type;             /* not a record or list */
  rgi_value value;           /* the default */
} rgi_input;

/* A named constant, kept for people (diff, sheet): the compiled code uses
** its value directly. */
typedef struct rgi_named {
  uint32_t name;            /* string */
  rgi_type type;             /* not a list */
  rgi_value value;
  uint32_t file, line;      /* where it is declared (or last overridden) */
  uint32_t starred;         /* 1: a distance written with * (scaled) */
} rgi_named;

/* Where a table cell was given: the cell of an inline table, the TSV cell,
** or the override that changed it.  One per cell, parallel to cells[].
** merged is 1 when the cell continues the one before it along the table's
** row key (the second-to-last key; a one-key table's key): the same range
** or `_` of the rule file gave both, or the TSV wrote `^` (a vertically
** merged cell of the sheet); 0 for a cell given on its own (an `else` cell
** too).  `regula sheet` prints `|` only for merged cells. */
typedef struct rgi_cellsrc {
  uint32_t file, line;
  uint32_t merged;          /* 0 or 1 (version 6) */
} rgi_cellsrc;

/* Where an instruction came from. */
typedef struct rgi_line {
  uint32_t file;            /* index into files[] */
  uint32_t line;
  uint32_t col;             /* display column */
} rgi_line;

/* The arrays of a module after its string pool, one X(field, count, type)
** each: `type *field` with `count` elements.  This list is the one place
** that names them: it declares them in rgi_module, frees them, lays out the
** sections of a .rbc (the pool is section 2, the array in position k of this
** list section 3 + k, so new arrays go at the end), and declares, grows and
** hands over the compiler's copies (compile_int.h). */
#define RG_MODULE_ARRAYS(X) \
  X(files, nfiles, uint32_t)            /* strings: source file paths */ \
  X(units, nunits, rgi_unit) \
  X(enums, nenums, rgi_enum) \
  X(members, nmembers, rgi_member_info) \
  X(records, nrecords, rgi_record) \
  X(fields, nfields, rgi_field_info) \
  X(consts, nconsts, rgi_value)          /* K[] */ \
  X(heap, nheap, rgi_value)              /* H[]: constant records and lists */ \
  X(tables, ntables, rgi_table) \
  X(dims, ndims, rgi_dim) \
  X(cells, ncells, rgi_value)            /* every table's cells */ \
  X(procs, nprocs, rgi_proc) \
  X(params, nparams, rgi_param_info) \
  X(types, ntypes, rgi_type)             /* value types of notes, list elements */ \
  X(notes, nnotes, rgi_note_info) \
  X(expects, nexpects, rgi_expect) \
  X(tests, ntests, rgi_test) \
  X(code, ncode, uint32_t) \
  X(lines, nlines, rgi_line)             /* one per instruction: nlines == ncode */ \
  X(dice, ndice, rgi_dice)               /* since version 2 */ \
  X(faces, nfaces, rgi_value) \
  X(decks, ndecks, rgi_deck) \
  X(cards, ncards, rgi_value) \
  X(choices, nchoices, rgi_choice) \
  X(inputs, ninputs, rgi_input) \
  X(named, nnamed, rgi_named)            /* since version 3: constants by name */ \
  X(cellsrc, ncellsrc, rgi_cellsrc)      /* == ncells */ \
  X(strategies, nstrategies, rgi_strategy) /* since version 5 */ \
  X(picks, npicks, rgi_pick) \
  X(displays, ndisplays, rgi_display) \
  X(dlines, ndlines, rgi_dline) \
  X(dcols, ndcols, uint32_t)            /* field indexes of displays' tables */ \
  X(evars, nevars, rgi_expect_var)       /* since version 6: loop variables of expectations */

/* A module.  Every array is owned by the module (one rg_malloc each) and
** freed by rgi_module_free. */
typedef struct rgi_module {
  uint32_t name, revision, source;     /* strings: the ruleset header */
  char *strings;   uint32_t nstrings;  /* the pool, nstrings bytes */
#define RG_X(field, count, type) type *field; uint32_t count;
  RG_MODULE_ARRAYS(RG_X)
#undef RG_X
} rgi_module;

/* The module of compiled rules r (owned by r): for the library's own
** renderers behind the public API (api.c). */
const rgi_module *rgi_rules_module(const rg_rules *r);

/* Frees every array of m and zeroes it; m itself is the caller's. */
void rgi_module_free(rgi_module *m);

/* Returns the string at offset s of the pool ("" when out of range). */
const char *rgi_module_str(const rgi_module *m, uint32_t s);

/* Returns 1 when procedure p of m is the body of a `test` block, else 0
** (the tests' procedures are the last m->ntests ones, in order: the
** compiler makes them so and the verifier checks it). */
int rgi_module_is_test(const rgi_module *m, uint32_t p);

/* Finds a procedure / table / enum by name; returns its index or -1. */
int rgi_module_find_proc(const rgi_module *m, const char *name);
int rgi_module_find_table(const rgi_module *m, const char *name);
int rgi_module_find_enum(const rgi_module *m, const char *name);
int rgi_module_find_strategy(const rgi_module *m, const char *name);

/* rg_file_save of regula_front.h, the message in err[0..errlen): returns 0,
** or -1 ("out of memory" when memory ran out). */
int rgi_file_save(const char *path, const void *data, size_t len, int mode, char *err,
                  size_t errlen);

/* Writes m to path as a .rbc file, through a temporary file renamed into
** place, so a failure never leaves a partial file.  Returns 0, or -1 with a
** message in err (size errlen). */
int rgi_module_save(const rgi_module *m, const char *path, char *err, size_t errlen);

/* The size on disk of one element of section id (the header section: 12),
** or 0 for an unknown id; for tools that edit a module's bytes (the fuzzer's
** mutator). */
size_t rgi_module_section_elem(uint32_t id);

/* Serializes m into a malloc'd buffer; returns 0 with *buf and *len set, or
** -1 when out of memory.  The caller frees *buf with rg_free. */
int rgi_module_serialize(const rgi_module *m, unsigned char **buf, size_t *len);

/* Reads a module from buf[0..len) into m and verifies it.  Returns RG_OK, or
** RG_BAD_MODULE (RG_NOMEM when memory ran out) with m freed and a message
** naming the failed check in err, e.g.
** "bad magic", "section 3 out of bounds", "procedure 2: jump at 14 into the
** middle of nowhere".  Never reads outside buf. */
rg_status rgi_module_deserialize(rgi_module *m, const unsigned char *buf, size_t len,
                                char *err, size_t errlen);

/* Loads and verifies a .rbc file.  Same result as rgi_module_deserialize, or
** RG_IO when the file cannot be read. */
rg_status rgi_module_load(rgi_module *m, const char *path, char *err, size_t errlen);

/* Checks every cross-reference of m and the code of every procedure:
** opcodes, operand bounds, jump targets inside the procedure, stack heights
** equal where paths meet and never below zero, no fall-through off the end,
** and computes each procedure's max_stack.  Returns RG_OK, or RG_BAD_MODULE
** (RG_NOMEM when memory ran out) with a message.  The compiler runs it too,
** as a check on itself. */
rg_status rgi_module_verify(rgi_module *m, char *err, size_t errlen);

/* Returns 1 when path names a compiled module (ends in .rbc or starts with
** the magic), else 0. */
int rgi_module_is_rbc(const char *path);

/* Stack effect of instruction ins in m: sets *pops and *pushes.  Returns 0,
** or -1 when an operand is out of range. */
int rgi_op_effect(const rgi_module *m, uint32_t ins, int *pops, int *pushes);

/* Opcode names, and what each opcode's operand A is (rgi_operand), indexed
** by opcode: the one expansion of opcodes.h's list that the verifier, the
** disassembler and the VM's translator share. */
extern const char *const rgi_opnames[];
extern const unsigned char rgi_op_operand[];

/* Writes a disassembly of every procedure of m to out:
**     procedure NAME(params) -> type   ; nlocals N, stack S
**     addr [line] OPNAME operands ; comment
*/
void rgi_module_dis(const rgi_module *m, rg_out *out);

#endif
