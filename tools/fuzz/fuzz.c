/*
** fuzz.c: the harnesses' shared helpers (see fuzz.h).
*/
#include "fuzz.h"

#include "module.h"
#include "regula_front.h"
#include "evlog.h"
#include "value.h"
#include "vm.h"

#include <stdlib.h>
#include <string.h>

FILE *fuzz_devnull(void) {
  static FILE *null;
  if (!null) null = fopen("/dev/null", "w");
  if (!null) abort();
  return null;
}

/* rg_out callback: drops the text; returns 0. */
static int null_write(void *ctx, const char *s, size_t n) {
  (void)ctx, (void)s, (void)n;
  return 0;
}

struct rg_out *fuzz_null_out(void) {
  static rg_out null = { null_write, NULL, 0 };
  return &null;
}

/* fuzz_loader's load: the input for any name (see fuzz.h). */
static rg_status load_input(void *ctx, const char *from, const char *name, rg_load_kind kind,
                            rg_source *src, char *err, size_t errlen) {
  const fuzz_input *in = ctx;
  (void)from;
  memset(src, 0, sizeof *src);
  if (in->tables_only && kind != RG_LOAD_TABLE) {
    snprintf(err, errlen, "cannot open %s: not in the harness", name);
    return RG_NOT_FOUND;
  }
  src->text = (const char *)in->data;
  src->len = in->size;
  return RG_OK;
}

rg_loader fuzz_loader(fuzz_input *in) {
  rg_loader ld = { load_input, NULL, in };
  return ld;
}

/* ---- running a module ------------------------------------------------------ */

/* The sink's state: a sum that every reported value goes into (so a bad
** pointer shows under ASan), and the input bytes that answer questions. */
typedef struct answers {
  const uint8_t *data;
  size_t size, next;
  uint64_t sum;             /* unsigned: it wraps */
  const rgi_vm *vm;
  rgi_log *log;              /* every event also goes through the event log, or NULL */
} answers;

/* The options of a module's runs, each from its own bits of a hash of the
** whole input (a module's first bytes are its fixed magic, so no single
** byte of it would vary): chance answered by the input or by the
** generator, the log as text or JSON, whether events are logged at all. */
enum { FUZZ_CHANCE = 1, FUZZ_JSON = 2, FUZZ_LOG = 4 };
static unsigned input_flags(const uint8_t *data, size_t size) {
  uint64_t h = 14695981039346656037ull;              /* FNV-1a 64 */
  for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 1099511628211ull;
  return (unsigned)(h >> 61);
}

/* The next byte of the input (cycling), or 0 for an empty input. */
static unsigned next_byte(answers *a) {
  if (!a->size) return 0;
  return a->data[a->next++ % a->size];
}

static void on_note(void *ctx, const rgi_module *m, uint32_t note, const rgi_value *vals, uint32_t pc) {
  answers *a = ctx;
  for (uint32_t i = 0; i < m->notes[note].nvals; i++) a->sum += (uint64_t)vals[i];
  a->sum += strlen(rgi_module_str(m, m->notes[note].text));
  if (a->log) rgi_log_note(a->log, note, vals, pc);
}

static void on_expect(void *ctx, const rgi_module *m, uint32_t expect, rgi_value actual,
                      rgi_value expected, uint32_t pc) {
  answers *a = ctx;
  a->sum += (uint64_t)actual - (uint64_t)expected + strlen(rgi_module_str(m, m->expects[expect].text));
  if (a->log) rgi_log_expect_fail(a->log, expect, actual, expected, pc, a->vm ? rgi_vm_frame(a->vm) : NULL);
}

static void on_step(void *ctx, const rgi_module *m, uint32_t name, uint32_t pc) {
  answers *a = ctx;
  a->sum += strlen(rgi_module_str(m, name));
  if (a->log) rgi_log_step(a->log, name, pc);
}

static void on_roll(void *ctx, const rgi_module *m, int32_t die, uint32_t sides,
                    const rgi_value *results, uint32_t n, uint32_t pc) {
  answers *a = ctx;
  for (uint32_t i = 0; i < n; i++) a->sum += (uint64_t)results[i];
  if (a->log) rgi_log_roll(a->log, die, sides, results, n, pc);
}

static void on_draw(void *ctx, const rgi_module *m, uint32_t deck, rgi_value card, uint32_t pc) {
  answers *a = ctx;
  a->sum += (uint64_t)card + strlen(rgi_module_str(m, m->decks[deck].name));
  if (a->log) rgi_log_draw(a->log, deck, card, pc);
}

/* Picks an option named by the next input byte; 255 refuses. */
static int64_t on_choose(void *ctx, const rgi_module *m, uint32_t choice, rgi_value chooser,
                         const rgi_value *options, uint32_t n, uint32_t pc) {
  answers *a = ctx;
  unsigned b = next_byte(a);
  for (uint32_t i = 0; i < n; i++) a->sum += (uint64_t)options[i];
  a->sum += strlen(rgi_module_str(m, m->choices[choice].prompt));
  if (b == 255) return -1;
  if (a->log) rgi_log_choice(a->log, choice, chooser, options, n, b % n, pc);
  return (int64_t)(b % n);
}

