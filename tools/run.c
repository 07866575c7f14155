/*
** run.c: `regula run FILE`, a whole procedure with its dice, decks and
** choices, seeded and reproducible.
**
** The run's events come through the VM's sink and are printed as they
** happen, on stdout, either as a readable log grouped by step:
**
**     run main: seed 1, policy random, dice random
**
**     == Roll-off
**       roll 2d6: 3 + 5 = 8  [skirmish.rules:31]
**       Alpha chooses Standard (which ground?)  [skirmish.rules:42]
**
**     == Summary
**     winner: Bravo
**
** or (--json) as one JSON object a line, keys in a fixed order:
**
**     {"event":"run","proc":"main","seed":1,"policy":"random","dice":"random"}
**     {"event":"step","name":"Roll-off","line":30}
**     {"event":"roll","dice":"2d6","results":[3,5],"total":8,"line":31}
**     {"event":"draw","deck":"bag","card":"RED","left":4,"line":50}
**     {"event":"choice","chooser":"Alpha","prompt":"...","options":[...],"chosen":"...","line":42}
**     {"event":"note","text":"...","values":[...],"line":44}
**     {"event":"expect_fail","text":"...","expected":...,"actual":...,"line":9}
**     {"event":"summary","result":...}
**
** Values in JSON: ints as numbers, bools as booleans, lists as arrays,
** records as objects (fields in declaration order), everything else as its
** display string.  Questions to a person go to stderr, so stdout holds only
** the log.  Nothing here knows a game.
*/
#include "alloc.h"
#include "cli.h"
#include "opcodes.h"
#include "ask.h"
#include "rng.h"
#include "seed.h"
#include "value.h"
#include "vm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

/* Deepest nesting of lists and records written as JSON. */
#define JSON_DEPTH 16

/* What the sink callbacks need during a run. */
typedef struct runner {
  const rg_module *m;
  rg_vm *vm;
  FILE *out;
  int json;                 /* --json */
  int dice_ask;             /* --dice ask */
  rg_policy *pol;           /* answers choices */
  reader *in;               /* stdin, for a person */
  int stopped;              /* a question went unanswered: exit 2 */
  int failed;               /* expectations failed */
  /* The options of the question being asked (see name_option). */
  rg_type opt_type;
  const rg_value *opts;
  const uint32_t *counts;   /* how many of each (dice sides, cards left), or NULL */
  const char *count_word;   /* "side", "left" */
  /* Scratch for --dice ask, sized for the largest die or deck. */
  rg_value *distinct;
  uint32_t *dcount, *dfirst;
  rg_svg *svg;              /* the pictures (--svg ...), or NULL */
} runner;

/* ---- small helpers ----------------------------------------------------------- */

/* Returns the VM's heap and its size (records and lists built by the run). */
static const rg_value *heap_of(const runner *r, uint32_t *n) {
  return rg_vm_heap(r->vm, n);
}

/* Formats v of type t as people read it, into buf. */
static char *fmt(const runner *r, rg_type t, rg_value v, char *buf, size_t size) {
  uint32_t nheap;
  const rg_value *heap = heap_of(r, &nheap);
  return rg_value_format(buf, size, r->m, heap, nheap, t, v);
}

/* Returns the last component of path. */
static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* Returns the rule file line of instruction pc (0 when unknown). */
static uint32_t line_of(const runner *r, uint32_t pc) {
  const char *path;
  uint32_t line = 0, col;
  if (locate(r->m, pc, &path, &line, &col) != 0) return 0;
  return line;
}

/* Ends a log line with the place in the rule file: "  [file.rules:12]". */
static void end_line(const runner *r, uint32_t pc) {
  const char *path;
  uint32_t line, col;
  if (locate(r->m, pc, &path, &line, &col) == 0)
    fprintf(r->out, "  [%s:%u]", base_name(path), line);
  fputc('\n', r->out);
}

/* ---- JSON ---------------------------------------------------------------------- */

/* Writes s as a JSON string: quotes, backslashes and control characters
** escaped, UTF-8 passed through, an invalid byte written as U+FFFD. */
static void json_str(FILE *out, const char *s) {
  const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
  fputc('"', out);
  while (*p) {
    utf8proc_int32_t c;
    utf8proc_ssize_t n = utf8proc_iterate(p, -1, &c);
    if (n <= 0) {
      fputs("\\ufffd", out);
      p++;
      continue;
    }
    if (c == '"') fputs("\\\"", out);
    else if (c == '\\') fputs("\\\\", out);
    else if (c == '\n') fputs("\\n", out);
    else if (c == '\t') fputs("\\t", out);
    else if (c == '\r') fputs("\\r", out);
    else if (c < 0x20 || c == 0x7f) fprintf(out, "\\u%04x", (unsigned)c);
    else fwrite(p, 1, (size_t)n, out);
    p += n;
  }
  fputc('"', out);
}

