/*
** exitcode.h: the exit codes of every regula command, in one list.
**
** RG_EXIT_CODES(X) holds X(NAME, VALUE, MEANING) for each: it makes the
** enum, and `regula --help` prints the list from it, which the manual page
** (tools/man.sh) and the manual copy.  A command's own help says what each
** code means for it.
*/
#ifndef RG_EXITCODE_H
#define RG_EXITCODE_H

#define RG_EXIT_CODES(X)                                                            \
  X(EX_OK, 0, "success")                                                            \
  X(EX_FINDINGS, 1, "findings: a failed test or expect, a non-empty diff")          \
  X(EX_BAD, 2, "bad input: a rule file, arguments, a bytecode file, answers")       \
  X(EX_RUNTIME, 3, "a runtime failure: a limit reached, out of memory, I/O")

enum {
#define X(name, value, meaning) name = value,
  RG_EXIT_CODES(X)
#undef X
};

/* Returns the worse of two exit codes (the larger). */
static inline int ex_worst(int a, int b) {
  return a > b ? a : b;
}

#endif
