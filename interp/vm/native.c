/*
** native.c: the native tier's translator (the VM's fast code to C) and its
** runner (vm_native_call); nativecache.c compiles, caches and loads.
**
** The technique, and why.  A module is translated ahead of its runs into
** C, which the system C compiler turns into a shared object, loaded with
** dlopen and kept in a cache keyed by the text's hash and the compiler.
** The translation starts from the VM's fused register code (vm_int.h), not
** from the bytecode: the translator (vmtrans.c) already resolved the stack
** into frame slots, folded operands and fused compare-and-branch, so each
** fast instruction becomes a line or two of C over named slots, and the C
** compiler keeps the slots in registers, folds the constants and lays out
** the loops.  A procedure becomes a C function over its frame; a call is a
** C call (the VM's checks first: steps, call depth, the frame's room on
** the VM's stack, where the callee's frame lies exactly as the VM would
** place it, so limits stop at the same instruction).
**
** What the generated code does itself: arithmetic, comparisons, sets,
** branches and loops, table lookups, record fields, list items, and rolls
** and draws when nobody watches them (the generator is the VM's, its code
** the same text: RG_RNG_INLINE).  Everything else (notes, choices, steps,
** lists built, custom dice, every roll or draw a sink watches) and every
** failure it finds (an overflow, a key out of range) it hands to the VM's
** own handler for that one instruction (vm_exec1 on the frame in memory):
** events, messages and their places are the VM's by construction, and the
** differential test (tests/native.sh) checks the rest byte for byte.
**
** Why not copy-and-patch templates: no compiler would be needed at run
** time, but the templates are per-architecture machine code made at build
** time, and the stitching, relocation and register conventions are a
** compiler of their own to get right.  An ahead-of-time C translation is
** short, portable to every machine with a C compiler, and as fast as the
** compiler makes it; a machine without one runs the VM, with a note.
** Safety: only verified modules are translated, and the C holds nothing
** from the rule file's text but numbers (slots, constants, indexes); the
** cache is the user's own (0700), entries are written atomically, carry a
** hash of themselves and their key, and are checked before loading.
*/
#include "native.h"
#include "vm_int.h"

#include <stdio.h>
#include <string.h>

#if defined(RG_NO_NATIVE) || defined(__EMSCRIPTEN__)

/* The page's build has no native tier: nothing here runs. */
/* Never called without native code (vm->native is always NULL here). */
void vm_native_env(rgi_vm *vm) {
  (void)vm;
}

/* Never called either. */
rg_status vm_native_call(rgi_vm *vm, uint32_t proc, rgi_value *base, rgi_value *result) {
  (void)proc;
  (void)base;
  (void)result;
  return vm_fail(vm, RG_RUN_ERROR, 0, "internal error: no native tier in this build");
}

#else

#include "nat_int.h"

/* FNV-1a over n bytes of p, continuing from h. */
static uint64_t nat_fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t k = 0; k < n; k++) h = (h ^ c[k]) * 0x100000001B3ull;
  return h;
}

/* The hash of what the fast code of m is made from: its code, procedures,
** constants, table shapes, record sizes and enum sizes (not its dice,
** decks, inputs or cells, which the generated code reads at run time). */
static uint64_t nat_shape(const rgi_module *m) {
  uint64_t h = 0xCBF29CE484222325ull;
  h = nat_fnv(h, m->code, (size_t)m->ncode * sizeof *m->code);
  h = nat_fnv(h, m->consts, (size_t)m->nconsts * sizeof *m->consts);
  for (uint32_t p = 0; p < m->nprocs; p++) {
    const rgi_proc *q = &m->procs[p];
    uint32_t w[6] = { q->code, q->ncode, q->nparams, q->nlocals, q->max_stack,
                      (uint32_t)q->result.kind };
    h = nat_fnv(h, w, sizeof w);
  }
  for (uint32_t t = 0; t < m->ntables; t++) {
    uint32_t w[4] = { m->tables[t].first, m->tables[t].ndims, m->tables[t].first_dim,
                      m->tables[t].count };
    h = nat_fnv(h, w, sizeof w);
  }
  for (uint32_t d = 0; d < m->ndims; d++) {
    h = nat_fnv(h, &m->dims[d].lo, sizeof m->dims[d].lo);
    h = nat_fnv(h, &m->dims[d].size, sizeof m->dims[d].size);
  }
  for (uint32_t r = 0; r < m->nrecords; r++) h = nat_fnv(h, &m->records[r].count, sizeof m->records[r].count);
  for (uint32_t e = 0; e < m->nenums; e++) h = nat_fnv(h, &m->enums[e].count, sizeof m->enums[e].count);
  uint32_t counts[6] = { m->ncode, m->nconsts, m->nprocs, m->ntables, m->nrecords, m->nenums };
  return nat_fnv(h, counts, sizeof counts);
}

/* ---- the translator ---------------------------------------------------- */

