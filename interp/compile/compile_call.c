/*
** compile_call.c: calls: the builtins (numbers, lists, decks, choose),
** shapes for pictures, and procedures.
**
** The builtins are a table made from builtins.h's one list: a call of a
** builtin finds its row by name and hands it to the row's handler (bi_*),
** which checks the arguments and emits the row's instruction.
*/
#include "builtins.h"
#include "compile_int.h"
#include "opcodes.h"

#include <stdio.h>

/* A call of a builtin being compiled: the call, its arguments (the first
** two; for the labelled rolls/draws, those after the label), how many,
** the type its context wants, and a label's who and what (or NULL). */
typedef struct bcall {
  rgi_expr *e, *a1, *a2;
  uint32_t argc;
  rgi_type want;
  rgi_expr *who;
  const char *what;
} bcall;

typedef struct builtin builtin;

/* A handler: checks call c of builtin b and emits its code; returns the
** type of its result (T_NONE for a shape), or T_ERR. */
typedef rgi_type (*bi_fn)(cstate *cs, bcall *c, const builtin *b);

/* One row of the table. */
struct builtin {
  const char *name;
  enum { BI_MATH, BI_LIST, BI_SHAPE } kind;
  uint32_t argc;            /* 0: the handler checks the count */
  const char *args;         /* a shape's argument kinds */
  uint32_t op;              /* RG_OP_*: what a call compiles to */
  bi_fn fn;
};

#define RG_X(n, kind, argc, args, op, fn) \
  static rgi_type bi_##fn(cstate *cs, bcall *c, const builtin *b);
RG_BUILTINS(RG_X)
#undef RG_X

static const builtin builtins[] = {
#define RG_X(n, kind, argc, args, op, fn) { #n, BI_##kind, argc, args, RG_OP_##op, bi_##fn },
  RG_BUILTINS(RG_X)
#undef RG_X
};

/* Returns the builtin called name, or NULL. */
static const builtin *find_builtin(const char *name) {
  for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
    if (strcmp(builtins[i].name, name) == 0) return &builtins[i];
  return NULL;
}

/* Compiles call e of builtin b, wanted as `want`: a list builtin's
** labelled form (rolls(who, "what", n, dS), draws(who, "what", deck, n):
** see rgc_label) and its argument count are checked here, the rest by the
** handler. */
static rgi_type compile_builtin(cstate *cs, rgi_expr *e, rgi_type want, const builtin *b) {
  bcall c = { e, e->args, e->args ? e->args->next : NULL, rgc_count_list(e->args), want,
              NULL, NULL };
  if (b->kind != BI_LIST) return b->fn(cs, &c, b);
  if ((b->op == RG_OP_ROLLS || b->op == RG_OP_DRAWS) && c.argc == 4 &&
      c.a2->kind == RG_EX_STR) {
    c.who = c.a1;
    c.what = c.a2->str;
    c.a1 = c.a2->next;
    c.a2 = c.a1->next;
    c.argc = 2;
  }
  if (b->argc && c.argc != b->argc) {
    rgc_err(cs, e->pos, "%s takes %u argument%s, not %u", b->name, b->argc,
            b->argc == 1 ? "" : "s", c.argc);
    return T_ERR;
  }
  return b->fn(cs, &c, b);
}

/* ---- numbers and members ------------------------------------------------ */

/* min(a, b, ...), max(a, b, ...), clamp(x, lo, hi): numbers or members of
** an ordered enum, all of one type. */
static rgi_type bi_minmax(cstate *cs, bcall *c, const builtin *b) {
  const char *n = b->name;
  bool clamp = b->op == RG_OP_CLAMP;
  rgi_type t = T_NONE;
  bool bad = false;
  char x[RGI_TYPE_NAME_SIZE];
  if (clamp && c->argc != 3) {
    rgc_err(cs, c->e->pos, "clamp takes 3 arguments (x, lo, hi), not %u", c->argc);
    return T_ERR;
  }
  if (!clamp && c->argc < 2) {
    rgc_err(cs, c->e->pos, "%s takes at least 2 arguments, not %u", n, c->argc);
    return T_ERR;
  }
  for (rgi_expr *a = c->e->args; a; a = a->next) {
    rgi_type ta = rgc_expr(cs, a, t.kind == RG_K_VOID ? c->want : t);
    if (rgc_is_err(ta)) { bad = true; continue; }
    if (!rgc_numeric(ta) && !(ta.kind == RG_K_ENUM && AT(cs->enums, rgi_enum, ta.ref).ordered)) {
      rgc_err(cs, a->pos, "%s needs numbers or an ordered enum, not %s", n, rgc_tname(cs, ta, x, sizeof x));
      bad = true;
      continue;
    }
    if (t.kind == RG_K_VOID) t = ta;
    else if (!rgc_check_type(cs, a->pos, ta, t, "this argument")) bad = true;
  }
  if (bad) return T_ERR;
  rgc_emit(cs, b->op, clamp ? 0 : c->argc);
  return t;
}

