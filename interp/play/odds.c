/*
** odds.c: the exact distribution of a procedure's result (see odds.h).
**
** The walk.  A chance point is the first draw of an instruction that rolls,
** draws one card or (enumerating choices) chooses.  There the VM's state
** (rgi_vm_state: frames, live locals and operands, heap, decks) names a node
** of a graph; equal states are one node.  Node X is reached by replaying
** the outcomes that first led to it; exploring X runs the procedure again
** for each outcome of X's draw and of the draws inside that instruction,
** until the run reaches the next chance point (an edge to that node, which
** is created when new, and the run stops there), ends (an edge to its
** result), or has made `depth` draws (an edge to "cut").  Each edge has the
** probability 1 / (the product of the outcomes drawn along it).
**
** The solve.  The graph is an absorbing Markov chain: results and "cut"
** absorb.  Its strongly connected components (Tarjan) are visited from the
** start onward; the probability mass arriving at a component flows out of
** it by solving (I - Q^T) v = m over the component (Gauss-Jordan in exact
** fractions; one node without a loop is v = m), v being how often each
** node is visited.  A roll-off whose ties are rolled again is a component
** of a few nodes; a procedure without loops is a graph without cycles.
*/
#include "odds.h"
#include "grow.h"

#include "regula_front.h"
#include "live.h"
#include "play.h"
#include "policy.h"
#include "strategy.h"
#include "opcodes.h"

#include <stdio.h>
#include <string.h>

/* ---- fractions -------------------------------------------------------------- */

/* Returns the greatest common divisor of a and b (a when b is 0). */
static rgi_u128 gcd128(rgi_u128 a, rgi_u128 b) {
  while (b) {
    rgi_u128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* *r = a + b (both reduced, dens > 0).  Returns 0, or -1 when a number
** would not fit in 128 bits. */
static int fr_add(rgi_frac *r, rgi_frac a, rgi_frac b) {
  if (a.num == 0) { *r = b; return 0; }
  if (b.num == 0) { *r = a; return 0; }
  rgi_u128 g = gcd128(a.den, b.den), l, x, y, n;
  if (__builtin_mul_overflow(a.den / g, b.den, &l)) return -1;
  if (__builtin_mul_overflow(a.num, l / a.den, &x)) return -1;
  if (__builtin_mul_overflow(b.num, l / b.den, &y)) return -1;
  if (__builtin_add_overflow(x, y, &n)) return -1;
  g = gcd128(n, l);
  r->num = n / g;
  r->den = l / g;
  return 0;
}

/* *r = |a - b|, and *neg = 1 when b > a.  Returns 0, or -1 on overflow. */
static int fr_diff(rgi_frac *r, int *neg, rgi_frac a, rgi_frac b) {
  rgi_u128 g = gcd128(a.den, b.den), l, x, y, n;
  if (__builtin_mul_overflow(a.den / g, b.den, &l)) return -1;
  if (__builtin_mul_overflow(a.num, l / a.den, &x)) return -1;
  if (__builtin_mul_overflow(b.num, l / b.den, &y)) return -1;
  *neg = y > x;
  n = y > x ? y - x : x - y;
  g = gcd128(n, l);
  r->num = n ? n / g : 0;
  r->den = n ? l / g : 1;
  return 0;
}

int rgi_frac_sub(rgi_frac *r, int *neg, const rgi_frac *a, const rgi_frac *b) {
  return fr_diff(r, neg, *a, *b);
}

/* *r = a * b.  Returns 0, or -1 on overflow. */
static int fr_mul(rgi_frac *r, rgi_frac a, rgi_frac b) {
  if (a.num == 0 || b.num == 0) { *r = (rgi_frac){ 0, 1 }; return 0; }
  rgi_u128 g1 = gcd128(a.num, b.den), g2 = gcd128(b.num, a.den), n, d;
  if (__builtin_mul_overflow(a.num / g1, b.num / g2, &n)) return -1;
  if (__builtin_mul_overflow(a.den / g2, b.den / g1, &d)) return -1;
  r->num = n;
  r->den = d;
  return 0;
}

/* *r = a / b, b not 0.  Returns 0, or -1 on overflow. */
static int fr_div(rgi_frac *r, rgi_frac a, rgi_frac b) {
  return fr_mul(r, a, (rgi_frac){ b.den, b.num });
}

/* A signed fraction, for the elimination. */
typedef struct sfrac {
  rgi_frac f;
  int neg;                  /* 1: negative (never with f.num == 0) */
} sfrac;

/* *r = a + b (signed).  Returns 0, or -1 on overflow. */
static int sf_add(sfrac *r, sfrac a, sfrac b) {
  if (a.neg == b.neg) {
    r->neg = a.neg;
    if (fr_add(&r->f, a.f, b.f)) return -1;
  } else {
    int bigger_b;
    if (fr_diff(&r->f, &bigger_b, a.f, b.f)) return -1;
    r->neg = bigger_b ? b.neg : a.neg;
  }
  if (r->f.num == 0) r->neg = 0;
  return 0;
}

/* *r = a * b (signed).  Returns 0, or -1 on overflow. */
static int sf_mul(sfrac *r, sfrac a, sfrac b) {
  if (fr_mul(&r->f, a.f, b.f)) return -1;
  r->neg = r->f.num ? a.neg ^ b.neg : 0;
  return 0;
}

/* *r = a / b (signed, b not 0).  Returns 0, or -1 on overflow. */
static int sf_div(sfrac *r, sfrac a, sfrac b) {
  if (fr_div(&r->f, a.f, b.f)) return -1;
  r->neg = r->f.num ? a.neg ^ b.neg : 0;
  return 0;
}

char *rgi_u128_str(char *buf, rgi_u128 x) {
  char tmp[48];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + (int)(x % 10));
    x /= 10;
  } while (x);
  for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
  buf[n] = '\0';
  return buf;
}