/* What the generated file starts with: the shared definitions (native.h),
** the generator (rng.h), and the generated code's own helpers. */
#define NAT_STR_(...) #__VA_ARGS__
#define NAT_STR(x) NAT_STR_(x)
static const char nat_prelude[] =
  "/* regula native code: generated from a verified module; do not edit */\n"
  "#include <stdint.h>\n"
  "typedef int64_t rgi_value;\n"
  NAT_STR(RG_RNG_TYPE) "\n"
  NAT_STR(RG_RNG_INLINE) "\n"
  NAT_STR(RGN_ABI) "\n"
  /* a procedure keeps the generator, the steps and the work left in
  ** locals (registers), written back to E before anything outside it runs
  ** (the VM's handler, a callee, a return) and read again after */
  /* (OUT_ and IN_ are defined before each procedure, for what it keeps;
  ** a failure or limit goes to the procedure's one exit for them) */
  "#define EXEC(k) do { OUT_; int st_ = E->api->exec(E->vm, (k), b); if (st_) return st_; IN_; } while (0)\n"
  "#define FAILED(k) do { fk_ = (k); goto FAIL_; } while (0)\n"
  "#define LIMIT(what, pc) do { lw_ = (what); lpc_ = (pc); goto LIMIT_; } while (0)\n"
  "#define STEPS(w, pc) do { if (steps_ < (uint64_t)(w)) LIMIT(0, pc); steps_ -= (uint64_t)(w); } while (0)\n"
  "#define CHECKS(w, pc, nb, size) do { STEPS(w, pc); if (E->depth + 1 >= " NAT_STR(RG_MAX_CALL_DEPTH)
  ") LIMIT(1, pc); if ((uint64_t)(E->stack_end - (nb)) < (uint64_t)(size)) LIMIT(2, pc); } while (0)\n"
  "#define CALL(p, nb) do { OUT_; E->depth++; int st_ = p(E, nb); E->depth--; if (st_) return st_; IN_; } while (0)\n"
  "#define RETURN do { OUT_; return 0; } while (0)\n"
  /* vm_list of vm.c: r is a list wholly inside the live heap H[0..top) */
  "static inline int rgn_list(const rgi_value *H, uint32_t top, rgi_value r, uint32_t *len) {\n"
  "  if (r < 0 || (uint64_t)r >= top) return 0;\n"
  "  rgi_value n = H[r];\n"
  "  if (n < 0 || (uint64_t)n > (uint64_t)top - (uint64_t)r - 1) return 0;\n"
  "  *len = (uint32_t)n;\n"
  "  return 1;\n"
  "}\n";

/* The translation of one module: the VM whose fast code it reads, where the
** C goes, and the procedure being written. */
typedef struct nat_gen {
  const rgi_module *m;
  const rgi_vm *vm;
  rg_out *o;
  uint32_t nlocals, t0;     /* the procedure's constants are slots nlocals..t0-1 */
  uint64_t size;            /* its frame, in slots */
  const rgi_value *kval;     /* its constants' values */
  unsigned char *tgt;       /* [nfcode]: a label is needed */
} nat_gen;

/* Writes value v as a C constant of type rgi_value. */
static void nat_lit(nat_gen *g, rgi_value v) {
  if (v == INT64_MIN) rg_puts(g->o, "((rgi_value)(-9223372036854775807LL - 1))");
  else rg_printf(g->o, "((rgi_value)%lldLL)", (long long)v);
}

/* Writes the value of slot s: its constant, or its variable. */
static void nat_rd(nat_gen *g, int32_t s) {
  if ((uint32_t)s >= g->nlocals && (uint32_t)s < g->t0) nat_lit(g, g->kval[(uint32_t)s - g->nlocals]);
  else rg_printf(g->o, "s%d", s);
}

/* Writes "b[s] = <slot s>; ": the slot's value into the frame in memory,
** where the VM's handler reads it. */
static void nat_st(nat_gen *g, int32_t s) {
  rg_printf(g->o, "b[%d] = ", s);
  nat_rd(g, s);
  rg_puts(g->o, "; ");
}

/* Writes the hand-over of fast instruction k's failure to the VM, with
** slots s[0..n) stored first. */
static void nat_fail(nat_gen *g, uint32_t k, const int32_t *s, int n) {
  rg_puts(g->o, "{ ");
  for (int j = 0; j < n; j++) nat_st(g, s[j]);
  rg_printf(g->o, "FAILED(%u); }", (unsigned)k);
}

/* Whether slot s lies in the frame (1) and, when written, is not one of
** its constants. */
static int nat_slot_ok(const nat_gen *g, int32_t s, int written) {
  if (s < 0 || (uint64_t)s >= g->size) return 0;
  return !written || (uint32_t)s < g->nlocals || (uint32_t)s >= g->t0;
}

/* The absolute jump target of fast instruction x at k, or -1 when it does
** not jump. */
static int64_t nat_target(const vm_ins *x, uint32_t k) {
  uint32_t op = x->op;
  if (op == RG_OP_JMP || op == VM_JMPB) return (int64_t)k + x->a;
  if (op == VM_BRF || op == VM_BRT) return (int64_t)k + x->b;
  if (op >= VM_BR_EQ && op <= VM_BR_GE) return (int64_t)k + x->c;
  if (op >= VM_INCBR_EQ && op <= VM_JBR_GE) return (int64_t)k + x->c;
  return -1;
}

/* How the generated code computes a register form: what it declares
** first (or NULL), when it hands the failure to the VM (or NULL: never),
** and the value of r_ (or NULL: the failure test computed it). */
typedef struct nat_op {
  const char *decl, *fails, *value;
} nat_op;

/* The binary register forms, in VM_RBINOPS order: x_ op y_. */
static const nat_op nat_bin[] = {
  { NULL, "__builtin_add_overflow(x_, y_, &r_)", NULL },                       /* ADD */
  { NULL, "__builtin_sub_overflow(x_, y_, &r_)", NULL },                       /* SUB */
  { NULL, "__builtin_mul_overflow(x_, y_, &r_)", NULL },                       /* MUL */
  { NULL, "y_ == 0 || (y_ == -1 && x_ == INT64_MIN)", "x_ / y_" },             /* DIV */
  { NULL, "y_ == 0", "y_ == -1 ? 0 : x_ % y_" },                               /* MOD */
  { NULL, NULL, "x_ == y_" }, { NULL, NULL, "x_ != y_" }, { NULL, NULL, "x_ < y_" },
  { NULL, NULL, "x_ <= y_" }, { NULL, NULL, "x_ > y_" }, { NULL, NULL, "x_ >= y_" },
  { NULL, "(uint64_t)x_ > 63", "(rgi_value)(((uint64_t)y_ >> x_) & 1u)" },     /* INSET */
  { NULL, "(uint64_t)y_ > 63", "(rgi_value)((uint64_t)x_ | ((uint64_t)1 << y_))" }, /* SETADD */
  { NULL, NULL, "x_ | y_" }, { NULL, NULL, "x_ & y_" }, { NULL, NULL, "x_ & ~y_" },  /* sets */
};