/* wrap(x, lo, hi): x brought into lo..hi by wrapping around, as the rows
** of a map whose top and bottom lines meet: lo + (x - lo) mod n, never
** negative.  lo and hi are constants; x is evaluated once. */
static rgi_type bi_wrap(cstate *cs, bcall *c, const builtin *b) {
  rgi_expr *e = c->e;
  rgi_value lo, hi, span;
  rgi_type tl, th, tx;
  (void)b;
  if (c->argc != 3) {
    rgc_err(cs, e->pos, "wrap takes 3 arguments (x, lo, hi), not %u", c->argc);
    return T_ERR;
  }
  {
    rgi_expr *lo_e = e->args->next, *hi_e = lo_e->next;
    bool lo_ok;
    lo_e->next = NULL;             /* rgc_foldable() checks a whole list */
    lo_ok = rgc_foldable(cs, lo_e);
    lo_e->next = hi_e;
    if (!lo_ok || !rgc_foldable(cs, hi_e)) {
      rgc_err(cs, lo_ok ? hi_e->pos : lo_e->pos, "the bounds of wrap must be constants");
      return T_ERR;
    }
  }
  tl = rgc_fold(cs, e->args->next, T_INT, &lo);
  th = rgc_fold(cs, e->args->next->next, T_INT, &hi);
  if (rgc_is_err(tl) || rgc_is_err(th) ||
      !rgc_check_type(cs, e->args->next->pos, tl, T_INT, "a bound of wrap") ||
      !rgc_check_type(cs, e->args->next->next->pos, th, T_INT, "a bound of wrap"))
    return T_ERR;
  if (hi < lo || (uint64_t)hi - (uint64_t)lo >= RG_SA_MAX) {   /* hi - lo may not fit */
    rgc_err(cs, e->args->next->pos, "wrap needs lo <= hi (and a span below %d)", RG_SA_MAX);
    return T_ERR;
  }
  span = hi - lo + 1;
  tx = rgc_expr(cs, e->args, T_INT);
  if (rgc_is_err(tx) || !rgc_check_type(cs, e->args->pos, tx, T_INT, "the value of wrap"))
    return T_ERR;
  cs->pos = e->pos;
  rgc_emit_value(cs, lo);
  rgc_emit(cs, RG_OP_SUB, 0);
  rgc_emit_value(cs, span);
  rgc_emit(cs, RG_OP_MOD, 0);
  rgc_emit_value(cs, span);
  rgc_emit(cs, RG_OP_ADD, 0);
  rgc_emit_value(cs, span);
  rgc_emit(cs, RG_OP_MOD, 0);
  rgc_emit_value(cs, lo);
  rgc_emit(cs, RG_OP_ADD, 0);
  return T_INT;
}

/* Compiles the one argument of abs, count or ord (its count checked);
** returns its type, or T_ERR. */
static rgi_type one_arg(cstate *cs, bcall *c, const builtin *b) {
  if (c->argc != 1) {
    rgc_err(cs, c->e->pos, "%s takes 1 argument, not %u", b->name, c->argc);
    return T_ERR;
  }
  return rgc_expr(cs, c->e->args, T_NONE);
}

