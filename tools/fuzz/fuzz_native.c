/*
** fuzz_native.c: the native tier against the VM, its oracle, on arbitrary
** rule files.
**
** The input is compiled as fuzz_compile.c does.  A module that compiles is
** translated and compiled with /usr/bin/cc (the cache: a private folder
** made once per process under /tmp), and every procedure is run with zero
** arguments in the VM and in the native tier, on the same seed, under
** small limits, with sinks that hash every event (its kind, place and
** values) and answer choices (and, by the input's first byte, chances) from
** the input's bytes; the first byte also says whether rolls and draws are
** watched (the native code makes them itself only when not).  Status,
** message, place, result, the heap the run left and the events' hash must
** be equal, else the harness aborts.  Without a C compiler it only
** compiles.
*/
#include "fuzz.h"

#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "module.h"
#include "native.h"
#include "vm.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What one tier's sink sees: the input's bytes (answers), the events' hash. */
typedef struct side {
  const uint8_t *data;
  size_t size, next;
  uint64_t hash;
} side;

/* Mixes v into the side's hash. */
static void mix(side *s, uint64_t v) {
  s->hash = (s->hash ^ v) * 0x100000001B3ull;
}

/* The next byte of the input (cycling), or 0 when there is none. */
static unsigned next_byte(side *s) {
  if (s->size == 0) return 0;
  return s->data[s->next++ % s->size];
}

static void on_note(void *ctx, const rgi_module *m, uint32_t note, const rgi_value *v, uint32_t pc) {
  side *s = ctx;
  mix(s, 1);
  mix(s, note);
  mix(s, pc);
  for (uint32_t k = 0; k < m->notes[note].nvals; k++) mix(s, (uint64_t)v[k]);
}

static void on_expect(void *ctx, const rgi_module *m, uint32_t e, rgi_value a, rgi_value b,
                      uint32_t pc) {
  side *s = ctx;
  (void)m;
  mix(s, 2);
  mix(s, e);
  mix(s, (uint64_t)a);
  mix(s, (uint64_t)b);
  mix(s, pc);
}

static void on_shape(void *ctx, const rgi_module *m, uint32_t shape, const rgi_value *v, uint32_t pc) {
  side *s = ctx;
  mix(s, 3);
  on_note(ctx, m, shape, v, pc);
}

static void on_step(void *ctx, const rgi_module *m, uint32_t name, uint32_t pc) {
  side *s = ctx;
  (void)m;
  mix(s, 4);
  mix(s, name);
  mix(s, pc);
}

static void on_roll(void *ctx, const rgi_module *m, int32_t die, uint32_t sides,
                    const rgi_value *results, uint32_t n, uint32_t pc) {
  side *s = ctx;
  (void)m;
  mix(s, 5);
  mix(s, (uint64_t)(int64_t)die);
  mix(s, sides);
  mix(s, pc);
  for (uint32_t k = 0; k < n; k++) mix(s, (uint64_t)results[k]);
}

static void on_draw(void *ctx, const rgi_module *m, uint32_t deck, rgi_value card, uint32_t pc) {
  side *s = ctx;
  (void)m;
  mix(s, 6);
  mix(s, deck);
  mix(s, (uint64_t)card);
  mix(s, pc);
}

/* Picks the option the next byte names; 255 refuses. */
static int64_t on_choose(void *ctx, const rgi_module *m, uint32_t choice, rgi_value chooser,
                         const rgi_value *options, uint32_t n, uint32_t pc) {
  side *s = ctx;
  unsigned b = next_byte(s);
  (void)m;
  mix(s, 7);
  mix(s, choice);
  mix(s, (uint64_t)chooser);
  mix(s, pc);
  for (uint32_t k = 0; k < n; k++) mix(s, (uint64_t)options[k]);
  return b == 255 ? -1 : (int64_t)(b % n);
}

/* Gives the outcome the next byte names; 255 refuses. */
static int64_t on_chance(void *ctx, const rgi_module *m, int what, uint32_t index, uint64_t n,
                         uint32_t pc) {
  side *s = ctx;
  unsigned b = next_byte(s);
  (void)m;
  mix(s, 8);
  mix(s, (uint64_t)what);
  mix(s, index);
  mix(s, n);
  mix(s, pc);
  return b == 255 ? -1 : (int64_t)(b % n);
}