/* The unary register forms, in VM_RUNOPS order: op x_. */
static const nat_op nat_un[] = {
  { NULL, "x_ == INT64_MIN", "-x_" },                                          /* NEG */
  { NULL, NULL, "!x_" },                                                       /* NOT */
  { NULL, "x_ == INT64_MIN", "x_ < 0 ? -x_ : x_" },                            /* ABS */
  { NULL, NULL, "__builtin_popcountll((uint64_t)x_)" },                        /* COUNT */
  { "uint32_t n_; ", "!rgn_list(H_, *T_, x_, &n_)", "n_" },                    /* LEN */
};

_Static_assert(sizeof nat_bin / sizeof *nat_bin == VM_R_DIFF - VM_R_ADD + 1, "nat_bin");
_Static_assert(sizeof nat_un / sizeof *nat_un == VM_R_LEN - VM_R_NEG + 1, "nat_un");

/* The C operators of the comparisons, in VM_CMPS order. */
static const char *const nat_cmp[6] = { "==", "!=", "<", "<=", ">", ">=" };

/* Writes fast instruction k of the procedure; returns how many fast
** instructions it took (2 for MOV2 and LOOKUP2), or 0 when it cannot be
** translated (the module then runs in the VM). */
static uint32_t nat_ins(nat_gen *g, uint32_t k, uint32_t end) {
  const rgi_vm *vm = g->vm;
  const rgi_module *m = g->m;
  const vm_ins *x = &vm->fcode[k];
  uint32_t op = x->op, pcm = vm->fmap[k];
  rg_out *o = g->o;
  int32_t a = x->a, b = x->b, c = x->c, d = x->d;
  int32_t sl[3];

  if (g->tgt[k]) rg_printf(o, "F%u:; ", (unsigned)k);
  /* register arithmetic, comparisons and sets: r := x op y, r := op x */
  if (op >= VM_R_ADD && op <= VM_R_LEN) {
    int two = op <= VM_R_DIFF;
    const nat_op *t = two ? &nat_bin[op - VM_R_ADD] : &nat_un[op - VM_R_NEG];
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0) || (two && !nat_slot_ok(g, c, 0))) return 0;
    sl[0] = b;
    sl[1] = c;
    rg_puts(o, "{ rgi_value x_ = ");
    nat_rd(g, b);
    if (two) {
      rg_puts(o, ", y_ = ");
      nat_rd(g, c);
    }
    rg_printf(o, ", r_; %s", t->decl ? t->decl : "");
    if (t->fails) {
      rg_printf(o, "if (%s) ", t->fails);
      nat_fail(g, k, sl, two ? 2 : 1);
    }
    if (t->value) rg_printf(o, " r_ = %s;", t->value);
    rg_printf(o, " s%d = r_; }\n", a);
    return 1;
  }
  if (op >= VM_BR_EQ && op <= VM_JBR_GE) {
    int64_t t = nat_target(x, k);
    int inc = op >= VM_INCBR_EQ && op <= VM_INCBR_GE, jbr = op >= VM_JBR_EQ;
    const char *cmp = nat_cmp[(op - VM_BR_EQ) % 6];
    if (t < 0 || (uint64_t)t >= end || !nat_slot_ok(g, a, inc) || !nat_slot_ok(g, b, 0)) return 0;
    if (inc) {   /* x := x + y; count the jump's steps; if x cmp z goto t, else past the NOP */
      if (!nat_slot_ok(g, d, 0) || k + 2 > end || k + 1 >= end) return 0;
      sl[0] = a;
      sl[1] = b;
      rg_puts(o, "{ rgi_value r_; if (__builtin_add_overflow(");
      nat_rd(g, a);
      rg_puts(o, ", ");
      nat_rd(g, b);
      rg_puts(o, ", &r_)) ");
      nat_fail(g, k, sl, 2);
      rg_printf(o, " s%d = r_; STEPS(%u, %u); if (r_ %s ", a, (unsigned)(uint32_t)vm->fcode[k + 1].a,
                (unsigned)(pcm + x->e), cmp);
      nat_rd(g, d);
      rg_printf(o, ") goto F%u; goto F%u; }\n", (unsigned)t, (unsigned)(k + 2));
      return 1;
    }
    if (jbr) rg_printf(o, "STEPS(%u, %u); ", (unsigned)(uint32_t)d, (unsigned)pcm);
    rg_puts(o, "if (");
    nat_rd(g, a);
    rg_printf(o, " %s ", cmp);
    nat_rd(g, b);
    rg_puts(o, ") { ");
    if (!jbr && d) rg_printf(o, "STEPS(%u, %u); ", (unsigned)(uint32_t)d, (unsigned)pcm);
    rg_printf(o, "goto F%u; }\n", (unsigned)t);
    return 1;
  }
  switch (op) {
  case RG_OP_NOP:
  case VM_DATA:
    rg_puts(o, ";\n");
    return 1;
  case VM_UNREACHABLE:
    rg_printf(o, "FAILED(%u);\n", (unsigned)k);
    return 1;
  case RG_OP_JMP: case VM_JMPB: {
    int64_t t = nat_target(x, k);
    if (t < 0 || (uint64_t)t >= end) return 0;
    if (op == VM_JMPB) rg_printf(o, "STEPS(%u, %u); ", (unsigned)(uint32_t)b, (unsigned)pcm);
    rg_printf(o, "goto F%u;\n", (unsigned)t);
    return 1;
  }
  case VM_BRF: case VM_BRT: {
    int64_t t = nat_target(x, k);
    if (t < 0 || (uint64_t)t >= end || !nat_slot_ok(g, a, 0)) return 0;
    rg_puts(o, op == VM_BRF ? "if (!" : "if (");
    nat_rd(g, a);
    rg_puts(o, ") { ");
    if (d) rg_printf(o, "STEPS(%u, %u); ", (unsigned)(uint32_t)d, (unsigned)pcm);
    rg_printf(o, "goto F%u; }\n", (unsigned)t);
    return 1;
  }
  case VM_MOV:
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0)) return 0;
    rg_printf(o, "s%d = ", a);
    nat_rd(g, b);
    rg_puts(o, ";\n");
    return 1;
  case VM_MOV2:
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0) || !nat_slot_ok(g, c, 1) ||
        !nat_slot_ok(g, d, 0) || k + 1 >= end)
      return 0;
    rg_printf(o, "s%d = ", a);
    nat_rd(g, b);
    rg_printf(o, "; s%d = ", c);
    nat_rd(g, d);
    rg_puts(o, ";\n");
    return 2;   /* the MOV it stands for is skipped, as the VM skips it */
  case VM_R_MIN2: case VM_R_MAX2:
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0) || !nat_slot_ok(g, c, 0)) return 0;
    rg_puts(o, "{ rgi_value x_ = ");
    nat_rd(g, b);
    rg_puts(o, ", y_ = ");
    nat_rd(g, c);
    rg_printf(o, "; s%d = y_ %s x_ ? y_ : x_; }\n", a, op == VM_R_MIN2 ? "<" : ">");
    return 1;
  case VM_R_CLAMP:
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0) || !nat_slot_ok(g, c, 0) ||
        !nat_slot_ok(g, d, 0))
      return 0;
    rg_puts(o, "{ rgi_value x_ = ");
    nat_rd(g, b);
    rg_puts(o, ", lo_ = ");
    nat_rd(g, c);
    rg_puts(o, ", hi_ = ");
    nat_rd(g, d);
    rg_printf(o, "; s%d = x_ < lo_ ? lo_ : x_ > hi_ ? hi_ : x_; }\n", a);
    return 1;
  case VM_R_MODK:
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0) || c < 1) return 0;
    /* a count or index is never negative: its unsigned remainder is a
    ** multiply and a shift, the signed one a few more instructions */
    rg_puts(o, "{ rgi_value x_ = ");
    nat_rd(g, b);
    rg_printf(o, "; s%d = x_ >= 0 ? (rgi_value)((uint64_t)x_ %% %du) : x_ %% %dLL; }\n", a, c, c);
    return 1;
  case VM_R_LOOKUP1:
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0)) return 0;
    sl[0] = b;
    rg_puts(o, "{ uint64_t i_ = (uint64_t)");
    nat_rd(g, b);
    rg_printf(o, " - (uint64_t)(rgi_value)%dLL; if (i_ >= %uu) ", c, (unsigned)(uint32_t)d);
    nat_fail(g, k, sl, 1);
    rg_printf(o, " s%d = C_[(uint64_t)%uu + i_]; }\n", a, (unsigned)x->e);
    return 1;
  case VM_R_LOOKUP2: {
    const vm_ins *y = &vm->fcode[k + 1];
    if (k + 1 >= end || y->op != VM_DATA || !nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0) ||
        !nat_slot_ok(g, c, 0))
      return 0;
    sl[0] = b;
    sl[1] = c;
    rg_puts(o, "{ uint64_t i_ = (uint64_t)");
    nat_rd(g, b);
    rg_printf(o, " - (uint64_t)(rgi_value)%dLL, j_ = (uint64_t)", y->a);
    nat_rd(g, c);
    rg_printf(o, " - (uint64_t)(rgi_value)%dLL; if (i_ >= %uu || j_ >= %uu) ", y->c,
              (unsigned)(uint32_t)y->b, (unsigned)(uint32_t)y->d);
    nat_fail(g, k, sl, 2);
    rg_printf(o, " s%d = C_[(uint64_t)%uu + i_ * %uu + j_]; }\n", a, (unsigned)(uint32_t)d,
              (unsigned)(uint32_t)y->d);
    return 2;
  }
  case VM_R_FIELD:
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0)) return 0;
    sl[0] = b;
    rg_puts(o, "{ rgi_value r_ = ");
    nat_rd(g, b);
    rg_printf(o, "; uint32_t top_ = *T_; if (r_ < 0 || (uint64_t)r_ >= top_ || "
              "%uu >= top_ - (uint64_t)r_) ", (unsigned)(uint32_t)c);
    nat_fail(g, k, sl, 1);
    rg_printf(o, " s%d = H_[r_ + %uu]; }\n", a, (unsigned)(uint32_t)c);
    return 1;
  case VM_R_ITEM:
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0) || !nat_slot_ok(g, c, 0)) return 0;
    sl[0] = b;
    sl[1] = c;
    rg_puts(o, "{ uint32_t n_; rgi_value l_ = ");
    nat_rd(g, b);
    rg_puts(o, ", k_ = ");
    nat_rd(g, c);
    rg_puts(o, "; if (!rgn_list(H_, *T_, l_, &n_) || k_ < 0 || k_ >= (rgi_value)n_) ");
    nat_fail(g, k, sl, 2);
    rg_printf(o, " s%d = H_[l_ + 1 + k_]; }\n", a);
    return 1;
  case VM_R_SETITEM:
    if (!nat_slot_ok(g, a, 0) || !nat_slot_ok(g, b, 0) || !nat_slot_ok(g, c, 0)) return 0;
    sl[0] = a;
    sl[1] = b;
    sl[2] = c;
    rg_puts(o, "{ uint32_t n_; rgi_value l_ = ");
    nat_rd(g, a);
    rg_puts(o, ", k_ = ");
    nat_rd(g, b);
    rg_puts(o, "; if (!rgn_list(H_, *T_, l_, &n_) || l_ < (rgi_value)NH_ || k_ < 0 || "
            "k_ >= (rgi_value)n_) ");
    nat_fail(g, k, sl, 3);
    rg_puts(o, " H_[l_ + 1 + k_] = ");
    nat_rd(g, c);
    rg_puts(o, "; }\n");
    return 1;
  case VM_LISTADD:
    if (!nat_slot_ok(g, a, 0) || !nat_slot_ok(g, b, 0)) return 0;
    sl[0] = a;
    sl[1] = b;
    rg_puts(o, "{ uint32_t n_; rgi_value l_ = ");
    nat_rd(g, a);
    rg_puts(o, ", k_ = ");
    nat_rd(g, b);
    rg_printf(o, ", r_; if (!rgn_list(H_, *T_, l_, &n_) || k_ < 0 || k_ >= (rgi_value)n_ || "
              "__builtin_add_overflow(H_[l_ + 1 + k_], (rgi_value)%dLL, &r_) || "
              "l_ < (rgi_value)NH_) ", c);
    nat_fail(g, k, sl, 2);
    rg_puts(o, " H_[l_ + 1 + k_] = r_; }\n");
    return 1;
  case VM_R_ROLL: case VM_R_ROLLAT: {
    int at = op == VM_R_ROLLAT;
    uint32_t sides = (uint32_t)(at ? d : c);
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0) || (at && !nat_slot_ok(g, c, 0)) || !sides)
      return 0;
    rg_puts(o, "{ rgi_value n_ = ");
    nat_rd(g, b);
    rg_printf(o, "; if (!W_ && n_ >= 0 && n_ <= %d && (uint64_t)n_ <= work_) { "
              "work_ -= (uint64_t)n_; ", RG_VM_SCRATCH);
    if (at) {
      rg_puts(o, "rgi_value need_ = ");
      nat_rd(g, c);
      rg_printf(o, ", sum_ = 0; for (rgi_value k_ = 0; k_ < n_; k_++) "
                "sum_ += (rgi_value)rgi_rng_below(&R_, %uu) + 1 >= need_; ", (unsigned)sides);
    } else if ((uint32_t)b >= g->nlocals && (uint32_t)b < g->t0 && g->kval[b - (int32_t)g->nlocals] >= 0 &&
               g->kval[b - (int32_t)g->nlocals] <= 8) {   /* a few dice, known: unrolled */
      rgi_value nd = g->kval[b - (int32_t)g->nlocals];
      rg_printf(o, "rgi_value sum_ = %lldLL", (long long)nd);
      for (rgi_value j = 0; j < nd; j++) rg_printf(o, " + (rgi_value)rgi_rng_below(&R_, %uu)", (unsigned)sides);
      rg_puts(o, "; ");
    } else {
      rg_printf(o, "rgi_value sum_ = n_; for (rgi_value k_ = 0; k_ < n_; k_++) "
                "sum_ += (rgi_value)rgi_rng_below(&R_, %uu); ", (unsigned)sides);
    }
    rg_printf(o, "s%d = sum_; } else { ", a);
    nat_st(g, b);
    if (at) nat_st(g, c);
    rg_printf(o, "EXEC(%u); s%d = b[%d]; } }\n", (unsigned)k, a, a);
    return 1;
  }
  case VM_R_DRAW:
    if (!nat_slot_ok(g, a, 1) || c < 0 || (uint32_t)c >= m->ndecks) return 0;
    rg_printf(o, "{ uint32_t left_ = E->deck_left[%d]; if (!W_ && left_ != 0) { "
              "uint64_t k_ = rgi_rng_below(&R_, left_); rgi_value *cards_ = E->deck_cards + "
              "E->deck_off[%d]; rgi_value card_ = cards_[k_]; cards_[k_] = cards_[left_ - 1]; "
              "E->deck_left[%d] = left_ - 1; s%d = card_; } else { EXEC(%u); s%d = b[%d]; } }\n",
              c, c, c, a, (unsigned)k, a, a);
    return 1;
  case VM_R_DRAWS:
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0) || c < 0 || (uint32_t)c >= m->ndecks)
      return 0;
    rg_puts(o, "{ rgi_value n_ = ");
    nat_rd(g, b);
    rg_printf(o, "; uint32_t top_ = *T_, left_ = E->deck_left[%d]; "
              "if (!W_ && n_ >= 0 && n_ <= %d && (uint64_t)top_ + 1 + (uint64_t)n_ <= "
              "HC_ && (uint64_t)n_ <= left_) { rgi_value *out_ = H_ + top_ + 1, "
              "*cards_ = E->deck_cards + E->deck_off[%d]; "
              "H_[top_] = n_; *T_ = top_ + 1 + (uint32_t)n_; "
              "for (rgi_value j_ = 0; j_ < n_; j_++) { uint32_t k_ = (uint32_t)rgi_rng_below(&R_, left_); "
              "out_[j_] = cards_[k_]; cards_[k_] = cards_[--left_]; } "
              "E->deck_left[%d] = left_; s%d = top_; } else { ",
              c, RG_VM_SCRATCH, c, c, a);
    nat_st(g, b);
    rg_printf(o, "EXEC(%u); s%d = b[%d]; } }\n", (unsigned)k, a, a);
    return 1;
  case VM_R_LEFT:
    if (!nat_slot_ok(g, a, 1) || c < 0 || (uint32_t)c >= m->ndecks) return 0;
    rg_printf(o, "s%d = E->deck_left[%d];\n", a, c);
    return 1;
  case VM_R_INPUT:
    if (!nat_slot_ok(g, a, 1) || c < 0 || (uint32_t)c >= m->ninputs) return 0;
    rg_printf(o, "s%d = E->inputs[%d];\n", a, c);
    return 1;
  case VM_R_NTH:
    if (!nat_slot_ok(g, a, 1) || !nat_slot_ok(g, b, 0) || c < 0 || (uint32_t)c >= m->nenums) return 0;
    sl[0] = b;
    rg_puts(o, "{ rgi_value k_ = ");
    nat_rd(g, b);
    rg_printf(o, "; if (k_ < 0 || k_ >= %uLL) ", (unsigned)m->enums[c].count);
    nat_fail(g, k, sl, 1);
    rg_printf(o, " s%d = k_; }\n", a);
    return 1;
  case VM_R_ROLLDIE:
    if (!nat_slot_ok(g, a, 1)) return 0;
    rg_printf(o, "{ EXEC(%u); s%d = b[%d]; }\n", (unsigned)k, a, a);
    return 1;
  case VM_R_RET:
    if (!nat_slot_ok(g, a, 0)) return 0;
    rg_puts(o, "E->rv = ");
    nat_rd(g, a);
    rg_puts(o, "; RETURN;\n");
    return 1;
  case RG_OP_RETV:
    rg_puts(o, "RETURN;\n");
    return 1;
  case RG_OP_CALL: case VM_CALLDRAW: case VM_CALLCK: {
    if (a < 0 || (uint32_t)a >= m->nprocs) return 0;
    const rgi_proc *q = &m->procs[a];
    uint32_t np = q->nparams;
    int64_t nb = (int64_t)d - np;
    if (nb < 0 || (uint64_t)d > g->size) return 0;
    if (op == VM_CALLCK) {
      rg_printf(o, "CHECKS(%u, %u, b + %lld, %llu);\n", (unsigned)vm->fproc[a].steps, (unsigned)pcm,
                (long long)nb, (unsigned long long)vm->fproc[a].size);
      return 1;
    }
    if (q->result.kind != RG_K_VOID && !nat_slot_ok(g, c, 1)) return 0;
    rg_puts(o, op == VM_CALLDRAW ? "if (E->shapes) { " : "{ ");
    for (uint32_t j = 0; j < np; j++) nat_st(g, (int32_t)(nb + j));
    rg_printf(o, "CHECKS(%u, %u, b + %lld, %llu); CALL(p%d, b + %lld);",
              (unsigned)vm->fproc[a].steps, (unsigned)pcm, (long long)nb,
              (unsigned long long)vm->fproc[a].size, a, (long long)nb);
    if (q->result.kind != RG_K_VOID) rg_printf(o, " s%d = E->rv;", c);
    rg_puts(o, " }\n");
    return 1;
  }
  default:
    break;
  }
  if (op < RG_NOPCODES) {   /* kept in stack form: the VM's handler, on the frame */
    int pops, pushes;
    if (pcm >= m->ncode || rgi_op_effect(m, m->code[pcm], &pops, &pushes) != 0 || pops < 0 ||
        pushes < 0 || (int64_t)d - pops < 0 || (uint64_t)d - (uint64_t)pops + (uint64_t)pushes > g->size)
      return 0;
    for (int j = d - pops; j < d; j++)
      if (!nat_slot_ok(g, j, 0)) return 0;
    for (int j = d - pops; j < d - pops + pushes; j++)
      if (!nat_slot_ok(g, j, 1)) return 0;
    rg_puts(o, "{ ");
    /* the common ones made here when all is well; else, and for the rest,
    ** the VM's handler */
    int r0 = d - pops;
    switch (op) {
    case RG_OP_NOTE: case RG_OP_STEP: case RG_OP_SHAPE:   /* nobody listens: nothing */
      rg_printf(o, "if (!E->%s) goto X%u; ", op == RG_OP_NOTE ? "notes" : op == RG_OP_STEP ? "steps" : "shapes",
                (unsigned)k);
      break;
    case RG_OP_EXPECT:   /* holds: nothing */
      rg_puts(o, "if (");
      nat_rd(g, d - 1);
      rg_printf(o, ") goto X%u; ", (unsigned)k);
      break;
    case RG_OP_EXPECTEQ:
      rg_puts(o, "if (");
      nat_rd(g, d - 2);
      rg_puts(o, " == ");
      nat_rd(g, d - 1);
      rg_printf(o, ") goto X%u; ", (unsigned)k);
      break;
    case RG_OP_LIST: case RG_OP_MKREC:   /* the values, to a new list or record */
      rg_printf(o, "{ uint32_t top_ = *T_; if ((uint64_t)top_ + %d <= HC_) { ",
                pops + (op == RG_OP_LIST));
      if (op == RG_OP_LIST) rg_printf(o, "H_[top_] = %d; ", pops);
      for (int j = 0; j < pops; j++) {
        rg_printf(o, "H_[top_ + %d] = ", j + (op == RG_OP_LIST));
        nat_rd(g, r0 + j);
        rg_puts(o, "; ");
      }
      rg_printf(o, "*T_ = top_ + %d; s%d = top_; goto X%u; } } ", pops + (op == RG_OP_LIST), r0,
                (unsigned)k);
      break;
    case RG_OP_APPEND:   /* a new list: l's elements, then v */
      rg_puts(o, "{ uint32_t n_, top_ = *T_; rgi_value l_ = ");
      nat_rd(g, r0);
      rg_puts(o, "; if (rgn_list(H_, top_, l_, &n_) && (uint64_t)top_ + 2 + n_ <= HC_) { "
              "H_[top_] = (rgi_value)n_ + 1; for (uint32_t j_ = 0; j_ < n_; j_++) "
              "H_[top_ + 1 + j_] = H_[l_ + 1 + j_]; H_[top_ + 1 + n_] = ");
      nat_rd(g, r0 + 1);
      rg_printf(o, "; *T_ = top_ + 2 + n_; s%d = top_; goto X%u; } } ", r0, (unsigned)k);
      break;
    case RG_OP_LISTHAS:   /* v in l, counting the elements as work */
      rg_puts(o, "{ uint32_t n_; rgi_value l_ = ");
      nat_rd(g, r0 + 1);
      rg_puts(o, ", v_ = ");
      nat_rd(g, r0);
      rg_puts(o, "; if (rgn_list(H_, *T_, l_, &n_) && n_ <= work_) { rgi_value f_ = 0; work_ -= n_; "
              "for (uint32_t j_ = 0; j_ < n_ && !f_; j_++) f_ = H_[l_ + 1 + j_] == v_; ");
      rg_printf(o, "s%d = f_; goto X%u; } } ", r0, (unsigned)k);
      break;
    default:
      break;
    }
    for (int j = d - pops; j < d; j++) nat_st(g, j);
    /* a failed expectation names the loop variables around it: the VM's
    ** handler reads them from the frame */
    if ((op == RG_OP_EXPECT || op == RG_OP_EXPECTEQ) && (uint32_t)a < m->nexpects) {
      const rgi_expect *e = &m->expects[a];
      for (uint32_t v = 0; v < e->nvars && (uint64_t)e->first_var + v < m->nevars; v++) {
        int32_t s = (int32_t)m->evars[e->first_var + v].slot;
        if (nat_slot_ok(g, s, 0) && (uint32_t)s < g->nlocals) nat_st(g, s);
      }
    }
    if (op == RG_OP_FAIL) {
      rg_printf(o, "FAILED(%u); }\n", (unsigned)k);
      return 1;
    }
    rg_printf(o, "EXEC(%u);", (unsigned)k);
    for (int j = d - pops; j < d - pops + pushes; j++) rg_printf(o, " s%d = b[%d];", j, j);
    rg_printf(o, " } X%u:;\n", (unsigned)k);
    return 1;
  }
  return 0;
}