/* Writes v of type t as a JSON value (see the top of the file). */
static void json_value(const runner *r, rg_type t, rg_value v, int depth) {
  const rg_module *m = r->m;
  uint32_t nheap;
  const rg_value *heap = heap_of(r, &nheap);
  char buf[8192];
  if (t.kind == RG_K_INT) {
    fprintf(r->out, "%lld", (long long)v);
    return;
  }
  if (t.kind == RG_K_BOOL) {
    fputs(v ? "true" : "false", r->out);
    return;
  }
  if (t.kind == RG_K_LIST && depth < JSON_DEPTH && t.ref < m->ntypes && v >= 0 &&
      (uint64_t)v < nheap && heap[v] >= 0 && (uint64_t)heap[v] <= nheap - (uint64_t)v - 1) {
    rg_value n = heap[v];
    fputc('[', r->out);
    for (rg_value k = 0; k < n; k++) {
      if (k) fputc(',', r->out);
      json_value(r, m->types[t.ref], heap[v + 1 + k], depth + 1);
    }
    fputc(']', r->out);
    return;
  }
  if (t.kind == RG_K_RECORD && depth < JSON_DEPTH && t.ref < m->nrecords && v >= 0 &&
      (uint64_t)v + m->records[t.ref].count <= nheap) {
    const rg_record *rec = &m->records[t.ref];
    fputc('{', r->out);
    for (uint32_t k = 0; k < rec->count; k++) {
      const rg_field_info *f = &m->fields[rec->first + k];
      if (k) fputc(',', r->out);
      json_str(r->out, rg_module_str(m, f->name));
      fputc(':', r->out);
      json_value(r, f->type, heap[v + k], depth + 1);
    }
    fputc('}', r->out);
    return;
  }
  json_str(r->out, fmt(r, t, v, buf, sizeof buf));
}

/* Ends a JSON event with its rule file line: `,"line":N}`. */
static void json_end(const runner *r, uint32_t pc) {
  fprintf(r->out, ",\"line\":%u}\n", line_of(r, pc));
}

/* ---- naming options for questions ---------------------------------------------- */

/* question.name: option k of the current question by its display name (alt
** 0) or, for an enum member with a display name, by its code (alt 1). */
static int name_option(void *ctx, uint32_t k, int alt, char *buf, size_t size) {
  runner *r = ctx;
  rg_value v = r->opts[k];
  if (alt == 0) {
    fmt(r, r->opt_type, v, buf, size);
    return 1;
  }
  if (r->opt_type.kind == RG_K_ENUM && r->opt_type.ref < r->m->nenums && v >= 0 &&
      (uint64_t)v < r->m->enums[r->opt_type.ref].count) {
    const rg_member_info *mi = &r->m->members[r->m->enums[r->opt_type.ref].first + (uint32_t)v];
    if (!mi->display) return 0;
    snprintf(buf, size, "%s", rg_module_str(r->m, mi->code));
    return 1;
  }
  return 0;
}

/* question.remark: how many of option k there are ("2 sides", "3 left"). */
static int remark_option(void *ctx, uint32_t k, char *buf, size_t size) {
  runner *r = ctx;
  if (!r->counts) return 0;
  if (strcmp(r->count_word, "side") == 0)
    snprintf(buf, size, "%u side%s", r->counts[k], r->counts[k] == 1 ? "" : "s");
  else snprintf(buf, size, "%u %s", r->counts[k], r->count_word);
  return 1;
}

/* ---- sink callbacks --------------------------------------------------------------- */

/* Sink: a step begins: a heading "== NAME" (after a blank line). */
static void on_step(void *ctx, const rg_module *m, uint32_t name, uint32_t pc) {
  runner *r = ctx;
  if (r->json) {
    fputs("{\"event\":\"step\",\"name\":", r->out);
    json_str(r->out, rg_module_str(m, name));
    json_end(r, pc);
    return;
  }
  fprintf(r->out, "\n== %s\n", rg_module_str(m, name));
}

/* Sink: dice rolled: "roll 2d6: 3 + 5 = 8", "roll 3d6: 2, 6, 1" (a list of
** rolls), "roll RED: hit". */
static void on_roll(void *ctx, const rg_module *m, int32_t die, uint32_t sides,
                    const rg_value *results, uint32_t n, uint32_t pc) {
  runner *r = ctx;
  int is_list = pc < m->ncode && RG_INS_OP(m->code[pc]) == RG_OP_ROLLS;
  char name[256], buf[1024];
  rg_type t = { RG_K_INT, 0 };
  rg_value total = 0;
  if (die >= 0 && (uint32_t)die < m->ndice) {
    snprintf(name, sizeof name, "%s", rg_module_str(m, m->dice[die].name));
    t = m->dice[die].face;
  } else if (n == 1) {
    snprintf(name, sizeof name, "d%u", sides);
  } else {
    snprintf(name, sizeof name, "%ud%u", n, sides);
  }
  for (uint32_t k = 0; k < n; k++) total += results[k];
  if (r->json) {
    fputs("{\"event\":\"roll\",\"dice\":", r->out);
    json_str(r->out, name);
    fputs(",\"results\":[", r->out);
    for (uint32_t k = 0; k < n; k++) {
      if (k) fputc(',', r->out);
      json_value(r, t, results[k], 0);
    }
    fputc(']', r->out);
    if (die < 0 && !is_list) fprintf(r->out, ",\"total\":%lld", (long long)total);
    json_end(r, pc);
    return;
  }
  fprintf(r->out, "  roll %s:", name);
  if (die >= 0) {
    for (uint32_t k = 0; k < n; k++) fprintf(r->out, "%s%s", k ? ", " : " ", fmt(r, t, results[k], buf, sizeof buf));
  } else if (is_list) {
    for (uint32_t k = 0; k < n; k++) fprintf(r->out, "%s%lld", k ? ", " : " ", (long long)results[k]);
    if (n == 0) fputs(" none", r->out);
  } else {
    for (uint32_t k = 0; k < n; k++) fprintf(r->out, "%s%lld", k ? " + " : " ", (long long)results[k]);
    if (n != 1) fprintf(r->out, "%s%lld", n ? " = " : " ", (long long)total);
  }
  end_line(r, pc);
}

