/*
** test_vm.c: the VM on hand-built modules: arithmetic, jumps, loops, calls,
** lookups, records, sets, notes, expectations, every runtime error and limit.
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "modbuild.h"
#include "vm.h"

static int passed, failed;

#define CHECK(cond, ...) do { \
    if (cond) passed++; \
    else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)

/* What the sink saw. */
typedef struct seen {
  int nnotes;
  uint32_t note;
  rg_value vals[4];
  uint32_t note_pc;
  int nfails;
  uint32_t expect;
  rg_value actual, expected;
} seen;

static void on_note(void *ctx, const rg_module *m, uint32_t note, const rg_value *vals, uint32_t pc) {
  seen *s = ctx;
  s->nnotes++;
  s->note = note;
  for (uint32_t i = 0; i < m->notes[note].nvals && i < 4; i++) s->vals[i] = vals[i];
  s->note_pc = pc;
}

static void on_expect(void *ctx, const rg_module *m, uint32_t expect, rg_value actual,
                      rg_value expected, uint32_t pc) {
  seen *s = ctx;
  s->nfails++;
  s->expect = expect;
  s->actual = actual;
  s->expected = expected;
}

static mb B;                 /* the module under test */
static seen S;
static char errbuf[256];

/* Runs procedure name with args under limits (NULL: defaults); stores the
** result and the error message (in errbuf). */
static rg_status run(const char *name, const rg_value *args, rg_value *res, const rg_limits *lim) {
  int p = rg_module_find_proc(&B.m, name);
  if (p < 0) { printf("no procedure %s\n", name); return (rg_status)99; }
  rg_sink sink = {.ctx = &S, .note = on_note, .expect_fail = on_expect};
  rg_vm *vm = rg_vm_new(&B.m, lim, &sink);
  if (!vm) return (rg_status)98;
  *res = -12345;
  rg_status st = rg_vm_call(vm, (uint32_t)p, args, res);
  snprintf(errbuf, sizeof errbuf, "%s", st == RG_RUN_OK ? "" : rg_vm_error(vm, NULL));
  rg_vm_free(vm);
  return st;
}

/* Runs a two-argument procedure and returns its result (checking OK). */
static rg_value call2(const char *name, rg_value a, rg_value b) {
  rg_value args[2] = {a, b}, r;
  rg_status st = run(name, args, &r, NULL);
  CHECK(st == RG_RUN_OK, "%s(%" PRId64 ", %" PRId64 "): status %d %s", name, a, b, st, errbuf);
  return r;
}

/* Expects name(a, b) to fail with status st and message msg. */
static void fails2(const char *name, rg_value a, rg_value b, rg_status st, const char *msg) {
  rg_value args[2] = {a, b}, r;
  rg_status got = run(name, args, &r, NULL);
  CHECK(got == st && strcmp(errbuf, msg) == 0, "%s(%" PRId64 ", %" PRId64 "): got %d '%s', want %d '%s'",
        name, a, b, got, errbuf, st, msg);
}

static const char *const AB[] = {"a", "b", "c"};
static const rg_type INT3[] = {{RG_K_INT, 0}, {RG_K_INT, 0}, {RG_K_INT, 0}};

/* Adds proc name(a, b) -> int { return a OP b } (or OP a for unary). */
static void binop(const char *name, unsigned op, int unary) {
  mb_proc(&B, name, T_INT, 2, AB, INT3, 2);
  mb_emit(&B, RG_OP_LOAD, 0);
  if (!unary) mb_emit(&B, RG_OP_LOAD, 1);
  mb_emit(&B, op, 0);
  mb_emit(&B, RG_OP_RET, 0);
}

