/*
** compile_emit.c: emitting instructions with their source positions,
** constants, forward and backward jumps; the local variables of the
** procedure being compiled.
*/
#include "compile_int.h"
#include "opcodes.h"

/* ======================================================================
** Emitting code
** ==================================================================== */

/* Appends instruction op A, tagged with the current position; returns its
** index relative to the procedure start. */
uint32_t rgc_emit(cstate *cs, rgi_opcode op, uint32_t a) {
  uint32_t *ins;
  rgi_line *ln;
  if (a > RG_A_MAX) {
    rgc_err(cs, cs->pos, "procedure too large (operand %u exceeds the limit)", a);
    a = 0;
  }
  ins = rgc_push(cs, &cs->code);
  ln = rgc_push(cs, &cs->lines);
  *ins = RG_INS(op, a);
  ln->file = cs->pos.file;
  ln->line = cs->pos.line;
  ln->col = rgi_diag_col(cs->d, cs->pos.file, cs->pos.line, cs->pos.col);
  return cs->code.n - 1 - cs->proc_start;
}

/* The bucket of constant v in a table of cap buckets (a power of two). */
static uint32_t konst_bucket(rgi_value v, uint32_t cap) {
  uint64_t x = (uint64_t)v * 0x9E3779B97F4A7C15ull;
  return (uint32_t)(x >> 32) & (cap - 1);
}

/* Makes the constants' table at least twice their number (arena memory;
** running out unwinds through rgc_oom). */
static void konst_grow(cstate *cs) {
  uint32_t cap = cs->khcap ? cs->khcap * 2 : 64;
  uint32_t *h = rgc_alloc(cs, cap * sizeof *h);
  memset(h, 0, cap * sizeof *h);
  for (uint32_t i = 0; i < cs->consts.n; i++) {
    uint32_t b = konst_bucket(AT(cs->consts, rgi_value, i), cap);
    while (h[b]) b = (b + 1) & (cap - 1);
    h[b] = i + 1;
  }
  cs->khash = h;
  cs->khcap = cap;
}

/* Returns the index of constant v in K[], adding it once (found by hash:
** a procedure of many distinct constants compiles in linear time). */
static uint32_t konst(cstate *cs, rgi_value v) {
  if (2 * ((uint64_t)cs->consts.n + 1) > cs->khcap) konst_grow(cs);
  uint32_t b = konst_bucket(v, cs->khcap);
  for (; cs->khash[b]; b = (b + 1) & (cs->khcap - 1))
    if (AT(cs->consts, rgi_value, cs->khash[b] - 1) == v) return cs->khash[b] - 1;
  rgi_value *k = rgc_push(cs, &cs->consts);
  *k = v;
  cs->khash[b] = cs->consts.n;
  return cs->consts.n - 1;
}

/* Emits code that pushes the value v. */
void rgc_emit_value(cstate *cs, rgi_value v) {
  if (v >= RG_SA_MIN && v <= RG_SA_MAX) rgc_emit(cs, RG_OP_PUSHI, (uint32_t)v & RG_A_MAX);
  else rgc_emit(cs, RG_OP_CONST, konst(cs, v));
}

/* -a for a number written out (a literal just compiled to PUSHI k): turns
** that PUSHI into PUSHI -k and returns true; false when a is anything else
** (the caller emits NEG). */
bool rgc_fold_neg(cstate *cs, const rgi_expr *a) {
  uint32_t *last;
  if (a->kind != RG_EX_INT && a->kind != RG_EX_PERCENT && a->kind != RG_EX_DIST) return false;
  if (cs->code.n == 0) return false;
  last = &AT(cs->code, uint32_t, cs->code.n - 1);
  if (RG_INS_OP(*last) != RG_OP_PUSHI || RG_INS_SA(*last) == RG_SA_MIN) return false;
  *last = RG_INS(RG_OP_PUSHI, (uint32_t)-RG_INS_SA(*last) & RG_A_MAX);
  return true;
}

