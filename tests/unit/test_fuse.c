/*
** test_fuse.c: the VM's superinstructions change nothing but speed.
**
** Compiles a rule file whose procedures contain every fused sequence (see
** vm_fop in interp/vm/vm.c), runs each procedure on many arguments, including
** ones that fail inside a fused instruction (overflow, division by zero,
** index and key out of range, an empty deck, the step limit; inside a leaf
** procedure that a call runs in place, too), with fusion on
** and off, and checks that both give the same status, result (and list
** contents), error message, error pc, and the same rolls and draws reported
** at the same pcs.
*/
#include "compile.h"
#include "modbuild.h"
#include "vm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

static const char source[] =
  "ruleset \"fusion\"\n"
  "deck bag: int = { 0: 3, 1: 2 }\n"
  "table board(r: 0..3, c: 0..2) -> int { 0, 0: 5, 2, 1: 7, else: 1 }\n"
  "table one(k: 0..4) -> int { 0: 3, 1: 1, else: 2 }\n"
  "procedure arith(x: int, y: int) -> int {\n"
  "  let a = x + y\n"
  "  let b = x - 3\n"
  "  let c = x * y + a\n"
  "  let d = 0\n"
  "  if y != 0 { d = x / y }\n"
  "  let e = x mod 7\n"
  "  let f = 1\n"
  "  if y > 0 { f = x mod y }\n"
  "  let g = (x + 1) mod 5\n"
  "  let h = max(x, y) + min(a, b)\n"
  "  let q = 100 / y\n"
  "  return a + b + c + d + e + f + g + h + q\n"
  "}\n"
  "procedure cmp(x: int, y: int) -> int {\n"
  "  let s = 0\n"
  "  if x < y { s = s + 1 }\n"
  "  if x <= 3 { s = s + 2 }\n"
  "  if x == y { s = s + 4 }\n"
  "  if x != 5 { s = s + 8 }\n"
  "  if x > y and y >= 0 { s = s + 16 }\n"
  "  if x >= 2 or y < -1 { s = s + 32 }\n"
  "  if x * 2 > y + 1 { s = s + 64 }\n"
  "  let t = x > 0\n"
  "  if t { s = s + 128 }\n"
  "  if not t { s = s + 256 }\n"
  "  return s\n"
  "}\n"
  "procedure loops(n: int, y: int) -> int {\n"
  "  let s = 0\n"
  "  for i in 0..n { s = s + i * 2 }\n"
  "  let k = n\n"
  "  while k > 0 and s > y { k = k - 1\n s = s - 3 }\n"
  "  for j in 1..3 { s = s + j }\n"
  "  return s + clamp(s, 0, 50)\n"
  "}\n"
  "procedure tally(n: int, w: int) -> list int {\n"
  "  let counts = [0, 0, 0]\n"
  "  for i in 1..n {\n"
  "    let j = (i + w) mod 4\n"
  "    counts[j] = counts[j] + 1\n"
  "  }\n"
  "  return counts\n"
  "}\n"
  "procedure chance(n: int, k: int) -> int {\n"
  "  let a = at_least(rolls(n, d6), k)\n"
  "  let b = roll 2d6\n"
  "  let hand = draws(bag, n)\n"
  "  let c = 0\n"
  "  for i in 0..len(hand) - 1 { c = c + hand[i] }\n"
  "  return a * 1000 + b * 10 + c\n"
  "}\n"
  "procedure look(r: int, c: int) -> int {\n"
  "  return board[r, c] + one[c + 1]\n"
  "}\n"
  "procedure whiles(n: int, y: int) -> int {\n"
  "  let s = 0\n"
  "  let k = n\n"
  "  while k > 0 { s = s + k\n k = k - 1 }\n"
  "  let j = y\n"
  "  while j >= 1 and not (s > 40) { s = s + abs(j) mod 3\n j = j - 1 }\n"
  "  let d = -1\n"
  "  if s < 0 { d = 1 }\n"
  "  let e = (abs(y) + 1) / 2\n"
  "  let f = abs(y) mod 2 == 0\n"
  "  if f and n > 3 { s = s + 1 }\n"
  "  return s * d + e\n"
  "}\n"
  "procedure helper(x: int) -> int {\n"
  "  return x\n"
  "}\n"
  "procedure quot(x: int, y: int) -> int {\n"
  "  return x / y\n"
  "}\n"
  "procedure pool(n: int, k: int) -> int {\n"
  "  return at_least(rolls(n, d6), k)\n"
  "}\n"
  "procedure item(l: list int, k: int) -> int {\n"
  "  return l[k]\n"
  "}\n"
  "procedure leaves(n: int, y: int) -> int {\n"
  "  let s = 0\n"
  "  for i in 1..n { s = s + pool(i, 4) + quot(100, y) + item([1, 2, 3], i) }\n"
  "  return s\n"
  "}\n"
  "procedure calls(n: int, y: int) -> int {\n"
  "  let s = 0\n"
  "  for i in 1..n { let h = helper(i)\n s = s + h - helper(y) }\n"
  "  return s\n"
  "}\n";