int main(void) {
  char err[256];
  mb_init(&B);
  static const char *const terr[] = {"S", "C", "D"};
  uint32_t territory = mb_enum(&B, "territory", 3, terr);

  /* Arithmetic and friends, one procedure per opcode. */
  static const struct { const char *name; unsigned op; int unary; } ops[] = {
    {"add", RG_OP_ADD, 0}, {"sub", RG_OP_SUB, 0}, {"mul", RG_OP_MUL, 0},
    {"div", RG_OP_DIV, 0}, {"mod", RG_OP_MOD, 0}, {"neg", RG_OP_NEG, 1},
    {"not", RG_OP_NOT, 1}, {"eq", RG_OP_EQ, 0}, {"ne", RG_OP_NE, 0},
    {"lt", RG_OP_LT, 0}, {"le", RG_OP_LE, 0}, {"gt", RG_OP_GT, 0},
    {"ge", RG_OP_GE, 0}, {"inset", RG_OP_INSET, 0}, {"setadd", RG_OP_SETADD, 0},
    {"union", RG_OP_UNION, 0}, {"inter", RG_OP_INTER, 0}, {"diff", RG_OP_DIFF, 0},
    {"count", RG_OP_COUNT, 1}, {"abs", RG_OP_ABS, 1},
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) binop(ops[i].name, ops[i].op, ops[i].unary);

  /* min3/max3/clamp(a, b, c) */
  mb_proc(&B, "min3", T_INT, 3, AB, INT3, 3);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOAD, 1); mb_emit(&B, RG_OP_LOAD, 2);
  mb_emit(&B, RG_OP_MIN, 3); mb_emit(&B, RG_OP_RET, 0);
  mb_proc(&B, "max3", T_INT, 3, AB, INT3, 3);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOAD, 1); mb_emit(&B, RG_OP_LOAD, 2);
  mb_emit(&B, RG_OP_MAX, 3); mb_emit(&B, RG_OP_RET, 0);
  mb_proc(&B, "clamp", T_INT, 3, AB, INT3, 3);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOAD, 1); mb_emit(&B, RG_OP_LOAD, 2);
  mb_emit(&B, RG_OP_CLAMP, 0); mb_emit(&B, RG_OP_RET, 0);

  /* big() -> int: K[0] + PUSHI -5 */
  uint32_t kbig = mb_const(&B, INT64_C(1) << 40);
  mb_proc(&B, "big", T_INT, 0, NULL, NULL, 0);
  mb_emit(&B, RG_OP_CONST, (int32_t)kbig); mb_emit(&B, RG_OP_PUSHI, -5);
  mb_emit(&B, RG_OP_ADD, 0); mb_emit(&B, RG_OP_RET, 0);

  /* sum(n) -> int: s = 0; i = 1; while i <= n { s = s + i; i = i + 1 }; return s */
  mb_proc(&B, "sum", T_INT, 1, AB, INT3, 3);
  mb_emit(&B, RG_OP_PUSHI, 1); mb_emit(&B, RG_OP_STORE, 2);
  int32_t top = mb_here(&B);
  mb_emit(&B, RG_OP_LOAD, 2); mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LE, 0);
  int32_t jf = mb_jump(&B, RG_OP_JMPF, 0);
  mb_emit(&B, RG_OP_LOAD, 1); mb_emit(&B, RG_OP_LOAD, 2); mb_emit(&B, RG_OP_ADD, 0);
  mb_emit(&B, RG_OP_STORE, 1);
  mb_emit(&B, RG_OP_LOAD, 2); mb_emit(&B, RG_OP_PUSHI, 1); mb_emit(&B, RG_OP_ADD, 0);
  mb_emit(&B, RG_OP_STORE, 2);
  mb_jump(&B, RG_OP_JMP, top);
  mb_patch(&B, jf, mb_here(&B));
  mb_emit(&B, RG_OP_LOAD, 1); mb_emit(&B, RG_OP_RET, 0);

  /* fact(n) -> int: if n <= 1 { return 1 } return n * fact(n - 1) */
  uint32_t fact = mb_proc(&B, "fact", T_INT, 1, AB, INT3, 1);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_PUSHI, 1); mb_emit(&B, RG_OP_LE, 0);
  jf = mb_jump(&B, RG_OP_JMPF, 0);
  mb_emit(&B, RG_OP_PUSHI, 1); mb_emit(&B, RG_OP_RET, 0);
  mb_patch(&B, jf, mb_here(&B));
  mb_emit(&B, RG_OP_LOAD, 0);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_PUSHI, 1); mb_emit(&B, RG_OP_SUB, 0);
  mb_emit(&B, RG_OP_CALL, (int32_t)fact);
  mb_emit(&B, RG_OP_MUL, 0); mb_emit(&B, RG_OP_RET, 0);

  /* forever() -> int: return forever() + 0 (no base case) */
  uint32_t forever = mb_proc(&B, "forever", T_INT, 0, NULL, NULL, 0);
  mb_emit(&B, RG_OP_CALL, (int32_t)forever); mb_emit(&B, RG_OP_RET, 0);

  /* spin(): while true {} */
  mb_proc(&B, "spin", T_VOID, 0, NULL, NULL, 0);
  mb_emit(&B, RG_OP_NOP, 0); mb_jump(&B, RG_OP_JMP, 0);

  /* Notes: say(a, b) { note "pair", a, b }; caller() -> int { say(3, 4); return 5 } */
  static const rg_type two[] = {{RG_K_INT, 0}, {RG_K_INT, 0}};
  uint32_t npair = mb_note(&B, "pair", 2, two);
  uint32_t say = mb_proc(&B, "say", T_VOID, 2, AB, INT3, 2);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOAD, 1);
  B.line = 42;
  mb_emit(&B, RG_OP_NOTE, (int32_t)npair);
  B.line = 1;
  mb_emit(&B, RG_OP_RETV, 0);
  mb_proc(&B, "caller", T_INT, 0, NULL, NULL, 0);
  mb_emit(&B, RG_OP_PUSHI, 3); mb_emit(&B, RG_OP_PUSHI, 4);
  mb_emit(&B, RG_OP_CALL, (int32_t)say);
  mb_emit(&B, RG_OP_PUSHI, 5); mb_emit(&B, RG_OP_RET, 0);

  /* Expectations: exp(a, b) { expect a; expect a == b } */
  uint32_t e1 = mb_expect(&B, "a", T_BOOL);
  uint32_t e2 = mb_expect(&B, "a == b", T_INT);
  mb_proc(&B, "exp", T_VOID, 2, AB, INT3, 2);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_EXPECT, (int32_t)e1);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOAD, 1); mb_emit(&B, RG_OP_EXPECTEQ, (int32_t)e2);
  mb_emit(&B, RG_OP_RETV, 0);

  /* fail() -> int: FAIL "boom" */
  mb_proc(&B, "boom", T_INT, 0, NULL, NULL, 0);
  mb_emit(&B, RG_OP_NOP, 0);
  mb_emit(&B, RG_OP_FAIL, (int32_t)mb_str(&B, "no rule for this case"));

  /* weather(score: 2..12, t: territory) -> int = 100 * score + ord(t) */
  rg_dim wd[2] = {mb_dim_range(2, 11), mb_dim_enum(&B, territory)};
  rg_value wc[33];
  for (int s = 0; s < 11; s++) for (int t = 0; t < 3; t++) wc[s * 3 + t] = 100 * (s + 2) + t;
  uint32_t weather = mb_table(&B, "weather", 2, wd, T_INT, wc);
  mb_proc(&B, "look", T_INT, 2, AB, INT3, 2);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOAD, 1);
  mb_emit(&B, RG_OP_LOOKUP, (int32_t)weather); mb_emit(&B, RG_OP_RET, 0);

  /* Negative range: mods(-3..3) -> int = key * 10 */
  rg_dim md[1] = {mb_dim_range(-3, 7)};
  rg_value mc[7];
  for (int k = 0; k < 7; k++) mc[k] = (k - 3) * 10;
  uint32_t mods = mb_table(&B, "mods", 1, md, T_INT, mc);
  mb_proc(&B, "mods", T_INT, 1, AB, INT3, 1);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOOKUP, (int32_t)mods); mb_emit(&B, RG_OP_RET, 0);

  /* Records: info { a: int, b: int }; recs(territory) -> info */
  static const char *const fnames[] = {"a", "b"};
  uint32_t info = mb_record(&B, "info", 2, fnames, two);
  static const rg_value hv[] = {1, 2, 3, 4, 5, 6};
  mb_heap(&B, 6, hv);
  rg_dim rd[1] = {mb_dim_enum(&B, territory)};
  static const rg_value rc[] = {4, 2, 0};
  uint32_t recs = mb_table(&B, "recs", 1, rd, (rg_type){RG_K_RECORD, info}, rc);
  mb_proc(&B, "getb", T_INT, 1, AB, INT3, 1);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOOKUP, (int32_t)recs);
  mb_emit(&B, RG_OP_FIELD, 1); mb_emit(&B, RG_OP_RET, 0);
  /* mk(a, b) -> int: return {a: a, b: b}.b + ... (checks field order) */
  mb_proc(&B, "mk", T_INT, 2, AB, INT3, 2);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOAD, 1);
  mb_emit(&B, RG_OP_MKREC, (int32_t)info);
  mb_emit(&B, RG_OP_FIELD, 0); mb_emit(&B, RG_OP_RET, 0);
  mb_proc(&B, "mkrec", (rg_type){RG_K_RECORD, info}, 2, AB, INT3, 2);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOAD, 1);
  mb_emit(&B, RG_OP_MKREC, (int32_t)info); mb_emit(&B, RG_OP_RET, 0);
  /* field(r, k): H[r + 1] */
  mb_proc(&B, "field", T_INT, 2, AB, INT3, 2);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_FIELD, 1); mb_emit(&B, RG_OP_RET, 0);
  /* hog(): builds records forever */
  mb_proc(&B, "hog", T_VOID, 0, NULL, NULL, 0);
  mb_emit(&B, RG_OP_PUSHI, 1); mb_emit(&B, RG_OP_PUSHI, 2);
  mb_emit(&B, RG_OP_MKREC, (int32_t)info); mb_emit(&B, RG_OP_POP, 0);
  mb_jump(&B, RG_OP_JMP, 0);

  if (rg_module_verify(&B.m, err, sizeof err) != 0) {
    printf("test_vm: module does not verify: %s\n", err);
    return 1;
  }

  /* Arithmetic. */
  CHECK(call2("add", 2, 3) == 5, "add");
  CHECK(call2("sub", 2, 3) == -1, "sub");
  CHECK(call2("mul", -4, 3) == -12, "mul");
  CHECK(call2("div", 7, 2) == 3, "div");
  CHECK(call2("div", -7, 2) == -3, "div toward zero");
  CHECK(call2("div", 7, -2) == -3, "div toward zero 2");
  CHECK(call2("mod", 7, 3) == 1, "mod");
  CHECK(call2("mod", -7, 3) == -1, "mod sign of a");
  CHECK(call2("mod", 7, -3) == 1, "mod sign of a 2");
  CHECK(call2("mod", INT64_MIN, -1) == 0, "mod min -1");
  CHECK(call2("neg", 5, 0) == -5, "neg");
  CHECK(call2("not", 0, 0) == 1 && call2("not", 7, 0) == 0, "not");
  CHECK(call2("eq", 3, 3) == 1 && call2("eq", 3, 4) == 0, "eq");
  CHECK(call2("ne", 3, 3) == 0 && call2("ne", 3, 4) == 1, "ne");
  CHECK(call2("lt", 3, 4) == 1 && call2("lt", 4, 4) == 0, "lt");
  CHECK(call2("le", 4, 4) == 1 && call2("le", 5, 4) == 0, "le");
  CHECK(call2("gt", 5, 4) == 1 && call2("gt", 4, 4) == 0, "gt");
  CHECK(call2("ge", 4, 4) == 1 && call2("ge", 3, 4) == 0, "ge");
  CHECK(call2("abs", -9, 0) == 9 && call2("abs", 9, 0) == 9, "abs");
  CHECK(call2("big", 0, 0) == (INT64_C(1) << 40) - 5, "const + pushi");
  CHECK(call2("add", INT64_MAX - 1, 1) == INT64_MAX, "add to max");

  /* Sets. */
  CHECK(call2("inset", 2, 5) == 1 && call2("inset", 1, 5) == 0, "inset");
  CHECK(call2("inset", 63, INT64_MIN) == 1, "inset 63");
  CHECK(call2("setadd", 5, 1) == 7, "setadd");
  CHECK(call2("setadd", 0, 63) == INT64_MIN, "setadd 63");
  CHECK(call2("union", 5, 3) == 7 && call2("inter", 5, 3) == 1 && call2("diff", 5, 3) == 4, "set ops");
  CHECK(call2("count", 0xF0F0, 0) == 8 && call2("count", -1, 0) == 64, "count");

  /* Builtins. */
  {
    rg_value a[3] = {5, -2, 9}, r;
    CHECK(run("min3", a, &r, NULL) == RG_RUN_OK && r == -2, "min3");
    CHECK(run("max3", a, &r, NULL) == RG_RUN_OK && r == 9, "max3");
    rg_value c1[3] = {20, 0, 14}, c2[3] = {-3, 0, 14}, c3[3] = {7, 0, 14};
    CHECK(run("clamp", c1, &r, NULL) == RG_RUN_OK && r == 14, "clamp hi");
    CHECK(run("clamp", c2, &r, NULL) == RG_RUN_OK && r == 0, "clamp lo");
    CHECK(run("clamp", c3, &r, NULL) == RG_RUN_OK && r == 7, "clamp mid");
  }

  /* Arithmetic errors. */
  fails2("add", INT64_MAX, 1, RG_RUN_ERROR, "integer overflow");
  fails2("sub", INT64_MIN, 1, RG_RUN_ERROR, "integer overflow");
  fails2("mul", INT64_MAX / 2 + 1, 2, RG_RUN_ERROR, "integer overflow");
  fails2("mul", INT64_MIN, -1, RG_RUN_ERROR, "integer overflow");
  fails2("div", 5, 0, RG_RUN_ERROR, "division by zero");
  fails2("div", INT64_MIN, -1, RG_RUN_ERROR, "integer overflow");
  fails2("mod", 5, 0, RG_RUN_ERROR, "division by zero");
  fails2("neg", INT64_MIN, 0, RG_RUN_ERROR, "integer overflow");
  fails2("abs", INT64_MIN, 0, RG_RUN_ERROR, "integer overflow");
  fails2("inset", 64, 0, RG_RUN_ERROR, "set member 64 outside 0..63");
  fails2("inset", -1, 0, RG_RUN_ERROR, "set member -1 outside 0..63");
  fails2("setadd", 0, 64, RG_RUN_ERROR, "set member 64 outside 0..63");

  /* Loops and the step limit. */
  CHECK(call2("sum", 100, 0) == 5050, "sum loop");
  CHECK(call2("sum", 0, 0) == 0, "sum empty loop");
  {
    rg_value a[1] = {100}, r;
    rg_limits lim = {10, 0};
    rg_status st = run("sum", a, &r, &lim);
    CHECK(st == RG_RUN_LIMIT && strcmp(errbuf, "step limit of 10 reached") == 0, "step limit: %d %s", st, errbuf);
    lim.max_steps = 100;   /* exactly the 100 backward jumps */
    CHECK(run("sum", a, &r, &lim) == RG_RUN_OK && r == 5050, "step limit not reached: %s", errbuf);
    lim.max_steps = 1000;
    st = run("spin", NULL, &r, &lim);
    CHECK(st == RG_RUN_LIMIT && strcmp(errbuf, "step limit of 1000 reached") == 0, "spin: %s", errbuf);
  }

  /* Calls, recursion, depth and memory limits. */
  CHECK(call2("fact", 20, 0) == INT64_C(2432902008176640000), "fact 20");
  CHECK(call2("fact", 1, 0) == 1, "fact 1");
  fails2("fact", 21, 0, RG_RUN_ERROR, "integer overflow");
  fails2("forever", 0, 0, RG_RUN_LIMIT, "call depth limit");
  {
    rg_value a[1] = {150}, r;
    rg_limits lim = {0, 1024};
    rg_status st = run("fact", a, &r, &lim);
    CHECK(st == RG_RUN_LIMIT && strcmp(errbuf, "memory limit") == 0, "stack memory limit: %d %s", st, errbuf);
    lim.max_steps = 50;
    st = run("forever", NULL, &r, &lim);
    CHECK(st == RG_RUN_LIMIT, "forever with steps");
  }
  {
    rg_value a[1] = {200}, r;   /* 200 frames deep: just within the limit */
    rg_status st = run("forever", NULL, &r, NULL);
    CHECK(st == RG_RUN_LIMIT, "forever");
    st = run("fact", a, &r, NULL);
    CHECK(st == RG_RUN_ERROR && strcmp(errbuf, "integer overflow") == 0, "fact 200 reaches the multiply: %s", errbuf);
    a[0] = 201;
    st = run("fact", a, &r, NULL);
    CHECK(st == RG_RUN_LIMIT && strcmp(errbuf, "call depth limit") == 0, "fact 201: %s", errbuf);
  }

  /* Notes via the sink. */
  {
    rg_value r;
    memset(&S, 0, sizeof S);
    CHECK(run("caller", NULL, &r, NULL) == RG_RUN_OK && r == 5, "caller");
    CHECK(S.nnotes == 1 && S.note == npair && S.vals[0] == 3 && S.vals[1] == 4, "note values");
    CHECK(B.m.lines[S.note_pc].line == 42, "note pc points at its line");
  }

  /* Expectations go on after a failure. */
  {
    rg_value a[2] = {0, 7}, r;
    memset(&S, 0, sizeof S);
    CHECK(run("exp", a, &r, NULL) == RG_RUN_OK, "exp runs to the end");
    CHECK(S.nfails == 2 && S.expect == e2 && S.actual == 0 && S.expected == 7, "expect fails");
    a[0] = 7;
    memset(&S, 0, sizeof S);
    CHECK(run("exp", a, &r, NULL) == RG_RUN_OK && S.nfails == 0, "expect passes");
    a[0] = 1;
    memset(&S, 0, sizeof S);
    run("exp", a, &r, NULL);
    CHECK(S.nfails == 1 && S.actual == 1 && S.expected == 7, "expecteq only");
    /* Without a sink nothing is called. */
    rg_vm *vm = rg_vm_new(&B.m, NULL, NULL);
    a[0] = 0;
    CHECK(vm && rg_vm_call(vm, (uint32_t)rg_module_find_proc(&B.m, "exp"), a, NULL) == RG_RUN_OK, "no sink");
    CHECK(vm && rg_vm_call(vm, (uint32_t)rg_module_find_proc(&B.m, "caller"), NULL, &r) == RG_RUN_OK && r == 5, "no sink note");
    rg_vm_free(vm);
  }

  /* FAIL. */
  {
    rg_value r;
    int p = rg_module_find_proc(&B.m, "boom");
    rg_vm *vm = rg_vm_new(&B.m, NULL, NULL);
    uint32_t pc = 0;
    CHECK(rg_vm_call(vm, (uint32_t)p, NULL, &r) == RG_RUN_ERROR, "fail status");
    const char *msg = rg_vm_error(vm, &pc);
    CHECK(strcmp(msg, "no rule for this case") == 0 && pc == B.m.procs[p].code + 1, "fail message '%s' pc %u", msg, pc);
    CHECK(rg_vm_call(vm, 9999, NULL, &r) == RG_RUN_ERROR, "bad proc index");
    rg_vm_free(vm);
  }

  /* Lookups: a range dimension starting at 2, an enum dimension. */
  CHECK(call2("look", 2, 0) == 200, "look first");
  CHECK(call2("look", 12, 2) == 1202, "look last");
  CHECK(call2("look", 7, 1) == 701, "look middle");
  fails2("look", 13, 0, RG_RUN_ERROR, "key 13 outside 2..12 of table 'weather'");
  fails2("look", 1, 0, RG_RUN_ERROR, "key 1 outside 2..12 of table 'weather'");
  fails2("look", 5, 3, RG_RUN_ERROR, "key 3 outside 0..2 of table 'weather'");
  fails2("look", 5, -1, RG_RUN_ERROR, "key -1 outside 0..2 of table 'weather'");
  fails2("look", INT64_MIN, 0, RG_RUN_ERROR, "key -9223372036854775808 outside 2..12 of table 'weather'");
  CHECK(call2("mods", -3, 0) == -30 && call2("mods", 3, 0) == 30, "negative range");
  fails2("mods", 4, 0, RG_RUN_ERROR, "key 4 outside -3..3 of table 'mods'");

  /* Records. */
  CHECK(call2("getb", 0, 0) == 6 && call2("getb", 1, 0) == 4 && call2("getb", 2, 0) == 2, "record table fields");
  CHECK(call2("mk", 8, 9) == 8, "mkrec field 0");
  {
    rg_value a[2] = {8, 9}, r;
    rg_vm *vm = rg_vm_new(&B.m, NULL, NULL);
    uint32_t p = (uint32_t)rg_module_find_proc(&B.m, "mkrec"), n;
    CHECK(rg_vm_call(vm, p, a, &r) == RG_RUN_OK && r == 6, "mkrec offset %" PRId64, r);
    const rg_value *h = rg_vm_heap(vm, &n);
    CHECK(n == 8 && h[6] == 8 && h[7] == 9 && h[0] == 1, "heap after mkrec");
    CHECK(rg_vm_call(vm, p, a, &r) == RG_RUN_OK && r == 6, "heap reset between calls");
    rg_vm_free(vm);
  }
  CHECK(call2("field", 4, 0) == 6, "field in range");
  fails2("field", 5, 0, RG_RUN_ERROR, "record field 5+1 outside the heap (size 6)");
  fails2("field", -1, 0, RG_RUN_ERROR, "record field -1+1 outside the heap (size 6)");
  fails2("field", INT64_MAX, 0, RG_RUN_ERROR, "record field 9223372036854775807+1 outside the heap (size 6)");
  {
    rg_value r;
    rg_limits lim = {0, 4096};
    rg_status st = run("hog", NULL, &r, &lim);
    CHECK(st == RG_RUN_LIMIT && strcmp(errbuf, "memory limit") == 0, "heap memory limit: %d %s", st, errbuf);
    rg_limits lim2 = {500, 1 << 20};
    st = run("hog", NULL, &r, &lim2);
    CHECK(st == RG_RUN_LIMIT && strcmp(errbuf, "step limit of 500 reached") == 0, "hog steps: %s", errbuf);
  }

  /* The same VM runs many calls without growing. */
  {
    rg_vm *vm = rg_vm_new(&B.m, NULL, NULL);
    uint32_t p = (uint32_t)rg_module_find_proc(&B.m, "fact");
    rg_value a[1] = {10}, r = 0, total = 0;
    for (int k = 0; k < 1000; k++) { rg_vm_call(vm, p, a, &r); total += r; }
    CHECK(total == INT64_C(3628800) * 1000, "repeated calls");
    rg_vm_free(vm);
  }

  /* Out of memory while creating a VM fails cleanly. */
  for (unsigned long k = 1; k <= 3; k++) {
    rg_alloc_fail_at(k);
    rg_vm *vm = rg_vm_new(&B.m, NULL, NULL);
    rg_alloc_fail_at(0);
    CHECK(vm == NULL, "alloc failure %lu", k);
    rg_vm_free(vm);
  }

  rg_module_free(&B.m);
  printf("test_vm: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
