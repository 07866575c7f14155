/*
** test_vm.c: the VM on hand-built modules: arithmetic, jumps, loops, calls,
** lookups, records, sets, notes, expectations, every runtime error and limit.
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "modbuild.h"
#include "vm.h"
#include "check.h"

/* What the sink saw. */
typedef struct seen {
  int nnotes;
  uint32_t note;
  rgi_value vals[4];
  uint32_t note_pc;
  int nfails;
  uint32_t expect;
  rgi_value actual, expected;
} seen;

static void on_note(void *ctx, const rgi_module *m, uint32_t note, const rgi_value *vals, uint32_t pc) {
  seen *s = ctx;
  s->nnotes++;
  s->note = note;
  for (uint32_t i = 0; i < m->notes[note].nvals && i < 4; i++) s->vals[i] = vals[i];
  s->note_pc = pc;
}

static void on_expect(void *ctx, const rgi_module *m, uint32_t expect, rgi_value actual,
                      rgi_value expected, uint32_t pc) {
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
static rg_status run(const char *name, const rgi_value *args, rgi_value *res, const rgi_limits *lim) {
  int p = rgi_module_find_proc(&B.m, name);
  if (p < 0) { printf("no procedure %s\n", name); return (rg_status)99; }
  rgi_sink sink = {.ctx = &S, .note = on_note, .expect_fail = on_expect};
  rgi_vm *vm = rgi_vm_new(&B.m, lim, &sink);
  if (!vm) return (rg_status)98;
  *res = -12345;
  rg_status st = rgi_vm_call(vm, (uint32_t)p, args, res);
  snprintf(errbuf, sizeof errbuf, "%s", st == RG_RUN_OK ? "" : rgi_vm_error(vm, NULL));
  rgi_vm_free(vm);
  return st;
}

/* Runs a two-argument procedure and returns its result (checking OK). */
static rgi_value call2(const char *name, rgi_value a, rgi_value b) {
  rgi_value args[2] = {a, b}, r;
  rg_status st = run(name, args, &r, NULL);
  CHECK(st == RG_RUN_OK, "%s(%" PRId64 ", %" PRId64 "): status %d %s", name, a, b, st, errbuf);
  return r;
}

/* Expects name(a, b) to fail with status st and message msg. */
static void fails2(const char *name, rgi_value a, rgi_value b, rg_status st, const char *msg) {
  rgi_value args[2] = {a, b}, r;
  rg_status got = run(name, args, &r, NULL);
  CHECK(got == st && strcmp(errbuf, msg) == 0, "%s(%" PRId64 ", %" PRId64 "): got %d '%s', want %d '%s'",
        name, a, b, got, errbuf, st, msg);
}

static const char *const AB[] = {"a", "b", "c"};
static const rgi_type INT3[] = {{RG_K_INT, 0}, {RG_K_INT, 0}, {RG_K_INT, 0}};

/* Adds proc name(a, b) -> int { return a OP b } (or OP a for unary). */
static void binop(const char *name, unsigned op, int unary) {
  mb_proc(&B, name, T_INT, 2, AB, INT3, 2);
  mb_emit(&B, RG_OP_LOAD, 0);
  if (!unary) mb_emit(&B, RG_OP_LOAD, 1);
  mb_emit(&B, op, 0);
  mb_emit(&B, RG_OP_RET, 0);
}

/* ---- chance, choices, inputs, steps and lists ------------------------------ */

/* What the chance tests' sink saw, and how it answers. */
typedef struct csink {
  int nsteps;
  uint32_t step;
  int nrolls;
  int32_t die;
  uint32_t sides, nres;
  rgi_value rollsum;
  int ndraws;
  rgi_value lastcard;
  int nchoose;
  rgi_value chooser;
  uint32_t noptions;
  rgi_value options[8];
  int64_t answer;           /* what choose returns */
  int64_t chance;           /* what chance returns: -2 for sides - 1 (last) */
  int nchance;
  int what;
  uint64_t chance_n;
  uint32_t left_seen;       /* rgi_vm_deck_left's count during a 'c' */
} csink;

static csink CS;
static mb C;                /* the chance module */
static rgi_vm *V;            /* the VM of the chance tests */
static uint32_t c_colour, c_bag;
static uint32_t c_long;       /* a constant list of 40 ones */
static uint32_t c_big;        /* a constant list [INT64_MAX] */
static uint32_t c_long2;      /* another list of 40 ones, elsewhere */
static uint32_t c_node1, c_node2;   /* two records node { next: itself } */
static uint32_t c_self1, c_self2;   /* the lists [c_node1], [c_node2] */

static void on_step(void *ctx, const rgi_module *m, uint32_t name, uint32_t pc) {
  csink *s = ctx; s->nsteps++; s->step = name;
}

static void on_roll(void *ctx, const rgi_module *m, int32_t die, uint32_t sides,
                    const rgi_value *results, uint32_t n, uint32_t pc) {
  csink *s = ctx;
  s->nrolls++; s->die = die; s->sides = sides; s->nres = n; s->rollsum = 0;
  for (uint32_t k = 0; k < n; k++) s->rollsum += results[k];
}

static void on_draw(void *ctx, const rgi_module *m, uint32_t deck, rgi_value card, uint32_t pc) {
  csink *s = ctx; s->ndraws++; s->lastcard = card;
}

static int64_t on_choose(void *ctx, const rgi_module *m, uint32_t choice, rgi_value chooser,
                         const rgi_value *options, uint32_t n, uint32_t pc) {
  csink *s = ctx;
  s->nchoose++; s->chooser = chooser; s->noptions = n;
  for (uint32_t k = 0; k < n && k < 8; k++) s->options[k] = options[k];
  return s->answer;
}

static int64_t on_chance(void *ctx, const rgi_module *m, int what, uint32_t index, uint64_t n,
                         uint32_t pc) {
  csink *s = ctx;
  s->nchance++; s->what = what; s->chance_n = n;
  if (what == 'c') rgi_vm_deck_left(V, index, &s->left_seen);
  return s->chance == -2 ? (int64_t)n - 1 : s->chance;
}

/* Dice callback of the dice tests: per DICE_MODE, no result (-1), every
** die 0, every die sides + 1, or every die 3. */
static int dice_mode;
static int on_dice(void *ctx, const rgi_module *m, uint32_t sides, uint32_t n, rgi_value *out,
                   uint32_t pc) {
  (void)ctx, (void)m, (void)pc;
  if (dice_mode == 0) return -1;
  for (uint32_t k = 0; k < n; k++) out[k] = dice_mode == 1 ? 0 : dice_mode == 2 ? (rgi_value)sides + 1 : 3;
  return 0;
}

/* Makes V a new VM on C with the given sink callbacks (the tests switch
** choose and chance on and off). */
static void cvm(int with_choose, int with_chance, const rgi_limits *lim) {
  rgi_vm_free(V);
  rgi_sink sink = {.ctx = &CS, .step = on_step, .roll = on_roll, .draw = on_draw,
                  .choose = with_choose ? on_choose : NULL,
                  .chance = with_chance ? on_chance : NULL};
  V = rgi_vm_new(&C.m, lim, &sink);
  if (!V) { printf("rgi_vm_new failed\n"); exit(1); }
}

/* Runs procedure name of C on V with args; stores the result and the error. */
static rg_status crun(const char *name, const rgi_value *args, rgi_value *res) {
  int p = rgi_module_find_proc(&C.m, name);
  if (p < 0) { printf("no procedure %s\n", name); return (rg_status)99; }
  *res = -12345;
  rg_status st = rgi_vm_call(V, (uint32_t)p, args, res);
  snprintf(errbuf, sizeof errbuf, "%s", st == RG_RUN_OK ? "" : rgi_vm_error(V, NULL));
  return st;
}

/* Runs name(a, b) and returns the result, checking it ran. */
static rgi_value cval(const char *name, rgi_value a, rgi_value b) {
  rgi_value args[3] = {a, b, 0}, r;
  rg_status st = crun(name, args, &r);
  CHECK(st == RG_RUN_OK, "%s(%" PRId64 ", %" PRId64 "): %d %s", name, a, b, st, errbuf);
  return r;
}

/* Expects name(a, b) to fail with st and msg. */
static void cfails(const char *name, rgi_value a, rgi_value b, rg_status st, const char *msg) {
  rgi_value args[3] = {a, b, 0}, r;
  rg_status got = crun(name, args, &r);
  CHECK(got == st && strcmp(errbuf, msg) == 0, "%s(%" PRId64 ", %" PRId64 "): got %d '%s', want %d '%s'",
        name, a, b, got, errbuf, st, msg);
}

/* Copies list l of V's heap into out (at most max); returns its length, or
** -1 when it is not a list in the live heap. */
static int64_t clist(rgi_value l, rgi_value *out, uint32_t max) {
  uint32_t nh;
  const rgi_value *h = rgi_vm_heap(V, &nh);
  if (l < 0 || (uint64_t)l >= nh || h[l] < 0 || (uint64_t)h[l] > nh - (uint64_t)l - 1) return -1;
  for (rgi_value k = 0; k < h[l] && (uint64_t)k < max; k++) out[k] = h[l + 1 + k];
  return h[l];
}

/* Checks that name(a, b) returns the list want[0..n). */
static void clisteq(int line, const char *name, rgi_value a, rgi_value b, const rgi_value *want, uint32_t n) {
  rgi_value got[64];
  rgi_value l = cval(name, a, b);
  int64_t len = clist(l, got, 64);
  int ok = len == (int64_t)n;
  for (uint32_t k = 0; ok && k < n; k++) ok = got[k] == want[k];
  CHECK(ok, "line %d: %s(%" PRId64 ", %" PRId64 "): list of %lld differs", line, name, a, b, (long long)len);
}
#define CLISTEQ(name, a, b, ...) \
  clisteq(__LINE__, name, a, b, (const rgi_value[]){__VA_ARGS__}, \
          (uint32_t)(sizeof((const rgi_value[]){__VA_ARGS__}) / sizeof(rgi_value)))

/* Pushes the constant list vals[0..n) with LIST n. */
static void emit_list(mb *b, uint32_t n, const rgi_value *vals) {
  for (uint32_t k = 0; k < n; k++) mb_emit(b, RG_OP_PUSHI, (int32_t)vals[k]);
  mb_emit(b, RG_OP_LIST, (int32_t)n);
}
#define EMIT_LIST(...) \
  emit_list(&C, (uint32_t)(sizeof((const rgi_value[]){__VA_ARGS__}) / sizeof(rgi_value)), \
            (const rgi_value[]){__VA_ARGS__})

/* Starts procedure name(a, b) -> t of C with 3 locals. */
static void cproc(const char *name, rgi_type t) {
  mb_proc(&C, name, t, 2, AB, INT3, 3);
}

/* Builds C: an enum, a custom die, two decks, three choice sites, an input,
** and one small procedure per opcode (and per error). */
static uint32_t build_chance(void) {
  mb_init(&C);
  static const char *const cols[] = {"BLACK", "WHITE", "GREEN"};
  c_colour = mb_enum(&C, "colour", 3, cols);
  rgi_type col = {RG_K_ENUM, c_colour};
  rgi_type li = mb_list_of(&C, T_INT);
  mb_dice(&C, "red", col, 4, (const rgi_value[]){0, 0, 1, 2});
  c_bag = mb_deck(&C, "bag", col, 6, (const rgi_value[]){0, 0, 0, 1, 1, 2});
  mb_deck(&C, "tiny", T_INT, 1, (const rgi_value[]){7});
  uint32_t cset = mb_choice(&C, "which colour?", T_INT, col, RG_OPT_SET);
  uint32_t clst = mb_choice(&C, "which number?", T_INT, T_INT, RG_OPT_LIST);
  uint32_t crng = mb_choice(&C, "how many?", T_INT, T_INT, RG_OPT_RANGE);
  mb_input(&C, "rating", T_INT, 3);
  /* Constant lists: a good one and one whose length runs off the heap. */
  uint32_t good = mb_heap(&C, 4, (const rgi_value[]){3, 1, 2, 3});
  uint32_t bad = mb_heap(&C, 2, (const rgi_value[]){100, 1});
  uint32_t kmax = mb_const(&C, INT64_MAX);

  cproc("roll", T_INT); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_ROLL, 6); mb_emit(&C, RG_OP_RET, 0);
  cproc("rolls", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_ROLLS, 6); mb_emit(&C, RG_OP_RET, 0);
  cproc("rolldie", col); mb_emit(&C, RG_OP_ROLLDIE, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("draw", col); mb_emit(&C, RG_OP_DRAW, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("drawall", li);
  for (int k = 0; k < 6; k++) mb_emit(&C, RG_OP_DRAW, 0);
  mb_emit(&C, RG_OP_LIST, 6); mb_emit(&C, RG_OP_RET, 0);
  cproc("draw7", T_INT);
  for (int k = 0; k < 7; k++) { mb_emit(&C, RG_OP_DRAW, 0); mb_emit(&C, RG_OP_POP, 0); }
  mb_emit(&C, RG_OP_PUSHI, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("left", T_INT);
  mb_emit(&C, RG_OP_DRAW, 0); mb_emit(&C, RG_OP_POP, 0); mb_emit(&C, RG_OP_DRAW, 0);
  mb_emit(&C, RG_OP_POP, 0); mb_emit(&C, RG_OP_LEFT, 0); mb_emit(&C, RG_OP_LEFT, 1);
  mb_emit(&C, RG_OP_PUSHI, 10); mb_emit(&C, RG_OP_MUL, 0); mb_emit(&C, RG_OP_ADD, 0);
  mb_emit(&C, RG_OP_RET, 0);
  cproc("cset", col); mb_emit(&C, RG_OP_PUSHI, 9); mb_emit(&C, RG_OP_LOAD, 0);
  mb_emit(&C, RG_OP_CHOOSE, (int32_t)cset); mb_emit(&C, RG_OP_RET, 0);
  cproc("clist", T_INT); mb_emit(&C, RG_OP_PUSHI, 9); EMIT_LIST(5, 6, 7);
  mb_emit(&C, RG_OP_CHOOSE, (int32_t)clst); mb_emit(&C, RG_OP_RET, 0);
  cproc("clist0", T_INT); mb_emit(&C, RG_OP_PUSHI, 9); mb_emit(&C, RG_OP_LIST, 0);
  mb_emit(&C, RG_OP_CHOOSE, (int32_t)clst); mb_emit(&C, RG_OP_RET, 0);
  cproc("crange", T_INT); mb_emit(&C, RG_OP_PUSHI, 9); mb_emit(&C, RG_OP_LOAD, 0);
  mb_emit(&C, RG_OP_LOAD, 1); mb_emit(&C, RG_OP_CHOOSE, (int32_t)crng); mb_emit(&C, RG_OP_RET, 0);
  cproc("step", T_VOID); mb_emit(&C, RG_OP_STEP, (int32_t)mb_str(&C, "Build up"));
  mb_emit(&C, RG_OP_RETV, 0);
  cproc("input", T_INT); mb_emit(&C, RG_OP_INPUT, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("nth", col); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_NTH, (int32_t)c_colour);
  mb_emit(&C, RG_OP_RET, 0);
  cproc("setlist", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_SETLIST, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("mk", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1); mb_emit(&C, RG_OP_LIST, 2);
  mb_emit(&C, RG_OP_RET, 0);
  cproc("empty", li); mb_emit(&C, RG_OP_LIST, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("len", T_INT); EMIT_LIST(4, 5, 6); mb_emit(&C, RG_OP_LEN, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("item", T_INT); EMIT_LIST(10, 20, 30); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_ITEM, 0);
  mb_emit(&C, RG_OP_RET, 0);
  cproc("append", li); EMIT_LIST(1, 2); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_APPEND, 0);
  mb_emit(&C, RG_OP_RET, 0);
  cproc("remove", li); EMIT_LIST(10, 20, 30); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_REMOVE, 0);
  mb_emit(&C, RG_OP_RET, 0);
  cproc("concat", li); EMIT_LIST(1, 2); EMIT_LIST(3); mb_emit(&C, RG_OP_CONCAT, 0);
  mb_emit(&C, RG_OP_RET, 0);
  cproc("atleast", T_INT); EMIT_LIST(1, 4, 5, 6, 2); mb_emit(&C, RG_OP_LOAD, 0);
  mb_emit(&C, RG_OP_ATLEAST, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("sum", T_INT); EMIT_LIST(1, -4, 50); mb_emit(&C, RG_OP_SUM, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("sumovf", T_INT); mb_emit(&C, RG_OP_CONST, (int32_t)kmax); mb_emit(&C, RG_OP_PUSHI, 1);
  mb_emit(&C, RG_OP_LIST, 2); mb_emit(&C, RG_OP_SUM, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("best", li); EMIT_LIST(3, 6, 1, 6, 5); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_BEST, 0);
  mb_emit(&C, RG_OP_RET, 0);
  cproc("sort", li); EMIT_LIST(3, 6, 1, 6, -5); mb_emit(&C, RG_OP_SORT, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("sortrolls", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_ROLLS, 6);
  mb_emit(&C, RG_OP_SORT, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("bestrolls", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_ROLLS, 6);
  mb_emit(&C, RG_OP_LOAD, 1); mb_emit(&C, RG_OP_BEST, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("has", T_BOOL); mb_emit(&C, RG_OP_LOAD, 0); EMIT_LIST(10, 20, 30);
  mb_emit(&C, RG_OP_LISTHAS, 0); mb_emit(&C, RG_OP_RET, 0);
  /* Crafted offsets: lists passed in as plain ints. */
  cproc("lenof", T_INT); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LEN, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("itemof", T_INT); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1); mb_emit(&C, RG_OP_ITEM, 0);
  mb_emit(&C, RG_OP_RET, 0);
  cproc("setof", T_INT); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_PUSHI, 0);
  mb_emit(&C, RG_OP_PUSHI, 9); mb_emit(&C, RG_OP_SETITEM, 0); mb_emit(&C, RG_OP_PUSHI, 0);
  mb_emit(&C, RG_OP_RET, 0);
  cproc("catof", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1); mb_emit(&C, RG_OP_CONCAT, 0);
  mb_emit(&C, RG_OP_RET, 0);
  cproc("sortof", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_SORT, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("hasof", T_BOOL); mb_emit(&C, RG_OP_PUSHI, 1); mb_emit(&C, RG_OP_LOAD, 0);
  mb_emit(&C, RG_OP_LISTHAS, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("chooseof", T_INT); mb_emit(&C, RG_OP_PUSHI, 9); mb_emit(&C, RG_OP_LOAD, 0);
  mb_emit(&C, RG_OP_CHOOSE, (int32_t)clst); mb_emit(&C, RG_OP_RET, 0);
  /* grow(): l = []; loop { l = append(l, 1) } until the heap is full. */
  cproc("grow", li); mb_emit(&C, RG_OP_LIST, 0); mb_emit(&C, RG_OP_STORE, 2);
  int32_t top = mb_here(&C);
  mb_emit(&C, RG_OP_LOAD, 2); mb_emit(&C, RG_OP_PUSHI, 1); mb_emit(&C, RG_OP_APPEND, 0);
  mb_emit(&C, RG_OP_STORE, 2); mb_jump(&C, RG_OP_JMP, top);
  /* The list opcodes on a list passed in (a crafted offset, or a long
  ** constant list). */
  {
    rgi_value ones[41];
    ones[0] = 40;
    for (int k = 1; k <= 40; k++) ones[k] = 1;
    c_long = mb_heap(&C, 41, ones);
  }
  cproc("removeof", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1);
  mb_emit(&C, RG_OP_REMOVE, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("atleastof", T_INT); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1);
  mb_emit(&C, RG_OP_ATLEAST, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("sumof", T_INT); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_SUM, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("bestof", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1);
  mb_emit(&C, RG_OP_BEST, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("hasin", T_BOOL); mb_emit(&C, RG_OP_LOAD, 1); mb_emit(&C, RG_OP_LOAD, 0);
  mb_emit(&C, RG_OP_LISTHAS, 0); mb_emit(&C, RG_OP_RET, 0);
  cproc("draws", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_DRAWS, (int32_t)c_bag);
  mb_emit(&C, RG_OP_RET, 0);
  /* Values compared as values (EQV, LISTHASV, LISTSUB) of lists of int,
  ** of a record, and of a record type that holds itself. */
  {
    rgi_value ones[41];
    ones[0] = 40;
    for (int k = 1; k <= 40; k++) ones[k] = 1;
    c_long2 = mb_heap(&C, 41, ones);
  }
  uint32_t tli = mb_type(&C, li), tint = li.ref;
  /* node { next: node }: a record that may hold itself */
  uint32_t node = mb_record(&C, "node", 1, (const char *const[]){"next"}, (const rgi_type[]){T_INT});
  C.m.fields[C.m.records[node].first].type = (rgi_type){RG_K_RECORD, node};
  uint32_t ts = mb_type(&C, (rgi_type){RG_K_RECORD, node});
  uint32_t n1 = C.m.nheap;
  mb_heap(&C, 1, (const rgi_value[]){n1});
  uint32_t n2 = C.m.nheap;
  mb_heap(&C, 1, (const rgi_value[]){n2});
  c_self1 = mb_heap(&C, 2, (const rgi_value[]){1, n1});
  c_self2 = mb_heap(&C, 2, (const rgi_value[]){1, n2});
  c_node1 = n1;
  c_node2 = n2;
  uint32_t pt = mb_record(&C, "pt", 1, (const char *const[]){"x"}, (const rgi_type[]){T_INT});
  uint32_t tpt = mb_type(&C, (rgi_type){RG_K_RECORD, pt});
  cproc("eqv", T_BOOL); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1);
  mb_emit(&C, RG_OP_EQV, (int32_t)tli); mb_emit(&C, RG_OP_RET, 0);
  cproc("eqself", T_BOOL); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1);
  mb_emit(&C, RG_OP_EQV, (int32_t)ts); mb_emit(&C, RG_OP_RET, 0);
  cproc("eqpt", T_BOOL); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1);
  mb_emit(&C, RG_OP_EQV, (int32_t)tpt); mb_emit(&C, RG_OP_RET, 0);
  cproc("hasv", T_BOOL); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1);
  mb_emit(&C, RG_OP_LISTHASV, (int32_t)tint); mb_emit(&C, RG_OP_RET, 0);
  cproc("hasself", T_BOOL); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1);
  mb_emit(&C, RG_OP_LISTHASV, (int32_t)ts); mb_emit(&C, RG_OP_RET, 0);
  cproc("subv", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1);
  mb_emit(&C, RG_OP_LISTSUB, (int32_t)tint); mb_emit(&C, RG_OP_RET, 0);
  cproc("subself", li); mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1);
  mb_emit(&C, RG_OP_LISTSUB, (int32_t)ts); mb_emit(&C, RG_OP_RET, 0);
  /* l[k] = l[k] + 1, which the fast code runs as one instruction (LISTADD) */
  c_big = mb_heap(&C, 2, (const rgi_value[]){1, INT64_MAX});
  cproc("bump", T_INT);
  mb_emit(&C, RG_OP_LOAD, 0); mb_emit(&C, RG_OP_LOAD, 1); mb_emit(&C, RG_OP_LOAD, 0);
  mb_emit(&C, RG_OP_LOAD, 1); mb_emit(&C, RG_OP_ITEM, 0); mb_emit(&C, RG_OP_PUSHI, 1);
  mb_emit(&C, RG_OP_ADD, 0); mb_emit(&C, RG_OP_SETITEM, 0); mb_emit(&C, RG_OP_PUSHI, 0);
  mb_emit(&C, RG_OP_RET, 0);
  (void)good; (void)bad;
  return good | (bad << 16);
}

/* Checks every chance, choice, input, step and list opcode on module C. */
static void chance_tests(void) {
  char err[256];
  uint32_t offs = build_chance();
  rgi_value good = offs & 0xFFFF, bad = offs >> 16;
  if (rgi_module_verify(&C.m, err, sizeof err) != 0) {
    printf("FAIL chance module rejected: %s\n", err);
    failed++;
    return;
  }
  /* It survives a trip through the file format. */
  {
    unsigned char *buf; size_t len;
    rgi_module m2;
    CHECK(rgi_module_serialize(&C.m, &buf, &len) == 0 &&
          rgi_module_deserialize(&m2, buf, len, err, sizeof err) == 0, "chance round trip: %s", err);
    CHECK(m2.ndice == 1 && m2.ndecks == 2 && m2.nchoices == 3 && m2.ninputs == 1 &&
          m2.ncards == 7 && m2.nfaces == 4 && m2.inputs[0].value == 3 &&
          m2.choices[2].kind == RG_OPT_RANGE, "chance sections");
    rgi_module_free(&m2);
    rg_free(buf);
  }
  memset(&CS, 0, sizeof CS);
  cvm(0, 0, NULL);

  /* Plain dice: range, sum, report. */
  for (int k = 0; k < 200; k++) {
    rgi_value r = cval("roll", 2, 0);
    CHECK(r >= 2 && r <= 12, "2d6 = %lld", (long long)r);
    CHECK(CS.die == -1 && CS.sides == 6 && CS.nres == 2 && CS.rollsum == r, "roll report");
  }
  CHECK(cval("roll", 0, 0) == 0 && CS.nres == 0, "0d6");
  cfails("roll", -1, 0, RG_RUN_ERROR, "cannot roll -1 dice");
  cfails("roll", 1001, 0, RG_RUN_ERROR, "cannot roll 1001 dice");
  cfails("rolls", 1001, 0, RG_RUN_ERROR, "cannot roll 1001 dice");
  {
    rgi_value l = cval("roll", 1000, 0);
    CHECK(l >= 1000 && l <= 6000 && CS.nres == 1000, "1000d6");
  }
  /* Custom die: its faces, reported with the die's index. */
  {
    int seen3[3] = {0, 0, 0};
    for (int k = 0; k < 400; k++) {
      rgi_value f = cval("rolldie", 0, 0);
      CHECK(f >= 0 && f <= 2, "face %lld", (long long)f);
      if (f >= 0 && f <= 2) seen3[f]++;
      CHECK(CS.die == 0 && CS.sides == 4 && CS.nres == 1 && CS.rollsum == f, "rolldie report");
    }
    CHECK(seen3[0] > seen3[1] && seen3[1] > 0 && seen3[2] > 0, "faces %d %d %d", seen3[0], seen3[1], seen3[2]);
  }

  /* Seeded determinism: the same seed and stream, the same rolls. */
  {
    rgi_value a[30], b2[30], c2[30];
    rgi_vm_seed(V, 42, 0);
    CHECK(clist(cval("rolls", 30, 0), a, 30) == 30, "rolls 30");
    rgi_vm_seed(V, 42, 0);
    CHECK(clist(cval("rolls", 30, 0), b2, 30) == 30, "rolls 30 again");
    rgi_vm_seed(V, 42, 1);
    CHECK(clist(cval("rolls", 30, 0), c2, 30) == 30, "rolls 30 stream 1");
    CHECK(memcmp(a, b2, sizeof a) == 0, "same seed, same rolls");
    CHECK(memcmp(a, c2, sizeof a) != 0, "other stream, other rolls");
    int ok = 1;
    for (int k = 0; k < 30; k++) ok &= a[k] >= 1 && a[k] <= 6;
    CHECK(ok, "rolls in 1..6");
    /* Two new VMs start alike (seed 0, stream 0). */
    rgi_vm *save = V;
    V = NULL;
    cvm(0, 0, NULL);
    rgi_value r1 = cval("roll", 50, 0);
    cvm(0, 0, NULL);
    rgi_value r2 = cval("roll", 50, 0);
    rgi_vm_free(V);
    V = save;
    CHECK(r1 == r2, "fresh VMs agree");
  }

  /* Decks: without replacement, exactly the composition; full every call. */
  for (uint64_t seed = 0; seed < 20; seed++) {
    rgi_value got[6];
    int cnt[3] = {0, 0, 0};
    rgi_vm_seed(V, seed, 7);
    CS.ndraws = 0;
    CHECK(clist(cval("drawall", 0, 0), got, 6) == 6 && CS.ndraws == 6, "drawall");
    for (int k = 0; k < 6; k++) if (got[k] >= 0 && got[k] <= 2) cnt[got[k]]++;
    CHECK(cnt[0] == 3 && cnt[1] == 2 && cnt[2] == 1, "composition %d %d %d", cnt[0], cnt[1], cnt[2]);
    uint32_t n;
    rgi_vm_deck_left(V, c_bag, &n);
    CHECK(n == 0, "bag empty after drawall (%u)", n);
  }
  cfails("draw7", 0, 0, RG_RUN_ERROR, "deck bag is empty");
  CHECK(cval("left", 0, 0) == 4 + 10, "left");
  {
    uint32_t n;
    CHECK(rgi_vm_deck_left(V, 9, &n) == NULL && n == 0, "deck_left out of range");
  }

  /* Choices without a choose callback: the first option. */
  CHECK(cval("cset", 6, 0) == 1, "cset first");
  CHECK(cval("clist", 0, 0) == 5, "clist first");
  CHECK(cval("crange", 3, 5) == 3, "crange first");
  cfails("cset", 0, 0, RG_RUN_ERROR, "nothing to choose from");
  cfails("clist0", 0, 0, RG_RUN_ERROR, "nothing to choose from");
  cfails("crange", 5, 4, RG_RUN_ERROR, "nothing to choose from");
  cfails("crange", 0, 5000, RG_RUN_ERROR, "range 0..5000 has more than 1000 options");
  cfails("crange", INT64_MIN, INT64_MAX, RG_RUN_ERROR,
         "range -9223372036854775808..9223372036854775807 has more than 1000 options");
  CHECK(cval("crange", 0, 999) == 0, "range of 1000");

  /* Steps and inputs. */
  CS.nsteps = 0;
  cval("step", 0, 0);
  CHECK(CS.nsteps == 1 && strcmp(rgi_module_str(&C.m, CS.step), "Build up") == 0, "step");
  CHECK(cval("input", 0, 0) == 3, "input default");
  rgi_vm_set_input(V, 0, 7);
  rgi_vm_set_input(V, 5, 9);
  CHECK(cval("input", 0, 0) == 7 && cval("input", 0, 0) == 7, "input set, kept across calls");

  /* NTH. */
  CHECK(cval("nth", 2, 0) == 2, "nth");
  cfails("nth", 3, 0, RG_RUN_ERROR, "member 3 outside 0..2 of enum 'colour'");
  cfails("nth", -1, 0, RG_RUN_ERROR, "member -1 outside 0..2 of enum 'colour'");

  /* Lists. */
  CLISTEQ("setlist", 5, 0, 0, 2);
  CLISTEQ("setlist", INT64_MIN, 0, 63);
  CHECK(clist(cval("setlist", 0, 0), NULL, 0) == 0, "setlist empty");
  CLISTEQ("mk", 8, -9, 8, -9);
  CHECK(clist(cval("empty", 0, 0), NULL, 0) == 0, "empty list");
  CHECK(cval("len", 0, 0) == 3, "len");
  CHECK(cval("item", 0, 0) == 10 && cval("item", 2, 0) == 30, "item");
  cfails("item", 3, 0, RG_RUN_ERROR, "index 3 outside the list of 3");
  cfails("item", -1, 0, RG_RUN_ERROR, "index -1 outside the list of 3");
  CLISTEQ("append", 3, 0, 1, 2, 3);
  CLISTEQ("remove", 0, 0, 20, 30);
  CLISTEQ("remove", 1, 0, 10, 30);
  CLISTEQ("remove", 2, 0, 10, 20);
  cfails("remove", 5, 0, RG_RUN_ERROR, "index 5 outside the list of 3");
  CLISTEQ("concat", 0, 0, 1, 2, 3);
  CHECK(cval("atleast", 5, 0) == 2 && cval("atleast", 0, 0) == 5 && cval("atleast", 7, 0) == 0, "atleast");
  CHECK(cval("sum", 0, 0) == 47, "sum");
  cfails("sumovf", 0, 0, RG_RUN_ERROR, "integer overflow");
  CLISTEQ("best", 2, 0, 6, 6);
  CLISTEQ("best", 10, 0, 6, 6, 5, 3, 1);
  CLISTEQ("best", 3, 0, 6, 6, 5);
  CHECK(clist(cval("best", 0, 0), NULL, 0) == 0, "best 0");
  cfails("best", -1, 0, RG_RUN_ERROR, "cannot take the best -1 of a list");
  CLISTEQ("sort", 0, 0, -5, 1, 3, 6, 6);
  CHECK(cval("has", 20, 0) == 1 && cval("has", 21, 0) == 0, "listhas");
  {
    rgi_value s[1000];
    int64_t n = clist(cval("sortrolls", 1000, 0), s, 1000);
    int ok = n == 1000;
    for (int k = 1; ok && k < 1000; k++) ok = s[k - 1] <= s[k];
    CHECK(ok, "sorted 1000 rolls");
    n = clist(cval("bestrolls", 500, 3), s, 1000);
    CHECK(n == 3 && s[0] >= s[1] && s[1] >= s[2], "best 3 of 500");
  }

  /* Crafted list offsets never read outside the heap. */
  uint32_t nh;
  rgi_vm_heap(V, &nh);
  {
    char want[128];
    CHECK(cval("lenof", good, 0) == 3 && cval("itemof", good, 2) == 3, "constant list");
    snprintf(want, sizeof want, "list %lld outside the heap (size %u)", (long long)bad, (unsigned)C.m.nheap);
    cfails("lenof", bad, 0, RG_RUN_ERROR, want);
    cfails("itemof", bad, 0, RG_RUN_ERROR, want);
    cfails("setof", good, 0, RG_RUN_ERROR, "a constant list cannot be changed");
    cfails("catof", good, bad, RG_RUN_ERROR, want);
    cfails("sortof", bad, 0, RG_RUN_ERROR, want);
    cfails("hasof", bad, 0, RG_RUN_ERROR, want);
    cfails("chooseof", bad, 0, RG_RUN_ERROR, want);
    snprintf(want, sizeof want, "list -1 outside the heap (size %u)", (unsigned)C.m.nheap);
    cfails("lenof", -1, 0, RG_RUN_ERROR, want);
    snprintf(want, sizeof want, "list %lld outside the heap (size %u)", (long long)C.m.nheap, (unsigned)C.m.nheap);
    cfails("lenof", C.m.nheap, 0, RG_RUN_ERROR, want);
    snprintf(want, sizeof want, "list 9223372036854775807 outside the heap (size %u)", (unsigned)C.m.nheap);
    cfails("itemof", INT64_MAX, 0, RG_RUN_ERROR, want);
    CLISTEQ("catof", good, good, 1, 2, 3, 1, 2, 3);
    /* Offset 1 of the constant heap is the list [1]: a length word of 1. */
    CHECK(cval("lenof", 1, 0) == 1, "list inside a list");
  }
  (void)nh;

  /* Heap exhaustion is the memory limit. */
  {
    rgi_limits lim = {0, 1 << 16, 0, NULL};
    cvm(0, 0, &lim);
    cfails("grow", 0, 0, RG_RUN_LIMIT, "memory limit");
    cfails("rolls", 1000, 0, RG_RUN_OK, "");
    cvm(0, 0, NULL);
  }

  /* A choose callback picks, sees the chooser and the options. */
  cvm(1, 0, NULL);
  CS.answer = 1;
  CHECK(cval("clist", 0, 0) == 6 && CS.chooser == 9 && CS.noptions == 3 && CS.options[2] == 7, "choose list");
  CHECK(cval("cset", 7, 0) == 1 && CS.noptions == 3 && CS.options[0] == 0 && CS.options[2] == 2, "choose set");
  CHECK(cval("crange", -2, 2) == -1 && CS.noptions == 5 && CS.options[4] == 2, "choose range");
  CS.answer = -1;
  cfails("clist", 0, 0, RG_RUN_ERROR, "no answer for the choice");
  CS.answer = 3;
  cfails("clist", 0, 0, RG_RUN_ERROR, "no answer for the choice");

  /* The chance override decides every roll and draw. */
  cvm(0, 1, NULL);
  CS.chance = -2;
  CHECK(cval("roll", 3, 0) == 18 && CS.what == 'd' && CS.chance_n == 6, "chance dice");
  CHECK(cval("rolldie", 0, 0) == 2 && CS.what == 'f' && CS.chance_n == 4, "chance die");
  CS.chance = 0;
  CHECK(cval("draw", 0, 0) == 0 && CS.what == 'c' && CS.chance_n == 6 && CS.left_seen == 6, "chance draw");
  {
    /* Always the first card left: swap-removal gives 0, 2, 1, 1, 0, 0. */
    rgi_value got[6];
    CHECK(clist(cval("drawall", 0, 0), got, 6) == 6, "chance drawall");
    CHECK(got[0] == 0 && got[1] == 2 && got[2] == 1 && got[3] == 1 && got[4] == 0 && got[5] == 0,
          "chance draw order %lld %lld %lld %lld %lld %lld", (long long)got[0], (long long)got[1],
          (long long)got[2], (long long)got[3], (long long)got[4], (long long)got[5]);
  }
  CS.chance = -1;
  cfails("roll", 1, 0, RG_RUN_ERROR, "no result given for the roll");
  cfails("rolls", 1, 0, RG_RUN_ERROR, "no result given for the roll");
  cfails("rolldie", 0, 0, RG_RUN_ERROR, "no result given for the roll");
  cfails("draw", 0, 0, RG_RUN_ERROR, "no result given for the draw");
  CS.chance = 6;
  cfails("roll", 1, 0, RG_RUN_ERROR, "no result given for the roll");
  cfails("draw", 0, 0, RG_RUN_ERROR, "no result given for the draw");

  /* The list opcodes check the list they are given: a crafted offset is
  ** "outside the heap"; an index below 0 is outside the list. */
  {
    char want[128];
    snprintf(want, sizeof want, "list %lld outside the heap (size %u)", (long long)bad, (unsigned)C.m.nheap);
    cvm(0, 0, NULL);
    cfails("removeof", bad, 0, RG_RUN_ERROR, want);
    cfails("atleastof", bad, 1, RG_RUN_ERROR, want);
    cfails("sumof", bad, 0, RG_RUN_ERROR, want);
    cfails("bestof", bad, 1, RG_RUN_ERROR, want);
    cfails("remove", -1, 0, RG_RUN_ERROR, "index -1 outside the list of 3");
    cfails("draws", 1001, 0, RG_RUN_ERROR, "cannot draw 1001 cards");
    CHECK(cval("atleastof", c_long, 1) == 40 && cval("sumof", c_long, 0) == 40 &&
          cval("hasin", c_long, 1) == 1, "40 ones: 40 at least 1, sum 40, 1 is in it");
  }
  /* l[k] += 1 on a constant list: its errors in the order of the plain
  ** code, fused or not: the index, then the sum, then the change. */
  for (int fuse = 1; fuse >= 0; fuse--) {
    CHECK(rgi_vm_set_fusion(V, fuse) == 0, "fusion %d", fuse);
    cfails("bump", c_big, 1, RG_RUN_ERROR, "index 1 outside the list of 1");
    cfails("bump", c_big, 0, RG_RUN_ERROR, "integer overflow");
    cfails("bump", c_long, 0, RG_RUN_ERROR, "a constant list cannot be changed");
  }
  /* Comparing values: equal, not equal, and each way it stops: a list or
  ** record outside the heap, values nesting deeper than 64, the step
  ** limit (a step per element compared), the memory limit. */
  {
    const char *out = "a record or list outside the heap", *deep = "values nest deeper than 64";
    cvm(0, 0, NULL);
    CHECK(cval("eqv", c_long, c_long2) == 1 && cval("eqv", good, c_long) == 0 &&
          cval("hasv", 1, c_long) == 1 && cval("hasv", 2, good) == 1, "equal as values");
    CHECK(clist(cval("subv", good, c_long), NULL, 0) == 2, "[1, 2, 3] less the 1s: 2 left");
    cfails("eqv", bad, good, RG_RUN_ERROR, out);
    cfails("eqpt", -1, good, RG_RUN_ERROR, out);
    cfails("hasv", 1, bad, RG_RUN_ERROR, out);
    cfails("subv", bad, good, RG_RUN_ERROR, out);
    cfails("eqself", c_node1, c_node2, RG_RUN_LIMIT, deep);
    cfails("hasself", c_node1, c_self2, RG_RUN_LIMIT, deep);
    cfails("subself", c_self1, c_self2, RG_RUN_LIMIT, deep);
    rgi_limits few = {10, 0, 0, NULL};
    cvm(0, 0, &few);
    cfails("eqv", c_long, c_long2, RG_RUN_LIMIT, "step limit of 10 reached");
    cfails("hasv", 2, c_long, RG_RUN_LIMIT, "step limit of 10 reached");
    cfails("subv", c_long, c_long2, RG_RUN_LIMIT, "step limit of 10 reached");
    rgi_limits tight = {0, 512, 0, NULL};
    cvm(0, 0, &tight);
    cfails("subv", c_long, good, RG_RUN_LIMIT, "memory limit");
    cvm(0, 0, NULL);
  }
  /* Several dice read at once (sink.dice, beside chance): no result, or a
  ** die outside 1..6, is "no result given for the roll"; 3s are 3s. */
  {
    rgi_sink sink = {.ctx = &CS, .chance = on_chance, .dice = on_dice};
    rgi_vm *vm = rgi_vm_new(&C.m, NULL, &sink);
    int rolls = rgi_module_find_proc(&C.m, "rolls");
    rgi_value two[3] = {2, 0, 0}, l = -1;
    CHECK(vm && rolls >= 0, "a VM with a dice callback");
    for (dice_mode = 0; vm && rolls >= 0 && dice_mode < 3; dice_mode++) {
      rg_status st = rgi_vm_call(vm, (uint32_t)rolls, two, &l);
      CHECK(st == RG_RUN_ERROR && strcmp(rgi_vm_error(vm, NULL), "no result given for the roll") == 0,
            "dice mode %d: %d %s", dice_mode, st, rgi_vm_error(vm, NULL));
    }
    if (vm && rolls >= 0) {
      uint32_t nh;
      const rgi_value *h = rgi_vm_heap(vm, &nh);
      CHECK(rgi_vm_call(vm, (uint32_t)rolls, two, &l) == RG_RUN_OK && l >= 0 && h[l] == 2 &&
            h[l + 1] == 3 && h[l + 2] == 3, "two dice read as 3 and 3");
    }
    rgi_vm_free(vm);
  }
  /* Scanning a list costs a step per element: 40 elements under a limit
  ** of 10 steps stop at the limit (the call itself fits in it). */
  {
    rgi_limits lim = {10, 0, 0, NULL};
    cvm(0, 0, &lim);
    cfails("atleastof", c_long, 1, RG_RUN_LIMIT, "step limit of 10 reached");
    cfails("sumof", c_long, 0, RG_RUN_LIMIT, "step limit of 10 reached");
    cfails("hasin", c_long, 2, RG_RUN_LIMIT, "step limit of 10 reached");
  }
  /* A heap with no room past the constants (512 bytes: 64 values, half of
  ** them the stack, and the constant heap alone is larger): every opcode
  ** that makes a list stops at the memory limit. */
  {
    rgi_limits lim = {0, 512, 0, NULL};
    cvm(0, 0, &lim);
    cfails("setlist", 5, 0, RG_RUN_LIMIT, "memory limit");
    cfails("rolls", 3, 0, RG_RUN_LIMIT, "memory limit");
    cfails("draws", 2, 0, RG_RUN_LIMIT, "memory limit");
    cfails("removeof", c_long, 0, RG_RUN_LIMIT, "memory limit");
    cfails("bestof", c_long, 2, RG_RUN_LIMIT, "memory limit");
  }
  /* No arguments: the parameters are 0; no result pointer: the result is
  ** dropped; a VM with no roll callback still rolls; the deck and heap
  ** queries take a NULL count. */
  {
    rgi_value r = -1, l[2] = {-1, -1};
    uint32_t n = 99;
    rgi_vm *vm = rgi_vm_new(&C.m, NULL, NULL);
    int mk = rgi_module_find_proc(&C.m, "mk"), roll = rgi_module_find_proc(&C.m, "roll");
    int rolls = rgi_module_find_proc(&C.m, "rolls");
    rgi_value two[3] = {2, 0, 0};
    CHECK(vm && mk >= 0 && roll >= 0 && rolls >= 0, "a VM with no sink");
    if (vm && mk >= 0 && roll >= 0 && rolls >= 0) {
      CHECK(rgi_vm_call(vm, (uint32_t)mk, NULL, &r) == RG_RUN_OK, "mk with no arguments");
      const rgi_value *h = rgi_vm_heap(vm, NULL);
      CHECK(r >= 0 && h[r] == 2 && h[r + 1] == 0 && h[r + 2] == 0, "mk() is [0, 0]");
      CHECK(rgi_vm_call(vm, (uint32_t)roll, two, NULL) == RG_RUN_OK, "no result pointer");
      CHECK(rgi_vm_call(vm, (uint32_t)roll, two, &r) == RG_RUN_OK && r >= 2 && r <= 12,
            "2d6 with no roll callback: %lld", (long long)r);
      CHECK(rgi_vm_call(vm, (uint32_t)rolls, two, &r) == RG_RUN_OK, "rolls with no roll callback");
      h = rgi_vm_heap(vm, NULL);
      l[0] = h[r + 1];
      l[1] = h[r + 2];
      CHECK(h[r] == 2 && l[0] >= 1 && l[0] <= 6 && l[1] >= 1 && l[1] <= 6, "2 rolls of a d6");
      CHECK(rgi_vm_deck_left(vm, c_bag, NULL) != NULL, "deck left, no count");
      CHECK(rgi_vm_deck_left(vm, 99, NULL) == NULL && rgi_vm_deck_left(vm, 99, &n) == NULL && n == 0,
            "no deck 99");
    }
    rgi_vm_free(vm);
    cvm(0, 0, NULL);
  }

  /* Out of memory while creating the VM fails cleanly. */
  for (unsigned long k = 1; k <= 7; k++) {
    rg_alloc_fail_at(k);
    rgi_vm *vm = rgi_vm_new(&C.m, NULL, NULL);
    rg_alloc_fail_at(0);
    CHECK(vm == NULL, "chance alloc failure %lu", k);
    rgi_vm_free(vm);
  }

  /* The disassembler names what operands refer to. */
  {
    rg_buf buf;
    rg_buf_init(&buf);
    rgi_module_dis(&C.m, &buf.out);
    const char *text = buf.data ? buf.data : "";
    CHECK(strstr(text, "ROLLDIE  0 ; red") && strstr(text, "DRAW     0 ; bag") &&
          strstr(text, "LEFT     1 ; tiny") && strstr(text, "INPUT    0 ; rating") &&
          strstr(text, "NTH      0 ; colour") && strstr(text, "ROLL     6 ; d6") &&
          strstr(text, "; \"which colour?\" from set -> colour") &&
          strstr(text, "; \"Build up\"") && strstr(text, "-> list int"), "dis:\n%s", text);
    rg_buf_free(&buf);
  }

  rgi_vm_free(V);
  V = NULL;
  rgi_module_free(&C.m);
}

int main(void) {
  char err[256];
  mb_init(&B);
  static const char *const terr[] = {"S", "C", "D"};
  uint32_t ground = mb_enum(&B, "ground", 3, terr);

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
  static const rgi_type two[] = {{RG_K_INT, 0}, {RG_K_INT, 0}};
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

  /* weather(score: 2..12, t: ground) -> int = 100 * score + ord(t) */
  rgi_dim wd[2] = {mb_dim_range(2, 11), mb_dim_enum(&B, ground)};
  rgi_value wc[33];
  for (int s = 0; s < 11; s++) for (int t = 0; t < 3; t++) wc[s * 3 + t] = 100 * (s + 2) + t;
  uint32_t weather = mb_table(&B, "weather", 2, wd, T_INT, wc);
  mb_proc(&B, "look", T_INT, 2, AB, INT3, 2);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOAD, 1);
  mb_emit(&B, RG_OP_LOOKUP, (int32_t)weather); mb_emit(&B, RG_OP_RET, 0);

  /* Negative range: mods(-3..3) -> int = key * 10 */
  rgi_dim md[1] = {mb_dim_range(-3, 7)};
  rgi_value mc[7];
  for (int k = 0; k < 7; k++) mc[k] = (k - 3) * 10;
  uint32_t mods = mb_table(&B, "mods", 1, md, T_INT, mc);
  mb_proc(&B, "mods", T_INT, 1, AB, INT3, 1);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOOKUP, (int32_t)mods); mb_emit(&B, RG_OP_RET, 0);

  /* Records: info { a: int, b: int }; recs(ground) -> info */
  static const char *const fnames[] = {"a", "b"};
  uint32_t info = mb_record(&B, "info", 2, fnames, two);
  static const rgi_value hv[] = {1, 2, 3, 4, 5, 6};
  mb_heap(&B, 6, hv);
  rgi_dim rd[1] = {mb_dim_enum(&B, ground)};
  static const rgi_value rc[] = {4, 2, 0};
  uint32_t recs = mb_table(&B, "recs", 1, rd, (rgi_type){RG_K_RECORD, info}, rc);
  mb_proc(&B, "getb", T_INT, 1, AB, INT3, 1);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOOKUP, (int32_t)recs);
  mb_emit(&B, RG_OP_FIELD, 1); mb_emit(&B, RG_OP_RET, 0);
  /* mk(a, b) -> int: return {a: a, b: b}.b + ... (checks field order) */
  mb_proc(&B, "mk", T_INT, 2, AB, INT3, 2);
  mb_emit(&B, RG_OP_LOAD, 0); mb_emit(&B, RG_OP_LOAD, 1);
  mb_emit(&B, RG_OP_MKREC, (int32_t)info);
  mb_emit(&B, RG_OP_FIELD, 0); mb_emit(&B, RG_OP_RET, 0);
  mb_proc(&B, "mkrec", (rgi_type){RG_K_RECORD, info}, 2, AB, INT3, 2);
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

  if (rgi_module_verify(&B.m, err, sizeof err) != 0) {
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
    rgi_value a[3] = {5, -2, 9}, r;
    CHECK(run("min3", a, &r, NULL) == RG_RUN_OK && r == -2, "min3");
    CHECK(run("max3", a, &r, NULL) == RG_RUN_OK && r == 9, "max3");
    rgi_value c1[3] = {20, 0, 14}, c2[3] = {-3, 0, 14}, c3[3] = {7, 0, 14};
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
    rgi_value a[1] = {100}, r;
    rgi_limits lim = {10, 0, 0, NULL};
    rg_status st = run("sum", a, &r, &lim);
    CHECK(st == RG_RUN_LIMIT && strcmp(errbuf, "step limit of 10 reached") == 0, "step limit: %d %s", st, errbuf);
    /* the 100 backward jumps, each weighing the 13 instructions of the
    ** loop (pc 2, its test, to pc 14, the JMP): 1300 steps exactly */
    lim.max_steps = 1300;
    CHECK(run("sum", a, &r, &lim) == RG_RUN_OK && r == 5050, "step limit not reached: %s", errbuf);
    lim.max_steps = 1299;
    st = run("sum", a, &r, &lim);
    CHECK(st == RG_RUN_LIMIT && strcmp(errbuf, "step limit of 1299 reached") == 0,
          "one step short: %d %s", st, errbuf);
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
    rgi_value a[1] = {150}, r;
    rgi_limits lim = {0, 1024, 0, NULL};
    rg_status st = run("fact", a, &r, &lim);
    CHECK(st == RG_RUN_LIMIT && strcmp(errbuf, "memory limit") == 0, "stack memory limit: %d %s", st, errbuf);
    lim.max_steps = 50;
    st = run("forever", NULL, &r, &lim);
    CHECK(st == RG_RUN_LIMIT, "forever with steps");
  }
  {
    rgi_value a[1] = {200}, r;   /* 200 frames deep: just within the limit */
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
    rgi_value r;
    memset(&S, 0, sizeof S);
    CHECK(run("caller", NULL, &r, NULL) == RG_RUN_OK && r == 5, "caller");
    CHECK(S.nnotes == 1 && S.note == npair && S.vals[0] == 3 && S.vals[1] == 4, "note values");
    CHECK(B.m.lines[S.note_pc].line == 42, "note pc points at its line");
  }

  /* Expectations go on after a failure. */
  {
    rgi_value a[2] = {0, 7}, r;
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
    rgi_vm *vm = rgi_vm_new(&B.m, NULL, NULL);
    a[0] = 0;
    CHECK(vm && rgi_vm_call(vm, (uint32_t)rgi_module_find_proc(&B.m, "exp"), a, NULL) == RG_RUN_OK, "no sink");
    CHECK(vm && rgi_vm_call(vm, (uint32_t)rgi_module_find_proc(&B.m, "caller"), NULL, &r) == RG_RUN_OK && r == 5, "no sink note");
    rgi_vm_free(vm);
  }

  /* FAIL. */
  {
    rgi_value r;
    int p = rgi_module_find_proc(&B.m, "boom");
    rgi_vm *vm = rgi_vm_new(&B.m, NULL, NULL);
    uint32_t pc = 0;
    CHECK(rgi_vm_call(vm, (uint32_t)p, NULL, &r) == RG_RUN_ERROR, "fail status");
    const char *msg = rgi_vm_error(vm, &pc);
    CHECK(strcmp(msg, "no rule for this case") == 0 && pc == B.m.procs[p].code + 1, "fail message '%s' pc %u", msg, pc);
    CHECK(rgi_vm_call(vm, 9999, NULL, &r) == RG_RUN_ERROR, "bad proc index");
    rgi_vm_free(vm);
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
    rgi_value a[2] = {8, 9}, r;
    rgi_vm *vm = rgi_vm_new(&B.m, NULL, NULL);
    uint32_t p = (uint32_t)rgi_module_find_proc(&B.m, "mkrec"), n;
    CHECK(rgi_vm_call(vm, p, a, &r) == RG_RUN_OK && r == 6, "mkrec offset %" PRId64, r);
    const rgi_value *h = rgi_vm_heap(vm, &n);
    CHECK(n == 8 && h[6] == 8 && h[7] == 9 && h[0] == 1, "heap after mkrec");
    CHECK(rgi_vm_call(vm, p, a, &r) == RG_RUN_OK && r == 6, "heap reset between calls");
    rgi_vm_free(vm);
  }
  CHECK(call2("field", 4, 0) == 6, "field in range");
  fails2("field", 5, 0, RG_RUN_ERROR, "record field 5+1 outside the heap (size 6)");
  fails2("field", -1, 0, RG_RUN_ERROR, "record field -1+1 outside the heap (size 6)");
  fails2("field", INT64_MAX, 0, RG_RUN_ERROR, "record field 9223372036854775807+1 outside the heap (size 6)");
  {
    rgi_value r;
    rgi_limits lim = {0, 4096, 0, NULL};
    rg_status st = run("hog", NULL, &r, &lim);
    CHECK(st == RG_RUN_LIMIT && strcmp(errbuf, "memory limit") == 0, "heap memory limit: %d %s", st, errbuf);
    rgi_limits lim2 = {500, 1 << 20, 0, NULL};
    st = run("hog", NULL, &r, &lim2);
    CHECK(st == RG_RUN_LIMIT && strcmp(errbuf, "step limit of 500 reached") == 0, "hog steps: %s", errbuf);
  }

  /* The same VM runs many calls without growing. */
  {
    rgi_vm *vm = rgi_vm_new(&B.m, NULL, NULL);
    uint32_t p = (uint32_t)rgi_module_find_proc(&B.m, "fact");
    rgi_value a[1] = {10}, r = 0, total = 0;
    for (int k = 0; k < 1000; k++) { rgi_vm_call(vm, p, a, &r); total += r; }
    CHECK(total == INT64_C(3628800) * 1000, "repeated calls");
    rgi_vm_free(vm);
  }

  /* Out of memory while creating a VM fails cleanly. */
  for (unsigned long k = 1; k <= 3; k++) {
    rg_alloc_fail_at(k);
    rgi_vm *vm = rgi_vm_new(&B.m, NULL, NULL);
    rg_alloc_fail_at(0);
    CHECK(vm == NULL, "alloc failure %lu", k);
    rgi_vm_free(vm);
  }

  rgi_module_free(&B.m);
  chance_tests();
  return check_done("test_vm");
}