/* Sink: a card drawn: "draw bag: RED (4 left)". */
static void on_draw(void *ctx, const rg_module *m, uint32_t deck, rg_value card, uint32_t pc) {
  runner *r = ctx;
  uint32_t left = 0;
  char buf[1024];
  rg_type t = deck < m->ndecks ? m->decks[deck].card : (rg_type){ RG_K_INT, 0 };
  const char *name = deck < m->ndecks ? rg_module_str(m, m->decks[deck].name) : "?";
  rg_vm_deck_left(r->vm, deck, &left);
  if (r->json) {
    fputs("{\"event\":\"draw\",\"deck\":", r->out);
    json_str(r->out, name);
    fputs(",\"card\":", r->out);
    json_value(r, t, card, 0);
    fprintf(r->out, ",\"left\":%u", left);
    json_end(r, pc);
    return;
  }
  fprintf(r->out, "  draw %s: %s (%u left)", name, fmt(r, t, card, buf, sizeof buf), left);
  end_line(r, pc);
}

/* Sink: a choice: the policy picks, then "Alpha chooses Standard (which
** ground?)" is logged.  Returns the index, or -1 (unanswered: exit 2). */
static int64_t on_choose(void *ctx, const rg_module *m, uint32_t choice, rg_value chooser,
                         const rg_value *options, uint32_t n, uint32_t pc) {
  runner *r = ctx;
  const rg_choice *c = &m->choices[choice];
  char who[1024], buf[8192];
  rg_question q = { 0 };
  int64_t k;
  fmt(r, c->chooser, chooser, who, sizeof who);
  r->opt_type = c->option;
  r->opts = options;
  r->counts = NULL;
  q.who = who;
  q.prompt = rg_module_str(m, c->prompt);
  q.n = n;
  q.numeric = c->option.kind == RG_K_INT;
  q.range = c->kind == RG_OPT_RANGE;
  q.lo = options[0];
  q.name = name_option;
  q.ctx = r;
  k = policy_choose(r->pol, &q);
  if (k < 0 || (uint64_t)k >= n) {
    r->stopped = 1;
    return -1;
  }
  if (r->json) {
    fputs("{\"event\":\"choice\",\"chooser\":", r->out);
    json_value(r, c->chooser, chooser, 0);
    fputs(",\"prompt\":", r->out);
    json_str(r->out, q.prompt);
    fputs(",\"options\":[", r->out);
    for (uint32_t i = 0; i < n; i++) {
      if (i) fputc(',', r->out);
      json_value(r, c->option, options[i], 0);
    }
    fputs("],\"chosen\":", r->out);
    json_value(r, c->option, options[k], 0);
    json_end(r, pc);
    return k;
  }
  fprintf(r->out, "  %s chooses %s (%s)", who, fmt(r, c->option, options[k], buf, sizeof buf),
          q.prompt);
  end_line(r, pc);
  return k;
}

/* Sink: a note: "note TEXT: v1, v2" (or "note TEXT" without values). */
static void on_note(void *ctx, const rg_module *m, uint32_t note, const rg_value *vals,
                    uint32_t pc) {
  runner *r = ctx;
  const rg_note_info *ni;
  const char *text;
  char buf[8192];
  if (note >= m->nnotes) return;
  ni = &m->notes[note];
  text = rg_module_str(m, ni->text);
  if (r->json) {
    fputs("{\"event\":\"note\",\"text\":", r->out);
    json_str(r->out, text);
    fputs(",\"values\":[", r->out);
    for (uint32_t i = 0; i < ni->nvals && ni->first_type + i < m->ntypes; i++) {
      if (i) fputc(',', r->out);
      json_value(r, m->types[ni->first_type + i], vals[i], 0);
    }
    fputc(']', r->out);
    json_end(r, pc);
    return;
  }
  fprintf(r->out, "  note %s", text);
  for (uint32_t i = 0; i < ni->nvals && ni->first_type + i < m->ntypes; i++)
    fprintf(r->out, "%s%s", i ? ", " : ": ",
            fmt(r, m->types[ni->first_type + i], vals[i], buf, sizeof buf));
  end_line(r, pc);
}

/* Sink: a failed expect: "FAIL expected X, got Y" or "FAIL expected true:
** TEXT". */
static void on_expect_fail(void *ctx, const rg_module *m, uint32_t expect, rg_value actual,
                           rg_value expected, uint32_t pc) {
  runner *r = ctx;
  char want[4096], got[4096];
  int eq = pc < m->ncode && RG_INS_OP(m->code[pc]) == RG_OP_EXPECTEQ;
  const char *text;
  r->failed++;
  if (expect >= m->nexpects) return;
  text = rg_module_str(m, m->expects[expect].text);
  if (r->json) {
    fputs("{\"event\":\"expect_fail\",\"text\":", r->out);
    json_str(r->out, text);
    if (eq) {
      fputs(",\"expected\":", r->out);
      json_value(r, m->expects[expect].type, expected, 0);
      fputs(",\"actual\":", r->out);
      json_value(r, m->expects[expect].type, actual, 0);
    }
    json_end(r, pc);
    return;
  }
  if (eq)
    fprintf(r->out, "  FAIL expected %s, got %s",
            fmt(r, m->expects[expect].type, expected, want, sizeof want),
            fmt(r, m->expects[expect].type, actual, got, sizeof got));
  else fprintf(r->out, "  FAIL expected true: %s", text);
  end_line(r, pc);
}

