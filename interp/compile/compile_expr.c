/*
** compile_expr.c: expressions.  Each is checked against the type its
** context wants and compiled to code that pushes its value (rgc_expr), or
** to jumps (rgc_cond for conditions).  Calls are in compile_call.c.
*/
#include "compile_int.h"
#include "opcodes.h"

#include <stdio.h>

/* ======================================================================
** Expressions
** ==================================================================== */


/* Type-checks e without keeping its code or reporting its errors. */
rgi_type rgc_probe(cstate *cs, rgi_expr *e, rgi_type want) {
  uint32_t ncode = cs->code.n, nlines = cs->lines.n;
  rgi_type t;
  cs->quiet++;
  t = rgc_expr(cs, e, want);
  cs->quiet--;
  cs->code.n = ncode;
  cs->lines.n = nlines;
  return t;
}

/* Returns whether e takes its type from context: a bare member name, a
** quoted display name, an empty set or a record literal. */
bool rgc_needs_context(cstate *cs, rgi_expr *e) {
  switch (e->kind) {
  case RG_EX_NAME: return !rgc_find_local(cs, e->name) && !rgc_lookup(cs, e->name);
  case RG_EX_STR: return true;
  case RG_EX_SET: return e->args == NULL;
  case RG_EX_LIST:             /* [], and lists of them: [[]], [[], {}] */
    for (rgi_expr *a = e->args; a; a = a->next)
      if ((a->kind != RG_EX_LIST && a->kind != RG_EX_SET) || !rgc_needs_context(cs, a)) return false;
    return true;
  case RG_EX_RECORD: return true;
  default: return false;
  }
}

/* Counts a list of expressions. */
uint32_t rgc_count_list(rgi_expr *e) {
  uint32_t n = 0;
  for (; e; e = e->next) n++;
  return n;
}

/* NAME[k] of an input indexed by enum E (input NAME[E]): the input of
** member k.  A constant k reads its input directly; otherwise k goes to a
** hidden local and a chain picks the input:
**     LOAD k; PUSH i; EQ; JMPF next; INPUT first + i; JMP end; next: ...
** ending with the last member's input. */
static rgi_type input_index(cstate *cs, rgi_expr *e, sym *s) {
  rgi_type it = rgc_resolve_type(cs, s->decl->index), kt;
  const rgi_enum *en;
  uint32_t key, n, input[64];
  if (rgc_is_err(it) || rgc_is_err(s->type)) return T_ERR;
  if (rgc_count_list(e->args) != 1) {
    rgc_err(cs, e->pos, "input %s takes 1 key (a %s), not %u", s->name, s->decl->index->name,
        rgc_count_list(e->args));
    return T_ERR;
  }
  en = &AT(cs->enums, rgi_enum, it.ref);
  n = en->count;
  if (rgc_foldable(cs, e->args)) {
    rgi_value v;
    kt = rgc_fold(cs, e->args, it, &v);
    if (rgc_is_err(kt) || !rgc_check_type(cs, e->args->pos, kt, it, "this key")) return T_ERR;
    cs->pos = e->pos;
    rgc_emit(cs, RG_OP_INPUT, s->index + (uint32_t)v);
    return s->type;
  }
  kt = rgc_expr(cs, e->args, it);
  if (rgc_is_err(kt) || !rgc_check_type(cs, e->args->pos, kt, it, "this key")) return T_ERR;
  key = rgc_add_local(cs, e->pos, " key", it);
  cs->pos = e->pos;
  rgc_emit(cs, RG_OP_STORE, key);
  for (uint32_t k = 0; k < n; k++) input[k] = s->index + k;
  rgc_emit_by_member(cs, key, n, RG_OP_INPUT, input);
  return s->type;
}

