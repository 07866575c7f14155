/*
** evlog.c: the event log of a run, text or JSON (see evlog.h).
*/
#include "evlog.h"

#include "opcodes.h"
#include "value.h"

#include <stdio.h>
#include <string.h>
#include <utf8proc.h>

/* Deepest nesting of lists and records written as JSON. */
#define JSON_DEPTH 16

/* ---- small helpers ----------------------------------------------------------- */

rg_type rg_log_dice_name(const rg_module *m, int32_t die, uint32_t sides, uint32_t n,
                         char *buf, size_t size) {
  rg_type t = { RG_K_INT, 0 };
  if (die >= 0 && (uint32_t)die < m->ndice) {
    snprintf(buf, size, "%s", rg_module_str(m, m->dice[die].name));
    t = m->dice[die].face;
  } else if (n == 1) {
    snprintf(buf, size, "d%u", sides);
  } else {
    snprintf(buf, size, "%ud%u", n, sides);
  }
  return t;
}

int rg_log_locate(const rg_module *m, uint32_t pc, const char **path, uint32_t *line,
                  uint32_t *col) {
  const rg_line *ln;
  if (pc >= m->nlines) return -1;
  ln = &m->lines[pc];
  *path = ln->file < m->nfiles ? rg_module_str(m, m->files[ln->file]) : "?";
  *line = ln->line;
  *col = ln->col;
  return 0;
}

/* Returns the heap values are read from (the run's, or the module's before
** there is a VM) and its size in *n. */
static const rg_value *heap_of(const rg_log *lg, uint32_t *n) {
  if (lg->vm) return rg_vm_heap(lg->vm, n);
  *n = lg->m->nheap;
  return lg->m->heap;
}

/* Formats v of type t as people read it, into buf. */
static char *fmt(const rg_log *lg, rg_type t, rg_value v, char *buf, size_t size) {
  uint32_t nheap;
  const rg_value *heap = heap_of(lg, &nheap);
  return rg_value_format(buf, size, lg->m, heap, nheap, t, v);
}

/* Writes v of type t as JSON, values read from the run's heap. */
static void json_value(const rg_log *lg, rg_type t, rg_value v) {
  uint32_t nheap;
  const rg_value *heap = heap_of(lg, &nheap);
  rg_log_json_value(lg->out, lg->m, heap, nheap, t, v);
}

/* Returns the last component of path. */
static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* Ends a text line with the place in the rule file: "  [file.rules:12]". */
static void end_line(const rg_log *lg, uint32_t pc) {
  const char *path;
  uint32_t line, col;
  if (rg_log_locate(lg->m, pc, &path, &line, &col) == 0)
    rg_printf(lg->out, "  [%s:%u]", base_name(path), line);
  rg_putc(lg->out, '\n');
}

/* Ends a JSON event with its rule file line: `,"line":N}`. */
static void json_end(const rg_log *lg, uint32_t pc) {
  const char *path;
  uint32_t line = 0, col;
  if (rg_log_locate(lg->m, pc, &path, &line, &col) != 0) line = 0;
  rg_printf(lg->out, ",\"line\":%u}\n", line);
}

/* ---- JSON ---------------------------------------------------------------------- */

void rg_log_json_str(rg_out *o, const char *s) {
  const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
  rg_putc(o, '"');
  while (*p) {
    utf8proc_int32_t c;
    utf8proc_ssize_t n = utf8proc_iterate(p, -1, &c);
    if (n <= 0) {
      rg_puts(o, "\\ufffd");
      p++;
      continue;
    }
    if (c == '"') rg_puts(o, "\\\"");
    else if (c == '\\') rg_puts(o, "\\\\");
    else if (c == '\n') rg_puts(o, "\\n");
    else if (c == '\t') rg_puts(o, "\\t");
    else if (c == '\r') rg_puts(o, "\\r");
    else if (c < 0x20 || c == 0x7f) rg_printf(o, "\\u%04x", (unsigned)c);
    else rg_write(o, (const char *)p, (size_t)n);
    p += n;
  }
  rg_putc(o, '"');
}

