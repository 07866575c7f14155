/*
** dis.c: the disassembler, in the manner of `luac -l`.
**
**     procedure initial_weather(g: ground, s: season) -> weather  ; locals 3, stack 4
**     0000 [12] LOAD     0 ; t
**     0001 [12] LOOKUP   2 ; season_mod
**     0002 [13] JMPF     7
**
** addr is relative to the procedure's first instruction (4 digits), line is
** the source line from the line table, operands are A as a number (a jump
** shows its target address), and the comment names what A refers to.  The
** format is stable: golden tests compare it.
*/
#include "module.h"
#include "opcodes.h"
#include "regula_front.h"
#include "value.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>


/* Appends s to buf (size n, current length *len) as a quoted string with
** \" \\ \n \t and \xHH escapes, truncated to fit. */
static void quote(char *buf, size_t n, size_t *len, const char *s) {
  char tmp[8];
  if (*len + 1 < n) buf[(*len)++] = '"';
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    const char *add = tmp;
    if (c == '"') add = "\\\"";
    else if (c == '\\') add = "\\\\";
    else if (c == '\n') add = "\\n";
    else if (c == '\t') add = "\\t";
    else if (c < 0x20 || c == 0x7F) snprintf(tmp, sizeof tmp, "\\x%02X", c);
    else { tmp[0] = (char)c; tmp[1] = '\0'; }
    size_t k = strlen(add);
    if (*len + k + 2 >= n) break;
    memcpy(buf + *len, add, k);
    *len += k;
  }
  if (*len + 1 < n) buf[(*len)++] = '"';
  buf[*len] = '\0';
}

/* Writes the comment for instruction ins of
** procedure p into buf (size n); leaves it empty when there is none. */
static void comment(char *buf, size_t n, const rgi_module *m, const rgi_proc *p, uint32_t ins) {
  unsigned op = RG_INS_OP(ins);
  uint32_t a = RG_INS_A(ins);
  size_t len = 0;
  buf[0] = '\0';
  switch (op) {
  case RG_OP_CONST:
    if (a < m->nconsts) snprintf(buf, n, "%" PRId64, m->consts[a]);
    break;
  case RG_OP_LOAD: case RG_OP_STORE:
    if (a < p->nparams && (uint64_t)p->first_param + a < m->nparams)
      snprintf(buf, n, "%s", rgi_module_str(m, m->params[p->first_param + a].name));
    else
      snprintf(buf, n, "L%u", (unsigned)a);
    break;
  case RG_OP_LOOKUP:
    if (a < m->ntables) snprintf(buf, n, "%s", rgi_module_str(m, m->tables[a].name));
    break;
  case RG_OP_CALL:
    if (a < m->nprocs) snprintf(buf, n, "%s", rgi_module_str(m, m->procs[a].name));
    break;
  case RG_OP_MKREC:
    if (a < m->nrecords) snprintf(buf, n, "%s", rgi_module_str(m, m->records[a].name));
    break;
  case RG_OP_NOTE: case RG_OP_SHAPE:
    if (a < m->nnotes) quote(buf, n, &len, rgi_module_str(m, m->notes[a].text));
    break;
  case RG_OP_EXPECT: case RG_OP_EXPECTEQ:
    if (a < m->nexpects) quote(buf, n, &len, rgi_module_str(m, m->expects[a].text));
    break;
  case RG_OP_FAIL: case RG_OP_STEP:
    quote(buf, n, &len, rgi_module_str(m, a));
    break;
  case RG_OP_ROLL: case RG_OP_ROLLS: case RG_OP_ROLLAT:
    snprintf(buf, n, "d%u", (unsigned)a);
    break;
  case RG_OP_ROLLDIE:
    if (a < m->ndice) snprintf(buf, n, "%s", rgi_module_str(m, m->dice[a].name));
    break;
  case RG_OP_DRAW: case RG_OP_DRAWS: case RG_OP_LEFT:
    if (a < m->ndecks) snprintf(buf, n, "%s", rgi_module_str(m, m->decks[a].name));
    break;
  case RG_OP_INPUT:
    if (a < m->ninputs) snprintf(buf, n, "%s", rgi_module_str(m, m->inputs[a].name));
    break;
  case RG_OP_NTH:
    if (a < m->nenums) snprintf(buf, n, "%s", rgi_module_str(m, m->enums[a].name));
    break;
  case RG_OP_EQV: case RG_OP_LISTHASV: case RG_OP_LISTSUB:
    if (a < m->ntypes) rgi_type_name(buf, n, m, m->types[a]);
    break;
  case RG_OP_CHOOSE:
    if (a < m->nchoices) {
      static const char *const kinds[] = {"set", "list", "range"};
      const rgi_choice *c = &m->choices[a];
      quote(buf, n, &len, rgi_module_str(m, c->prompt));
      char tb[96];
      snprintf(buf + len, n - len, " from %s -> %s%s",
               c->kind <= RG_OPT_RANGE ? kinds[c->kind] : "?",
               rgi_type_name(tb, sizeof tb, m, c->option),
               c->flags & RG_CHOICE_SECRET ? ", secret" : "");
    }
    break;
  default:
    break;
  }
}