char *rgi_frac_str(char *buf, const rgi_frac *f) {
  char d[48];
  rgi_u128_str(buf, f->num);
  strcat(buf, "/");
  strcat(buf, rgi_u128_str(d, f->den));
  return buf;
}

long double rgi_frac_value(const rgi_frac *f) {
  return f->num ? (long double)f->num / (long double)f->den : 0.0L;
}

/* ---- the graph ----------------------------------------------------------------- */

#define TO_CUT (-1)                     /* an edge's target: the paths cut */
#define TO_RESULT(slot) (-2 - (int64_t)(slot))

/* A chance point: a state of the VM, and the outcomes that reach it.  The
** outcomes are kept as a tree: those of the node it was found from (its
** parent), then its own, paths[path .. path + nown). */
typedef struct node {
  uint64_t hash;
  size_t key;               /* its state: keys[key .. key + nkey) */
  uint32_t nkey;
  size_t path;              /* its own outcomes: paths[path .. path + nown) */
  uint32_t nown;
  uint32_t npath;           /* the outcomes from the start (the parent's and its own) */
  uint32_t parent;          /* the node it was found from (node 0: itself) */
  uint32_t edge, nedges;    /* its edges: edges[edge .. edge + nedges) */
} node;

/* An edge: from a node to a node (to >= 0), a result or the cut. */
typedef struct edge {
  int64_t to;
  rgi_frac p;
} edge;

/* An outcome: index idx of n. */
typedef struct draw {
  uint64_t idx, n;
} draw;

/* Everything of one rgi_odds_run. */
typedef struct explore {
  const rgi_module *m;
  uint32_t proc;
  rgi_vm *vm;
  rgi_live live;
  node *nodes;
  uint32_t nnodes, capnodes;
  uint32_t *table;          /* open addressing: node + 1, 0 empty */
  uint32_t tcap;            /* a power of two */
  rgi_value *keys;
  size_t nkeys, capkeys;
  draw *paths;
  size_t npaths, cappaths;
  edge *edges;
  uint32_t nedges, capedges;
  rgi_value *scratch;        /* a state being read */
  size_t capscratch;
  /* The heaps of the states, each kept once (states often share theirs):
  ** heap k is hcells[hoff[k] .. hoff[k] + hlen[k]); a key holds its k. */
  rgi_value *hcells;
  size_t nhcells, caphcells;
  size_t *hoff;
  uint32_t *hlen;
  uint64_t *hhash;
  size_t nheaps, capheaps, caphoff, caphlen;
  uint32_t *htable;         /* open addressing: heap + 1, 0 empty */
  uint32_t htcap;           /* a power of two */
  size_t max_bytes;         /* the most the states, paths and solve may take */
  int overmem;              /* they would take more */
  uint32_t explored;        /* the node being explored */
  rgi_column *cols;          /* the result's columns (r->fields) */
  /* the run under way */
  draw *walk;               /* its outcomes so far */
  uint32_t capwalk;
  uint32_t d;               /* draws made */
  uint32_t forced;          /* draws [0, forced) replay walk[] */
  uint32_t np;              /* the explored node's path: walk[0, np) */
  int at_root;              /* exploring the start, which is no chance point */
  uint32_t depth;
  int in_instr;             /* inside an instruction of several dice */
  int cut;
  int nomem;
  int64_t stop;             /* the node this run stopped at, or -1 */
  rgi_policy answers;        /* choices from an answers text (when `answering`) */
  rgi_play play;
  rgi_sink play_sink;
  int answering;
  int all_choices;          /* choices are chance points (else the first) */
  uint32_t strategy;        /* 1 + the strategy answering first; 0: none */
  uint64_t expect_runs;
  uint32_t expect_pc;
  int expect_this;
} explore;

/* Grows *p (of *cap elements of size sz) to hold need; returns 0 or -1. */
static int grow(void **p, size_t *cap, size_t need, size_t sz) {
  if (need <= *cap) return 0;
  size_t nc = *cap ? *cap : 64;
  while (nc < need) nc *= 2;
  void *np = rg_realloc(*p, nc * sz);
  if (!np) return -1;
  *p = np;
  *cap = nc;
  return 0;
}

/* Returns an FNV-1a style hash of v[0..n). */
static uint64_t hash_state(const rgi_value *v, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t k = 0; k < n; k++) {
    h ^= (uint64_t)v[k];
    h *= 1099511628211ull;
    h ^= h >> 29;
  }
  return h;
}

/* Returns the bytes the walk keeps: states, heaps, paths, edges, tables. */
static size_t kept_bytes(const explore *e) {
  return (size_t)e->capnodes * sizeof *e->nodes + e->capkeys * sizeof *e->keys +
         e->cappaths * sizeof *e->paths + (size_t)e->capedges * sizeof *e->edges +
         (size_t)e->tcap * sizeof *e->table + e->caphcells * sizeof *e->hcells +
         e->caphoff * sizeof *e->hoff + e->caphlen * sizeof *e->hlen +
         e->capheaps * sizeof *e->hhash + (size_t)e->htcap * sizeof *e->htable +
         e->capscratch * sizeof *e->scratch + (size_t)e->capwalk * sizeof *e->walk;
}

