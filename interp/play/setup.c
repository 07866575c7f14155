/*
** setup.c: inputs and placeholder data of a run (see setup.h).
*/
#include "setup.h"

#include "regula_front.h"
#include "opcodes.h"
#include "value.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SIDES 1000000u   /* most faces of a die or cards of a deck set */
#define MAX_SET (4 * MAX_SIDES)   /* most faces and cards set in all (a die set
                                  ** again keeps its old faces: bounded memory) */

int rgi_setup_init(rgi_setup *s, const rgi_module *m) {
  memset(s, 0, sizeof *s);
  s->base = m;
  s->m = *m;
  s->inputs = rg_malloc(((size_t)m->ninputs + 1) * sizeof *s->inputs);
  s->set = rg_malloc((size_t)m->ndice + m->ndecks + 1);
  if (!s->inputs || !s->set) return -1;
  for (uint32_t i = 0; i < m->ninputs; i++) s->inputs[i] = m->inputs[i].value;
  memset(s->set, 0, (size_t)m->ndice + m->ndecks + 1);
  return 0;
}

void rgi_setup_free(rgi_setup *s) {
  rg_free(s->inputs);
  rg_free(s->set);
  rg_free(s->dice);
  rg_free(s->faces);
  rg_free(s->decks);
  rg_free(s->cards);
  memset(s, 0, sizeof *s);
}

const rgi_module *rgi_setup_module(const rgi_setup *s) {
  return &s->m;
}

/* Returns s without the spaces and tabs around it (cut in place). */
static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  for (size_t n = strlen(s); n && (s[n - 1] == ' ' || s[n - 1] == '\t'); n--) s[n - 1] = '\0';
  return s;
}

/* Writes "inputs: NAME: TYPE, ..." (or that there are none), then the dice
** and decks that may be set, to err. */
static void list_names(const rgi_module *m, rg_out *err) {
  char tn[128];
  if (m->ninputs == 0) {
    rg_puts(err, "the rule set has no inputs");
  } else {
    rg_puts(err, "inputs: ");
    for (uint32_t i = 0; i < m->ninputs; i++)
      rg_printf(err, "%s%s: %s", i ? ", " : "", rgi_module_str(m, m->inputs[i].name),
                rgi_type_name(tn, sizeof tn, m, m->inputs[i].type));
  }
  if (m->ndice + m->ndecks) {
    rg_puts(err, "; dice and decks: ");
    for (uint32_t d = 0; d < m->ndice; d++)
      rg_printf(err, "%s%s", d ? ", " : "", rgi_module_str(m, m->dice[d].name));
    for (uint32_t d = 0; d < m->ndecks; d++)
      rg_printf(err, "%s%s", d || m->ndice ? ", " : "", rgi_module_str(m, m->decks[d].name));
  }
}

/* Gives s arrays of its own for dice, faces, decks and cards (once).
** Returns 0 or -1. */
static int own_arrays(rgi_setup *s) {
  const rgi_module *b = s->base;
  if (s->dice) return 0;
  s->dice = rg_malloc(((size_t)b->ndice + 1) * sizeof *s->dice);
  s->faces = rg_malloc(((size_t)b->nfaces + 1) * sizeof *s->faces);
  s->decks = rg_malloc(((size_t)b->ndecks + 1) * sizeof *s->decks);
  s->cards = rg_malloc(((size_t)b->ncards + 1) * sizeof *s->cards);
  if (!s->dice || !s->faces || !s->decks || !s->cards) return -1;
  if (b->ndice) memcpy(s->dice, b->dice, b->ndice * sizeof *s->dice);
  if (b->nfaces) memcpy(s->faces, b->faces, b->nfaces * sizeof *s->faces);
  if (b->ndecks) memcpy(s->decks, b->decks, b->ndecks * sizeof *s->decks);
  if (b->ncards) memcpy(s->cards, b->cards, b->ncards * sizeof *s->cards);
  s->m.dice = s->dice;
  s->m.faces = s->faces;
  s->m.decks = s->decks;
  s->m.cards = s->cards;
  return 0;
}