/* Gives an outcome named by the next input byte; 255 refuses. */
static int64_t on_chance(void *ctx, const rgi_module *m, int what, uint32_t index, uint64_t n,
                         uint32_t pc) {
  answers *a = ctx;
  unsigned b = next_byte(a);
  if (what == 'c') {
    uint32_t left;
    const rgi_value *cards = rgi_vm_deck_left(a->vm, index, &left);
    for (uint32_t i = 0; i < left; i++) a->sum += (uint64_t)cards[i];
  }
  return b == 255 ? -1 : (int64_t)(b % n);
}

void fuzz_run_module(const rgi_module *m, const uint8_t *data, size_t size) {
  unsigned flags = input_flags(data, size);
  rgi_log log;
  answers a = {data, size, 0, 0, NULL, NULL}, b = {data, size, 0, 0, NULL, NULL};
  rgi_sink sink = {.ctx = &a, .note = on_note, .expect_fail = on_expect, .step = on_step,
                  .roll = on_roll, .draw = on_draw, .choose = on_choose,
                  .chance = flags & FUZZ_CHANCE ? on_chance : NULL};
  rgi_limits lim = {2000, 1 << 16, 0, NULL};
  rgi_vm *vm, *plain;
  rgi_module_dis(m, fuzz_null_out());
  vm = rgi_vm_new(m, &lim, &sink);
  if (!vm) return;
  /* The same runs without fusion: the same outcome, or the VM is wrong. */
  sink.ctx = &b;
  plain = rgi_vm_new(m, &lim, &sink);
  if (!plain || rgi_vm_set_fusion(plain, 0) != 0) {
    rgi_vm_free(plain);
    rgi_vm_free(vm);
    return;
  }
  a.vm = vm;
  b.vm = plain;
  if (flags & FUZZ_LOG) {
    /* the fused VM's events go through the event log too: value printing,
    ** text or JSON, on whatever the module's runs build */
    rgi_log_init(&log, fuzz_null_out(), m, (flags & FUZZ_JSON) != 0);
    log.view = rgi_vm_view(vm);
    a.log = &log;
    rgi_log_run(&log, "fuzz", size, "input", flags & FUZZ_CHANCE ? "input" : "random");
  }
  rgi_vm_dis_fast(vm, fuzz_null_out());
  rgi_vm_seed(vm, size, 0);
  rgi_vm_seed(plain, size, 0);
  for (uint32_t p = 0; p < m->nprocs; p++) {
    rgi_value args[1], *argv = args, r = 0, rb = 0;
    uint32_t pc, pcb, nh;
    if (m->procs[p].nparams > 0) {
      argv = calloc(m->procs[p].nparams, sizeof *argv);
      if (!argv) abort();
    } else {
      args[0] = 0;
    }
    b.next = a.next;
    rg_status st = rgi_vm_call(vm, p, argv, &r);
    rg_status stb = rgi_vm_call(plain, p, argv, &rb);
    if (st != RG_RUN_OK && st != RG_RUN_ERROR && st != RG_RUN_LIMIT) abort();
    const char *ea = rgi_vm_error(vm, &pc), *eb = rgi_vm_error(plain, &pcb);
    rgi_kind k = m->procs[p].result.kind;
    if (st != stb || strcmp(ea, eb) != 0 || (st != RG_RUN_OK && pc != pcb) ||
        (st == RG_RUN_OK && (k == RG_K_INT || k == RG_K_BOOL || k == RG_K_ENUM) && r != rb)) {
      fprintf(stderr, "fuzz: procedure %u fused: %d %lld '%s' at %u; plain: %d %lld '%s' at %u\n",
              (unsigned)p, (int)st, (long long)r, ea, (unsigned)pc, (int)stb, (long long)rb, eb,
              (unsigned)pcb);
      abort();
    }
    if (st != RG_RUN_OK) a.sum += strlen(ea);
    (void)rgi_vm_heap(vm, &nh);
    if (st == RG_RUN_OK && a.log) rgi_log_summary(a.log, m->procs[p].result, r);
    if (argv != args) free(argv);
  }
  rgi_vm_free(plain);
  rgi_vm_free(vm);
}

void fuzz_roundtrip(const rgi_module *m) {
  unsigned char *b1 = NULL, *b2 = NULL;
  size_t n1, n2;
  rgi_module back;
  char err[256];
  if (rgi_module_serialize(m, &b1, &n1) != 0) abort();
  if (rgi_module_deserialize(&back, b1, n1, err, sizeof err) != 0) {
    fprintf(stderr, "fuzz: a module the compiler made is refused: %s\n", err);
    abort();
  }
  if (rgi_module_serialize(&back, &b2, &n2) != 0) abort();
  if (n1 != n2 || memcmp(b1, b2, n1) != 0) {
    fprintf(stderr, "fuzz: a module changes when saved and loaded again\n");
    abort();
  }
  rg_free(b1);
  rg_free(b2);
  rgi_module_free(&back);
}