/* Whether the walk keeps more than it may (then marks it).  Returns 1 or 0. */
static int over_memory(explore *e) {
  if (kept_bytes(e) > e->max_bytes) e->overmem = 1;
  return e->overmem;
}

/* rgi_index's hashes of kept heap k and of node k of explore ctx. */
static uint64_t heap_hash(const void *ctx, uint32_t k) {
  return ((const explore *)ctx)->hhash[k];
}

static uint64_t node_hash(const void *ctx, uint32_t k) {
  return ((const explore *)ctx)->nodes[k].hash;
}

/* Returns the index of heap cells c[0..n) among the heaps kept, adding it
** when new; -1 when out of memory. */
static int64_t intern_heap(explore *e, const rgi_value *c, size_t n) {
  uint64_t h = hash_state(c, n);
  if (n > UINT32_MAX) return -1;
  if (e->htcap) {
    for (uint32_t i = (uint32_t)h & (e->htcap - 1); e->htable[i]; i = (i + 1) & (e->htcap - 1)) {
      uint32_t k = e->htable[i] - 1;
      if (e->hhash[k] == h && e->hlen[k] == n &&
          (n == 0 || memcmp(e->hcells + e->hoff[k], c, n * sizeof *c) == 0))
        return k;
    }
  }
  if (e->nheaps >= UINT32_MAX - 1 ||
      grow((void **)&e->hcells, &e->caphcells, e->nhcells + n, sizeof *e->hcells) ||
      grow((void **)&e->hoff, &e->caphoff, e->nheaps + 1, sizeof *e->hoff) ||
      grow((void **)&e->hlen, &e->caphlen, e->nheaps + 1, sizeof *e->hlen) ||
      grow((void **)&e->hhash, &e->capheaps, e->nheaps + 1, sizeof *e->hhash))
    return -1;
  if ((uint64_t)(e->nheaps + 1) * 2 > e->htcap) {
    uint32_t nc = e->htcap ? e->htcap * 2 : 256;
    uint32_t *nt = rgi_index((uint32_t)e->nheaps, nc, heap_hash, e);
    if (!nt) return -1;
    rg_free(e->htable);
    e->htable = nt;
    e->htcap = nc;
  }
  size_t k = e->nheaps++;
  if (n) memcpy(e->hcells + e->nhcells, c, n * sizeof *c);
  e->hoff[k] = e->nhcells;
  e->hlen[k] = (uint32_t)n;
  e->hhash[k] = h;
  e->nhcells += n;
  uint32_t i = (uint32_t)h & (e->htcap - 1);
  while (e->htable[i]) i = (i + 1) & (e->htcap - 1);
  e->htable[i] = (uint32_t)k + 1;
  return (int64_t)k;
}

/* Puts node k into the hash table (which has room). */
static void table_put(explore *e, uint32_t k) {
  uint32_t mask = e->tcap - 1, i = (uint32_t)e->nodes[k].hash & mask;
  while (e->table[i]) i = (i + 1) & mask;
  e->table[i] = k + 1;
}

/* Finds the node of the VM's state now (paused before module instruction
** pc), adding it when new with the path walk[0, e->d).  Returns its index,
** or -1 when out of memory. */
static int64_t node_of_state(explore *e, uint32_t pc) {
  size_t ha = 0;
  size_t len = rgi_vm_state(e->vm, &e->live, e->proc, pc, e->scratch, e->capscratch, &ha);
  /* room for the state, the heap's index (one more value than the heap's
  ** cells when it has none) and the answers' place */
  if (len + 2 > e->capscratch) {
    if (grow((void **)&e->scratch, &e->capscratch, len + 2, sizeof *e->scratch) ||
        over_memory(e))
      return -1;
    len = rgi_vm_state(e->vm, &e->live, e->proc, pc, e->scratch, e->capscratch, &ha);
  }
  /* The heap's cells (after its top) are kept once for all the states
  ** that have them: the key holds the heap's index instead. */
  {
    size_t hn = (size_t)(e->scratch[ha] - (rgi_value)e->m->nheap);
    int64_t hk = intern_heap(e, e->scratch + ha + 1, hn);
    if (hk < 0) return -1;
    e->scratch[ha + 1] = (rgi_value)hk;
    memmove(e->scratch + ha + 2, e->scratch + ha + 1 + hn, (len - ha - 1 - hn) * sizeof *e->scratch);
    len = len - hn + 1;
  }
  /* answers read so far are part of the state too */
  e->scratch[len++] = e->answering ? (rgi_value)e->answers.pos : 0;
  uint64_t h = hash_state(e->scratch, len);
  if (e->tcap) {
    uint32_t mask = e->tcap - 1;
    for (uint32_t i = (uint32_t)h & mask; e->table[i]; i = (i + 1) & mask) {
      const node *n = &e->nodes[e->table[i] - 1];
      if (n->hash == h && n->nkey == len &&
          memcmp(e->keys + n->key, e->scratch, len * sizeof *e->scratch) == 0)
        return e->table[i] - 1;
    }
  }
  if ((uint64_t)len > UINT32_MAX) return -1;
  size_t capn = e->capnodes;
  if (grow((void **)&e->nodes, &capn, (size_t)e->nnodes + 1, sizeof *e->nodes)) return -1;
  e->capnodes = (uint32_t)capn;
  if (grow((void **)&e->keys, &e->capkeys, e->nkeys + len, sizeof *e->keys)) return -1;
  if (grow((void **)&e->paths, &e->cappaths, e->npaths + (e->d - e->np), sizeof *e->paths))
    return -1;
  if (over_memory(e)) return -1;
  if ((uint64_t)(e->nnodes + 1) * 2 > e->tcap) {
    uint32_t nc = e->tcap ? e->tcap * 2 : 1024;
    uint32_t *nt = rgi_index(e->nnodes, nc, node_hash, e);
    if (!nt) return -1;
    rg_free(e->table);
    e->table = nt;
    e->tcap = nc;
  }
  node *n = &e->nodes[e->nnodes];
  n->hash = h;
  n->key = e->nkeys;
  n->nkey = (uint32_t)len;
  memcpy(e->keys + e->nkeys, e->scratch, len * sizeof *e->scratch);
  e->nkeys += len;
  /* its outcomes: those of the node explored (walk[0, np)), then its own */
  n->path = e->npaths;
  n->nown = e->d - e->np;
  n->npath = e->d;
  n->parent = e->explored;
  if (n->nown) memcpy(e->paths + e->npaths, e->walk + e->np, n->nown * sizeof *e->walk);
  e->npaths += n->nown;
  n->edge = n->nedges = 0;
  table_put(e, e->nnodes);
  return e->nnodes++;
}