/* Writes procedure p as C function p<p>.  Returns 0, or -1 when it cannot
** be translated. */
static int nat_proc(nat_gen *g, uint32_t p) {
  const rgi_vm *vm = g->vm;
  const rgi_proc *q = &g->m->procs[p];
  const vm_fproc *fp = &vm->fproc[p];
  uint32_t entry = fp->entry, end = p + 1 < g->m->nprocs ? vm->fproc[p + 1].entry : vm->nfcode;
  rg_out *o = g->o;
  g->nlocals = q->nlocals;
  g->t0 = q->nlocals + fp->ncon;
  g->size = fp->size;
  g->kval = vm->fconst + fp->con;
  if (g->size > NAT_MAX_FRAME || entry > end) return -1;
  /* labels: every jump target, and the instruction after an INCBR's NOP */
  for (uint32_t k = entry; k < end; k++) {
    int64_t t = nat_target(&vm->fcode[k], k);
    if (t >= (int64_t)entry && t < (int64_t)end) g->tgt[t] = 1;
    if (vm->fcode[k].op >= VM_INCBR_EQ && vm->fcode[k].op <= VM_INCBR_GE && k + 2 < end)
      g->tgt[k + 2] = 1;
  }
  /* what the procedure keeps in locals: the generator and the work left
  ** when it rolls or draws itself, the steps left when it counts any */
  int rng = 0, steps = 0;
  for (uint32_t k = entry; k < end; k++) {
    uint32_t op = vm->fcode[k].op;
    rng |= op == VM_R_ROLL || op == VM_R_ROLLAT || op == VM_R_DRAW || op == VM_R_DRAWS ||
           op == RG_OP_LISTHAS;
    steps |= op == VM_JMPB || op == RG_OP_CALL || op == VM_CALLDRAW || op == VM_CALLCK ||
             (op >= VM_INCBR_EQ && op <= VM_JBR_GE) ||
             ((op == VM_BRF || op == VM_BRT || (op >= VM_BR_EQ && op <= VM_BR_GE)) && vm->fcode[k].d);
  }
  rg_printf(o, "#undef OUT_\n#undef IN_\n#define OUT_ do { %s%s } while (0)\n"
            "#define IN_ do { %s%s } while (0)\n",
            rng ? "*E->rng = R_; *E->work_left = work_; " : "", steps ? "E->steps_left = steps_; " : "",
            rng ? "R_ = *E->rng; work_ = *E->work_left; " : "", steps ? "steps_ = E->steps_left; " : "");
  rg_printf(o, "static int p%u(rgn_env *E, rgi_value *b) {\n"
             "uint32_t fk_ = 0, lpc_ = 0; int lw_ = 3; (void)fk_; (void)lpc_; (void)lw_;\n"
             "rgi_value *const H_ = E->heap; const rgi_value *const C_ = E->cells; "
             "uint32_t *const T_ = E->heap_top; const int W_ = E->watch;\n"
             /* constant through a call: in locals, not read again after each store */
             "const uint32_t NH_ = E->nheap; const uint64_t HC_ = E->heap_cap; (void)NH_; (void)HC_;\n%s%s",
             (unsigned)p, rng ? "rgi_rng R_ = *E->rng; uint64_t work_ = *E->work_left;\n" : "",
             steps ? "uint64_t steps_ = E->steps_left;\n" : "");
  for (uint64_t s = 0; s < g->size; s++) {
    if (s >= g->nlocals && s < g->t0) continue;
    if (s < q->nparams) rg_printf(o, "rgi_value s%llu = b[%llu];\n", (unsigned long long)s,
                                  (unsigned long long)s);
    else rg_printf(o, "rgi_value s%llu = 0;\n", (unsigned long long)s);
  }
  for (uint32_t k = entry; k < end;) {
    uint32_t n = nat_ins(g, k, end);
    if (n == 0) return -1;
    if (n == 2 && g->tgt[k + 1]) return -1;   /* a skipped instruction is never a target */
    k += n;
  }
  rg_puts(o, "LIMIT_: OUT_; return E->api->limit(E->vm, lw_, lpc_);\n"
          "FAIL_: OUT_; return E->api->failed(E->vm, fk_, b);\n}\n");
  return 0;
}

