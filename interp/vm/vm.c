/*
** vm.c: the virtual machine (see vm.h and opcodes.h).
**
** The operand stack and the locals share one array of values allocated in
** rgi_vm_new.  A frame is [locals | constants | operands] (see "fast code"
** below): a call leaves its arguments where the caller pushed them, and
** they become the callee's first locals.  The verifier has proved every
** procedure's deepest stack (max_stack), so the only stack check is at a
** call: the new frame must fit.
**
** The dispatch loop is written once with Lua's vmdispatch/vmcase/vmbreak
** macros: with GCC or Clang each fast instruction carries the address of
** its handler (direct threading; the first call fills them in from the
** table of label addresses) and each handler jumps straight to the next;
** other compilers, or -DRG_VM_SWITCH, get a switch.
** pc (the fast instruction being run) and the frame base live in locals of
** rgi_vm_call, which GCC keeps in registers (see the note at rgi_vm_call).
** The fast code itself is described in vm_int.h; vmtrans.c translates the
** module's verified bytecode into it.
*/
#include "vm_int.h"
#include "native.h"
#include "regula_front.h"
#include "rng.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Creates a VM for the verified module m (borrowed; it must outlive the VM).
** Allocates the stack (room for RG_MAX_CALL_DEPTH of the largest frame, or
** half the memory limit if less) and the heap (the rest of the limit, at
** least the module's constant records).  Returns NULL when out of memory. */
void rgi_vm_set_sink(rgi_vm *vm, const rgi_sink *sink) {
  vm->sink = *sink;
  if (vm->native) vm_native_env(vm);
}

/* Runs vm's calls in vm->native_want when the fast code is fused and the
** native code fits it: builds vm->xcode, each fast instruction followed by
** EXIT (after its DATA word for LOOKUP2) and EXIT, for vm_exec1; an INCBR
** there is its add alone (the only part of it the native code hands over).
** Else no native code.  Returns 0, or -1 when out of memory (no native
** code then). */
static int vm_attach_native(rgi_vm *vm) {
  uint32_t n = vm->nfcode;
  vm->native = NULL;
  rg_free(vm->xcode);
  rg_free(vm->xmap);
  vm->xcode = NULL;
  vm->xmap = NULL;
  vm->xthreaded = 0;
  if (!vm->native_want || !vm->fused || !rgi_native_fits(vm->native_want, vm->m, n)) return 0;
  vm->xcode = rg_malloc(3 * (size_t)n * sizeof(vm_ins) + sizeof(vm_ins));
  vm->xmap = rg_malloc(3 * (size_t)n * sizeof(uint32_t) + sizeof(uint32_t));
  if (!vm->xcode || !vm->xmap) {
    rg_free(vm->xcode);
    rg_free(vm->xmap);
    vm->xcode = NULL;
    vm->xmap = NULL;
    return -1;
  }
  vm_ins halt;   /* ends vm_exec1's run after one instruction */
  memset(&halt, 0, sizeof halt);
  halt.op = VM_EXIT;
  for (uint32_t k = 0; k < n; k++) {
    vm_ins x = vm->fcode[k];
    if (x.op >= VM_INCBR_EQ && x.op <= VM_INCBR_GE) {
      x.op = VM_R_ADD;
      x.c = x.b;
      x.b = x.a;
    }
    vm->xcode[3 * k] = x;
    vm->xcode[3 * k + 1] = x.op == VM_R_LOOKUP2 && k + 1 < n ? vm->fcode[k + 1] : halt;
    vm->xcode[3 * k + 2] = halt;
    vm->xmap[3 * k] = vm->xmap[3 * k + 1] = vm->xmap[3 * k + 2] = vm->fmap[k];
  }
  vm->native = vm->native_want;
  if (vm->stack) vm_native_env(vm);   /* (rgi_vm_new sets it up once all is made) */
  return 0;
}

rgi_vm *rgi_vm_new(const rgi_module *m, const rgi_limits *limits, const rgi_sink *sink) {
  rgi_vm *vm = rg_malloc(sizeof *vm);
  if (!vm) return NULL;
  memset(vm, 0, sizeof *vm);
  vm->m = m;
  if (sink) vm->sink = *sink;
  vm->max_steps = limits && limits->max_steps ? limits->max_steps : RG_DEFAULT_MAX_STEPS;
  size_t mem = limits && limits->max_memory ? limits->max_memory : RG_DEFAULT_MAX_MEMORY;
  size_t budget = mem / sizeof(rgi_value);

  vm->fused = !(limits && limits->no_fusion);
  vm->native_want = limits ? limits->native : NULL;
  if (vm_build_fast(vm, vm->fused) != 0 || vm_attach_native(vm) != 0) {
    rgi_vm_free(vm);
    return NULL;
  }
  size_t need = vm->max_frame < budget ? (size_t)vm->max_frame * RG_MAX_CALL_DEPTH : budget;
  vm->nstack = need < budget / 2 ? need : budget / 2;
  if (vm->nstack < 1) vm->nstack = 1;
  vm->heap_cap = budget > vm->nstack ? budget - vm->nstack : 0;
  if (vm->heap_cap < m->nheap) vm->heap_cap = m->nheap;
  if (vm->heap_cap > UINT32_MAX) vm->heap_cap = UINT32_MAX;

  /* Each deck gets its own slice of the working cards (decks of a crafted
  ** module may share cards[] entries). */
  uint64_t ncards = 0;
  for (uint32_t d = 0; d < m->ndecks; d++) ncards += m->decks[d].count;
  if (ncards > UINT32_MAX || ncards > SIZE_MAX / sizeof(rgi_value)) {
    rgi_vm_free(vm);
    return NULL;
  }

  vm->stack = rg_malloc(vm->nstack * sizeof(rgi_value));
  vm->heap = rg_malloc((vm->heap_cap ? vm->heap_cap : 1) * sizeof(rgi_value));
  vm->deck_cards = rg_malloc((ncards ? (size_t)ncards : 1) * sizeof(rgi_value));
  vm->deck_off = rg_malloc((m->ndecks ? (size_t)m->ndecks : 1) * 2 * sizeof(uint32_t));
  vm->inputs = rg_malloc((m->ninputs ? (size_t)m->ninputs : 1) * sizeof(rgi_value));
  vm->scratch = rg_malloc(RG_VM_SCRATCH * sizeof(rgi_value));
  if (!vm->stack || !vm->heap || !vm->deck_cards || !vm->deck_off || !vm->inputs ||
      !vm->scratch) {
    rgi_vm_free(vm);
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
  if (m->nheap) memcpy(vm->heap, m->heap, (size_t)m->nheap * sizeof(rgi_value));
  vm->heap_top = m->nheap;
  rgi_rng_stream(&vm->rng, 0, 0);
  if (vm->native) vm_native_env(vm);
  return vm;
}

/* Rebuilds the fast code with or without superinstructions (and the
** native tier's copy of it, or leaves the tier while fusion is off). */
int rgi_vm_set_fusion(rgi_vm *vm, int on) {
  if (vm_build_fast(vm, on != 0) != 0) return -1;
  vm->fused = on != 0;
  return vm_attach_native(vm);
}

/* Seeds the VM's generator as stream `stream` of `seed`. */
void rgi_vm_seed(rgi_vm *vm, uint64_t seed, uint64_t stream) {
  rgi_rng_stream(&vm->rng, seed, stream);
}

/* Sets input `input` (ignored when out of range) to v for later calls. */
void rgi_vm_set_input(rgi_vm *vm, uint32_t input, rgi_value v) {
  if (input < vm->m->ninputs) vm->inputs[input] = v;
}

/* Returns the cards left in deck `deck` (owned by the VM) and stores their
** count in *n; NULL and 0 when deck is out of range. */
const rgi_value *rgi_vm_deck_left(const rgi_vm *vm, uint32_t deck, uint32_t *n) {
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
static void vm_refill_decks(rgi_vm *vm) {
  const rgi_module *m = vm->m;
  for (uint32_t d = 0; d < m->ndecks; d++) {
    const rgi_deck *dk = &m->decks[d];
    if (vm->deck_left[d] == dk->count) continue;
    memcpy(vm->deck_cards + vm->deck_off[d], m->cards + dk->first,
           (size_t)dk->count * sizeof(rgi_value));
    vm->deck_left[d] = dk->count;
  }
}

/* Frees the VM, its stack and its heap (not the module). */
void rgi_vm_free(rgi_vm *vm) {
  if (!vm) return;
  rg_free(vm->stack);
  rg_free(vm->heap);
  rg_free(vm->deck_cards);
  rg_free(vm->deck_off);
  rg_free(vm->inputs);
  rg_free(vm->scratch);
  rg_free(vm->fcode);
  rg_free(vm->fmap);
  rg_free(vm->fproc);
  rg_free(vm->fconst);
  rg_free(vm->xcode);
  rg_free(vm->xmap);
  rg_free(vm);
}

/* Returns the message of the last failed call and stores in *pc (when not
** NULL) the code index of the instruction that failed.  The string is owned
** by the VM. */
const char *rgi_vm_error(const rgi_vm *vm, uint32_t *pc) {
  if (pc) *pc = vm->err_pc;
  return vm->err;
}

/* Returns the heap (owned by the VM) and stores its live size in *size. */
const rgi_value *rgi_vm_frame(const rgi_vm *vm) {
  return vm->frame;
}

const rgi_value *rgi_vm_heap(const rgi_vm *vm, uint32_t *size) {
  if (size) *size = vm->heap_top;
  return vm->heap;
}

/* Records a run error at code index pc; returns status. */
rg_status vm_fail(rgi_vm *vm, rg_status status, uint32_t pc, const char *fmt, ...) {
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
static inline int64_t vm_chance(rgi_vm *vm, int what, uint32_t index, uint64_t n, uint32_t pc) {
  if (likely(!vm->sink.chance)) return (int64_t)rgi_rng_below(&vm->rng, n);
  int64_t r = vm->sink.chance(vm->sink.ctx, vm->m, what, index, n, pc);
  if (r < 0 || (uint64_t)r >= n) return -1;
  return r;
}

/* Rolls n plain dice of `sides` sides into out[0..n) (each 1..sides),
** all at once through sink.dice when it is set.  Returns 0, or -1 when the
** callback gave no result (or one out of range). */
static int vm_roll_plain(rgi_vm *vm, uint32_t sides, uint32_t n, rgi_value *out, uint32_t pc) {
  if (vm->sink.chance && vm->sink.dice && n > 1) {
    if (vm->sink.dice(vm->sink.ctx, vm->m, sides, n, out, pc) != 0) return -1;
    for (uint32_t k = 0; k < n; k++)
      if (out[k] < 1 || (uint64_t)out[k] > sides) return -1;
    return 0;
  }
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
static const rgi_value *vm_list(const rgi_vm *vm, rgi_value r, uint32_t *len) {
  uint32_t top = vm->heap_top;
  if (r < 0 || (uint64_t)r >= top) return NULL;
  rgi_value n = vm->heap[r];
  if (n < 0 || (uint64_t)n > (uint64_t)top - (uint64_t)r - 1) return NULL;
  *len = (uint32_t)n;
  return vm->heap + r + 1;
}

/* Compares a and b as values of type t (records field by field, lists
** element by element, anything else as numbers), following the live heap.
** Each record or list visited costs its number of fields or elements from
** the VM's work budget (vm->work_left), so comparing values that share
** their parts (a list holding the same list twice, nested) stays bounded.
** Returns 1 equal, 0 different, -1 when a record or list lies outside the
** heap, -2 when values nest deeper than 64 (a list that holds itself), -3
** when the work budget runs out. */
__attribute__((noinline))
static int vm_equal(rgi_vm *vm, rgi_type t, rgi_value a, rgi_value b, int depth) {
  const rgi_module *m = vm->m;
  if (a == b) return 1;
  if (t.kind != RG_K_RECORD && t.kind != RG_K_LIST) return 0;
  if (depth >= 64) return -2;
  if (t.kind == RG_K_RECORD) {
    uint32_t n = m->records[t.ref].count, top = vm->heap_top;
    if (a < 0 || b < 0 || (uint64_t)a + n > top || (uint64_t)b + n > top) return -1;
    if ((uint64_t)n + 1 > vm->work_left) return -3;
    vm->work_left -= (uint64_t)n + 1;
    for (uint32_t k = 0; k < n; k++) {
      int r = vm_equal(vm, m->fields[m->records[t.ref].first + k].type, vm->heap[a + k],
                       vm->heap[b + k], depth + 1);
      if (r != 1) return r;
    }
    return 1;
  }
  {
    uint32_t na = 0, nb = 0;
    const rgi_value *ea = vm_list(vm, a, &na), *eb = vm_list(vm, b, &nb);
    rgi_type el = m->types[t.ref];
    if (!ea || !eb) return -1;
    if (na != nb) return 0;
    if ((uint64_t)na + 1 > vm->work_left) return -3;
    vm->work_left -= (uint64_t)na + 1;
    for (uint32_t k = 0; k < na; k++) {
      int r = vm_equal(vm, el, ea[k], eb[k], depth + 1);
      if (r != 1) return r;
    }
    return 1;
  }
}

/* Reserves a new list of n elements at the top of the heap and writes its
** length word; the caller fills the elements.  Returns its offset, or -1
** when the heap is full. */
static int64_t vm_new_list(rgi_vm *vm, uint64_t n) {
  uint32_t top = vm->heap_top;
  if ((uint64_t)top + 1 + n > vm->heap_cap) return -1;
  vm->heap[top] = (rgi_value)n;
  vm->heap_top = top + 1 + (uint32_t)n;
  return top;
}

/* The instructions that compare values of a record or list type T (EQV,
** LISTHASV, LISTSUB) run outside the dispatch loop, so that the loop's
** registers stay as they are; each returns 0, or vm_equal's failure (-1,
** -2, -3), or -4 when a list lies outside the heap, -5 when the heap is
** full.  vm_value_fail turns that into the run's error at instruction pc. */

/* LISTHASV: sets *has to whether a occurs in list l (elements of type t),
** counting the elements scanned as work. */
__attribute__((noinline))
static int vm_list_has_value(rgi_vm *vm, rgi_type t, rgi_value a, rgi_value l, rgi_value *has) {
  uint32_t n = 0, j = 0;
  const rgi_value *e = vm_list(vm, l, &n);
  int r = 0;
  if (!e) return -4;
  for (; j < n && r == 0; j++) r = vm_equal(vm, t, a, e[j], 0);
  if (r < 0) return r;
  if (j > vm->work_left) return -3;
  vm->work_left -= j;
  *has = r;
  return 0;
}

/* LISTSUB: sets *out to a new list: list a without the first occurrence
** of each element of list b (compared as values of type t); an element of b
** that is not in a removes nothing.  Counts the elements of b scanned. */
__attribute__((noinline))
static int vm_list_sub_values(rgi_vm *vm, rgi_type t, rgi_value a, rgi_value b, rgi_value *out) {
  uint32_t na = 0, nb = 0, kept = 0;
  const rgi_value *ea = vm_list(vm, a, &na), *eb = vm_list(vm, b, &nb);
  int64_t l;
  if (!ea || !eb) return -4;
  if ((l = vm_new_list(vm, na)) < 0) return -5;        /* at most na kept */
  /* taken[j]: element j of b has removed one element already; the flags
  ** live past the new list, in the heap's free room */
  if ((uint64_t)l + 1 + na + nb > vm->heap_cap) return -5;
  rgi_value *h = vm->heap, *taken = h + l + 1 + na;
  for (uint32_t j = 0; j < nb; j++) taken[j] = 0;
  for (uint32_t k = 0; k < na; k++) {
    int drop = 0;
    uint32_t j = 0;
    for (; j < nb && !drop; j++) {
      if (taken[j]) continue;
      int r = vm_equal(vm, t, ea[k], eb[j], 0);
      if (r < 0) return r;
      if (r) { taken[j] = 1; drop = 1; }
    }
    if (j > vm->work_left) return -3;
    vm->work_left -= j;
    if (!drop) h[l + 1 + kept++] = ea[k];
  }
  h[l] = kept;
  vm->heap_top = (uint32_t)(l + 1 + kept);
  *out = l;
  return 0;
}

/* Records the failure r of a value-comparing instruction at pc (see
** above) and returns the run's status. */
__attribute__((noinline))
static rg_status vm_value_fail(rgi_vm *vm, int r, uint32_t pc) {
  switch (r) {
  case -2: return vm_fail(vm, RG_RUN_LIMIT, pc, "values nest deeper than 64");
  case -3: return vm_fail(vm, RG_RUN_LIMIT, pc, "step limit of %llu reached",
                          (unsigned long long)vm->max_steps);
  case -5: return vm_fail(vm, RG_RUN_LIMIT, pc, "memory limit");
  default: return vm_fail(vm, RG_RUN_ERROR, pc, "a record or list outside the heap");
  }
}

/* Whether b goes before a in the order: least first, or greatest first
** when desc.  Equal values never do, which keeps the sorts stable. */
#define VM_BEFORE(b, a, desc) ((desc) ? (b) > (a) : (b) < (a))

/* Sorts a[0..n) stably, least first (greatest first when desc).  With tmp
** (room for n values) a bottom-up merge sort; without, an insertion sort.
** Uses no global state. */
static void vm_sort(rgi_value *a, uint32_t n, rgi_value *tmp, int desc) {
  if (!tmp) {
    for (uint32_t k = 1; k < n; k++) {
      rgi_value x = a[k];
      uint32_t j = k;
      while (j > 0 && VM_BEFORE(x, a[j - 1], desc)) { a[j] = a[j - 1]; j--; }
      a[j] = x;
    }
    return;
  }
  rgi_value *src = a, *dst = tmp;
  for (uint64_t w = 1; w < n; w *= 2) {
    for (uint64_t lo = 0; lo < n; lo += 2 * w) {
      uint64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      uint64_t l = lo, r = mid, o = lo;
      while (l < mid && r < hi) dst[o++] = VM_BEFORE(src[r], src[l], desc) ? src[r++] : src[l++];
      while (l < mid) dst[o++] = src[l++];
      while (r < hi) dst[o++] = src[r++];
    }
    rgi_value *t = src; src = dst; dst = t;
  }
  if (src != a) memcpy(a, src, (size_t)n * sizeof(rgi_value));
}

/* Leaves a lookup whose key is out of range: the LOOKUP at module pc (its
** operand names the table) with keys[0..ndims); reports the first key
** outside its dimension as "key K outside LO..HI of table 'NAME'". */
static rg_status vm_lookup_fail(rgi_vm *vm, uint32_t pc, const rgi_value *keys) {
  const rgi_module *m = vm->m;
  const rgi_table *t = &m->tables[RG_INS_A(m->code[pc])];
  const rgi_dim *d = &m->dims[t->first_dim];
  uint32_t k = 0;
  while (k + 1 < t->ndims && (uint64_t)keys[k] - (uint64_t)d[k].lo < d[k].size) k++;
  return vm_fail(vm, RG_RUN_ERROR, pc, "key %lld outside %lld..%lld of table '%s'",
                 (long long)keys[k], (long long)d[k].lo,
                 (long long)(d[k].lo + (rgi_value)(d[k].size - 1)), rgi_module_str(m, t->name));
}

/* ---- dispatch ------------------------------------------------------------- */

/* pc points at the instruction being executed: vmbreak goes on to the
** next one, vmjump(t) to fast instruction t (a pointer into the fast code). */
#if defined(__GNUC__) && !defined(RG_VM_SWITCH)
#define vmdispatch(o)  goto *pc->h;
#define vmcase(l)      L_##l:
#define vmbreak        do { pc++; goto *pc->h; } while (0)
#define vmjump(t)      do { pc = (t); goto *pc->h; } while (0)
#else
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-label"
#endif
#define vmdispatch(o)  switch (o)
#define vmcase(l)      case l: L_##l:
#define vmbreak        do { pc++; goto vm_top; } while (0)
#define vmjump(t)      do { pc = (t); goto vm_top; } while (0)
#endif

/* The operands of the instruction being executed, and the slots they name. */
#define IA             (pc->a)
#define IB             (pc->b)
#define IC             (pc->c)
#define ID             (pc->d)
#define RA             base[IA]
#define RB             base[IB]
#define RC             base[IC]
#define RD             base[ID]

/* A stack-form instruction's operands lie just below sp = base + d. */
#define STACKOP()      rgi_value *sp = base + ID

/* Module pc of the instruction being executed (of the one that may fail,
** for a superinstruction), and d instructions after it. */
#define PCIDX()        (FMAP[pc - FCODE])
#define PCAT(d)        (FMAP[pc - FCODE] + (d))

/* Leaves the loop with an error at the current instruction. */
#define RTERR(...)     do { return vm_fail(vm, RG_RUN_ERROR, PCIDX(), __VA_ARGS__); } while (0)
#define RTERR_AT(d, ...) do { return vm_fail(vm, RG_RUN_ERROR, PCAT(d), __VA_ARGS__); } while (0)
#define RTLIMIT(...)   do { return vm_fail(vm, RG_RUN_LIMIT, PCIDX(), __VA_ARGS__); } while (0)
/* Leaves with a value-comparing instruction's failure r (vm_value_fail). */
#define VM_EQUAL_FAIL(r) do { return vm_value_fail(vm, (r), PCIDX()); } while (0)

/* Checks that v is a list inside the live heap: sets ptr and len, else
** leaves with an error. */
#define LISTARG(v, ptr, len) do { if (unlikely(!((ptr) = vm_list(vm, (v), &(len))))) \
                              RTERR("list %lld outside the heap (size %u)", (long long)(v), \
                                    (unsigned)vm->heap_top); } while (0)

/* Reserves a new list of n elements (offset in l), else the memory limit. */
#define NEWLIST(l, n)  do { if (unlikely(((l) = vm_new_list(vm, (n))) < 0)) RTLIMIT("memory limit"); } while (0)

/* The checks of a call of procedure p whose frame would start at nbase:
** its steps, the call depth, the frame's room on the stack. */
#define CALL_CHECKS(p, nbase) do { STEPS(vm->fproc[p].steps); \
    if (unlikely(vm->depth + 1 >= RG_MAX_CALL_DEPTH)) RTLIMIT("call depth limit"); \
    if (unlikely((uint64_t)(STACK_END - (nbase)) < vm->fproc[p].size)) RTLIMIT("memory limit"); \
  } while (0)

/* Counts w steps (a backward jump's or a call's weight, see vm_int.h)
** against the limit; the instruction d after the current one reports. */
#define STEPS_AT(d, w) do { uint64_t w_ = (uint64_t)(uint32_t)(w); \
                            if (unlikely(steps_left < w_)) \
                              return vm_fail(vm, RG_RUN_LIMIT, PCAT(d), "step limit of %llu reached", \
                                             (unsigned long long)MAX_STEPS); \
                            steps_left -= w_; } while (0)
#define STEPS(w)       STEPS_AT(0, w)
/* Counts w units of work: an instruction that reads n values without
** building anything (n dice rolled, a list of n scanned) costs n, against a
** budget of its own as large as the step limit (kept in the VM, not with
** steps_left, so that the loop's registers stay as they are).
** Instructions that build lists need no such count: what they build stays
** on the heap until the call ends, so the memory limit bounds them.  With
** both, the limits bound the time of a call whatever it does. */
#define WORK(w)        do { uint64_t w_ = (uint64_t)(w); \
                            if (unlikely(w_ > vm->work_left)) \
                              return vm_fail(vm, RG_RUN_LIMIT, PCIDX(), "step limit of %llu reached", \
                                             (unsigned long long)MAX_STEPS); \
                            vm->work_left -= w_; } while (0)

/* Binary operators on x and y into r, with their runtime errors. */
#define VM_DO_ADD(x, y, r) do { if (unlikely(add_ovf((x), (y), &(r)))) RTERR("integer overflow"); } while (0)
#define VM_DO_SUB(x, y, r) do { if (unlikely(sub_ovf((x), (y), &(r)))) RTERR("integer overflow"); } while (0)
#define VM_DO_MUL(x, y, r) do { if (unlikely(mul_ovf((x), (y), &(r)))) RTERR("integer overflow"); } while (0)
#define VM_DO_DIV(x, y, r) do { rgi_value x_ = (x), y_ = (y); \
    if (unlikely(y_ == 0)) RTERR("division by zero"); \
    if (unlikely(y_ == -1 && x_ == INT64_MIN)) RTERR("integer overflow"); \
    (r) = x_ / y_; } while (0)
