/*
** vmtrans.c: the translator from a module's verified stack bytecode to the
** VM's private register "fast code" (see vm_int.h for the fast code and
** its instructions), with the peephole pass, and rgi_vm_dis_fast.
*/
#include "vm_int.h"
#include "regula_front.h"

#include <string.h>

/* The register form of binary opcode op, or 0 when it has none. */
static uint32_t vm_rbinop(unsigned op) {
  switch (op) {
#define VM_X(o) case RG_OP_##o: return VM_R_##o;
  VM_RBINOPS(VM_X)
#undef VM_X
  default: return 0;
  }
}

/* The register form of unary opcode op, or 0. */
static uint32_t vm_runop(unsigned op) {
  switch (op) {
#define VM_X(o) case RG_OP_##o: return VM_R_##o;
  VM_RUNOPS(VM_X)
#undef VM_X
  default: return 0;
  }
}

/* Comparisons in VM_CMPS order (EQ NE LT LE GT GE): the one that holds
** exactly when c does not (negated), and the one with its operands swapped
** (a < b is b > a). */
static const unsigned char vm_negcmp[6] = {1, 0, 5, 4, 3, 2};
static const unsigned char vm_swapcmp[6] = {0, 1, 4, 5, 2, 3};

/* The compare-and-branch of comparison opcode op, negated when the branch
** is taken on false (jmpf), or 0 when op is not a comparison. */
static uint32_t vm_brcmp(unsigned op, int jmpf) {
  if (op < RG_OP_EQ || op > RG_OP_GE) return 0;
  unsigned c = op - RG_OP_EQ;
  return (uint32_t)VM_BR_EQ + (jmpf ? vm_negcmp[c] : c);
}

/* The translation of one procedure (see the comment at the top). */
typedef struct vm_tr {
  const rgi_module *m;
  const uint32_t *code;     /* the procedure's module code, n instructions */
  uint32_t n, pc0;          /* its length; the module pc of its first */
  int fuse;
  vm_ins *out;              /* the fast code being written, at out[f] */
  uint32_t *fmap;
  uint32_t f;
  int32_t *lz;              /* lz[d]: the slot holding stack entry d */
  uint32_t nlocals;         /* the slot of the first constant */
  const rgi_value *kval;     /* the constants' values */
  uint32_t t0;              /* the slot of stack entry 0 */
  int64_t last;             /* fast index of the instruction whose result
                            ** slot a following STORE may take over, or -1 */
  int lastc;                /* that slot is its c (a CALL's), not its a */
  const unsigned char *draw_only;   /* [nprocs]: see vm_draw_only */
} vm_tr;

/* Appends fast instruction (op a b c d) standing for instruction pc of the
** procedure; returns its fast index.  The caller sized out. */
static uint32_t tr_emit(vm_tr *t, uint32_t op, int32_t a, int32_t b, int32_t c, int32_t d,
                        uint32_t pc) {
  vm_ins *x = &t->out[t->f];
  x->op = op;
  x->a = a;
  x->b = b;
  x->c = c;
  x->d = d;
  x->e = 0;
  t->fmap[t->f] = t->pc0 + pc;
  t->last = -1;
  return t->f++;
}

/* Emits a register instruction whose result goes to stack entry d; a STORE
** right after it may have it write the local instead. */
static void tr_result(vm_tr *t, uint32_t op, uint32_t d, int32_t b, int32_t c, int32_t e,
                      uint32_t pc) {
  uint32_t k = tr_emit(t, op, (int32_t)(t->t0 + d), b, c, e, pc);
  t->lz[d] = (int32_t)(t->t0 + d);
  t->last = k;
  t->lastc = 0;
}

/* Materializes stack entries lo..hi-1 (copies each lazy one into its slot). */
static void tr_flush(vm_tr *t, uint32_t lo, uint32_t hi, uint32_t pc) {
  for (uint32_t e = lo; e < hi; e++)
    if (t->lz[e] != (int32_t)(t->t0 + e)) {
      tr_emit(t, VM_MOV, (int32_t)(t->t0 + e), t->lz[e], 0, 0, pc);
      t->lz[e] = (int32_t)(t->t0 + e);
    }
}

/* Materializes the entries of 0..hi-1 that read local a (before a write). */
static void tr_flush_local(vm_tr *t, int32_t a, uint32_t hi, uint32_t pc) {
  for (uint32_t e = 0; e < hi; e++)
    if (t->lz[e] == a) {
      tr_emit(t, VM_MOV, (int32_t)(t->t0 + e), a, 0, 0, pc);
      t->lz[e] = (int32_t)(t->t0 + e);
    }
}

/* Whether entries 0..hi-1 include a lazy read of local a. */
static int tr_reads(const vm_tr *t, int32_t a, uint32_t hi) {
  for (uint32_t e = 0; e < hi; e++)
    if (t->lz[e] == a) return 1;
  return 0;
}

