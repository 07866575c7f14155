/*
** test_rbcflip.c: damaged .rbc files never crash the loader or the VM.
**
** Serializes a representative module (loops, calls, a 2-D table, a record
** table, notes, expectations, dice, a deck, choices, an input, steps and
** list operations), then deserializes every variant with one byte
** flipped (xor 0xFF, and +1), every truncation, and a few thousand seeded
** random multi-byte damages.  Whatever is accepted is disassembled and each
** of its procedures run with zero arguments under small limits: any status
** is fine, a crash or undefined behaviour is not (run under `make sanitize`).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modbuild.h"
#include "vm.h"
#include "check.h"

static unsigned long accepted, rejected, runs;

static void on_note(void *ctx, const rgi_module *m, uint32_t note, const rgi_value *vals, uint32_t pc) {
  /* Touch every value, so a bad pointer would show. */
  rgi_value *sum = ctx;
  for (uint32_t i = 0; i < m->notes[note].nvals; i++) *sum += vals[i];
}

static void on_expect(void *ctx, const rgi_module *m, uint32_t expect, rgi_value actual,
                      rgi_value expected, uint32_t pc) {
  rgi_value *sum = ctx;
  *sum += actual - expected + (rgi_value)m->expects[expect].text;
}

static void on_step(void *ctx, const rgi_module *m, uint32_t name, uint32_t pc) {
  rgi_value *sum = ctx;
  *sum += (rgi_value)strlen(rgi_module_str(m, name));
}

static void on_roll(void *ctx, const rgi_module *m, int32_t die, uint32_t sides,
                    const rgi_value *results, uint32_t n, uint32_t pc) {
  rgi_value *sum = ctx;
  for (uint32_t i = 0; i < n; i++) *sum += results[i];
}

static void on_draw(void *ctx, const rgi_module *m, uint32_t deck, rgi_value card, uint32_t pc) {
  rgi_value *sum = ctx;
  *sum += card + (rgi_value)strlen(rgi_module_str(m, m->decks[deck].name));
}

/* Picks the last option, after touching every one. */
static int64_t on_choose(void *ctx, const rgi_module *m, uint32_t choice, rgi_value chooser,
                         const rgi_value *options, uint32_t n, uint32_t pc) {
  rgi_value *sum = ctx;
  for (uint32_t i = 0; i < n; i++) *sum += options[i];
  return (int64_t)n - 1;
}

/* Gives the last outcome, or none now and then. */
static int64_t on_chance(void *ctx, const rgi_module *m, int what, uint32_t index, uint64_t n,
                         uint32_t pc) {
  rgi_value *sum = ctx;
  *sum += what;
  return (*sum & 15) == 0 ? -1 : (int64_t)n - 1;
}

