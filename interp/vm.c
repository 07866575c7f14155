/*
** vm.c: the virtual machine (see vm.h and opcodes.h).
**
** The operand stack and the locals share one array of values allocated in
** rg_vm_new.  A frame is [locals | operands]: a call leaves its arguments
** where the caller pushed them, and they become the callee's first locals,
** so a call copies nothing.  The verifier has proved every procedure's
** deepest stack (max_stack), so the only stack check is at a call: the new
** frame's locals plus its max_stack must fit.
**
** The dispatch loop is written once with Lua's vmdispatch/vmcase/vmbreak
** macros: with GCC or Clang each instruction jumps straight to the next one
** through a table of label addresses; other compilers get a switch.
** pc (the fast instruction being run), sp and the frame base live in locals
** of rg_vm_call, which GCC keeps in registers (see the note at rg_vm_call).
*/
#include "vm.h"
#include "opcodes.h"
#include "alloc.h"
#include "rng.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- fast code ------------------------------------------------------------
**
** rg_vm_new rewrites every procedure's verified code into the VM's private
** "fast code": one vm_ins per instruction, with its operands decoded (jump
** targets as fast offsets from the jump, so that the dispatch loop needs no
** base pointer; a call's entry point as an absolute fast index), and hot
** sequences fused into superinstructions (vm_fuse).  The module's code is
** untouched: the verifier checked it, the disassembler shows it, and every
** fast instruction keeps the module pc of its original instruction (fmap) so
** that errors and sink reports name the same place with or without fusion.
** A sequence is fused only when no jump lands inside it (its first
** instruction may be a target), so every jump target has a fast index.
*/

/* One fast instruction: op is an rg_opcode or a vm_fop; a, b, c operands. */
typedef struct vm_ins {
  uint32_t op;
  int32_t a, b, c;
} vm_ins;

/* Binary operators fused with their operands (x op y -> r). */
#define VM_BINOPS(X) X(ADD) X(SUB) X(MUL) X(DIV) X(MOD) X(EQ) X(NE) X(LT) X(LE) X(GT) X(GE)
#define VM_CMPS(X) X(EQ) X(NE) X(LT) X(LE) X(GT) X(GE)

/* The superinstructions.  For binary operator OP (L: a local, K: an
** immediate, S: stored into a local):
**   OP_K k        top := top OP k            (PUSHI k; OP)
**   OP_L a        top := top OP L[a]         (LOAD a; OP)
**   OP_LK a k     push L[a] OP k             (LOAD a; PUSHI k; OP)
**   OP_LL a b     push L[a] OP L[b]          (LOAD a; LOAD b; OP)
**   OP_LKS a k c  L[c] := L[a] OP k          (LOAD a; PUSHI k; OP; STORE c)
**   OP_LLS a b c  L[c] := L[a] OP L[b]       (LOAD a; LOAD b; OP; STORE c)
**   OP_S c        L[c] := x OP y, popped     (OP; STORE c)
**   OP_KS k c     L[c] := pop OP k           (PUSHI k; OP; STORE c)
** and for comparison CMP, jumping to fast index t when x CMP y holds (a
** JMPF after the comparison becomes the negated CMP):
**   BRCMP_LL a b t  (LOAD a; LOAD b; CMP; JMPF/JMPT t)
**   BRCMP_LK a k t  (LOAD a; PUSHI k; CMP; JMPF/JMPT t)
**   BRCMP_SK k t    (PUSHI k; CMP; JMPF/JMPT t), pops x
**   BRCMP_SS t      (CMP; JMPF/JMPT t), pops x and y
** Fused conditional jumps are forward only (a backward jump counts a step). */
typedef enum vm_fop {
  VM_FOP0 = RG_NOPCODES - 1,
#define VM_X(o) VM_##o##_K, VM_##o##_L, VM_##o##_LK, VM_##o##_LL, VM_##o##_LKS, VM_##o##_LLS, \
                VM_##o##_S, VM_##o##_KS,
  VM_BINOPS(VM_X)
#undef VM_X
#define VM_X(o) VM_BR##o##_LL, VM_BR##o##_LK, VM_BR##o##_SK, VM_BR##o##_SS,
  VM_CMPS(VM_X)
#undef VM_X
  VM_JMPB,        /* JMP backward: counts a step */
  VM_MOVK,        /* L[a] := b                  (PUSHI b; STORE a) */
  VM_MOV,         /* L[b] := L[a]               (LOAD a; STORE b) */
  VM_BRFL,        /* if !L[a] goto b            (LOAD a; JMPF b), forward */
  VM_BRTL,        /* if L[a] goto b             (LOAD a; JMPT b), forward */
  VM_ROLLK,       /* push b, then ROLL a        (PUSHI b; ROLL a) */
  VM_ROLLAT_LL,   /* push L[b] L[c], ROLLAT a   (LOAD b; LOAD c; ROLLAT a) */
  VM_RETL,        /* return L[a]                (LOAD a; RET) */
  VM_CLAMPK,      /* top := clamp(top, a, b)    (PUSHI a; PUSHI b; CLAMP) */
  VM_LOOKUP_LL,   /* push L[b] L[c], LOOKUP a   (LOAD b; LOAD c; LOOKUP a) */
  VM_INCRJMPB,    /* L[a] += b; step; goto c    (LOAD a; PUSHI b; ADD; STORE a; JMP c), c backward */
  VM_FORLOOP,     /* INCRJMPB whose target c is a BRGT_LL, the loop's test: runs it too */
  VM_DRAWAPPEND,  /* L[b] := L[b] + [DRAW a]    (LOAD b; DRAW a; APPEND; STORE b) */
  VM_ITEM_LL,     /* push L[a] L[b], ITEM       (LOAD a; LOAD b; ITEM) */
  VM_JMPF2,       /* if !pop goto a else goto b (JMP to a forward JMPF: threaded) */
  VM_JMPT2,       /* if pop goto a else goto b  (JMP to a forward JMPT: threaded) */
  VM_MAX2,        /* MAX 2 */
  VM_MIN2,        /* MIN 2 */
  VM_MODU_K,      /* MOD_K, MOD_LK, MOD_LKS, MOD_KS by a constant k >= 1: */
  VM_MODU_LK,     /* x mod k by multiplication (fmagic) when 0 <= x < 2^32 */
  VM_MODU_LKS,
  VM_MODU_KS,
  VM_LISTADD,     /* list L[a], element L[b] += c, in place
                  ** (LOAD a; LOAD b; LOAD a; LOAD b; ITEM; PUSHI c; ADD; SETITEM) */
  VM_ABS_L,       /* push |L[a]|                (LOAD a; ABS) */
  VM_BRL2,        /* if L[a] goto b else goto c (LOAD a [NOT]; JMP to a forward JMPF/JMPT) */
  VM_LOOPLE_LK,   /* INCRJMPB whose target c is a BRLE_LK or BRLT_LK (`while n > 0`, */
  VM_LOOPLT_LK,   /* `while k >= 1`): runs the test too */
  VM_NFOPS
} vm_fop;

/* A suspended caller. */
typedef struct rg_frame {
  const vm_ins *pc;         /* where to resume (in the fast code) */
  rg_value *base;           /* the caller's locals */
  uint32_t proc;
} rg_frame;

/* Most dice one ROLL or ROLLS may throw, and most options of a range
** choice: the size of the VM's scratch buffer. */
#define RG_VM_SCRATCH 1000

struct rg_vm {
  const rg_module *m;
  rg_sink sink;
  uint64_t max_steps;
  rg_value *stack;          /* the value stack: frames of locals and operands */
  size_t nstack;
  rg_value *heap;           /* module constants, then records and lists of a run */
  size_t heap_cap;
  uint32_t heap_top;
  rg_rng rng;               /* every roll and draw not given by sink.chance */
  rg_value *deck_cards;     /* each deck's cards left, in its own slice */
  uint32_t *deck_off;       /* deck d's slice starts at deck_cards[deck_off[d]] */
  uint32_t *deck_left;      /* cards left in deck d */
  rg_value *inputs;         /* the inputs' values (defaults until set) */
  rg_value *scratch;        /* RG_VM_SCRATCH values: rolls, range options */
  vm_ins *fcode;            /* the fast code of every procedure */
  uint32_t *fmap;           /* fast index -> module pc of the instruction that may fail */
  uint32_t *fentry;         /* procedure -> fast index of its first instruction */
  uint64_t *fmagic;         /* fast index -> multiplier of a MODU_* (else unset) */
  rg_frame frames[RG_MAX_CALL_DEPTH];
  char err[256];
  uint32_t err_pc;
};

static const unsigned char vm_operand[] = {
#define RG_X(name, operand, pops, pushes, doc) operand,
  RG_OPCODES(RG_X)
#undef RG_X
};

/* Index of binary operator op in VM_BINOPS, or -1. */
static int vm_binop(unsigned op) {
  if (op >= RG_OP_ADD && op <= RG_OP_MOD) return (int)(op - RG_OP_ADD);
  if (op >= RG_OP_EQ && op <= RG_OP_GE) return 5 + (int)(op - RG_OP_EQ);
  return -1;
}

/* Index of comparison op in VM_CMPS, or -1. */
static int vm_cmp(unsigned op) {
  return op >= RG_OP_EQ && op <= RG_OP_GE ? (int)(op - RG_OP_EQ) : -1;
}

/* The fast op of binary operator b (VM_BINOPS index) in form f (0 K, 1 L,
** 2 LK, 3 LL, 4 LKS, 5 LLS, 6 S, 7 KS), and of the branch on comparison c
** (VM_CMPS index; negated when jumping on false) in form f (0 LL, 1 LK, 2 SK,
** 3 SS). */
#define VM_BINOP_OP(b, f) ((uint32_t)VM_ADD_K + 8u * (uint32_t)(b) + (f))
#define VM_BR_OP(c, jmpf, f) \
  ((uint32_t)VM_BREQ_LL + 4u * (uint32_t)((jmpf) ? vm_negcmp[c] : (c)) + (f))
static const unsigned char vm_negcmp[6] = {1, 0, 5, 4, 3, 2};  /* EQ NE LT LE GT GE */

/* Matches the longest fusible sequence of code[i..end) (one procedure's
** code; tgt marks its jump targets) and stores its fast instruction in *out
** with jump targets as indexes into code and, in *prim, the index of the
** instruction whose errors and reports it stands for.  Returns its length. */
static uint32_t vm_match(const uint32_t *code, uint32_t i, uint32_t end,
                         const unsigned char *tgt, int fuse, vm_ins *out, uint32_t *prim) {
  uint32_t n = 0;             /* instructions free of inner jump targets */
  while (n < 8 && i + n < end && (n == 0 || !tgt[i + n])) n++;
  unsigned op[8];
  int32_t a[8];
  for (uint32_t k = 0; k < n; k++) {
    op[k] = RG_INS_OP(code[i + k]);
    a[k] = vm_operand[op[k]] == RG_A_IMM || vm_operand[op[k]] == RG_A_JUMP
               ? RG_INS_SA(code[i + k]) : (int32_t)RG_INS_A(code[i + k]);
  }
  /* Forward conditional jump at k: its target (module pc) or -1. */
#define FWDJ(k) ((op[k] == RG_OP_JMPF || op[k] == RG_OP_JMPT) && a[k] >= 0 \
                 ? (int32_t)(i + (k) + 1) + a[k] : -1)
#define EMIT(o, x, y, z, len, p) do { out->op = (o); out->a = (x); out->b = (y); out->c = (z); \
                                      *prim = i + (p); return (len); } while (0)
  if (fuse) {
    if (n >= 8 && op[0] == RG_OP_LOAD && op[1] == RG_OP_LOAD && op[2] == RG_OP_LOAD &&
        op[3] == RG_OP_LOAD && a[2] == a[0] && a[3] == a[1] && op[4] == RG_OP_ITEM &&
        op[5] == RG_OP_PUSHI && op[6] == RG_OP_ADD && op[7] == RG_OP_SETITEM)
      EMIT(VM_LISTADD, a[0], a[1], a[5], 8, 4);
    if (n >= 5 && op[0] == RG_OP_LOAD && op[1] == RG_OP_PUSHI &&
        (op[2] == RG_OP_ADD || op[2] == RG_OP_SUB) && op[3] == RG_OP_STORE && a[3] == a[0] &&
        op[4] == RG_OP_JMP && a[4] < 0)   /* x - k overflows when x + -k does (k is 24-bit) */
      EMIT(VM_INCRJMPB, a[0], op[2] == RG_OP_ADD ? a[1] : -a[1], (int32_t)(i + 5) + a[4], 5, 2);
    if (n >= 4 && op[0] == RG_OP_LOAD && op[1] == RG_OP_DRAW && op[2] == RG_OP_APPEND &&
        op[3] == RG_OP_STORE && a[3] == a[0])
      EMIT(VM_DRAWAPPEND, a[1], a[0], 0, 4, 1);
    if (n >= 4 && op[0] == RG_OP_LOAD && (op[1] == RG_OP_LOAD || op[1] == RG_OP_PUSHI)) {
      int c = vm_cmp(op[2]), b = vm_binop(op[2]);
      int32_t t = FWDJ(3);
      if (c >= 0 && t >= 0)
        EMIT(VM_BR_OP(c, op[3] == RG_OP_JMPF, op[1] == RG_OP_LOAD ? 0u : 1u), a[0], a[1], t, 4, 2);
      if (b >= 0 && op[3] == RG_OP_STORE)
        EMIT(VM_BINOP_OP(b, op[1] == RG_OP_LOAD ? 5u : 4u), a[0], a[1], a[3], 4, 2);
    }
    if (n >= 3) {
      int b = vm_binop(op[2]), c = vm_cmp(op[1]);
      /* LOAD a [NOT]; JMP to a forward JMPF/JMPT: both ways on L[a]. */
      int nt = op[1] == RG_OP_NOT;
      if (op[0] == RG_OP_LOAD && (nt || op[1] == RG_OP_JMP) && op[1 + nt] == RG_OP_JMP &&
          a[1 + nt] >= 0) {
        uint32_t t = i + 2 + nt + (uint32_t)a[1 + nt];
        unsigned top = t < end ? RG_INS_OP(code[t]) : RG_OP_NOP;
        int32_t ta = t < end ? RG_INS_SA(code[t]) : -1;
        if ((top == RG_OP_JMPF || top == RG_OP_JMPT) && ta >= 0) {
          int32_t taken = (int32_t)(t + 1) + ta, fall = (int32_t)(t + 1);
          /* the value tested is L[a] (NOT: !L[a]); JMPF jumps when it is 0 */
          int on_true_taken = (top == RG_OP_JMPT) != nt;
          EMIT(VM_BRL2, a[0], on_true_taken ? taken : fall, on_true_taken ? fall : taken,
               2 + (uint32_t)nt, 0);
        }
      }
      if (op[0] == RG_OP_PUSHI && op[1] == RG_OP_NEG && op[2] == RG_OP_STORE)
        EMIT(VM_MOVK, a[2], -a[0], 0, 3, 1);   /* -k of a 24-bit k: no overflow */
      if (op[0] == RG_OP_PUSHI && vm_binop(op[1]) >= 0 && op[2] == RG_OP_STORE)
        EMIT(VM_BINOP_OP(vm_binop(op[1]), 7u), a[0], a[2], 0, 3, 1);
      if (op[0] == RG_OP_LOAD && (op[1] == RG_OP_LOAD || op[1] == RG_OP_PUSHI) && b >= 0)
        EMIT(VM_BINOP_OP(b, op[1] == RG_OP_LOAD ? 3u : 2u), a[0], a[1], 0, 3, 2);
      if (op[0] == RG_OP_PUSHI && c >= 0 && FWDJ(2) >= 0)
        EMIT(VM_BR_OP(c, op[2] == RG_OP_JMPF, 2u), a[0], FWDJ(2), 0, 3, 1);
      if (op[0] == RG_OP_LOAD && op[1] == RG_OP_LOAD && op[2] == RG_OP_ROLLAT)
        EMIT(VM_ROLLAT_LL, a[2], a[0], a[1], 3, 2);
      if (op[0] == RG_OP_LOAD && op[1] == RG_OP_LOAD && op[2] == RG_OP_ITEM)
        EMIT(VM_ITEM_LL, a[0], a[1], 0, 3, 2);
      if (op[0] == RG_OP_LOAD && op[1] == RG_OP_LOAD && op[2] == RG_OP_LOOKUP)
        EMIT(VM_LOOKUP_LL, a[2], a[0], a[1], 3, 2);
      if (op[0] == RG_OP_PUSHI && op[1] == RG_OP_PUSHI && op[2] == RG_OP_CLAMP)
        EMIT(VM_CLAMPK, a[0], a[1], 0, 3, 2);
    }
    if (n >= 2) {
      int b = vm_binop(op[1]), c = vm_cmp(op[0]);
      if (op[0] == RG_OP_PUSHI && b >= 0) EMIT(VM_BINOP_OP(b, 0u), a[0], 0, 0, 2, 1);
      if (op[0] == RG_OP_LOAD && b >= 0) EMIT(VM_BINOP_OP(b, 1u), a[0], 0, 0, 2, 1);
      if (vm_binop(op[0]) >= 0 && op[1] == RG_OP_STORE)
        EMIT(VM_BINOP_OP(vm_binop(op[0]), 6u), a[1], 0, 0, 2, 0);
      if (c >= 0 && FWDJ(1) >= 0) EMIT(VM_BR_OP(c, op[1] == RG_OP_JMPF, 3u), FWDJ(1), 0, 0, 2, 0);
      if (op[0] == RG_OP_PUSHI && op[1] == RG_OP_STORE) EMIT(VM_MOVK, a[1], a[0], 0, 2, 1);
      if (op[0] == RG_OP_LOAD && op[1] == RG_OP_STORE) EMIT(VM_MOV, a[0], a[1], 0, 2, 1);
      if (op[0] == RG_OP_LOAD && FWDJ(1) >= 0)
        EMIT(op[1] == RG_OP_JMPF ? VM_BRFL : VM_BRTL, a[0], FWDJ(1), 0, 2, 1);
      if (op[0] == RG_OP_PUSHI && op[1] == RG_OP_ROLL) EMIT(VM_ROLLK, a[1], a[0], 0, 2, 1);
      if (op[0] == RG_OP_LOAD && op[1] == RG_OP_RET) EMIT(VM_RETL, a[0], 0, 0, 2, 1);
      if (op[0] == RG_OP_LOAD && op[1] == RG_OP_ABS) EMIT(VM_ABS_L, a[0], 0, 0, 2, 1);
      if (op[0] == RG_OP_PUSHI && op[1] == RG_OP_NEG) EMIT(RG_OP_PUSHI, -a[0], 0, 0, 2, 1);
    }
  }
  /* One instruction, looking through to the next or to its target when that
  ** is a forward JMPF or JMPT (which keeps its own fast instruction: it may
  ** be a jump target). */
  if (fuse && i + 1 < end) {
    uint32_t t = op[0] == RG_OP_JMP && a[0] >= 0 ? i + 1 + (uint32_t)a[0] : i + 1;
    unsigned top = RG_INS_OP(code[t]);
    int32_t ta = RG_INS_SA(code[t]);
    if ((top == RG_OP_JMPF || top == RG_OP_JMPT) && ta >= 0) {
      int32_t taken = (int32_t)(t + 1) + ta, fall = (int32_t)(t + 1);
      /* PUSHI k; JMPF/JMPT: decided now. */
      if (op[0] == RG_OP_PUSHI && t == i + 1)
        EMIT(RG_OP_JMP, (a[0] == 0) == (top == RG_OP_JMPF) ? taken : fall, 0, 0, 1, 0);
      /* JMP to JMPF/JMPT: both ways at once. */
      if (op[0] == RG_OP_JMP && a[0] >= 0)
        EMIT(top == RG_OP_JMPF ? VM_JMPF2 : VM_JMPT2, taken, fall, 0, 1, 0);
    }
  }
  /* One instruction as it is; jumps get their absolute target (and JMPF and
  ** JMPT a flag in b when backward). */
  if (vm_operand[op[0]] == RG_A_JUMP) {
    int32_t t = (int32_t)(i + 1) + a[0];
    if (op[0] == RG_OP_JMP) EMIT(a[0] < 0 ? (uint32_t)VM_JMPB : op[0], t, 0, 0, 1, 0);
    EMIT(op[0], t, a[0] < 0, 0, 1, 0);
  }
  if (fuse && (op[0] == RG_OP_MAX || op[0] == RG_OP_MIN) && a[0] == 2)
    EMIT(op[0] == RG_OP_MAX ? VM_MAX2 : VM_MIN2, 0, 0, 0, 1, 0);
  EMIT(op[0], a[0], 0, 0, 1, 0);