/* Writes the C of the fast code of vm (fused, of module m) to o: the
** prelude, one function per procedure, the table of them.  Returns 0, or
** -1 when some instruction cannot be translated, -2 when out of memory. */
static int nat_write(const rgi_module *m, const rgi_vm *vm, rg_out *o) {
  nat_gen g;
  memset(&g, 0, sizeof g);
  g.m = m;
  g.vm = vm;
  g.o = o;
  if (vm->nfcode > NAT_MAX_CODE) return -1;
  if (!(g.tgt = rg_malloc((size_t)vm->nfcode + 1))) return -2;
  memset(g.tgt, 0, (size_t)vm->nfcode + 1);
  rg_puts(o, nat_prelude);
  for (uint32_t p = 0; p < m->nprocs; p++) rg_printf(o, "static int p%u(rgn_env *E, rgi_value *b);\n", (unsigned)p);
  int rc = 0;
  for (uint32_t p = 0; p < m->nprocs && rc == 0; p++) rc = nat_proc(&g, p);
  if (rc == 0) {
    rg_printf(o, "const uint32_t rgn_nprocs = %u, rgn_nfcode = %u;\n", (unsigned)m->nprocs,
              (unsigned)vm->nfcode);
    rg_printf(o, "const rgn_proc rgn_procs[%u] = {", (unsigned)(m->nprocs ? m->nprocs : 1));
    for (uint32_t p = 0; p < m->nprocs; p++) rg_printf(o, "%s p%u", p ? "," : "", (unsigned)p);
    rg_puts(o, m->nprocs ? " };\n" : " 0 };\n");
  }
  rg_free(g.tgt);
  return rc;
}

