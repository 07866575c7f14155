/*
** vm_int.h: what the VM's two files share (vm.c runs the fast code that
** vmtrans.c translates from a module's verified bytecode).  Private to the
** VM: nothing outside vm.c, vmtrans.c and vmstate.c (the state that exact
** odds compares) includes it.
*/
#ifndef RG_VM_INT_H
#define RG_VM_INT_H

#include <stdint.h>

#include "vm.h"
#include "native.h"
#include "opcodes.h"
#include "rng.h"

/* ---- fast code ------------------------------------------------------------
**
** rgi_vm_new translates every procedure's verified stack code into the VM's
** private "fast code", in register form.  The verifier proved the stack
** height before every instruction, so stack entry d of a procedure always
** lives in the same frame slot, and every instruction can name the slots of
** its operands and of its result.  A frame is
**
**     base: [ locals (parameters first) | constants | stack entries ]
**             0 ..                        nlocals ..  t0 = nlocals + ncon ..
**
** where the constants are the procedure's immediates (PUSHI, CONST), copied
** into the frame by each call, so that every operand is a slot base[x].
**
** The translation keeps a lazy operand stack (lz): LOAD, PUSHI and CONST
** emit nothing and only remember the slot that holds the value, so that
** `LOAD a; PUSHI 1; ADD; STORE a` becomes the single ADD a <- a, k1.  A value
** is copied into its stack slot ("materialized") only where the stack code
** needs it there: at jumps and jump targets (paths meet with every entry in
** its slot), for calls (the arguments become the callee's first locals), and
** for the instructions kept in stack form (those with a variable number of
** operands, which find them below base + d).  A comparison followed by a
** conditional jump becomes one compare-and-branch; a result stored at once
** into a local is computed straight into it; a call of a procedure that is
** one instruction (tr_leaf) runs that instruction in place after the call's
** checks; a last pass (vm_peephole) joins a loop's backward jump with its
** test and step, and pairs of copies.  With fusion off, every
** instruction is translated on its own and its values are materialized at
** once: the same handlers, one fast instruction per instruction.
**
** The module's code is untouched: the verifier checked it, the disassembler
** shows it, and every fast instruction keeps the module pc of the
** instruction whose errors and reports it stands for (fmap), so that errors
** name the same place with or without fusion.
*/

/* One fast instruction: op is an rgi_opcode (kept in stack form) or a
** vm_fop; a, b, c, d its operands (slots, immediates, targets as offsets
** from the instruction itself). */
typedef struct vm_ins {
#if defined(__GNUC__) && !defined(RG_VM_SWITCH)
  const void *h;            /* the handler's address (set by rgi_vm_call) */
#endif
  uint32_t op;
  int32_t a, b, c, d;
  uint32_t e;               /* R_MODK: the high half of its multiplier (low in d) */
} vm_ins;

