/*
** evlog.c: the event log of a run, text or JSON (see evlog.h).
*/
#include "display.h"
#include "evlog.h"

#include "json.h"
#include "opcodes.h"
#include "path.h"
#include "value.h"

#include <stdio.h>
#include <string.h>

/* ---- small helpers ----------------------------------------------------------- */

rgi_type rgi_log_dice_name(const rgi_module *m, int32_t die, uint32_t sides, uint32_t n,
                         char *buf, size_t size) {
  rgi_type t = { RG_K_INT, 0 };
  if (die >= 0 && (uint32_t)die < m->ndice) {
    snprintf(buf, size, "%s", rgi_module_str(m, m->dice[die].name));
    t = m->dice[die].face;
  } else if (n == 1) {
    snprintf(buf, size, "d%u", sides);
  } else {
    snprintf(buf, size, "%ud%u", n, sides);
  }
  return t;
}

int rgi_log_locate(const rgi_module *m, uint32_t pc, const char **path, uint32_t *line,
                  uint32_t *col) {
  const rgi_line *ln;
  if (pc >= m->nlines) return -1;
  ln = &m->lines[pc];
  *path = ln->file < m->nfiles ? rgi_module_str(m, m->files[ln->file]) : "?";
  *line = ln->line;
  *col = ln->col;
  return 0;
}

/* Returns the heap values are read from (the run's, or the module's before
** there is a VM) and its size in *n. */
static const rgi_value *heap_of(const rgi_log *lg, uint32_t *n) {
  if (lg->view.heap) return lg->view.heap(lg->view.ctx, n);
  *n = lg->m->nheap;
  return lg->m->heap;
}

/* Formats v of type t as people read it, into buf. */
static char *fmt(const rgi_log *lg, rgi_type t, rgi_value v, char *buf, size_t size) {
  uint32_t nheap;
  const rgi_value *heap = heap_of(lg, &nheap);
  return rgi_value_format(buf, size, lg->m, heap, nheap, t, v);
}

/* Returns v of type t as a new JSON value, read from the run's heap. */
static json_t *json_value(const rgi_log *lg, rgi_type t, rgi_value v) {
  uint32_t nheap;
  const rgi_value *heap = heap_of(lg, &nheap);
  return rgi_json_value(lg->m, heap, nheap, t, v);
}

/* The names of the event kinds, in one list (regula.h): the JSON log's
** "event" and what front ends call them. */
const char *rg_event_kind_name(rg_event_kind k) {
  static const char *const names[RG_EVENT_KINDS] = { "step", "roll", "draw", "choice", "note",
                                                     "shape", "expect_fail" };
  return (unsigned)k < RG_EVENT_KINDS ? names[k] : "?";
}

/* Starts a JSON event: a new object {"event":kind}; NULL when out of
** memory. */
static json_t *json_event(const char *kind) {
  return json_pack("{s:s}", "event", kind);
}

/* Returns the path of file index f of m as lg shows it (normalized; in
** text, without lg->base), kept in lg->shown for the next event. */
static const char *shown_path(rgi_log *lg, uint32_t f) {
  const rgi_module *m = lg->m;
  size_t nbase = strlen(lg->base);
  if (f == lg->shown_file) return lg->shown;
  rgi_path_norm(lg->shown, sizeof lg->shown, f < m->nfiles ? rgi_module_str(m, m->files[f]) : "?");
  if (!lg->json && nbase && strncmp(lg->shown, lg->base, nbase) == 0)
    memmove(lg->shown, lg->shown + nbase, strlen(lg->shown + nbase) + 1);
  lg->shown_file = f;
  return lg->shown;
}

/* Ends a text line with the place in the rule file: "  [file.rules:12]". */
static void end_line(rgi_log *lg, uint32_t pc) {
  if (pc < lg->m->nlines)
    rg_printf(lg->out, "  [%s:%u]", shown_path(lg, lg->m->lines[pc].file), lg->m->lines[pc].line);
  rg_putc(lg->out, '\n');
}

/* Ends JSON event ev (NULL: a failed build) with its rule file and line
** ("file":PATH,"line":N; null and 0 when not known), writes it as one line
** and releases it. */
static void json_end(rgi_log *lg, json_t *ev, uint32_t pc) {
  int known = pc < lg->m->nlines;
  json_t *file = known ? rgi_json_text(shown_path(lg, lg->m->lines[pc].file)) : json_null();
  if (ev && (!file || json_object_set_new(ev, "file", file) != 0 ||
             json_object_set_new(ev, "line", json_integer(known ? lg->m->lines[pc].line : 0)) != 0)) {
    json_decref(ev);
    ev = NULL;
  } else if (!ev) {
    json_decref(file);
  }
  rgi_json_put(lg->out, ev, 1);
}