/* Operand A of instruction ins: sign-extended for immediates and jumps. */
static int32_t tr_arg(uint32_t ins) {
  unsigned o = rgi_op_operand[RG_INS_OP(ins)];
  return o == RG_A_IMM || o == RG_A_JUMP ? RG_INS_SA(ins) : (int32_t)RG_INS_A(ins);
}

/* The value an immediate instruction (PUSHI or CONST) pushes. */
static rgi_value tr_imm(const rgi_module *m, uint32_t ins) {
  return RG_INS_OP(ins) == RG_OP_PUSHI ? (rgi_value)RG_INS_SA(ins) : m->consts[RG_INS_A(ins)];
}

/* The index among procedure fp's constants (fconst[fp->con ..]) of value v,
** added when new (*nconst counts all procedures' constants); hash[0..hmask]
** maps values to indexes, UINT32_MAX where free. */
static uint32_t tr_const(uint32_t *hash, uint32_t hmask, rgi_value *fconst, vm_fproc *fp,
                         uint32_t *nconst, rgi_value v) {
  uint32_t h = (uint32_t)(((uint64_t)v * 0x9E3779B97F4A7C15ull) >> 40) & hmask;
  while (hash[h] != UINT32_MAX && fconst[fp->con + hash[h]] != v) h = (h + 1) & hmask;
  if (hash[h] == UINT32_MAX) {
    hash[h] = fp->ncon++;
    fconst[(*nconst)++] = v;
  }
  return hash[h];
}

/* Computes in depth[0..n) the stack height before each instruction of the
** verified procedure code[0..n), -1 where no path reaches; work has room
** for n entries. */
static void vm_depths(const rgi_module *m, const uint32_t *code, uint32_t n, int64_t *depth,
                      uint32_t *work) {
  uint32_t nw = 0;
  for (uint32_t k = 0; k < n; k++) depth[k] = -1;
  if (n == 0) return;
  depth[0] = 0;
  work[nw++] = 0;
  while (nw) {
    uint32_t i = work[--nw];
    int pops, pushes;
    unsigned op = RG_INS_OP(code[i]);
    rgi_op_effect(m, code[i], &pops, &pushes);
    int64_t h = depth[i] - pops + pushes;
    uint32_t next[2];
    int nn = 0;
    if (op == RG_OP_JMP || op == RG_OP_JMPF || op == RG_OP_JMPT)
      next[nn++] = (uint32_t)((int64_t)i + 1 + RG_INS_SA(code[i]));
    if (op != RG_OP_JMP && op != RG_OP_RET && op != RG_OP_RETV && op != RG_OP_FAIL && i + 1 < n)
      next[nn++] = i + 1;
    for (int j = 0; j < nn; j++)
      if (depth[next[j]] < 0) {
        depth[next[j]] = h;
        work[nw++] = next[j];
      }
  }
}

/* Looks for the in-place tally `l[k] = l[k] + c` (LOAD a; LOAD b; LOAD a;
** LOAD b; ITEM; PUSHI c; ADD; SETITEM) at instruction i with no jump target
** inside; stores a, b and c.  Returns 1 when found. */
static int tr_listadd(const vm_tr *t, uint32_t i, const unsigned char *tgt, int32_t abc[3]) {
  static const unsigned char pat[8] = {RG_OP_LOAD, RG_OP_LOAD, RG_OP_LOAD, RG_OP_LOAD,
                                       RG_OP_ITEM, RG_OP_PUSHI, RG_OP_ADD, RG_OP_SETITEM};
  if (i + 8 > t->n) return 0;
  for (uint32_t k = 0; k < 8; k++)
    if (RG_INS_OP(t->code[i + k]) != pat[k] || (k && tgt[i + k])) return 0;
  abc[0] = tr_arg(t->code[i]);
  abc[1] = tr_arg(t->code[i + 1]);
  abc[2] = tr_arg(t->code[i + 5]);
  return tr_arg(t->code[i + 2]) == abc[0] && tr_arg(t->code[i + 3]) == abc[1];
}

/* Whether procedure q is a leaf `return OP(p1, .., pn)`: its code pushes its
** parameters in order, runs one instruction OP that takes all of them and
** gives one value, and returns that value (so that a call may run OP on the
** caller's arguments in place). */
static int tr_leaf(const rgi_module *m, const rgi_proc *q) {
  const uint32_t *code = m->code + q->code;
  int pops, pushes;
  if (q->ncode != q->nparams + 2 || q->nlocals != q->nparams) return 0;
  for (uint32_t k = 0; k < q->nparams; k++)
    if (RG_INS_OP(code[k]) != RG_OP_LOAD || RG_INS_A(code[k]) != k) return 0;
  if (RG_INS_OP(code[q->nparams + 1]) != RG_OP_RET) return 0;
  if (rgi_op_effect(m, code[q->nparams], &pops, &pushes) != 0) return 0;
  return pops == (int)q->nparams && pushes == 1;
}

