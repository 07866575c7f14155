/*
** vm.h: the virtual machine that runs a verified module.
**
** A VM belongs to one module and one thread.  It allocates its stack and
** heap once, when created, up to the memory limit, and never during a run:
** running a procedure a million times allocates nothing.  Records built at
** run time go on the heap after the module's constant records; rgi_vm_call
** resets the heap to the constants before each top-level call.
**
** Everything the rules say happens (notes now; rolls, draws, choices and
** steps later) is reported through the sink, tied to the instruction that
** produced it (the module's line table turns it into file:line:col).
*/
#ifndef RG_VM_H
#define RG_VM_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "module.h"
#include "regula_front.h"

typedef struct rgi_vm rgi_vm;

/* Safety limits of a run. */
typedef struct rgi_limits {
  uint64_t max_steps;       /* instructions, counted by loop and procedure (a
                            ** backward jump costs the instructions of its loop,
                            ** a call its callee's length: see vm_int.h); apart,
                            ** against the same number, dice rolled and list
                            ** elements scanned; 0: the default */
  size_t max_memory;        /* bytes for the stack and heap; 0: the default */
  int no_fusion;            /* not a limit: 1 makes new VMs start with fusion
                            ** off (rgi_vm_set_fusion; the CLI sets it from
                            ** REGULA_NO_FUSION=1) */
  const struct rgi_native *native;   /* not a limit: the module's native code
                            ** (native.h), run instead of the fast code while
                            ** fusion is on and it fits the module; NULL: none */
} rgi_limits;

/* RG_DEFAULT_MAX_STEPS and RG_DEFAULT_MAX_MEMORY: regula.h. */
#define RG_MAX_CALL_DEPTH     200

/* Receives what a run produces.  Every callback may be NULL. */
typedef struct rgi_sink {
  void *ctx;
  /* Note `note` of the module with its values (m->notes[note].nvals). */
  void (*note)(void *ctx, const rgi_module *m, uint32_t note,
               const rgi_value *vals, uint32_t pc);
  /* A failed expectation; for EXPECT, actual is 0 and expected is 1. */
  void (*expect_fail)(void *ctx, const rgi_module *m, uint32_t expect,
                      rgi_value actual, rgi_value expected, uint32_t pc);
  /* A shape of a picture: note entry `shape` names the kind (its text:
  ** canvas, rect, line, circle, polygon, label) and the types of vals. */
  void (*shape)(void *ctx, const rgi_module *m, uint32_t shape, const rgi_value *vals,
                uint32_t pc);
  /* A named step of the rules begins (name: a string of the module). */
  void (*step)(void *ctx, const rgi_module *m, uint32_t name, uint32_t pc);
  /* Dice were rolled: plain dice (die == -1, sides) or custom die `die`
  ** (sides is its face count); results holds the n values rolled (faces
  ** for a custom die). */
  void (*roll)(void *ctx, const rgi_module *m, int32_t die, uint32_t sides,
               const rgi_value *results, uint32_t n, uint32_t pc);
  /* A card was drawn from deck `deck`. */
  void (*draw)(void *ctx, const rgi_module *m, uint32_t deck, rgi_value card, uint32_t pc);
  /* Choice site `choice` asks `chooser` to pick one of options[0..n) (n >=
  ** 1).  Returns the index picked, or -1 to stop the run (the VM then fails
  ** with RG_RUN_ERROR "no answer for the choice").  NULL: the first option. */
  int64_t (*choose)(void *ctx, const rgi_module *m, uint32_t choice, rgi_value chooser,
                    const rgi_value *options, uint32_t n, uint32_t pc);
  /* Chance override (a person reading real dice and cards): for a draw of
  ** `n` equally likely outcomes returns one in 0..n-1, or -1 to stop the
  ** run.  what: 'd' a plain die (index = sides), 'f' a custom die (index =
  ** die), 'c' a card of deck `index` (outcome = position among the cards
  ** left, which rgi_vm_deck_left lists).  NULL: the VM's own generator. */
  int64_t (*chance)(void *ctx, const rgi_module *m, int what, uint32_t index, uint64_t n,
                    uint32_t pc);
  /* Optional, with chance: n > 1 plain dice of `sides` sides rolled at once
  ** (2d6, rolls(2, d6)) read together: stores each in out[0..n) (1..sides)
  ** and returns 0, or returns -1 to stop the run.  NULL: chance is asked
  ** once a die. */
  int (*dice)(void *ctx, const rgi_module *m, uint32_t sides, uint32_t n, rgi_value *out,
              uint32_t pc);
} rgi_sink;

/* Results of rgi_vm_call: RG_RUN_OK (RG_OK), RG_RUN_ERROR (a runtime error:
** rgi_vm_error says what and where) or RG_RUN_LIMIT (a step, memory or depth
** limit was reached), from rg_status (regula.h). */
#define RG_RUN_OK RG_OK

