/*
** opcodes.h: the instruction set of the regula VM, in one list.
**
** An instruction is one 32-bit word:
**
**     31                 8 7        0
**     +-------------------+----------+
**     |         A         |    op    |
**     +-------------------+----------+
**
** A is an unsigned 24-bit operand (a signed one for IMM and JUMP, where it is
** sign-extended; a JUMP's target is pc + 1 + A).  The VM is a stack machine
** over 64-bit values; locals L[] are the slots of the running frame
** (parameters first), K[] is the constant pool, H[] the record heap, T[] the
** flattened tables.
**
** RG_OPCODES(X) calls X(name, operand, pops, pushes, doc) once per opcode.
** `operand` says what A indexes, so the verifier knows which bound to check;
** pops/pushes are the stack effect, with -1 meaning "depends on A" (see
** rgi_op_effect in module.c).  This list expands into the opcode enum, the
** name table, the stack-effect table and the VM's dispatch table.
*/
#ifndef RG_OPCODES_H
#define RG_OPCODES_H

/* What an operand refers to; the verifier checks each against its bound. */
typedef enum rgi_operand {
  RG_A_NONE,     /* A must be 0 */
  RG_A_IMM,      /* signed immediate */
  RG_A_CONST,    /* index into K[] */
  RG_A_LOCAL,    /* index into the frame's locals */
  RG_A_JUMP,     /* signed offset to an instruction start of the same procedure */
  RG_A_TABLE,    /* index into the table list */
  RG_A_FIELD,    /* a field offset within a record (checked against H at run time) */
  RG_A_COUNT,    /* a count of operands, at least 1 */
  RG_A_RECORD,   /* index into the record type list */
  RG_A_PROC,     /* index into the procedure list */
  RG_A_NOTE,     /* index into the note list */
  RG_A_EXPECT,   /* index into the expectation list */
  RG_A_STRING,   /* offset into the string pool */
  RG_A_DICE,     /* index into the dice list */
  RG_A_DECK,     /* index into the deck list */
  RG_A_CHOICE,   /* index into the choice list */
  RG_A_INPUT,    /* index into the input list */
  RG_A_ENUM,     /* index into the enum list */
  RG_A_COUNT0,   /* a count of operands, may be 0 */
  RG_A_TYPE      /* index into the type list types[] */
} rgi_operand;