#undef FWDJ
#undef EMIT
}

/* Stores in t[0..) the jump targets (fast indexes) of fast instruction x;
** returns how many. */
static int vm_targets(vm_ins *x, int32_t **t) {
  uint32_t op = x->op;
  if (op == RG_OP_JMP || op == VM_JMPB || op == RG_OP_JMPF || op == RG_OP_JMPT) { t[0] = &x->a; return 1; }
  if (op == VM_BRFL || op == VM_BRTL) { t[0] = &x->b; return 1; }
  if (op == VM_INCRJMPB || op == VM_FORLOOP || op == VM_LOOPLE_LK || op == VM_LOOPLT_LK) {
    t[0] = &x->c;
    return 1;
  }
  if (op == VM_JMPF2 || op == VM_JMPT2) { t[0] = &x->a; t[1] = &x->b; return 2; }
  if (op == VM_BRL2) { t[0] = &x->b; t[1] = &x->c; return 2; }
  if (op >= VM_BREQ_LL && op <= VM_BRGE_SS)
    switch ((op - VM_BREQ_LL) % 4) {
      case 0: case 1: t[0] = &x->c; return 1;
      case 2: t[0] = &x->b; return 1;
      default: t[0] = &x->a; return 1;
    }
  return 0;
}

/* Builds the VM's fast code from the module's (fused unless told not to).
** Returns 0, or -1 when out of memory. */
static int vm_build_fast(rg_vm *vm, int fuse) {
  const rg_module *m = vm->m;
  /* Procedures of a crafted module may share code: each gets its own copy. */
  uint64_t total = 1, longest = 1;
  for (uint32_t pi = 0; pi < m->nprocs; pi++) {
    total += m->procs[pi].ncode;
    if (m->procs[pi].ncode > longest) longest = m->procs[pi].ncode;
  }
  if (total > INT32_MAX) return -1;
  vm_ins *fcode = rg_malloc((size_t)total * sizeof(vm_ins));
  uint32_t *fmap = rg_malloc((size_t)total * sizeof(uint32_t));
  uint32_t *fentry = rg_malloc((m->nprocs ? m->nprocs : 1) * sizeof(uint32_t));
  uint64_t *fmagic = rg_malloc((size_t)total * sizeof(uint64_t));
  uint32_t *fidx = rg_malloc((size_t)longest * sizeof(uint32_t));
  unsigned char *tgt = rg_malloc((size_t)longest);
  if (!fcode || !fmap || !fentry || !fmagic || !fidx || !tgt) {
    rg_free(fmagic);
    rg_free(fcode);
    rg_free(fmap);
    rg_free(fentry);
    rg_free(fidx);
    rg_free(tgt);
    return -1;
  }
  uint32_t f = 0;
  for (uint32_t pi = 0; pi < m->nprocs; pi++) {
    const rg_proc *p = &m->procs[pi];
    const uint32_t *code = m->code + p->code;
    uint32_t n = p->ncode, first = f;
    memset(tgt, 0, n);
    for (uint32_t k = 0; k < n; k++)   /* the verifier keeps targets inside */
      if (vm_operand[RG_INS_OP(code[k])] == RG_A_JUMP) tgt[(int64_t)k + 1 + RG_INS_SA(code[k])] = 1;
    fentry[pi] = f;
    for (uint32_t k = 0; k < n;) {
      uint32_t prim;
      uint32_t len = vm_match(code, k, n, tgt, fuse, &fcode[f], &prim);
      fidx[k] = f;
      fmap[f++] = p->code + prim;
      k += len;
    }
    /* Jump targets (procedure-relative) to fast indexes: a target always
    ** starts a fast instruction. */
    for (uint32_t k = first; k < f; k++) {
      int32_t *t[2];
      for (int j = vm_targets(&fcode[k], t); j-- > 0;) *t[j] = (int32_t)fidx[*t[j]];
    }
  }
  /* A jump onto a (forward) JMP goes straight to the JMP's target. */
  for (uint32_t k = 0; fuse && k < f; k++) {
    int32_t *t[2];
    for (int j = vm_targets(&fcode[k], t); j-- > 0;)
      while (fcode[*t[j]].op == RG_OP_JMP) *t[j] = fcode[*t[j]].a;
  }
  /* Calls get their callee's entry in b; a loop's increment takes its test
  ** along; x mod k for a constant k >= 1 gets its multiplier. */
  for (uint32_t k = 0; k < f; k++) {
    vm_ins *x = &fcode[k];
    if (x->op == RG_OP_CALL) x->b = (int32_t)fentry[x->a];
    if (x->op == VM_INCRJMPB) {
      uint32_t top = fcode[x->c].op;
      x->op = top == VM_BRGT_LL ? VM_FORLOOP : top == VM_BRLE_LK ? VM_LOOPLE_LK
            : top == VM_BRLT_LK ? VM_LOOPLT_LK : VM_INCRJMPB;
    }
    int32_t d = x->op == VM_MOD_K || x->op == VM_MOD_KS ? x->a
              : x->op == VM_MOD_LK || x->op == VM_MOD_LKS ? x->b : 0;
    if (d >= 1) {
      x->op = x->op == VM_MOD_K ? VM_MODU_K : x->op == VM_MOD_LK ? VM_MODU_LK
            : x->op == VM_MOD_KS ? VM_MODU_KS : VM_MODU_LKS;
      fmagic[k] = UINT64_MAX / (uint64_t)d + 1;
    }
  }
  /* Jump targets relative to the jump (the dispatch loop needs no fcode). */
  for (uint32_t k = 0; k < f; k++) {
    int32_t *t[2];
    for (int j = vm_targets(&fcode[k], t); j-- > 0;) *t[j] -= (int32_t)k;
  }
  rg_free(fidx);
  rg_free(tgt);
  rg_free(vm->fcode);
  rg_free(vm->fmap);
  rg_free(vm->fentry);
  rg_free(vm->fmagic);
  vm->fmagic = fmagic;
  vm->fcode = fcode;
  vm->fmap = fmap;
  vm->fentry = fentry;
  return 0;
}