/* abs(x): a number's absolute value, of its type. */
static rgi_type bi_abs(cstate *cs, bcall *c, const builtin *b) {
  rgi_type ta = one_arg(cs, c, b);
  char x[RGI_TYPE_NAME_SIZE];
  if (rgc_is_err(ta)) return T_ERR;
  if (!rgc_numeric(ta)) {
    rgc_err(cs, c->e->args->pos, "abs needs a number, not %s", rgc_tname(cs, ta, x, sizeof x));
    return T_ERR;
  }
  rgc_emit(cs, b->op, 0);
  return ta;
}

/* count(s): how many members a set holds. */
static rgi_type bi_count(cstate *cs, bcall *c, const builtin *b) {
  rgi_type ta = one_arg(cs, c, b);
  char x[RGI_TYPE_NAME_SIZE];
  if (rgc_is_err(ta)) return T_ERR;
  if (ta.kind != RG_K_SET) {
    rgc_err(cs, c->e->args->pos, "count needs a set, not %s", rgc_tname(cs, ta, x, sizeof x));
    return T_ERR;
  }
  rgc_emit(cs, b->op, 0);
  return T_INT;
}

/* ord(m): a member's place in its enum, from 0 (a member is its place: no
** code of its own). */
static rgi_type bi_ord(cstate *cs, bcall *c, const builtin *b) {
  rgi_type ta = one_arg(cs, c, b);
  char x[RGI_TYPE_NAME_SIZE];
  if (rgc_is_err(ta)) return T_ERR;
  if (ta.kind != RG_K_ENUM) {
    rgc_err(cs, c->e->args->pos, "ord needs an enum member, not %s", rgc_tname(cs, ta, x, sizeof x));
    return T_ERR;
  }
  return T_INT;
}

/* ---- lists, dice, decks, choices ---------------------------------------- */

/* Compiles argument a expecting a list; returns its type or T_ERR. */
static rgi_type list_arg(cstate *cs, rgi_expr *a, const char *fn, rgi_type want) {
  rgi_type t = rgc_expr(cs, a, want);
  char x[RGI_TYPE_NAME_SIZE];
  if (rgc_is_err(t)) return t;
  if (t.kind != RG_K_LIST) {
    rgc_err(cs, a->pos, "%s needs a list, not %s", fn, rgc_tname(cs, t, x, sizeof x));
    return T_ERR;
  }
  return t;
}

/* Compiles argument a expecting an int. */
bool rgc_int_arg(cstate *cs, rgi_expr *a) {
  rgi_type t = rgc_expr(cs, a, T_INT);
  return !rgc_is_err(t) && rgc_check_type(cs, a->pos, t, T_INT, "this argument");
}

/* Looks up argument a as the name of a declaration of kind k. */
static sym *named_arg(cstate *cs, rgi_expr *a, symkind k, const char *what) {
  sym *s = a->kind == RG_EX_NAME ? rgc_lookup(cs, a->name) : NULL;
  if (!s || s->kind != k) {
    rgc_err(cs, a->pos, "this argument must name %s", what);
    return NULL;
  }
  return s;
}

/* len(l): how many elements a list holds. */
static rgi_type bi_len(cstate *cs, bcall *c, const builtin *b) {
  if (rgc_is_err(list_arg(cs, c->a1, b->name, T_NONE))) return T_ERR;
  rgc_emit(cs, b->op, 0);
  return T_INT;
}

/* append(l, x): l with x at its end (an empty list takes x's type). */
static rgi_type bi_append(cstate *cs, bcall *c, const builtin *b) {
  rgi_type l = list_arg(cs, c->a1, b->name, c->want), t;
  if (rgc_is_err(l)) return T_ERR;
  t = rgc_expr(cs, c->a2, l.ref == REF_ANY ? T_NONE : rgc_elem_of(cs, l));
  if (rgc_is_err(t)) return T_ERR;
  if (l.ref == REF_ANY) l = rgc_list_of(cs, t);
  else if (!rgc_check_type(cs, c->a2->pos, t, rgc_elem_of(cs, l), "the element")) return T_ERR;
  cs->pos = c->e->pos;
  rgc_emit(cs, b->op, 0);
  return l;
}

/* without(l, k), best(l, k): a list and a count; the list comes back. */
static rgi_type bi_list_count(cstate *cs, bcall *c, const builtin *b) {
  rgi_type l = list_arg(cs, c->a1, b->name, c->want);
  if (rgc_is_err(l) || !rgc_int_arg(cs, c->a2)) return T_ERR;
  cs->pos = c->e->pos;
  rgc_emit(cs, b->op, 0);
  return l;
}