/* Builds the representative module. */
static void build(mb *b) {
  mb_init(b);
  static const char *const codes[] = {"S", "C", "D"};
  uint32_t terrain = mb_enum(b, "terrain", 3, codes);
  static const char *const fn[] = {"a", "t"};
  rgi_type ft[] = {T_INT, {RG_K_ENUM, terrain}};
  uint32_t info = mb_record(b, "info", 2, fn, ft);
  rgi_dim wd[2] = {mb_dim_range(2, 5), mb_dim_enum(b, terrain)};
  rgi_value wc[15];
  for (int i = 0; i < 15; i++) wc[i] = 10 * i;
  uint32_t weather = mb_table(b, "weather", 2, wd, T_INT, wc);
  static const rgi_value hv[] = {1, 0, 2, 1, 3, 2};
  mb_heap(b, 6, hv);
  rgi_dim ed[1] = {mb_dim_enum(b, terrain)};
  uint32_t recs = mb_table(b, "recs", 1, ed, (rgi_type){RG_K_RECORD, info}, (rgi_value[]){0, 2, 4});
  uint32_t k = mb_const(b, 123456789);
  uint32_t note = mb_note(b, "sum is", 1, &T_INT);
  uint32_t note2 = mb_note(b, "pair", 2, (rgi_type[]){T_INT, {RG_K_ENUM, terrain}});
  uint32_t ex = mb_expect(b, "sum(4) == 10", T_INT);
  static const char *const pn[] = {"n", "t"};
  rgi_type pt[] = {T_INT, {RG_K_ENUM, terrain}};

  /* sum(n) -> int: s = 0; i = 1; while i <= n { s += i; i += 1 }; note; return s */
  uint32_t sum = mb_proc(b, "sum", T_INT, 1, pn, pt, 3);
  mb_emit(b, RG_OP_PUSHI, 1); mb_emit(b, RG_OP_STORE, 2);
  int32_t top = mb_here(b);
  mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_LE, 0);
  int32_t jf = mb_jump(b, RG_OP_JMPF, 0);
  mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_STORE, 1);
  mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_PUSHI, 1); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_STORE, 2);
  mb_jump(b, RG_OP_JMP, top);
  mb_patch(b, jf, mb_here(b));
  mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_NOTE, (int32_t)note);
  mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_RET, 0);

  /* look(n, t) -> int: weather[clamp(n, 2, 6), t] + recs[t].a + sum(n mod 5) */
  mb_proc(b, "look", T_INT, 2, pn, pt, 2);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 2); mb_emit(b, RG_OP_PUSHI, 6);
  mb_emit(b, RG_OP_CLAMP, 0); mb_emit(b, RG_OP_LOAD, 1);
  mb_emit(b, RG_OP_LOOKUP, (int32_t)weather);
  mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_LOOKUP, (int32_t)recs); mb_emit(b, RG_OP_FIELD, 0);
  mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 5); mb_emit(b, RG_OP_MOD, 0);
  mb_emit(b, RG_OP_CALL, (int32_t)sum); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_NOTE, (int32_t)note2);
  mb_emit(b, RG_OP_RET, 0);

  /* mk(n, t) -> info: {a: n * K, t: t}, then a set built from t */
  mb_proc(b, "mk", (rgi_type){RG_K_RECORD, info}, 2, pn, pt, 3);
  mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_SETADD, 0);
  mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_INSET, 0);   /* wrong operand order on purpose: still runs */
  mb_emit(b, RG_OP_COUNT, 0); mb_emit(b, RG_OP_STORE, 2);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_CONST, (int32_t)k); mb_emit(b, RG_OP_MUL, 0);
  mb_emit(b, RG_OP_LOAD, 1); mb_emit(b, RG_OP_MKREC, (int32_t)info);
  mb_emit(b, RG_OP_RET, 0);

  /* t1(): expect sum(4) == 10; loop of mk() calls; FAIL at the end when n > 3 */
  uint32_t t1 = mb_proc(b, "t1", T_VOID, 0, NULL, NULL, 1);
  mb_emit(b, RG_OP_PUSHI, 4); mb_emit(b, RG_OP_CALL, (int32_t)sum);
  mb_emit(b, RG_OP_PUSHI, 10); mb_emit(b, RG_OP_EXPECTEQ, (int32_t)ex);
  top = mb_here(b);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 1); mb_emit(b, RG_OP_CALL, 2);
  mb_emit(b, RG_OP_FIELD, 1); mb_emit(b, RG_OP_POP, 0);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 1); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_STORE, 0);
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_PUSHI, 3); mb_emit(b, RG_OP_GT, 0);
  mb_jump(b, RG_OP_JMPF, top);
  mb_emit(b, RG_OP_PUSHI, 1); mb_emit(b, RG_OP_PUSHI, 2); mb_emit(b, RG_OP_PUSHI, 3);
  mb_emit(b, RG_OP_MAX, 3); mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_MIN, 2);
  mb_emit(b, RG_OP_EXPECT, (int32_t)ex);
  mb_emit(b, RG_OP_FAIL, (int32_t)mb_str(b, "the end"));

  /* chance(n, t) -> int: every chance, choice, input, step and list opcode. */
  rgi_type tt = {RG_K_ENUM, terrain};
  uint32_t red = mb_dice(b, "red", tt, 3, (const rgi_value[]){0, 1, 1});
  uint32_t bag = mb_deck(b, "bag", T_INT, 4, (const rgi_value[]){1, 2, 3, 4});
  uint32_t cset = mb_choice(b, "where?", T_INT, tt, RG_OPT_SET);
  uint32_t clst = mb_choice(b, "which?", T_INT, T_INT, RG_OPT_LIST);
  uint32_t crng = mb_choice(b, "how many?", T_INT, T_INT, RG_OPT_RANGE);
  uint32_t rating = mb_input(b, "rating", T_INT, 3);
  uint32_t klist = mb_const(b, mb_heap(b, 3, (const rgi_value[]){2, 4, 5}));
  mb_proc(b, "chance", T_INT, 2, pn, pt, 4);
  mb_emit(b, RG_OP_STEP, (int32_t)mb_str(b, "go"));
  mb_emit(b, RG_OP_LOAD, 0); mb_emit(b, RG_OP_ROLLS, 6); mb_emit(b, RG_OP_SORT, 0);
  mb_emit(b, RG_OP_PUSHI, 2); mb_emit(b, RG_OP_BEST, 0); mb_emit(b, RG_OP_STORE, 2);
  mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_LEN, 0);
  mb_emit(b, RG_OP_PUSHI, 2); mb_emit(b, RG_OP_ROLL, 6); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_ROLLDIE, (int32_t)red); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_DRAW, (int32_t)bag); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_LEFT, (int32_t)bag); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_CONST, (int32_t)klist);
  mb_emit(b, RG_OP_CHOOSE, (int32_t)clst); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_PUSHI, 5);
  mb_emit(b, RG_OP_CHOOSE, (int32_t)cset); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_PUSHI, 1); mb_emit(b, RG_OP_PUSHI, 3);
  mb_emit(b, RG_OP_CHOOSE, (int32_t)crng); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_INPUT, (int32_t)rating); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_PUSHI, 1); mb_emit(b, RG_OP_NTH, (int32_t)terrain); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_CONST, (int32_t)klist); mb_emit(b, RG_OP_CONCAT, 0);
  mb_emit(b, RG_OP_PUSHI, 7); mb_emit(b, RG_OP_APPEND, 0); mb_emit(b, RG_OP_PUSHI, 0);
  mb_emit(b, RG_OP_REMOVE, 0); mb_emit(b, RG_OP_SUM, 0); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_PUSHI, 3); mb_emit(b, RG_OP_ATLEAST, 0);
  mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_PUSHI, 6); mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_LISTHAS, 0);
  mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_PUSHI, 5); mb_emit(b, RG_OP_SETLIST, 0); mb_emit(b, RG_OP_LEN, 0);
  mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_PUSHI, 1); mb_emit(b, RG_OP_PUSHI, 2); mb_emit(b, RG_OP_LIST, 2);
  mb_emit(b, RG_OP_PUSHI, 1); mb_emit(b, RG_OP_ITEM, 0); mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_LOAD, 2); mb_emit(b, RG_OP_PUSHI, 0); mb_emit(b, RG_OP_ITEM, 0);
  mb_emit(b, RG_OP_ADD, 0);
  mb_emit(b, RG_OP_RET, 0);

  /* the test's procedure, last as the compiler puts tests: it runs t1 */
  uint32_t st = mb_proc(b, "sums", T_VOID, 0, NULL, NULL, 0);
  mb_emit(b, RG_OP_CALL, (int32_t)t1);
  mb_emit(b, RG_OP_RETV, 0);
  mb_test(b, "sums", st);
}

