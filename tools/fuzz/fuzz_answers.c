/*
** fuzz_answers.c: the answers reader of the library's policies
** (interp/play/policy.c, what `regula run --policy answers:FILE` uses) on
** arbitrary bytes.
**
** The input is handed to rgi_policy_answers from memory; then the policy
** answers questions of every kind in turn (named options with codes and
** display names, Unicode among them; numbers; a range; a single option)
** until it runs out or gives a bad answer.  The library prints nothing.
*/
#include "fuzz.h"

#include "policy.h"

#include <stdlib.h>

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
  const rgi_question qs[] = {
    {.who = "player A", .prompt = "which ground?", .n = 6, .name = name_of, .remark = remark_of,
     .ctx = (void *)names},
    {.prompt = "how many?", .n = 4, .numeric = 1, .name = name_of, .ctx = (void *)numbers},
    {.who = "player B", .prompt = "a score", .n = 7, .numeric = 1, .range = 1, .lo = -3},
    {.who = "", .prompt = "only one", .n = 1, .name = name_of, .ctx = (void *)codes},
    {.who = "player A", .prompt = "huge range", .n = 4000000000u, .numeric = 1, .range = 1,
     .lo = -2000000000},
    {.prompt = "3d6", .n = 216, .numeric = 1, .range = 1, .lo = 1, .dice = 3, .sides = 6},
  };
  rgi_policy p;
  if (rgi_policy_answers(&p, "answers.txt", (const char *)data, size) == 0) {
    for (unsigned i = 0; i < 256; i++) {
      const rgi_question *q = &qs[i % (sizeof qs / sizeof *qs)];
      int64_t k = rgi_policy_choose(&p, q);
      if (k < 0) {
        if (!*rgi_policy_error(&p)) abort();   /* a stop must say why */
        break;
      }
      if ((uint64_t)k >= q->n) abort();      /* an answer outside the options */
    }
  }
  rgi_policy_free(&p);
  return 0;
}