#define VM_DO_MOD(x, y, r) do { rgi_value x_ = (x), y_ = (y); \
    if (unlikely(y_ == 0)) RTERR("division by zero"); \
    (r) = y_ == -1 ? 0 : x_ % y_; } while (0)
#define VM_DO_EQ(x, y, r) ((r) = (x) == (y))
#define VM_DO_NE(x, y, r) ((r) = (x) != (y))
#define VM_DO_LT(x, y, r) ((r) = (x) < (y))
#define VM_DO_LE(x, y, r) ((r) = (x) <= (y))
#define VM_DO_GT(x, y, r) ((r) = (x) > (y))
#define VM_DO_GE(x, y, r) ((r) = (x) >= (y))
/* Sets are 64-bit masks; a member must be 0..63. */
#define VM_DO_INSET(x, y, r) do { rgi_value e_ = (x); \
    if (unlikely(e_ < 0 || e_ > 63)) RTERR("set member %lld outside 0..63", (long long)e_); \
    (r) = (rgi_value)(((uint64_t)(y) >> e_) & 1u); } while (0)
#define VM_DO_SETADD(x, y, r) do { rgi_value e_ = (y); \
    if (unlikely(e_ < 0 || e_ > 63)) RTERR("set member %lld outside 0..63", (long long)e_); \
    (r) = (rgi_value)((uint64_t)(x) | ((uint64_t)1 << e_)); } while (0)