/* Every roll and draw, folded into a checksum with its pc. */
typedef struct trace { uint64_t h; uint32_t n; } trace;

static void mix(trace *t, uint64_t v) {
  t->h = (t->h ^ v) * 0x100000001B3ull;
  t->n++;
}

static void on_roll(void *ctx, const rgi_module *m, int32_t die, uint32_t sides,
                    const rgi_value *res, uint32_t n, uint32_t pc) {
  trace *t = ctx;
  mix(t, pc);
  mix(t, sides);
  for (uint32_t k = 0; k < n; k++) mix(t, (uint64_t)res[k]);
}

static void on_draw(void *ctx, const rgi_module *m, uint32_t deck, rgi_value card, uint32_t pc) {
  trace *t = ctx;
  mix(t, pc);
  mix(t, (uint64_t)card);
}

/* One run's outcome. */
typedef struct outcome {
  rg_status st;
  rgi_value result;
  char err[256];
  uint32_t pc;
  rgi_value list[8];
  uint32_t nlist;
  trace tr;
} outcome;

/* The VMs of the module being tested, by fusion, watching and step limit
** (creating one rewrites the whole module's code: they are reused). */
static trace *cur;
static rgi_vm *vms[2][2][8];
static const rgi_module *vms_of;

static void on_roll_cur(void *ctx, const rgi_module *m, int32_t die, uint32_t sides,
                        const rgi_value *res, uint32_t n, uint32_t pc) {
  on_roll(cur, m, die, sides, res, n, pc);
}

static void on_draw_cur(void *ctx, const rgi_module *m, uint32_t deck, rgi_value card, uint32_t pc) {
  on_draw(cur, m, deck, card, pc);
}

static void free_vms(void) {
  for (int f = 0; f < 2; f++)
    for (int w = 0; w < 2; w++)
      for (int s = 0; s < 8; s++) {
        rgi_vm_free(vms[f][w][s]);
        vms[f][w][s] = NULL;
      }
  vms_of = NULL;
}

static void run(const rgi_module *m, int fuse, int watch, int steps, uint64_t max_steps, int proc,
                rgi_value x, rgi_value y, outcome *o) {
  memset(o, 0, sizeof *o);
  if (vms_of != m) {
    free_vms();
    vms_of = m;
  }
  rgi_vm *vm = vms[fuse][watch][steps];
  if (!vm) {
    rgi_sink sink = {.roll = watch ? on_roll_cur : NULL, .draw = watch ? on_draw_cur : NULL};
    rgi_limits lim = {max_steps, 1 << 16, 0, NULL};
    vm = rgi_vm_new(m, &lim, &sink);
    if (!vm || rgi_vm_set_fusion(vm, fuse) != 0) {
      failed++;
      printf("FAIL: rgi_vm_new\n");
      rgi_vm_free(vm);
      return;
    }
    vms[fuse][watch][steps] = vm;
  }
  cur = &o->tr;
  rgi_vm_seed(vm, 7, (uint64_t)x);
  rgi_value args[2] = {x, y};
  o->st = rgi_vm_call(vm, (uint32_t)proc, args, &o->result);
  uint32_t pc;
  snprintf(o->err, sizeof o->err, "%s", rgi_vm_error(vm, &pc));
  o->pc = pc;
  if (o->st == RG_RUN_OK && m->procs[proc].result.kind == RG_K_LIST) {
    uint32_t nh;
    const rgi_value *h = rgi_vm_heap(vm, &nh);
    if (o->result >= 0 && (uint64_t)o->result < nh) {
      o->nlist = (uint32_t)h[o->result];
      for (uint32_t k = 0; k < o->nlist && k < 8; k++) o->list[k] = h[o->result + 1 + k];
    }
    o->result = 0;   /* where the list lies may differ; its elements may not */
  }
}

