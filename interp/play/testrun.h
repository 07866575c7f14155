/*
** testrun.h: running the `test` blocks of a module.
**
** Each test runs on one VM, reseeded before it as seed.h says (seed 0,
** stream 0: a test rolls the same whatever ran before it); a `choose` takes
** its first option; notes are not reported.  A test fails when an `expect`
** in it fails (each failed expect is one failure) or when it stops with a
** runtime error (one failure, "error: MESSAGE", where it stopped).  The
** results go to the caller's callback, one test at a time, in declaration
** order; the library prints nothing.
*/
#ifndef RG_TESTRUN_H
#define RG_TESTRUN_H

#include <stdint.h>

#include "module.h"
#include "vm.h"

/* One failure of a test. */
typedef struct rgi_test_failure {
  const char *path;         /* the rule file ("?" when the module does not say) */
  uint32_t line;            /* its line (0 when unknown) */
  /* "expected X, got Y" (expect a == b), "expected true: TEXT" (any other
  ** expect) or "error: MESSAGE" (a runtime error) */
  const char *message;
} rgi_test_failure;

/* One test's result, valid during the callback only. */
typedef struct rgi_test_result {
  uint32_t index;           /* the test's index in the module */
  const char *name;         /* its title */
  int passed;               /* 1: no failure */
  uint32_t nfailures;
  const rgi_test_failure *failures;
} rgi_test_result;

typedef void (*rgi_test_fn)(void *ctx, const rgi_test_result *r);

/* Runs every test of m under limits (NULL: the defaults), handing each
** result to fn(ctx, ...) and adding to *passed and *failed.  Returns 0, or
** -1 when out of memory (the tests after it do not run). */
int rgi_test_run(const rgi_module *m, const rgi_limits *limits, rgi_test_fn fn, void *ctx,
                uint32_t *passed, uint32_t *failed);

#endif