/* Creates a VM for the verified module m (borrowed; it must outlive the VM).
** Allocates the stack (room for RG_MAX_CALL_DEPTH of the largest frame, or
** half the memory limit if less) and the heap (the rest of the limit, at
** least the module's constant records).  Returns NULL when out of memory. */
rg_vm *rg_vm_new(const rg_module *m, const rg_limits *limits, const rg_sink *sink) {
  rg_vm *vm = rg_malloc(sizeof *vm);
  if (!vm) return NULL;
  memset(vm, 0, sizeof *vm);
  vm->m = m;
  if (sink) vm->sink = *sink;
  vm->max_steps = limits && limits->max_steps ? limits->max_steps : RG_DEFAULT_MAX_STEPS;
  size_t mem = limits && limits->max_memory ? limits->max_memory : RG_DEFAULT_MAX_MEMORY;
  size_t budget = mem / sizeof(rg_value);

  size_t frame = 1;
  for (uint32_t i = 0; i < m->nprocs; i++) {
    size_t f = (size_t)m->procs[i].nlocals + m->procs[i].max_stack;
    if (f > frame) frame = f;
  }
  size_t need = frame * RG_MAX_CALL_DEPTH;
  vm->nstack = need < budget / 2 ? need : budget / 2;
  if (vm->nstack < 1) vm->nstack = 1;
  vm->heap_cap = budget > vm->nstack ? budget - vm->nstack : 0;
  if (vm->heap_cap < m->nheap) vm->heap_cap = m->nheap;
  if (vm->heap_cap > UINT32_MAX) vm->heap_cap = UINT32_MAX;

  /* Each deck gets its own slice of the working cards (decks of a crafted
  ** module may share cards[] entries). */
  uint64_t ncards = 0;
  for (uint32_t d = 0; d < m->ndecks; d++) ncards += m->decks[d].count;
  if (ncards > UINT32_MAX || ncards > SIZE_MAX / sizeof(rg_value)) {
    rg_free(vm);
    return NULL;
  }

  vm->stack = rg_malloc(vm->nstack * sizeof(rg_value));
  vm->heap = rg_malloc((vm->heap_cap ? vm->heap_cap : 1) * sizeof(rg_value));
  vm->deck_cards = rg_malloc((ncards ? (size_t)ncards : 1) * sizeof(rg_value));
  vm->deck_off = rg_malloc((m->ndecks ? (size_t)m->ndecks : 1) * 2 * sizeof(uint32_t));
  vm->inputs = rg_malloc((m->ninputs ? (size_t)m->ninputs : 1) * sizeof(rg_value));
  vm->scratch = rg_malloc(RG_VM_SCRATCH * sizeof(rg_value));
  const char *nofuse = getenv("REGULA_NO_FUSION");
  int fuse = !(nofuse && *nofuse && strcmp(nofuse, "0") != 0);
  if (!vm->stack || !vm->heap || !vm->deck_cards || !vm->deck_off || !vm->inputs ||
      !vm->scratch || vm_build_fast(vm, fuse) != 0) {
    rg_vm_free(vm);
    return NULL;
  }
  vm->deck_left = vm->deck_off + m->ndecks;
  uint32_t off = 0;
  for (uint32_t d = 0; d < m->ndecks; d++) {
    vm->deck_off[d] = off;
    vm->deck_left[d] = 0;
    off += m->decks[d].count;
  }
  for (uint32_t k = 0; k < m->ninputs; k++) vm->inputs[k] = m->inputs[k].value;
  if (m->nheap) memcpy(vm->heap, m->heap, (size_t)m->nheap * sizeof(rg_value));
  vm->heap_top = m->nheap;
  rg_rng_stream(&vm->rng, 0, 0);
  return vm;
}

/* Rebuilds the fast code with or without superinstructions. */
int rg_vm_set_fusion(rg_vm *vm, int on) {
  return vm_build_fast(vm, on != 0);
}

/* Seeds the VM's generator as stream `stream` of `seed`. */
void rg_vm_seed(rg_vm *vm, uint64_t seed, uint64_t stream) {
  rg_rng_stream(&vm->rng, seed, stream);
}

/* Sets input `input` (ignored when out of range) to v for later calls. */
void rg_vm_set_input(rg_vm *vm, uint32_t input, rg_value v) {
  if (input < vm->m->ninputs) vm->inputs[input] = v;
}

/* Returns the cards left in deck `deck` (owned by the VM) and stores their
** count in *n; NULL and 0 when deck is out of range. */
const rg_value *rg_vm_deck_left(const rg_vm *vm, uint32_t deck, uint32_t *n) {
  if (deck >= vm->m->ndecks) {
    if (n) *n = 0;
    return NULL;
  }
  if (n) *n = vm->deck_left[deck];
  return vm->deck_cards + vm->deck_off[deck];
}

/* Fills every deck again from the module's cards (the start of a run).  A
** deck is only ever changed by a draw, which takes a card, so a deck with
** all its cards left is as it was filled and is skipped. */
static void vm_refill_decks(rg_vm *vm) {
  const rg_module *m = vm->m;
  for (uint32_t d = 0; d < m->ndecks; d++) {
    const rg_deck *dk = &m->decks[d];
    if (vm->deck_left[d] == dk->count) continue;
    memcpy(vm->deck_cards + vm->deck_off[d], m->cards + dk->first,
           (size_t)dk->count * sizeof(rg_value));
    vm->deck_left[d] = dk->count;
  }
}