/* Returns 1 when module instruction pc begins a chance point (a roll, one
** card or a choice, not inside an instruction of several dice), else 0.
** Lists of dice and hands of cards are never one: their list is filled as
** they go. */
static int chance_point(const explore *e, uint32_t pc) {
  if (e->in_instr || pc >= e->m->ncode) return 0;
  switch (RG_INS_OP(e->m->code[pc])) {
  case RG_OP_ROLL: case RG_OP_ROLLAT: case RG_OP_ROLLDIE: case RG_OP_DRAW: case RG_OP_CHOOSE:
    return 1;
  default:
    return 0;
  }
}

/* One draw of n outcomes at module instruction pc: replayed while forced;
** at a chance point past the explored node, the run stops there (e->stop);
** else outcome 0, recorded.  Returns the outcome or -1 (stop the run). */
static int64_t next_draw(explore *e, uint64_t n, uint32_t pc) {
  if (e->d >= e->np && (e->d > e->np || e->at_root) && chance_point(e, pc)) {
    int64_t k = node_of_state(e, pc);
    if (k < 0) e->nomem = 1;
    else e->stop = k;
    return -1;
  }
  if (pc < e->m->ncode) {
    unsigned op = RG_INS_OP(e->m->code[pc]);
    if (op == RG_OP_ROLL || op == RG_OP_ROLLAT || op == RG_OP_ROLLS) e->in_instr = 1;
  }
  if (e->d >= e->depth) {
    e->cut = 1;
    return -1;
  }
  if (e->d >= e->capwalk) {
    size_t cap = e->capwalk;
    if (grow((void **)&e->walk, &cap, (size_t)e->d + 1, sizeof *e->walk) || cap > UINT32_MAX) {
      e->nomem = 1;
      return -1;
    }
    e->capwalk = (uint32_t)cap;
  }
  uint32_t k = e->d++;
  if (k < e->forced) {
    /* The same outcomes before make the same draws: n cannot differ. */
    if (e->walk[k].n != n || e->walk[k].idx >= n) return -1;
    return (int64_t)e->walk[k].idx;
  }
  e->walk[k] = (draw){ 0, n };
  return 0;
}

/* rgi_sink chance: a roll or a card (next_draw). */
static int64_t on_chance(void *ctx, const rgi_module *m, int what, uint32_t index, uint64_t n,
                         uint32_t pc) {
  (void)m; (void)what; (void)index;
  return next_draw(ctx, n, pc);
}

/* rgi_sink choose: from the answers, or (every choice enumerated) a draw
** over the options. */
static int64_t on_choose(void *ctx, const rgi_module *m, uint32_t choice, rgi_value chooser,
                         const rgi_value *options, uint32_t n, uint32_t pc) {
  explore *e = ctx;
  if (e->strategy) {
    uint32_t nheap;
    const rgi_value *heap = rgi_vm_heap(e->vm, &nheap);
    int64_t k = rgi_strategy_pick(m, e->strategy - 1, choice, chooser, options, n, heap, nheap,
                                 NULL);
    if (k >= 0) return k;
    if (k == -2) return next_draw(ctx, n, pc);          /* a random pick: every option */
  }
  if (e->answering)
    return e->play_sink.choose(e->play_sink.ctx, m, choice, chooser, options, n, pc);
  if (!e->all_choices) return 0;                        /* the first option */
  return next_draw(ctx, n, pc);
}

/* rgi_sink roll: the dice of an instruction are all drawn. */
static void on_roll(void *ctx, const rgi_module *m, int32_t die, uint32_t sides,
                    const rgi_value *results, uint32_t n, uint32_t pc) {
  explore *e = ctx;
  (void)m; (void)die; (void)sides; (void)results; (void)n; (void)pc;
  e->in_instr = 0;
}

/* rgi_sink expect_fail: counts the run (once) and keeps the first pc. */
static void on_expect_fail(void *ctx, const rgi_module *m, uint32_t expect, rgi_value actual,
                           rgi_value expected, uint32_t pc) {
  explore *e = ctx;
  (void)m; (void)expect; (void)actual; (void)expected;
  if (e->expect_this) return;
  e->expect_this = 1;
  if (e->expect_runs++ == 0) e->expect_pc = pc;
}