/* at_least(l, k): how many elements are at least k.  at_least(rolls(n,
** dS), k) counts the dice as they roll, with no list (a dice pool). */
static rgi_type bi_at_least(cstate *cs, bcall *c, const builtin *b) {
  rgi_expr *a1 = c->a1;
  rgi_type l, el, t;
  if (a1->kind == RG_EX_CALL && strcmp(a1->name, "rolls") == 0 &&
      rgc_count_list(a1->args) == 2 && a1->args->next->kind == RG_EX_DICE &&
      a1->args->next->ival == 1) {
    if (!rgc_int_arg(cs, a1->args) || !rgc_int_arg(cs, c->a2)) return T_ERR;
    cs->pos = c->e->pos;
    rgc_emit(cs, RG_OP_ROLLAT, (uint32_t)a1->args->next->sides);
    return T_INT;
  }
  l = list_arg(cs, a1, b->name, c->want);
  if (rgc_is_err(l)) return T_ERR;
  el = rgc_elem_of(cs, l);
  t = rgc_expr(cs, c->a2, el);
  if (rgc_is_err(t) || !rgc_check_type(cs, c->a2->pos, t, el, "the threshold")) return T_ERR;
  cs->pos = c->e->pos;
  rgc_emit(cs, b->op, 0);
  return T_INT;
}

/* sorted(l): l in order (numbers, or members of an ordered enum); sum(l):
** the total of a list of numbers. */
static rgi_type bi_sorted_sum(cstate *cs, bcall *c, const builtin *b) {
  bool sorted = b->op == RG_OP_SORT;
  rgi_type l = list_arg(cs, c->a1, b->name, c->want), el;
  char x[RGI_TYPE_NAME_SIZE];
  if (rgc_is_err(l)) return T_ERR;
  el = rgc_elem_of(cs, l);
  if (!rgc_numeric(el) &&
      !(sorted && el.kind == RG_K_ENUM && AT(cs->enums, rgi_enum, el.ref).ordered)) {
    rgc_err(cs, c->a1->pos, "%s needs a list of numbers%s, not %s", b->name,
            sorted ? " or ordered members" : "", rgc_tname(cs, l, x, sizeof x));
    return T_ERR;
  }
  rgc_emit(cs, b->op, 0);
  return sorted ? l : el;
}

/* members(s): a set's members as a list, in the enum's order. */
static rgi_type bi_members(cstate *cs, bcall *c, const builtin *b) {
  rgi_type t = rgc_expr(cs, c->a1, T_NONE);
  char x[RGI_TYPE_NAME_SIZE];
  if (rgc_is_err(t)) return T_ERR;
  if (t.kind != RG_K_SET || t.ref == REF_ANY) {
    rgc_err(cs, c->a1->pos, "members needs a set of a known enum, not %s", rgc_tname(cs, t, x, sizeof x));
    return T_ERR;
  }
  rgc_emit(cs, b->op, 0);
  return rgc_list_of(cs, rgc_mktype(RG_K_ENUM, t.ref));
}

/* rolls(n, dS): n dice of S sides as a list (labelled: rolls(who, "what",
** n, dS)). */
static rgi_type bi_rolls(cstate *cs, bcall *c, const builtin *b) {
  if (c->a2->kind != RG_EX_DICE || c->a2->ival != 1) {
    rgc_err(cs, c->a2->pos, "the second argument of rolls is one kind of die, like d6");
    return T_ERR;
  }
  if (!rgc_int_arg(cs, c->a1)) return T_ERR;
  if (c->who && !rgc_label(cs, c->who, c->what, c->e->pos)) return T_ERR;
  cs->pos = c->e->pos;
  rgc_emit(cs, b->op, (uint32_t)c->a2->sides);
  return rgc_list_of(cs, T_INT);
}

/* left(deck): how many cards are left in a deck. */
static rgi_type bi_left(cstate *cs, bcall *c, const builtin *b) {
  sym *d = named_arg(cs, c->a1, S_DECK, "a deck");
  if (!d) return T_ERR;
  rgc_emit(cs, b->op, d->index);
  return T_INT;
}