/* t[keys]: a table lookup. */
static rgi_type index_expr(cstate *cs, rgi_expr *e) {
  sym *s = e->a->kind == RG_EX_NAME && !rgc_find_local(cs, e->a->name) ? rgc_lookup(cs, e->a->name) : NULL;
  const rgi_table *tb;
  uint32_t argc = rgc_count_list(e->args), i = 0;
  bool bad = false;
  if ((!s || (s->kind != S_TABLE && s->kind != S_INPUT)) && !(e->a->kind == RG_EX_NAME && !s &&
                                                              !rgc_find_local(cs, e->a->name))) {
    /* An expression that is not a table: a list, indexed from 0. */
    rgi_type l = rgc_expr(cs, e->a, T_NONE);
    char x[RGI_TYPE_NAME_SIZE];
    if (rgc_is_err(l)) return T_ERR;
    if (l.kind != RG_K_LIST) {
      rgc_err(cs, e->a->pos, "only tables and lists can be indexed with [...], not %s", rgc_tname(cs, l, x, sizeof x));
      return T_ERR;
    }
    if (argc != 1) {
      rgc_err(cs, e->pos, "a list takes 1 index, not %u", argc);
      return T_ERR;
    }
    if (!rgc_int_arg(cs, e->args)) return T_ERR;
    cs->pos = e->pos;
    rgc_emit(cs, RG_OP_ITEM, 0);
    if (l.ref == REF_ANY) {
      rgc_err(cs, e->a->pos, "the elements of [] have no known type here; give the list one, "
          "such as let x: list T = []");
      return T_ERR;
    }
    return rgc_elem_of(cs, l);
  }
  if (s && s->kind == S_INPUT && s->decl->index) return input_index(cs, e, s);
  if (!s || s->kind != S_TABLE) {
    if (e->a->kind == RG_EX_NAME && !s && !rgc_find_local(cs, e->a->name))
      rgc_err(cs, e->a->pos, "unknown table '%s'%s", e->a->name,
          rgc_hint_name(cs, e->a->name, RGC_KIND(S_TABLE) | RGC_KIND(S_INPUT), false, true));
    else rgc_err(cs, e->a->pos, "only tables can be indexed with [...]");
    return T_ERR;
  }
  tb = &AT(cs->tables, rgi_table, s->index);
  if (argc != tb->ndims) {
    rgc_err(cs, e->pos, "table %s takes %u key%s, not %u", s->name, tb->ndims,
        tb->ndims == 1 ? "" : "s", argc);
    return T_ERR;
  }
  for (rgi_expr *k = e->args; k; k = k->next, i++) {
    const rgi_dim *dm = &AT(cs->dims, rgi_dim, tb->first_dim + i);
    rgi_type kt = dm->is_enum ? rgc_mktype(RG_K_ENUM, dm->ref) : T_INT;
    rgi_type t = rgc_expr(cs, k, kt);
    if (rgc_is_err(t) || !rgc_check_type(cs, k->pos, t, kt, "this key")) bad = true;
  }
  cs->pos = e->pos;
  rgc_emit(cs, RG_OP_LOOKUP, s->index);
  return bad ? T_ERR : tb->value;
}

/* Returns whether e can be folded here: no locals, no calls, no lookups. */
bool rgc_foldable(cstate *cs, rgi_expr *e) {
  for (; e; e = e->next) {
    switch (e->kind) {
    case RG_EX_NAME: if (rgc_find_local(cs, e->name)) return false; break;
    case RG_EX_INT: case RG_EX_PERCENT: case RG_EX_DIST: case RG_EX_STR: case RG_EX_BOOL: break;
    case RG_EX_FIELD:
      if (e->a->kind != RG_EX_NAME || rgc_find_local(cs, e->a->name)) return false;
      break;
    case RG_EX_UNARY: if (!rgc_foldable(cs, e->a)) return false; break;
    case RG_EX_BINARY: if (!rgc_foldable(cs, e->a) || !rgc_foldable(cs, e->b)) return false; break;
    case RG_EX_SET: if (!rgc_foldable(cs, e->args)) return false; break;
    case RG_EX_RECORD:
      if (e->a) return false;   /* { a with ... } is built when the rules run */
      for (rgi_fieldinit *f = e->fields; f; f = f->next)
        if (f->value->next || !rgc_foldable(cs, f->value)) return false;
      break;
    default: return false;
    }
  }
  return true;
}