/* rg_log_json_value at nesting depth `depth`, with *left values still
** allowed (RG_PRINT_MAX_VALUES for one value): past it a value is the
** string "...", and the lists and records around it stop. */
static void json_at(rg_out *o, const rg_module *m, const rg_value *heap, uint32_t nheap,
                    rg_type t, rg_value v, int depth, long *left) {
  char buf[8192];
  if (*left <= 0 || --*left == 0) {
    if (*left == 0) { rg_puts(o, "\"...\""); *left = -1; }
    return;
  }
  if (t.kind == RG_K_INT) {
    rg_printf(o, "%lld", (long long)v);
    return;
  }
  if (t.kind == RG_K_BOOL) {
    rg_puts(o, v ? "true" : "false");
    return;
  }
  if (t.kind == RG_K_LIST && depth < JSON_DEPTH && t.ref < m->ntypes && v >= 0 &&
      (uint64_t)v < nheap && heap[v] >= 0 && (uint64_t)heap[v] <= nheap - (uint64_t)v - 1) {
    rg_value n = heap[v];
    rg_putc(o, '[');
    for (rg_value k = 0; k < n && *left > 0; k++) {
      if (k) rg_putc(o, ',');
      json_at(o, m, heap, nheap, m->types[t.ref], heap[v + 1 + k], depth + 1, left);
    }
    rg_putc(o, ']');
    return;
  }
  if (t.kind == RG_K_RECORD && depth < JSON_DEPTH && t.ref < m->nrecords && v >= 0 &&
      (uint64_t)v + m->records[t.ref].count <= nheap) {
    const rg_record *rec = &m->records[t.ref];
    rg_putc(o, '{');
    for (uint32_t k = 0; k < rec->count && *left > 0; k++) {
      const rg_field_info *f = &m->fields[rec->first + k];
      if (k) rg_putc(o, ',');
      rg_log_json_str(o, rg_module_str(m, f->name));
      rg_putc(o, ':');
      json_at(o, m, heap, nheap, f->type, heap[v + k], depth + 1, left);
    }
    rg_putc(o, '}');
    return;
  }
  if ((t.kind == RG_K_LIST || t.kind == RG_K_RECORD) && depth >= JSON_DEPTH) {
    rg_puts(o, "\"...\"");       /* past JSON_DEPTH: only a value that holds itself */
    return;
  }
  rg_log_json_str(o, rg_value_format(buf, sizeof buf, m, heap, nheap, t, v));
}

void rg_log_json_value(rg_out *o, const rg_module *m, const rg_value *heap, uint32_t nheap,
                       rg_type t, rg_value v) {
  long left = RG_PRINT_MAX_VALUES;
  json_at(o, m, heap, nheap, t, v, 0, &left);
}

/* ---- events ---------------------------------------------------------------------- */

void rg_log_init(rg_log *lg, rg_out *out, const rg_module *m, int json) {
  memset(lg, 0, sizeof *lg);
  lg->out = out;
  lg->m = m;
  lg->json = json;
}

void rg_log_run(rg_log *lg, const char *proc, uint64_t seed, const char *policy,
                const char *dice) {
  if (lg->json) {
    rg_puts(lg->out, "{\"event\":\"run\",\"proc\":");
    rg_log_json_str(lg->out, proc);
    rg_printf(lg->out, ",\"seed\":%llu,\"policy\":", (unsigned long long)seed);
    rg_log_json_str(lg->out, policy);
    rg_printf(lg->out, ",\"dice\":\"%s\"}\n", dice);
  } else {
    rg_printf(lg->out, "run %s: seed %llu, policy %s, dice %s\n", proc, (unsigned long long)seed,
              policy, dice);
  }
}

void rg_log_step(rg_log *lg, uint32_t name, uint32_t pc) {
  if (lg->json) {
    rg_puts(lg->out, "{\"event\":\"step\",\"name\":");
    rg_log_json_str(lg->out, rg_module_str(lg->m, name));
    json_end(lg, pc);
    return;
  }
  rg_printf(lg->out, "\n== %s\n", rg_module_str(lg->m, name));
}