/* Builds the fused fast code of m in a small VM (owned by the caller:
** rgi_vm_free).  Returns NULL when out of memory. */
static rgi_vm *nat_vm(const rgi_module *m) {
  rgi_limits lim;
  memset(&lim, 0, sizeof lim);
  lim.max_memory = 4096;
  return rgi_vm_new(m, &lim, NULL);
}

int nat_source(const rgi_module *m, rg_buf *out, uint32_t *nfcode) {
  rgi_vm *vm = nat_vm(m);
  if (!vm) return -2;
  int rc = nat_write(m, vm, &out->out);
  if (out->out.failed && rc == 0) rc = -2;
  *nfcode = vm->nfcode;
  rgi_vm_free(vm);
  return rc;
}

uint64_t nat_module_shape(const rgi_module *m) {
  return nat_shape(m);
}

/* ---- running ------------------------------------------------------------ */

/* The VM's services to the generated code (rgn_api in native.h). */
static int nat_exec(void *vm, uint32_t k, rgi_value *b) {
  return (int)vm_exec1(vm, k, b);
}

/* A failure the generated code found at fast instruction k: the VM's
** handler says what and where.  Should the handler find none, the two
** disagree: that is an error of its own, never a wrong answer. */
static int nat_failed(void *vm, uint32_t k, rgi_value *b) {
  rgi_vm *v = vm;
  rg_status st = vm_exec1(v, k, b);
  if (st == RG_RUN_OK)
    st = vm_fail(v, RG_RUN_ERROR, v->fmap[k], "internal error: the native code and the VM "
                 "disagree at fast instruction %u", (unsigned)k);
  return (int)st;
}