static FILE *devnull;

/* Deserializes buf[0..len); when accepted, disassembles and runs it. */
static void try_load(const unsigned char *buf, size_t len) {
  rgi_module m;
  char err[256];
  if (rgi_module_deserialize(&m, buf, len, err, sizeof err) != 0) {
    rejected++;
    if (!err[0]) { failed++; printf("FAIL: rejected without a message\n"); }
    return;
  }
  accepted++;
  {
    rg_buf text;
    rg_buf_init(&text);
    rgi_module_dis(&m, &text.out);
    rg_buf_free(&text);
  }
  rgi_value sum = 0;
  rgi_sink sink = {.ctx = &sum, .note = on_note, .expect_fail = on_expect, .step = on_step,
                  .roll = on_roll, .draw = on_draw, .choose = (runs & 1) ? on_choose : NULL,
                  .chance = (runs & 2) ? on_chance : NULL};
  rgi_limits lim = {2000, 1 << 16, 0, NULL};
  rgi_vm *vm = rgi_vm_new(&m, &lim, &sink);
  if (vm) {
    for (uint32_t p = 0; p < m.nprocs; p++) {
      rgi_value *args = calloc((size_t)m.procs[p].nparams + 1, sizeof *args);
      rgi_value r = 0;
      rg_status st = rgi_vm_call(vm, p, args, &r);
      if (st != RG_RUN_OK && st != RG_RUN_ERROR && st != RG_RUN_LIMIT) {
        failed++; printf("FAIL: status %d\n", st);
      }
      uint32_t pc, nh;
      const char *msg = rgi_vm_error(vm, &pc);
      (void)msg;
      (void)rgi_vm_heap(vm, &nh);
      free(args);
      runs++;
    }
    rgi_vm_free(vm);
  }
  rgi_module_free(&m);
}