/* Adds a note entry (for NOTE or SHAPE) named text with the n value types
** types (the caller's; copied), pushed in one run after every value is
** compiled (compiling a value may add types of its own).  Returns the
** entry's index. */
uint32_t rgc_note_entry(cstate *cs, const char *text, const rgi_type *types, uint32_t n) {
  rgi_note_info *ni;
  uint32_t first = cs->types.n;
  for (uint32_t k = 0; k < n; k++) {
    rgi_type *slot = rgc_push(cs, &cs->types);
    *slot = types[k];
  }
  ni = rgc_push(cs, &cs->notes);
  ni->text = rgc_intern(cs, text);
  ni->first_type = first;
  ni->nvals = n;
  return cs->notes.n - 1;
}

/* Emits op with the operand the member in local slot picks: the slot holds
** a member of an enum of n members (1..64), member k picks operand[k] (the
** caller's array).  A chain of compares:
**     LOAD slot; PUSH k; EQ; JMPF next; OP operand[k]; JMP end; next: ...
** ending with the last member's OP (the value is always a member). */
void rgc_emit_by_member(cstate *cs, uint32_t slot, uint32_t n, rgi_opcode op, const uint32_t *operand) {
  jumps *ends = NULL;
  for (uint32_t k = 0; k + 1 < n; k++) {
    uint32_t next;
    rgc_emit(cs, RG_OP_LOAD, slot);
    rgc_emit_value(cs, k);
    rgc_emit(cs, RG_OP_EQ, 0);
    next = rgc_emit(cs, RG_OP_JMPF, 0);
    rgc_emit(cs, op, operand[k]);
    rgc_emit_jump(cs, RG_OP_JMP, &ends);
    rgc_patch(cs, next, rgc_here(cs));
  }
  rgc_emit(cs, op, operand[n - 1]);
  rgc_patch_list(cs, ends, rgc_here(cs));
}

/* Returns the index of the next instruction, relative to the procedure. */
uint32_t rgc_here(cstate *cs) { return cs->code.n - cs->proc_start; }

/* Points the jump at `at` to `target` (both relative to the procedure). */
void rgc_patch(cstate *cs, uint32_t at, uint32_t target) {
  int64_t off = (int64_t)target - (int64_t)at - 1;
  uint32_t *ins;
  if (off < RG_SA_MIN || off > RG_SA_MAX) {
    rgc_err(cs, cs->pos, "procedure too large: a jump spans more than %d instructions", RG_SA_MAX);
    return;
  }
  ins = &AT(cs->code, uint32_t, cs->proc_start + at);
  *ins = RG_INS(RG_INS_OP(*ins), (uint32_t)off & RG_A_MAX);
}

/* Emits a jump back to target. */
void rgc_emit_back(cstate *cs, rgi_opcode op, uint32_t target) {
  uint32_t at = rgc_emit(cs, op, 0);
  rgc_patch(cs, at, target);
}

/* Emits jump op (JMP, JMPF or JMPT) with its target still to come, and adds
** it to *list. */
void rgc_emit_jump(cstate *cs, rgi_opcode op, jumps **list) {
  jumps *j = rgc_alloc(cs, sizeof *j);
  j->pos = cs->pos;
  j->at = rgc_emit(cs, op, 0);
  j->next = *list;
  *list = j;
}

/* Points every jump of list at target (relative to the procedure). */
void rgc_patch_list(cstate *cs, jumps *list, uint32_t target) {
  rgi_pos pos = cs->pos;
  for (; list; list = list->next) {
    cs->pos = list->pos;          /* a jump too long is said where it was emitted */
    rgc_patch(cs, list->at, target);
  }
  cs->pos = pos;
}

/* ======================================================================
** Locals
** ==================================================================== */