/* Limit `what` (0 steps, 1 call depth, 2 memory) reached at module pc;
** 3: control ran off the end of a procedure (never in verified code). */
static int nat_limit(void *vm, int what, uint32_t pc) {
  rgi_vm *v = vm;
  switch (what) {
  case 0:
    return (int)vm_fail(v, RG_RUN_LIMIT, pc, "step limit of %llu reached",
                        (unsigned long long)v->max_steps);
  case 1: return (int)vm_fail(v, RG_RUN_LIMIT, pc, "call depth limit");
  case 2: return (int)vm_fail(v, RG_RUN_LIMIT, pc, "memory limit");
  default: return (int)vm_fail(v, RG_RUN_ERROR, pc, "internal error: native code ran off a procedure");
  }
}

static const rgn_api nat_api = { nat_exec, nat_failed, nat_limit };

/* Fills vm->nenv from the VM (its heap, cells, generator, decks, inputs,
** stack and sink); the steps and depth are set by each call. */
void vm_native_env(rgi_vm *vm) {
  const rgi_sink *s = &vm->sink;
  rgn_env e;
  e.vm = vm;
  e.api = &nat_api;
  e.heap = vm->heap;
  e.heap_top = &vm->heap_top;
  e.heap_cap = vm->heap_cap;
  e.nheap = vm->m->nheap;
  e.cells = vm->m->cells;
  e.rng = &vm->rng;
  e.deck_cards = vm->deck_cards;
  e.deck_off = vm->deck_off;
  e.deck_left = vm->deck_left;
  e.inputs = vm->inputs;
  e.stack_end = vm->stack + vm->nstack;
  e.steps_left = vm->max_steps;
  e.work_left = &vm->work_left;
  e.depth = 0;
  e.watch = s->chance || s->roll || s->draw || s->dice;
  e.shapes = s->shape != NULL;
  e.notes = s->note != NULL;
  e.steps = s->step != NULL;
  e.rv = 0;
  vm->nenv = e;
}

rg_status vm_native_call(rgi_vm *vm, uint32_t proc, rgi_value *base, rgi_value *result) {
  rgn_env *e = &vm->nenv;
  e->steps_left = vm->max_steps;
  e->depth = 0;
  int st = nat_procs(vm->native)[proc](e, base);
  if (st == 0 && result && vm->m->procs[proc].result.kind != RG_K_VOID) *result = e->rv;
  return (rg_status)st;
}

#endif