int main(void) {
  char err[256];
  mb b;
  build(&b);
  devnull = fopen("/dev/null", "w");
  if (rgi_module_verify(&b.m, err, sizeof err) != 0) {
    printf("test_rbcflip: module rejected: %s\n", err);
    return 1;
  }
  /* The module itself runs as intended. */
  {
    rgi_value sum = 0, r, args[2] = {9, 2};
    rgi_sink sink = {.ctx = &sum, .note = on_note, .expect_fail = on_expect};
    rgi_vm *vm = rgi_vm_new(&b.m, NULL, &sink);
    CHECK(rgi_vm_call(vm, 1, args, &r) == RG_RUN_OK && r == 10 * (4 * 3 + 2) + 3 + 10, "look: %lld %s", (long long)r, rgi_vm_error(vm, NULL));
    CHECK(rgi_vm_call(vm, 3, NULL, &r) == RG_RUN_ERROR && strcmp(rgi_vm_error(vm, NULL), "the end") == 0, "t1: %s", rgi_vm_error(vm, NULL));
    args[0] = 3;
    CHECK(rgi_vm_call(vm, 4, args, &r) == RG_RUN_OK && r > 0, "chance: %lld %s", (long long)r, rgi_vm_error(vm, NULL));
    args[0] = 0;
    CHECK(rgi_vm_call(vm, 4, args, &r) == RG_RUN_ERROR && strcmp(rgi_vm_error(vm, NULL), "index 0 outside the list of 0") == 0,
          "chance(0): %s", rgi_vm_error(vm, NULL));
    rgi_vm_free(vm);
  }
  unsigned char *good;
  size_t len;
  if (rgi_module_serialize(&b.m, &good, &len) != 0) return 1;
  unsigned char *buf = malloc(len);

  /* Every byte flipped, two ways. */
  for (size_t i = 0; i < len; i++) {
    memcpy(buf, good, len);
    buf[i] ^= 0xFF;
    try_load(buf, len);
    buf[i] = (unsigned char)(good[i] + 1);
    try_load(buf, len);
  }
  /* Every truncation: a copy of exactly that size, so ASan sees overreads. */
  for (size_t n = 0; n < len; n++) {
    unsigned char *t = malloc(n ? n : 1);
    memcpy(t, good, n);
    try_load(t, n);
    free(t);
  }
  /* Seeded random damage: 1..4 bytes set to random values. */
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (int it = 0; it < 30000; it++) {
    memcpy(buf, good, len);
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    int nb = 1 + (int)((seed >> 60) & 3);
    for (int j = 0; j < nb; j++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      size_t at = (size_t)((seed >> 33) % len);
      buf[at] = (unsigned char)(seed >> 20);
    }
    try_load(buf, len);
  }
  /* The undamaged file still loads. */
  try_load(good, len);
  CHECK(accepted > 0 && rejected > 0, "both outcomes seen");
  CHECK(runs > 0, "accepted modules ran");

  free(buf);
  rg_free(good);
  rgi_module_free(&b.m);
  fclose(devnull);
  printf("test_rbcflip: %lu variants accepted, %lu rejected, %lu runs\n", accepted, rejected, runs);
  return check_done("test_rbcflip");
}