/* Emits the register form of instruction ins (an operator, a lookup, a
** roll or draw, ...: one that only reads its operands and writes its result)
** at stack height d, standing for pc; returns 1, or 0 when ins has none
** (nothing emitted). */
static int tr_reg(vm_tr *t, uint32_t ins, uint32_t d, uint32_t pc) {
  const rgi_module *m = t->m;
  unsigned op = RG_INS_OP(ins);
  int32_t a = tr_arg(ins);
  int32_t *lz = t->lz;
  uint32_t t0 = t->t0, i = pc, r;
  switch (op) {
  case RG_OP_CLAMP:
    tr_result(t, VM_R_CLAMP, d - 3, lz[d - 3], lz[d - 2], lz[d - 1], i);
    return 1;
  case RG_OP_MIN: case RG_OP_MAX:
    if (a != 2) return 0;
    tr_result(t, op == RG_OP_MIN ? VM_R_MIN2 : VM_R_MAX2, d - 2, lz[d - 2], lz[d - 1], 0, i);
    return 1;
  case RG_OP_LOOKUP: {
    const rgi_table *tb = &m->tables[a];
    const rgi_dim *dm = &m->dims[tb->first_dim];
    int small = tb->first <= INT32_MAX;   /* lo, size and first fit the fields */
    for (uint32_t k = 0; k < tb->ndims && k < 2; k++)
      small = small && dm[k].lo >= INT32_MIN && dm[k].lo <= INT32_MAX && dm[k].size <= INT32_MAX;
    if (small && tb->ndims == 1) {
      tr_result(t, VM_R_LOOKUP1, d - 1, lz[d - 1], (int32_t)dm[0].lo, (int32_t)dm[0].size, i);
      t->out[t->f - 1].e = tb->first;
      return 1;
    }
    if (small && tb->ndims == 2) {
      tr_result(t, VM_R_LOOKUP2, d - 2, lz[d - 2], lz[d - 1], (int32_t)tb->first, i);
      int64_t k = t->last;
      tr_emit(t, VM_DATA, (int32_t)dm[0].lo, (int32_t)dm[0].size, (int32_t)dm[1].lo,
              (int32_t)dm[1].size, i);
      t->last = k;
      return 1;
    }
    return 0;
  }
  case RG_OP_FIELD:
    tr_result(t, VM_R_FIELD, d - 1, lz[d - 1], a, 0, i);
    return 1;
  case RG_OP_ITEM:
    tr_result(t, VM_R_ITEM, d - 2, lz[d - 2], lz[d - 1], 0, i);
    return 1;
  case RG_OP_ROLL:
    tr_result(t, VM_R_ROLL, d - 1, lz[d - 1], a, 0, i);
    return 1;
  case RG_OP_ROLLAT:
    tr_result(t, VM_R_ROLLAT, d - 2, lz[d - 2], lz[d - 1], a, i);
    return 1;
  case RG_OP_ROLLDIE:
    tr_result(t, VM_R_ROLLDIE, d, 0, a, 0, i);
    return 1;
  case RG_OP_DRAW:
    tr_result(t, VM_R_DRAW, d, 0, a, 0, i);
    return 1;
  case RG_OP_DRAWS:
    tr_result(t, VM_R_DRAWS, d - 1, lz[d - 1], a, 0, i);
    return 1;
  case RG_OP_LEFT:
    tr_result(t, VM_R_LEFT, d, 0, a, 0, i);
    return 1;
  case RG_OP_INPUT:
    tr_result(t, VM_R_INPUT, d, 0, a, 0, i);
    return 1;
  case RG_OP_NTH:
    tr_result(t, VM_R_NTH, d - 1, lz[d - 1], a, 0, i);
    return 1;
  default:
    break;
  }
  if ((r = vm_rbinop(op)) != 0) {
    int32_t s = lz[d - 1];
    if (op == RG_OP_MOD && s >= (int32_t)t->nlocals && s < (int32_t)t0 &&
        t->kval[s - (int32_t)t->nlocals] >= 1 && t->kval[s - (int32_t)t->nlocals] <= INT32_MAX) {
      int32_t k = (int32_t)t->kval[s - (int32_t)t->nlocals];   /* x mod a constant */
      tr_result(t, VM_R_MODK, d - 2, lz[d - 2], k, 0, i);
      uint64_t mult = UINT64_MAX / (uint64_t)k + 1;
      t->out[t->f - 1].d = (int32_t)(uint32_t)mult;
      t->out[t->f - 1].e = (uint32_t)(mult >> 32);
      return 1;
    }
    tr_result(t, r, d - 2, lz[d - 2], lz[d - 1], 0, i);
    return 1;
  }
  if ((r = vm_runop(op)) != 0) {
    tr_result(t, r, d - 1, lz[d - 1], 0, 0, i);
    return 1;
  }
  return 0;
}