/* Every form of every fused binary operator and compare-and-branch, built
** by hand: procedures f(x, y) with a third local. */
static void build_forms(mb *b) {
  static const unsigned binops[] = {RG_OP_ADD, RG_OP_SUB, RG_OP_MUL, RG_OP_DIV, RG_OP_MOD, RG_OP_EQ,
                                    RG_OP_NE, RG_OP_LT, RG_OP_LE, RG_OP_GT, RG_OP_GE};
  static const int32_t ks[] = {0, 1, -1, 3, 7, -8};
  static const char *const names[] = {"x", "y"};
  static const rgi_type types[] = {{RG_K_INT, 0}, {RG_K_INT, 0}};
  char name[64];
  mb_init(b);
  for (unsigned o = 0; o < sizeof binops / sizeof binops[0]; o++)
    for (unsigned k = 0; k < sizeof ks / sizeof ks[0]; k++)
      for (int form = 0; form < 12; form++) {
        unsigned op = binops[o];
        int cmp = op >= RG_OP_EQ;
        if (form >= 7 && form <= 10 && !cmp) continue;
        snprintf(name, sizeof name, "op%u_k%d_form%d", op, ks[k], form);
        mb_proc(b, name, T_INT, 2, names, types, 3);
        b->line = form + 1;
        switch (form) {
          case 0:   /* OP_K */
            mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_ADD, 0);
            mb_emit(b, RG_OP_PUSHI, ks[k]); mb_emit(b, op, 0); mb_emit(b, RG_OP_RET, 0);
            break;
          case 1:   /* OP_L */
            mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_ADD, 0);
            mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, op, 0); mb_emit(b, RG_OP_RET, 0);
            break;
          case 2:   /* OP_LK */
            mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, ks[k]); mb_emit(b, op, 0);
            mb_emit(b, RG_OP_RET, 0);
            break;
          case 3:   /* OP_LL */
            mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, op, 0);
            mb_emit(b, RG_OP_RET, 0);
            break;
          case 4:   /* OP_LKS */
            mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, ks[k]); mb_emit(b, op, 0);
            mb_emit(b, RG_OP_STORE, 2); mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_RET, 0);
            break;
          case 5:   /* OP_LLS */
            mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, op, 0);
            mb_emit(b, RG_OP_STORE, 2); mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_RET, 0);
            break;
          case 6:   /* OP_S */
            mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_ADD, 0);
            mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_ADD, 0);
            mb_emit(b, op, 0); mb_emit(b, RG_OP_STORE, 2); mb_emit(b, RG_OP_LOAD, 2);
            mb_emit(b, RG_OP_RET, 0);
            break;
          case 11:  /* OP_KS */
            mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_ADD, 0);
            mb_emit(b, RG_OP_PUSHI, ks[k]); mb_emit(b, op, 0); mb_emit(b, RG_OP_STORE, 2);
            mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_RET, 0);
            break;
          default: {  /* BR_LL, BR_LK, BR_SK, BR_SS; JMPF for even k, JMPT for odd */
            unsigned j = k % 2 ? RG_OP_JMPT : RG_OP_JMPF;
            if (form == 7 || form == 8) mb_emit(b, RG_OP_LOAD, 0);
            if (form == 7) mb_emit(b, RG_OP_LOAD, 1);
            if (form == 8) mb_emit(b, RG_OP_PUSHI, ks[k]);
            if (form >= 9) {
              mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_ADD, 0);
            }
            if (form == 9) mb_emit(b, RG_OP_PUSHI, ks[k]);
            if (form == 10) {
              mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_ADD, 0);
            }
            mb_emit(b, op, 0);
            int32_t at = mb_emit(b, j, 0);
            mb_emit(b, RG_OP_PUSHI, 1); mb_emit(b, RG_OP_RET, 0);
            mb_patch(b, at, mb_here(b));
            mb_emit(b, RG_OP_PUSHI, 2); mb_emit(b, RG_OP_RET, 0);
          }
        }
        (void)cmp;
      }
  /* LOAD; JMPT (BRTL), and a JMP onto a JMPT (JMPT2) from `x > 0 or y`. */
  mb_proc(b, "brtl_jmpt2", T_INT, 2, names, types, 3);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_GT, 0);
  int32_t j1 = mb_emit(b, RG_OP_JMPF, 0);
  mb_emit(b, RG_OP_PUSHI, 1);
  int32_t j2 = mb_emit(b, RG_OP_JMP, 0);
  mb_patch(b, j1, mb_here(b));
  mb_emit(b, RG_OP_LOAD, 1);
  mb_patch(b, j2, mb_here(b));
  int32_t j3 = mb_emit(b, RG_OP_JMPT, 0);
  mb_emit(b, RG_OP_LOAD, 1);
  int32_t j4 = mb_emit(b, RG_OP_JMPT, 0);
  mb_emit(b, RG_OP_PUSHI, 3); mb_emit(b, RG_OP_RET, 0);
  mb_patch(b, j3, mb_here(b));
  mb_emit(b, RG_OP_PUSHI, 4); mb_emit(b, RG_OP_RET, 0);
  mb_patch(b, j4, mb_here(b));
  mb_emit(b, RG_OP_PUSHI, 5); mb_emit(b, RG_OP_RET, 0);
  /* `x > 0 and [not] y` jumping on false or true: LOAD [NOT]; JMP onto a
  ** JMPF/JMPT (BRL2), for each of the four. */
  for (int form = 0; form < 4; form++) {
    snprintf(name, sizeof name, "brl2_%d", form);
    mb_proc(b, name, T_INT, 2, names, types, 3);
    mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_GT, 0);
    int32_t f1 = mb_emit(b, RG_OP_JMPF, 0);
    mb_emit(b, RG_OP_LOAD, 1);
    if (form & 1) mb_emit(b, RG_OP_NOT, 0);
    int32_t f2 = mb_emit(b, RG_OP_JMP, 0);
    mb_patch(b, f1, mb_here(b));
    mb_emit(b, RG_OP_PUSHI, 0);
    mb_patch(b, f2, mb_here(b));
    int32_t f3 = mb_emit(b, form & 2 ? RG_OP_JMPT : RG_OP_JMPF, 0);
    mb_emit(b, RG_OP_PUSHI, 3); mb_emit(b, RG_OP_RET, 0);
    mb_patch(b, f3, mb_here(b));
    mb_emit(b, RG_OP_PUSHI, 4); mb_emit(b, RG_OP_RET, 0);
  }
  /* LOAD; ABS (ABS_L), PUSHI k; NEG (folded) with and without a STORE. */
  mb_proc(b, "abs_neg", T_INT, 2, names, types, 3);
  mb_emit(b, RG_OP_PUSHI, 7); mb_emit(b, RG_OP_NEG, 0); mb_emit(b, RG_OP_STORE, 2);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_ABS, 0);
  mb_emit(b, RG_OP_PUSHI, -8388608); mb_emit(b, RG_OP_NEG, 0); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_ADD, 0); mb_emit(b, RG_OP_RET, 0);
  /* A STORE after a POP stores the value below, not the one popped. */
  mb_proc(b, "pop_store", T_INT, 2, names, types, 3);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_MUL, 0);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_POP, 0); mb_emit(b, RG_OP_STORE, 2); mb_emit(b, RG_OP_LOAD, 2);
  mb_emit(b, RG_OP_RET, 0);
  /* A jump target after a jump: nothing falls into it (the loop runs until
  ** the step limit, then returns x from the stack). */
  mb_proc(b, "after_jump", T_INT, 2, names, types, 3);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_JMP, 2); mb_emit(b, RG_OP_RET, 0);
  mb_emit(b, RG_OP_NOP, 0); mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_JMPT, -4);
  mb_emit(b, RG_OP_RET, 0);
}