/* Frees the VM, its stack and its heap (not the module). */
void rg_vm_free(rg_vm *vm) {
  if (!vm) return;
  rg_free(vm->stack);
  rg_free(vm->heap);
  rg_free(vm->deck_cards);
  rg_free(vm->deck_off);
  rg_free(vm->inputs);
  rg_free(vm->scratch);
  rg_free(vm->fcode);
  rg_free(vm->fmap);
  rg_free(vm->fentry);
  rg_free(vm->fmagic);
  rg_free(vm);
}

/* Returns the message of the last failed call and stores in *pc (when not
** NULL) the code index of the instruction that failed.  The string is owned
** by the VM. */
const char *rg_vm_error(const rg_vm *vm, uint32_t *pc) {
  if (pc) *pc = vm->err_pc;
  return vm->err;
}

/* Returns the heap (owned by the VM) and stores its live size in *size. */
const rg_value *rg_vm_heap(const rg_vm *vm, uint32_t *size) {
  if (size) *size = vm->heap_top;
  return vm->heap;
}

/* Records a run error at code index pc; returns status. */
static rg_status vm_fail(rg_vm *vm, rg_status status, uint32_t pc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(vm->err, sizeof vm->err, fmt, ap);
  va_end(ap);
  vm->err_pc = pc;
  return status;
}

/* ---- checked arithmetic ------------------------------------------------- */

#if defined(__GNUC__)
#define add_ovf(a, b, r) __builtin_add_overflow(a, b, r)
#define sub_ovf(a, b, r) __builtin_sub_overflow(a, b, r)
#define mul_ovf(a, b, r) __builtin_mul_overflow(a, b, r)
#define popcount64(x)    __builtin_popcountll(x)
#define likely(x)        __builtin_expect(!!(x), 1)
#define unlikely(x)      __builtin_expect(!!(x), 0)
#else
/* Portable fallbacks: each returns 1 on overflow, else stores the result. */
static int add_ovf(int64_t a, int64_t b, int64_t *r) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return 1;
  *r = a + b; return 0;
}
/* *r = a - b; returns 1 (r untouched) when that overflows int64. */
static int sub_ovf(int64_t a, int64_t b, int64_t *r) {
  if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b)) return 1;
  *r = a - b; return 0;
}
/* *r = a * b; returns 1 (r untouched) when that overflows int64. */
static int mul_ovf(int64_t a, int64_t b, int64_t *r) {
  if (a == 0 || b == 0) { *r = 0; return 0; }
  if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN)) return 1;
  if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
            : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b)) return 1;
  *r = a * b; return 0;
}
/* Returns the number of bits set in x. */
static int popcount64(uint64_t x) {
  int n = 0;
  while (x) { x &= x - 1; n++; }
  return n;
}
#define likely(x)   (x)
#define unlikely(x) (x)
#endif

/* ---- chance and lists ----------------------------------------------------- */

/* Picks one of n equally likely outcomes (n >= 1) of a roll or draw: asks
** sink.chance when it is set (what and index as vm.h says), else the VM's
** generator.  Returns the outcome in 0..n-1, or -1 when the callback gave
** none or one out of range. */
static inline int64_t vm_chance(rg_vm *vm, int what, uint32_t index, uint64_t n, uint32_t pc) {
  if (likely(!vm->sink.chance)) return (int64_t)rg_rng_below(&vm->rng, n);
  int64_t r = vm->sink.chance(vm->sink.ctx, vm->m, what, index, n, pc);
  if (r < 0 || (uint64_t)r >= n) return -1;
  return r;
}

/* Rolls n plain dice of `sides` sides into out[0..n) (each 1..sides).
** Returns 0, or -1 when the chance callback gave no result. */
static int vm_roll_plain(rg_vm *vm, uint32_t sides, uint32_t n, rg_value *out, uint32_t pc) {
  for (uint32_t k = 0; k < n; k++) {
    int64_t r = vm_chance(vm, 'd', sides, sides, pc);
    if (r < 0) return -1;
    out[k] = r + 1;
  }
  return 0;
}

/* Checks that r is the offset of a list lying wholly inside the live heap
** (its length word and every element).  Returns a pointer to its first
** element and stores its length in *len, or returns NULL. */
static const rg_value *vm_list(const rg_vm *vm, rg_value r, uint32_t *len) {
  uint32_t top = vm->heap_top;
  if (r < 0 || (uint64_t)r >= top) return NULL;
  rg_value n = vm->heap[r];
  if (n < 0 || (uint64_t)n > (uint64_t)top - (uint64_t)r - 1) return NULL;
  *len = (uint32_t)n;
  return vm->heap + r + 1;
}

/* Reserves a new list of n elements at the top of the heap and writes its
** length word; the caller fills the elements.  Returns its offset, or -1
** when the heap is full. */
static int64_t vm_new_list(rg_vm *vm, uint64_t n) {
  uint32_t top = vm->heap_top;
  if ((uint64_t)top + 1 + n > vm->heap_cap) return -1;
  vm->heap[top] = (rg_value)n;
  vm->heap_top = top + 1 + (uint32_t)n;
  return top;
}

/* Whether b goes before a in the order: least first, or greatest first
** when desc.  Equal values never do, which keeps the sorts stable. */
#define VM_BEFORE(b, a, desc) ((desc) ? (b) > (a) : (b) < (a))

/* Sorts a[0..n) stably, least first (greatest first when desc).  With tmp
** (room for n values) a bottom-up merge sort; without, an insertion sort.
** Uses no global state. */
static void vm_sort(rg_value *a, uint32_t n, rg_value *tmp, int desc) {
  if (!tmp) {
    for (uint32_t k = 1; k < n; k++) {
      rg_value x = a[k];
      uint32_t j = k;
      while (j > 0 && VM_BEFORE(x, a[j - 1], desc)) { a[j] = a[j - 1]; j--; }
      a[j] = x;
    }
    return;
  }
  rg_value *src = a, *dst = tmp;
  for (uint64_t w = 1; w < n; w *= 2) {
    for (uint64_t lo = 0; lo < n; lo += 2 * w) {
      uint64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      uint64_t l = lo, r = mid, o = lo;
      while (l < mid && r < hi) dst[o++] = VM_BEFORE(src[r], src[l], desc) ? src[r++] : src[l++];
      while (l < mid) dst[o++] = src[l++];
      while (r < hi) dst[o++] = src[r++];
    }
    rg_value *t = src; src = dst; dst = t;
  }
  if (src != a) memcpy(a, src, (size_t)n * sizeof(rg_value));
}

/* ---- dispatch ------------------------------------------------------------- */

/* pc points at the instruction being executed: vmbreak goes on to the
** next one, vmjump(t) to fast instruction t (a pointer into the fast code). */
#if defined(__GNUC__) && !defined(RG_VM_SWITCH)
#define vmdispatch(o)  goto *disptab[o];
#define vmcase(l)      L_##l:
#define vmbreak        do { pc++; goto *disptab[pc->op]; } while (0)
#define vmjump(t)      do { pc = (t); goto *disptab[pc->op]; } while (0)
#else
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-label"
#endif
#define vmdispatch(o)  switch (o)
#define vmcase(l)      case l: L_##l:
#define vmbreak        do { pc++; goto vm_top; } while (0)
#define vmjump(t)      do { pc = (t); goto vm_top; } while (0)
#endif

/* The operands of the instruction being executed. */
#define IA             (pc->a)
#define IB             (pc->b)
#define IC             (pc->c)

/* Module pc of the instruction being executed (of the one that may fail,
** for a superinstruction), and d instructions after it. */
#define PCIDX()        (FMAP[pc - FCODE])
#define PCAT(d)        (FMAP[pc - FCODE] + (d))

/* Leaves the loop with an error at the current instruction. */
#define RTERR(...)     do { return vm_fail(vm, RG_RUN_ERROR, PCIDX(), __VA_ARGS__); } while (0)
#define RTERR_AT(d, ...) do { return vm_fail(vm, RG_RUN_ERROR, PCAT(d), __VA_ARGS__); } while (0)
#define RTLIMIT(...)   do { return vm_fail(vm, RG_RUN_LIMIT, PCIDX(), __VA_ARGS__); } while (0)

/* Counts one step (a backward jump or a call) against the limit. */
/* Checks that v is a list inside the live heap: sets ptr and len, else
** leaves with an error. */
#define LISTARG(v, ptr, len) do { if (unlikely(!((ptr) = vm_list(vm, (v), &(len))))) \
                              RTERR("list %lld outside the heap (size %u)", (long long)(v), \
                                    (unsigned)vm->heap_top); } while (0)

/* Reserves a new list of n elements (offset in l), else the memory limit. */
#define NEWLIST(l, n)  do { if (unlikely(((l) = vm_new_list(vm, (n))) < 0)) RTLIMIT("memory limit"); } while (0)

#define STEP_AT(d)     do { if (unlikely(steps_left-- == 0)) \
                              return vm_fail(vm, RG_RUN_LIMIT, PCAT(d), "step limit of %llu reached", \
                                             (unsigned long long)MAX_STEPS); } while (0)
#define STEP()         STEP_AT(0)

/* Binary operators on x and y into r, with their runtime errors. */
#define VM_DO_ADD(x, y, r) do { if (unlikely(add_ovf((x), (y), &(r)))) RTERR("integer overflow"); } while (0)
#define VM_DO_SUB(x, y, r) do { if (unlikely(sub_ovf((x), (y), &(r)))) RTERR("integer overflow"); } while (0)
#define VM_DO_MUL(x, y, r) do { if (unlikely(mul_ovf((x), (y), &(r)))) RTERR("integer overflow"); } while (0)
#define VM_DO_DIV(x, y, r) do { rg_value x_ = (x), y_ = (y); \
    if (unlikely(y_ == 0)) RTERR("division by zero"); \
    if (unlikely(y_ == -1 && x_ == INT64_MIN)) RTERR("integer overflow"); \
    (r) = x_ / y_; } while (0)
#define VM_DO_MOD(x, y, r) do { rg_value x_ = (x), y_ = (y); \
    if (unlikely(y_ == 0)) RTERR("division by zero"); \
    (r) = y_ == -1 ? 0 : x_ % y_; } while (0)
#define VM_DO_EQ(x, y, r) ((r) = (x) == (y))
#define VM_DO_NE(x, y, r) ((r) = (x) != (y))
#define VM_DO_LT(x, y, r) ((r) = (x) < (y))
#define VM_DO_LE(x, y, r) ((r) = (x) <= (y))
#define VM_DO_GT(x, y, r) ((r) = (x) > (y))
#define VM_DO_GE(x, y, r) ((r) = (x) >= (y))