/* Sink: a shape of a picture, kept when a picture is asked for (draw.c). */
static void on_shape(void *ctx, const rg_module *m, uint32_t note, const rg_value *vals,
                     uint32_t pc) {
  runner *r = ctx;
  picture_shape(r->svg, r->vm, m, note, vals, pc);
}

/* Sorts vals[0..n) ascending, with their counts and first indexes. */
static void sort_distinct(rg_value *vals, uint32_t *counts, uint32_t *first, uint32_t n) {
  for (uint32_t i = 1; i < n; i++)
    for (uint32_t j = i; j > 0 && vals[j - 1] > vals[j]; j--) {
      rg_value tv = vals[j];
      uint32_t tc = counts[j], tf = first[j];
      vals[j] = vals[j - 1];
      counts[j] = counts[j - 1];
      first[j] = first[j - 1];
      vals[j - 1] = tv;
      counts[j - 1] = tc;
      first[j - 1] = tf;
    }
}

/* Collects the distinct values of vals[0..n) into r's scratch, with how
** many of each and where each first occurs.  Returns how many. */
static uint32_t collect_distinct(runner *r, const rg_value *vals, uint32_t n) {
  uint32_t d = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = 0;
    while (i < d && r->distinct[i] != vals[k]) i++;
    if (i == d) {
      r->distinct[d] = vals[k];
      r->dcount[d] = 0;
      r->dfirst[d] = k;
      d++;
    }
    r->dcount[i]++;
  }
  return d;
}

/* Sink (--dice ask): a person reads a real die or card.  Plain die: "roll
** dN (line L): " and 1..N; custom die: its distinct faces, numbered; deck:
** the distinct cards left, numbered, with how many are left.  Returns the
** outcome's index, or -1 at the end of input (exit 2). */
static int64_t on_chance(void *ctx, const rg_module *m, int what, uint32_t index, uint64_t n,
                         uint32_t pc) {
  runner *r = ctx;
  char prompt[512];
  rg_question q = { 0 };
  int64_t k;
  uint32_t d;
  q.ctx = r;
  q.name = name_option;
  q.remark = remark_option;
  if (what == 'd') {
    snprintf(prompt, sizeof prompt, "roll d%u (line %u)", index, line_of(r, pc));
    q.prompt = prompt;
    q.n = (uint32_t)n;
    q.numeric = q.range = 1;
    q.lo = 1;
    k = ask_person(r->in, &q);
    if (k < 0) r->stopped = 1;
    return k;
  }
  if (what == 'f' && index < m->ndice) {
    const rg_dice *die = &m->dice[index];
    d = collect_distinct(r, m->faces + die->first, die->count);
    r->opt_type = die->face;
    r->count_word = "side";
    snprintf(prompt, sizeof prompt, "roll %s (line %u)", rg_module_str(m, die->name),
             line_of(r, pc));
  } else if (what == 'c' && index < m->ndecks) {
    uint32_t left = 0;
    const rg_value *cards = rg_vm_deck_left(r->vm, index, &left);
    d = collect_distinct(r, cards, left);
    sort_distinct(r->distinct, r->dcount, r->dfirst, d);
    r->opt_type = m->decks[index].card;
    r->count_word = "left";
    snprintf(prompt, sizeof prompt, "draw from %s (line %u)", rg_module_str(m, m->decks[index].name),
             line_of(r, pc));
  } else {
    r->stopped = 1;
    return -1;
  }
  r->opts = r->distinct;
  r->counts = r->dcount;
  q.prompt = prompt;
  q.n = d;
  q.numeric = r->opt_type.kind == RG_K_INT;
  k = ask_person(r->in, &q);
  r->counts = NULL;
  if (k < 0) {
    r->stopped = 1;
    return -1;
  }
  return r->dfirst[k];
}

/* ---- inputs ---------------------------------------------------------------------- */

/* Returns the index of input `name`, or -1. */
static int find_input(const rg_module *m, const char *name) {
  for (uint32_t i = 0; i < m->ninputs; i++)
    if (strcmp(rg_module_str(m, m->inputs[i].name), name) == 0) return (int)i;
  return -1;
}

/* Writes "inputs: NAME: TYPE, ..." (or that there are none) to stderr. */
static void list_inputs(const rg_module *m) {
  char tn[128];
  if (m->ninputs == 0) {
    fputs("the rule set has no inputs\n", stderr);
    return;
  }
  fputs("inputs: ", stderr);
  for (uint32_t i = 0; i < m->ninputs; i++)
    fprintf(stderr, "%s%s: %s", i ? ", " : "", rg_module_str(m, m->inputs[i].name),
            rg_type_name(tn, sizeof tn, m, m->inputs[i].type));
  fputc('\n', stderr);
}