/* Adds an edge (to, 1/den) to the node being explored.  0 or -1. */
static int add_edge(explore *e, int64_t to, rgi_u128 den) {
  size_t cap = e->capedges;
  if (grow((void **)&e->edges, &cap, (size_t)e->nedges + 1, sizeof *e->edges) || cap > UINT32_MAX)
    return -1;
  e->capedges = (uint32_t)cap;
  if (over_memory(e)) return -1;
  e->edges[e->nedges++] = (edge){ to, { 1, den } };
  return 0;
}

/* What rgi_column_values hands each value of a new result to. */
typedef struct celling {
  rgi_odds_result *r;
  uint32_t slot, field;
  const rgi_value *heap;
  uint32_t nheap;
  size_t first;             /* this result's cells of this field start here */
} celling;

/* rgi_column_values callback: value v of field c->field of result c->slot
** is a cell (once).  Returns 0 or -1. */
static int add_cell(void *ctx, rgi_value v) {
  celling *c = ctx;
  rgi_odds_result *r = c->r;
  int64_t fs = rgi_tally_slot(&r->fields[c->field].tally, c->heap, c->nheap, v);
  if (fs < 0) return -1;
  for (size_t k = c->first; k < r->ncells; k += 3)
    if (r->cells[k + 2] == (uint32_t)fs) return 0;    /* an item's value met before */
  if (grow((void **)&r->cells, &r->capcells, r->ncells + 3, sizeof *r->cells)) return -1;
  r->cells[r->ncells++] = c->slot;
  r->cells[r->ncells++] = c->field;
  r->cells[r->ncells++] = (uint32_t)fs;
  return 0;
}

/* Notes the value of every field of result value v, new in slot `slot`
** (its record read from heap[0..nheap)).  Returns 0 or -1. */
static int result_cells(explore *e, rgi_odds_result *r, uint32_t slot, const rgi_value *heap,
                        uint32_t nheap, rgi_value v) {
  rgi_type t = e->m->procs[e->proc].result;
  for (uint32_t f = 0; f < r->nfields; f++) {
    celling c = { r, slot, f, heap, nheap, r->ncells };
    if (rgi_column_values(e->m, &e->cols[f], &t, heap, nheap, v, add_cell, &c) != 0) return -1;
  }
  return 0;
}

/* Explores node x (x == 0: the start): every outcome of its draw and of
** the draws after it up to the next chance point.  Returns a status. */
static rgi_odds_status explore_node(const rgi_odds_opts *o, rgi_odds_result *r, explore *e,
                                   uint32_t x) {
  const node *nx = &e->nodes[x];
  e->np = nx->npath;
  e->at_root = x == 0;
  {
    size_t cap = e->capwalk;
    if (grow((void **)&e->walk, &cap, (size_t)e->np + 1, sizeof *e->walk) || cap > UINT32_MAX)
      return RG_ODDS_NOMEM;
    e->capwalk = (uint32_t)cap;
  }
  /* its outcomes from the start, up the tree of the nodes found from */
  for (uint32_t y = x, end = e->np; end > 0; y = e->nodes[y].parent) {
    const node *ny = &e->nodes[y];
    end -= ny->nown;
    if (ny->nown) memcpy(e->walk + end, e->paths + ny->path, ny->nown * sizeof *e->walk);
  }
  e->explored = x;
  e->forced = e->np;
  e->nodes[x].edge = e->nedges;
  for (;;) {
    rgi_value result = 0;
    rgi_u128 den = 1;
    e->d = 0;
    e->cut = 0;
    e->in_instr = 0;
    e->stop = -1;
    e->expect_this = 0;
    e->answers.pos = 0;     /* every run answers from the first line */
    e->answers.line = 0;
    e->play.stopped = 0;
    if (r->paths == o->limit) return RG_ODDS_LIMIT;
    r->paths++;
    rg_status st = rgi_vm_call(e->vm, o->proc, o->args, &result);
    if (e->nomem) return e->overmem ? RG_ODDS_MEMORY : RG_ODDS_NOMEM;
    r->draws = e->d;
    for (uint32_t k = e->np; k < e->d; k++)
      if (__builtin_mul_overflow(den, (rgi_u128)e->walk[k].n, &den)) return RG_ODDS_TINY;
    int64_t to;
    if (e->stop >= 0) {
      to = e->stop;
    } else if (e->cut) {
      r->cut_paths++;
      to = TO_CUT;
    } else if (st != RG_RUN_OK) {
      const char *msg;
      r->pc = UINT32_MAX;
      msg = rgi_vm_error(e->vm, &r->pc);
      if (e->play.stopped) {        /* no rule failed: a choice went unanswered */
        msg = rgi_play_error(&e->play);
        r->pc = UINT32_MAX;
      }
      snprintf(r->msg, sizeof r->msg, "%s", msg && *msg ? msg : "the run failed");
      r->idx = rg_malloc(((size_t)e->d + 1) * sizeof *r->idx);
      r->n = rg_malloc(((size_t)e->d + 1) * sizeof *r->n);
      if (!r->idx || !r->n) return RG_ODDS_NOMEM;
      for (uint32_t k = 0; k < e->d; k++) {
        r->idx[k] = e->walk[k].idx;
        r->n[k] = e->walk[k].n;
      }
      return RG_ODDS_RUN_FAILED;
    } else {
      uint32_t nheap = 0;
      const rgi_value *heap = rgi_vm_heap(e->vm, &nheap);
      uint32_t before = r->tally.n;
      int64_t s = rgi_tally_slot(&r->tally, heap, nheap, result);
      if (s < 0) return RG_ODDS_NOMEM;
      if (r->tally.n > before && result_cells(e, r, (uint32_t)s, heap, nheap, result) != 0)
        return RG_ODDS_NOMEM;
      to = TO_RESULT(s);
    }
    if (add_edge(e, to, den) != 0) return e->overmem ? RG_ODDS_MEMORY : RG_ODDS_NOMEM;
    e->nodes[x].nedges++;
    /* Advance the deepest draw of this node's with an outcome left. */
    uint32_t k = e->d;
    while (k > e->np && e->walk[k - 1].idx + 1 >= e->walk[k - 1].n) k--;
    if (k == e->np) return RG_ODDS_OK;
    e->walk[k - 1].idx++;
    e->forced = k;
  }
}