void rg_log_roll(rg_log *lg, int32_t die, uint32_t sides, const rg_value *results, uint32_t n,
                 uint32_t pc) {
  const rg_module *m = lg->m;
  rg_out *o = lg->out;
  int is_list = pc < m->ncode && RG_INS_OP(m->code[pc]) == RG_OP_ROLLS;
  char name[256], buf[1024];
  rg_type t = rg_log_dice_name(m, die, sides, n, name, sizeof name);
  rg_value total = 0;
  for (uint32_t k = 0; k < n; k++) total += results[k];
  if (lg->json) {
    rg_puts(o, "{\"event\":\"roll\",\"dice\":");
    rg_log_json_str(o, name);
    rg_puts(o, ",\"results\":[");
    for (uint32_t k = 0; k < n; k++) {
      if (k) rg_putc(o, ',');
      json_value(lg, t, results[k]);
    }
    rg_putc(o, ']');
    if (die < 0 && !is_list) rg_printf(o, ",\"total\":%lld", (long long)total);
    json_end(lg, pc);
    return;
  }
  rg_printf(o, "  roll %s:", name);
  if (die >= 0) {
    for (uint32_t k = 0; k < n; k++)
      rg_printf(o, "%s%s", k ? ", " : " ", fmt(lg, t, results[k], buf, sizeof buf));
  } else if (is_list) {
    for (uint32_t k = 0; k < n; k++) rg_printf(o, "%s%lld", k ? ", " : " ", (long long)results[k]);
    if (n == 0) rg_puts(o, " none");
  } else {
    for (uint32_t k = 0; k < n; k++) rg_printf(o, "%s%lld", k ? " + " : " ", (long long)results[k]);
    if (n != 1) rg_printf(o, "%s%lld", n ? " = " : " ", (long long)total);
  }
  end_line(lg, pc);
}

void rg_log_draw(rg_log *lg, uint32_t deck, rg_value card, uint32_t pc) {
  const rg_module *m = lg->m;
  uint32_t left = 0;
  char buf[1024];
  rg_type t = deck < m->ndecks ? m->decks[deck].card : (rg_type){ RG_K_INT, 0 };
  const char *name = deck < m->ndecks ? rg_module_str(m, m->decks[deck].name) : "?";
  if (lg->vm) rg_vm_deck_left(lg->vm, deck, &left);
  if (lg->json) {
    rg_puts(lg->out, "{\"event\":\"draw\",\"deck\":");
    rg_log_json_str(lg->out, name);
    rg_puts(lg->out, ",\"card\":");
    json_value(lg, t, card);
    rg_printf(lg->out, ",\"left\":%u", left);
    json_end(lg, pc);
    return;
  }
  rg_printf(lg->out, "  draw %s: %s (%u left)", name, fmt(lg, t, card, buf, sizeof buf), left);
  end_line(lg, pc);
}

void rg_log_choice(rg_log *lg, uint32_t choice, rg_value chooser, const rg_value *options,
                   uint32_t n, uint32_t k, uint32_t pc) {
  const rg_module *m = lg->m;
  const rg_choice *c = &m->choices[choice];
  const char *prompt = rg_module_str(m, c->prompt);
  char who[1024], buf[8192];
  if (lg->json) {
    rg_puts(lg->out, "{\"event\":\"choice\",\"chooser\":");
    json_value(lg, c->chooser, chooser);
    rg_puts(lg->out, ",\"prompt\":");
    rg_log_json_str(lg->out, prompt);
    rg_puts(lg->out, ",\"options\":[");
    for (uint32_t i = 0; i < n; i++) {
      if (i) rg_putc(lg->out, ',');
      json_value(lg, c->option, options[i]);
    }
    rg_puts(lg->out, "],\"chosen\":");
    json_value(lg, c->option, options[k]);
    json_end(lg, pc);
    return;
  }
  rg_printf(lg->out, "  %s chooses %s (%s)", fmt(lg, c->chooser, chooser, who, sizeof who),
            fmt(lg, c->option, options[k], buf, sizeof buf), prompt);
  end_line(lg, pc);
}