/* Sets input NAME from "NAME=VALUE" (text, changed in place) into vals.
** where says where it was written ("--set", "FILE:LINE").  Returns 0, or
** EX_BAD after saying what is wrong. */
static int apply_input(const rg_module *m, rg_value *vals, char *text, const char *where) {
  char *eq = strchr(text, '='), *name = text, *value, err[1024] = "", tn[128];
  int i;
  rg_value v;
  if (!eq) {
    fprintf(stderr, "regula: error: %s: expected NAME=VALUE, not '%s'\n", where, text);
    return EX_BAD;
  }
  *eq = '\0';
  value = eq + 1;
  while (*name == ' ' || *name == '\t') name++;
  for (char *e = eq; e > name && (e[-1] == ' ' || e[-1] == '\t'); e--) e[-1] = '\0';
  while (*value == ' ' || *value == '\t') value++;
  for (size_t n = strlen(value); n && (value[n - 1] == ' ' || value[n - 1] == '\t'); n--)
    value[n - 1] = '\0';
  i = find_input(m, name);
  if (i < 0) {
    fprintf(stderr, "regula: error: %s: no input '%s'; ", where, name);
    list_inputs(m);
    return EX_BAD;
  }
  if (rg_value_parse(m, m->inputs[i].type, value, &v, err, sizeof err) != 0) {
    fprintf(stderr, "regula: error: %s: input '%s' (%s): %s\n", where, name,
            rg_type_name(tn, sizeof tn, m, m->inputs[i].type), err[0] ? err : "not a valid value");
    return EX_BAD;
  }
  vals[i] = v;
  return 0;
}

/* Reads an inputs file (lines NAME=VALUE; blank lines and # comments
** skipped) into vals.  Returns 0, EX_BAD or EX_RUNTIME. */
static int read_inputs(const rg_module *m, rg_value *vals, const char *path) {
  FILE *f = fopen(path, "r");
  reader rd = { f, NULL, 0 };
  char *line, where[1100];
  unsigned n = 0;
  int rc = 0;
  if (!f) {
    fprintf(stderr, "regula: error: %s: %s\n", path, strerror(errno));
    return EX_BAD;
  }
  while (rc == 0 && reader_line(&rd, &line) == 0) {
    char *s = line;
    n++;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s || *s == '#') continue;
    snprintf(where, sizeof where, "%s:%u", path, n);
    rc = apply_input(m, vals, s, where);
  }
  if (rc == 0 && ferror(f)) {
    fprintf(stderr, "regula: error: %s: cannot read\n", path);
    rc = EX_BAD;
  }
  reader_free(&rd);
  fclose(f);
  return rc;
}

/* ---- the command ------------------------------------------------------------------- */

/* Parses --seed's text (a whole number 0..2^64-1) into *seed; 0 or -1. */
static int parse_seed(const char *s, uint64_t *seed) {
  uint64_t v = 0;
  if (!*s) return -1;
  for (; *s; s++) {
    unsigned dgt;
    if (*s < '0' || *s > '9') return -1;
    dgt = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - dgt) / 10) return -1;
    v = v * 10 + dgt;
  }
  *seed = v;
  return 0;
}

/* Finds the procedure to run (o->proc, default main), which must exist, not
** be a test and take no parameters.  Returns its index, or -1 after saying
** what is wrong. */
static int find_main(const rg_module *m, const char *name) {
  int pi = rg_module_find_proc(m, name);
  if (pi < 0 || is_test_proc(m, (uint32_t)pi)) {
    int n = 0;
    fprintf(stderr, "regula: error: no procedure '%s'; ", name);
    for (uint32_t i = 0; i < m->nprocs; i++) {
      if (is_test_proc(m, i) || m->procs[i].nparams) continue;
      fprintf(stderr, "%s%s", n++ ? ", " : "procedures without parameters: ",
              rg_module_str(m, m->procs[i].name));
    }
    fputs(n ? "\n" : "the rule set has no procedure without parameters\n", stderr);
    return -1;
  }
  if (m->procs[pi].nparams) {
    fprintf(stderr, "regula: error: procedure '%s' takes parameters (", name);
    print_params(m, &m->procs[pi]);
    fputs("); regula run needs one without\n", stderr);
    return -1;
  }
  return pi;
}

