/*
** modbuild.h: a tiny module builder for the back end's unit tests.
**
** Builds an rgi_module by hand, array by array, the way the compiler would:
**
**     mb b; mb_init(&b);
**     uint32_t f = mb_proc(&b, "f", T_INT, 1, (const char *[]){"a"}, (rgi_type[]){T_INT}, 2);
**     mb_emit(&b, RG_OP_LOAD, 0); mb_emit(&b, RG_OP_RET, 0);
**     rgi_module_verify(&b.m, err, sizeof err);
**
** Every array is grown with rg_realloc, so rgi_module_free frees the result.
** Header-only (static inline) so each test program stays one .c file.
*/
#ifndef RG_MODBUILD_H
#define RG_MODBUILD_H

#include <stdlib.h>
#include <string.h>

#include "regula_front.h"
#include "module.h"
#include "opcodes.h"

static const rgi_type T_VOID = {RG_K_VOID, 0};
static const rgi_type T_INT = {RG_K_INT, 0};
static const rgi_type T_BOOL = {RG_K_BOOL, 0};
static const rgi_type T_TEXT = {RG_K_TEXT, 0};

typedef struct mb {
  rgi_module m;
  uint32_t proc;            /* the procedure being emitted */
  uint32_t line;            /* source line given to emitted instructions */
} mb;

/* Returns p grown to n + 1 elements of size sz; aborts when out of memory. */
static inline void *mb_grow(void *p, uint32_t n, size_t sz) {
  void *q = rg_realloc(p, ((size_t)n + 1) * sz);
  if (!q) abort();
  return q;
}

/* Appends one zeroed element to arr (count n) and returns a pointer to it. */
#define MB_PUSH(arr, n) \
  ((arr) = mb_grow((arr), (n), sizeof *(arr)), memset(&(arr)[(n)], 0, sizeof *(arr)), &(arr)[(n)++])

/* Interns string s in the pool and returns its offset. */
static inline uint32_t mb_str(mb *b, const char *s) {
  rgi_module *m = &b->m;
  for (uint32_t o = 0; o < m->nstrings; o += (uint32_t)strlen(m->strings + o) + 1)
    if (strcmp(m->strings + o, s) == 0) return o;
  size_t n = strlen(s) + 1;
  m->strings = rg_realloc(m->strings, m->nstrings + n);
  if (!m->strings) abort();
  memcpy(m->strings + m->nstrings, s, n);
  m->nstrings += (uint32_t)n;
  return m->nstrings - (uint32_t)n;
}

/* Starts an empty module with the pool's "" and one source file. */
static inline void mb_init(mb *b) {
  memset(b, 0, sizeof *b);
  b->m.strings = rg_malloc(1);
  if (!b->m.strings) abort();
  b->m.strings[0] = '\0';
  b->m.nstrings = 1;
  b->m.name = mb_str(b, "test rules");
  *MB_PUSH(b->m.files, b->m.nfiles) = mb_str(b, "test.rules");
  b->line = 1;
}

/* Adds unit name; returns its index. */
static inline uint32_t mb_unit(mb *b, const char *name) {
  rgi_unit *u = MB_PUSH(b->m.units, b->m.nunits);
  u->name = mb_str(b, name);
  return b->m.nunits - 1;
}

/* Adds enum name with members codes[0..n); returns its index. */
static inline uint32_t mb_enum(mb *b, const char *name, uint32_t n, const char *const *codes) {
  rgi_enum e = {mb_str(b, name), b->m.nmembers, n, 0};
  for (uint32_t i = 0; i < n; i++) MB_PUSH(b->m.members, b->m.nmembers)->code = mb_str(b, codes[i]);
  *MB_PUSH(b->m.enums, b->m.nenums) = e;
  return b->m.nenums - 1;
}