/* A set literal: folded to a mask when constant, else built with SETADD. */
static rgi_type set_expr(cstate *cs, rgi_expr *e, rgi_type want) {
  rgi_type elem = T_NONE;
  bool bad = false;
  if (rgc_foldable(cs, e->args)) {
    rgi_value v;
    rgi_type t = rgc_fold(cs, e, want, &v);
    if (!rgc_is_err(t)) rgc_emit_value(cs, v);
    return t;
  }
  if (want.kind == RG_K_SET && want.ref != REF_ANY) elem = rgc_mktype(RG_K_ENUM, want.ref);
  rgc_emit_value(cs, 0);
  for (rgi_expr *m = e->args; m; m = m->next) {
    rgi_type t = rgc_expr(cs, m, elem);
    if (rgc_is_err(t)) { bad = true; continue; }
    if (t.kind != RG_K_ENUM) {
      char x[RGI_TYPE_NAME_SIZE];
      rgc_err(cs, m->pos, "a set's members must be enum members, not %s", rgc_tname(cs, t, x, sizeof x));
      bad = true;
      continue;
    }
    if (elem.kind == RG_K_VOID) elem = t;
    else if (!rgc_check_type(cs, m->pos, t, elem, "a member of this set")) { bad = true; continue; }
    rgc_emit(cs, RG_OP_SETADD, 0);
  }
  if (bad) return T_ERR;
  return rgc_mktype(RG_K_SET, elem.ref);
}

/* A record literal built at run time: its fields in declared order, then
** MKREC; folded into the constant heap when every field is constant. */
static rgi_type record_expr(cstate *cs, rgi_expr *e, rgi_type want) {
  const rgi_record *rec;
  rgi_expr **byfield;
  bool bad = false;
  uint32_t base = 0;
  if (e->a) {
    /* { a with f: v, ... }: a is stored in a hidden local, the fields not
    ** given are read from it */
    char x[RGI_TYPE_NAME_SIZE];
    rgi_type bt = rgc_expr(cs, e->a, want);
    if (rgc_is_err(bt)) return T_ERR;
    if (bt.kind != RG_K_RECORD) {
      rgc_err(cs, e->a->pos, "'with' needs a record to copy, not %s", rgc_tname(cs, bt, x, sizeof x));
      return T_ERR;
    }
    if (!rgc_is_err(want) && want.kind != RG_K_VOID && !rgc_check_type(cs, e->pos, bt, want, "the record"))
      return T_ERR;
    want = bt;
    base = rgc_add_local(cs, e->pos, " with", bt);
    cs->pos = e->pos;
    rgc_emit(cs, RG_OP_STORE, base);
  }
  if (want.kind != RG_K_RECORD) {
    if (!rgc_is_err(want)) rgc_err(cs, e->pos, "a record literal needs a record type from its context");
    return T_ERR;
  }
  if (rgc_foldable(cs, e)) {
    rgi_value v;
    rgi_type t = rgc_fold(cs, e, want, &v);
    if (!rgc_is_err(t)) rgc_emit_value(cs, v);
    return t;
  }
  rec = &AT(cs->records, rgi_record, want.ref);
  byfield = rgc_alloc(cs, rec->count * sizeof *byfield);
  for (rgi_fieldinit *f = e->fields; f; f = f->next) {
    uint32_t k;
    for (k = 0; k < rec->count; k++)
      if (strcmp(cs->pool + AT(cs->fields, rgi_field_info, rec->first + k).name, f->name) == 0)
        break;
    if (k == rec->count) {
      rgc_err(cs, f->pos, "record %s has no field '%s'%s", cs->pool + rec->name, f->name,
          rgc_hint_field(cs, want.ref, f->name));
      bad = true;
    } else if (byfield[k]) {
      rgc_err(cs, f->pos, "field '%s' is given twice", f->name);
      bad = true;
    } else byfield[k] = f->value;
  }
  for (uint32_t k = 0; k < rec->count; k++) {
    rgi_type ft = AT(cs->fields, rgi_field_info, rec->first + k).type;
    rgi_type t;
    if (!byfield[k] && e->a) {
      cs->pos = e->pos;
      rgc_emit(cs, RG_OP_LOAD, base);
      rgc_emit(cs, RG_OP_FIELD, k);
      continue;
    }
    if (!byfield[k]) {
      if (!bad) rgc_err(cs, e->pos, "field '%s' of %s is missing",
                    cs->pool + AT(cs->fields, rgi_field_info, rec->first + k).name,
                    cs->pool + rec->name);
      bad = true;
      continue;
    }
    t = rgc_expr(cs, byfield[k], ft);
    if (rgc_is_err(t) || !rgc_check_type(cs, byfield[k]->pos, t, ft, "this field")) bad = true;
  }
  cs->pos = e->pos;
  rgc_emit(cs, RG_OP_MKREC, want.ref);
  return bad ? T_ERR : want;
}

