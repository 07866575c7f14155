/*
** fuzz_setup.c: rules set up for runs (regula.h: rgi_rules_with,
** rg_rules_set_lines, rg_rules_set), what `regula run --inputs FILE` and
** `--set NAME=VALUE` hand the library, on arbitrary bytes.
**
** The input is an inputs file: lines NAME=VALUE setting inputs of every
** kind (an enum, a set, a percent, a distance, an int), dice faces and deck
** cards (FACE:COUNT, ...).  A copy of fixed rules is set up from it; when
** it is accepted, its last line is set again alone (rg_rules_set), then a
** run rolls and draws with what was set (its log written), the
** placeholders are written, a short simulation is made and the exact odds
** of one roll are worked out.  A refused input must say why.  The library
** prints nothing.
*/
#include "fuzz.h"

#include "regula_front.h"

#include <stdlib.h>
#include <string.h>

static const char rules[] =
  "ruleset \"setup\"\n"
  "unit BW \"base widths\"\n"
  "enum face { hit \"Hit\", miss, blank \"Blänk\" }\n"
  "enum ground { S \"Standard\", C \"Coastal\", F \"Forêt\" }\n"
  "dice D: face = { hit: 2, miss: 2, blank: 2 } assumed \"not printed\"\n"
  "deck bag: ground = { S: 3, C: 2, F: 1 }\n"
  "input rating: ground = S\n"
  "input grounds: set ground = {S, C}\n"
  "input share: percent = 50%\n"
  "input width: distance = 12BW\n"
  "input n: int = 2\n"
  "record out { die: face, card: ground, n: int, has: bool }\n"
  "procedure main() -> out {\n"
  "  let d = roll D\n"
  "  let c = draw bag\n"
  "  note \"drawn\", c, left(bag)\n"
  "  return { die: d, card: c, n: n, has: rating in grounds }\n"
  "}\n"
  "procedure die() -> face { return roll D }\n";

/* The fixed rules, compiled once (the harness's own state, not the
** library's). */
static rg_rules *base(void) {
  static rg_rules *r;
  if (!r && rg_rules_compile("setup.rules", rules, sizeof rules - 1, NULL, &r) != RG_OK) abort();
  return r;
}

/* Runs what can be run on the copy c; any status is fine but a crash. */
static void use(rg_rules *c) {
  rg_run_options ro = { .size = sizeof ro, .seed = 7,
                        .limits = { .max_steps = 10000, .max_memory = 1 << 20 } };
  rg_sims_options so = { .size = sizeof so, .seed = 3,
                         .limits = { .max_steps = 10000, .max_memory = 1 << 20 } };
  rg_exact_options xo = { .size = sizeof xo, .proc = "die", .limit = 1000 };
  rg_run *run = NULL;
  rg_sims *s = NULL;
  rg_exact *x = NULL;
  if (rg_run_new(c, &ro, &run) == RG_OK) {
    rg_run_log(run, fuzz_null_out(), 0, NULL, NULL);
    if (rg_run_call(run, "main", NULL, 0) == RG_OK) rg_run_result_write(run, fuzz_null_out());
  }
  rg_run_free(run);
  rg_rules_placeholders(c, "main", 0, fuzz_null_out());
  rg_rules_placeholders(c, "main", 1, fuzz_null_out());
  if (rg_sims_new(c, &so, &s) == RG_OK && rg_sims_run(s, 20) == RG_OK)
    rg_sims_write(s, fuzz_null_out());
  rg_sims_free(s);
  if (rg_exact_new(c, &xo, &x) == RG_OK && rg_exact_run(x) == RG_OK)
    rg_exact_json(x, fuzz_null_out());
  rg_exact_free(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rg_rules *c = NULL;
  rg_status st;
  if (rg_rules_copy(base(), &c) != RG_OK) return 0;
  st = rg_rules_set_lines(c, (const char *)data, size, "inputs.txt");
  if (st != RG_OK && st != RG_NOMEM && !*rg_rules_errmsg(c)) abort();   /* a refusal must say why */
  if (st == RG_OK) {
    /* the last line again, alone, as --set gives it */
    size_t end = size, start;
    while (end && (data[end - 1] == '\n' || data[end - 1] == '\r')) end--;
    for (start = end; start && data[start - 1] != '\n'; start--) {}
    char *line = malloc(end - start + 1);
    if (line) {
      memcpy(line, data + start, end - start);
      line[end - start] = '\0';
      if (!memchr(line, '\0', end - start) && strchr(line, '=') && line[0] != '#')
        rg_rules_set(c, line);
      free(line);
    }
    use(c);
  }
  rg_rules_free(c);
  return 0;
}