#define RG_OPCODES(X) \
  /* Does nothing. */ \
  X(NOP,      RG_A_NONE,   0, 0, "nothing") \
  /* push sA: a small integer constant. */ \
  X(PUSHI,    RG_A_IMM,    0, 1, "push A") \
  /* push K[A]. */ \
  X(CONST,    RG_A_CONST,  0, 1, "push K[A]") \
  /* push L[A]. */ \
  X(LOAD,     RG_A_LOCAL,  0, 1, "push L[A]") \
  /* L[A] := pop. */ \
  X(STORE,    RG_A_LOCAL,  1, 0, "L[A] := pop") \
  /* Drops the top value. */ \
  X(POP,      RG_A_NONE,   1, 0, "pop") \
  /* Integer arithmetic; overflow and division by zero are runtime errors. */ \
  X(ADD,      RG_A_NONE,   2, 1, "push a + b") \
  X(SUB,      RG_A_NONE,   2, 1, "push a - b") \
  X(MUL,      RG_A_NONE,   2, 1, "push a * b") \
  X(DIV,      RG_A_NONE,   2, 1, "push a / b, rounded toward zero") \
  X(MOD,      RG_A_NONE,   2, 1, "push a mod b, sign of a") \
  X(NEG,      RG_A_NONE,   1, 1, "push -a") \
  X(NOT,      RG_A_NONE,   1, 1, "push !a") \
  X(EQ,       RG_A_NONE,   2, 1, "push a == b") \
  X(NE,       RG_A_NONE,   2, 1, "push a != b") \
  X(LT,       RG_A_NONE,   2, 1, "push a < b") \
  X(LE,       RG_A_NONE,   2, 1, "push a <= b") \
  X(GT,       RG_A_NONE,   2, 1, "push a > b") \
  X(GE,       RG_A_NONE,   2, 1, "push a >= b") \
  /* Control flow. */ \
  X(JMP,      RG_A_JUMP,   0, 0, "pc += A") \
  X(JMPF,     RG_A_JUMP,   1, 0, "if !pop then pc += A") \
  X(JMPT,     RG_A_JUMP,   1, 0, "if pop then pc += A") \
  /* Table lookup: pops one key per dimension of T[A] (last key on top), \
  ** checks each against its dimension, pushes the cell. */ \
  X(LOOKUP,   RG_A_TABLE, -1, 1, "push T[A][keys]") \
  /* Record field: push H[pop + A]. */ \
  X(FIELD,    RG_A_FIELD,  1, 1, "push H[r + A]") \
  /* Sets of enum members are 64-bit masks. */ \
  X(INSET,    RG_A_NONE,   2, 1, "push member a in set b") \
  X(SETADD,   RG_A_NONE,   2, 1, "push set a with member b") \
  X(UNION,    RG_A_NONE,   2, 1, "push a | b") \
  X(INTER,    RG_A_NONE,   2, 1, "push a & b") \
  X(DIFF,     RG_A_NONE,   2, 1, "push a & ~b") \
  /* The members of a set, as a list in declaration order. */ \
  X(SETLIST,  RG_A_NONE,   1, 1, "push the list of members of set a") \
  X(COUNT,    RG_A_NONE,   1, 1, "push the number of members of a") \
  /* Builtins. */ \
  X(MIN,      RG_A_COUNT, -1, 1, "push the least of A values") \
  X(MAX,      RG_A_COUNT, -1, 1, "push the greatest of A values") \
  X(CLAMP,    RG_A_NONE,   3, 1, "push x clamped to lo..hi") \
  X(ABS,      RG_A_NONE,   1, 1, "push |a|") \
  /* Builds a record of type A from its fields (first field deepest). */ \
  X(MKREC,    RG_A_RECORD,-1, 1, "push new record A") \
  /* Calls procedure A with its parameters on the stack (first deepest); \
  ** pushes its result when it has one. */ \
  X(CALL,     RG_A_PROC,  -1,-1, "call P[A]") \
  X(RET,      RG_A_NONE,   1, 0, "return pop") \
  X(RETV,     RG_A_NONE,   0, 0, "return, no value") \
  /* Emits note A with its values (first value deepest). */ \
  X(NOTE,     RG_A_NOTE,  -1, 0, "note N[A]") \
  /* Emits a shape of a picture: N[A]'s text is the shape's kind (canvas, \
  ** rect, line, circle, polygon, label), its values the shape's numbers \
  ** and texts (first deepest). */ \
  X(SHAPE,    RG_A_NOTE,  -1, 0, "shape N[A]") \
  /* Test expectations: a failure is recorded and the test goes on. */ \
  X(EXPECT,   RG_A_EXPECT, 1, 0, "expect pop is true") \
  X(EXPECTEQ, RG_A_EXPECT, 2, 0, "expect a == b") \
  /* Chance.  Every roll, draw and choice is reported to the sink. */ \
  /* Rolls `count` (popped) dice of A sides and pushes their sum. */ \
  X(ROLL,     RG_A_COUNT,  1, 1, "push the sum of pop dA") \
  /* Rolls `count` (popped) dice of A sides and pushes the list of results. */ \
  X(ROLLS,    RG_A_COUNT,  1, 1, "push a list of pop dA") \
  /* Rolls `count` dice of A sides (count deepest, then the threshold k) \
  ** and pushes how many show k or more: a dice pool without a list. */ \
  X(ROLLAT,   RG_A_COUNT,  2, 1, "push how many of n dA show >= k") \
  /* Rolls custom die A and pushes the face. */ \
  X(ROLLDIE,  RG_A_DICE,   0, 1, "push a face of die A") \
  /* Draws a card from deck A, without replacement; empty is an error. */ \
  X(DRAW,     RG_A_DECK,   0, 1, "push a card drawn from deck A") \
  /* Draws `count` (popped) cards from deck A, as DRAW, into a new list. */ \
  X(DRAWS,    RG_A_DECK,   1, 1, "push a list of pop cards drawn from deck A") \
  /* Pushes the number of cards left in deck A. */ \
  X(LEFT,     RG_A_DECK,   0, 1, "push the cards left in deck A") \
  /* Choice site A: pops the options (a set, a list, or lo and hi for a \
  ** range) and the chooser; pushes the option chosen. */ \
  X(CHOOSE,   RG_A_CHOICE, -1, 1, "push the choice of C[A]") \
  /* Marks the start of a named step of the rules (A: its name). */ \
  X(STEP,     RG_A_STRING, 0, 0, "step S[A]") \
  /* Pushes the value of input A (its default unless the run set it). */ \
  X(INPUT,    RG_A_INPUT,  0, 1, "push input A") \
  /* Converts an int to member of enum A; out of range is an error. */ \
  X(NTH,      RG_A_ENUM,   1, 1, "push member pop of enum A") \
  /* Lists on the run heap. */ \
  X(LIST,     RG_A_COUNT0, -1, 1, "push a new list of the A values popped") \
  X(LEN,      RG_A_NONE,   1, 1, "push the length of list a") \
  X(ITEM,     RG_A_NONE,   2, 1, "push element b of list a (from 0)") \
  /* Changes element b of list a to c, in place (not a constant list). */ \
  X(SETITEM,  RG_A_NONE,   3, 0, "list a[b] := c") \
  X(APPEND,   RG_A_NONE,   2, 1, "push list a with b added at the end") \
  X(REMOVE,   RG_A_NONE,   2, 1, "push list a without its element b") \
  X(CONCAT,   RG_A_NONE,   2, 1, "push list a followed by list b") \
  X(ATLEAST,  RG_A_NONE,   2, 1, "push how many elements of list a are >= b") \
  X(SUM,      RG_A_NONE,   1, 1, "push the sum of the elements of list a") \
  X(BEST,     RG_A_NONE,   2, 1, "push the b greatest elements of a, greatest first") \
  X(SORT,     RG_A_NONE,   1, 1, "push list a sorted, least first") \
  X(LISTHAS,  RG_A_NONE,   2, 1, "push whether a occurs in list b") \
  /* Values compared as values (records field by field, lists element by \
  ** element) of the type types[A]: a nesting deeper than 64 is a limit. */ \
  X(EQV,      RG_A_TYPE,   2, 1, "push a == b, values of type types[A]") \
  X(LISTHASV, RG_A_TYPE,   2, 1, "push whether a occurs in list b (elements of types[A])") \
  X(LISTSUB,  RG_A_TYPE,   2, 1, "push list a without one occurrence of each element of b") \
  /* Stops the run with a runtime error; A is a message in the string pool. */ \
  X(FAIL,     RG_A_STRING, 0, 0, "runtime error S[A]") \
  /* Labels the next roll or draw for people who read real dice and cards: \
  ** who (popped) does it, for what: choice site A's prompt (`roll(p, \
  ** "placement die", d6)`).  No event; only a person's question shows it. */ \
  X(LABEL,    RG_A_CHOICE, 1, 0, "label the next chance: pop does it, for C[A]")

typedef enum rgi_opcode {
#define RG_X(name, operand, pops, pushes, doc) RG_OP_##name,
  RG_OPCODES(RG_X)
#undef RG_X
  RG_NOPCODES
} rgi_opcode;

/* Packing and unpacking instructions. */
#define RG_INS(op, a)   ((uint32_t)(op) | ((uint32_t)(a) << 8))
#define RG_INS_OP(i)    ((unsigned)((i) & 0xFFu))
#define RG_INS_A(i)     ((uint32_t)(i) >> 8)
#define RG_INS_SA(i)    ((int32_t)((uint32_t)(i) & 0xFFFFFF00u) >> 8)
#define RG_A_MAX        0xFFFFFFu
#define RG_SA_MIN       (-0x800000)
#define RG_SA_MAX       0x7FFFFF

#endif