/* [a, b, ...]: a list literal built on the run heap. */
static rgi_type list_expr(cstate *cs, rgi_expr *e, rgi_type want) {
  rgi_type elem = want.kind == RG_K_LIST && want.ref != REF_ANY ? rgc_elem_of(cs, want) : T_NONE;
  uint32_t n = 0;
  bool bad = false;
  for (rgi_expr *a = e->args; a; a = a->next, n++) {
    rgi_type t = rgc_expr(cs, a, elem);
    if (rgc_is_err(t)) { bad = true; continue; }
    if (elem.kind == RG_K_VOID) elem = t;
    else if (!rgc_check_type(cs, a->pos, t, elem, "an element of this list")) bad = true;
    else if (rgc_is_any(elem)) elem = t;      /* [[], [1]]: the first [] is a list int */
  }
  cs->pos = e->pos;
  rgc_emit(cs, RG_OP_LIST, n);
  if (bad) return T_ERR;
  if (elem.kind == RG_K_VOID) {
    rgi_type any = { RG_K_LIST, REF_ANY };
    return want.kind == RG_K_LIST ? want : any;
  }
  return rgc_list_of(cs, elem);
}

/* Compiles boolean expression e as jumping code (nothing is pushed): control
** leaves through a jump added to *list, for the caller to patch, when the
** value of e is jump_when, and falls through when it is not.
**
**   a and b    jump_when false: a, then b, each jumping to *list when false;
**              jump_when true: a jumping past b when false, then b as e
**   a or b     the same with true and false swapped
**   not a      a with jump_when flipped: no NOT
**   true/false JMP to *list when the literal is jump_when, else nothing
**   other      e's value, then JMPT (jump_when true) or JMPF
**
** Short circuit as in a value: b runs only when a does not decide.  The
** jumps carry cs->pos (the caller's position).  Returns the type of e with
** the errors expr would report (the caller reports a type other than bool;
** T_ERR after reporting). */
rgi_type rgc_cond(cstate *cs, rgi_expr *e, bool jump_when, jumps **list) {
  if (e->kind == RG_EX_BINARY && (e->op == RG_AOP_AND || e->op == RG_AOP_OR)) {
    bool decides = e->op == RG_AOP_OR;   /* the value of a that decides e */
    const char *what = e->op == RG_AOP_AND ? "'and' operand" : "'or' operand";
    jumps *skip = NULL;
    rgi_type ta, tb;
    ta = rgc_cond(cs, e->a, decides, decides == jump_when ? list : &skip);
    rgc_check_type(cs, e->a->pos, ta, T_BOOL, what);
    tb = rgc_cond(cs, e->b, jump_when, list);
    rgc_check_type(cs, e->b->pos, tb, T_BOOL, what);
    rgc_patch_list(cs, skip, rgc_here(cs));
    return rgc_is_err(ta) || rgc_is_err(tb) ? T_ERR : T_BOOL;
  }
  if (e->kind == RG_EX_UNARY && e->op == RG_AOP_NOT) {
    rgi_type ta = rgc_cond(cs, e->a, !jump_when, list);
    return rgc_unop_type(cs, e->pos, e->op, ta);
  }
  if (e->kind == RG_EX_BOOL) {
    rgi_value v;
    rgi_type t = rgc_fold(cs, e, T_BOOL, &v);
    if (!rgc_is_err(t) && (v != 0) == jump_when) rgc_emit_jump(cs, RG_OP_JMP, list);
    return t;
  }
  {
    rgi_type t = rgc_expr(cs, e, T_BOOL);
    rgc_emit_jump(cs, jump_when ? RG_OP_JMPT : RG_OP_JMPF, list);
    return t;
  }
}