/* Creates a VM for the verified module m (which must outlive it), with the
** given limits (NULL for defaults) and sink (NULL for none).  Returns NULL
** when out of memory. */
rgi_vm *rgi_vm_new(const rgi_module *m, const rgi_limits *limits, const rgi_sink *sink);

/* Replaces vm's sink (copied) for the calls that follow; not during a
** call.  A roll or draw without a callback takes the VM's fast path. */
void rgi_vm_set_sink(rgi_vm *vm, const rgi_sink *sink);

/* Runs the code fused (on, the default: operands folded into the
** instructions that use them, compare-and-branch, loops, calls of one-line
** procedures in place; see vm.c) or one fast instruction per bytecode
** instruction (off; limits.no_fusion makes that the default of a new
** VM).  Results, errors and their positions, step
** counts and the order of rolls are the same either way; this is for
** testing that.  Returns 0, or -1 when out of memory (the VM is then
** unchanged). */
int rgi_vm_set_fusion(rgi_vm *vm, int on);

/* Prints the VM's private fast code (see vm.c) to out: a tool for people
** working on the VM (`regula dis --fast`). */
void rgi_vm_dis_fast(const rgi_vm *vm, rg_out *out);

/* Frees the VM and everything it allocated. */
void rgi_vm_free(rgi_vm *vm);

/* Runs procedure proc with args[0..nparams) and stores its result (if it
** has one) in *result.  Every call starts a new run: the heap is reset to
** the module's constants and every deck is full again (the generator is
** not reseeded: seed again for a repeatable run).  Returns RG_RUN_OK,
** RG_RUN_ERROR or RG_RUN_LIMIT.  Arguments of list or record type must
** live in the module's constant heap. */
rg_status rgi_vm_call(rgi_vm *vm, uint32_t proc, const rgi_value *args, rgi_value *result);

/* Seeds the VM's generator: the same seed and stream give the same rolls
** and draws.  A new VM is seeded with 0, stream 0. */
void rgi_vm_seed(rgi_vm *vm, uint64_t seed, uint64_t stream);

/* Sets input `input` to v for the following calls (until set again). */
void rgi_vm_set_input(rgi_vm *vm, uint32_t input, rgi_value v);

/* The cards left in deck `deck` now (for a chance callback): stores their
** count in *n and returns them, in the order the chance index refers to. */
const rgi_value *rgi_vm_deck_left(const rgi_vm *vm, uint32_t deck, uint32_t *n);

/* During a chance callback for a card of a hand drawn at once (`draws`):
** how many cards that hand still draws after this one; else 0. */
uint32_t rgi_vm_draws_after(const rgi_vm *vm);

/* After a failed call: the message, and the code index where it happened
** (stored in *pc). */
const char *rgi_vm_error(const rgi_vm *vm, uint32_t *pc);

/* The heap as the last call left it (records it returned live there). */
const rgi_value *rgi_vm_heap(const rgi_vm *vm, uint32_t *size);

/* A view of vm's values (its heap, its decks) for readers that know no VM
** (vmstate.c). */
rgi_view rgi_vm_view(const rgi_vm *vm);

/* During the sink's expect_fail callback: the locals of the procedure whose
** expectation failed (slot k at [k], below its nlocals), where the loop
** variables the expectation names (rgi_expect.first_var) are read; NULL at
** any other time.  Owned by the VM. */
const rgi_value *rgi_vm_frame(const rgi_vm *vm);

struct rgi_live;

/* The state of a VM paused in a chance callback at the first draw of an
** instruction (a roll, a card, a choice: module instruction pc), while
** running procedure proc from the top: the procedures and places of its
** frames, their live locals (by lv, of the VM's module) and operands, the
** heap built so far and the cards left in every deck (sorted: every card
** left is equally likely next).  Two such states that are equal have the
** same chances onward.  Needs the VM's fusion off (rgi_vm_set_fusion), so that
** every operand lives in its stack slot.  Writes at most cap values into
** buf and returns how many the state has (more than cap: call again with
** room for them).  The heap is one run of them: buf[*heap_at] is the heap's
** top t, then t - m->nheap cells (heap_at may be NULL). */
size_t rgi_vm_state(const rgi_vm *vm, const struct rgi_live *lv, uint32_t proc, uint32_t pc,
                   rgi_value *buf, size_t cap, size_t *heap_at);

/* The last label of a roll or draw (LABEL: `roll(who, "what", DIE)`) of
** the running call: stores its choice site (whose prompt says what for,
** whose chooser type is who's), who, and its number among the call's
** labels (counted over the VM's life, so that a reader can tell a label
** already used from a new one), and returns 1; 0 when the call has run no
** LABEL. */
int rgi_vm_label(const rgi_vm *vm, uint32_t *site, rgi_value *who, uint32_t *gen);

#endif