/* Parses value, "FACE:COUNT" or "FACE" joined by commas, as the faces of a
** die (or the cards of a deck) of type t, appending them to *arr (of *n
** values; grown).  Returns the count, 0 after writing what is wrong, or
** -1 when out of memory. */
static int64_t parse_sides(const rgi_module *m, rgi_type t, char *value, rgi_value **arr,
                           uint32_t *n, const char *where, const char *name, rg_out *err) {
  uint64_t total = 0;
  char msg[512], *save = NULL;
  for (char *tok = strtok_r(value, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *colon = strrchr(tok, ':'), *face = tok;
    uint64_t count = 1;
    rgi_value v;
    if (colon) {
      char *c = trim(colon + 1), *end = NULL;
      *colon = '\0';
      count = strtoull(c, &end, 10);
      if (!*c || *c == '-' || *end || count > MAX_SIDES) {
        rg_printf(err, "%s%s%s: '%s' is not a count (0..%u)", where, *where ? ": " : "", name, c, MAX_SIDES);
        return 0;
      }
    }
    face = trim(face);
    if (rgi_value_parse(m, t, face, &v, msg, sizeof msg) != 0) {
      rg_printf(err, "%s%s%s: %s", where, *where ? ": " : "", name, msg[0] ? msg : "not a valid value");
      return 0;
    }
    total += count;
    if (total > MAX_SIDES) {
      rg_printf(err, "%s%s%s: more than %u in all", where, *where ? ": " : "", name, MAX_SIDES);
      return 0;
    }
    if (*n + (uint64_t)count > MAX_SET) {
      rg_printf(err, "%s%s%s: more than %u faces and cards set in all", where, *where ? ": " : "", name, MAX_SET);
      return 0;
    }
    rgi_value *na = rg_realloc(*arr, ((size_t)*n + count + 1) * sizeof *na);
    if (!na) return -1;
    *arr = na;
    for (uint64_t k = 0; k < count; k++) na[(*n)++] = v;
  }
  if (total == 0) {
    rg_printf(err, "%s%s%s: give at least one (FACE:COUNT, ...)", where, *where ? ": " : "", name);
    return 0;
  }
  return (int64_t)total;
}

int rgi_setup_set(rgi_setup *s, const char *text, const char *where, rg_out *err) {
  const rgi_module *m = s->base;
  size_t len = strlen(text);
  char *copy = rg_malloc(len + 1), msg[1024] = "", tn[128];
  int rc = 0;
  if (!copy) return -2;
  memcpy(copy, text, len + 1);
  char *eq = strchr(copy, '=');
  if (!eq) {
    rg_printf(err, "%s%sexpected NAME=VALUE, not '%s'", where, *where ? ": " : "", text);
    rg_free(copy);
    return -1;
  }
  *eq = '\0';
  char *name = trim(copy), *value = trim(eq + 1);
  for (uint32_t i = 0; i < m->ninputs; i++) {
    if (strcmp(rgi_module_str(m, m->inputs[i].name), name) != 0) continue;
    rgi_value v;
    if (rgi_value_parse(m, m->inputs[i].type, value, &v, msg, sizeof msg) != 0) {
      rg_printf(err, "%s%sinput '%s' (%s): %s", where, *where ? ": " : "", name,
                rgi_type_name(tn, sizeof tn, m, m->inputs[i].type), msg[0] ? msg : "not a valid value");
      rc = -1;
    } else {
      s->inputs[i] = v;
    }
    rg_free(copy);
    return rc;
  }
  for (uint32_t d = 0; d < m->ndice + m->ndecks; d++) {
    int die = d < m->ndice;
    uint32_t k = die ? d : d - m->ndice;
    if (strcmp(rgi_module_str(m, die ? m->dice[k].name : m->decks[k].name), name) != 0) continue;
    if (own_arrays(s) != 0) {
      rg_free(copy);
      return -2;
    }
    int64_t n = die ? parse_sides(m, m->dice[k].face, value, &s->faces, &s->m.nfaces, where, name, err)
                    : parse_sides(m, m->decks[k].card, value, &s->cards, &s->m.ncards, where, name, err);
    rg_free(copy);
    s->m.faces = s->faces;   /* grown even when the text is refused */
    s->m.cards = s->cards;
    if (n <= 0) return n < 0 ? -2 : -1;
    if (die) {
      s->dice[k].first = s->m.nfaces - (uint32_t)n;
      s->dice[k].count = (uint32_t)n;
    } else {
      s->decks[k].first = s->m.ncards - (uint32_t)n;
      s->decks[k].count = (uint32_t)n;
    }
    s->set[d] = 1;
    return 0;
  }
  rg_printf(err, "%s%sno input '%s'; ", where, *where ? ": " : "", name);
  list_names(m, err);
  rg_free(copy);
  return -3;
}

int rgi_setup_lines(rgi_setup *s, const char *text, size_t len, const char *source,
                   rg_out *err) {
  size_t pos = 0;
  unsigned line = 0;
  while (pos < len) {
    size_t end = pos;
    while (end < len && text[end] != '\n') end++;
    line++;
    size_t n = end - pos;
    char *l = rg_malloc(n + 1), where[1100];
    if (!l) return -2;
    memcpy(l, text + pos, n);
    l[n] = '\0';
    if (n && l[n - 1] == '\r') l[n - 1] = '\0';
    char *t = trim(l);
    int rc = 0;
    if (*t && *t != '#') {
      snprintf(where, sizeof where, "%s:%u", source, line);
      rc = rgi_setup_set(s, t, where, err);
    }
    rg_free(l);
    if (rc) return rc;
    pos = end + 1;
  }
  return 0;
}

/* Marks in used[] the dice (0..ndice) and decks (ndice..) that procedure p
** and the procedures it calls may roll or draw; seen[] marks procedures
** visited.  Iterative over a stack of procedures. */
static int chance_used(const rgi_module *m, uint32_t p, unsigned char *used) {
  unsigned char *seen = rg_malloc((size_t)m->nprocs + 1);
  uint32_t *stack = rg_malloc(((size_t)m->nprocs + 1) * sizeof *stack), top = 0;
  if (!seen || !stack) {
    rg_free(seen);
    rg_free(stack);
    return -1;
  }
  memset(seen, 0, (size_t)m->nprocs + 1);
  seen[p] = 1;
  stack[top++] = p;
  while (top) {
    const rgi_proc *pr = &m->procs[stack[--top]];
    for (uint32_t i = pr->code; i < pr->code + pr->ncode; i++) {
      uint32_t a = RG_INS_A(m->code[i]);
      switch (RG_INS_OP(m->code[i])) {
      case RG_OP_CALL:
        if (a < m->nprocs && !seen[a]) {
          seen[a] = 1;
          stack[top++] = a;
        }
        break;
      case RG_OP_ROLLDIE:
        if (a < m->ndice) used[a] = 1;
        break;
      case RG_OP_DRAW: case RG_OP_DRAWS: case RG_OP_LEFT:
        if (a < m->ndecks) used[m->ndice + a] = 1;
        break;
      default:
        break;
      }
    }
  }
  rg_free(seen);
  rg_free(stack);
  return 0;
}

/* Returns 1 when notes hold an assumption on `what` ("dice RED"). */
static int assumed(const rgi_assumption *notes, const char *kind, const char *name) {
  size_t kl = strlen(kind);
  for (const rgi_assumption *a = notes; a; a = a->next)
    if (a->what && strncmp(a->what, kind, kl) == 0 && a->what[kl] == ' ' &&
        strcmp(a->what + kl + 1, name) == 0)
      return 1;
  return 0;
}

/* Calls fn(ctx, kind, name, given) for each placeholder procedure proc
** rests on (see rgi_setup_placeholders).  Returns how many, or -1 when out
** of memory. */
static int each_placeholder(const rgi_module *m, const unsigned char *set,
                            const unsigned char *flags, uint32_t proc,
                            int (*fn)(void *ctx, const char *kind, const char *name,
                                      const char *given), void *ctx) {
  uint32_t n = m->ndice + m->ndecks;
  unsigned char *used = rg_malloc((size_t)n + 1);
  int count = 0;
  if (!used) return -1;
  memset(used, 0, (size_t)n + 1);
  if (proc >= m->nprocs || chance_used(m, proc, used) != 0) {
    rg_free(used);
    return proc >= m->nprocs ? 0 : -1;
  }
  for (uint32_t d = 0; d < n && count >= 0; d++) {
    int die = d < m->ndice;
    const char *kind = die ? "dice" : "deck";
    const char *name = rgi_module_str(m, die ? m->dice[d].name : m->decks[d - m->ndice].name);
    int is_set = set && set[d];
    if (!used[d] || !(is_set || (flags && flags[d]))) continue;
    count = fn(ctx, kind, name, is_set ? "set" : "assumed") != 0 ? -1 : count + 1;
  }
  rg_free(used);
  return count;
}

/* each_placeholder's fn for text: "KIND NAME (GIVEN)", joined by ", ". */
static int put_text(void *ctx, const char *kind, const char *name, const char *given) {
  rg_out **o = ctx;
  rg_printf(o[0], "%s%s %s (%s)", o[1] ? ", " : "", kind, name, given);
  o[1] = o[0];   /* not the first any more */
  return 0;
}

/* each_placeholder's fn for JSON: appends an object to the array ctx. */
static int put_json(void *ctx, const char *kind, const char *name, const char *given) {
  json_t *o = json_pack("{s:s,s:o,s:s}", "kind", kind, "name", rgi_json_text(name), "given",
                        given);
  return !o || json_array_append_new(ctx, o) != 0 ? -1 : 0;
}

unsigned char *rgi_placeholder_flags(const rgi_module *m, const rgi_assumption *notes) {
  uint32_t n = m->ndice + m->ndecks;
  unsigned char *f = rg_malloc((size_t)n + 1);
  if (!f) return NULL;
  for (uint32_t d = 0; d < n; d++) {
    int die = d < m->ndice;
    f[d] = (unsigned char)assumed(notes, die ? "dice" : "deck",
                                  rgi_module_str(m, die ? m->dice[d].name
                                                       : m->decks[d - m->ndice].name));
  }
  return f;
}

int rgi_placeholders_text(const rgi_module *m, uint32_t proc, const unsigned char *set,
                         const unsigned char *flags, rg_out *out) {
  rg_out *o[2] = { out, NULL };
  int n = each_placeholder(m, set, flags, proc, put_text, o);
  return n < 0 || out->failed ? -1 : n;
}

json_t *rgi_placeholders_json(const rgi_module *m, uint32_t proc, const unsigned char *set,
                             const unsigned char *flags) {
  json_t *a = json_array();
  if (a && each_placeholder(m, set, flags, proc, put_json, a) < 0) {
    json_decref(a);
    a = NULL;
  }
  return a;
}

int rgi_setup_placeholders(const rgi_setup *s, uint32_t proc, const rgi_assumption *notes,
                          rg_out *out) {
  unsigned char *flags = rgi_placeholder_flags(s->base, notes);
  int n = flags ? rgi_placeholders_text(s->base, proc, s->set, flags, out) : -1;
  rg_free(flags);
  return n;
}