void rg_log_note_text(rg_out *o, const rg_module *m, const rg_value *heap, uint32_t nheap,
                      uint32_t note, const rg_value *vals) {
  const rg_note_info *ni;
  char buf[8192];
  if (note >= m->nnotes) return;
  ni = &m->notes[note];
  rg_printf(o, "note %s", rg_module_str(m, ni->text));
  for (uint32_t i = 0; i < ni->nvals && ni->first_type + i < m->ntypes; i++)
    rg_printf(o, "%s%s", i ? ", " : ": ",
              rg_value_format(buf, sizeof buf, m, heap, nheap, m->types[ni->first_type + i],
                              vals[i]));
}

void rg_log_note(rg_log *lg, uint32_t note, const rg_value *vals, uint32_t pc) {
  const rg_module *m = lg->m;
  const rg_note_info *ni;
  uint32_t nheap;
  const rg_value *heap = heap_of(lg, &nheap);
  if (note >= m->nnotes) return;
  ni = &m->notes[note];
  if (lg->json) {
    rg_puts(lg->out, "{\"event\":\"note\",\"text\":");
    rg_log_json_str(lg->out, rg_module_str(m, ni->text));
    rg_puts(lg->out, ",\"values\":[");
    for (uint32_t i = 0; i < ni->nvals && ni->first_type + i < m->ntypes; i++) {
      if (i) rg_putc(lg->out, ',');
      json_value(lg, m->types[ni->first_type + i], vals[i]);
    }
    rg_putc(lg->out, ']');
    json_end(lg, pc);
    return;
  }
  rg_puts(lg->out, "  ");
  rg_log_note_text(lg->out, m, heap, nheap, note, vals);
  end_line(lg, pc);
}

void rg_log_expect_text(rg_out *o, const rg_module *m, const rg_value *heap, uint32_t nheap,
                        uint32_t expect, rg_value actual, rg_value expected, uint32_t pc) {
  char want[4096], got[4096];
  if (expect >= m->nexpects) return;
  if (pc < m->ncode && RG_INS_OP(m->code[pc]) == RG_OP_EXPECTEQ) {
    rg_type t = m->expects[expect].type;
    rg_printf(o, "expected %s, got %s", rg_value_format(want, sizeof want, m, heap, nheap, t, expected),
              rg_value_format(got, sizeof got, m, heap, nheap, t, actual));
  } else {
    rg_printf(o, "expected true: %s", rg_module_str(m, m->expects[expect].text));
  }
}

void rg_log_expect_fail(rg_log *lg, uint32_t expect, rg_value actual, rg_value expected,
                        uint32_t pc) {
  const rg_module *m = lg->m;
  uint32_t nheap;
  const rg_value *heap = heap_of(lg, &nheap);
  if (expect >= m->nexpects) return;
  if (lg->json) {
    rg_puts(lg->out, "{\"event\":\"expect_fail\",\"text\":");
    rg_log_json_str(lg->out, rg_module_str(m, m->expects[expect].text));
    if (pc < m->ncode && RG_INS_OP(m->code[pc]) == RG_OP_EXPECTEQ) {
      rg_puts(lg->out, ",\"expected\":");
      json_value(lg, m->expects[expect].type, expected);
      rg_puts(lg->out, ",\"actual\":");
      json_value(lg, m->expects[expect].type, actual);
    }
    json_end(lg, pc);
    return;
  }
  rg_puts(lg->out, "  FAIL ");
  rg_log_expect_text(lg->out, m, heap, nheap, expect, actual, expected, pc);
  end_line(lg, pc);
}

void rg_log_summary(rg_log *lg, rg_type t, rg_value v) {
  uint32_t nheap;
  const rg_value *heap = heap_of(lg, &nheap);
  if (lg->json) {
    rg_puts(lg->out, "{\"event\":\"summary\",\"result\":");
    if (t.kind == RG_K_VOID) rg_puts(lg->out, "null");
    else json_value(lg, t, v);
    rg_puts(lg->out, "}\n");
    return;
  }
  rg_puts(lg->out, "\n== Summary\n");
  if (t.kind != RG_K_VOID) rg_value_print(lg->out, lg->m, heap, nheap, t, v);
}