/* Sets ev[key] = v (v's reference taken); on failure releases ev and v and
** returns NULL, else returns ev.  ev NULL stays NULL. */
static json_t *json_add(json_t *ev, const char *key, json_t *v) {
  if (ev && v && json_object_set_new(ev, key, v) == 0) return ev;
  if (ev && v) v = NULL;    /* json_object_set_new released it */
  json_decref(ev);
  json_decref(v);
  return NULL;
}

/* ---- events ---------------------------------------------------------------------- */

void rgi_log_init(rgi_log *lg, rg_out *out, const rgi_module *m, int json) {
  memset(lg, 0, sizeof *lg);
  lg->out = out;
  lg->m = m;
  lg->json = json;
  lg->shown_file = UINT32_MAX;
  /* The folder shared by the files the code comes from (not the tables). */
  unsigned char used[256] = {0};
  int first = 1;
  for (uint32_t pc = 0; pc < m->nlines; pc++)
    if (m->lines[pc].file < sizeof used) used[m->lines[pc].file] = 1;
  for (uint32_t f = 0; f < m->nfiles; f++) {
    if (f < sizeof used && !used[f]) continue;
    const char *path = rgi_module_str(m, m->files[f]);
    if (first) rgi_path_shared_dir(path, path, lg->base, sizeof lg->base);
    else rgi_path_shared_dir(lg->base, path, lg->base, sizeof lg->base);
    first = 0;
  }
}

void rgi_log_run(rgi_log *lg, const char *proc, uint64_t seed, const char *policy,
                const char *dice) {
  if (lg->json) {
    char digits[24];
    json_t *ev = json_event("run");
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)seed);
    ev = json_add(ev, "format", json_integer(RG_JSON_FORMAT));
    ev = json_add(ev, "procedure", rgi_json_text(proc));
    ev = json_add(ev, "seed", json_string(digits));
    ev = json_add(ev, "policy", rgi_json_text(policy));
    if (lg->strategy) ev = json_add(ev, "strategy", rgi_json_text(lg->strategy));
    ev = json_add(ev, "dice", rgi_json_text(dice));
    rgi_json_put(lg->out, ev, 1);
  } else {
    rg_printf(lg->out, "run %s: seed %llu, policy %s, dice %s\n", proc, (unsigned long long)seed,
              policy, dice);
  }
}

void rgi_log_step(rgi_log *lg, uint32_t name, uint32_t pc) {
  if (lg->json) {
    json_end(lg, json_add(json_event(rg_event_kind_name(RG_EVENT_STEP)), "name", rgi_json_text(rgi_module_str(lg->m, name))),
             pc);
    return;
  }
  rg_printf(lg->out, "\n== %s\n", rgi_module_str(lg->m, name));
}