/* The cache folder of this process, made once and removed at exit. */
static char cache[64];

/* Removes the cache folder and its entries (atexit). */
static void remove_cache(void) {
  DIR *d = opendir(cache);
  struct dirent *e;
  char path[512];
  while (d && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", cache, e->d_name);
    unlink(path);
  }
  if (d) closedir(d);
  rmdir(cache);
}

/* The cache folder (made on the first call), or NULL. */
static const char *cache_dir(void) {
  static int made;
  if (!made) {
    made = 1;
    strcpy(cache, "/tmp/regula-fuzz-native.XXXXXX");
    if (mkdtemp(cache)) atexit(remove_cache);
    else cache[0] = '\0';
  }
  return cache[0] ? cache : NULL;
}

/* Runs every procedure of m in both tiers (native code n) and compares. */
static void compare(const rgi_module *m, const rgi_native *n, const uint8_t *data, size_t size) {
  unsigned flags = size ? data[0] : 0;
  side a = { data, size, 1, 0xCBF29CE484222325ull }, b = a;
  rgi_sink sink = { .note = on_note, .expect_fail = on_expect, .shape = flags & 4 ? on_shape : NULL,
                   .step = on_step, .roll = flags & 1 ? on_roll : NULL,
                   .draw = flags & 1 ? on_draw : NULL, .choose = on_choose,
                   .chance = flags & 2 ? on_chance : NULL };
  rgi_limits lim = { 20000, 1 << 16, 0, NULL };
  sink.ctx = &a;
  rgi_vm *vm = rgi_vm_new(m, &lim, &sink);
  lim.native = n;
  sink.ctx = &b;
  rgi_vm *nv = rgi_vm_new(m, &lim, &sink);
  if (!vm || !nv) abort();
  rgi_vm_seed(vm, size, 1);
  rgi_vm_seed(nv, size, 1);
  for (uint32_t p = 0; p < m->nprocs; p++) {
    rgi_value *args = calloc(m->procs[p].nparams + 1, sizeof *args), ra = 0, rb = 0;
    uint32_t pa = 0, pb = 0, ha, hb;
    if (!args) abort();
    b.next = a.next;
    rg_status sa = rgi_vm_call(vm, p, args, &ra), sb = rgi_vm_call(nv, p, args, &rb);
    const char *ea = rgi_vm_error(vm, &pa), *eb = rgi_vm_error(nv, &pb);
    const rgi_value *va = rgi_vm_heap(vm, &ha), *vb = rgi_vm_heap(nv, &hb);
    if (sa != sb || strcmp(ea, eb) != 0 || pa != pb || ra != rb || a.hash != b.hash ||
        ha != hb || memcmp(va, vb, (size_t)ha * sizeof *va) != 0 || a.next != b.next) {
      fprintf(stderr, "fuzz_native: procedure %u: VM %d %lld '%s' at %u (heap %u, events %llx); "
              "native %d %lld '%s' at %u (heap %u, events %llx)\n", (unsigned)p, (int)sa,
              (long long)ra, ea, (unsigned)pa, (unsigned)ha, (unsigned long long)a.hash, (int)sb,
              (long long)rb, eb, (unsigned)pb, (unsigned)hb, (unsigned long long)b.hash);
      abort();
    }
    free(args);
  }
  rgi_vm_free(nv);
  rgi_vm_free(vm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rgi_arena arena;
  rgi_diag d;
  rgi_module m;
  rgi_assumption *assumed = NULL;
  fuzz_input in = { data, size, 0 };
  rg_loader loader = fuzz_loader(&in);
  rgi_arena_init(&arena, 0);
  rgi_diag_init(&d, &arena, rg_diagnostic_print, fuzz_null_out());
  if (rgi_compile_source(&d, "fuzz.rules", (const char *)data, size, &loader, &m, &assumed) == 0) {
    const char *dir = cache_dir();
    rgi_native *n = NULL;
    char note[512];
    if (dir && access("/usr/bin/cc", X_OK) == 0 &&
        rgi_native_build(&m, "/usr/bin/cc", dir, &n, note, sizeof note) != RG_OK)
      abort();
    if (n) compare(&m, n, data, size);
    rgi_native_free(n);
    rgi_module_free(&m);
  }
  rgi_arena_free(&arena);
  return 0;
}
