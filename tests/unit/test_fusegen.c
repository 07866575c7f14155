/*
** test_fusegen.c: random programs run the same with and without fusion.
**
** Builds random modules by hand (tests/unit/modbuild.h): procedures of
** expressions, conditional values, stores, pops (a STORE right after a POP
** too), if/else, loops tested at
** the top and at the bottom, values kept on the stack across statements,
** calls, one-instruction leaf procedures, lookups, lists and in-place
** tallies.  Every module the verifier accepts is run, procedure by
** procedure, on random arguments and step limits, with fusion on and off
** (see rgi_vm_set_fusion); status, result, error message and error pc must
** agree.  The seeds are fixed, so a failure repeats; `test_fusegen SEED N`
** runs N other modules from SEED (the generator was written to review the
** VM's register translation, and found a bug in it).
*/
#include "modbuild.h"
#include "vm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXPROCS 7

/* What the generator knows of procedure p: parameters, locals (a list in
** local listl when listl >= 0), and whether it is a one-instruction leaf. */
typedef struct sig {
  int np, nl, leaf, listl;
} sig;

/* The generator's state: one module at a time. */
static uint64_t rs;
static sig sigs[MAXPROCS];
static int nprocs, curp, budget;
static uint32_t t1, t2;
static mb B;

/* A random number in 0..n-1 (xorshift64). */
static uint32_t rnd(uint32_t n) {
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return (uint32_t)(rs % n);
}

/* Emits one instruction and spends one from the procedure's budget. */
static void E(unsigned op, int32_t a) {
  mb_emit(&B, op, a);
  budget--;
}

/* Emits a forward jump to patch later; returns where it is. */
static int32_t J(unsigned op) {
  budget--;
  return mb_emit(&B, op, 0);
}

/* Pushes a local, a small immediate or a constant of the pool. */
static void leafval(void) {
  int w = (int)rnd(4);
  if (w <= 1) E(RG_OP_LOAD, (int32_t)rnd((uint32_t)sigs[curp].nl));
  else if (w == 2) E(RG_OP_PUSHI, (int32_t)rnd(13) - 6);
  else E(RG_OP_CONST, (int32_t)rnd(B.m.nconsts));
}

/* Pushes one value: an operator on sub-expressions, a call, a lookup, a
** min/max/clamp, a list element, or `c ? x : y` written with jumps. */
static void expr(int dep) {
  static const unsigned bin[] = {RG_OP_ADD, RG_OP_SUB, RG_OP_MUL, RG_OP_DIV, RG_OP_MOD,
                                 RG_OP_EQ, RG_OP_NE, RG_OP_LT, RG_OP_LE, RG_OP_GT, RG_OP_GE,
                                 RG_OP_ADD, RG_OP_SUB, RG_OP_MOD};
  static const unsigned un[] = {RG_OP_NEG, RG_OP_NOT, RG_OP_ABS};
  int r = (int)rnd(100);
  if (dep > 3 || budget < 10 || r < 35) {
    leafval();
    return;
  }
  if (r < 60) {
    expr(dep + 1);
    expr(dep + 1);
    E(bin[rnd(14)], 0);
  } else if (r < 66) {
    expr(dep + 1);
    E(un[rnd(3)], 0);
  } else if (r < 78) {
    int q = (int)rnd((uint32_t)nprocs);
    for (int k = 0; k < sigs[q].np; k++) expr(dep + 1);
    E(RG_OP_CALL, q);
  } else if (r < 83) {
    expr(dep + 1);
    expr(dep + 1);
    E(RG_OP_LOOKUP, (int32_t)t2);
  } else if (r < 87) {
    expr(dep + 1);
    E(RG_OP_LOOKUP, (int32_t)t1);
  } else if (r < 91) {
    int n = 1 + (int)rnd(3);
    for (int k = 0; k < n; k++) expr(dep + 1);
    E(rnd(2) ? RG_OP_MIN : RG_OP_MAX, n);
  } else if (r < 94) {
    expr(dep + 1);
    expr(dep + 1);
    expr(dep + 1);
    E(RG_OP_CLAMP, 0);
  } else if (r < 97 && sigs[curp].listl >= 0) {
    E(RG_OP_LOAD, sigs[curp].listl);
    expr(dep + 1);
    E(RG_OP_ITEM, 0);
  } else {
    expr(dep + 1);
    int32_t j1 = J(rnd(2) ? RG_OP_JMPF : RG_OP_JMPT);
    expr(dep + 1);
    int32_t j2 = J(RG_OP_JMP);
    mb_patch(&B, j1, mb_here(&B));
    expr(dep + 1);
    mb_patch(&B, j2, mb_here(&B));
  }
}