/* ---- the solve ----------------------------------------------------------------- */

/* The strongly connected components of the graph, in the order Tarjan's
** algorithm completes them (every edge leads to the same or an earlier
** one): members[start[c] .. start[c + 1]).  Iterative.  Returns 0 or -1. */
static int components(const explore *e, uint32_t *members, uint32_t *start, uint32_t *ncomp,
                      uint32_t *comp) {
  uint32_t n = e->nnodes, next = 0, top = 0, nc = 0, nm = 0, cs = 0;
  uint32_t *index = rg_malloc((size_t)n * sizeof *index);
  uint32_t *low = rg_malloc((size_t)n * sizeof *low);
  uint32_t *stack = rg_malloc((size_t)n * sizeof *stack);
  uint32_t *cv = rg_malloc((size_t)n * sizeof *cv), *ce = rg_malloc((size_t)n * sizeof *ce);
  unsigned char *on = rg_malloc(n);
  if (!index || !low || !stack || !cv || !ce || !on) {
    rg_free(index); rg_free(low); rg_free(stack); rg_free(cv); rg_free(ce); rg_free(on);
    return -1;
  }
  for (uint32_t k = 0; k < n; k++) index[k] = UINT32_MAX;
  memset(on, 0, n);
  /* every node is reached from node 0 */
  cv[cs] = 0;
  ce[cs++] = 0;
  index[0] = low[0] = next++;
  stack[top++] = 0;
  on[0] = 1;
  while (cs) {
    uint32_t v = cv[cs - 1];
    const node *nv = &e->nodes[v];
    if (ce[cs - 1] < nv->nedges) {
      int64_t w = e->edges[nv->edge + ce[cs - 1]++].to;
      if (w < 0) continue;
      if (index[w] == UINT32_MAX) {
        index[w] = low[w] = next++;
        stack[top++] = (uint32_t)w;
        on[w] = 1;
        cv[cs] = (uint32_t)w;
        ce[cs++] = 0;
      } else if (on[w] && index[w] < low[v]) {
        low[v] = index[w];
      }
      continue;
    }
    if (low[v] == index[v]) {
      start[nc] = nm;
      uint32_t w;
      do {
        w = stack[--top];
        on[w] = 0;
        comp[w] = nc;
        members[nm++] = w;
      } while (w != v);
      nc++;
    }
    cs--;
    if (cs && low[v] < low[cv[cs - 1]]) low[cv[cs - 1]] = low[v];
  }
  start[nc] = nm;
  *ncomp = nc;
  rg_free(index); rg_free(low); rg_free(stack); rg_free(cv); rg_free(ce); rg_free(on);
  return 0;
}

/* Adds v * p to the mass of edge target `to`.  Returns a status. */
static rgi_odds_status flow(rgi_odds_result *r, rgi_frac *mass, int64_t to, rgi_frac v, rgi_frac p) {
  rgi_frac x, *into;
  if (fr_mul(&x, v, p)) return RG_ODDS_OVERFLOW;
  into = to >= 0 ? &mass[to] : to == TO_CUT ? &r->cut : &r->probs[-2 - to];
  return fr_add(into, *into, x) ? RG_ODDS_OVERFLOW : RG_ODDS_OK;
}

#define MAX_LOOP_STATES 4000   /* most nodes of one component solved at once */