/* Runs procedure pi of l with o's options, printing the log; returns the
** exit code. */
static int run(loaded *l, opts *o, int pi, uint64_t seed, int dice_ask) {
  const rg_module *m = &l->m;
  rg_value *vals = NULL, result = 0;
  reader in = { stdin, NULL, 0 };
  rg_policy pol;
  runner r = { .m = m, .out = stdout, .json = o->json, .dice_ask = dice_ask, .pol = &pol,
               .in = &in };
  rg_sink sink = { .ctx = &r, .note = on_note, .expect_fail = on_expect_fail, .step = on_step,
                   .roll = on_roll, .draw = on_draw, .choose = on_choose,
                   .chance = dice_ask ? on_chance : NULL };
  uint32_t most = 1;
  int rc;
  rg_status st;

  rc = policy_open(&pol, o->policy, seed, &in);
  for (uint32_t i = 0; i < m->ndice; i++) if (m->dice[i].count > most) most = m->dice[i].count;
  for (uint32_t i = 0; i < m->ndecks; i++) if (m->decks[i].count > most) most = m->decks[i].count;
  if (rc == 0) {
    vals = rg_malloc((m->ninputs ? m->ninputs : 1) * sizeof *vals);
    r.distinct = rg_malloc(most * sizeof *r.distinct);
    r.dcount = rg_malloc(most * sizeof *r.dcount);
    r.dfirst = rg_malloc(most * sizeof *r.dfirst);
    if (!vals || !r.distinct || !r.dcount || !r.dfirst) {
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
    }
  }
  if (rc == 0) {
    for (uint32_t i = 0; i < m->ninputs; i++) vals[i] = m->inputs[i].value;
    if (o->inputs) rc = read_inputs(m, vals, o->inputs);
    for (int i = 0; rc == 0 && i < o->nsets; i++) {
      size_t len = strlen(o->sets[i]);
      char *copy = rg_malloc(len + 1), where[64];
      if (!copy) {
        fputs("regula: error: out of memory\n", stderr);
        rc = EX_RUNTIME;
        break;
      }
      memcpy(copy, o->sets[i], len + 1);
      snprintf(where, sizeof where, "--set %.50s", o->sets[i]);
      rc = apply_input(m, vals, copy, where);
      rg_free(copy);
    }
  }
  if (rc == 0 && (o->npictures || o->picture)) {
    sink.shape = on_shape;
    if (!(r.svg = rg_svg_new())) {
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
    }
  }
  if (rc == 0 && !(r.vm = rg_vm_new(m, &o->limits, &sink))) {
    fputs("regula: error: out of memory\n", stderr);
    rc = EX_RUNTIME;
  }
  if (rc == 0) {
    const char *name = rg_module_str(m, m->procs[pi].name);
    const char *pname = o->policy ? o->policy : "random";
    rg_seed_run_dice(r.vm, seed);
    for (uint32_t i = 0; i < m->ninputs; i++) rg_vm_set_input(r.vm, i, vals[i]);
    if (r.json) {
      fputs("{\"event\":\"run\",\"proc\":", stdout);
      json_str(stdout, name);
      fprintf(stdout, ",\"seed\":%llu,\"policy\":", (unsigned long long)seed);
      json_str(stdout, pname);
      fprintf(stdout, ",\"dice\":\"%s\"}\n", dice_ask ? "ask" : "random");
    } else {
      printf("run %s: seed %llu, policy %s, dice %s\n", name, (unsigned long long)seed, pname,
             dice_ask ? "ask" : "random");
    }
    st = rg_vm_call(r.vm, (uint32_t)pi, &result, &result);   /* no arguments */
    if (r.stopped) {
      rc = EX_BAD;
    } else if (st != RG_RUN_OK) {
      uint32_t pc = UINT32_MAX;
      const char *msg = rg_vm_error(r.vm, &pc);
      report_runtime(m, msg && *msg ? msg : "the run failed", pc);
      rc = EX_RUNTIME;
    } else {
      rg_type t = m->procs[pi].result;
      uint32_t nheap;
      const rg_value *heap = rg_vm_heap(r.vm, &nheap);
      if (r.json) {
        fputs("{\"event\":\"summary\",\"result\":", stdout);
        if (t.kind == RG_K_VOID) fputs("null", stdout);
        else json_value(&r, t, result, 0);
        fputs("}\n", stdout);
      } else {
        fputs("\n== Summary\n", stdout);
        if (t.kind != RG_K_VOID) print_value(stdout, m, heap, nheap, t, result);
      }
      if (r.failed) rc = EX_FINDINGS;
      if (r.svg) {
        int prc = write_pictures(r.svg, m, o, "run", 0);
        if (prc != EX_OK) rc = prc;
      }
    }
  }
  rg_vm_free(r.vm);
  rg_svg_free(r.svg);
  rg_free(vals);
  rg_free(r.distinct);
  rg_free(r.dcount);
  rg_free(r.dfirst);
  rg_policy_free(&pol);
  reader_free(&in);
  return rc;
}

/* ---- side by side: --variants ----------------------------------------------------- */

/* One rule set of a side-by-side run. */
typedef struct variant {
  const char *path;
  loaded l;
  int loaded_ok;
  int pi;                   /* the procedure run */
  rg_vm *vm;
  uint64_t seed;
  int first;                /* --policy first */
  rg_rng choices;           /* the random policy's generator */
  rg_value result;
} variant;

/* Sink of a variant: every step draws its dice, cards and random choices
** from a stream of the seed named by the step.  Variants that share a step
** name draw the same numbers there, whatever other steps drew before:
** common random numbers, so differences come from the rules, not the luck. */
static void var_step(void *ctx, const rg_module *m, uint32_t name, uint32_t pc) {
  variant *v = ctx;
  uint64_t st = rg_seed_step_stream(rg_module_str(m, name));
  (void)pc;
  rg_seed_step_dice(v->vm, v->seed, st);
  rg_seed_step_choices(&v->choices, v->seed, st);
}

/* Sink of a variant: a choice, by the first or the random policy. */
static int64_t var_choose(void *ctx, const rg_module *m, uint32_t choice, rg_value chooser,
                          const rg_value *options, uint32_t n, uint32_t pc) {
  variant *v = ctx;
  (void)m; (void)choice; (void)chooser; (void)options; (void)pc;
  return v->first ? 0 : (int64_t)rg_rng_below(&v->choices, n);
}

/* Returns the display width of s. */
static size_t text_width(const char *s) {
  size_t len = strlen(s);
  return rg_display_col(s, len, (uint32_t)len + 1) - 1;
}

/* Prints s and pads it with spaces to display width w. */
static void put_padded(const char *s, size_t w) {
  size_t have = text_width(s);
  fputs(s, stdout);
  for (; have < w; have++) fputc(' ', stdout);
}