static void stmts(int n, int dep);

/* Pushes a condition: a comparison, a value, or `not` a value. */
static void cond(void) {
  static const unsigned cmp[] = {RG_OP_EQ, RG_OP_NE, RG_OP_LT, RG_OP_LE, RG_OP_GT, RG_OP_GE};
  int r = (int)rnd(10);
  expr(1);
  if (r < 6) {
    expr(1);
    E(cmp[rnd(6)], 0);
  } else if (r >= 8) {
    E(RG_OP_NOT, 0);
  }
}

/* Emits one statement at nesting dep: a store, a step x := x +- k, a popped
** value, a tally, an element set, if/else, a loop tested at the top (with a
** step at the end) or at the bottom, or a block with a value kept below. */
static void stmt(int dep) {
  static const unsigned cmp[] = {RG_OP_EQ, RG_OP_NE, RG_OP_LT, RG_OP_LE, RG_OP_GT, RG_OP_GE};
  sig *s = &sigs[curp];
  int r = budget < 5 ? 0 : (int)rnd(100);
  int32_t x = (int32_t)rnd((uint32_t)s->nl);
  if (r < 40 || (dep > 2 && r >= 65)) {
    expr(0);
    E(RG_OP_STORE, x);
  } else if (r < 50) {
    E(RG_OP_LOAD, x);
    E(RG_OP_PUSHI, (int32_t)rnd(5) - 2);
    E(rnd(2) ? RG_OP_ADD : RG_OP_SUB, 0);
    E(RG_OP_STORE, x);
  } else if (r < 55) {   /* a value dropped; or two, the top dropped, the other stored */
    expr(0);
    if (rnd(2)) {
      expr(0);
      E(RG_OP_POP, 0);
      E(RG_OP_STORE, x);
    } else {
      E(RG_OP_POP, 0);
    }
  } else if (r < 58) {
    E(RG_OP_NOP, 0);
  } else if (r < 62 && s->listl >= 0) {   /* l[x] = l[x] + c */
    E(RG_OP_LOAD, s->listl);
    E(RG_OP_LOAD, x);
    E(RG_OP_LOAD, s->listl);
    E(RG_OP_LOAD, x);
    E(RG_OP_ITEM, 0);
    E(RG_OP_PUSHI, (int32_t)rnd(5) - 2);
    E(RG_OP_ADD, 0);
    E(RG_OP_SETITEM, 0);
  } else if (r < 65 && s->listl >= 0) {
    E(RG_OP_LOAD, s->listl);
    expr(1);
    expr(1);
    E(RG_OP_SETITEM, 0);
  } else if (r < 65) {
    expr(0);
    E(RG_OP_STORE, x);
  } else if (r < 78) {
    cond();
    int32_t j1 = J(rnd(2) ? RG_OP_JMPF : RG_OP_JMPT);
    stmts(1 + (int)rnd(3), dep + 1);
    if (rnd(2)) {
      int32_t j2 = J(RG_OP_JMP);
      mb_patch(&B, j1, mb_here(&B));
      stmts(1 + (int)rnd(3), dep + 1);
      mb_patch(&B, j2, mb_here(&B));
    } else {
      mb_patch(&B, j1, mb_here(&B));
    }
  } else if (r < 88) {
    int32_t top = mb_here(&B);
    if (rnd(2)) {
      E(RG_OP_LOAD, x);
      if (rnd(2)) E(RG_OP_PUSHI, (int32_t)rnd(9) - 4);
      else leafval();
      E(cmp[rnd(6)], 0);
    } else {
      cond();
    }
    int32_t j1 = J(rnd(3) ? RG_OP_JMPF : RG_OP_JMPT);
    stmts(1 + (int)rnd(3), dep + 1);
    if (rnd(2)) {
      E(RG_OP_LOAD, x);
      E(RG_OP_PUSHI, (int32_t)rnd(5) - 2);
      E(rnd(2) ? RG_OP_ADD : RG_OP_SUB, 0);
      E(RG_OP_STORE, x);
    }
    budget--;
    mb_jump(&B, RG_OP_JMP, top);
    mb_patch(&B, j1, mb_here(&B));
  } else if (r < 95) {
    int32_t top = mb_here(&B);
    stmts(1 + (int)rnd(3), dep + 1);
    cond();
    budget--;
    mb_jump(&B, rnd(2) ? RG_OP_JMPT : RG_OP_JMPF, top);
  } else {
    expr(0);
    stmts(1 + (int)rnd(2), dep + 1);
    if (rnd(2)) E(RG_OP_STORE, x);
    else E(RG_OP_POP, 0);
  }
}

