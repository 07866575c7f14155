/*
** compile_call.c: calls: the builtins (numbers, lists, decks, choose),
** shapes for pictures, and procedures.
*/
#include "builtins.h"
#include "compile_int.h"
#include "opcodes.h"

#include <stdio.h>

static rg_type builtin2(cstate *cs, rg_expr *e, rg_type want, bool *is_builtin);
static rg_type shape_call(cstate *cs, rg_expr *e, bool *is_shape);

/* builtin(args): min, max, clamp, abs, count, ord.  Returns T_NONE (kind
** VOID with ref 1) when name is not a builtin. */
static rg_type builtin(cstate *cs, rg_expr *e, rg_type want, bool *is_builtin) {
  const char *n = e->name;
  uint32_t argc = rgc_count_list(e->args);
  char x[96];
  *is_builtin = true;
  if (strcmp(n, "min") == 0 || strcmp(n, "max") == 0 || strcmp(n, "clamp") == 0) {
    bool clamp = n[0] == 'c';
    rg_type t = T_NONE;
    bool bad = false;
    if (clamp && argc != 3) {
      rgc_err(cs, e->pos, "clamp takes 3 arguments (x, lo, hi), not %u", argc);
      return T_ERR;
    }
    if (!clamp && argc < 2) {
      rgc_err(cs, e->pos, "%s takes at least 2 arguments, not %u", n, argc);
      return T_ERR;
    }
    for (rg_expr *a = e->args; a; a = a->next) {
      rg_type ta = rgc_expr(cs, a, t.kind == RG_K_VOID ? want : t);
      if (rgc_is_err(ta)) { bad = true; continue; }
      if (!rgc_numeric(ta) && !(ta.kind == RG_K_ENUM && AT(cs->enums, rg_enum, ta.ref).ordered)) {
        rgc_err(cs, a->pos, "%s needs numbers or an ordered enum, not %s", n, rgc_tname(cs, ta, x, sizeof x));
        bad = true;
        continue;
      }
      if (t.kind == RG_K_VOID) t = ta;
      else if (!rgc_check_type(cs, a->pos, ta, t, "this argument")) bad = true;
    }
    if (bad) return T_ERR;
    if (clamp) rgc_emit(cs, RG_OP_CLAMP, 0);
    else rgc_emit(cs, n[1] == 'i' ? RG_OP_MIN : RG_OP_MAX, argc);
    return t;
  }
  if (strcmp(n, "wrap") == 0) {
    /* wrap(x, lo, hi): x brought into lo..hi by wrapping around, as the rows
    ** of a map whose top and bottom lines meet: lo + (x - lo) mod n, never
    ** negative.  lo and hi are constants; x is evaluated once. */
    rg_value lo, hi, span;
    rg_type tl, th, tx;
    if (argc != 3) {
      rgc_err(cs, e->pos, "wrap takes 3 arguments (x, lo, hi), not %u", argc);
      return T_ERR;
    }
    {
      rg_expr *lo_e = e->args->next, *hi_e = lo_e->next;
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
  if (strcmp(n, "abs") == 0 || strcmp(n, "count") == 0 || strcmp(n, "ord") == 0) {
    rg_type ta;
    if (argc != 1) {
      rgc_err(cs, e->pos, "%s takes 1 argument, not %u", n, argc);
      return T_ERR;
    }
    ta = rgc_expr(cs, e->args, T_NONE);
    if (rgc_is_err(ta)) return T_ERR;
    if (n[0] == 'a') {
      if (!rgc_numeric(ta)) { rgc_err(cs, e->args->pos, "abs needs a number, not %s", rgc_tname(cs, ta, x, sizeof x)); return T_ERR; }
      rgc_emit(cs, RG_OP_ABS, 0);
      return ta;
    }
    if (n[0] == 'c') {
      if (ta.kind != RG_K_SET) { rgc_err(cs, e->args->pos, "count needs a set, not %s", rgc_tname(cs, ta, x, sizeof x)); return T_ERR; }
      rgc_emit(cs, RG_OP_COUNT, 0);
      return T_INT;
    }
    if (ta.kind != RG_K_ENUM) { rgc_err(cs, e->args->pos, "ord needs an enum member, not %s", rgc_tname(cs, ta, x, sizeof x)); return T_ERR; }
    return T_INT;
  }
  *is_builtin = false;
  return T_ERR;
}

/* name(args): a procedure rgc_call (or a builtin).  Pushes the result, if any. */
rg_type rgc_call(cstate *cs, rg_expr *e, rg_type want) {
  bool is_builtin;
  rg_type t = builtin(cs, e, want, &is_builtin);
  sym *s;
  if (!is_builtin) t = builtin2(cs, e, want, &is_builtin);
  if (!is_builtin) t = shape_call(cs, e, &is_builtin);
  const rg_proc *p;
  uint32_t argc = rgc_count_list(e->args), i = 0;
  bool bad = false;
  if (is_builtin) return t;
  s = rgc_lookup(cs, e->name);
  if (!s || s->kind != S_PROC) {
    if (s) rgc_err(cs, e->pos, "'%s' is not a procedure", e->name);
    else {
      rgc_near nr;
      rgc_near_init(&nr, e->name);
      rgc_near_names(cs, &nr, RGC_KIND(S_PROC), false, false);
#define RG_X(name, kind, argc, args) rgc_near_offer(&nr, #name);
      RG_BUILTINS(RG_X)
#undef RG_X
      rgc_err(cs, e->pos, "unknown procedure '%s'%s", e->name, rgc_near_hint(cs, &nr, "'"));
    }
    for (rg_expr *a = e->args; a; a = a->next) rgc_probe(cs, a, T_NONE);
    return T_ERR;
  }
  p = &AT(cs->procs, rg_proc, s->index);
  if (argc != p->nparams) {
    rgc_err(cs, e->pos, "%s takes %u argument%s, not %u", e->name, p->nparams,
        p->nparams == 1 ? "" : "s", argc);
    return T_ERR;
  }
  for (rg_expr *a = e->args; a; a = a->next, i++) {
    rg_type pt = AT(cs->params, rg_param_info, p->first_param + i).type;
    rg_type ta = rgc_expr(cs, a, pt);
    if (!rgc_check_type(cs, a->pos, ta, pt, "this argument")) bad = true;
    if (rgc_is_err(ta)) bad = true;
  }
  cs->pos = e->pos;
  rgc_emit(cs, RG_OP_CALL, s->index);
  return bad ? T_ERR : p->result;
}

/* Compiles argument a expecting a list; returns its type or T_ERR. */
static rg_type list_arg(cstate *cs, rg_expr *a, const char *fn, rg_type want) {
  rg_type t = rgc_expr(cs, a, want);
  char x[96];
  if (rgc_is_err(t)) return t;
  if (t.kind != RG_K_LIST) {
    rgc_err(cs, a->pos, "%s needs a list, not %s", fn, rgc_tname(cs, t, x, sizeof x));
    return T_ERR;
  }
  return t;
}

/* Compiles argument a expecting an int. */
bool rgc_int_arg(cstate *cs, rg_expr *a) {
  rg_type t = rgc_expr(cs, a, T_INT);
  return !rgc_is_err(t) && rgc_check_type(cs, a->pos, t, T_INT, "this argument");
}

/* Looks up argument a as the name of a declaration of kind k. */
static sym *named_arg(cstate *cs, rg_expr *a, symkind k, const char *what) {
  sym *s = a->kind == RG_EX_NAME ? rgc_lookup(cs, a->name) : NULL;
  if (!s || s->kind != k) {
    rgc_err(cs, a->pos, "this argument must name %s", what);
    return NULL;
  }
  return s;
}

/* The shapes a rule file can draw, and their arguments: n a number (int,
** percent or distance, in the sheet's own units), s a style text, v any
** value shown as text, L a list of numbers (x1, y1, x2, y2, ...). */
static const struct { const char *name, *args; } shapes[] = {
#define RG_X(n, kind, argc, args) RG_BUILTIN_IF_SHAPE_##kind({ #n, args },)
  RG_BUILTINS(RG_X)
#undef RG_X
  { NULL, NULL }
};

/* A shape statement: canvas(name, width, height, title), rect(x, y, w, h,
** style, label), line(x1, y1, x2, y2, style), circle(x, y, r, style,
** label), polygon(points, style, label), label(x, y, text, style).  Emits
** SHAPE with a note entry naming the kind and the argument types.  Returns
** T_NONE, or T_ERR; *is_shape says whether name is a shape. */
static rg_type shape_call(cstate *cs, rg_expr *e, bool *is_shape) {
  const char *args;
  uint32_t argc = rgc_count_list(e->args), k = 0;
  rg_type *types;
  bool bad = false;
  char x[96];
  int i;
  for (i = 0; shapes[i].name; i++)
    if (strcmp(shapes[i].name, e->name) == 0) break;
  *is_shape = shapes[i].name != NULL;
  if (!*is_shape) return T_ERR;
  args = shapes[i].args;
  if (argc != strlen(args)) {
    rgc_err(cs, e->pos, "%s takes %zu arguments, not %u", e->name, strlen(args), argc);
    return T_ERR;
  }
  types = rgc_alloc(cs, argc * sizeof *types + 1);
  for (rg_expr *a = e->args; a; a = a->next, k++) {
    rg_type t = rgc_expr(cs, a, args[k] == 's' ? T_TEXT : T_NONE);
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
  rgc_emit(cs, RG_OP_SHAPE, rgc_note_entry(cs, e->name, types, argc));
  return T_NONE;
}

/* The builtins on lists, decks and choices.  Sets *is_builtin. */
static rg_type builtin2(cstate *cs, rg_expr *e, rg_type want, bool *is_builtin) {
  const char *n = e->name;
  uint32_t argc = rgc_count_list(e->args);
  rg_expr *a1 = e->args, *a2 = a1 ? a1->next : NULL;
  char x[96];
  static const struct { const char *name; uint32_t argc; } sig[] = {
#define RG_X(n, kind, argc, args) RG_BUILTIN_IF_LIST_##kind({ #n, argc },)
    RG_BUILTINS(RG_X)
#undef RG_X
    { NULL, 0 }
  };
  int k;
  *is_builtin = true;
  for (k = 0; sig[k].name; k++)
    if (strcmp(sig[k].name, n) == 0) break;
  if (!sig[k].name) { *is_builtin = false; return T_ERR; }
  /* rolls(who, "what", n, dS) and draws(who, "what", deck, n): labelled
  ** (see rgc_label); the label goes right before the roll or draw. */
  rg_expr *who = NULL;
  const char *what = NULL;
  if ((strcmp(n, "rolls") == 0 || strcmp(n, "draws") == 0) && argc == 4 &&
      a2->kind == RG_EX_STR) {
    who = a1;
    what = a2->str;
    a1 = a2->next;
    a2 = a1->next;
    argc = 2;
  }
  if (sig[k].argc && argc != sig[k].argc) {
    rgc_err(cs, e->pos, "%s takes %u argument%s, not %u", n, sig[k].argc, sig[k].argc == 1 ? "" : "s", argc);
    return T_ERR;
  }
  if (strcmp(n, "len") == 0) {
    if (rgc_is_err(list_arg(cs, a1, n, T_NONE))) return T_ERR;
    rgc_emit(cs, RG_OP_LEN, 0);
    return T_INT;
  }
  if (strcmp(n, "append") == 0) {
    rg_type l = list_arg(cs, a1, n, want), t;
    if (rgc_is_err(l)) return T_ERR;
    t = rgc_expr(cs, a2, l.ref == REF_ANY ? T_NONE : rgc_elem_of(cs, l));
    if (rgc_is_err(t)) return T_ERR;
    if (l.ref == REF_ANY) l = rgc_list_of(cs, t);
    else if (!rgc_check_type(cs, a2->pos, t, rgc_elem_of(cs, l), "the element")) return T_ERR;
    cs->pos = e->pos;
    rgc_emit(cs, RG_OP_APPEND, 0);
    return l;
  }
  if (strcmp(n, "at_least") == 0 && a1->kind == RG_EX_CALL && strcmp(a1->name, "rolls") == 0 &&
      rgc_count_list(a1->args) == 2 && a1->args->next->kind == RG_EX_DICE && a1->args->next->ival == 1) {
    /* at_least(rolls(n, dS), k): count the dice, no list (a dice pool). */
    if (!rgc_int_arg(cs, a1->args) || !rgc_int_arg(cs, a2)) return T_ERR;
    cs->pos = e->pos;
    rgc_emit(cs, RG_OP_ROLLAT, (uint32_t)a1->args->next->sides);
    return T_INT;
  }
  if (strcmp(n, "without") == 0 || strcmp(n, "best") == 0 || strcmp(n, "at_least") == 0) {
    rg_type l = list_arg(cs, a1, n, want);
    if (rgc_is_err(l)) return T_ERR;
    if (n[0] == 'a') {
      rg_type el = rgc_elem_of(cs, l), t = rgc_expr(cs, a2, el);
      if (rgc_is_err(t) || !rgc_check_type(cs, a2->pos, t, el, "the threshold")) return T_ERR;
    } else if (!rgc_int_arg(cs, a2)) return T_ERR;
    cs->pos = e->pos;
    rgc_emit(cs, n[0] == 'w' ? RG_OP_REMOVE : n[0] == 'b' ? RG_OP_BEST : RG_OP_ATLEAST, 0);
    return n[0] == 'a' ? T_INT : l;
  }
  if (strcmp(n, "sorted") == 0 || strcmp(n, "sum") == 0) {
    rg_type l = list_arg(cs, a1, n, want), el;
    if (rgc_is_err(l)) return T_ERR;
    el = rgc_elem_of(cs, l);
    if (!rgc_numeric(el) && !(n[1] == 'o' && el.kind == RG_K_ENUM && AT(cs->enums, rg_enum, el.ref).ordered)) {
      rgc_err(cs, a1->pos, "%s needs a list of numbers%s, not %s", n, n[1] == 'o' ? " or ordered members" : "",
          rgc_tname(cs, l, x, sizeof x));
      return T_ERR;
    }
    rgc_emit(cs, n[1] == 'o' ? RG_OP_SORT : RG_OP_SUM, 0);
    return n[1] == 'o' ? l : el;
  }
  if (strcmp(n, "members") == 0) {
    rg_type t = rgc_expr(cs, a1, T_NONE);
    if (rgc_is_err(t)) return T_ERR;
    if (t.kind != RG_K_SET || t.ref == REF_ANY) {
      rgc_err(cs, a1->pos, "members needs a set of a known enum, not %s", rgc_tname(cs, t, x, sizeof x));
      return T_ERR;
    }
    rgc_emit(cs, RG_OP_SETLIST, 0);
    return rgc_list_of(cs, rgc_mktype(RG_K_ENUM, t.ref));
  }
  if (strcmp(n, "rolls") == 0) {
    if (a2->kind != RG_EX_DICE || a2->ival != 1) {
      rgc_err(cs, a2->pos, "the second argument of rolls is one kind of die, like d6");
      return T_ERR;
    }
    if (!rgc_int_arg(cs, a1)) return T_ERR;
    if (who && !rgc_label(cs, who, what, e->pos)) return T_ERR;
    cs->pos = e->pos;
    rgc_emit(cs, RG_OP_ROLLS, (uint32_t)a2->sides);
    return rgc_list_of(cs, T_INT);
  }
  if (strcmp(n, "left") == 0) {
    sym *d = named_arg(cs, a1, S_DECK, "a deck");
    if (!d) return T_ERR;
    rgc_emit(cs, RG_OP_LEFT, d->index);
    return T_INT;
  }
  if (strcmp(n, "draws") == 0) {
    sym *d = named_arg(cs, a1, S_DECK, "a deck");
    if (!d || !rgc_int_arg(cs, a2)) return T_ERR;
    if (who && !rgc_label(cs, who, what, e->pos)) return T_ERR;
    cs->pos = e->pos;
    rgc_emit(cs, RG_OP_DRAWS, d->index);
    return rgc_list_of(cs, AT(cs->decks, rg_deck, d->index).card);
  }
  if (strcmp(n, "nth") == 0) {
    sym *en = named_arg(cs, a1, S_ENUM, "an enum");
    if (!en || !rgc_int_arg(cs, a2)) return T_ERR;
    cs->pos = e->pos;
    rgc_emit(cs, RG_OP_NTH, en->index);
    return rgc_mktype(RG_K_ENUM, en->index);
  }
  /* choose(chooser, "prompt", options) or choose(chooser, "prompt", lo, hi) */
  {
    rg_type who, opt, res;
    rg_choice *c;
    rg_expr *a3;
    uint32_t kind;
    if (argc != 3 && argc != 4) {
      rgc_err(cs, e->pos, "choose takes (chooser, \"prompt\", options) or (chooser, \"prompt\", lo, hi)");
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
    if (argc == 4) {
      if (!rgc_int_arg(cs, a3) || !rgc_int_arg(cs, a3->next)) return T_ERR;
      kind = RG_OPT_RANGE;
      res = T_INT;
    } else {
      rg_type w = T_NONE;
      if (want.kind == RG_K_ENUM) w = rgc_mktype(RG_K_SET, want.ref);
      opt = rgc_expr(cs, a3, w);
      if (rgc_is_err(opt)) return T_ERR;
      if (opt.kind == RG_K_SET && opt.ref != REF_ANY) { kind = RG_OPT_SET; res = rgc_mktype(RG_K_ENUM, opt.ref); }
      else if (opt.kind == RG_K_LIST && opt.ref != REF_ANY) { kind = RG_OPT_LIST; res = rgc_elem_of(cs, opt); }
      else {
        rgc_err(cs, a3->pos, "the options must be a set, a list or a range lo, hi; not %s", rgc_tname(cs, opt, x, sizeof x));
        return T_ERR;
      }
    }
    c = rgc_push(cs, &cs->choices);
    if (!c) return T_ERR;
    c->prompt = rgc_intern(cs, a2->str);
    c->chooser = who;
    c->option = res;
    c->kind = kind;
    c->flags = e->secret ? RG_CHOICE_SECRET : 0;
    cs->pos = e->pos;
    rgc_emit(cs, RG_OP_CHOOSE, cs->choices.n - 1);
    return res;
  }
}