/* Formats field `field` of variant v's result (or its whole result when
** field is NULL) into buf; "-" when the variant has no such field. */
static const char *var_field(const variant *v, const char *field, char *buf, size_t size) {
  const rg_module *m = &v->l.m;
  rg_type t = m->procs[v->pi].result;
  uint32_t nheap;
  const rg_value *heap = rg_vm_heap(v->vm, &nheap);
  if (!field) return rg_value_format(buf, size, m, heap, nheap, t, v->result);
  if (t.kind == RG_K_RECORD) {
    const rg_record *rec = &m->records[t.ref];
    for (uint32_t k = 0; k < rec->count; k++)
      if (strcmp(rg_module_str(m, m->fields[rec->first + k].name), field) == 0) {
        if (v->result < 0 || (uint64_t)v->result + rec->count > nheap) break;
        return rg_value_format(buf, size, m, heap, nheap, m->fields[rec->first + k].type,
                               heap[v->result + k]);
      }
  }
  snprintf(buf, size, "-");
  return buf;
}

#define VAR_WIDE 30         /* a value wider than this gets lines of its own */

/* Prints the results of the variants side by side: one row per field of
** the result records (matched by name), a column per variant; a row with a
** long value is printed as one line per variant instead. */
static void print_side_by_side(variant *vs, int n) {
  const char *fields[256];
  int nfields = 0;
  size_t namew = 5, colw[64];
  static char buf[8192];
  for (int i = 0; i < n; i++) {
    const rg_module *m = &vs[i].l.m;
    rg_type t = m->procs[vs[i].pi].result;
    if (t.kind != RG_K_RECORD) continue;
    for (uint32_t k = 0; k < m->records[t.ref].count && nfields < 256; k++) {
      const char *f = rg_module_str(m, m->fields[m->records[t.ref].first + k].name);
      int seen = 0;
      for (int j = 0; j < nfields; j++) seen |= strcmp(fields[j], f) == 0;
      if (!seen) fields[nfields++] = f;
    }
  }
  if (!nfields) fields[nfields++] = NULL;
  for (int j = 0; j < nfields; j++)
    if (fields[j] && text_width(fields[j]) > namew) namew = text_width(fields[j]);
  for (int i = 0; i < n; i++) {
    colw[i] = text_width(vs[i].path);
    for (int j = 0; j < nfields; j++) {
      size_t w = text_width(var_field(&vs[i], fields[j], buf, sizeof buf));
      if (w <= VAR_WIDE && w > colw[i]) colw[i] = w;
    }
  }
  put_padded("", namew);
  for (int i = 0; i < n; i++) { fputs("  ", stdout); put_padded(vs[i].path, colw[i]); }
  fputc('\n', stdout);
  for (int j = 0; j < nfields; j++) {
    int wide = 0;
    for (int i = 0; i < n; i++) wide |= text_width(var_field(&vs[i], fields[j], buf, sizeof buf)) > VAR_WIDE;
    put_padded(fields[j] ? fields[j] : "result", namew);
    if (wide) {
      static char first[8192];
      int same = 1;
      var_field(&vs[0], fields[j], first, sizeof first);
      for (int i = 1; i < n; i++) same &= strcmp(first, var_field(&vs[i], fields[j], buf, sizeof buf)) == 0;
      fputc('\n', stdout);
      if (same) printf("    (all): %s\n", first);
      else
        for (int i = 0; i < n; i++)
          printf("    %s: %s\n", vs[i].path, var_field(&vs[i], fields[j], buf, sizeof buf));
      continue;
    }
    for (int i = 0; i < n; i++) {
      fputs("  ", stdout);
      if (i == n - 1) fputs(var_field(&vs[i], fields[j], buf, sizeof buf), stdout);
      else put_padded(var_field(&vs[i], fields[j], buf, sizeof buf), colw[i]);
    }
    fputc('\n', stdout);
  }
}