/* Adds record name with fields names[i]: types[i]; returns its index. */
static inline uint32_t mb_record(mb *b, const char *name, uint32_t n, const char *const *names,
                                 const rgi_type *types) {
  rgi_record r = {mb_str(b, name), b->m.nfields, n, 0};
  for (uint32_t i = 0; i < n; i++) {
    rgi_field_info *f = MB_PUSH(b->m.fields, b->m.nfields);
    f->name = mb_str(b, names[i]);
    f->type = types[i];
  }
  *MB_PUSH(b->m.records, b->m.nrecords) = r;
  return b->m.nrecords - 1;
}

/* Adds constant v to K[]; returns its index. */
static inline uint32_t mb_const(mb *b, rgi_value v) {
  *MB_PUSH(b->m.consts, b->m.nconsts) = v;
  return b->m.nconsts - 1;
}

/* Appends vals[0..n) to the constant heap; returns the offset of the first. */
static inline uint32_t mb_heap(mb *b, uint32_t n, const rgi_value *vals) {
  uint32_t at = b->m.nheap;
  for (uint32_t i = 0; i < n; i++) *MB_PUSH(b->m.heap, b->m.nheap) = vals[i];
  return at;
}

/* An enum dimension over enum e. */
static inline rgi_dim mb_dim_enum(mb *b, uint32_t e) {
  rgi_dim d = {0, 1, e, 0, b->m.enums[e].count};
  return d;
}

/* An integer range dimension lo..lo+size-1. */
static inline rgi_dim mb_dim_range(int64_t lo, uint32_t size) {
  rgi_dim d = {0, 0, 0, lo, size};
  return d;
}

/* Adds table name with dims[0..ndims) and cells (row-major, the product of
** the sizes of them) of type vt; returns its index. */
static inline uint32_t mb_table(mb *b, const char *name, uint32_t ndims, const rgi_dim *dims,
                                rgi_type vt, const rgi_value *cells) {
  rgi_table t = {mb_str(b, name), b->m.ndims, ndims, vt, b->m.ncells, 1};
  for (uint32_t i = 0; i < ndims; i++) {
    *MB_PUSH(b->m.dims, b->m.ndims) = dims[i];
    t.count *= dims[i].size;
  }
  for (uint32_t i = 0; i < t.count; i++) *MB_PUSH(b->m.cells, b->m.ncells) = cells[i];
  *MB_PUSH(b->m.tables, b->m.ntables) = t;
  return b->m.ntables - 1;
}

/* Starts procedure name(pnames[i]: ptypes[i]) -> result with nlocals locals;
** following mb_emit calls add to its code.  Returns its index. */
static inline uint32_t mb_proc(mb *b, const char *name, rgi_type result, uint32_t nparams,
                               const char *const *pnames, const rgi_type *ptypes, uint32_t nlocals) {
  rgi_proc p = {mb_str(b, name), nparams, b->m.nparams, nlocals, result, b->m.ncode, 0, 0};
  for (uint32_t i = 0; i < nparams; i++) {
    rgi_param_info *pi = MB_PUSH(b->m.params, b->m.nparams);
    pi->name = mb_str(b, pnames[i]);
    pi->type = ptypes[i];
  }
  *MB_PUSH(b->m.procs, b->m.nprocs) = p;
  b->proc = b->m.nprocs - 1;
  return b->proc;
}

/* Address of the next instruction, relative to the current procedure. */
static inline int32_t mb_here(mb *b) {
  return (int32_t)b->m.procs[b->proc].ncode;
}

/* Emits op with operand a (signed for PUSHI and jump offsets) in the current
** procedure, on line b->line; returns its relative address. */
static inline int32_t mb_emit(mb *b, unsigned op, int32_t a) {
  int32_t at = mb_here(b);
  *MB_PUSH(b->m.code, b->m.ncode) = RG_INS(op, (uint32_t)a & RG_A_MAX);
  rgi_line *l = MB_PUSH(b->m.lines, b->m.nlines);
  l->line = b->line;
  l->col = 1;
  b->m.procs[b->proc].ncode++;
  return at;
}

/* Emits a jump op to relative address target (which may come later: patch
** it with mb_patch). */
static inline int32_t mb_jump(mb *b, unsigned op, int32_t target) {
  return mb_emit(b, op, target - (mb_here(b) + 1));
}

