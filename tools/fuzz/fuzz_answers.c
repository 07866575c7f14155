/*
** fuzz_answers.c: the answers-file reader of `regula run --policy
** answers:FILE` (tools/policy.c) on arbitrary bytes.
**
** The input is written to answers.txt and opened as a policy; then it
** answers questions of every kind in turn (named options with codes and
** display names, Unicode among them; numbers; a range; a single option)
** until it runs out or gives a bad answer.  Its messages go to /dev/null.
*/
#include "fuzz.h"

#include "cli.h"
#include "policy.h"

#include <stdarg.h>
#include <stdlib.h>

/* policy.c reports a bad --policy through the CLI's usage_error. */
int usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(fuzz_devnull(), fmt, ap);
  va_end(ap);
  return EX_BAD;
}

static const char *const names[] = {"Standard", "Coastal", "Désert", "Forêt", "ＷＩＤＥ", "ǅungle"};
static const char *const codes[] = {"S", "C", "D", "F", "W", "J"};
static const char *const numbers[] = {"2", "4", "-6", "9223372036854775807"};

static int name_of(void *ctx, uint32_t k, int alt, char *buf, size_t size) {
  const char *const *opts = ctx;
  if (alt) {
    if (opts != names) return 0;
    snprintf(buf, size, "%s", codes[k]);
    return 1;
  }
  snprintf(buf, size, "%s", opts[k]);
  return 1;
}

static int remark_of(void *ctx, uint32_t k, char *buf, size_t size) {
  snprintf(buf, size, "%u left", k);
  return k & 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const question qs[] = {
    {"player A", "which ground?", 6, 0, 0, 0, name_of, remark_of, (void *)names},
    {NULL, "how many?", 4, 1, 0, 0, name_of, NULL, (void *)numbers},
    {"player B", "a score", 7, 1, 1, -3, NULL, NULL, NULL},
    {"", "only one", 1, 0, 0, 0, name_of, NULL, (void *)codes},
    {"player A", "huge range", 4000000000u, 1, 1, -2000000000, NULL, NULL, NULL},
  };
  char spec[600];
  policy p;
  FILE *saved = stderr;
  snprintf(spec, sizeof spec, "answers:%s", fuzz_write("answers.txt", data, size));
  stderr = fuzz_devnull();
  if (policy_open(&p, spec, 1, NULL) == 0) {
    for (unsigned i = 0; i < 256; i++) {
      const question *q = &qs[i % (sizeof qs / sizeof *qs)];
      int64_t k = policy_choose(&p, q);
      if (k < 0) break;
      if ((uint64_t)k >= q->n) abort();      /* an answer outside the options */
    }
  }
  policy_close(&p);
  stderr = saved;
  return 0;
}