/* draws(deck, n): n cards drawn as a list (labelled: draws(who, "what",
** deck, n)). */
static rgi_type bi_draws(cstate *cs, bcall *c, const builtin *b) {
  sym *d = named_arg(cs, c->a1, S_DECK, "a deck");
  if (!d || !rgc_int_arg(cs, c->a2)) return T_ERR;
  if (c->who && !rgc_label(cs, c->who, c->what, c->e->pos)) return T_ERR;
  cs->pos = c->e->pos;
  rgc_emit(cs, b->op, d->index);
  return rgc_list_of(cs, AT(cs->decks, rgi_deck, d->index).card);
}

/* nth(enum, i): the enum's member at place i. */
static rgi_type bi_nth(cstate *cs, bcall *c, const builtin *b) {
  sym *en = named_arg(cs, c->a1, S_ENUM, "an enum");
  if (!en || !rgc_int_arg(cs, c->a2)) return T_ERR;
  cs->pos = c->e->pos;
  rgc_emit(cs, b->op, en->index);
  return rgc_mktype(RG_K_ENUM, en->index);
}

/* choose(chooser, "prompt", options) or choose(chooser, "prompt", lo, hi):
** a choice, recorded in the module's table of choices. */
static rgi_type bi_choose(cstate *cs, bcall *c, const builtin *b) {
  rgi_expr *a1 = c->a1, *a2 = c->a2, *a3;
  rgi_type who, opt, res;
  rgi_choice *ch;
  uint32_t kind;
  char x[RGI_TYPE_NAME_SIZE];
  if (c->argc != 3 && c->argc != 4) {
    rgc_err(cs, c->e->pos, "choose takes (chooser, \"prompt\", options) or (chooser, \"prompt\", lo, hi)");
    return T_ERR;
  }
  if (a2->kind != RG_EX_STR) {
    rgc_err(cs, a2->pos, "the second argument of choose is the prompt, a string");
    return T_ERR;
  }
  a3 = a2->next;
  who = rgc_expr(cs, a1, T_NONE);
  if (rgc_is_err(who)) return T_ERR;
  if (who.kind == RG_K_RECORD || who.kind == RG_K_LIST) {
    rgc_err(cs, a1->pos, "the chooser must be a simple value, such as a side");
    return T_ERR;
  }
  if (c->argc == 4) {
    if (!rgc_int_arg(cs, a3) || !rgc_int_arg(cs, a3->next)) return T_ERR;
    kind = RG_OPT_RANGE;
    res = T_INT;
  } else {
    rgi_type w = T_NONE;
    if (c->want.kind == RG_K_ENUM) w = rgc_mktype(RG_K_SET, c->want.ref);
    opt = rgc_expr(cs, a3, w);
    if (rgc_is_err(opt)) return T_ERR;
    if (opt.kind == RG_K_SET && opt.ref != REF_ANY) { kind = RG_OPT_SET; res = rgc_mktype(RG_K_ENUM, opt.ref); }
    else if (opt.kind == RG_K_LIST && opt.ref != REF_ANY) { kind = RG_OPT_LIST; res = rgc_elem_of(cs, opt); }
    else {
      rgc_err(cs, a3->pos, "the options must be a set, a list or a range lo, hi; not %s", rgc_tname(cs, opt, x, sizeof x));
      return T_ERR;
    }
  }
  ch = rgc_push(cs, &cs->choices);
  ch->prompt = rgc_intern(cs, a2->str);
  ch->chooser = who;
  ch->option = res;
  ch->kind = kind;
  ch->flags = c->e->secret ? RG_CHOICE_SECRET : 0;
  cs->pos = c->e->pos;
  rgc_emit(cs, b->op, cs->choices.n - 1);
  return res;
}

/* ---- shapes ------------------------------------------------------------- */