/* Points the jump at relative address at to relative address target. */
static inline void mb_patch(mb *b, int32_t at, int32_t target) {
  uint32_t *ins = &b->m.code[b->m.procs[b->proc].code + (uint32_t)at];
  *ins = RG_INS(RG_INS_OP(*ins), (uint32_t)(target - (at + 1)) & RG_A_MAX);
}

/* Adds a note with text and the value types types[0..n); returns its index. */
static inline uint32_t mb_note(mb *b, const char *text, uint32_t n, const rgi_type *types) {
  rgi_note_info no = {mb_str(b, text), b->m.ntypes, n};
  for (uint32_t i = 0; i < n; i++) *MB_PUSH(b->m.types, b->m.ntypes) = types[i];
  *MB_PUSH(b->m.notes, b->m.nnotes) = no;
  return b->m.nnotes - 1;
}

/* Adds an expectation with text comparing values of type t; returns its index. */
static inline uint32_t mb_expect(mb *b, const char *text, rgi_type t) {
  rgi_expect *e = MB_PUSH(b->m.expects, b->m.nexpects);
  e->text = mb_str(b, text);
  e->type = t;
  return b->m.nexpects - 1;
}

/* Adds test name run by procedure proc; returns its index. */
static inline uint32_t mb_test(mb *b, const char *name, uint32_t proc) {
  rgi_test *t = MB_PUSH(b->m.tests, b->m.ntests);
  t->name = mb_str(b, name);
  t->proc = proc;
  return b->m.ntests - 1;
}

/* Adds type t to types[] (a list's element type); returns its index. */
static inline uint32_t mb_type(mb *b, rgi_type t) {
  *MB_PUSH(b->m.types, b->m.ntypes) = t;
  return b->m.ntypes - 1;
}

/* The type `list of elem` (elem is added to types[]). */
static inline rgi_type mb_list_of(mb *b, rgi_type elem) {
  rgi_type t = {RG_K_LIST, mb_type(b, elem)};
  return t;
}

/* Adds die name with faces[0..n) of type t; returns its index. */
static inline uint32_t mb_dice(mb *b, const char *name, rgi_type t, uint32_t n, const rgi_value *faces) {
  rgi_dice d = {mb_str(b, name), t, b->m.nfaces, n};
  for (uint32_t i = 0; i < n; i++) *MB_PUSH(b->m.faces, b->m.nfaces) = faces[i];
  *MB_PUSH(b->m.dice, b->m.ndice) = d;
  return b->m.ndice - 1;
}

/* Adds deck name with cards[0..n) of type t; returns its index. */
static inline uint32_t mb_deck(mb *b, const char *name, rgi_type t, uint32_t n, const rgi_value *cards) {
  rgi_deck d = {mb_str(b, name), t, b->m.ncards, n, 0};
  for (uint32_t i = 0; i < n; i++) *MB_PUSH(b->m.cards, b->m.ncards) = cards[i];
  *MB_PUSH(b->m.decks, b->m.ndecks) = d;
  return b->m.ndecks - 1;
}

/* Adds choice site prompt (options of kind kind, each of type option);
** returns its index. */
static inline uint32_t mb_choice(mb *b, const char *prompt, rgi_type chooser, rgi_type option,
                                 rgi_optkind kind) {
  rgi_choice *c = MB_PUSH(b->m.choices, b->m.nchoices);
  c->prompt = mb_str(b, prompt);
  c->chooser = chooser;
  c->option = option;
  c->kind = kind;
  return b->m.nchoices - 1;
}

/* Adds input name of type t with default v; returns its index. */
static inline uint32_t mb_input(mb *b, const char *name, rgi_type t, rgi_value v) {
  rgi_input *in = MB_PUSH(b->m.inputs, b->m.ninputs);
  in->name = mb_str(b, name);
  in->type = t;
  in->value = v;
  return b->m.ninputs - 1;
}

#endif
