/*
** vmstate.c: the state of a paused VM, as exact odds needs it (see
** rgi_vm_state in vm.h).  It reads the VM's private parts (vm_int.h) but
** runs only when asked, from a chance callback: nothing here is on the
** VM's path when nobody asks.
*/
#include "vm_int.h"
#include "live.h"

/* Appends v to buf[0..cap) at *len (counting past cap, so the caller
** learns the size needed). */
static void put(rgi_value *buf, size_t cap, size_t *len, rgi_value v) {
  if (*len < cap) buf[*len] = v;
  (*len)++;
}

/* Appends frame f of procedure p paused before module instruction `at`
** (live locals by lv, then the stack entries below `height`): its
** procedure, `at`, and the values that matter, dead locals as 0. */
static void put_frame(const rgi_vm *vm, const rgi_live *lv, uint32_t p, uint32_t at,
                      const rgi_value *base, int32_t height, rgi_value *buf, size_t cap,
                      size_t *len) {
  const rgi_proc *pr = &vm->m->procs[p];
  uint64_t t0 = pr->nlocals + vm->fproc[p].ncon;
  put(buf, cap, len, p);
  put(buf, cap, len, at);
  for (uint32_t k = 0; k < pr->nlocals; k++)
    put(buf, cap, len, rgi_live_local(lv, p, at, k) ? base[k] : 0);
  for (int32_t e = 0; e < height; e++) put(buf, cap, len, base[t0 + (uint64_t)e]);
}

size_t rgi_vm_state(const rgi_vm *vm, const rgi_live *lv, uint32_t proc, uint32_t pc,
                   rgi_value *buf, size_t cap, size_t *heap_at) {
  const rgi_module *m = vm->m;
  size_t len = 0;
  uint32_t p = proc;
  const rgi_value *base = vm->stack;
  put(buf, cap, &len, vm->depth);
  /* The suspended callers, outermost first: each waits after its CALL. */
  for (int i = 0; i < vm->depth; i++) {
    const vm_ins *call = vm->frames[i].pc - 1;
    uint32_t at = vm->fmap[call - vm->fcode];
    uint32_t callee = (uint32_t)call->a;
    base = vm->frames[i].base;
    put_frame(vm, lv, p, at + 1, base, lv->height[at] - (int32_t)m->procs[callee].nparams, buf,
              cap, &len);
    base = base + call->d - m->procs[callee].nparams;
    p = callee;
  }
  put_frame(vm, lv, p, pc, base, lv->height[pc], buf, cap, &len);
  /* The run's heap (records and lists built so far) and every deck. */
  if (heap_at) *heap_at = len;
  put(buf, cap, &len, vm->heap_top);
  for (uint32_t k = m->nheap; k < vm->heap_top; k++) put(buf, cap, &len, vm->heap[k]);
  for (uint32_t d = 0; d < m->ndecks; d++) {
    const rgi_value *cards = vm->deck_cards + vm->deck_off[d];
    uint32_t left = vm->deck_left[d];
    size_t at = len;
    put(buf, cap, &len, left);
    for (uint32_t k = 0; k < left; k++) put(buf, cap, &len, cards[k]);
    /* Every card left is equally likely next, so only which cards are left
    ** matters, not their order: sorted (insertion sort; decks are small). */
    if (len <= cap)
      for (size_t i = at + 2; i < len; i++) {
        rgi_value v = buf[i];
        size_t j = i;
        for (; j > at + 1 && buf[j - 1] > v; j--) buf[j] = buf[j - 1];
        buf[j] = v;
      }
  }
  return len;
}

/* rgi_view's functions over a VM (ctx). */
static const rgi_value *view_heap(const void *ctx, uint32_t *n) {
  return rgi_vm_heap(ctx, n);
}

static const rgi_value *view_deck_left(const void *ctx, uint32_t deck, uint32_t *n) {
  return rgi_vm_deck_left(ctx, deck, n);
}

rgi_view rgi_vm_view(const rgi_vm *vm) {
  rgi_view v = { view_heap, view_deck_left, vm };
  return v;
}