/* Emits n statements at nesting dep. */
static void stmts(int n, int dep) {
  for (int k = 0; k < n; k++) stmt(dep);
}

/* Emits procedure pi: a leaf `return OP(parameters)`, or about len
** instructions of statements ending in `return expr`. */
static void gen_proc(int pi, int len) {
  static const char *const names[] = {"a", "b", "c", "d"};
  static const rgi_type types[] = {{RG_K_INT, 0}, {RG_K_INT, 0}, {RG_K_INT, 0}, {RG_K_INT, 0}};
  static const unsigned ops2[] = {RG_OP_ADD, RG_OP_SUB, RG_OP_MUL, RG_OP_DIV, RG_OP_MOD,
                                  RG_OP_LT, RG_OP_LOOKUP, RG_OP_MIN, RG_OP_MAX};
  static const unsigned ops1[] = {RG_OP_NEG, RG_OP_ABS, RG_OP_NOT, RG_OP_LOOKUP, RG_OP_MIN};
  char name[16];
  sig *s = &sigs[pi];
  snprintf(name, sizeof name, "p%d", pi);
  curp = pi;
  mb_proc(&B, name, T_INT, (uint32_t)s->np, names, types, (uint32_t)s->nl);
  if (s->leaf) {
    unsigned op = RG_OP_INPUT;
    int32_t a = 0;
    for (int k = 0; k < s->np; k++) mb_emit(&B, RG_OP_LOAD, k);
    if (s->np == 2) {
      op = ops2[rnd(9)];
      a = op == RG_OP_LOOKUP ? (int32_t)t2 : op == RG_OP_MIN || op == RG_OP_MAX ? 2 : 0;
    } else if (s->np == 1) {
      op = ops1[rnd(5)];
      a = op == RG_OP_LOOKUP ? (int32_t)t1 : op == RG_OP_MIN ? 1 : 0;
    } else if (s->np == 3) {
      op = RG_OP_CLAMP;
    }
    mb_emit(&B, op, a);
    mb_emit(&B, RG_OP_RET, 0);
    return;
  }
  budget = len;
  if (s->listl >= 0) {
    E(RG_OP_CONST, 0);
    E(RG_OP_CONST, 3);
    E(RG_OP_CONST, 0);
    E(RG_OP_LIST, 3);
    E(RG_OP_STORE, s->listl);
  }
  while (budget > 0) stmt(0);
  expr(0);
  E(RG_OP_RET, 0);
}

/* One run's outcome. */
typedef struct outcome {
  rg_status st;
  rgi_value r;
  char err[256];
  uint32_t pc;
} outcome;

/* Runs procedure proc of m with args under a step limit, fused or not. */
static int run1(const rgi_module *m, int fuse, uint32_t proc, rgi_value *args, uint64_t steps,
                outcome *o) {
  rgi_limits lim = {steps, 1 << 20, 0, NULL};
  rgi_vm *vm = rgi_vm_new(m, &lim, NULL);
  if (!vm || rgi_vm_set_fusion(vm, fuse) != 0) {
    rgi_vm_free(vm);
    return -1;
  }
  o->r = -777;
  o->st = rgi_vm_call(vm, proc, args, &o->r);
  snprintf(o->err, sizeof o->err, "%s", rgi_vm_error(vm, &o->pc));
  if (o->st != RG_RUN_OK) o->r = 0;
  rgi_vm_free(vm);
  return 0;
}