/* Translates instruction i (stack height d before it) and returns how many
** module instructions it consumed (2 when it fused with the next).  cslot
** maps each PUSHI/CONST instruction to its constant's slot. */
static uint32_t tr_ins(vm_tr *t, uint32_t i, uint32_t d, const unsigned char *tgt,
                       const uint32_t *cslot) {
  const rgi_module *m = t->m;
  uint32_t ins = t->code[i];
  unsigned op = RG_INS_OP(ins);
  int32_t a = tr_arg(ins);
  int32_t *lz = t->lz;
  uint32_t t0 = t->t0;
  /* the next instruction, when it runs only after this one */
  int chain = t->fuse && i + 1 < t->n && !tgt[i + 1];
  unsigned nop = chain ? RG_INS_OP(t->code[i + 1]) : RG_OP_NOP;
  int32_t na = chain ? tr_arg(t->code[i + 1]) : 0;
  int32_t abc[3];
  uint32_t r;

  if (t->fuse && op == RG_OP_LOAD && tr_listadd(t, i, tgt, abc)) {
    tr_emit(t, VM_LISTADD, abc[0], abc[1], abc[2], 0, i + 4);
    return 8;
  }
  switch (op) {
  case RG_OP_NOP:
    return 1;
  case RG_OP_PUSHI: case RG_OP_CONST: case RG_OP_LOAD:
    lz[d] = op == RG_OP_LOAD ? a : (int32_t)cslot[i];
    if (!t->fuse) tr_flush(t, d, d + 1, i);
    return 1;
  case RG_OP_STORE: {
    int32_t v = lz[d - 1];
    vm_ins *x = t->last >= 0 ? &t->out[t->last] : NULL;
    if (t->fuse && v == (int32_t)(t0 + d - 1) && x && !tgt[i] &&
        (t->lastc ? x->c : x->a) == v && !tr_reads(t, a, d - 1)) {
      *(t->lastc ? &x->c : &x->a) = a;   /* the value is computed straight into L[a] */
      t->last = -1;
      return 1;
    }
    tr_flush_local(t, a, d - 1, i);
    if (v != a) tr_emit(t, VM_MOV, a, v, 0, 0, i);
    return 1;
  }
  case RG_OP_POP:
    t->last = -1;   /* the value popped is no STORE's */
    return 1;
  case RG_OP_JMP:
    tr_flush(t, 0, d, i);
    tr_emit(t, a < 0 ? VM_JMPB : RG_OP_JMP, (int32_t)(i + 1) + a, a < 0 ? -a : 0, 0, 0, i);
    return 1;
  case RG_OP_JMPF: case RG_OP_JMPT:
    tr_flush(t, 0, d - 1, i);
    tr_emit(t, op == RG_OP_JMPF ? VM_BRF : VM_BRT, lz[d - 1], (int32_t)(i + 1) + a, 0,
            a < 0 ? -a : 0, i);
    return 1;
  case RG_OP_RET:
    tr_emit(t, VM_R_RET, lz[d - 1], 0, 0, 0, i);
    return 1;
  case RG_OP_NOT:
    if (nop == RG_OP_JMPF || nop == RG_OP_JMPT) {   /* branch on the operand, reversed */
      tr_flush(t, 0, d - 1, i + 1);
      tr_emit(t, nop == RG_OP_JMPF ? VM_BRT : VM_BRF, lz[d - 1], (int32_t)(i + 2) + na, 0,
              na < 0 ? -na : 0, i + 1);
      return 2;
    }
    break;
  case RG_OP_SETITEM:
    tr_emit(t, VM_R_SETITEM, lz[d - 3], lz[d - 2], lz[d - 1], 0, i);
    return 1;
  case RG_OP_CALL: {
    const rgi_proc *q = &m->procs[a];
    uint32_t np = q->nparams;
    if (t->fuse && tr_leaf(m, q)) {
      /* A leaf `return OP(parameters in order)`: the call's checks, then OP
      ** on the arguments where they are, reporting from the callee. */
      uint32_t k = tr_emit(t, VM_CALLCK, a, 0, 0, (int32_t)(t0 + d), i);
      if (tr_reg(t, m->code[q->code + np], d, q->code + np - t->pc0)) return 1;
      t->f = k;   /* OP has no register form after all: a real call */
    }
    tr_flush(t, d - np, d, i);
    uint32_t k = tr_emit(t, t->draw_only[a] ? VM_CALLDRAW : RG_OP_CALL, a, 0,
                         (int32_t)(t0 + d - np), (int32_t)(t0 + d), i);
    if (q->result.kind != RG_K_VOID) {
      lz[d - np] = (int32_t)(t0 + d - np);
      t->last = k;   /* the result's slot, c, may become a local */
      t->lastc = 1;
    }
    return 1;
  }
  default:
    break;
  }
  if ((r = vm_rbinop(op)) != 0) {
    uint32_t br = vm_brcmp(op, nop == RG_OP_JMPF);
    if (br && (nop == RG_OP_JMPF || nop == RG_OP_JMPT)) {   /* compare and branch */
      tr_flush(t, 0, d - 2, i + 1);
      tr_emit(t, br, lz[d - 2], lz[d - 1], (int32_t)(i + 2) + na, na < 0 ? -na : 0, i + 1);
      return 2;
    }
    if (op == RG_OP_SUB && t->fuse && i > 0 && RG_INS_OP(t->code[i - 1]) == RG_OP_PUSHI &&
        lz[d - 1] == (int32_t)cslot[i - 1] && cslot[i] != UINT32_MAX) {
      tr_result(t, VM_R_ADD, d - 2, lz[d - 2], (int32_t)cslot[i], 0, i);   /* x + -k */
      return 1;
    }
  }
  if (tr_reg(t, ins, d, i)) return 1;
  /* Stack form: operands materialized below base + d, results in place. */
  int pops, pushes;
  rgi_op_effect(m, ins, &pops, &pushes);
  tr_flush(t, d - (uint32_t)pops, d, i);
  tr_emit(t, op, a, 0, 0, (int32_t)(t0 + d), i);
  for (uint32_t e = d - (uint32_t)pops; e < d - (uint32_t)pops + (uint32_t)pushes; e++)
    lz[e] = (int32_t)(t0 + e);
  return 1;
}