/* The type of values compared by a value operation (EQV, LISTHASV,
** LISTSUB) on a and b: the one that is not an empty literal's `list of
** anything` (int when both are: no element is ever compared). */
static rgi_type value_type(rgi_type a, rgi_type b) {
  if (a.kind == RG_K_LIST && a.ref == REF_ANY) a = b;
  if (a.kind == RG_K_LIST && a.ref == REF_ANY) return T_INT;
  return a;
}

/* Emits the code of binary operator op on values of types ta and tb (both
** on the stack): records and lists compare as values (EQV), `x in l` over
** records or lists and `l - m` go element by element as values. */
static void emit_binop(cstate *cs, rgi_op op, rgi_type ta, rgi_type tb) {
  bool compound = ta.kind == RG_K_RECORD || ta.kind == RG_K_LIST;
  if ((op == RG_AOP_EQ || op == RG_AOP_NE) && compound) {
    rgi_type t = value_type(ta, tb);
    /* [] == []: two lists of anything, compared as (empty) lists of ints */
    if (t.kind == RG_K_INT) t = rgc_list_of(cs, T_INT);
    rgc_emit(cs, RG_OP_EQV, rgc_type_index(cs, t));
    if (op == RG_AOP_NE) rgc_emit(cs, RG_OP_NOT, 0);
  } else if (op == RG_AOP_IN && tb.kind == RG_K_LIST && compound) {
    /* [] in l: the element type of l's elements; [] in []: never compared */
    rgi_type t = value_type(ta, tb.ref == REF_ANY ? ta : rgc_elem_of(cs, tb));
    if (t.kind == RG_K_INT) t = rgc_list_of(cs, T_INT);
    rgc_emit(cs, RG_OP_LISTHASV, rgc_type_index(cs, t));
  } else if (op == RG_AOP_SUB && ta.kind == RG_K_LIST) {
    rgi_type t = value_type(ta, tb);
    rgc_emit(cs, RG_OP_LISTSUB, t.kind == RG_K_LIST ? rgc_type_index(cs, rgc_elem_of(cs, t)) : rgc_type_index(cs, t));
  } else {
    rgc_emit(cs, rgc_binop_code(op, ta, tb), 0);
  }
}

