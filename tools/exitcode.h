/*
** exitcode.h: the exit codes of every regula command (README, "Exit").
*/
#ifndef RG_EXITCODE_H
#define RG_EXITCODE_H

enum {
  EX_OK = 0,          /* success */
  EX_FINDINGS = 1,    /* a failed test or expectation */
  EX_BAD = 2,         /* bad input: rule file, arguments, bytecode, answers */
  EX_RUNTIME = 3      /* a runtime failure: limit, out of memory, I/O */
};

/* Returns the worse of two exit codes (the larger). */
static inline int ex_worst(int a, int b) {
  return a > b ? a : b;
}

#endif