/* Stores in t[0..) the jump targets of fast instruction x; returns how many. */
static int vm_targets(vm_ins *x, int32_t **t) {
  uint32_t op = x->op;
  if (op == RG_OP_JMP || op == VM_JMPB) { t[0] = &x->a; return 1; }
  if (op == VM_BRF || op == VM_BRT) { t[0] = &x->b; return 1; }
  if (op >= VM_BR_EQ && op <= VM_BR_GE) { t[0] = &x->c; return 1; }
  if (op >= VM_INCBR_EQ && op <= VM_JBR_GE) { t[0] = &x->c; return 1; }
  return 0;
}

/* The last rewrites of the fast code fcode[0..f) (targets absolute): two
** MOVs in a row become one MOV2 (the second no jump target); a loop's
** backward JMPB onto a compare-and-branch that leaves the loop to the
** instruction right after the JMPB becomes JBR, the jump and the test in
** one (the loop goes on when the test fails); with the loop's step
** x := x + y just before it (and the JMPB no jump target), INCBR, all three
** (the JMPB becomes a NOP that INCBR steps over, holding the weight).
** Steps are counted as before, at the jump, with the jump's weight.
** tgt is scratch for f flags. */
static void vm_peephole(vm_ins *fcode, const uint32_t *fmap, uint32_t f, const vm_fproc *fproc,
                     uint32_t nprocs, unsigned char *tgt) {
  memset(tgt, 0, f);
  for (uint32_t k = 0; k < f; k++) {
    int32_t *tg[1];
    if (vm_targets(&fcode[k], tg)) tgt[*tg[0]] = 1;
  }
  for (uint32_t p = 0; p < nprocs; p++) tgt[fproc[p].entry] = 1;
  for (uint32_t k = 0; k + 1 < f; k++)   /* two MOVs in a row: one dispatch */
    if (fcode[k].op == VM_MOV && fcode[k + 1].op == VM_MOV && !tgt[k + 1]) {
      fcode[k].op = VM_MOV2;
      fcode[k].c = fcode[k + 1].a;
      fcode[k].d = fcode[k + 1].b;
      k++;
    }
  for (uint32_t k = 0; k < f; k++) {
    vm_ins *j = &fcode[k];
    if (j->op != VM_JMPB) continue;
    const vm_ins *h = &fcode[j->a];
    if (h->op < VM_BR_EQ || h->op > VM_BR_GE || h->d || h->c != (int32_t)k + 1) continue;
    uint32_t c = vm_negcmp[h->op - VM_BR_EQ];   /* the loop goes on when h's test fails */
    vm_ins *x = k > 0 && !tgt[k] ? &fcode[k - 1] : NULL;
    if (x && x->op == VM_R_ADD && x->a == x->b && (h->a == x->a || h->b == x->a)) {
      int first = h->a == x->a;
      x->op = VM_INCBR_EQ + (first ? c : vm_swapcmp[c]);
      x->b = x->c;
      x->d = first ? h->b : h->a;
      x->e = fmap[k] - fmap[k - 1];
      x->c = j->a + 1;
      j->op = RG_OP_NOP;
      j->a = j->b;   /* the weight, where INCBR finds it */
      j->b = 0;
      continue;
    }
    j->op = VM_JBR_EQ + c;
    int32_t body = j->a + 1;
    j->d = j->b;     /* the weight */
    j->a = h->a;
    j->b = h->b;
    j->c = body;
  }
}