/* a op b, with short-circuit and/or and context passed between operands.
** The value of `a and b` is a as a condition, jumping to PUSHI 0 when
** false, else b's value (`a or b`: to PUSHI 1 when a is true). */
static rgi_type binary(cstate *cs, rgi_expr *e, rgi_type want) {
  rgi_type ta, tb, wa = T_NONE, wb = T_NONE, t;
  rgi_op op = e->op;
  if (op == RG_AOP_AND || op == RG_AOP_OR) {
    jumps *decided = NULL;   /* where a alone decides the value */
    cs->pos = e->pos;
    ta = rgc_cond(cs, e->a, op == RG_AOP_OR, &decided);
    rgc_check_type(cs, e->a->pos, ta, T_BOOL, op == RG_AOP_AND ? "'and' operand" : "'or' operand");
    tb = rgc_expr(cs, e->b, T_BOOL);
    rgc_check_type(cs, e->b->pos, tb, T_BOOL, op == RG_AOP_AND ? "'and' operand" : "'or' operand");
    if (decided) {
      uint32_t jend;
      cs->pos = e->pos;
      jend = rgc_emit(cs, RG_OP_JMP, 0);
      rgc_patch_list(cs, decided, rgc_here(cs));
      rgc_emit_value(cs, op == RG_AOP_OR);
      rgc_patch(cs, jend, rgc_here(cs));
    }
    return rgc_is_err(ta) || rgc_is_err(tb) ? T_ERR : T_BOOL;
  }
  if (rgc_numeric(want) || want.kind == RG_K_SET) wa = want;
  if (rgc_needs_context(cs, e->a) &&
      (!rgc_needs_context(cs, e->b) || (e->a->kind == RG_EX_STR && e->b->kind == RG_EX_NAME))) {
    rgi_type pb = rgc_probe(cs, e->b, T_NONE);
    if (op == RG_AOP_IN) {
      if (pb.kind == RG_K_SET && pb.ref != REF_ANY) wa = rgc_mktype(RG_K_ENUM, pb.ref);
      if (pb.kind == RG_K_LIST && pb.ref != REF_ANY) wa = rgc_elem_of(cs, pb);
    }
    else if (op != RG_AOP_MUL && op != RG_AOP_DIV && op != RG_AOP_MOD) wa = pb;
  }
  ta = rgc_expr(cs, e->a, wa);
  if (op == RG_AOP_IN) wb = ta.kind == RG_K_ENUM ? rgc_mktype(RG_K_SET, ta.ref) : T_NONE;
  if (op == RG_AOP_IN && e->b->kind == RG_EX_LIST && !rgc_is_err(ta)) wb = rgc_list_of(cs, ta);
  else if (op == RG_AOP_MUL || op == RG_AOP_DIV || op == RG_AOP_MOD) wb = ta.kind == RG_K_SET ? ta : T_NONE;
  else wb = ta;
  tb = rgc_expr(cs, e->b, wb);
  cs->pos = e->oppos;
  t = rgc_binop_type(cs, e->oppos, op, ta, tb);
  if (!rgc_is_err(t)) emit_binop(cs, op, ta, tb);
  return t;
}

/* The label of a roll or draw: `roll(who, "what", DIE)`.  Compiles who and
** emits LABEL with a choice site holding what and who's type (the site is
** never a choice: LABEL only names it), so that the next roll or draw is
** asked of people as "WHO, WHAT: roll DIE".  Returns false after an error. */
bool rgc_label(cstate *cs, rgi_expr *who, const char *what, rgi_pos pos) {
  rgi_type t = rgc_expr(cs, who, T_NONE);
  rgi_choice *c;
  if (rgc_is_err(t)) return false;
  if (t.kind == RG_K_RECORD || t.kind == RG_K_LIST || t.kind == RG_K_VOID) {
    rgc_err(cs, who->pos, "who rolls or draws must be a simple value, such as a side");
    return false;
  }
  c = rgc_push(cs, &cs->choices);
  c->prompt = rgc_intern(cs, what);
  c->chooser = t;
  c->option = T_INT;
  c->kind = RG_OPT_LIST;
  c->flags = 0;
  cs->pos = pos;
  rgc_emit(cs, RG_OP_LABEL, cs->choices.n - 1);
  return true;
}