/* A shape statement: canvas(name, width, height, title), rect(x, y, w, h,
** style, label), line(x1, y1, x2, y2, style), circle(x, y, r, style,
** label), polygon(points, style, label), label(x, y, text, style), each
** argument of the kind its row's args says: n a number (int, percent or
** distance, in the sheet's own units), s a style text, v any value shown as
** text, L a list of numbers (x1, y1, x2, y2, ...).  Emits SHAPE with a note
** entry naming the kind and the argument types.  Returns T_NONE, or T_ERR. */
static rgi_type bi_shape(cstate *cs, bcall *c, const builtin *b) {
  rgi_expr *e = c->e;
  const char *args = b->args;
  uint32_t argc = c->argc, k = 0;
  rgi_type *types;
  bool bad = false;
  char x[RGI_TYPE_NAME_SIZE];
  if (argc != strlen(args)) {
    rgc_err(cs, e->pos, "%s takes %zu arguments, not %u", e->name, strlen(args), argc);
    return T_ERR;
  }
  types = rgc_alloc(cs, argc * sizeof *types + 1);
  for (rgi_expr *a = e->args; a; a = a->next, k++) {
    rgi_type t = rgc_expr(cs, a, args[k] == 's' ? T_TEXT : T_NONE);
    types[k] = t;
    if (rgc_is_err(t)) { bad = true; continue; }
    switch (args[k]) {
    case 'n':
      if (!rgc_numeric(t)) { rgc_err(cs, a->pos, "%s needs a number or a distance here, not %s", e->name, rgc_tname(cs, t, x, sizeof x)); bad = true; }
      break;
    case 's':
      if (t.kind != RG_K_TEXT) { rgc_err(cs, a->pos, "a style is text, not %s", rgc_tname(cs, t, x, sizeof x)); bad = true; }
      break;
    case 'L':
      if (t.kind != RG_K_LIST || !rgc_numeric(rgc_elem_of(cs, t))) {
        rgc_err(cs, a->pos, "%s needs a list of numbers (x1, y1, x2, y2, ...), not %s", e->name, rgc_tname(cs, t, x, sizeof x));
        bad = true;
      }
      break;
    default:
      if (t.kind == RG_K_RECORD || t.kind == RG_K_LIST) {
        rgc_err(cs, a->pos, "%s cannot show a %s here", e->name, rgc_tname(cs, t, x, sizeof x));
        bad = true;
      }
    }
  }
  if (bad) return T_ERR;
  cs->pos = e->pos;
  rgc_emit(cs, b->op, rgc_note_entry(cs, e->name, types, argc));
  return T_NONE;
}

/* ---- procedures --------------------------------------------------------- */

/* name(args): a builtin (from the table), or a procedure.  Pushes the
** result, if any. */
rgi_type rgc_call(cstate *cs, rgi_expr *e, rgi_type want) {
  const builtin *b = find_builtin(e->name);
  const rgi_proc *p;
  uint32_t argc, i = 0;
  bool bad = false;
  sym *s;
  if (b) return compile_builtin(cs, e, want, b);
  argc = rgc_count_list(e->args);
  s = rgc_lookup(cs, e->name);
  if (!s || s->kind != S_PROC) {
    if (s) rgc_err(cs, e->pos, "'%s' is not a procedure", e->name);
    else {
      rgc_near nr;
      rgc_near_init(&nr, e->name);
      rgc_near_names(cs, &nr, RGC_KIND(S_PROC), false, false);
      for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        rgc_near_offer(&nr, builtins[i].name);
      rgc_err(cs, e->pos, "unknown procedure '%s'%s", e->name, rgc_near_hint(cs, &nr, "'"));
    }
    for (rgi_expr *a = e->args; a; a = a->next) rgc_probe(cs, a, T_NONE);
    return T_ERR;
  }
  p = &AT(cs->procs, rgi_proc, s->index);
  if (argc != p->nparams) {
    rgc_err(cs, e->pos, "%s takes %u argument%s, not %u", e->name, p->nparams,
        p->nparams == 1 ? "" : "s", argc);
    return T_ERR;
  }
  for (rgi_expr *a = e->args; a; a = a->next, i++) {
    rgi_type pt = AT(cs->params, rgi_param_info, p->first_param + i).type;
    rgi_type ta = rgc_expr(cs, a, pt);
    if (!rgc_check_type(cs, a->pos, ta, pt, "this argument")) bad = true;
    if (rgc_is_err(ta)) bad = true;
  }
  cs->pos = e->pos;
  rgc_emit(cs, RG_OP_CALL, s->index);
  return bad ? T_ERR : p->result;
}