int main(void) {
  char path[] = "/tmp/regula-fuse-XXXXXX";
  int fd = mkstemp(path);
  rgi_arena arena;
  rgi_diag d;
  rgi_module m;
  if (fd < 0 || write(fd, source, strlen(source)) != (ssize_t)strlen(source)) {
    printf("FAIL %s: cannot write %s\n", __FILE__, path);
    return 1;
  }
  close(fd);
  rgi_arena_init(&arena, 0);
  rgi_diag_init(&d, &arena, NULL, NULL);   /* diagnostics kept, unread */
  int bad = rgi_compile(&d, path, &m, NULL);
  unlink(path);
  if (bad != 0) {
    printf("FAIL %s: the rule file does not compile\n", __FILE__);
    rgi_arena_free(&arena);
    return 1;
  }

  static const rgi_value vals[] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 13, 40, -1, -2, -7, 1000,
                                  INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1,
                                  (rgi_value)1 << 32, -((rgi_value)1 << 32) - 5};
  static const uint64_t steps[] = {0, 1, 2, 3, 5, 8, 13};
  const size_t nv = sizeof vals / sizeof vals[0];
  uint32_t errors = 0, limits = 0;
  for (uint32_t p = 0; p < m.nprocs; p++) {
    const char *name = rgi_module_str(&m, m.procs[p].name);
    for (size_t i = 0; i < nv; i++)
      for (size_t j = 0; j < nv; j++)
        for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++)
          for (int watch = 0; watch < 2; watch++) {
            rgi_value x = vals[i], y = vals[j];
            if (strcmp(name, "loops") == 0 || strcmp(name, "tally") == 0 || strcmp(name, "calls") == 0 ||
                strcmp(name, "whiles") == 0)
              if (x > 1000) x = 1000 + (x & 7);  /* keep the loops short */
            if (s > 0 && watch) continue;
            outcome a, b;
            run(&m, 1, watch, (int)s, steps[s], (int)p, x, y, &a);
            run(&m, 0, watch, (int)s, steps[s], (int)p, x, y, &b);
            int same = a.st == b.st && a.result == b.result && strcmp(a.err, b.err) == 0 &&
                       a.pc == b.pc && a.nlist == b.nlist &&
                       memcmp(a.list, b.list, sizeof a.list) == 0 &&
                       a.tr.h == b.tr.h && a.tr.n == b.tr.n;
            CHECK(same, "%s(%lld, %lld) steps %llu watch %d: fused: status %d result %lld "
                  "error '%s' at %u, %u reports; plain: status %d result %lld error '%s' at %u, "
                  "%u reports", name, (long long)x, (long long)y, (unsigned long long)steps[s],
                  watch, a.st, (long long)a.result, a.err, a.pc, a.tr.n, b.st,
                  (long long)b.result, b.err, b.pc, b.tr.n);
            errors += a.st == RG_RUN_ERROR;
            limits += a.st == RG_RUN_LIMIT;
          }
  }
  /* The arguments above must reach the failures inside fused instructions. */
  CHECK(errors > 100, "only %u runs failed with an error", errors);
  CHECK(limits > 100, "only %u runs reached the step limit", limits);
  free_vms();
  rgi_module_free(&m);
  rgi_arena_free(&arena);

  /* Every form, by hand. */
  mb b;
  char err[256];
  build_forms(&b);
  CHECK(rgi_module_verify(&b.m, err, sizeof err) == 0, "the forms module: %s", err);
  uint32_t ferrors = 0;
  for (uint32_t p = 0; p < b.m.nprocs; p++)
    for (size_t i = 0; i < nv; i++)
      for (size_t j = 0; j < nv; j++) {
        outcome x, y;
        run(&b.m, 1, 0, 0, 0, (int)p, vals[i], vals[j], &x);
        run(&b.m, 0, 0, 0, 0, (int)p, vals[i], vals[j], &y);
        CHECK(x.st == y.st && x.result == y.result && strcmp(x.err, y.err) == 0 && x.pc == y.pc,
              "%s(%lld, %lld): fused: status %d result %lld error '%s' at %u; plain: status %d "
              "result %lld error '%s' at %u", rgi_module_str(&b.m, b.m.procs[p].name),
              (long long)vals[i], (long long)vals[j], x.st, (long long)x.result, x.err, x.pc,
              y.st, (long long)y.result, y.err, y.pc);
        ferrors += x.st == RG_RUN_ERROR;
      }
  CHECK(ferrors > 1000, "only %u runs of the forms failed with an error", ferrors);
  free_vms();
  rgi_module_free(&b.m);
  return check_done("test_fuse");
}