/* Writes the header line and the instructions of procedure pi to out. */
static void dis_proc(const rgi_module *m, uint32_t pi, rg_out *out) {
  const rgi_proc *p = &m->procs[pi];
  char tb[160], cb[256];
  rg_printf(out, "procedure %s(", rgi_module_str(m, p->name));
  for (uint32_t k = 0; k < p->nparams; k++) {
    if ((uint64_t)p->first_param + k >= m->nparams) break;
    const rgi_param_info *pa = &m->params[p->first_param + k];
    rg_printf(out, "%s%s: %s", k ? ", " : "", rgi_module_str(m, pa->name),
            rgi_type_name(tb, sizeof tb, m, pa->type));
  }
  rg_putc(out, ')');
  if (p->result.kind != RG_K_VOID)
    rg_printf(out, " -> %s", rgi_type_name(tb, sizeof tb, m, p->result));
  rg_printf(out, "  ; locals %u, stack %u\n", (unsigned)p->nlocals, (unsigned)p->max_stack);
  for (uint32_t rel = 0; rel < p->ncode; rel++) {
    uint64_t at = (uint64_t)p->code + rel;
    if (at >= m->ncode) break;
    uint32_t ins = m->code[at];
    unsigned op = RG_INS_OP(ins);
    uint32_t line = at < m->nlines ? m->lines[at].line : 0;
    if (op >= RG_NOPCODES) {
      rg_printf(out, "%04u [%u] ??? 0x%08X\n", (unsigned)rel, (unsigned)line, (unsigned)ins);
      continue;
    }
    rg_printf(out, "%04u [%u] ", (unsigned)rel, (unsigned)line);
    switch (rgi_op_operand[op]) {
    case RG_A_NONE:
      rg_puts(out, rgi_opnames[op]);
      break;
    case RG_A_IMM:
      rg_printf(out, "%-8s %d", rgi_opnames[op], (int)RG_INS_SA(ins));
      break;
    case RG_A_JUMP:
      rg_printf(out, "%-8s %04lld", rgi_opnames[op], (long long)rel + 1 + RG_INS_SA(ins));
      break;
    default:
      rg_printf(out, "%-8s %u", rgi_opnames[op], (unsigned)RG_INS_A(ins));
      break;
    }
    comment(cb, sizeof cb, m, p, ins);
    if (cb[0]) rg_printf(out, " ; %s", cb);
    rg_putc(out, '\n');
  }
}

/* Writes a disassembly of every procedure of m to out, procedures separated
** by a blank line. */
void rgi_module_dis(const rgi_module *m, rg_out *out) {
  for (uint32_t i = 0; i < m->nprocs; i++) {
    if (i) rg_putc(out, '\n');
    dis_proc(m, i, out);
  }
}
