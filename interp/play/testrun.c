/*
** testrun.c: running the tests of a module (see testrun.h).
*/
#include "testrun.h"
#include "grow.h"

#include "evlog.h"
#include "regula_front.h"
#include "seed.h"

#include <string.h>

/* The failures of the test under way. */
typedef struct trun {
  rgi_vm *vm;
  rgi_test_failure *fails;
  uint32_t n, cap;
  int nomem;
} trun;

/* Adds a failure at pc whose message is the text of b (taken over). */
static void add_failure(trun *t, const rgi_module *m, uint32_t pc, rg_buf *b) {
  rgi_test_failure *f;
  uint32_t col;
  if (b->out.failed || !b->data) {
    rg_buf_free(b);
    t->nomem = 1;
    return;
  }
  if (t->n == t->cap) {
    rgi_test_failure *nf = rgi_grow(t->fails, &t->cap, 4, sizeof *nf);
    if (!nf) {
      rg_buf_free(b);
      t->nomem = 1;
      return;
    }
    t->fails = nf;
  }
  f = &t->fails[t->n++];
  f->path = "?";
  f->line = 0;
  rgi_log_locate(m, pc, &f->path, &f->line, &col);
  f->message = b->data;   /* owned until the test's results are handed on */
}

/* Sink: a failed expect becomes a failure of the test under way. */
static void on_expect_fail(void *ctx, const rgi_module *m, uint32_t expect, rgi_value actual,
                           rgi_value expected, uint32_t pc) {
  trun *t = ctx;
  uint32_t nheap = 0;
  const rgi_value *heap = rgi_vm_heap(t->vm, &nheap);
  rg_buf b;
  rg_buf_init(&b);
  rgi_log_expect_text(&b.out, m, heap, nheap, expect, actual, expected, pc, rgi_vm_frame(t->vm));
  if (!b.data) rg_putc(&b.out, '\0');   /* an empty message is still a failure */
  add_failure(t, m, pc, &b);
}

/* Frees the messages of t's failures and forgets them. */
static void clear(trun *t) {
  for (uint32_t i = 0; i < t->n; i++) rg_free((char *)t->fails[i].message);
  t->n = 0;
}

int rgi_test_run(const rgi_module *m, const rgi_limits *limits, rgi_test_fn fn, void *ctx,
                uint32_t *passed, uint32_t *failed) {
  trun t = { 0 };
  rgi_sink sink = { .ctx = &t, .expect_fail = on_expect_fail };   /* no notes */
  rgi_value none = 0, result = 0;
  if (m->ntests == 0) return 0;
  if (!(t.vm = rgi_vm_new(m, limits, &sink))) return -1;
  for (uint32_t i = 0; i < m->ntests && !t.nomem; i++) {
    const rgi_test *test = &m->tests[i];
    rgi_test_result r = { .index = i, .name = rgi_module_str(m, test->name) };
    rgi_seed_test(t.vm);
    if (rgi_vm_call(t.vm, test->proc, &none, &result) != RG_RUN_OK) {
      uint32_t pc = UINT32_MAX;
      const char *msg = rgi_vm_error(t.vm, &pc);
      rg_buf b;
      rg_buf_init(&b);
      rg_printf(&b.out, "error: %s", msg && *msg ? msg : "the run failed");
      add_failure(&t, m, pc, &b);
    }
    if (t.nomem) break;
    r.passed = t.n == 0;
    r.nfailures = t.n;
    r.failures = t.fails;
    if (r.passed) ++*passed;
    else ++*failed;
    if (fn) fn(ctx, &r);
    clear(&t);
  }
  clear(&t);
  rg_free(t.fails);
  rgi_vm_free(t.vm);
  return t.nomem ? -1 : 0;
}