/* Whether instruction op has an effect a caller or the run's report could
** see, other than drawing: chance, choices, notes, steps, tests, inputs,
** and lists changed in place.  A call is judged by its callee. */
static int vm_op_acts(unsigned op) {
  switch (op) {
  case RG_OP_NOTE: case RG_OP_EXPECT: case RG_OP_EXPECTEQ: case RG_OP_ROLL: case RG_OP_ROLLS:
  case RG_OP_ROLLAT: case RG_OP_ROLLDIE: case RG_OP_DRAW: case RG_OP_DRAWS: case RG_OP_LEFT:
  case RG_OP_CHOOSE: case RG_OP_STEP: case RG_OP_INPUT: case RG_OP_SETITEM:
    return 1;
  default:
    return 0;
  }
}

/* Marks in draw_only[0..m->nprocs) the procedures that only draw: they
** give no result, draw (SHAPE, themselves or through a call), and neither
** they nor anything they call has an effect of vm_op_acts.  A call of one
** runs only when the sink takes shapes: a run that draws no picture
** skips the work of drawing it (and so meets no runtime error of that
** work).  Linear in the code: the marks spread from callee to callers
** over the call graph reversed.  Returns 0, or -1 when out of memory. */
static int vm_draw_only(const rgi_module *m, unsigned char *draw_only) {
  uint32_t np = m->nprocs, ncalls = 0;
  for (uint32_t p = 0; p < np; p++)
    for (uint32_t k = 0; k < m->procs[p].ncode; k++)
      if (RG_INS_OP(m->code[m->procs[p].code + k]) == RG_OP_CALL) ncalls++;
  /* The callers of q are from[first[q] .. first[q + 1]). */
  uint32_t *first = rg_malloc(((size_t)np + 1) * sizeof *first);
  uint32_t *from = rg_malloc(((size_t)ncalls + 1) * sizeof *from);
  uint32_t *queue = rg_malloc(((size_t)np + 1) * sizeof *queue);
  unsigned char *acts = rg_malloc((size_t)np + 1), *draws = rg_malloc((size_t)np + 1);
  int rc = -1;
  if (!first || !from || !queue || !acts || !draws) goto done;
  memset(first, 0, ((size_t)np + 1) * sizeof *first);
  for (uint32_t p = 0; p < np; p++) {
    const rgi_proc *q = &m->procs[p];
    acts[p] = draws[p] = 0;
    for (uint32_t k = 0; k < q->ncode; k++) {
      uint32_t ins = m->code[q->code + k];
      unsigned op = RG_INS_OP(ins);
      if (op == RG_OP_CALL) first[RG_INS_A(ins)]++;   /* the verifier bounds A */
      acts[p] |= (unsigned char)vm_op_acts(op);
      draws[p] |= op == RG_OP_SHAPE;
    }
  }
  for (uint32_t q = 0, sum = 0; q <= np; q++) {   /* counts to ends */
    sum += first[q];
    first[q] = sum;
  }
  for (uint32_t p = 0; p < np; p++)   /* fill backward: first[q] ends at q's start */
    for (uint32_t k = 0; k < m->procs[p].ncode; k++) {
      uint32_t ins = m->code[m->procs[p].code + k];
      if (RG_INS_OP(ins) == RG_OP_CALL) from[--first[RG_INS_A(ins)]] = p;
    }
  /* acts and draws spread to every caller, breadth first. */
  for (int pass = 0; pass < 2; pass++) {
    unsigned char *mark = pass ? draws : acts;
    uint32_t head = 0, tail = 0;
    for (uint32_t p = 0; p < np; p++)
      if (mark[p]) queue[tail++] = p;
    while (head < tail) {
      uint32_t q = queue[head++];
      for (uint32_t c = first[q]; c < first[q + 1]; c++)
        if (!mark[from[c]]) {
          mark[from[c]] = 1;
          queue[tail++] = from[c];
        }
    }
  }
  for (uint32_t p = 0; p < np; p++)
    draw_only[p] = !acts[p] && draws[p] && m->procs[p].result.kind == RG_K_VOID;
  rc = 0;
done:
  rg_free(first);
  rg_free(from);
  rg_free(queue);
  rg_free(acts);
  rg_free(draws);
  return rc;
}

