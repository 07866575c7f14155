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
** pc, sp and the frame base live in locals of rg_vm_call.
*/
#include "vm.h"
#include "opcodes.h"
#include "alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A suspended caller. */
typedef struct rg_frame {
  const uint32_t *pc;       /* where to resume */
  rg_value *base;           /* the caller's locals */
  uint32_t proc;
} rg_frame;

struct rg_vm {
  const rg_module *m;
  rg_sink sink;
  uint64_t max_steps;
  rg_value *stack;          /* the value stack: frames of locals and operands */
  size_t nstack;
  rg_value *heap;           /* module constants, then records built by a run */
  size_t heap_cap;
  uint32_t heap_top;
  rg_frame frames[RG_MAX_CALL_DEPTH];
  char err[256];
  uint32_t err_pc;
};

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

  vm->stack = rg_malloc(vm->nstack * sizeof(rg_value));
  vm->heap = rg_malloc((vm->heap_cap ? vm->heap_cap : 1) * sizeof(rg_value));
  if (!vm->stack || !vm->heap) {
    rg_vm_free(vm);
    return NULL;
  }
  if (m->nheap) memcpy(vm->heap, m->heap, (size_t)m->nheap * sizeof(rg_value));
  vm->heap_top = m->nheap;
  return vm;
}

/* Frees the VM, its stack and its heap (not the module). */
void rg_vm_free(rg_vm *vm) {
  if (!vm) return;
  rg_free(vm->stack);
  rg_free(vm->heap);
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
static int sub_ovf(int64_t a, int64_t b, int64_t *r) {
  if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b)) return 1;
  *r = a - b; return 0;
}
static int mul_ovf(int64_t a, int64_t b, int64_t *r) {
  if (a == 0 || b == 0) { *r = 0; return 0; }
  if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN)) return 1;
  if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
            : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b)) return 1;
  *r = a * b; return 0;
}
static int popcount64(uint64_t x) {
  int n = 0;
  while (x) { x &= x - 1; n++; }
  return n;
}
#define likely(x)   (x)
#define unlikely(x) (x)
#endif

/* ---- dispatch ------------------------------------------------------------- */

#if defined(__GNUC__) && !defined(RG_VM_SWITCH)
#define vmdispatch(o)  goto *disptab[o];
#define vmcase(l)      L_##l:
#define vmbreak        vmfetch(); vmdispatch(RG_INS_OP(i));
#else
#define vmdispatch(o)  switch (o)
#define vmcase(l)      case l:
#define vmbreak        break
#endif

#define vmfetch()      (i = *pc++)

/* Code index of the instruction being executed. */
#define PCIDX()        ((uint32_t)(pc - 1 - code))

/* Leaves the loop with an error at the current instruction. */
#define RTERR(...)     do { return vm_fail(vm, RG_RUN_ERROR, PCIDX(), __VA_ARGS__); } while (0)
#define RTLIMIT(...)   do { return vm_fail(vm, RG_RUN_LIMIT, PCIDX(), __VA_ARGS__); } while (0)

/* Counts one step (a backward jump or a call) against the limit. */
#define STEP()         do { if (unlikely(++steps > max_steps)) \
                              RTLIMIT("step limit of %llu reached", (unsigned long long)max_steps); } while (0)