/* roll NAME, NAME a local of enum type E: rolls the die named by NAME's
** value.  Every member of E must name a die (a die declared with the
** member's code as its name), all with one face type.  Compiles to a chain
**     LOAD x; PUSH k; EQ; JMPF next; ROLLDIE die(k); JMP end; next: ...
** ending with the last member's die (the value is always a member).
** Returns the face type. */
static rgi_type roll_by_value(cstate *cs, rgi_expr *e, local *l) {
  uint32_t en, n, die[64];
  rgi_type face = T_NONE;
  char x[RGI_TYPE_NAME_SIZE];
  if (l->type.kind != RG_K_ENUM) {
    rgc_err(cs, e->pos, "roll %s: '%s' is %s; roll takes a die, or a member naming a die",
        e->name, e->name, rgc_tname(cs, l->type, x, sizeof x));
    return T_ERR;
  }
  en = l->type.ref;
  n = AT(cs->enums, rgi_enum, en).count;
  for (uint32_t k = 0; k < n; k++) {
    const char *code = cs->pool + AT(cs->members, rgi_member_info,
                                     AT(cs->enums, rgi_enum, en).first + k).code;
    sym *d = rgc_lookup(cs, code);
    rgi_type f;
    if (!d || d->kind != S_DICE) {
      rgc_err(cs, e->pos, "roll %s: member %s of %s names no die (declare 'dice %s')",
          e->name, code, cs->pool + AT(cs->enums, rgi_enum, en).name, code);
      return T_ERR;
    }
    f = AT(cs->dice, rgi_dice, d->index).face;
    if (k > 0 && !(f.kind == face.kind && f.ref == face.ref)) {
      char y[RGI_TYPE_NAME_SIZE];
      rgc_err(cs, e->pos, "roll %s: die %s has faces of %s, die %s of %s; the dice must match",
          e->name, code, rgc_tname(cs, f, x, sizeof x),
          cs->pool + AT(cs->members, rgi_member_info, AT(cs->enums, rgi_enum, en).first).code,
          rgc_tname(cs, face, y, sizeof y));
      return T_ERR;
    }
    face = f;
    die[k] = d->index;
  }
  rgc_emit_by_member(cs, l->slot, n, RG_OP_ROLLDIE, die);
  return face;
}