/* The register instructions.  x, y: operand slots; r: the result slot;
** t: a jump target; w: a backward jump's weight in steps (0: forward).
**
** Steps bound time: a backward jump from module pc j to module pc t costs
** j - t + 1 steps (the instructions of the loop it closes), a call its
** callee's length (vm_fproc.steps).  Between two passes through one
** instruction a run takes a backward jump over it, so each instruction run
** is paid for by the first pass or by one such jump: the steps counted are
** at least the module instructions run, whatever the loop bodies hold.  Both
** weights are in module instructions, so counts are the same with fusion
** on or off (and in the native tier).
**   R_op      r x y       r := x op y  (arithmetic, comparison, sets)
**   R_MODK    r x k m     r := x mod k, k >= 1 an immediate, m (d, e) its
**                         multiplier (Lemire's fastmod)
**   R_unary   r x         r := op x
**   BR_cmp    x y t w     if x cmp y goto t (counting w steps)
**   JBR_cmp   x y t w     a loop's backward jump onto its test: count w
**                         steps, then if x cmp y goto t (the body)
**   INCBR_cmp x y t z dpc x := x + y, then JBR_cmp x z t: a for loop's
**                         step, jump back and test (dpc: the module pc of
**                         the jump, after the add's, for the step; the
**                         weight is in a of the NOP after it)
**   BRF, BRT  x t . w     if !x / if x goto t
**   JMPB      t w         goto t, backward (w steps)
**   MOV       r x         r := x
**   R_MIN2, R_MAX2 r x y; R_CLAMP r x lo hi
**   R_LOOKUP1 r k lo size first;  R_LOOKUP2 r k1 k2 first + DATA lo1 size1 lo2 size2
**   R_FIELD   r x field;  R_ITEM r list k;  R_SETITEM list k v
**   LISTADD   list k imm  list[k] += imm in place (LOAD a; LOAD b; LOAD a;
**                         LOAD b; ITEM; PUSHI c; ADD; SETITEM)
**   R_ROLL r n sides; R_ROLLAT r n need sides; R_ROLLDIE r . die;
**   R_DRAW r . deck;  R_DRAWS r n deck; R_LEFT r . deck; R_INPUT r . input;
**   R_NTH r x enum;   R_RET x
**   CALL      p entry r sp  (stack form) the result goes to slot r
**   MOV2      r x s y     r := x; s := y (two MOVs; the second is skipped)
**   CALLCK    p . . sp    the checks of a CALL of leaf procedure p (steps,
**                         the call depth, the frame): the callee's one
**                         instruction follows, inlined
**   CALLDRAW  p entry . sp  a CALL of a procedure that only draws (see
**                         vm_draw_only): a real call when the sink takes
**                         shapes, else nothing
**   UNREACHABLE       stands for code no path reaches
**   DATA              operands of the instruction before it (never run)
**   EXIT              leaves the loop (only in vm->xcode: see vm_exec1)
** The stack-form instructions (rgi_opcode) keep their operand A in a and
** have d = the slot just above their operands (their sp). */
#define VM_RBINOPS(X) X(ADD) X(SUB) X(MUL) X(DIV) X(MOD) X(EQ) X(NE) X(LT) X(LE) X(GT) X(GE) \
                      X(INSET) X(SETADD) X(UNION) X(INTER) X(DIFF)
#define VM_RUNOPS(X)  X(NEG) X(NOT) X(ABS) X(COUNT) X(LEN)
#define VM_CMPS(X)    X(EQ) X(NE) X(LT) X(LE) X(GT) X(GE)
#define VM_OTHER_FOPS(X) X(R_MODK) X(BRF) X(BRT) X(JMPB) X(MOV) X(R_MIN2) X(R_MAX2) \
  X(R_CLAMP) X(R_LOOKUP1) X(R_LOOKUP2) X(R_FIELD) X(R_ITEM) X(R_SETITEM) X(LISTADD) \
  X(R_ROLL) X(R_ROLLAT) X(R_ROLLDIE) X(R_DRAW) X(R_DRAWS) X(R_LEFT) X(R_INPUT) X(R_NTH) \
  X(R_RET) X(MOV2) X(CALLCK) X(CALLDRAW) X(UNREACHABLE) X(DATA) X(EXIT)

typedef enum vm_fop {
  VM_FOP0 = RG_NOPCODES - 1,
#define VM_X(o) VM_R_##o,
  VM_RBINOPS(VM_X)
  VM_RUNOPS(VM_X)
#undef VM_X
#define VM_X(o) VM_BR_##o,
  VM_CMPS(VM_X)
#undef VM_X
#define VM_X(o) VM_INCBR_##o,
  VM_CMPS(VM_X)
#undef VM_X
#define VM_X(o) VM_JBR_##o,
  VM_CMPS(VM_X)
#undef VM_X
#define VM_X(o) VM_##o,
  VM_OTHER_FOPS(VM_X)
#undef VM_X
  VM_NFOPS
} vm_fop;

/* What a call needs of procedure p's frame: its fast entry, its constants
** (fconst[con .. con + ncon)), the frame's size in slots and the steps a
** call of it costs (its length in module instructions). */
typedef struct vm_fproc {
  uint32_t entry, con, ncon, steps;
  uint64_t size;
} vm_fproc;