/* Runs procedure proc of the VM's module with args[0..nparams) (may be NULL
** when it has none); stores its result, if any, in *result (may be NULL).
** Resets the heap to the module's constants first.  Allocates nothing.
** Returns RG_RUN_OK, or RG_RUN_ERROR / RG_RUN_LIMIT with rg_vm_error set. */
rg_status rg_vm_call(rg_vm *vm, uint32_t proc, const rg_value *args, rg_value *result) {
  const rg_module *m = vm->m;
  const uint32_t *const code = m->code;
  const rg_value *const K = m->consts;
  rg_value *const H = vm->heap;
  rg_value *const stack_end = vm->stack + vm->nstack;
  const uint64_t max_steps = vm->max_steps;
  uint64_t steps = 0;
  int depth = 0;

  vm->err[0] = '\0';
  vm->err_pc = 0;
  vm->heap_top = m->nheap;
  if (proc >= m->nprocs)
    return vm_fail(vm, RG_RUN_ERROR, 0, "no procedure %u", (unsigned)proc);
  const rg_proc *p = &m->procs[proc];
  if ((size_t)p->nlocals + p->max_stack > vm->nstack)
    return vm_fail(vm, RG_RUN_LIMIT, p->code, "memory limit");
  rg_value *base = vm->stack;
  for (uint32_t k = 0; k < p->nparams; k++) base[k] = args ? args[k] : 0;
  for (uint32_t k = p->nparams; k < p->nlocals; k++) base[k] = 0;
  rg_value *sp = base + p->nlocals;
  const uint32_t *pc = code + p->code;
  uint32_t i;

#if defined(__GNUC__) && !defined(RG_VM_SWITCH)
  static const void *const disptab[RG_NOPCODES] = {
#define RG_X(name, operand, pops, pushes, doc) &&L_RG_OP_##name,
    RG_OPCODES(RG_X)
#undef RG_X
  };
#endif

  for (;;) {
    vmfetch();
    vmdispatch(RG_INS_OP(i)) {

      /* Opcode NOP: Does nothing. */
      vmcase(RG_OP_NOP) {
        vmbreak;
      }

      /* Opcode PUSHI sA: push the sign-extended immediate sA. */
      vmcase(RG_OP_PUSHI) {
        *sp++ = RG_INS_SA(i);
        vmbreak;
      }

      /* Opcode CONST A: push K[A]. */
      vmcase(RG_OP_CONST) {
        *sp++ = K[RG_INS_A(i)];
        vmbreak;
      }

      /* Opcode LOAD A: push L[A]. */
      vmcase(RG_OP_LOAD) {
        *sp++ = base[RG_INS_A(i)];
        vmbreak;
      }

      /* Opcode STORE A: L[A] := pop. */
      vmcase(RG_OP_STORE) {
        base[RG_INS_A(i)] = *--sp;
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

      /* Opcode JMP sA: pc += sA.  A backward jump counts one step. */
      vmcase(RG_OP_JMP) {
        int32_t off = RG_INS_SA(i);
        if (off < 0) STEP();
        pc += off;
        vmbreak;
      }

      /* Opcode JMPF sA: if pop is 0 then pc += sA (a backward jump counts a
      ** step). */
      vmcase(RG_OP_JMPF) {
        if (!*--sp) {
          int32_t off = RG_INS_SA(i);
          if (off < 0) STEP();
          pc += off;
        }
        vmbreak;
      }

      /* Opcode JMPT sA: if pop is not 0 then pc += sA (a backward jump counts
      ** a step). */
      vmcase(RG_OP_JMPT) {
        if (*--sp) {
          int32_t off = RG_INS_SA(i);
          if (off < 0) STEP();
          pc += off;
        }
        vmbreak;
      }

      /* Opcode LOOKUP A: k1 .. kn -> T[A][k1, .., kn].  Each key must lie in
      ** its dimension, else "key K outside LO..HI of table 'NAME'". */
      vmcase(RG_OP_LOOKUP) {
        const rg_table *t = &m->tables[RG_INS_A(i)];
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
        uint32_t a = RG_INS_A(i);
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
        uint32_t n = RG_INS_A(i);
        sp -= n;
        rg_value v = sp[0];
        for (uint32_t k = 1; k < n; k++) if (sp[k] < v) v = sp[k];
        *sp++ = v;
        vmbreak;
      }

      /* Opcode MAX A: v1 .. vA -> the greatest of them (A >= 1). */
      vmcase(RG_OP_MAX) {
        uint32_t n = RG_INS_A(i);
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
        uint32_t n = m->records[RG_INS_A(i)].count;
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
        uint32_t callee = RG_INS_A(i);
        const rg_proc *q = &m->procs[callee];
        STEP();
        if (unlikely(depth + 1 >= RG_MAX_CALL_DEPTH)) RTLIMIT("call depth limit");
        rg_value *nbase = sp - q->nparams;
        if (unlikely((size_t)(stack_end - nbase) < (size_t)q->nlocals + q->max_stack))
          RTLIMIT("memory limit");
        rg_frame *f = &vm->frames[depth++];
        f->pc = pc;
        f->base = base;
        f->proc = proc;
        for (rg_value *l = sp, *e = nbase + q->nlocals; l < e; l++) *l = 0;
        base = nbase;
        sp = base + q->nlocals;
        pc = code + q->code;
        proc = callee;
        vmbreak;
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
        pc = f->pc;
        base = f->base;
        proc = f->proc;
        vmbreak;
      }

      /* Opcode RETV: return without a value. */
      vmcase(RG_OP_RETV) {
        if (depth == 0) return RG_RUN_OK;
        sp = base;
        rg_frame *f = &vm->frames[--depth];
        pc = f->pc;
        base = f->base;
        proc = f->proc;
        vmbreak;
      }

      /* Opcode NOTE A: v1 .. vn -> (nothing); reports note A with its values
      ** to the sink. */
      vmcase(RG_OP_NOTE) {
        uint32_t a = RG_INS_A(i);
        sp -= m->notes[a].nvals;
        if (vm->sink.note) vm->sink.note(vm->sink.ctx, m, a, sp, PCIDX());
        vmbreak;
      }

      /* Opcode EXPECT A: v -> (nothing); when v is 0, reports expectation A
      ** failed (actual 0, expected 1) and goes on. */
      vmcase(RG_OP_EXPECT) {
        if (!*--sp && vm->sink.expect_fail)
          vm->sink.expect_fail(vm->sink.ctx, m, RG_INS_A(i), 0, 1, PCIDX());
        vmbreak;
      }

      /* Opcode EXPECTEQ A: a b -> (nothing); when a != b, reports expectation
      ** A failed (actual a, expected b) and goes on. */
      vmcase(RG_OP_EXPECTEQ) {
        rg_value a = sp[-2], b = sp[-1];
        sp -= 2;
        if (a != b && vm->sink.expect_fail)
          vm->sink.expect_fail(vm->sink.ctx, m, RG_INS_A(i), a, b, PCIDX());
        vmbreak;
      }

      /* Opcode FAIL A: stop with a runtime error whose message is S[A]. */
      vmcase(RG_OP_FAIL) {
        RTERR("%s", rg_module_str(m, RG_INS_A(i)));
      }
    }
  }
}