/* Solves component c of size s (members mem[0..s)): the visits v of each
** node from the mass arriving at them, then their mass flows out of the
** component.  loc[node] is set to the node's position for the members.
** Returns a status. */
static rgi_odds_status solve_component(const explore *e, rgi_odds_result *r, rgi_frac *mass,
                                      const uint32_t *mem, uint32_t s, const uint32_t *comp,
                                      uint32_t c, uint32_t *loc) {
  rgi_odds_status st = RG_ODDS_OK;
  int leaves = 0;
  /* A loop no edge leaves is never left: the procedure never ends there
  ** (and I - Q^T is singular).  One edge out makes it solvable. */
  for (uint32_t i = 0; i < s && !leaves; i++) {
    const node *ni = &e->nodes[mem[i]];
    for (uint32_t k = 0; k < ni->nedges && !leaves; k++) {
      const edge *ed = &e->edges[ni->edge + k];
      leaves = ed->to < 0 || comp[ed->to] != c;
    }
  }
  if (!leaves) return RG_ODDS_ENDLESS;
  if (s > MAX_LOOP_STATES) return RG_ODDS_LOOP;
  for (uint32_t i = 0; i < s; i++) loc[mem[i]] = i;
  /* a: s rows of s + 1 (the last column is the right-hand side) */
  size_t w = (size_t)s + 1;
  if (kept_bytes(e) + (size_t)s * w * sizeof(sfrac) > e->max_bytes) return RG_ODDS_MEMORY;
  sfrac *a = rg_malloc((size_t)s * w * sizeof *a);
  rgi_frac *v = rg_malloc((size_t)s * sizeof *v);
  if (!a || !v) {
    rg_free(a);
    rg_free(v);
    return RG_ODDS_NOMEM;
  }
  for (size_t k = 0; k < (size_t)s * w; k++) a[k] = (sfrac){ { 0, 1 }, 0 };
  for (uint32_t i = 0; i < s; i++) {
    a[i * w + i].f = (rgi_frac){ 1, 1 };
    a[i * w + s].f = mass[mem[i]];
  }
  /* row j: v_j - sum over edges i -> j inside the component of p * v_i = m_j */
  for (uint32_t i = 0; i < s && st == RG_ODDS_OK; i++) {
    const node *ni = &e->nodes[mem[i]];
    for (uint32_t k = 0; k < ni->nedges; k++) {
      const edge *ed = &e->edges[ni->edge + k];
      if (ed->to < 0 || comp[ed->to] != c) continue;
      sfrac *cell = &a[(size_t)loc[ed->to] * w + i];
      if (sf_add(cell, *cell, (sfrac){ ed->p, 1 })) st = RG_ODDS_OVERFLOW;
    }
  }
  /* Gauss-Jordan without pivoting: the matrix is diagonally dominant by
  ** columns (each node's edges sum to at most 1), which elimination keeps,
  ** and not singular (an edge leaves the loop, and every member reaches
  ** it); so a zero pivot would make its whole column zero, the matrix
  ** singular: none is.  The check keeps a mistake from dividing by 0. */
  for (uint32_t col = 0; col < s && st == RG_ODDS_OK; col++) {
    sfrac p = a[(size_t)col * w + col];
    if (p.f.num == 0) { st = RG_ODDS_ENDLESS; break; }
    for (size_t k = col; k < w && st == RG_ODDS_OK; k++)
      if (sf_div(&a[(size_t)col * w + k], a[(size_t)col * w + k], p)) st = RG_ODDS_OVERFLOW;
    for (uint32_t row = 0; row < s && st == RG_ODDS_OK; row++) {
      sfrac f = a[(size_t)row * w + col];
      if (row == col || f.f.num == 0) continue;
      f.neg ^= 1;
      for (size_t k = col; k < w && st == RG_ODDS_OK; k++) {
        sfrac t;
        if (a[(size_t)col * w + k].f.num == 0) continue;
        if (sf_mul(&t, f, a[(size_t)col * w + k]) ||
            sf_add(&a[(size_t)row * w + k], a[(size_t)row * w + k], t))
          st = RG_ODDS_OVERFLOW;
      }
    }
  }
  for (uint32_t i = 0; i < s && st == RG_ODDS_OK; i++) {
    sfrac x = a[(size_t)i * w + s];
    v[i] = x.neg ? (rgi_frac){ 0, 1 } : x.f;   /* visits are never negative */
  }
  /* the mass leaving the component */
  for (uint32_t i = 0; i < s && st == RG_ODDS_OK; i++) {
    const node *ni = &e->nodes[mem[i]];
    if (v[i].num == 0) continue;
    for (uint32_t k = 0; k < ni->nedges && st == RG_ODDS_OK; k++) {
      const edge *ed = &e->edges[ni->edge + k];
      if (ed->to >= 0 && comp[ed->to] == c) continue;
      st = flow(r, mass, ed->to, v[i], ed->p);
    }
  }
  rg_free(a);
  rg_free(v);
  return st;
}

/* Solves the graph of e into r->probs and r->cut.  Returns a status. */
static rgi_odds_status solve(explore *e, rgi_odds_result *r) {
  uint32_t n = e->nnodes, ncomp = 0;
  rgi_odds_status st = RG_ODDS_OK;
  uint32_t *members = rg_malloc((size_t)n * sizeof *members);
  uint32_t *start = rg_malloc(((size_t)n + 1) * sizeof *start);
  uint32_t *comp = rg_malloc((size_t)n * sizeof *comp);
  uint32_t *loc = rg_malloc((size_t)n * sizeof *loc);
  rgi_frac *mass = rg_malloc((size_t)n * sizeof *mass);
  r->probs = rg_malloc(((size_t)r->tally.n + 1) * sizeof *r->probs);
  if (!members || !start || !comp || !loc || !mass || !r->probs ||
      components(e, members, start, &ncomp, comp) != 0) {
    st = RG_ODDS_NOMEM;
    goto done;
  }
  for (uint32_t k = 0; k < r->tally.n; k++) r->probs[k] = (rgi_frac){ 0, 1 };
  for (uint32_t k = 0; k < n; k++) mass[k] = (rgi_frac){ 0, 1 };
  mass[0] = (rgi_frac){ 1, 1 };
  /* the start's component was completed last: go from it onward */
  for (uint32_t c = ncomp; c-- > 0 && st == RG_ODDS_OK;) {
    const uint32_t *mem = members + start[c];
    uint32_t s = start[c + 1] - start[c];
    const node *nx = &e->nodes[mem[0]];
    int loop = s > 1;
    for (uint32_t k = 0; k < nx->nedges && !loop; k++) loop = e->edges[nx->edge + k].to == mem[0];
    if (loop) {
      r->loops++;
      st = solve_component(e, r, mass, mem, s, comp, c, loc);
      continue;
    }
    if (mass[mem[0]].num == 0) continue;
    for (uint32_t k = 0; k < nx->nedges && st == RG_ODDS_OK; k++)
      st = flow(r, mass, e->edges[nx->edge + k].to, mass[mem[0]], e->edges[nx->edge + k].p);
  }
done:
  rg_free(members);
  rg_free(start);
  rg_free(comp);
  rg_free(loc);
  rg_free(mass);
  return st;
}