/* Builds module number `seed` into B (a random number of procedures with
** two tables, an input and four constants). */
static void gen_module(uint64_t seed) {
  rgi_value c1[5] = {10, 20, 30, 40, 50}, c2[12];
  rgi_dim d1 = mb_dim_range(-1, 5);
  rgi_dim d2[2] = {mb_dim_range(0, 3), mb_dim_range(-2, 4)};
  rs = seed * 0x9E3779B97F4A7C15ull | 1;
  for (int w = 0; w < 5; w++) rnd(2);
  mb_init(&B);
  mb_const(&B, 7);
  mb_const(&B, 1000000007);
  mb_const(&B, INT64_MAX);
  mb_const(&B, -5);
  t1 = mb_table(&B, "t1", 1, &d1, T_INT, c1);
  for (int k = 0; k < 12; k++) c2[k] = k * 3 - 4;
  t2 = mb_table(&B, "t2", 2, d2, T_INT, c2);
  mb_input(&B, "inp", T_INT, 5);
  nprocs = 2 + (int)rnd(MAXPROCS - 1);
  for (int p = 0; p < nprocs; p++) {
    sig *s = &sigs[p];
    s->np = (int)rnd(4);
    s->leaf = p > 0 && rnd(3) == 0;
    s->listl = -1;
    s->nl = s->np;
    if (!s->leaf) {
      s->nl += (int)rnd(3) + 1;
      if (rnd(3) == 0) s->listl = s->nl++;
    }
  }
  for (int p = 0; p < nprocs; p++) gen_proc(p, 5 + (int)rnd(60));
}

int main(int argc, char **argv) {
  uint64_t seed0 = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
  int n = argc > 2 ? atoi(argv[2]) : 1500;
  int bad = 0, verified = 0;
  long ok = 0;
  for (int it = 0; it < n && bad < 8; it++) {
    char err[256];
    gen_module(seed0 + (uint64_t)it);
    if (rgi_module_verify(&B.m, err, sizeof err) != 0) {   /* e.g. a jump into a value */
      rgi_module_free(&B.m);
      continue;
    }
    verified++;
    for (int p = 0; p < nprocs; p++)
      for (int a = 0; a < 4; a++) {
        rgi_value args[4];
        outcome f, u;
        for (int k = 0; k < 4; k++) args[k] = (rgi_value)rnd(11) - 4;
        if (rnd(8) == 0) args[rnd(4)] = rnd(2) ? INT64_MAX : INT64_MIN;
        uint64_t steps = rnd(2) ? 1 + rnd(40) : 3000;
        if (run1(&B.m, 1, (uint32_t)p, args, steps, &f) != 0 ||
            run1(&B.m, 0, (uint32_t)p, args, steps, &u) != 0) {
          printf("FAIL: cannot make a VM\n");
          return 1;
        }
        if (f.st != u.st || f.r != u.r || strcmp(f.err, u.err) != 0 || f.pc != u.pc) {
          bad++;
          printf("FAIL: module %llu procedure p%d (%lld, %lld, %lld, %lld), %llu steps: fused "
                 "%d %lld '%s' at %u, plain %d %lld '%s' at %u\n",
                 (unsigned long long)(seed0 + (uint64_t)it), p, (long long)args[0],
                 (long long)args[1], (long long)args[2], (long long)args[3],
                 (unsigned long long)steps, (int)f.st, (long long)f.r, f.err, (unsigned)f.pc,
                 (int)u.st, (long long)u.r, u.err, (unsigned)u.pc);
        } else {
          ok++;
        }
      }
    rgi_module_free(&B.m);
  }
  printf("test_fusegen: %d modules verified, %ld runs agree, %d differ\n", verified, ok, bad);
  if (verified < n / 2) {
    printf("FAIL: only %d of %d modules verified: the generator is broken\n", verified, n);
    return 1;
  }
  return bad != 0;
}