/* regula run --variants A,B,...: the same procedure of several rule sets on
** common random numbers, printed side by side. */
static int run_variants(opts *o, uint64_t seed) {
  variant vs[64];
  char *list = NULL;
  int n = 0, rc = EX_OK;
  size_t len = strlen(o->variants);
  if (o->npos) return usage_error("run", "give the rule sets with --variants, not also as FILE");
  if (o->policy && strcmp(o->policy, "random") != 0 && strcmp(o->policy, "first") != 0)
    return usage_error("run", "with --variants, --policy is random or first");
  if (o->dice && strcmp(o->dice, "random") != 0)
    return usage_error("run", "with --variants, the dice are random");
  if (o->npictures || o->picture || o->inputs)
    return usage_error("run", "--variants takes no pictures and no --inputs; use --set");
  if (!(list = rg_malloc(len + 1))) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  memcpy(list, o->variants, len + 1);
  memset(vs, 0, sizeof vs);
  for (char *p = list, *comma; p && rc == EX_OK; p = comma ? comma + 1 : NULL) {
    comma = strchr(p, ',');
    if (comma) *comma = '\0';
    if (!*p) continue;
    if (n == 64) { rc = usage_error("run", "at most 64 variants"); break; }
    vs[n].path = p;
    vs[n].seed = seed;
    vs[n].first = o->policy && strcmp(o->policy, "first") == 0;
    rc = load(&vs[n].l, p, 0);
    vs[n].loaded_ok = 1;
    n++;
    if (rc == EX_OK) {
      vs[n - 1].pi = find_main(&vs[n - 1].l.m, o->proc ? o->proc : "main");
      if (vs[n - 1].pi < 0) rc = EX_BAD;
    }
  }
  if (rc == EX_OK && n < 2) rc = usage_error("run", "--variants needs two rule sets or more, A,B");
  /* --set NAME=VALUE applies to every variant that has the input. */
  for (int k = 0; rc == EX_OK && k < o->nsets; k++) {
    int found = 0;
    for (int i = 0; i < n && rc == EX_OK; i++) {
      const rg_module *m = &vs[i].l.m;
      const char *eq = strchr(o->sets[k], '=');
      char name[256];
      size_t nl = eq ? (size_t)(eq - o->sets[k]) : 0;
      if (!eq || nl >= sizeof name) { rc = usage_error("run", "--set needs NAME=VALUE, not '%s'", o->sets[k]); break; }
      memcpy(name, o->sets[k], nl);
      name[nl] = '\0';
      int in = find_input(m, name);
      if (in < 0) continue;
      found = 1;
      {
        rg_value v;
        char err[512];
        if (rg_value_parse(m, m->inputs[in].type, eq + 1, &v, err, sizeof err) != 0) {
          fprintf(stderr, "regula: error: --set %s: %s\n", o->sets[k], err);
          rc = EX_BAD;
        }
      }
    }
    if (rc == EX_OK && !found) rc = usage_error("run", "no variant has an input named in '%s'", o->sets[k]);
  }
  for (int i = 0; rc == EX_OK && i < n; i++) {
    variant *v = &vs[i];
    const rg_module *m = &v->l.m;
    rg_sink sink = { .ctx = v, .step = var_step, .choose = var_choose };
    rg_status st;
    if (!(v->vm = rg_vm_new(m, &o->limits, &sink))) {
      fputs("regula: error: out of memory\n", stderr);
      rc = EX_RUNTIME;
      break;
    }
    rg_seed_step_dice(v->vm, seed, rg_seed_step_stream(""));
    rg_seed_step_choices(&v->choices, seed, rg_seed_step_stream(""));
    for (int k = 0; k < o->nsets; k++) {
      const char *eq = strchr(o->sets[k], '=');
      char name[256];
      size_t nl = (size_t)(eq - o->sets[k]);
      rg_value val;
      char err[512];
      memcpy(name, o->sets[k], nl);
      name[nl] = '\0';
      int in = find_input(m, name);
      if (in >= 0 && rg_value_parse(m, m->inputs[in].type, eq + 1, &val, err, sizeof err) == 0)
        rg_vm_set_input(v->vm, (uint32_t)in, val);
    }
    st = rg_vm_call(v->vm, (uint32_t)v->pi, NULL, &v->result);
    if (st != RG_RUN_OK) {
      uint32_t pc = UINT32_MAX;
      const char *msg = rg_vm_error(v->vm, &pc);
      report_runtime(m, msg && *msg ? msg : "the run failed", pc);
      rc = EX_RUNTIME;
    }
  }
  if (rc == EX_OK) {
    if (o->json) {
      printf("{\"event\":\"variants\",\"seed\":%llu,\"policy\":\"%s\",\"variants\":[",
             (unsigned long long)seed, vs[0].first ? "first" : "random");
      for (int i = 0; i < n; i++) {
        if (i) fputc(',', stdout);
        json_str(stdout, vs[i].path);
      }
      fputs("]}\n", stdout);
      for (int i = 0; i < n; i++) {
        runner r = { .m = &vs[i].l.m, .vm = vs[i].vm, .out = stdout };
        rg_type t = vs[i].l.m.procs[vs[i].pi].result;
        fputs("{\"event\":\"summary\",\"variant\":", stdout);
        json_str(stdout, vs[i].path);
        fputs(",\"result\":", stdout);
        if (t.kind == RG_K_VOID) fputs("null", stdout);
        else json_value(&r, t, vs[i].result, 0);
        fputs("}\n", stdout);
      }
    } else {
      printf("run %s of %d variants: seed %llu, policy %s, common random numbers by step\n\n",
             rg_module_str(&vs[0].l.m, vs[0].l.m.procs[vs[0].pi].name), n,
             (unsigned long long)seed, vs[0].first ? "first" : "random");
      print_side_by_side(vs, n);
    }
  }
  for (int i = 0; i < n; i++) {
    rg_vm_free(vs[i].vm);
    if (vs[i].loaded_ok) unload(&vs[i].l);
  }
  rg_free(list);
  return rc;
}

/* regula run FILE [options]: checks the options, loads FILE and runs. */
int cmd_run(opts *o) {
  loaded l;
  uint64_t seed = 1;
  int dice_ask = 0, rc, pi;
  if (o->seed && parse_seed(o->seed, &seed) != 0)
    return usage_error("run", "--seed needs a whole number from 0 to 18446744073709551615, not '%s'",
                       o->seed);
  if (o->variants) return run_variants(o, seed);
  if (o->npos != 1)
    return usage_error("run", o->npos ? "run takes one rule file" : "no rule file given");
  if (o->dice && strcmp(o->dice, "ask") == 0) dice_ask = 1;
  else if (o->dice && strcmp(o->dice, "random") != 0)
    return usage_error("run", "--dice must be random or ask, not '%s'", o->dice);
  if (o->policy && strcmp(o->policy, "random") != 0 && strcmp(o->policy, "first") != 0 &&
      strcmp(o->policy, "ask") != 0 && !(strncmp(o->policy, "answers:", 8) == 0 && o->policy[8]))
    return usage_error("run", "--policy must be random, first, ask or answers:FILE, not '%s'",
                       o->policy);
  rc = load(&l, o->pos[0], 0);
  if (rc == EX_OK) {
    pi = find_main(&l.m, o->proc ? o->proc : "main");
    rc = pi < 0 ? EX_BAD : run(&l, o, pi, seed, dice_ask);
  }
  unload(&l);
  return rc;
}