/* ---- the run ------------------------------------------------------------------- */

/* Works out each field's distribution from the results' (r->cells): a
** value's probability is the sum of those of the results that have it.
** Returns a status. */
static rgi_odds_status marginals(rgi_odds_result *r) {
  for (uint32_t f = 0; f < r->nfields; f++) {
    rgi_odds_field *fd = &r->fields[f];
    if (!(fd->probs = rg_malloc(((size_t)fd->tally.n + 1) * sizeof *fd->probs)))
      return RG_ODDS_NOMEM;
    for (uint32_t k = 0; k < fd->tally.n; k++) fd->probs[k] = (rgi_frac){ 0, 1 };
  }
  for (size_t k = 0; k < r->ncells; k += 3) {
    rgi_frac *into = &r->fields[r->cells[k + 1]].probs[r->cells[k + 2]];
    if (fr_add(into, *into, r->probs[r->cells[k]])) return RG_ODDS_OVERFLOW;
  }
  return RG_ODDS_OK;
}

/* Explores from the start, node by node in the order found, then solves. */
static rgi_odds_status odds_walk(const rgi_odds_opts *o, rgi_odds_result *r, explore *e) {
  /* node 0: the start, reached by no outcome */
  size_t capn = 0;
  if (grow((void **)&e->nodes, &capn, 1, sizeof *e->nodes)) return RG_ODDS_NOMEM;
  e->capnodes = (uint32_t)capn;
  e->nodes[0] = (node){ 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  e->nnodes = 1;
  for (uint32_t x = 0; x < e->nnodes; x++) {
    rgi_odds_status st = explore_node(o, r, e, x);
    if (st != RG_ODDS_OK) return st;
  }
  r->states = e->nnodes - 1;
  rgi_odds_status st = solve(e, r);
  return st == RG_ODDS_OK ? marginals(r) : st;
}

rgi_odds_status rgi_odds_run(const rgi_odds_opts *o, rgi_odds_result *r) {
  explore e;
  rgi_limits lim = o->limits ? *o->limits : (rgi_limits){ 0 };
  rgi_sink sink;
  memset(&e, 0, sizeof e);
  memset(r, 0, sizeof *r);
  e.m = o->m;
  e.proc = o->proc;
  e.depth = o->depth;
  e.answering = o->answers != NULL;
  e.all_choices = o->all_choices;
  e.strategy = o->strategy;
  e.max_bytes = o->max_bytes ? o->max_bytes : RG_ODDS_MAX_BYTES;
  sink = (rgi_sink){ .ctx = &e, .chance = on_chance, .roll = on_roll,
                    .choose = o->all_choices || e.answering || o->strategy ? on_choose : NULL,
                    .expect_fail = on_expect_fail };
  r->cut = (rgi_frac){ 0, 1 };
  rgi_tally_init(&r->tally, o->m, o->m->procs[o->proc].result);
  /* the result column by column */
  if ((e.cols = rg_malloc(RG_COLUMNS_MAX * sizeof *e.cols))) {
    rgi_columns_of(o->m, o->m->procs[o->proc].result, e.cols, &r->nfields);
    if ((r->fields = rg_malloc(((size_t)r->nfields + 1) * sizeof *r->fields))) {
      memset(r->fields, 0, ((size_t)r->nfields + 1) * sizeof *r->fields);
      for (uint32_t f = 0; f < r->nfields; f++) {
        memcpy(r->fields[f].name, e.cols[f].name, sizeof r->fields[f].name);
        r->fields[f].any = e.cols[f].any;
        rgi_tally_init(&r->fields[f].tally, o->m, e.cols[f].type);
      }
    }
  }
  rgi_policy_first(&e.answers);
  lim.no_fusion = 1;   /* rgi_vm_state reads every operand from its slot */
  if (!e.cols || !r->fields || rgi_live_init(&e.live, o->m) != 0 ||
      !(e.vm = rgi_vm_new(o->m, &lim, &sink)) ||
      (e.answering &&
       (rgi_policy_answers(&e.answers, o->answers_source, o->answers, o->answers_len) != 0 ||
        rgi_play_init(&e.play, o->m, NULL, &e.answers, NULL) != 0))) {
    r->status = RG_ODDS_NOMEM;
  } else {
    if (e.answering) {
      rgi_play_sink(&e.play, &e.play_sink);
      rgi_play_attach(&e.play, e.vm);
    }
    r->status = odds_walk(o, r, &e);
  }
  r->expect_paths = e.expect_runs;
  r->expect_pc = e.expect_pc;
  rgi_vm_free(e.vm);
  rgi_play_free(&e.play);
  rgi_policy_free(&e.answers);
  rgi_live_free(&e.live);
  rg_free(e.nodes);
  rg_free(e.table);
  rg_free(e.keys);
  rg_free(e.paths);
  rg_free(e.edges);
  rg_free(e.scratch);
  rg_free(e.walk);
  rg_free(e.hcells);
  rg_free(e.hoff);
  rg_free(e.hlen);
  rg_free(e.hhash);
  rg_free(e.htable);
  rg_free(e.cols);
  return r->status;
}

void rgi_odds_free(rgi_odds_result *r) {
  for (uint32_t f = 0; r->fields && f < r->nfields; f++) {
    rgi_tally_free(&r->fields[f].tally);
    rg_free(r->fields[f].probs);
  }
  rg_free(r->fields);
  rg_free(r->cells);
  rgi_tally_free(&r->tally);
  rg_free(r->probs);
  rg_free(r->idx);
  rg_free(r->n);
  memset(r, 0, sizeof *r);
}
