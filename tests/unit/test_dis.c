/*
** test_dis.c: the disassembly (rgi_module_dis, `regula dis`) of a module
** built by hand (modbuild.h) whose operands name nothing the module has:
** dis is safe on any module, verified or not, and then writes each
** instruction without its comment.  A string operand is quoted with its
** escapes; an opcode past the table shows as ???.  Each expected line was
** written from the format in dis.c (name padded to 8 columns, the operand,
** " ; " and the comment).  Cases are named dis-N.
*/
#include <stdio.h>
#include <string.h>

#include "modbuild.h"
#include "regula_front.h"
#include "check.h"

/* Checks that text holds the line want (a whole line). */
static void has_line(const char *name, const char *text, const char *want) {
  char all[4096], line[300];
  snprintf(all, sizeof all, "\n%s", text ? text : "");
  snprintf(line, sizeof line, "\n%s\n", want);
  if (strstr(all, line)) { passed++; return; }
  failed++;
  printf("FAIL %s: no line [%s] in:\n%s\n", name, want, text ? text : "(nothing)");
}


int main(void) {
  mb b;
  rg_buf out;
  uint32_t s;
  mb_init(&b);
  s = mb_str(&b, "a\"b\\c\nd\te\x1B\x7F");
  mb_proc(&b, "f", T_INT, 1, (const char *[]){"a"}, &T_INT, 2);
  mb_emit(&b, RG_OP_CONST, 99);      /* 0: no constant 99 */
  mb_emit(&b, RG_OP_LOAD, 0);        /* 1: the parameter a */
  mb_emit(&b, RG_OP_STORE, 1);       /* 2: a local, not a parameter */
  mb_emit(&b, RG_OP_LOOKUP, 9);      /* 3 */
  mb_emit(&b, RG_OP_CALL, 9);        /* 4 */
  mb_emit(&b, RG_OP_MKREC, 9);       /* 5 */
  mb_emit(&b, RG_OP_NOTE, 9);        /* 6 */
  mb_emit(&b, RG_OP_EXPECT, 9);      /* 7 */
  mb_emit(&b, RG_OP_ROLLDIE, 9);     /* 8 */
  mb_emit(&b, RG_OP_DRAW, 9);        /* 9 */
  mb_emit(&b, RG_OP_INPUT, 9);       /* 10 */
  mb_emit(&b, RG_OP_NTH, 9);         /* 11 */
  mb_emit(&b, RG_OP_EQV, 9);         /* 12 */
  mb_emit(&b, RG_OP_CHOOSE, 9);      /* 13 */
  mb_emit(&b, RG_OP_ROLL, 6);        /* 14 */
  mb_emit(&b, RG_OP_FAIL, (int32_t)s);   /* 15 */
  mb_emit(&b, RG_OP_JMP, -3);        /* 16: to 14 */
  mb_emit(&b, RG_OP_RET, 0);         /* 17 */
  b.m.code[b.m.ncode - 1] = RG_INS(RG_NOPCODES, 5);   /* 17: no such opcode */
  rg_buf_init(&out);
  rgi_module_dis(&b.m, &out.out);
  has_line("dis-1 no constant", out.data, "0000 [1] CONST    99");
  has_line("dis-2 a parameter", out.data, "0001 [1] LOAD     0 ; a");
  has_line("dis-3 a local", out.data, "0002 [1] STORE    1 ; L1");
  has_line("dis-4 no table", out.data, "0003 [1] LOOKUP   9");
  has_line("dis-5 no procedure", out.data, "0004 [1] CALL     9");
  has_line("dis-6 no record", out.data, "0005 [1] MKREC    9");
  has_line("dis-7 no note", out.data, "0006 [1] NOTE     9");
  has_line("dis-8 no expectation", out.data, "0007 [1] EXPECT   9");
  has_line("dis-9 no die", out.data, "0008 [1] ROLLDIE  9");
  has_line("dis-10 no deck", out.data, "0009 [1] DRAW     9");
  has_line("dis-11 no input", out.data, "0010 [1] INPUT    9");
  has_line("dis-12 no enum", out.data, "0011 [1] NTH      9");
  has_line("dis-13 no type", out.data, "0012 [1] EQV      9");
  has_line("dis-14 no choice", out.data, "0013 [1] CHOOSE   9");
  has_line("dis-15 a roll", out.data, "0014 [1] ROLL     6 ; d6");
  {
    char want[128];
    snprintf(want, sizeof want, "0015 [1] FAIL     %u ; \"a\\\"b\\\\c\\nd\\te\\x1B\\x7F\"", (unsigned)s);
    has_line("dis-16 a quoted string", out.data, want);
  }
  has_line("dis-17 a jump back", out.data, "0016 [1] JMP      0014");
  {
    char want[64];
    snprintf(want, sizeof want, "0017 [1] ??? 0x%08X", (unsigned)RG_INS(RG_NOPCODES, 5));
    has_line("dis-18 no such opcode", out.data, want);
  }
  rg_buf_free(&out);
  rgi_module_free(&b.m);
  return check_done("test_dis");
}
