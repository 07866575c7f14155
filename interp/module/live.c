/*
** live.c: stack heights and live locals at each instruction (see live.h).
*/
#include "live.h"

#include "regula_front.h"
#include "opcodes.h"

#include <string.h>

/* Stores the successors of instruction i (absolute) of procedure p in
** succ[0..]; returns how many (0 after a return or a failure). */
static int successors(const rgi_module *m, const rgi_proc *p, uint32_t i, uint32_t succ[2]) {
  uint32_t ins = m->code[i];
  int n = 0;
  int64_t target = (int64_t)i + 1 + RG_INS_SA(ins);
  switch (RG_INS_OP(ins)) {
  case RG_OP_RET: case RG_OP_RETV: case RG_OP_FAIL:
    return 0;
  case RG_OP_JMP:
    succ[n++] = (uint32_t)target;
    return n;
  case RG_OP_JMPF: case RG_OP_JMPT:
    succ[n++] = (uint32_t)target;
    break;
  default:
    break;
  }
  if (i + 1 < p->code + p->ncode) succ[n++] = i + 1;
  return n;
}

/* Fills l->height for procedure p by walking its code forward from its
** entry (the module is verified, so heights agree where paths meet).
** work: scratch of p->ncode entries.  */
static void heights(rgi_live *l, const rgi_proc *p, uint32_t *work) {
  const rgi_module *m = l->m;
  uint32_t top = 0;
  for (uint32_t i = 0; i < p->ncode; i++) l->height[p->code + i] = -1;
  l->height[p->code] = 0;
  work[top++] = p->code;
  while (top) {
    uint32_t i = work[--top], succ[2];
    int pops = 0, pushes = 0;
    if (rgi_op_effect(m, m->code[i], &pops, &pushes) != 0) continue;
    int32_t after = l->height[i] - pops + pushes;
    int n = successors(m, p, i, succ);
    for (int k = 0; k < n; k++)
      if (l->height[succ[k]] < 0) {
        l->height[succ[k]] = after;
        work[top++] = succ[k];
      }
  }
}

/* Computes the live-in sets of procedure p: repeated backward passes until
** nothing changes (loops need a few). */
static void liveness(rgi_live *l, uint32_t pi) {
  const rgi_module *m = l->m;
  const rgi_proc *p = &m->procs[pi];
  uint32_t nw = l->nw[pi];
  uint64_t *base = l->bits + l->off[pi];
  int changed = 1;
  while (changed) {
    changed = 0;
    for (uint32_t j = p->ncode; j-- > 0;) {
      uint32_t i = p->code + j, succ[2];
      uint32_t ins = m->code[i], op = RG_INS_OP(ins), a = RG_INS_A(ins);
      uint64_t *in = base + (uint64_t)j * nw;
      int n = successors(m, p, i, succ);
      for (uint32_t w = 0; w < nw; w++) {
        uint64_t out = 0;
        for (int k = 0; k < n; k++) out |= base[(uint64_t)(succ[k] - p->code) * nw + w];
        if (op == RG_OP_STORE && a / 64 == w) out &= ~((uint64_t)1 << (a % 64));
        if (op == RG_OP_LOAD && a / 64 == w) out |= (uint64_t)1 << (a % 64);
        if (out != in[w]) {
          in[w] = out;
          changed = 1;
        }
      }
    }
  }
}

int rgi_live_init(rgi_live *l, const rgi_module *m) {
  uint64_t total = 0;
  uint32_t maxcode = 1;
  memset(l, 0, sizeof *l);
  l->m = m;
  l->height = rg_malloc(((size_t)m->ncode + 1) * sizeof *l->height);
  l->off = rg_malloc(((size_t)m->nprocs + 1) * sizeof *l->off);
  l->nw = rg_malloc(((size_t)m->nprocs + 1) * sizeof *l->nw);
  if (!l->height || !l->off || !l->nw) return -1;
  for (uint32_t p = 0; p < m->nprocs; p++) {
    l->nw[p] = (m->procs[p].nlocals + 63) / 64;
    l->off[p] = total;
    total += (uint64_t)l->nw[p] * m->procs[p].ncode;
    if (m->procs[p].ncode > maxcode) maxcode = m->procs[p].ncode;
  }
  l->bits = rg_malloc(((size_t)total + 1) * sizeof *l->bits);
  uint32_t *work = rg_malloc((size_t)maxcode * sizeof *work);
  if (!l->bits || !work) {
    rg_free(work);
    return -1;
  }
  memset(l->bits, 0, ((size_t)total + 1) * sizeof *l->bits);
  for (uint32_t p = 0; p < m->nprocs; p++) {
    heights(l, &m->procs[p], work);
    liveness(l, p);
  }
  rg_free(work);
  return 0;
}

void rgi_live_free(rgi_live *l) {
  rg_free(l->height);
  rg_free(l->bits);
  rg_free(l->off);
  rg_free(l->nw);
  memset(l, 0, sizeof *l);
}

int rgi_live_local(const rgi_live *l, uint32_t p, uint32_t pc, uint32_t k) {
  const rgi_proc *pr = &l->m->procs[p];
  if (k >= pr->nlocals || pc < pr->code || pc >= pr->code + pr->ncode) return 0;
  const uint64_t *set = l->bits + l->off[p] + (uint64_t)(pc - pr->code) * l->nw[p];
  return (int)((set[k / 64] >> (k % 64)) & 1u);
}