/* Compiles e so that it pushes one value; returns its type (T_ERR after
** reporting).  want is the type the context expects, or T_NONE. */
rgi_type rgc_expr(cstate *cs, rgi_expr *e, rgi_type want) {
  rgi_pos saved = cs->pos;
  rgi_type t = T_ERR;
  cs->pos = e->pos;
  switch (e->kind) {
  case RG_EX_NAME: {
    local *l = rgc_find_local(cs, e->name);
    sym *g;
    if (l) { rgc_emit(cs, RG_OP_LOAD, l->slot); t = l->type; break; }
    g = rgc_lookup(cs, e->name);
    if (g && g->kind == S_INPUT) {
      if (g->decl->index) {
        rgc_err(cs, e->pos, "input '%s' has one value per %s: write %s[KEY]", e->name,
            g->decl->index->name, e->name);
        break;
      }
      if (!rgc_is_err(g->type)) rgc_emit(cs, RG_OP_INPUT, g->index);
      t = g->type;
      break;
    }
  }
  /* fall through */
  case RG_EX_INT: case RG_EX_PERCENT: case RG_EX_DIST: case RG_EX_STR: case RG_EX_BOOL: {
    rgi_value v;
    t = rgc_fold(cs, e, want, &v);
    if (!rgc_is_err(t)) rgc_emit_value(cs, v);
    break;
  }
  case RG_EX_FIELD: {
    if (e->a->kind == RG_EX_NAME && !rgc_find_local(cs, e->a->name)) {
      sym *s = rgc_lookup(cs, e->a->name);
      if (s && s->kind == S_ENUM) {
        rgi_value v;
        t = rgc_fold(cs, e, want, &v);
        if (!rgc_is_err(t)) rgc_emit_value(cs, v);
        break;
      }
    }
    {
      rgi_type rt = rgc_expr(cs, e->a, T_NONE);
      const rgi_record *rec;
      char x[RGI_TYPE_NAME_SIZE];
      if (rgc_is_err(rt)) break;
      if (rt.kind != RG_K_RECORD) {
        rgc_err(cs, e->pos, "'.%s' needs a record, not %s", e->name, rgc_tname(cs, rt, x, sizeof x));
        break;
      }
      rec = &AT(cs->records, rgi_record, rt.ref);
      for (uint32_t k = 0; k < rec->count; k++)
        if (strcmp(cs->pool + AT(cs->fields, rgi_field_info, rec->first + k).name, e->name) == 0) {
          cs->pos = e->pos;
          rgc_emit(cs, RG_OP_FIELD, k);
          t = AT(cs->fields, rgi_field_info, rec->first + k).type;
          break;
        }
      if (rgc_is_err(t))
        rgc_err(cs, e->pos, "record %s has no field '%s'%s", cs->pool + rec->name, e->name,
            rgc_hint_field(cs, rt.ref, e->name));
    }
    break;
  }
  case RG_EX_UNARY: {
    rgi_type ta = rgc_expr(cs, e->a, e->op == RG_AOP_NOT ? T_BOOL : want);
    t = rgc_unop_type(cs, e->pos, e->op, ta);
    cs->pos = e->pos;
    if (!rgc_is_err(t) && e->op == RG_AOP_NEG && rgc_fold_neg(cs, e->a)) break;
    if (!rgc_is_err(t)) rgc_emit(cs, e->op == RG_AOP_NOT ? RG_OP_NOT : RG_OP_NEG, 0);
    break;
  }
  case RG_EX_BINARY: t = binary(cs, e, want); break;
  case RG_EX_INDEX: t = index_expr(cs, e); break;
  case RG_EX_CALL:
    t = rgc_call(cs, e, want);
    if (t.kind == RG_K_VOID) {
      rgc_err(cs, e->pos, "%s gives no value", e->name);
      t = T_ERR;
    }
    break;
  case RG_EX_SET: t = set_expr(cs, e, want); break;
  case RG_EX_RECORD: t = record_expr(cs, e, want); break;
  case RG_EX_LIST: t = list_expr(cs, e, want); break;
  case RG_EX_DICE:
    rgc_err(cs, e->pos, "dice are rolled with 'roll %sd%lld' or rolls(n, d%lld)",
        e->ival > 1 ? "2" : "", (long long)e->sides, (long long)e->sides);
    break;
  case RG_EX_ROLL:
    if (!e->name) {
      if (e->ival < 1 || e->ival > 1000 || e->sides < 1 || e->sides > RG_A_MAX) {
        rgc_err(cs, e->pos, "cannot roll %lld dice of %lld sides", (long long)e->ival, (long long)e->sides);
        break;
      }
      rgc_emit_value(cs, e->ival);
      if (e->a && !rgc_label(cs, e->a, e->str, e->pos)) break;
      rgc_emit(cs, RG_OP_ROLL, (uint32_t)e->sides);
      t = T_INT;
    } else if (rgc_find_local(cs, e->name)) {
      if (e->a && !rgc_label(cs, e->a, e->str, e->pos)) break;
      t = roll_by_value(cs, e, rgc_find_local(cs, e->name));
    } else {
      sym *d = rgc_lookup(cs, e->name);
      if (!d || d->kind != S_DICE) {
        rgc_err(cs, e->pos, "'%s' is not a die (declare it with 'dice')", e->name);
        break;
      }
      if (e->a && !rgc_label(cs, e->a, e->str, e->pos)) break;
      rgc_emit(cs, RG_OP_ROLLDIE, d->index);
      t = AT(cs->dice, rgi_dice, d->index).face;
    }
    break;
  case RG_EX_DRAW: {
    sym *d = rgc_lookup(cs, e->name);
    if (!d || d->kind != S_DECK) {
      rgc_err(cs, e->pos, "'%s' is not a deck (declare it with 'deck')", e->name);
      break;
    }
    if (e->a && !rgc_label(cs, e->a, e->str, e->pos)) break;
    rgc_emit(cs, RG_OP_DRAW, d->index);
    t = AT(cs->decks, rgi_deck, d->index).card;
    break;
  }
  case RG_EX_ERROR: t = T_ERR; break;
  }
  cs->pos = saved;
  return t;
}