/* A suspended caller. */
typedef struct rgi_frame {
  const vm_ins *pc;         /* where to resume (in the fast code) */
  rgi_value *base;           /* the caller's locals */
  int32_t ret;              /* the caller's slot for the result */
} rgi_frame;

/* Most dice one ROLL or ROLLS may throw, and most options of a range
** choice: the size of the VM's scratch buffer. */
#define RG_VM_SCRATCH 1000

struct rgi_vm {
  const rgi_module *m;
  rgi_sink sink;
  uint64_t max_steps;
  uint64_t work_left;       /* of this call: dice and list elements (see WORK in vm.c) */
  rgi_value *stack;          /* the value stack: frames of locals, constants, operands */
  size_t nstack;
  rgi_value *heap;           /* module constants, then records and lists of a run */
  size_t heap_cap;
  uint32_t heap_top;
  rgi_rng rng;               /* every roll and draw not given by sink.chance */
  rgi_value *deck_cards;     /* each deck's cards left, in its own slice */
  uint32_t *deck_off;       /* deck d's slice starts at deck_cards[deck_off[d]] */
  uint32_t *deck_left;      /* cards left in deck d */
  rgi_value *inputs;         /* the inputs' values (defaults until set) */
  rgi_value *scratch;        /* RG_VM_SCRATCH values: rolls, range options */
  vm_ins *fcode;            /* the fast code of every procedure */
  uint32_t *fmap;           /* fast index -> module pc of the instruction that may fail */
  vm_fproc *fproc;          /* per procedure: entry, constants, frame size */
  rgi_value *fconst;         /* the constants of every procedure */
  uint64_t max_frame;       /* the largest frame, in slots */
  uint32_t nfcode;          /* fast instructions in all */
  int threaded;             /* each fast instruction has its handler's address */
  const struct rgi_native *native;   /* runs calls in machine code (native.h), or NULL */
  const struct rgi_native *native_want;   /* the limits' native code (used when it fits) */
  int fused;                /* the fast code is fused */
  vm_ins *xcode;            /* with native: each fast instruction alone (vm_exec1) */
  uint32_t *xmap;           /* fmap of xcode */
  int xthreaded;            /* xcode has its handlers' addresses */
  rgn_env nenv;             /* with native: the state its calls run on (native.c) */
  int depth;                /* frames[0..depth) are suspended callers */
  uint32_t label_gen;       /* LABELs run so far by this VM */
  int label_set;            /* this call has run a LABEL */
  uint32_t label_site;      /* its choice site (the prompt, who's type) */
  rgi_value label_who;
  uint32_t draws_after;     /* in a DRAWS asked of sink.chance: cards still to
                            ** draw after the one being asked (0 otherwise) */
  rgi_frame frames[RG_MAX_CALL_DEPTH];
  char err[256];
  uint32_t err_pc;
  const rgi_value *frame;    /* during sink.expect_fail: the failing procedure's
                            ** locals (rgi_vm_frame); else NULL */
};

/* Builds vm's fast code from its module's (fused unless fuse is 0), with
** each procedure's constants and frame size (vmtrans.c).  Returns 0, or -1
** when out of memory. */
int vm_build_fast(rgi_vm *vm, int fuse);

/* Runs fast instruction k alone on the frame at base (vm.c; for the native
** tier).  Returns its status. */
rg_status vm_exec1(rgi_vm *vm, uint32_t k, rgi_value *base);

/* Records a run error at module pc (vm.c); returns status. */
rg_status vm_fail(rgi_vm *vm, rg_status status, uint32_t pc, const char *fmt, ...);

/* Runs procedure proc in the VM's native code (native.c): the frame at base
** is set up as rgi_vm_call sets it.  Returns as rgi_vm_call. */
rg_status vm_native_call(rgi_vm *vm, uint32_t proc, rgi_value *base, rgi_value *result);

/* Sets vm->nenv up for vm's heap, decks, inputs, stack and sink (native.c;
** again whenever the sink changes). */
void vm_native_env(rgi_vm *vm);

#endif