/* Builds the VM's fast code from the module's (fused unless told not to),
** with each procedure's constants and frame size.  Returns 0, or -1 when
** out of memory. */
int vm_build_fast(rgi_vm *vm, int fuse) {
  const rgi_module *m = vm->m;
  /* Procedures of a crafted module may share code: each gets its own copy.
  ** An instruction becomes at most two fast instructions (LOOKUP2 and its
  ** DATA) and one copy (a STORE's, or the materializing of the one lazy
  ** entry it made): three. */
  uint64_t total = 1, longest = 1, ncodes = 1;
  for (uint32_t pi = 0; pi < m->nprocs; pi++) {
    const rgi_proc *p = &m->procs[pi];
    total += 3 * (uint64_t)p->ncode;
    ncodes += p->ncode;
    if (p->ncode > longest) longest = p->ncode;
  }
  if (total > INT32_MAX / 2) return -1;
  vm_ins *fcode = rg_malloc((size_t)total * sizeof(vm_ins));
  uint32_t *fmap = rg_malloc((size_t)total * sizeof(uint32_t));
  vm_fproc *fproc = rg_malloc((m->nprocs ? m->nprocs : 1) * sizeof(vm_fproc));
  rgi_value *fconst = rg_malloc((size_t)ncodes * sizeof(rgi_value));
  uint32_t *fidx = rg_malloc((size_t)longest * sizeof(uint32_t));
  uint32_t *cslot = rg_malloc((size_t)longest * sizeof(uint32_t));
  uint32_t *work = rg_malloc((size_t)longest * sizeof(uint32_t));
  int64_t *depth = rg_malloc((size_t)longest * sizeof(int64_t));
  unsigned char *tgt = rg_malloc((size_t)(total > longest ? total : longest));
  uint32_t hmask = 1;   /* the constants' hash: a power of two over twice the longest */
  while (hmask < 2 * longest) hmask *= 2;
  uint32_t *hash = rg_malloc((size_t)hmask * sizeof(uint32_t));
  unsigned char *draw_only = rg_malloc((size_t)m->nprocs + 1);
  int32_t *lz = NULL;
  uint64_t max_stack = 1;
  for (uint32_t pi = 0; pi < m->nprocs; pi++)
    if (m->procs[pi].max_stack > max_stack) max_stack = m->procs[pi].max_stack;
  lz = rg_malloc((size_t)max_stack * sizeof(int32_t));
  int rc = -1;
  if (!fcode || !fmap || !fproc || !fconst || !fidx || !cslot || !work || !depth ||
      !tgt || !lz || !hash || !draw_only || vm_draw_only(m, draw_only) != 0)
    goto done;
  uint32_t f = 0, nconst = 0;
  uint64_t max_frame = 1;
  for (uint32_t pi = 0; pi < m->nprocs; pi++) {
    const rgi_proc *p = &m->procs[pi];
    const uint32_t *code = m->code + p->code;
    uint32_t n = p->ncode, first = f;
    /* The constants, each value once, in the order first pushed (found
    ** through a hash of this procedure's, cleared per procedure). */
    vm_fproc *fp = &fproc[pi];
    fp->con = nconst;
    fp->ncon = 0;
    fp->steps = n;
    hmask = 1;   /* this procedure's part of the hash: over twice its length */
    while (hmask < 2 * n) hmask *= 2;
    memset(hash, 0xFF, (size_t)hmask * sizeof(uint32_t));
    hmask--;
    for (uint32_t k = 0; k < n; k++) {
      unsigned op = RG_INS_OP(code[k]);
      if (op != RG_OP_PUSHI && op != RG_OP_CONST) continue;
      rgi_value v = tr_imm(m, code[k]);
      cslot[k] = p->nlocals + tr_const(hash, hmask, fconst, fp, &nconst, v);
      /* x - k is x + -k: a SUB right after gets -k's slot (for INCBR) */
      if (k + 1 < n && RG_INS_OP(code[k + 1]) == RG_OP_SUB) {
        cslot[k + 1] = UINT32_MAX;
        if (v != INT64_MIN) cslot[k + 1] = p->nlocals + tr_const(hash, hmask, fconst, fp, &nconst, -v);
      }
    }
    fp->size = (uint64_t)p->nlocals + fp->ncon + p->max_stack;
    if (fp->size > max_frame) max_frame = fp->size;
    if ((uint64_t)p->nlocals + fp->ncon + p->max_stack > INT32_MAX / 2) goto done;
    memset(tgt, 0, n);
    for (uint32_t k = 0; k < n; k++)   /* the verifier keeps targets inside */
      if (rgi_op_operand[RG_INS_OP(code[k])] == RG_A_JUMP) tgt[(int64_t)k + 1 + RG_INS_SA(code[k])] = 1;
    vm_depths(m, code, n, depth, work);
    vm_tr t = { m, code, n, p->code, fuse, fcode, fmap, f, lz, p->nlocals, fconst + fp->con,
                p->nlocals + fp->ncon, -1, 0, draw_only };
    fp->entry = f;
    int falls = 0;   /* whether the instruction before k runs on into k */
    for (uint32_t k = 0; k < n;) {
      if (depth[k] < 0) {   /* no path reaches it */
        fidx[k] = t.f;
        tr_emit(&t, VM_UNREACHABLE, 0, 0, 0, 0, k);
        k++;
        falls = 0;
        continue;
      }
      uint32_t d = (uint32_t)depth[k];
      if (tgt[k] || !falls) {   /* paths meet here: every entry in its slot */
        if (falls) tr_flush(&t, 0, d, k);
        for (uint32_t e = 0; e < d; e++) lz[e] = (int32_t)(t.t0 + e);
        t.last = -1;
      }
      fidx[k] = t.f;
      uint32_t len = tr_ins(&t, k, d, tgt, cslot);
      for (uint32_t j = 1; j < len; j++) fidx[k + j] = t.f;   /* never targets */
      k += len;
      unsigned lop = RG_INS_OP(code[k - 1]);
      falls = lop != RG_OP_JMP && lop != RG_OP_RET && lop != RG_OP_RETV && lop != RG_OP_FAIL;
    }
    f = t.f;
    /* Jump targets (procedure-relative) to fast indexes. */
    for (uint32_t k = first; k < f; k++) {
      int32_t *tg[1];
      if (vm_targets(&fcode[k], tg)) *tg[0] = (int32_t)fidx[*tg[0]];
    }
  }
  /* A jump onto a forward JMP goes straight to the JMP's target. */
  for (uint32_t k = 0; fuse && k < f; k++) {
    int32_t *tg[1];
    if (vm_targets(&fcode[k], tg))
      while (fcode[*tg[0]].op == RG_OP_JMP) *tg[0] = fcode[*tg[0]].a;
  }
  if (fuse) vm_peephole(fcode, fmap, f, fproc, m->nprocs, tgt);
  /* Calls get their callee's entry in b; targets become relative. */
  for (uint32_t k = 0; k < f; k++) {
    vm_ins *x = &fcode[k];
    int32_t *tg[1];
    if (x->op == RG_OP_CALL || x->op == VM_CALLDRAW) x->b = (int32_t)fproc[x->a].entry;
    if (vm_targets(x, tg)) *tg[0] -= (int32_t)k;
  }
  rg_free(vm->fcode);
  rg_free(vm->fmap);
  rg_free(vm->fproc);
  rg_free(vm->fconst);
  vm->fcode = fcode;
  vm->fmap = fmap;
  vm->fproc = fproc;
  vm->fconst = fconst;
  vm->max_frame = max_frame;
  vm->nfcode = f;
  vm->threaded = 0;
  fcode = NULL;
  fmap = NULL;
  fproc = NULL;
  fconst = NULL;
  rc = 0;
done:
  rg_free(fcode);
  rg_free(fmap);
  rg_free(fproc);
  rg_free(fconst);
  rg_free(fidx);
  rg_free(cslot);
  rg_free(work);
  rg_free(depth);
  rg_free(tgt);
  rg_free(lz);
  rg_free(hash);
  rg_free(draw_only);
  return rc;
}