void rgi_log_roll(rgi_log *lg, int32_t die, uint32_t sides, const rgi_value *results, uint32_t n,
                 uint32_t pc) {
  const rgi_module *m = lg->m;
  rg_out *o = lg->out;
  int is_list = pc < m->ncode && RG_INS_OP(m->code[pc]) == RG_OP_ROLLS;
  char name[256], buf[1024];
  rgi_type t = rgi_log_dice_name(m, die, sides, n, name, sizeof name);
  rgi_value total = 0;
  for (uint32_t k = 0; k < n; k++) total += results[k];
  if (lg->json) {
    json_t *ev = json_add(json_event(rg_event_kind_name(RG_EVENT_ROLL)), "dice", rgi_json_text(name));
    json_t *rs = json_array();
    for (uint32_t k = 0; rs && k < n; k++)
      if (json_array_append_new(rs, json_value(lg, t, results[k])) != 0) {
        json_decref(rs);
        rs = NULL;
      }
    ev = json_add(ev, "results", rs);
    if (die < 0 && !is_list) ev = json_add(ev, "total", json_integer(total));
    json_end(lg, ev, pc);
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

void rgi_log_draw(rgi_log *lg, uint32_t deck, rgi_value card, uint32_t pc) {
  const rgi_module *m = lg->m;
  uint32_t left = 0;
  char buf[1024];
  rgi_type t = deck < m->ndecks ? m->decks[deck].card : (rgi_type){ RG_K_INT, 0 };
  const char *name = deck < m->ndecks ? rgi_module_str(m, m->decks[deck].name) : "?";
  if (lg->view.deck_left) lg->view.deck_left(lg->view.ctx, deck, &left);
  if (lg->json) {
    json_t *ev = json_add(json_event(rg_event_kind_name(RG_EVENT_DRAW)), "deck", rgi_json_text(name));
    ev = json_add(ev, "card", json_value(lg, t, card));
    json_end(lg, json_add(ev, "left", json_integer(left)), pc);
    return;
  }
  if (deck < m->ndecks && (m->decks[deck].flags & RG_DECK_SECRET))
    rg_printf(lg->out, "  draw %s: a card (%u left)", name, left);   /* the drawer's secret */
  else
    rg_printf(lg->out, "  draw %s: %s (%u left)", name, fmt(lg, t, card, buf, sizeof buf), left);
  end_line(lg, pc);
}

void rgi_log_choice(rgi_log *lg, uint32_t choice, rgi_value chooser, const rgi_value *options,
                   uint32_t n, uint32_t k, uint32_t pc) {
  const rgi_module *m = lg->m;
  const rgi_choice *c = &m->choices[choice];
  const char *prompt = rgi_module_str(m, c->prompt);
  char who[1024], buf[8192];
  if (lg->json) {
    json_t *ev = json_add(json_event(rg_event_kind_name(RG_EVENT_CHOICE)), "chooser", json_value(lg, c->chooser, chooser));
    json_t *os = json_array();
    ev = json_add(ev, "prompt", rgi_json_text(prompt));
    for (uint32_t i = 0; os && i < n; i++)
      if (json_array_append_new(os, json_value(lg, c->option, options[i])) != 0) {
        json_decref(os);
        os = NULL;
      }
    ev = json_add(ev, "options", os);
    ev = json_add(ev, "chosen", json_value(lg, c->option, options[k]));
    json_end(lg, json_add(ev, "index", json_integer(k)), pc);
    return;
  }
  if (c->option.kind == RG_K_BOOL) {
    /* yes or no, in the prompt's words: "player A: strategic intercept: yes" */
    size_t plen = strlen(prompt);
    while (plen && (prompt[plen - 1] == '?' || prompt[plen - 1] == ' ')) plen--;
    rg_printf(lg->out, "  %s: %.*s: %s", fmt(lg, c->chooser, chooser, who, sizeof who), (int)plen,
              prompt, options[k] ? "yes" : "no");
  } else {
    rg_printf(lg->out, "  %s chooses %s (%s)", fmt(lg, c->chooser, chooser, who, sizeof who),
              fmt(lg, c->option, options[k], buf, sizeof buf), prompt);
  }
  end_line(lg, pc);
}

void rgi_log_note_text(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                      uint32_t note, const rgi_value *vals) {
  const rgi_note_info *ni;
  char buf[8192];
  if (note >= m->nnotes) return;
  ni = &m->notes[note];
  rg_printf(o, "note %s", rgi_module_str(m, ni->text));
  for (uint32_t i = 0; i < ni->nvals && ni->first_type + i < m->ntypes; i++)
    rg_printf(o, "%s%s", i ? ", " : ": ",
              rgi_value_format(buf, sizeof buf, m, heap, nheap, m->types[ni->first_type + i],
                              vals[i]));
}

void rgi_log_note(rgi_log *lg, uint32_t note, const rgi_value *vals, uint32_t pc) {
  const rgi_module *m = lg->m;
  const rgi_note_info *ni;
  uint32_t nheap;
  const rgi_value *heap = heap_of(lg, &nheap);
  if (note >= m->nnotes) return;
  ni = &m->notes[note];
  if (lg->json) {
    json_t *ev = json_add(json_event(rg_event_kind_name(RG_EVENT_NOTE)), "text", rgi_json_text(rgi_module_str(m, ni->text)));
    json_t *vs = json_array();
    for (uint32_t i = 0; vs && i < ni->nvals && ni->first_type + i < m->ntypes; i++)
      if (json_array_append_new(vs, json_value(lg, m->types[ni->first_type + i], vals[i])) != 0) {
        json_decref(vs);
        vs = NULL;
      }
    json_end(lg, json_add(ev, "values", vs), pc);
    return;
  }
  rg_puts(lg->out, "  ");
  rgi_log_note_text(lg->out, m, heap, nheap, note, vals);
  end_line(lg, pc);
}

/* Writes v of type t as a failure message shows it: a text or a member
** (by its display name) in double quotes, '"' and '\\' escaped; anything
** else as rgi_value_format writes it. */
static void put_expect_value(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                             rgi_type t, rgi_value v) {
  char buf[4096];
  rgi_value_format(buf, sizeof buf, m, heap, nheap, t, v);
  if (t.kind != RG_K_TEXT && t.kind != RG_K_ENUM) {
    rg_puts(o, buf);
    return;
  }
  rg_putc(o, '"');
  for (const char *c = buf; *c; c++) {
    if (*c == '"' || *c == '\\') rg_putc(o, '\\');
    rg_putc(o, *c);
  }
  rg_putc(o, '"');
}

void rgi_log_expect_text(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                        uint32_t expect, rgi_value actual, rgi_value expected, uint32_t pc,
                        const rgi_value *frame) {
  const rgi_expect *x;
  if (expect >= m->nexpects) return;
  x = &m->expects[expect];
  if (pc < m->ncode && RG_INS_OP(m->code[pc]) == RG_OP_EXPECTEQ) {
    rg_puts(o, "expected ");
    put_expect_value(o, m, heap, nheap, x->type, expected);
    rg_puts(o, ", got ");
    put_expect_value(o, m, heap, nheap, x->type, actual);
  } else {
    rg_printf(o, "expected true: %s", rgi_module_str(m, x->text));
  }
  if (frame && x->nvars && (uint64_t)x->first_var + x->nvars <= m->nevars) {
    rg_puts(o, " (for ");
    for (uint32_t k = 0; k < x->nvars; k++) {
      const rgi_expect_var *ev = &m->evars[x->first_var + k];
      rg_printf(o, "%s%s = ", k ? ", " : "", rgi_module_str(m, ev->name));
      put_expect_value(o, m, heap, nheap, ev->type, frame[ev->slot]);
    }
    rg_putc(o, ')');
  }
}

void rgi_log_expect_fail(rgi_log *lg, uint32_t expect, rgi_value actual, rgi_value expected,
                        uint32_t pc, const rgi_value *frame) {
  const rgi_module *m = lg->m;
  uint32_t nheap;
  const rgi_value *heap = heap_of(lg, &nheap);
  if (expect >= m->nexpects) return;
  if (lg->json) {
    const rgi_expect *x = &m->expects[expect];
    json_t *ev = json_add(json_event(rg_event_kind_name(RG_EVENT_EXPECT_FAIL)), "text",
                          rgi_json_text(rgi_module_str(m, x->text)));
    if (pc < m->ncode && RG_INS_OP(m->code[pc]) == RG_OP_EXPECTEQ) {
      ev = json_add(ev, "expected", json_value(lg, x->type, expected));
      ev = json_add(ev, "actual", json_value(lg, x->type, actual));
    }
    if (frame && x->nvars && (uint64_t)x->first_var + x->nvars <= m->nevars) {
      json_t *loop = json_object();
      for (uint32_t k = 0; k < x->nvars; k++) {
        const rgi_expect_var *v = &m->evars[x->first_var + k];
        loop = json_add(loop, rgi_module_str(m, v->name), json_value(lg, v->type, frame[v->slot]));
      }
      ev = json_add(ev, "loop", loop);
    }
    json_end(lg, ev, pc);
    return;
  }
  rg_puts(lg->out, "  FAIL ");
  rgi_log_expect_text(lg->out, m, heap, nheap, expect, actual, expected, pc, frame);
  end_line(lg, pc);
}

void rgi_log_summary(rgi_log *lg, rgi_type t, rgi_value v) {
  uint32_t nheap;
  const rgi_value *heap = heap_of(lg, &nheap);
  if (lg->json) {
    json_t *r = t.kind == RG_K_VOID ? json_null() : json_value(lg, t, v);
    rgi_json_put(lg->out, json_add(json_event("summary"), "result", r), 1);
    return;
  }
  int d = rgi_display_find(lg->m, t);
  if (d >= 0) {                          /* the card the rules give it */
    rg_putc(lg->out, '\n');
    rgi_display_print(lg->out, lg->m, heap, nheap, (uint32_t)d, v);
    return;
  }
  rg_puts(lg->out, "\n== Summary\n");
  if (t.kind != RG_K_VOID) rgi_value_print(lg->out, lg->m, heap, nheap, t, v);
}