/* The eight fused forms of binary operator o (see vm_fop). */
#define VM_BINOP_CASES(o) \
  vmcase(VM_##o##_K)   { rg_value r_; VM_DO_##o(sp[-1], (rg_value)IA, r_); sp[-1] = r_; vmbreak; } \
  vmcase(VM_##o##_L)   { rg_value r_; VM_DO_##o(sp[-1], base[IA], r_); sp[-1] = r_; vmbreak; } \
  vmcase(VM_##o##_LK)  { rg_value r_; VM_DO_##o(base[IA], (rg_value)IB, r_); *sp++ = r_; vmbreak; } \
  vmcase(VM_##o##_LL)  { rg_value r_; VM_DO_##o(base[IA], base[IB], r_); *sp++ = r_; vmbreak; } \
  vmcase(VM_##o##_LKS) { rg_value r_; VM_DO_##o(base[IA], (rg_value)IB, r_); base[IC] = r_; vmbreak; } \
  vmcase(VM_##o##_LLS) { rg_value r_; VM_DO_##o(base[IA], base[IB], r_); base[IC] = r_; vmbreak; } \
  vmcase(VM_##o##_S)   { rg_value r_; VM_DO_##o(sp[-2], sp[-1], r_); sp -= 2; base[IA] = r_; vmbreak; } \
  vmcase(VM_##o##_KS)  { rg_value r_; VM_DO_##o(sp[-1], (rg_value)IA, r_); sp--; base[IB] = r_; vmbreak; }

/* x mod k into r, for a constant k >= 1 with multiplier fmagic (Lemire's
** fastmod) when 0 <= x < 2^32; the sign of x otherwise, like MOD. */
#define VM_FASTMOD(x, k, r) do { rg_value x_ = (x); \
    if (likely((uint64_t)x_ <= UINT32_MAX)) \
      (r) = (rg_value)(uint64_t)(((__uint128_t)(FMAGIC[pc - FCODE] * (uint64_t)x_) * (uint64_t)(k)) >> 64); \
    else (r) = x_ % (rg_value)(k); } while (0)

/* The four compare-and-branch forms of comparison o (operator cmp). */
#define VM_BR_CASES(o, cmp) \
  vmcase(VM_BR##o##_LL) { if (base[IA] cmp base[IB]) vmjump(pc + IC); vmbreak; } \
  vmcase(VM_BR##o##_LK) { if (base[IA] cmp (rg_value)IB) vmjump(pc + IC); vmbreak; } \
  vmcase(VM_BR##o##_SK) { sp--; if (sp[0] cmp (rg_value)IA) vmjump(pc + IB); vmbreak; } \
  vmcase(VM_BR##o##_SS) { sp -= 2; if (sp[0] cmp sp[1]) vmjump(pc + IA); vmbreak; }

/* Runs procedure proc of the VM's module with args[0..nparams) (may be NULL
** when it has none); stores its result, if any, in *result (may be NULL).
** Resets the heap to the module's constants first.  Allocates nothing.
** Returns RG_RUN_OK, or RG_RUN_ERROR / RG_RUN_LIMIT with rg_vm_error set. */
/* What the dispatch loop reads through vm, not from locals of its own: the
** fewer locals, the likelier pc, sp, base and the dispatch table stay in
** registers (GCC spills otherwise). */
#define K          (m->consts)
#define H          (vm->heap)
#define STACK_END  (vm->stack + vm->nstack)
#define MAX_STEPS  (vm->max_steps)
#define FCODE      (vm->fcode)
#define FMAP       (vm->fmap)
#define FMAGIC     (vm->fmagic)

/* GCC's global common subexpression elimination hoists loads out of the
** handlers into spilled locals and keeps pc and base out of registers in a
** computed-goto loop (GCC's manual says as much for -fno-gcse): off here. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-gcse")))
#endif
rg_status rg_vm_call(rg_vm *vm, uint32_t proc, const rg_value *args, rg_value *result) {
  const rg_module *m = vm->m;
  uint64_t steps_left = MAX_STEPS;   /* steps (backward jumps, calls) still allowed */
  int depth = 0;

  vm->err[0] = '\0';
  vm->err_pc = 0;
  vm->heap_top = m->nheap;
  vm_refill_decks(vm);
  if (proc >= m->nprocs)
    return vm_fail(vm, RG_RUN_ERROR, 0, "no procedure %u", (unsigned)proc);
  const rg_proc *p = &m->procs[proc];
  if ((size_t)p->nlocals + p->max_stack > vm->nstack)
    return vm_fail(vm, RG_RUN_LIMIT, p->code, "memory limit");
  rg_value *base = vm->stack;
  for (uint32_t k = 0; k < p->nparams; k++) base[k] = args ? args[k] : 0;
  for (uint32_t k = p->nparams; k < p->nlocals; k++) base[k] = 0;
  rg_value *sp = base + p->nlocals;
  const vm_ins *pc = FCODE + vm->fentry[proc];

#if defined(__GNUC__) && !defined(RG_VM_SWITCH)
  static const void *const disptab[VM_NFOPS] = {
#define RG_X(name, operand, pops, pushes, doc) &&L_RG_OP_##name,
    RG_OPCODES(RG_X)
#undef RG_X
#define VM_X(o) &&L_VM_##o##_K, &&L_VM_##o##_L, &&L_VM_##o##_LK, &&L_VM_##o##_LL, \
                &&L_VM_##o##_LKS, &&L_VM_##o##_LLS, &&L_VM_##o##_S, &&L_VM_##o##_KS,
    VM_BINOPS(VM_X)
#undef VM_X
#define VM_X(o) &&L_VM_BR##o##_LL, &&L_VM_BR##o##_LK, &&L_VM_BR##o##_SK, &&L_VM_BR##o##_SS,
    VM_CMPS(VM_X)
#undef VM_X
    &&L_VM_JMPB, &&L_VM_MOVK, &&L_VM_MOV, &&L_VM_BRFL, &&L_VM_BRTL, &&L_VM_ROLLK,
    &&L_VM_ROLLAT_LL, &&L_VM_RETL, &&L_VM_CLAMPK, &&L_VM_LOOKUP_LL, &&L_VM_INCRJMPB,
    &&L_VM_FORLOOP, &&L_VM_DRAWAPPEND, &&L_VM_ITEM_LL, &&L_VM_JMPF2, &&L_VM_JMPT2,
    &&L_VM_MAX2, &&L_VM_MIN2, &&L_VM_MODU_K, &&L_VM_MODU_LK, &&L_VM_MODU_LKS,
    &&L_VM_MODU_KS, &&L_VM_LISTADD, &&L_VM_ABS_L, &&L_VM_BRL2, &&L_VM_LOOPLE_LK,
    &&L_VM_LOOPLT_LK,
  };
#endif

  for (;;) {
#if !defined(__GNUC__) || defined(RG_VM_SWITCH)
  vm_top:
#endif
    vmdispatch(pc->op) {

      /* Opcode NOP: Does nothing. */
      vmcase(RG_OP_NOP) {
        vmbreak;
      }

      /* Opcode PUSHI sA: push the sign-extended immediate sA. */
      vmcase(RG_OP_PUSHI) {
        *sp++ = IA;
        vmbreak;
      }

      /* Opcode CONST A: push K[A]. */
      vmcase(RG_OP_CONST) {
        *sp++ = K[((uint32_t)IA)];
        vmbreak;
      }

      /* Opcode LOAD A: push L[A]. */
      vmcase(RG_OP_LOAD) {
        *sp++ = base[((uint32_t)IA)];
        vmbreak;
      }

      /* Opcode STORE A: L[A] := pop. */
      vmcase(RG_OP_STORE) {
        base[((uint32_t)IA)] = *--sp;
        vmbreak;
      }

      /* Opcode POP: drop the top value. */
      vmcase(RG_OP_POP) {
        sp--;
        vmbreak;
      }

      /* Opcode ADD: a b -> a + b; overflow is a runtime error. */
      vmcase(RG_OP_ADD) {
        if (unlikely(add_ovf(sp[-2], sp[-1], &sp[-2]))) RTERR("integer overflow");
        sp--;
        vmbreak;
      }

      /* Opcode SUB: a b -> a - b; overflow is a runtime error. */
      vmcase(RG_OP_SUB) {
        if (unlikely(sub_ovf(sp[-2], sp[-1], &sp[-2]))) RTERR("integer overflow");
        sp--;
        vmbreak;
      }

      /* Opcode MUL: a b -> a * b; overflow is a runtime error. */
      vmcase(RG_OP_MUL) {
        if (unlikely(mul_ovf(sp[-2], sp[-1], &sp[-2]))) RTERR("integer overflow");
        sp--;
        vmbreak;
      }

      /* Opcode DIV: a b -> a / b rounded toward zero; b == 0 is "division by
      ** zero", INT64_MIN / -1 is "integer overflow". */
      vmcase(RG_OP_DIV) {
        rg_value a = sp[-2], b = sp[-1];
        if (unlikely(b == 0)) RTERR("division by zero");
        if (unlikely(b == -1 && a == INT64_MIN)) RTERR("integer overflow");
        sp[-2] = a / b;
        sp--;
        vmbreak;
      }

      /* Opcode MOD: a b -> a mod b with the sign of a; b == 0 is "division
      ** by zero". */
      vmcase(RG_OP_MOD) {
        rg_value a = sp[-2], b = sp[-1];
        if (unlikely(b == 0)) RTERR("division by zero");
        sp[-2] = b == -1 ? 0 : a % b;
        sp--;
        vmbreak;
      }

      /* Opcode NEG: a -> -a; -INT64_MIN is "integer overflow". */
      vmcase(RG_OP_NEG) {
        if (unlikely(sp[-1] == INT64_MIN)) RTERR("integer overflow");
        sp[-1] = -sp[-1];
        vmbreak;
      }

      /* Opcode NOT: a -> !a. */
      vmcase(RG_OP_NOT) {
        sp[-1] = !sp[-1];
        vmbreak;
      }

      /* Opcodes EQ NE LT LE GT GE: a b -> 1 when the comparison holds, else 0. */
      vmcase(RG_OP_EQ) { sp[-2] = sp[-2] == sp[-1]; sp--; vmbreak; }
      vmcase(RG_OP_NE) { sp[-2] = sp[-2] != sp[-1]; sp--; vmbreak; }
      vmcase(RG_OP_LT) { sp[-2] = sp[-2] < sp[-1]; sp--; vmbreak; }
      vmcase(RG_OP_LE) { sp[-2] = sp[-2] <= sp[-1]; sp--; vmbreak; }
      vmcase(RG_OP_GT) { sp[-2] = sp[-2] > sp[-1]; sp--; vmbreak; }
      vmcase(RG_OP_GE) { sp[-2] = sp[-2] >= sp[-1]; sp--; vmbreak; }

      /* Opcode JMP: a forward jump to fast index A (backward ones are JMPB). */
      vmcase(RG_OP_JMP) {
        vmjump(pc + IA);
      }

      /* JMPB: a backward jump to fast index A; counts one step. */
      vmcase(VM_JMPB) {
        STEP();
        vmjump(pc + IA);
      }

      /* Opcode JMPF: if pop is 0 then go to fast index A (a backward jump,
      ** B set, counts a step). */
      vmcase(RG_OP_JMPF) {
        if (!*--sp) {
          if (IB) STEP();
          vmjump(pc + IA);
        }
        vmbreak;
      }

      /* Opcode JMPT: if pop is not 0 then go to fast index A (a backward
      ** jump, B set, counts a step). */
      vmcase(RG_OP_JMPT) {
        if (*--sp) {
          if (IB) STEP();
          vmjump(pc + IA);
        }
        vmbreak;
      }

      /* ---- superinstructions (see vm_fop) ---- */
      VM_BINOPS(VM_BINOP_CASES)
      VM_BR_CASES(EQ, ==)
      VM_BR_CASES(NE, !=)
      VM_BR_CASES(LT, <)
      VM_BR_CASES(LE, <=)
      VM_BR_CASES(GT, >)
      VM_BR_CASES(GE, >=)

      vmcase(VM_MOVK) { base[IA] = IB; vmbreak; }
      vmcase(VM_MOV) { base[IB] = base[IA]; vmbreak; }
      vmcase(VM_BRFL) { if (!base[IA]) vmjump(pc + IB); vmbreak; }
      vmcase(VM_BRTL) { if (base[IA]) vmjump(pc + IB); vmbreak; }
      vmcase(VM_ROLLK) { *sp++ = IB; goto L_RG_OP_ROLL; }
      vmcase(VM_ROLLAT_LL) { sp[0] = base[IB]; sp[1] = base[IC]; sp += 2; goto L_RG_OP_ROLLAT; }
      vmcase(VM_LOOKUP_LL) { sp[0] = base[IB]; sp[1] = base[IC]; sp += 2; goto L_RG_OP_LOOKUP; }
      vmcase(VM_RETL) { *sp++ = base[IA]; goto L_RG_OP_RET; }
      vmcase(VM_CLAMPK) {
        rg_value x = sp[-1];
        sp[-1] = x < IA ? IA : x > IB ? IB : x;
        vmbreak;
      }

      /* L[a] += b, then the backward jump to c (a step, at the JMP). */
      vmcase(VM_INCRJMPB) {
        rg_value r_;
        VM_DO_ADD(base[IA], (rg_value)IB, r_);
        base[IA] = r_;
        STEP_AT(2);
        vmjump(pc + IC);
      }

      /* INCRJMPB, then the loop's test (BRGT_LL at c) in place. */
      vmcase(VM_FORLOOP) {
        rg_value r_;
        VM_DO_ADD(base[IA], (rg_value)IB, r_);
        base[IA] = r_;
        STEP_AT(2);
        const vm_ins *h = pc + IC;
        if (base[h->a] > base[h->b]) vmjump(h + h->c);
        vmjump(h + 1);
      }

      vmcase(VM_DRAWAPPEND) { *sp++ = base[IB]; goto L_RG_OP_DRAW; }
      vmcase(VM_ITEM_LL) { sp[0] = base[IA]; sp[1] = base[IB]; sp += 2; goto L_RG_OP_ITEM; }
      vmcase(VM_JMPF2) { vmjump(pc + (*--sp ? IB : IA)); }
      vmcase(VM_JMPT2) { vmjump(pc + (*--sp ? IA : IB)); }
      vmcase(VM_MAX2) { sp--; if (sp[0] > sp[-1]) sp[-1] = sp[0]; vmbreak; }
      vmcase(VM_MIN2) { sp--; if (sp[0] < sp[-1]) sp[-1] = sp[0]; vmbreak; }
      vmcase(VM_MODU_K) { VM_FASTMOD(sp[-1], IA, sp[-1]); vmbreak; }
      vmcase(VM_MODU_LK) { VM_FASTMOD(base[IA], IB, *sp); sp++; vmbreak; }
      vmcase(VM_MODU_LKS) { VM_FASTMOD(base[IA], IB, base[IC]); vmbreak; }
      vmcase(VM_MODU_KS) { VM_FASTMOD(sp[-1], IA, base[IB]); sp--; vmbreak; }

      /* |L[a]|: the error of ABS (+1). */
      vmcase(VM_ABS_L) {
        rg_value a = base[IA];
        if (unlikely(a == INT64_MIN)) RTERR("integer overflow");
        *sp++ = a < 0 ? -a : a;
        vmbreak;
      }

      vmcase(VM_BRL2) { vmjump(pc + (base[IA] ? IB : IC)); }

      /* INCRJMPB, then the loop's test (BRLE_LK or BRLT_LK at c) in place. */
      vmcase(VM_LOOPLE_LK) {
        rg_value r_;
        VM_DO_ADD(base[IA], (rg_value)IB, r_);
        base[IA] = r_;
        STEP_AT(2);
        const vm_ins *h = pc + IC;
        if (base[h->a] <= (rg_value)h->b) vmjump(h + h->c);
        vmjump(h + 1);
      }
      vmcase(VM_LOOPLT_LK) {
        rg_value r_;
        VM_DO_ADD(base[IA], (rg_value)IB, r_);
        base[IA] = r_;
        STEP_AT(2);
        const vm_ins *h = pc + IC;
        if (base[h->a] < (rg_value)h->b) vmjump(h + h->c);
        vmjump(h + 1);
      }

      /* list L[a], element L[b] += c in place: the errors of ITEM (here),
      ** ADD (+2) and SETITEM (+3), in that order. */
      vmcase(VM_LISTADD) {
        const rg_value *e;
        uint32_t n;
        rg_value l = base[IA], k = base[IB], r_;
        LISTARG(l, e, n);
        if (unlikely(k < 0 || k >= (rg_value)n))
          RTERR("index %lld outside the list of %u", (long long)k, (unsigned)n);
        if (unlikely(add_ovf(e[k], (rg_value)IC, &r_))) RTERR_AT(2, "integer overflow");
        if (unlikely(l < (rg_value)m->nheap)) RTERR_AT(3, "a constant list cannot be changed");
        H[l + 1 + k] = r_;
        vmbreak;
      }

      /* Opcode LOOKUP A: k1 .. kn -> T[A][k1, .., kn].  Each key must lie in
      ** its dimension, else "key K outside LO..HI of table 'NAME'". */
      vmcase(RG_OP_LOOKUP) {
        const rg_table *t = &m->tables[((uint32_t)IA)];
        const rg_dim *d = &m->dims[t->first_dim];
        uint32_t n = t->ndims;
        rg_value *keys = sp - n;
        uint64_t idx = 0;
        for (uint32_t k = 0; k < n; k++) {
          rg_value key = keys[k];
          rg_value hi = d[k].lo + (rg_value)(d[k].size - 1);
          if (unlikely(key < d[k].lo || key > hi))
            RTERR("key %lld outside %lld..%lld of table '%s'", (long long)key,
                  (long long)d[k].lo, (long long)hi, rg_module_str(m, t->name));
          idx = idx * d[k].size + (uint64_t)(key - d[k].lo);
        }
        sp = keys;
        *sp++ = m->cells[t->first + idx];
        vmbreak;
      }

      /* Opcode FIELD A: r -> H[r + A]; r + A must lie in the live heap. */
      vmcase(RG_OP_FIELD) {
        rg_value r = sp[-1];
        uint32_t a = ((uint32_t)IA);
        uint32_t top = vm->heap_top;
        if (unlikely(r < 0 || (uint64_t)r >= top || a >= top - (uint64_t)r))
          RTERR("record field %lld+%u outside the heap (size %u)", (long long)r,
                (unsigned)a, (unsigned)top);
        sp[-1] = H[r + a];
        vmbreak;
      }

      /* Opcode INSET: member set -> 1 when bit member of set is set; the
      ** member must be 0..63. */
      vmcase(RG_OP_INSET) {
        rg_value e = sp[-2];
        if (unlikely(e < 0 || e > 63)) RTERR("set member %lld outside 0..63", (long long)e);
        sp[-2] = (rg_value)(((uint64_t)sp[-1] >> e) & 1u);
        sp--;
        vmbreak;
      }

      /* Opcode SETADD: set member -> set with member added (0..63). */
      vmcase(RG_OP_SETADD) {
        rg_value e = sp[-1];
        if (unlikely(e < 0 || e > 63)) RTERR("set member %lld outside 0..63", (long long)e);
        sp[-2] = (rg_value)((uint64_t)sp[-2] | ((uint64_t)1 << e));
        sp--;
        vmbreak;
      }

      /* Opcodes UNION INTER DIFF: a b -> a | b, a & b, a & ~b. */
      vmcase(RG_OP_UNION) { sp[-2] = sp[-2] | sp[-1]; sp--; vmbreak; }
      vmcase(RG_OP_INTER) { sp[-2] = sp[-2] & sp[-1]; sp--; vmbreak; }
      vmcase(RG_OP_DIFF)  { sp[-2] = sp[-2] & ~sp[-1]; sp--; vmbreak; }

      /* Opcode COUNT: set -> its number of members. */
      vmcase(RG_OP_COUNT) {
        sp[-1] = popcount64((uint64_t)sp[-1]);
        vmbreak;
      }

      /* Opcode MIN A: v1 .. vA -> the least of them (A >= 1). */
      vmcase(RG_OP_MIN) {
        uint32_t n = ((uint32_t)IA);
        sp -= n;
        rg_value v = sp[0];
        for (uint32_t k = 1; k < n; k++) if (sp[k] < v) v = sp[k];
        *sp++ = v;
        vmbreak;
      }

      /* Opcode MAX A: v1 .. vA -> the greatest of them (A >= 1). */
      vmcase(RG_OP_MAX) {
        uint32_t n = ((uint32_t)IA);
        sp -= n;
        rg_value v = sp[0];
        for (uint32_t k = 1; k < n; k++) if (sp[k] > v) v = sp[k];
        *sp++ = v;
        vmbreak;
      }

      /* Opcode CLAMP: x lo hi -> lo when x < lo, hi when x > hi, else x. */
      vmcase(RG_OP_CLAMP) {
        rg_value x = sp[-3], lo = sp[-2], hi = sp[-1];
        sp[-3] = x < lo ? lo : x > hi ? hi : x;
        sp -= 2;
        vmbreak;
      }

      /* Opcode ABS: a -> |a|; |INT64_MIN| is "integer overflow". */
      vmcase(RG_OP_ABS) {
        rg_value a = sp[-1];
        if (unlikely(a == INT64_MIN)) RTERR("integer overflow");
        sp[-1] = a < 0 ? -a : a;
        vmbreak;
      }

      /* Opcode MKREC A: f1 .. fn -> offset of a new record of type A on the
      ** heap; a full heap is the "memory limit". */
      vmcase(RG_OP_MKREC) {
        uint32_t n = m->records[((uint32_t)IA)].count;
        uint32_t top = vm->heap_top;
        if (unlikely((uint64_t)top + n > vm->heap_cap)) RTLIMIT("memory limit");
        sp -= n;
        memcpy(H + top, sp, (size_t)n * sizeof(rg_value));
        vm->heap_top = top + n;
        *sp++ = top;
        vmbreak;
      }

      /* Opcode CALL A: call procedure A; its parameters, on the stack, become
      ** its first locals.  Counts a step; depth beyond RG_MAX_CALL_DEPTH is
      ** the "call depth limit", a frame that does not fit the "memory limit". */
      vmcase(RG_OP_CALL) {
        uint32_t callee = ((uint32_t)IA);
        const rg_proc *q = &m->procs[callee];
        STEP();
        if (unlikely(depth + 1 >= RG_MAX_CALL_DEPTH)) RTLIMIT("call depth limit");
        rg_value *nbase = sp - q->nparams;
        if (unlikely((size_t)(STACK_END - nbase) < (size_t)q->nlocals + q->max_stack))
          RTLIMIT("memory limit");
        rg_frame *f = &vm->frames[depth++];
        f->pc = pc + 1;
        f->base = base;
        f->proc = proc;
        for (rg_value *l = sp, *e = nbase + q->nlocals; l < e; l++) *l = 0;
        base = nbase;
        sp = base + q->nlocals;
        proc = callee;
        vmjump(vm->fcode + IB);
      }

      /* Opcode RET: return pop to the caller (or to rg_vm_call's *result). */
      vmcase(RG_OP_RET) {
        rg_value v = sp[-1];
        if (depth == 0) {
          if (result) *result = v;
          return RG_RUN_OK;
        }
        sp = base;
        *sp++ = v;
        rg_frame *f = &vm->frames[--depth];
        base = f->base;
        proc = f->proc;
        vmjump(f->pc);
      }

      /* Opcode RETV: return without a value. */
      vmcase(RG_OP_RETV) {
        if (depth == 0) return RG_RUN_OK;
        sp = base;
        rg_frame *f = &vm->frames[--depth];
        base = f->base;
        proc = f->proc;
        vmjump(f->pc);
      }

      /* Opcode NOTE A: v1 .. vn -> (nothing); reports note A with its values
      ** to the sink. */
      vmcase(RG_OP_NOTE) {
        uint32_t a = ((uint32_t)IA);
        sp -= m->notes[a].nvals;
        if (vm->sink.note) vm->sink.note(vm->sink.ctx, m, a, sp, PCIDX());
        vmbreak;
      }

      /* Opcode SHAPE A: v1..vn -> (nothing); reports shape A (a note entry:
      ** its text is the kind of shape) with its n values to the sink. */
      vmcase(RG_OP_SHAPE) {
        uint32_t a = ((uint32_t)IA);
        sp -= m->notes[a].nvals;
        if (vm->sink.shape) vm->sink.shape(vm->sink.ctx, m, a, sp, PCIDX());
        vmbreak;
      }

      /* Opcode EXPECT A: v -> (nothing); when v is 0, reports expectation A
      ** failed (actual 0, expected 1) and goes on. */
      vmcase(RG_OP_EXPECT) {
        if (!*--sp && vm->sink.expect_fail)
          vm->sink.expect_fail(vm->sink.ctx, m, ((uint32_t)IA), 0, 1, PCIDX());
        vmbreak;
      }

      /* Opcode EXPECTEQ A: a b -> (nothing); when a != b, reports expectation
      ** A failed (actual a, expected b) and goes on. */
      vmcase(RG_OP_EXPECTEQ) {
        rg_value a = sp[-2], b = sp[-1];
        sp -= 2;
        if (a != b && vm->sink.expect_fail)
          vm->sink.expect_fail(vm->sink.ctx, m, ((uint32_t)IA), a, b, PCIDX());
        vmbreak;
      }

      /* Opcode SETLIST: set -> a new list of its members' indexes, in
      ** declaration order. */
      vmcase(RG_OP_SETLIST) {
        uint64_t set = (uint64_t)sp[-1];
        int64_t l;
        NEWLIST(l, (uint64_t)popcount64(set));
        rg_value *e = H + l + 1;
        for (int k = 0; k < 64; k++)
          if ((set >> k) & 1u) *e++ = k;
        sp[-1] = l;
        vmbreak;
      }

      /* Opcode ROLL A: n -> the sum of n dice of A sides (each 1..A); n must
      ** be 0..1000, else "cannot roll N dice".  Reports the roll (die -1). */
      vmcase(RG_OP_ROLL) {
        uint32_t sides = ((uint32_t)IA);
        rg_value n = sp[-1];
        if (unlikely(n < 0 || n > RG_VM_SCRATCH)) RTERR("cannot roll %lld dice", (long long)n);
        if (likely(!vm->sink.chance && !vm->sink.roll)) {
          /* Nobody watches: sum straight from the generator. */
          rg_value sum = n;
          for (rg_value k = 0; k < n; k++) sum += (rg_value)rg_rng_below(&vm->rng, sides);
          sp[-1] = sum;
          vmbreak;
        }
        rg_value *res = vm->scratch;
        if (unlikely(vm_roll_plain(vm, sides, (uint32_t)n, res, PCIDX()) != 0))
          RTERR("no result given for the roll");
        rg_value sum = 0;
        for (rg_value k = 0; k < n; k++) sum += res[k];
        if (vm->sink.roll) vm->sink.roll(vm->sink.ctx, m, -1, sides, res, (uint32_t)n, PCIDX());
        sp[-1] = sum;
        vmbreak;
      }

      /* Opcode ROLLAT A: n k -> how many of n dice of A sides show k or
      ** more.  Reports the roll like ROLL. */
      vmcase(RG_OP_ROLLAT) {
        uint32_t sides = ((uint32_t)IA);
        rg_value n = sp[-2], need = sp[-1], count = 0;
        if (unlikely(n < 0 || n > RG_VM_SCRATCH)) RTERR("cannot roll %lld dice", (long long)n);
        if (likely(!vm->sink.chance && !vm->sink.roll)) {
          for (rg_value k = 0; k < n; k++) count += (rg_value)rg_rng_below(&vm->rng, sides) + 1 >= need;
        } else {
          rg_value *res = vm->scratch;
          if (unlikely(vm_roll_plain(vm, sides, (uint32_t)n, res, PCIDX()) != 0))
            RTERR("no result given for the roll");
          for (rg_value k = 0; k < n; k++) count += res[k] >= need;
          if (vm->sink.roll) vm->sink.roll(vm->sink.ctx, m, -1, sides, res, (uint32_t)n, PCIDX());
        }
        sp[-2] = count;
        sp--;
        vmbreak;
      }

      /* Opcode ROLLS A: n -> a new list of n dice of A sides, as ROLL. */
      vmcase(RG_OP_ROLLS) {
        uint32_t sides = ((uint32_t)IA);
        rg_value n = sp[-1];
        if (unlikely(n < 0 || n > RG_VM_SCRATCH)) RTERR("cannot roll %lld dice", (long long)n);
        int64_t l;
        NEWLIST(l, (uint64_t)n);
        rg_value *res = H + l + 1;
        if (unlikely(vm_roll_plain(vm, sides, (uint32_t)n, res, PCIDX()) != 0))
          RTERR("no result given for the roll");
        if (vm->sink.roll) vm->sink.roll(vm->sink.ctx, m, -1, sides, res, (uint32_t)n, PCIDX());
        sp[-1] = l;
        vmbreak;
      }

      /* Opcode ROLLDIE A: -> a uniform face of custom die A.  Reports the
      ** roll (die A, sides its face count). */
      vmcase(RG_OP_ROLLDIE) {
        uint32_t a = ((uint32_t)IA);
        const rg_dice *d = &m->dice[a];
        int64_t k = vm_chance(vm, 'f', a, d->count, PCIDX());
        if (unlikely(k < 0)) RTERR("no result given for the roll");
        rg_value face = m->faces[d->first + (uint64_t)k];
        if (vm->sink.roll) vm->sink.roll(vm->sink.ctx, m, (int32_t)a, d->count, &face, 1, PCIDX());
        *sp++ = face;
        vmbreak;
      }

      /* Opcode DRAW A: -> a card taken from deck A, uniform among those left
      ** (swap-removed); "deck NAME is empty" when none is.  Reports it. */
      vmcase(RG_OP_DRAW) {
        uint32_t a = ((uint32_t)IA);
        uint32_t left = vm->deck_left[a];
        if (unlikely(left == 0)) RTERR("deck %s is empty", rg_module_str(m, m->decks[a].name));
        int64_t k = vm_chance(vm, 'c', a, left, PCIDX());
        if (unlikely(k < 0)) RTERR("no result given for the draw");
        rg_value *cards = vm->deck_cards + vm->deck_off[a];
        rg_value card = cards[k];
        cards[k] = cards[left - 1];
        vm->deck_left[a] = left - 1;
        if (vm->sink.draw) vm->sink.draw(vm->sink.ctx, m, a, card, PCIDX());
        *sp++ = card;
        if (pc->op == VM_DRAWAPPEND) {
          /* The APPEND (+1) and STORE of DRAWAPPEND: list card -> L[b]. */
          const rg_value *e;
          uint32_t n;
          int64_t l;
          rg_value lv = sp[-2];
          if (unlikely(!(e = vm_list(vm, lv, &n))))
            RTERR_AT(1, "list %lld outside the heap (size %u)", (long long)lv, (unsigned)vm->heap_top);
          if (unlikely((l = vm_new_list(vm, (uint64_t)n + 1)) < 0))
            return vm_fail(vm, RG_RUN_LIMIT, PCAT(1), "memory limit");
          memcpy(H + l + 1, e, (size_t)n * sizeof(rg_value));
          H[l + 1 + n] = card;
          sp -= 2;
          base[IB] = l;
        }
        vmbreak;
      }

      /* Opcode LEFT A: -> the number of cards left in deck A. */
      /* Opcode DRAWS A: n -> a new list of n cards drawn from deck A, one by
      ** one as DRAW (each reported); "deck NAME is empty" when it runs out. */
      vmcase(RG_OP_DRAWS) {
        uint32_t a = ((uint32_t)IA);
        rg_value n = sp[-1];
        int64_t l;
        if (unlikely(n < 0 || n > RG_VM_SCRATCH)) RTERR("cannot draw %lld cards", (long long)n);
        NEWLIST(l, (uint64_t)n);
        rg_value *cards = vm->deck_cards + vm->deck_off[a];
        for (rg_value j = 0; j < n; j++) {
          uint32_t left = vm->deck_left[a];
          if (unlikely(left == 0)) RTERR("deck %s is empty", rg_module_str(m, m->decks[a].name));
          int64_t k = vm_chance(vm, 'c', a, left, PCIDX());
          if (unlikely(k < 0)) RTERR("no result given for the draw");
          rg_value card = cards[k];
          cards[k] = cards[left - 1];
          vm->deck_left[a] = left - 1;
          H[l + 1 + j] = card;
          if (vm->sink.draw) vm->sink.draw(vm->sink.ctx, m, a, card, PCIDX());
        }
        sp[-1] = l;
        vmbreak;
      }

      vmcase(RG_OP_LEFT) {
        *sp++ = vm->deck_left[((uint32_t)IA)];
        vmbreak;
      }

      /* Opcode CHOOSE A: chooser options -> the option picked at choice site
      ** A (options: a set, a list, or lo hi for a range of at most 1000
      ** ints).  sink.choose picks (NULL: the first); no options is "nothing
      ** to choose from", -1 or an index out of range "no answer for the
      ** choice". */
      vmcase(RG_OP_CHOOSE) {
        uint32_t a = ((uint32_t)IA);
        const rg_choice *c = &m->choices[a];
        const rg_value *opts = vm->scratch;
        uint32_t n = 0;
        rg_value chooser;
        if (c->kind == RG_OPT_SET) {
          uint64_t set = (uint64_t)sp[-1];
          for (int k = 0; k < 64; k++)
            if ((set >> k) & 1u) vm->scratch[n++] = k;
          chooser = sp[-2];
          sp -= 2;
        } else if (c->kind == RG_OPT_LIST) {
          LISTARG(sp[-1], opts, n);
          chooser = sp[-2];
          sp -= 2;
        } else {
          rg_value lo = sp[-2], hi = sp[-1];
          if (hi >= lo) {
            uint64_t span = (uint64_t)hi - (uint64_t)lo;
            if (unlikely(span >= RG_VM_SCRATCH))
              RTERR("range %lld..%lld has more than %d options", (long long)lo, (long long)hi,
                    RG_VM_SCRATCH);
            for (uint64_t k = 0; k <= span; k++) vm->scratch[n++] = lo + (rg_value)k;
          }
          chooser = sp[-3];
          sp -= 3;
        }
        if (unlikely(n == 0)) RTERR("nothing to choose from");
        int64_t pick = 0;
        if (vm->sink.choose) {
          pick = vm->sink.choose(vm->sink.ctx, m, a, chooser, opts, n, PCIDX());
          if (unlikely(pick < 0 || pick >= (int64_t)n)) RTERR("no answer for the choice");
        }
        *sp++ = opts[pick];
        vmbreak;
      }

      /* Opcode STEP A: reports that step S[A] of the rules begins. */
      vmcase(RG_OP_STEP) {
        if (vm->sink.step) vm->sink.step(vm->sink.ctx, m, ((uint32_t)IA), PCIDX());
        vmbreak;
      }

      /* Opcode INPUT A: -> the value of input A (its default unless set with
      ** rg_vm_set_input). */
      vmcase(RG_OP_INPUT) {
        *sp++ = vm->inputs[((uint32_t)IA)];
        vmbreak;
      }

      /* Opcode NTH A: i -> member i of enum A; i outside 0..count-1 is a
      ** runtime error. */
      vmcase(RG_OP_NTH) {
        const rg_enum *e = &m->enums[((uint32_t)IA)];
        rg_value k = sp[-1];
        if (unlikely(k < 0 || k >= (rg_value)e->count))
          RTERR("member %lld outside 0..%u of enum '%s'", (long long)k, (unsigned)(e->count - 1),
                rg_module_str(m, e->name));
        vmbreak;
      }

      /* Opcode LIST A: v1 .. vA -> a new list [v1, .., vA] (A may be 0). */
      vmcase(RG_OP_LIST) {
        uint32_t n = ((uint32_t)IA);
        int64_t l;
        NEWLIST(l, n);
        sp -= n;
        if (n) memcpy(H + l + 1, sp, (size_t)n * sizeof(rg_value));
        *sp++ = l;
        vmbreak;
      }

      /* Opcode LEN: list -> its length. */
      vmcase(RG_OP_LEN) {
        const rg_value *e;
        uint32_t n;
        LISTARG(sp[-1], e, n);
        sp[-1] = n;
        vmbreak;
      }

      /* Opcode ITEM: list k -> element k (from 0); k outside the list is
      ** "index K outside the list of N". */
      vmcase(RG_OP_ITEM) {
        const rg_value *e;
        uint32_t n;
        LISTARG(sp[-2], e, n);
        rg_value k = sp[-1];
        if (unlikely(k < 0 || k >= (rg_value)n))
          RTERR("index %lld outside the list of %u", (long long)k, (unsigned)n);
        sp[-2] = e[k];
        sp--;
        vmbreak;
      }

      /* Opcode SETITEM: list k v -> (nothing); element k of list becomes v,
      ** in place.  Lists of the module's constants cannot change. */
      vmcase(RG_OP_SETITEM) {
        const rg_value *e;
        uint32_t n;
        LISTARG(sp[-3], e, n);
        rg_value k = sp[-2];
        if (unlikely(sp[-3] < (rg_value)m->nheap)) RTERR("a constant list cannot be changed");
        if (unlikely(k < 0 || k >= (rg_value)n))
          RTERR("index %lld outside the list of %u", (long long)k, (unsigned)n);
        H[sp[-3] + 1 + k] = sp[-1];
        sp -= 3;
        vmbreak;
      }

      /* Opcode APPEND: list v -> a new list: list's elements, then v. */
      vmcase(RG_OP_APPEND) {
        const rg_value *e;
        uint32_t n;
        int64_t l;
        LISTARG(sp[-2], e, n);
        NEWLIST(l, (uint64_t)n + 1);
        memcpy(H + l + 1, e, (size_t)n * sizeof(rg_value));
        H[l + 1 + n] = sp[-1];
        sp[-2] = l;
        sp--;
        vmbreak;
      }

      /* Opcode REMOVE: list k -> a new list without element k; k outside
      ** the list is "index K outside the list of N". */
      vmcase(RG_OP_REMOVE) {
        const rg_value *e;
        uint32_t n;
        int64_t l;
        LISTARG(sp[-2], e, n);
        rg_value k = sp[-1];
        if (unlikely(k < 0 || k >= (rg_value)n))
          RTERR("index %lld outside the list of %u", (long long)k, (unsigned)n);
        NEWLIST(l, (uint64_t)n - 1);
        memcpy(H + l + 1, e, (size_t)k * sizeof(rg_value));
        memcpy(H + l + 1 + k, e + k + 1, (size_t)(n - 1 - (uint64_t)k) * sizeof(rg_value));
        sp[-2] = l;
        sp--;
        vmbreak;
      }

      /* Opcode CONCAT: a b -> a new list: a's elements, then b's. */
      vmcase(RG_OP_CONCAT) {
        const rg_value *ea, *eb;
        uint32_t na, nb;
        int64_t l;
        LISTARG(sp[-2], ea, na);
        LISTARG(sp[-1], eb, nb);
        NEWLIST(l, (uint64_t)na + nb);
        memcpy(H + l + 1, ea, (size_t)na * sizeof(rg_value));
        memcpy(H + l + 1 + na, eb, (size_t)nb * sizeof(rg_value));
        sp[-2] = l;
        sp--;
        vmbreak;
      }

      /* Opcode ATLEAST: list k -> how many elements are >= k. */
      vmcase(RG_OP_ATLEAST) {
        const rg_value *e;
        uint32_t n;
        LISTARG(sp[-2], e, n);
        rg_value k = sp[-1], c = 0;
        for (uint32_t j = 0; j < n; j++) c += e[j] >= k;
        sp[-2] = c;
        sp--;
        vmbreak;
      }

      /* Opcode SUM: list -> the sum of its elements; overflow is a runtime
      ** error. */
      vmcase(RG_OP_SUM) {
        const rg_value *e;
        uint32_t n;
        LISTARG(sp[-1], e, n);
        rg_value sum = 0;
        for (uint32_t j = 0; j < n; j++)
          if (unlikely(add_ovf(sum, e[j], &sum))) RTERR("integer overflow");
        sp[-1] = sum;
        vmbreak;
      }

      /* Opcode BEST: list b -> a new list of the b greatest elements,
      ** greatest first, equal ones in list order (all of them when fewer);
      ** b < 0 is a runtime error. */
      vmcase(RG_OP_BEST) {
        const rg_value *e;
        uint32_t n;
        int64_t l;
        LISTARG(sp[-2], e, n);
        rg_value b = sp[-1];
        if (unlikely(b < 0)) RTERR("cannot take the best %lld of a list", (long long)b);
        NEWLIST(l, n);
        memcpy(H + l + 1, e, (size_t)n * sizeof(rg_value));
        uint32_t top = vm->heap_top;
        vm_sort(H + l + 1, n, vm->heap_cap - top >= n ? H + top : NULL, 1);
        if (b < (rg_value)n) {
          H[l] = b;
          vm->heap_top = (uint32_t)(l + 1 + b);
        }
        sp[-2] = l;
        sp--;
        vmbreak;
      }

      /* Opcode SORT: list -> a new list of its elements, least first, equal
      ** ones in list order. */
      vmcase(RG_OP_SORT) {
        const rg_value *e;
        uint32_t n;
        int64_t l;
        LISTARG(sp[-1], e, n);
        NEWLIST(l, n);
        memcpy(H + l + 1, e, (size_t)n * sizeof(rg_value));
        uint32_t top = vm->heap_top;
        vm_sort(H + l + 1, n, vm->heap_cap - top >= n ? H + top : NULL, 0);
        sp[-1] = l;
        vmbreak;
      }

      /* Opcode LISTHAS: v list -> 1 when v occurs in list, else 0. */
      vmcase(RG_OP_LISTHAS) {
        const rg_value *e;
        uint32_t n;
        LISTARG(sp[-1], e, n);
        rg_value v = sp[-2], found = 0;
        for (uint32_t j = 0; j < n && !found; j++) found = e[j] == v;
        sp[-2] = found;
        sp--;
        vmbreak;
      }

      /* Opcode FAIL A: stop with a runtime error whose message is S[A]. */
      vmcase(RG_OP_FAIL) {
        RTERR("%s", rg_module_str(m, ((uint32_t)IA)));
      }
    }
  }
}

#undef K
#undef H
#undef STACK_END
#undef MAX_STEPS
#undef FCODE
#undef FMAP
#undef FMAGIC