/* Returns the innermost local named name, or NULL: one bucket's chain,
** newest first, so a procedure of many locals compiles in linear time. */
local *rgc_find_local(cstate *cs, const char *name) {
  if (!cs->lhcap) return NULL;
  uint32_t h = rgi_hash_text(name);
  for (uint32_t i = cs->lhead[h & (cs->lhcap - 1)]; i != UINT32_MAX; i = cs->locals[i].prev)
    if (cs->locals[i].hash == h && strcmp(cs->locals[i].name, name) == 0) return &cs->locals[i];
  return NULL;
}

/* Makes the buckets at least twice the locals (arena memory; running out
** unwinds through rgc_oom). */
static void grow_buckets(cstate *cs) {
  uint32_t cap = cs->lhcap ? cs->lhcap * 2 : 64;
  uint32_t *head = rgc_alloc(cs, cap * sizeof *head);
  memset(head, 0xFF, cap * sizeof *head);
  for (uint32_t i = 0; i < cs->nlocal; i++) {
    uint32_t b = cs->locals[i].hash & (cap - 1);
    cs->locals[i].prev = head[b];
    head[b] = i;
  }
  cs->lhead = head;
  cs->lhcap = cap;
}

/* Forgets the newest local: its bucket's chain and the loop variables lose
** it. */
static void pop_local(cstate *cs) {
  local *l = &cs->locals[--cs->nlocal];
  cs->lhead[l->hash & (cs->lhcap - 1)] = l->prev;
  if (l->loop && cs->nloops) cs->nloops--;
}

void rgc_reset_locals(cstate *cs) {
  while (cs->nlocal) pop_local(cs);
  cs->nloops = 0;
}

void rgc_mark_loop(cstate *cs, uint32_t i) {
  if (cs->nloops == cs->caploops) {
    uint32_t cap = cs->caploops ? cs->caploops * 2 : 16;
    uint32_t *p = rgc_alloc(cs, cap * sizeof *p);
    if (cs->nloops) memcpy(p, cs->loops, cs->nloops * sizeof *p);
    cs->loops = p;
    cs->caploops = cap;
  }
  cs->locals[i].loop = true;
  cs->loops[cs->nloops++] = i;
}

/* Adds a local of type t in the current block; returns its slot.  A name
** that starts with a space is the compiler's own (a hidden local): never
** written in a rule file, it may be added again in the same block. */
uint32_t rgc_add_local(cstate *cs, rgi_pos pos, const char *name, rgi_type t) {
  local *l = name[0] == ' ' ? NULL : rgc_find_local(cs, name);   /* " x": hidden, never clashes */
  if (l && l->depth == cs->depth) rgc_err(cs, pos, "'%s' is already declared in this block", name);
  if (cs->nlocal == cs->caplocal) {
    uint32_t cap = cs->caplocal ? cs->caplocal * 2 : 32;
    local *p = rgc_alloc(cs, cap * sizeof *p);
    if (cs->nlocal) memcpy(p, cs->locals, cs->nlocal * sizeof *p);
    cs->locals = p;
    cs->caplocal = cap;
  }
  if (cs->nslots >= MAX_LOCALS) {
    rgc_err(cs, pos, "too many local variables (limit %d)", MAX_LOCALS);
    return 0;
  }
  if ((uint64_t)cs->nlocal * 2 >= cs->lhcap) grow_buckets(cs);
  l = &cs->locals[cs->nlocal];
  l->name = name;
  l->slot = cs->nslots++;
  l->type = t;
  l->depth = cs->depth;
  l->loop = false;
  l->hash = rgi_hash_text(name);
  l->prev = cs->lhead[l->hash & (cs->lhcap - 1)];
  cs->lhead[l->hash & (cs->lhcap - 1)] = cs->nlocal++;
  return l->slot;
}

/* Leaves a block: forgets its locals (their slots are not reused). */
void rgc_end_block(cstate *cs) {
  while (cs->nlocal && cs->locals[cs->nlocal - 1].depth == cs->depth) pop_local(cs);
  cs->depth--;
}

