/*
** api_setup.c: rules set up for runs (regula.h: rg_rules_copy,
** rg_rules_set, rg_rules_set_lines, rg_rules_placeholders).
**
** A copy shares the code of the rules it copies and holds what a run is
** given besides its seed: the inputs' values (its own input array, so that
** every run, game, simulation and odds of the copy starts from them) and
** the dice and decks a player set (setup.h parses and keeps them).
*/
#include "regula_front.h"
#include "api_int.h"
#include "diag.h"
#include "json.h"
#include "module.h"
#include "setup.h"

#include <string.h>

rg_status rg_rules_copy(const rg_rules *r, rg_rules **out) {
  rg_rules *c;
  *out = NULL;
  if (!(c = rg_malloc(sizeof *c))) return RG_NOMEM;
  memset(c, 0, sizeof *c);
  c->base = r;
  c->assumed = r->assumed;
  c->src = r->src;
  rg_buf_init(&c->sets);
  c->setup = rg_malloc(sizeof *c->setup);
  c->inputs = rg_malloc(((size_t)r->m.ninputs + 1) * sizeof *c->inputs);
  if (!c->setup || !c->inputs) {
    rg_free(c->setup);
    c->setup = NULL;
    rgi_rules_setup_free(c);
    return RG_NOMEM;
  }
  if (rgi_setup_init(c->setup, &r->m) != 0) {
    rgi_rules_setup_free(c);
    return RG_NOMEM;
  }
  if (r->m.ninputs) memcpy(c->inputs, r->m.inputs, r->m.ninputs * sizeof *c->inputs);
  c->m = *rgi_setup_module(c->setup);
  c->m.inputs = c->inputs;
  *out = c;
  return RG_OK;
}

void rgi_rules_setup_free(rg_rules *r) {
  if (r->setup) rgi_setup_free(r->setup);
  rg_free(r->setup);
  rg_free(r->inputs);
  rg_buf_free(&r->sets);
  rg_free(r);
}

const unsigned char *rgi_rules_set_flags(const rg_rules *r) {
  return r->setup ? r->setup->set : NULL;
}

/* After the setup of copy r changed: r's module takes its dice, decks and
** inputs' values.  Returns st. */
static rg_status refresh(rg_rules *r, rg_status st) {
  const rgi_module *m = rgi_setup_module(r->setup);
  rgi_input *inputs = r->inputs;
  r->m = *m;
  r->m.inputs = inputs;
  for (uint32_t i = 0; i < m->ninputs; i++) inputs[i].value = r->setup->inputs[i];
  return st;
}

/* The status of setup.h's result rc. */
static rg_status status_of(int rc) {
  return rc == 0 ? RG_OK : rc == -2 ? RG_NOMEM : rc == -3 ? RG_NOT_FOUND : RG_BAD_VALUE;
}

/* Stores what err holds (a setup's refusal) as r's message; returns st. */
static rg_status fail_with(rg_rules *r, rg_status st, rg_buf *err) {
  if (st != RG_OK && st != RG_NOMEM) rgi_api_fail(r, st, "%s", err->data ? err->data : "");
  rg_buf_free(err);
  return st;
}

rg_status rg_rules_set(rg_rules *r, const char *text) {
  rg_status st;
  rg_buf err;
  if (!r->base)
    return rgi_api_fail(r, RG_BAD_VALUE, "the rules are not a copy made by rg_rules_copy");
  rg_buf_init(&err);
  st = refresh(r, status_of(rgi_setup_set(r->setup, text, "", &err.out)));
  if (st == RG_OK) {
    rg_printf(&r->sets.out, "%s\n", text);
    if (r->sets.out.failed) st = RG_NOMEM;
  }
  return fail_with(r, st, &err);
}

rg_status rg_rules_set_lines(rg_rules *r, const char *text, size_t len, const char *source) {
  rg_buf err;
  size_t bom = rgi_bom_len(text, len);
  if (!r->base)
    return rgi_api_fail(r, RG_BAD_VALUE, "the rules are not a copy made by rg_rules_copy");
  text += bom;                              /* a file's byte order mark */
  len -= bom;
  rg_buf_init(&err);
  rg_status st = refresh(r, status_of(rgi_setup_lines(r->setup, text, len,
                                                     source ? source : "inputs", &err.out)));
  /* each setting kept for the headers, as rg_rules_set keeps its text
  ** (the lines setup.c reads: trimmed, neither blank nor a # comment) */
  for (size_t pos = 0; st == RG_OK && pos < len;) {
    size_t end = pos, a, b;
    while (end < len && text[end] != '\n') end++;
    for (a = pos; a < end && (text[a] == ' ' || text[a] == '\t'); a++) {}
    for (b = end; b > a && (text[b - 1] == ' ' || text[b - 1] == '\t' || text[b - 1] == '\r');
         b--) {}
    if (b > a && text[a] != '#') {
      rg_printf(&r->sets.out, "%.*s\n", (int)(b - a), text + a);
      if (r->sets.out.failed) st = RG_NOMEM;
    }
    pos = end + 1;
  }
  return fail_with(r, st, &err);
}

int rg_rules_placeholders(const rg_rules *r, const char *proc, int json, rg_out *out) {
  int p = rg_rules_find(r, RG_PROC, proc);
  if (p < 0) return 0;
  if (!json)
    return rgi_placeholders_text(&r->m, (uint32_t)p, rgi_rules_set_flags(r), r->assumed, out);
  json_t *a = rgi_placeholders_json(&r->m, (uint32_t)p, rgi_rules_set_flags(r), r->assumed);
  if (!a) return -1;
  int n = (int)json_array_size(a);
  if (n && rgi_json_put(out, a, 0) != 0) return -1;
  if (!n) json_decref(a);
  return n;
}