/* The names of the fast-only instructions, for rgi_vm_dis_fast. */
static const char *const vm_fopnames[] = {
#define VM_X(o) "R_" #o,
  VM_RBINOPS(VM_X)
  VM_RUNOPS(VM_X)
#undef VM_X
#define VM_X(o) "BR_" #o,
  VM_CMPS(VM_X)
#undef VM_X
#define VM_X(o) "INCBR_" #o,
  VM_CMPS(VM_X)
#undef VM_X
#define VM_X(o) "JBR_" #o,
  VM_CMPS(VM_X)
#undef VM_X
#define VM_X(o) #o,
  VM_OTHER_FOPS(VM_X)
#undef VM_X
};

/* Prints the fast code of every procedure to out: per procedure its frame
** (locals, constants and their values, stack slots), then one line per
** fast instruction: fast index, the module pc it reports (relative to the
** procedure, or @absolute for an inlined callee's), name, operands. */
void rgi_vm_dis_fast(const rgi_vm *vm, rg_out *out) {
  const rgi_module *m = vm->m;
  for (uint32_t pi = 0; pi < m->nprocs; pi++) {
    const rgi_proc *p = &m->procs[pi];
    const vm_fproc *fp = &vm->fproc[pi];
    uint32_t end = pi + 1 < m->nprocs ? vm->fproc[pi + 1].entry : vm->nfcode;
    rg_printf(out, "procedure %s  ; locals 0..%u, constants %u..%u, stack from %u\n",
            rgi_module_str(m, p->name), (unsigned)p->nlocals,
            (unsigned)p->nlocals, (unsigned)(p->nlocals + fp->ncon),
            (unsigned)(p->nlocals + fp->ncon));
    for (uint32_t c = 0; c < fp->ncon; c++)
      rg_printf(out, "  K%u = %lld\n", (unsigned)(p->nlocals + c), (long long)vm->fconst[fp->con + c]);
    for (uint32_t k = fp->entry; k < end; k++) {
      const vm_ins *x = &vm->fcode[k];
      const char *name = x->op < RG_NOPCODES ? rgi_opnames[x->op] : vm_fopnames[x->op - RG_NOPCODES];
      uint32_t at = vm->fmap[k];   /* another procedure's when inlined: @ its module pc */
      if (at >= p->code && at - p->code < p->ncode)
        rg_printf(out, "%5u [%04u] ", (unsigned)(k - fp->entry), (unsigned)(at - p->code));
      else
        rg_printf(out, "%5u [@%04u] ", (unsigned)(k - fp->entry), (unsigned)at);
      rg_printf(out, "%-12s %d %d %d %d\n", name, x->a, x->b, x->c, x->d);
    }
  }
}