#define VM_DO_UNION(x, y, r) ((r) = (x) | (y))
#define VM_DO_INTER(x, y, r) ((r) = (x) & (y))
#define VM_DO_DIFF(x, y, r)  ((r) = (x) & ~(y))

/* Unary operators on x into r. */
#define VM_DO_NEG(x, r) do { rgi_value x_ = (x); \
    if (unlikely(x_ == INT64_MIN)) RTERR("integer overflow"); \
    (r) = -x_; } while (0)
#define VM_DO_NOT(x, r) ((r) = !(x))
#define VM_DO_ABS(x, r) do { rgi_value x_ = (x); \
    if (unlikely(x_ == INT64_MIN)) RTERR("integer overflow"); \
    (r) = x_ < 0 ? -x_ : x_; } while (0)
#define VM_DO_COUNT(x, r) ((r) = popcount64((uint64_t)(x)))
#define VM_DO_LEN(x, r) do { const rgi_value *e_; uint32_t n_; LISTARG((x), e_, n_); (void)e_; \
    (r) = n_; } while (0)

/* The register forms: r := x op y, r := op x, and compare-and-branch (a
** backward branch counts its weight in steps when taken). */
#define VM_RBIN_CASE(o) \
  vmcase(VM_R_##o) { rgi_value r_; VM_DO_##o(RB, RC, r_); RA = r_; vmbreak; }
#define VM_RUN_CASE(o) \
  vmcase(VM_R_##o) { rgi_value r_; VM_DO_##o(RB, r_); RA = r_; vmbreak; }
#define VM_BR_CASE(o, cmp) \
  vmcase(VM_BR_##o) { if (RA cmp RB) { if (ID) STEPS(ID); vmjump(pc + IC); } vmbreak; } \
  vmcase(VM_JBR_##o) { STEPS(ID); \
                       if (RA cmp RB) vmjump(pc + IC); \
                       vmbreak; } \
  vmcase(VM_INCBR_##o) { rgi_value r_; VM_DO_ADD(RA, RB, r_); RA = r_; STEPS_AT(pc->e, pc[1].a); \
                         if (r_ cmp RD) vmjump(pc + IC); \
                         vmjump(pc + 2); }   /* over the NOP the JMPB left */

/* x mod k into r, for a constant k >= 1 with its multiplier in d and e
** (Lemire's fastmod) when 0 <= x < 2^32; the sign of x otherwise, like MOD. */
#define VM_FASTMOD(x, k, r) do { rgi_value x_ = (x); \
    if (likely((uint64_t)x_ <= UINT32_MAX)) \
      (r) = (rgi_value)(uint64_t)(((__uint128_t)(((uint64_t)pc->e << 32 | (uint32_t)pc->d) * (uint64_t)x_) * (uint64_t)(k)) >> 64); \
    else (r) = x_ % (rgi_value)(k); } while (0)

/* Runs procedure proc of the VM's module with args[0..nparams) (may be NULL
** when it has none); stores its result, if any, in *result (may be NULL).
** Resets the heap to the module's constants first.  Allocates nothing.
** Returns RG_RUN_OK, or RG_RUN_ERROR / RG_RUN_LIMIT with rgi_vm_error set. */
/* What the dispatch loop reads through vm, not from locals of its own: the
** fewer locals, the likelier pc, base and the dispatch table stay in
** registers (GCC spills otherwise). */
#define M          (vm->m)
#define H          (vm->heap)
#define STACK_END  (vm->stack + vm->nstack)
#define MAX_STEPS  (vm->max_steps)
#define FCODE      (vm->fcode)
#define FMAP       (vm->fmap)

/* GCC's global common subexpression elimination hoists loads out of the
** handlers into spilled locals and keeps pc and base out of registers in a
** computed-goto loop (GCC's manual says as much for -fno-gcse): off here. */
static rg_status vm_interp(rgi_vm *vm, const vm_ins *pc, rgi_value *base, rgi_value *result);

rg_status rgi_vm_call(rgi_vm *vm, uint32_t proc, const rgi_value *args, rgi_value *result) {
  vm->work_left = MAX_STEPS;         /* WORK: dice rolled, list elements read */

  vm->depth = 0;
  vm->label_set = 0;
  vm->draws_after = 0;
  vm->err[0] = '\0';
  vm->err_pc = 0;
  vm->heap_top = M->nheap;
  vm_refill_decks(vm);
  if (proc >= M->nprocs)
    return vm_fail(vm, RG_RUN_ERROR, 0, "no procedure %u", (unsigned)proc);
  const rgi_proc *p = &M->procs[proc];
  const vm_fproc *fp = &vm->fproc[proc];
  if (fp->size > vm->nstack)
    return vm_fail(vm, RG_RUN_LIMIT, p->code, "memory limit");
  rgi_value *base = vm->stack;
  for (uint32_t k = 0; k < p->nparams; k++) base[k] = args ? args[k] : 0;
  /* the native code keeps its locals and constants in C variables and
  ** stores in the frame every slot a VM handler it hands over to reads */
  if (vm->native) return vm_native_call(vm, proc, base, result);
  for (uint32_t k = p->nparams; k < p->nlocals; k++) base[k] = 0;
  if (fp->ncon) memcpy(base + p->nlocals, vm->fconst + fp->con, fp->ncon * sizeof(rgi_value));
  return vm_interp(vm, FCODE + fp->entry, base, result);
}

/* Runs fast instruction k (an instruction of the fast code) alone on the
** frame at base, for the native tier: the VM's own handler, so the
** instruction's effects, events and errors are the VM's.  The copy of the
** fast code in vm->xcode has each instruction followed by its DATA word
** (LOOKUP2's) or EXIT, then EXIT, so the loop stops after it.  Returns the
** instruction's status (RG_RUN_OK when it went on). */
rg_status vm_exec1(rgi_vm *vm, uint32_t k, rgi_value *base) {
  vm_ins *fcode = vm->fcode;
  uint32_t *fmap = vm->fmap, n = vm->nfcode;
  int threaded = vm->threaded;
  vm->fcode = vm->xcode;
  vm->fmap = vm->xmap;
  vm->nfcode = 3 * n;
  vm->threaded = vm->xthreaded;
  rg_status st = vm_interp(vm, vm->xcode + 3 * (uint64_t)k, base, NULL);
  vm->xthreaded = vm->threaded;
  vm->fcode = fcode;
  vm->fmap = fmap;
  vm->nfcode = n;
  vm->threaded = threaded;
  return st;
}

/* The dispatch loop: runs the fast code from pc on the frame at base until
** the outermost procedure returns (its result to *result when not NULL),
** EXIT, or a failure.  Returns RG_RUN_OK, or RG_RUN_ERROR / RG_RUN_LIMIT
** with rgi_vm_error set. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-gcse", "no-crossjumping")))
#endif
static rg_status vm_interp(rgi_vm *vm, const vm_ins *pc, rgi_value *base, rgi_value *result) {
  uint64_t steps_left = MAX_STEPS;   /* steps (weighted backward jumps, calls) still allowed */

#if defined(__GNUC__) && !defined(RG_VM_SWITCH)
  static const void *const disptab[VM_NFOPS] = {
#define RG_X(name, operand, pops, pushes, doc) &&L_RG_OP_##name,
    RG_OPCODES(RG_X)
#undef RG_X
#define VM_X(o) &&L_VM_R_##o,
    VM_RBINOPS(VM_X)
    VM_RUNOPS(VM_X)
#undef VM_X
#define VM_X(o) &&L_VM_BR_##o,
    VM_CMPS(VM_X)
#undef VM_X
#define VM_X(o) &&L_VM_INCBR_##o,
    VM_CMPS(VM_X)
#undef VM_X
#define VM_X(o) &&L_VM_JBR_##o,
    VM_CMPS(VM_X)
#undef VM_X
#define VM_X(o) &&L_VM_##o,
    VM_OTHER_FOPS(VM_X)
#undef VM_X
  };
  if (unlikely(!vm->threaded)) {   /* direct threading: each instruction knows its handler */
    for (uint32_t k = 0; k < vm->nfcode; k++) vm->fcode[k].h = disptab[vm->fcode[k].op];
    vm->threaded = 1;
  }
#endif

  for (;;) {
#if !defined(__GNUC__) || defined(RG_VM_SWITCH)
  vm_top:
#endif
    vmdispatch(pc->op) {

      /* Never in the fast code: the stack opcodes that always get their
      ** register form, and code no path reaches. */
      vmcase(RG_OP_PUSHI) vmcase(RG_OP_CONST) vmcase(RG_OP_LOAD) vmcase(RG_OP_STORE)
      vmcase(RG_OP_POP) vmcase(RG_OP_ADD) vmcase(RG_OP_SUB) vmcase(RG_OP_MUL)
      vmcase(RG_OP_DIV) vmcase(RG_OP_MOD) vmcase(RG_OP_NEG) vmcase(RG_OP_NOT)
      vmcase(RG_OP_EQ) vmcase(RG_OP_NE) vmcase(RG_OP_LT) vmcase(RG_OP_LE)
      vmcase(RG_OP_GT) vmcase(RG_OP_GE) vmcase(RG_OP_JMPF) vmcase(RG_OP_JMPT)
      vmcase(RG_OP_FIELD) vmcase(RG_OP_INSET) vmcase(RG_OP_SETADD) vmcase(RG_OP_UNION)
      vmcase(RG_OP_INTER) vmcase(RG_OP_DIFF) vmcase(RG_OP_COUNT) vmcase(RG_OP_CLAMP)
      vmcase(RG_OP_ABS) vmcase(RG_OP_RET) vmcase(RG_OP_ROLL) vmcase(RG_OP_ROLLAT)
      vmcase(RG_OP_ROLLDIE) vmcase(RG_OP_DRAW) vmcase(RG_OP_DRAWS) vmcase(RG_OP_LEFT)
      vmcase(RG_OP_INPUT) vmcase(RG_OP_NTH) vmcase(RG_OP_LEN) vmcase(RG_OP_ITEM)
      vmcase(RG_OP_SETITEM) vmcase(VM_UNREACHABLE) vmcase(VM_DATA) {
        RTERR("internal error: instruction %u has no fast form", (unsigned)pc->op);
      }

      /* Opcode NOP: Does nothing. */
      vmcase(RG_OP_NOP) {
        vmbreak;
      }

      /* EXIT: the end of one instruction run alone (vm_exec1). */
      vmcase(VM_EXIT) {
        return RG_RUN_OK;
      }

      /* Register arithmetic, comparisons and sets; compare and branch. */
      VM_RBINOPS(VM_RBIN_CASE)
      VM_RUNOPS(VM_RUN_CASE)
      VM_BR_CASE(EQ, ==)
      VM_BR_CASE(NE, !=)
      VM_BR_CASE(LT, <)
      VM_BR_CASE(LE, <=)
      VM_BR_CASE(GT, >)
      VM_BR_CASE(GE, >=)
      vmcase(VM_R_MODK) { VM_FASTMOD(RB, IC, RA); vmbreak; }
      vmcase(VM_BRF) { if (!RA) { if (ID) STEPS(ID); vmjump(pc + IB); } vmbreak; }
      vmcase(VM_BRT) { if (RA) { if (ID) STEPS(ID); vmjump(pc + IB); } vmbreak; }
      vmcase(VM_MOV) { RA = RB; vmbreak; }
      vmcase(VM_MOV2) { RA = RB; RC = RD; pc++; vmbreak; }
      vmcase(VM_R_MIN2) { rgi_value x = RB, y = RC; RA = y < x ? y : x; vmbreak; }
      vmcase(VM_R_MAX2) { rgi_value x = RB, y = RC; RA = y > x ? y : x; vmbreak; }

      /* Opcode CLAMP: x lo hi -> lo when x < lo, hi when x > hi, else x. */
      vmcase(VM_R_CLAMP) {
        rgi_value x = RB, lo = RC, hi = RD;
        RA = x < lo ? lo : x > hi ? hi : x;
        vmbreak;
      }

      /* Opcode JMP: a forward jump to fast index A (backward ones are JMPB). */
      vmcase(RG_OP_JMP) {
        vmjump(pc + IA);
      }

      /* JMPB: a backward jump to fast index A; counts B steps. */
      vmcase(VM_JMPB) {
        STEPS(IB);
        vmjump(pc + IA);
      }

      /* list L[a], element L[b] += c in place: the errors of ITEM (here),
      ** ADD (+2) and SETITEM (+3), in that order. */
      vmcase(VM_LISTADD) {
        const rgi_value *e;
        uint32_t n;
        rgi_value l = RA, k = RB, r_;
        LISTARG(l, e, n);
        if (unlikely(k < 0 || k >= (rgi_value)n))
          RTERR("index %lld outside the list of %u", (long long)k, (unsigned)n);
        if (unlikely(add_ovf(e[k], (rgi_value)IC, &r_))) RTERR_AT(2, "integer overflow");
        if (unlikely(l < (rgi_value)M->nheap)) RTERR_AT(3, "a constant list cannot be changed");
        H[l + 1 + k] = r_;
        vmbreak;
      }

      /* Opcode LOOKUP of a table of one or two dimensions, with the table's
      ** cells and dimensions in the instruction: r := T[b] (c: lo, d: size,
      ** e: the table's first cell), or r := T[b, c] (d: first cell; the data
      ** word after it: lo and size of each dimension in a b and c d). */
      vmcase(VM_R_LOOKUP1) {
        rgi_value k = RB;
        uint64_t i = (uint64_t)k - (uint64_t)(rgi_value)IC;
        if (unlikely(i >= (uint32_t)ID)) return vm_lookup_fail(vm, PCIDX(), &k);
        RA = M->cells[pc->e + i];
        vmbreak;
      }
      vmcase(VM_R_LOOKUP2) {
        const vm_ins *x = pc + 1;
        rgi_value k[2] = { RB, RC };
        uint64_t i = (uint64_t)k[0] - (uint64_t)(rgi_value)x->a;
        uint64_t j = (uint64_t)k[1] - (uint64_t)(rgi_value)x->c;
        if (unlikely(i >= (uint32_t)x->b || j >= (uint32_t)x->d)) return vm_lookup_fail(vm, PCIDX(), k);
        RA = M->cells[(uint32_t)ID + i * (uint32_t)x->d + j];
        pc++;
        vmbreak;
      }

      /* Opcode LOOKUP A: k1 .. kn -> T[A][k1, .., kn].  Each key must lie in
      ** its dimension, else "key K outside LO..HI of table 'NAME'". */
      vmcase(RG_OP_LOOKUP) {
        STACKOP();
        const rgi_table *t = &M->tables[((uint32_t)IA)];
        const rgi_dim *d = &M->dims[t->first_dim];
        uint32_t n = t->ndims;
        rgi_value *keys = sp - n;
        uint64_t idx = 0;
        for (uint32_t k = 0; k < n; k++) {
          uint64_t i = (uint64_t)keys[k] - (uint64_t)d[k].lo;
          if (unlikely(i >= d[k].size)) return vm_lookup_fail(vm, PCIDX(), keys);
          idx = idx * d[k].size + i;
        }
        keys[0] = M->cells[t->first + idx];
        vmbreak;
      }

      /* Opcode FIELD A: r -> H[r + A]; r + A must lie in the live heap
      ** (here x := H[b + c]). */
      vmcase(VM_R_FIELD) {
        rgi_value r = RB;
        uint32_t a = ((uint32_t)IC);
        uint32_t top = vm->heap_top;
        if (unlikely(r < 0 || (uint64_t)r >= top || a >= top - (uint64_t)r))
          RTERR("record field %lld+%u outside the heap (size %u)", (long long)r,
                (unsigned)a, (unsigned)top);
        RA = H[r + a];
        vmbreak;
      }

      /* Opcode MIN A: v1 .. vA -> the least of them (A >= 1). */
      vmcase(RG_OP_MIN) {
        STACKOP();
        uint32_t n = ((uint32_t)IA);
        sp -= n;
        rgi_value v = sp[0];
        for (uint32_t k = 1; k < n; k++) if (sp[k] < v) v = sp[k];
        *sp++ = v;
        vmbreak;
      }

      /* Opcode MAX A: v1 .. vA -> the greatest of them (A >= 1). */
      vmcase(RG_OP_MAX) {
        STACKOP();
        uint32_t n = ((uint32_t)IA);
        sp -= n;
        rgi_value v = sp[0];
        for (uint32_t k = 1; k < n; k++) if (sp[k] > v) v = sp[k];
        *sp++ = v;
        vmbreak;
      }

      /* Opcode MKREC A: f1 .. fn -> offset of a new record of type A on the
      ** heap; a full heap is the "memory limit". */
      vmcase(RG_OP_MKREC) {
        STACKOP();
        uint32_t n = M->records[((uint32_t)IA)].count;
        uint32_t top = vm->heap_top;
        if (unlikely((uint64_t)top + n > vm->heap_cap)) RTLIMIT("memory limit");
        sp -= n;
        memcpy(H + top, sp, (size_t)n * sizeof(rgi_value));
        vm->heap_top = top + n;
        *sp++ = top;
        vmbreak;
      }

      /* Opcode CALL A: call procedure A; its parameters, on the stack, become
      ** its first locals, then come its constants.  Counts the callee's length in
      ** steps; depth
      ** beyond RG_MAX_CALL_DEPTH is the "call depth limit", a frame that does
      ** not fit the "memory limit". */
      /* A call of a procedure that only draws: made when the sink takes
      ** shapes, else skipped (see vm_draw_only in vmtrans.c). */
      vmcase(VM_CALLDRAW) {
        if (!vm->sink.shape) vmbreak;
        goto vm_call;
      }

      vmcase(RG_OP_CALL) {
      vm_call:;
        STACKOP();
        uint32_t callee = ((uint32_t)IA);
        const rgi_proc *q = &M->procs[callee];
        const vm_fproc *fq = &vm->fproc[callee];
        rgi_value *nbase = sp - q->nparams;
        CALL_CHECKS(callee, nbase);
        rgi_frame *f = &vm->frames[vm->depth++];
        f->pc = pc + 1;
        f->base = base;
        f->ret = IC;
        for (rgi_value *l = sp, *e = nbase + q->nlocals; l < e; l++) *l = 0;
        const rgi_value *kv = vm->fconst + fq->con;
        for (rgi_value *l = nbase + q->nlocals, *e = l + fq->ncon; l < e; l++) *l = *kv++;
        base = nbase;
        vmjump(vm->fcode + IB);
      }

      /* Opcode RET: return x to the caller, in the slot its CALL names (where
      ** it pushed the arguments, or a local), or to *result. */
      vmcase(VM_R_RET) {
        rgi_value v = RA;
        if (vm->depth == 0) {
          if (result) *result = v;
          return RG_RUN_OK;
        }
        rgi_frame *f = &vm->frames[--vm->depth];
        base = f->base;
        base[f->ret] = v;
        vmjump(f->pc);
      }

      /* The checks of a call whose callee follows inlined (see tr_leaf). */
      vmcase(VM_CALLCK) {
        CALL_CHECKS(IA, base + ID - M->procs[IA].nparams);
        vmbreak;
      }

      /* Opcode RETV: return without a value. */
      vmcase(RG_OP_RETV) {
        if (vm->depth == 0) return RG_RUN_OK;
        rgi_frame *f = &vm->frames[--vm->depth];
        base = f->base;
        vmjump(f->pc);
      }

      /* Opcode NOTE A: v1 .. vn -> (nothing); reports note A with its values
      ** to the sink. */
      vmcase(RG_OP_NOTE) {
        STACKOP();
        uint32_t a = ((uint32_t)IA);
        sp -= M->notes[a].nvals;
        if (vm->sink.note) vm->sink.note(vm->sink.ctx, M, a, sp, PCIDX());
        vmbreak;
      }

      /* Opcode LABEL A: who -> (nothing); the next roll or draw is done by
      ** who, for choice site A's prompt (see rgi_vm_label). */
      vmcase(RG_OP_LABEL) {
        STACKOP();
        vm->label_gen++;
        vm->label_set = 1;
        vm->label_site = (uint32_t)IA;
        vm->label_who = sp[-1];
        vmbreak;
      }

      /* Opcode SHAPE A: v1..vn -> (nothing); reports shape A (a note entry:
      ** its text is the kind of shape) with its n values to the sink. */
      vmcase(RG_OP_SHAPE) {
        STACKOP();
        uint32_t a = ((uint32_t)IA);
        sp -= M->notes[a].nvals;
        if (vm->sink.shape) vm->sink.shape(vm->sink.ctx, M, a, sp, PCIDX());
        vmbreak;
      }

      /* Opcode EXPECT A: v -> (nothing); when v is 0, reports expectation A
      ** failed (actual 0, expected 1) and goes on. */
      vmcase(RG_OP_EXPECT) {
        STACKOP();
        if (!*--sp && vm->sink.expect_fail) {
          vm->frame = base;
          vm->sink.expect_fail(vm->sink.ctx, M, ((uint32_t)IA), 0, 1, PCIDX());
          vm->frame = NULL;
        }
        vmbreak;
      }

      /* Opcode EXPECTEQ A: a b -> (nothing); when a != b, reports expectation
      ** A failed (actual a, expected b) and goes on. */
      vmcase(RG_OP_EXPECTEQ) {
        STACKOP();
        rgi_value a = sp[-2], b = sp[-1];
        rgi_type t = M->expects[IA].type;
        sp -= 2;
        if (a != b && (t.kind == RG_K_RECORD || t.kind == RG_K_LIST)) {
          int r = vm_equal(vm, t, a, b, 0);
          if (unlikely(r < 0)) VM_EQUAL_FAIL(r);
          if (r) b = a;                      /* equal as values */
        }
        if (a != b && vm->sink.expect_fail) {
          vm->frame = base;
          vm->sink.expect_fail(vm->sink.ctx, M, ((uint32_t)IA), a, b, PCIDX());
          vm->frame = NULL;
        }
        vmbreak;
      }

      /* Opcode SETLIST: set -> a new list of its members' indexes, in
      ** declaration order. */
      vmcase(RG_OP_SETLIST) {
        STACKOP();
        uint64_t set = (uint64_t)sp[-1];
        int64_t l;
        NEWLIST(l, (uint64_t)popcount64(set));
        rgi_value *e = H + l + 1;
        for (int k = 0; k < 64; k++)
          if ((set >> k) & 1u) *e++ = k;
        sp[-1] = l;
        vmbreak;
      }

      /* Opcode ROLL A: n -> the sum of n dice of A sides (each 1..A); n must
      ** be 0..1000, else "cannot roll N dice".  Reports the roll (die -1). */
      vmcase(VM_R_ROLL) {
        uint32_t sides = ((uint32_t)IC);
        rgi_value n = RB;
        if (unlikely(n < 0 || n > RG_VM_SCRATCH)) RTERR("cannot roll %lld dice", (long long)n);
        WORK(n);
        if (likely(!vm->sink.chance && !vm->sink.roll)) {
          /* Nobody watches: sum straight from the generator. */
          rgi_rng r = vm->rng;   /* in registers for the loop */
          rgi_value sum = n;
          for (rgi_value k = 0; k < n; k++) sum += (rgi_value)rgi_rng_below(&r, sides);
          vm->rng = r;
          RA = sum;
          vmbreak;
        }
        rgi_value *res = vm->scratch;
        if (unlikely(vm_roll_plain(vm, sides, (uint32_t)n, res, PCIDX()) != 0))
          RTERR("no result given for the roll");
        rgi_value sum = 0;
        for (rgi_value k = 0; k < n; k++) sum += res[k];
        if (vm->sink.roll) vm->sink.roll(vm->sink.ctx, M, -1, sides, res, (uint32_t)n, PCIDX());
        RA = sum;
        vmbreak;
      }

      /* Opcode ROLLAT A: n k -> how many of n dice of A sides show k or
      ** more.  Reports the roll like ROLL. */
      vmcase(VM_R_ROLLAT) {
        uint32_t sides = ((uint32_t)ID);
        rgi_value n = RB, need = RC, count = 0;
        if (unlikely(n < 0 || n > RG_VM_SCRATCH)) RTERR("cannot roll %lld dice", (long long)n);
        WORK(n);
        if (likely(!vm->sink.chance && !vm->sink.roll)) {
          rgi_rng r = vm->rng;
          for (rgi_value k = 0; k < n; k++) count += (rgi_value)rgi_rng_below(&r, sides) + 1 >= need;
          vm->rng = r;
        } else {
          rgi_value *res = vm->scratch;
          if (unlikely(vm_roll_plain(vm, sides, (uint32_t)n, res, PCIDX()) != 0))
            RTERR("no result given for the roll");
          for (rgi_value k = 0; k < n; k++) count += res[k] >= need;
          if (vm->sink.roll) vm->sink.roll(vm->sink.ctx, M, -1, sides, res, (uint32_t)n, PCIDX());
        }
        RA = count;
        vmbreak;
      }

      /* Opcode ROLLS A: n -> a new list of n dice of A sides, as ROLL. */
      vmcase(RG_OP_ROLLS) {
        STACKOP();
        uint32_t sides = ((uint32_t)IA);
        rgi_value n = sp[-1];
        if (unlikely(n < 0 || n > RG_VM_SCRATCH)) RTERR("cannot roll %lld dice", (long long)n);
        int64_t l;
        NEWLIST(l, (uint64_t)n);
        rgi_value *res = H + l + 1;
        if (unlikely(vm_roll_plain(vm, sides, (uint32_t)n, res, PCIDX()) != 0))
          RTERR("no result given for the roll");
        if (vm->sink.roll) vm->sink.roll(vm->sink.ctx, M, -1, sides, res, (uint32_t)n, PCIDX());
        sp[-1] = l;
        vmbreak;
      }

      /* Opcode ROLLDIE A: -> a uniform face of custom die A.  Reports the
      ** roll (die A, sides its face count). */
      vmcase(VM_R_ROLLDIE) {
        uint32_t a = ((uint32_t)IC);
        const rgi_dice *d = &M->dice[a];
        int64_t k = vm_chance(vm, 'f', a, d->count, PCIDX());
        if (unlikely(k < 0)) RTERR("no result given for the roll");
        rgi_value face = M->faces[d->first + (uint64_t)k];
        if (vm->sink.roll) vm->sink.roll(vm->sink.ctx, M, (int32_t)a, d->count, &face, 1, PCIDX());
        RA = face;
        vmbreak;
      }

      /* Opcode DRAW A: -> a card taken from deck A, uniform among those left
      ** (swap-removed); "deck NAME is empty" when none is.  Reports it. */
      vmcase(VM_R_DRAW) {
        uint32_t a = ((uint32_t)IC);
        uint32_t left = vm->deck_left[a];
        if (unlikely(left == 0)) RTERR("deck %s is empty", rgi_module_str(M, M->decks[a].name));
        int64_t k = vm_chance(vm, 'c', a, left, PCIDX());
        if (unlikely(k < 0)) RTERR("no result given for the draw");
        rgi_value *cards = vm->deck_cards + vm->deck_off[a];
        rgi_value card = cards[k];
        cards[k] = cards[left - 1];
        vm->deck_left[a] = left - 1;
        if (vm->sink.draw) vm->sink.draw(vm->sink.ctx, M, a, card, PCIDX());
        RA = card;
        vmbreak;
      }

      /* Opcode DRAWS A: n -> a new list of n cards drawn from deck A, one by
      ** one as DRAW (each reported); "deck NAME is empty" when it runs out. */
      vmcase(VM_R_DRAWS) {
        uint32_t a = ((uint32_t)IC);
        rgi_value n = RB;
        int64_t l;
        if (unlikely(n < 0 || n > RG_VM_SCRATCH)) RTERR("cannot draw %lld cards", (long long)n);
        NEWLIST(l, (uint64_t)n);
        rgi_value *cards = vm->deck_cards + vm->deck_off[a], *out = H + l + 1;
        uint32_t left = vm->deck_left[a];
        if (likely(!vm->sink.chance && !vm->sink.draw && (uint64_t)n <= left)) {
          /* Nobody watches and the deck suffices: draw straight from the generator. */
          rgi_rng r = vm->rng;   /* in registers for the loop */
          for (rgi_value j = 0; j < n; j++) {
            uint32_t k = (uint32_t)rgi_rng_below(&r, left);
            out[j] = cards[k];
            cards[k] = cards[--left];
          }
          vm->rng = r;
          vm->deck_left[a] = left;
          RA = l;
          vmbreak;
        }
        for (rgi_value j = 0; j < n; j++) {
          left = vm->deck_left[a];
          if (unlikely(left == 0)) RTERR("deck %s is empty", rgi_module_str(M, M->decks[a].name));
          vm->draws_after = (uint32_t)(n - 1 - j);
          int64_t k = vm_chance(vm, 'c', a, left, PCIDX());
          vm->draws_after = 0;
          if (unlikely(k < 0)) RTERR("no result given for the draw");
          rgi_value card = cards[k];
          cards[k] = cards[left - 1];
          vm->deck_left[a] = left - 1;
          H[l + 1 + j] = card;
          if (vm->sink.draw) vm->sink.draw(vm->sink.ctx, M, a, card, PCIDX());
        }
        RA = l;
        vmbreak;
      }

      /* Opcode LEFT A: -> the number of cards left in deck A. */
      vmcase(VM_R_LEFT) {
        RA = vm->deck_left[((uint32_t)IC)];
        vmbreak;
      }

      /* Opcode CHOOSE A: chooser options -> the option picked at choice site
      ** A (options: a set, a list, or lo hi for a range of at most 1000
      ** ints).  sink.choose picks (NULL: the first); no options is "nothing
      ** to choose from", -1 or an index out of range "no answer for the
      ** choice". */
      vmcase(RG_OP_CHOOSE) {
        STACKOP();
        uint32_t a = ((uint32_t)IA);
        const rgi_choice *c = &M->choices[a];
        const rgi_value *opts = vm->scratch;
        uint32_t n = 0;
        rgi_value chooser;
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
          rgi_value lo = sp[-2], hi = sp[-1];
          if (hi >= lo) {
            uint64_t span = (uint64_t)hi - (uint64_t)lo;
            if (unlikely(span >= RG_VM_SCRATCH))
              RTERR("range %lld..%lld has more than %d options", (long long)lo, (long long)hi,
                    RG_VM_SCRATCH);
            for (uint64_t k = 0; k <= span; k++) vm->scratch[n++] = lo + (rgi_value)k;
          }
          chooser = sp[-3];
          sp -= 3;
        }
        if (unlikely(n == 0)) RTERR("nothing to choose from");
        int64_t pick = 0;
        if (vm->sink.choose) {
          pick = vm->sink.choose(vm->sink.ctx, M, a, chooser, opts, n, PCIDX());
          if (unlikely(pick < 0 || pick >= (int64_t)n)) RTERR("no answer for the choice");
        }
        *sp++ = opts[pick];
        vmbreak;
      }

      /* Opcode STEP A: reports that step S[A] of the rules begins. */
      vmcase(RG_OP_STEP) {
        if (vm->sink.step) vm->sink.step(vm->sink.ctx, M, ((uint32_t)IA), PCIDX());
        vmbreak;
      }

      /* Opcode INPUT A: -> the value of input A (its default unless set with
      ** rgi_vm_set_input). */
      vmcase(VM_R_INPUT) {
        RA = vm->inputs[((uint32_t)IC)];
        vmbreak;
      }

      /* Opcode NTH A: i -> member i of enum A; i outside 0..count-1 is a
      ** runtime error. */
      vmcase(VM_R_NTH) {
        const rgi_enum *e = &M->enums[((uint32_t)IC)];
        rgi_value k = RB;
        if (unlikely(k < 0 || k >= (rgi_value)e->count))
          RTERR("member %lld outside 0..%u of enum '%s'", (long long)k, (unsigned)(e->count - 1),
                rgi_module_str(M, e->name));
        RA = k;
        vmbreak;
      }

      /* Opcode LIST A: v1 .. vA -> a new list [v1, .., vA] (A may be 0). */
      vmcase(RG_OP_LIST) {
        STACKOP();
        uint32_t n = ((uint32_t)IA);
        int64_t l;
        NEWLIST(l, n);
        sp -= n;
        if (n) memcpy(H + l + 1, sp, (size_t)n * sizeof(rgi_value));
        *sp++ = l;
        vmbreak;
      }

      /* Opcode ITEM: list k -> element k (from 0); k outside the list is
      ** "index K outside the list of N". */
      vmcase(VM_R_ITEM) {
        const rgi_value *e;
        uint32_t n;
        LISTARG(RB, e, n);
        rgi_value k = RC;
        if (unlikely(k < 0 || k >= (rgi_value)n))
          RTERR("index %lld outside the list of %u", (long long)k, (unsigned)n);
        RA = e[k];
        vmbreak;
      }

      /* Opcode SETITEM: list k v -> (nothing); element k of list becomes v,
      ** in place.  Lists of the module's constants cannot change. */
      vmcase(VM_R_SETITEM) {
        const rgi_value *e;
        uint32_t n;
        rgi_value l = RA, k = RB;
        LISTARG(l, e, n);
        if (unlikely(l < (rgi_value)M->nheap)) RTERR("a constant list cannot be changed");
        if (unlikely(k < 0 || k >= (rgi_value)n))
          RTERR("index %lld outside the list of %u", (long long)k, (unsigned)n);
        H[l + 1 + k] = RC;
        vmbreak;
      }

      /* Opcode APPEND: list v -> a new list: list's elements, then v. */
      vmcase(RG_OP_APPEND) {
        STACKOP();
        const rgi_value *e;
        uint32_t n;
        int64_t l;
        LISTARG(sp[-2], e, n);
        NEWLIST(l, (uint64_t)n + 1);
        memcpy(H + l + 1, e, (size_t)n * sizeof(rgi_value));
        H[l + 1 + n] = sp[-1];
        sp[-2] = l;
        sp--;
        vmbreak;
      }

      /* Opcode REMOVE: list k -> a new list without element k; k outside
      ** the list is "index K outside the list of N". */
      vmcase(RG_OP_REMOVE) {
        STACKOP();
        const rgi_value *e;
        uint32_t n;
        int64_t l;
        LISTARG(sp[-2], e, n);
        rgi_value k = sp[-1];
        if (unlikely(k < 0 || k >= (rgi_value)n))
          RTERR("index %lld outside the list of %u", (long long)k, (unsigned)n);
        NEWLIST(l, (uint64_t)n - 1);
        memcpy(H + l + 1, e, (size_t)k * sizeof(rgi_value));
        memcpy(H + l + 1 + k, e + k + 1, (size_t)(n - 1 - (uint64_t)k) * sizeof(rgi_value));
        sp[-2] = l;
        sp--;
        vmbreak;
      }

      /* Opcode CONCAT: a b -> a new list: a's elements, then b's. */
      vmcase(RG_OP_CONCAT) {
        STACKOP();
        const rgi_value *ea, *eb;
        uint32_t na, nb;
        int64_t l;
        LISTARG(sp[-2], ea, na);
        LISTARG(sp[-1], eb, nb);
        NEWLIST(l, (uint64_t)na + nb);
        memcpy(H + l + 1, ea, (size_t)na * sizeof(rgi_value));
        memcpy(H + l + 1 + na, eb, (size_t)nb * sizeof(rgi_value));
        sp[-2] = l;
        sp--;
        vmbreak;
      }

      /* Opcode ATLEAST: list k -> how many elements are >= k. */
      vmcase(RG_OP_ATLEAST) {
        STACKOP();
        const rgi_value *e;
        uint32_t n;
        LISTARG(sp[-2], e, n);
        WORK(n);
        rgi_value k = sp[-1], c = 0;
        for (uint32_t j = 0; j < n; j++) c += e[j] >= k;
        sp[-2] = c;
        sp--;
        vmbreak;
      }

      /* Opcode SUM: list -> the sum of its elements; overflow is a runtime
      ** error. */
      vmcase(RG_OP_SUM) {
        STACKOP();
        const rgi_value *e;
        uint32_t n;
        LISTARG(sp[-1], e, n);
        WORK(n);
        rgi_value sum = 0;
        for (uint32_t j = 0; j < n; j++)
          if (unlikely(add_ovf(sum, e[j], &sum))) RTERR("integer overflow");
        sp[-1] = sum;
        vmbreak;
      }

      /* Opcode BEST: list b -> a new list of the b greatest elements,
      ** greatest first, equal ones in list order (all of them when fewer);
      ** b < 0 is a runtime error. */
      vmcase(RG_OP_BEST) {
        STACKOP();
        const rgi_value *e;
        uint32_t n;
        int64_t l;
        LISTARG(sp[-2], e, n);
        rgi_value b = sp[-1];
        if (unlikely(b < 0)) RTERR("cannot take the best %lld of a list", (long long)b);
        NEWLIST(l, n);
        memcpy(H + l + 1, e, (size_t)n * sizeof(rgi_value));
        uint32_t top = vm->heap_top;
        vm_sort(H + l + 1, n, vm->heap_cap - top >= n ? H + top : NULL, 1);
        if (b < (rgi_value)n) {
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
        STACKOP();
        const rgi_value *e;
        uint32_t n;
        int64_t l;
        LISTARG(sp[-1], e, n);
        NEWLIST(l, n);
        memcpy(H + l + 1, e, (size_t)n * sizeof(rgi_value));
        uint32_t top = vm->heap_top;
        vm_sort(H + l + 1, n, vm->heap_cap - top >= n ? H + top : NULL, 0);
        sp[-1] = l;
        vmbreak;
      }

      /* Opcode LISTHAS: v list -> 1 when v occurs in list, else 0. */
      vmcase(RG_OP_LISTHAS) {
        STACKOP();
        const rgi_value *e;
        uint32_t n;
        LISTARG(sp[-1], e, n);
        WORK(n);
        rgi_value v = sp[-2], found = 0;
        for (uint32_t j = 0; j < n && !found; j++) found = e[j] == v;
        sp[-2] = found;
        sp--;
        vmbreak;
      }

      /* Opcode EQV A: a b -> a == b, compared as values of type T[A]. */
      vmcase(RG_OP_EQV) {
        STACKOP();
        int r = vm_equal(vm, M->types[IA], sp[-2], sp[-1], 0);
        if (unlikely(r < 0)) VM_EQUAL_FAIL(r);
        sp[-2] = r;
        sp--;
        vmbreak;
      }

      /* Opcode LISTHASV A: a l -> whether a occurs in list l, whose
      ** elements are compared as values of type T[A]. */
      vmcase(RG_OP_LISTHASV) {
        STACKOP();
        int r = vm_list_has_value(vm, M->types[IA], sp[-2], sp[-1], &sp[-2]);
        if (unlikely(r < 0)) VM_EQUAL_FAIL(r);
        sp--;
        vmbreak;
      }

      /* Opcode LISTSUB A: a b -> a new list: a without the first
      ** occurrence of each element of b (compared as values of T[A]); an
      ** element of b that is not in a removes nothing. */
      vmcase(RG_OP_LISTSUB) {
        STACKOP();
        int r = vm_list_sub_values(vm, M->types[IA], sp[-2], sp[-1], &sp[-2]);
        if (unlikely(r < 0)) VM_EQUAL_FAIL(r);
        sp--;
        vmbreak;
      }

      /* Opcode FAIL A: stop with a runtime error whose message is S[A]. */
      vmcase(RG_OP_FAIL) {
        RTERR("%s", rgi_module_str(M, ((uint32_t)IA)));
      }
    }
  }
}

#undef M
#undef H
#undef STACK_END
#undef MAX_STEPS
#undef FCODE
#undef FMAP

uint32_t rgi_vm_draws_after(const rgi_vm *vm) {
  return vm->draws_after;
}

int rgi_vm_label(const rgi_vm *vm, uint32_t *site, rgi_value *who, uint32_t *gen) {
  if (!vm->label_set) return 0;
  *site = vm->label_site;
  *who = vm->label_who;
  *gen = vm->label_gen;
  return 1;
}
