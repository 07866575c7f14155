/*
** compile_fold.c: what each operator accepts and gives, and constant
** folding: members, units, starred distances (the scale), constants folded
** on first use, record and set literals, operators on constants.
*/
#include "compile_int.h"

#include <stdio.h>
#include <limits.h>

/* ======================================================================
** Operators: one place says what each operator accepts and gives
** ==================================================================== */

/* What each kind of symbol is, for messages (indexed by symkind). */
static const char *const symwhat[] = { "a unit", "an enum", "a record type", "a constant",
                                       "a table", "a procedure", "a die", "a deck", "an input" };

static const char *const opsym[] = {
  "-", "not", "+", "-", "*", "/", "mod", "==", "!=", "<", "<=", ">", ">=",
  "and", "or", "in"
};

/* Returns whether t is a numeric type: int, percent or distance. */
bool rgc_numeric(rgi_type t) {
  return t.kind == RG_K_INT || t.kind == RG_K_PERCENT || t.kind == RG_K_DIST;
}

/* Returns the type of `a op b` for operand types a and b, or T_ERR after
** reporting why the operator does not apply. */
rgi_type rgc_binop_type(cstate *cs, rgi_pos pos, rgi_op op, rgi_type a, rgi_type b) {
  char x[RGI_TYPE_NAME_SIZE], y[RGI_TYPE_NAME_SIZE];
  if (rgc_is_err(a) || rgc_is_err(b)) return T_ERR;
  switch (op) {
  case RG_AOP_ADD: case RG_AOP_SUB:
    if ((rgc_numeric(a) || a.kind == RG_K_SET || a.kind == RG_K_LIST) && RGC_COMPAT(a, b))
      return (a.kind == RG_K_SET || a.kind == RG_K_LIST) && a.ref == REF_ANY ? b : a;
    break;
  case RG_AOP_MUL:
    if (a.kind == RG_K_INT && b.kind == RG_K_INT) return a;
    if (rgc_numeric(a) && b.kind == RG_K_INT) return a;
    if (a.kind == RG_K_INT && rgc_numeric(b)) return b;
    if (a.kind == RG_K_SET && RGC_COMPAT(a, b)) return a.ref == REF_ANY ? b : a;
    break;
  case RG_AOP_DIV:
    if (rgc_numeric(a) && b.kind == RG_K_INT) return a;
    if (rgc_numeric(a) && a.kind != RG_K_INT && RGC_COMPAT(a, b)) return T_INT;
    break;
  case RG_AOP_MOD:
    if (a.kind == RG_K_INT && b.kind == RG_K_INT) return a;
    break;
  case RG_AOP_EQ: case RG_AOP_NE:
    /* records field by field, lists element by element (EQV) */
    if (RGC_COMPAT(a, b)) return T_BOOL;
    break;
  case RG_AOP_LT: case RG_AOP_LE: case RG_AOP_GT: case RG_AOP_GE:
    if (a.kind == RG_K_ENUM && RGC_COMPAT(a, b)) {
      const rgi_enum *e = &AT(cs->enums, rgi_enum, a.ref);
      if (e->ordered) return T_BOOL;
      rgc_err(cs, pos, "'%s' needs an ordered enum; '%s' is declared with commas, not <",
          opsym[op], cs->pool + e->name);
      return T_ERR;
    }
    if (rgc_numeric(a) && RGC_COMPAT(a, b)) return T_BOOL;
    break;
  case RG_AOP_AND: case RG_AOP_OR:
    if (a.kind == RG_K_BOOL && b.kind == RG_K_BOOL) return T_BOOL;
    break;
  case RG_AOP_IN:
    if (a.kind == RG_K_ENUM && b.kind == RG_K_SET && (b.ref == REF_ANY || b.ref == a.ref))
      return T_BOOL;
    if (b.kind == RG_K_LIST && (b.ref == REF_ANY || RGC_COMPAT(a, rgc_elem_of(cs, b))))
      return T_BOOL;
    if (b.kind != RG_K_SET && b.kind != RG_K_LIST) {
      rgc_err(cs, pos, "'in' needs a set or a list on its right, not %s", rgc_tname(cs, b, y, sizeof y));
      return T_ERR;
    }
    break;
  default:
    break;
  }
  rgc_err(cs, pos, "'%s' cannot combine %s and %s", opsym[op], rgc_tname(cs, a, x, sizeof x),
      rgc_tname(cs, b, y, sizeof y));
  return T_ERR;
}

/* Returns the type of `op a` or T_ERR after reporting. */
rgi_type rgc_unop_type(cstate *cs, rgi_pos pos, rgi_op op, rgi_type a) {
  char x[RGI_TYPE_NAME_SIZE];
  if (rgc_is_err(a)) return T_ERR;
  if (op == RG_AOP_NEG && rgc_numeric(a)) return a;
  if (op == RG_AOP_NOT && a.kind == RG_K_BOOL) return a;
  rgc_err(cs, pos, "'%s' cannot apply to %s", opsym[op], rgc_tname(cs, a, x, sizeof x));
  return T_ERR;
}

/* Scale of a value of type t in a multiplication or division: distances are
** thousandths, so dist * dist is not allowed and dist / dist rescales. */
rgi_opcode rgc_binop_code(rgi_op op, rgi_type ta, rgi_type tb) {
  bool set = ta.kind == RG_K_SET;
  switch (op) {
  case RG_AOP_ADD: return set ? RG_OP_UNION : ta.kind == RG_K_LIST ? RG_OP_CONCAT : RG_OP_ADD;
  case RG_AOP_SUB: return set ? RG_OP_DIFF : RG_OP_SUB;
  case RG_AOP_MUL: return set ? RG_OP_INTER : RG_OP_MUL;
  case RG_AOP_DIV: return RG_OP_DIV;
  case RG_AOP_MOD: return RG_OP_MOD;
  case RG_AOP_EQ: return RG_OP_EQ;
  case RG_AOP_NE: return RG_OP_NE;
  case RG_AOP_LT: return RG_OP_LT;
  case RG_AOP_LE: return RG_OP_LE;
  case RG_AOP_GT: return RG_OP_GT;
  case RG_AOP_GE: return RG_OP_GE;
  case RG_AOP_IN: return tb.kind == RG_K_LIST ? RG_OP_LISTHAS : RG_OP_INSET;
  default: return RG_OP_NOP;
  }
}

/* Computes a op b on constants (same semantics as the VM); returns false
** after reporting overflow or division by zero. */
static bool fold_binop(cstate *cs, rgi_pos pos, rgi_op op, rgi_type ta, rgi_value a, rgi_value b,
                       rgi_value *out) {
  bool set = ta.kind == RG_K_SET;
  switch (op) {
  case RG_AOP_ADD:
    if (set) { *out = a | b; return true; }
    if (__builtin_add_overflow(a, b, out)) goto overflow;
    return true;
  case RG_AOP_SUB:
    if (set) { *out = a & ~b; return true; }
    if (__builtin_sub_overflow(a, b, out)) goto overflow;
    return true;
  case RG_AOP_MUL:
    if (set) { *out = a & b; return true; }
    if (__builtin_mul_overflow(a, b, out)) goto overflow;
    return true;
  case RG_AOP_DIV: case RG_AOP_MOD:
    if (b == 0) { rgc_err(cs, pos, "division by zero"); return false; }
    if (a == INT64_MIN && b == -1) goto overflow;
    *out = op == RG_AOP_DIV ? a / b : a % b;
    return true;
  case RG_AOP_EQ: *out = a == b; return true;
  case RG_AOP_NE: *out = a != b; return true;
  case RG_AOP_LT: *out = a < b; return true;
  case RG_AOP_LE: *out = a <= b; return true;
  case RG_AOP_GT: *out = a > b; return true;
  case RG_AOP_GE: *out = a >= b; return true;
  case RG_AOP_AND: *out = a && b; return true;
  case RG_AOP_OR: *out = a || b; return true;
  case RG_AOP_IN: *out = (b >> a) & 1; return true;
  default: break;
  }
  return false;
overflow:
  rgc_err(cs, pos, "integer overflow");
  return false;
}

/* ======================================================================
** Names: members, units, constants
** ==================================================================== */

/* Resolves a member written as a bare code (or a display name in quotes when
** quoted) in the context of want.  Stores the enum and index; returns false
** after reporting. */
static bool resolve_member(cstate *cs, rgi_pos pos, const char *text, bool quoted, rgi_type want,
                           uint32_t *en, uint32_t *index) {
  char list[512];
  uint32_t ctx = UINT32_MAX;
  if (want.kind == RG_K_ENUM || (want.kind == RG_K_SET && want.ref != REF_ANY))
    ctx = want.ref;
  if (ctx != UINT32_MAX) {
    int m = quoted ? rgc_member_by_text(cs, ctx, text) : rgc_member_by_code(cs, ctx, text);
    if (m >= 0) { *en = ctx; *index = (uint32_t)m; return true; }
    if (quoted || !rgc_find_member(cs, text, en, index, NULL, 0)) {
      rgc_err(cs, pos, "'%s' is not a member of %s (members: %s)%s", text,
          cs->pool + AT(cs->enums, rgi_enum, ctx).name, rgc_member_list(cs, ctx, list, sizeof list),
          rgc_hint_member(cs, ctx, text, quoted));
      return false;
    }
    /* A member of another enum: let the type check say so. */
  }
  if (quoted) return false;
  {
    int n = rgc_find_member(cs, text, en, index, list, sizeof list);
    if (n == 1 || (n > 1 && ctx != UINT32_MAX)) return true;
    if (n > 1) {
      rgc_err(cs, pos, "'%s' is a member of several enums (%s); write ENUM.%s", text, list, text);
      return false;
    }
  }
  rgc_err(cs, pos, "unknown name '%s'%s", text,
      rgc_hint_name(cs, text, RGC_KIND(S_CONST) | RGC_KIND(S_ENUM) | RGC_KIND(S_INPUT), true, true));
  return false;
}

/* Finds the unit of a distance literal ("in" for inches); returns its index
** or -1 after reporting. */
static int resolve_unit(cstate *cs, rgi_pos pos, const char *name) {
  sym *s = rgc_lookup(cs, name);
  if (s && s->kind == S_UNIT) return (int)s->index;
  rgc_err(cs, pos, "unknown unit '%s'%s", name,
      cs->units.n ? rgc_hint_name(cs, name, RGC_KIND(S_UNIT), false, false) : " (declare it with 'unit')");
  return -1;
}

/* Returns whether e's value depends on a starred distance: a starred
** literal, or a constant that does (so `regula diff` marks it as scaled). */
bool rgc_expr_starred(cstate *cs, const rgi_expr *e, int depth) {
  if (!e || depth > 32) return false;
  switch (e->kind) {
  case RG_EX_DIST: return e->starred;
  case RG_EX_NAME: {
    sym *s = rgc_lookup(cs, e->name);
    return s && s->kind == S_CONST && rgc_expr_starred(cs, s->decl->value, depth + 1);
  }
  case RG_EX_UNARY: return rgc_expr_starred(cs, e->a, depth + 1);
  case RG_EX_BINARY: return rgc_expr_starred(cs, e->a, depth + 1) || rgc_expr_starred(cs, e->b, depth + 1);
  case RG_EX_CALL: case RG_EX_SET: case RG_EX_LIST:
    for (const rgi_expr *a = e->args; a; a = a->next)
      if (rgc_expr_starred(cs, a, depth + 1)) return true;
    return false;
  default: return false;
  }
}

/* Applies the rule set's scale to a starred distance of v thousandths:
** v * num / den, rounded to whole units as the scale says (see
** compile_int.h). */
rgi_value rgc_scaled(cstate *cs, rgi_pos pos, rgi_value v) {
  int64_t x, q, r, unit;
  if (cs->scale_num == 1 && cs->scale_den == 1) return v;
  if (__builtin_mul_overflow(v, cs->scale_num, &x)) {
    rgc_err(cs, pos, "integer overflow");
    return v;
  }
  if (!cs->scale_round) return x / cs->scale_den;
  unit = cs->scale_den * 1000;
  q = x / unit;
  r = x % unit;
  if (r < 0) { q--; r += unit; }          /* floor division */
  if (cs->scale_round == 1 && r) q++;
  if (cs->scale_round == 2 && 2 * r >= unit) q++;
  return q * 1000;
}

/* Folds constant s on first use; returns its type (T_ERR on failure). */
rgi_type rgc_const_value(cstate *cs, rgi_pos use, sym *s, rgi_value *v) {
  if (s->state == 1) {
    rgc_err(cs, use, "constant '%s' depends on itself", s->name);
    s->state = 3;
    return T_ERR;
  }
  if (s->state == 0) {
    rgi_type want = T_NONE;
    rgi_type t;
    s->state = 1;
    if (s->decl->type) want = rgc_resolve_type(cs, s->decl->type);
    t = rgc_fold(cs, s->decl->value, want, &s->value);
    if (s->decl->type && !rgc_is_err(t) && !rgc_check_type(cs, s->decl->value->pos, t, want, "the value"))
      t = T_ERR;
    if (s->state == 3) t = T_ERR;
    s->type = s->decl->type && !rgc_is_err(want) && !rgc_is_err(t) ? want : t;
    s->state = rgc_is_err(t) ? 3 : 2;
  }
  *v = s->value;
  return s->state == 2 ? s->type : T_ERR;
}

/* Appends a record's fields to the constant heap; returns its offset. */
rgi_value rgc_heap_record(cstate *cs, const rgi_value *vals, uint32_t n) {
  uint32_t off = cs->heap.n;
  for (uint32_t i = 0; i < n; i++) {
    rgi_value *slot = rgc_push(cs, &cs->heap);
    *slot = vals[i];
  }
  return off;
}

/* Folds a record literal against record type r. */
static rgi_type fold_record(cstate *cs, rgi_expr *e, uint32_t r, rgi_value *v) {
  const rgi_record *rec = &AT(cs->records, rgi_record, r);
  uint32_t n = rec->count;
  rgi_value *vals = rgc_alloc(cs, n * sizeof *vals);
  bool *seen = rgc_alloc(cs, n * sizeof *seen);
  bool ok = true;
  for (rgi_fieldinit *f = e->fields; f; f = f->next) {
    uint32_t k;
    for (k = 0; k < n; k++)
      if (strcmp(cs->pool + AT(cs->fields, rgi_field_info, rec->first + k).name, f->name) == 0)
        break;
    if (k == n) {
      rgc_err(cs, f->pos, "record %s has no field '%s'%s", cs->pool + rec->name, f->name,
          rgc_hint_field(cs, (uint32_t)(rec - (const rgi_record *)cs->records.items), f->name));
      ok = false;
      continue;
    }
    if (seen[k]) {
      rgc_err(cs, f->pos, "field '%s' is given twice", f->name);
      ok = false;
      continue;
    }
    seen[k] = true;
    {
      rgi_type ft = AT(cs->fields, rgi_field_info, rec->first + k).type;
      rgi_type t = rgc_fold(cs, f->value, ft, &vals[k]);
      if (rgc_is_err(t) || !rgc_check_type(cs, f->value->pos, t, ft, "this field")) ok = false;
    }
  }
  for (uint32_t k = 0; k < n && ok; k++)
    if (!seen[k]) {
      rgc_err(cs, e->pos, "field '%s' of %s is missing",
          cs->pool + AT(cs->fields, rgi_field_info, rec->first + k).name, cs->pool + rec->name);
      ok = false;
    }
  if (!ok) return T_ERR;
  *v = rgc_heap_record(cs, vals, n);
  return rgc_mktype(RG_K_RECORD, r);
}

/* Folds a set literal; members take their enum from want or the first. */
static rgi_type fold_set(cstate *cs, rgi_expr *e, rgi_type want, rgi_value *v) {
  rgi_type elem = T_NONE;
  uint64_t mask = 0;
  bool ok = true;
  if (want.kind == RG_K_SET && want.ref != REF_ANY) elem = rgc_mktype(RG_K_ENUM, want.ref);
  if (!e->args) { *v = 0; return want.kind == RG_K_SET ? want : rgc_mktype(RG_K_SET, REF_ANY); }
  for (rgi_expr *m = e->args; m; m = m->next) {
    rgi_value mv;
    rgi_type t = rgc_fold(cs, m, elem, &mv);
    if (rgc_is_err(t)) { ok = false; continue; }
    if (t.kind != RG_K_ENUM) {
      char x[RGI_TYPE_NAME_SIZE];
      rgc_err(cs, m->pos, "a set's members must be enum members, not %s", rgc_tname(cs, t, x, sizeof x));
      ok = false;
      continue;
    }
    if (elem.kind == RG_K_VOID) elem = t;
    else if (!rgc_check_type(cs, m->pos, t, elem, "a member of this set")) { ok = false; continue; }
    mask |= (uint64_t)1 << (mv & 63);
  }
  if (!ok) return T_ERR;
  *v = (rgi_value)mask;
  return rgc_mktype(RG_K_SET, elem.ref);
}

/* Whether constant values a and b of type t are equal: records (on the
** constant heap) field by field, anything else as numbers.  (Constant
** records hold no lists: list literals are not constants.) */
static bool fold_equal(cstate *cs, rgi_type t, rgi_value a, rgi_value b) {
  if (a == b) return true;
  if (t.kind != RG_K_RECORD) return false;
  {
    const rgi_record *rec = &AT(cs->records, rgi_record, t.ref);
    for (uint32_t k = 0; k < rec->count; k++)
      if (!fold_equal(cs, AT(cs->fields, rgi_field_info, rec->first + k).type,
                      AT(cs->heap, rgi_value, (uint32_t)a + k), AT(cs->heap, rgi_value, (uint32_t)b + k)))
        return false;
  }
  return true;
}

/* Folds the constant expression e in the context of want.  Returns its
** type and stores its value; T_ERR after reporting. */
rgi_type rgc_fold(cstate *cs, rgi_expr *e, rgi_type want, rgi_value *v) {
  *v = 0;
  switch (e->kind) {
  case RG_EX_INT: *v = e->ival; return T_INT;
  case RG_EX_PERCENT: *v = e->ival; return rgc_mktype(RG_K_PERCENT, 0);
  case RG_EX_BOOL: *v = e->ival; return T_BOOL;
  case RG_EX_DIST: {
    int u = resolve_unit(cs, e->pos, e->name);
    if (u < 0) return T_ERR;
    *v = e->starred ? rgc_scaled(cs, e->pos, e->ival) : e->ival;
    return rgc_mktype(RG_K_DIST, (uint32_t)u);
  }
  case RG_EX_STR:
    if (want.kind == RG_K_ENUM) {
      uint32_t en, ix;
      if (!resolve_member(cs, e->pos, e->str, true, want, &en, &ix)) return T_ERR;
      *v = ix;
      return rgc_mktype(RG_K_ENUM, en);
    }
    *v = rgc_intern(cs, e->str);
    return T_TEXT;
  case RG_EX_NAME: {
    sym *s = rgc_lookup(cs, e->name);
    uint32_t en, ix;
    if (want.kind == RG_K_ENUM && rgc_member_by_code(cs, want.ref, e->name) >= 0 &&
        !(s && s->kind == S_CONST)) {
      *v = rgc_member_by_code(cs, want.ref, e->name);
      return want;
    }
    if (s) {
      if (s->kind == S_CONST) return rgc_const_value(cs, e->pos, s, v);
      if (s->kind == S_ENUM && rgc_find_member(cs, e->name, &en, &ix, NULL, 0) == 0) {
        /* an enum's name as a value: the set of all its members */
        uint32_t n = AT(cs->enums, rgi_enum, s->index).count;
        *v = (rgi_value)(n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1);
        return rgc_mktype(RG_K_SET, s->index);
      }
      if (rgc_find_member(cs, e->name, &en, &ix, NULL, 0) == 0) {
        rgc_err(cs, e->pos, "'%s' is %s, not a %s", e->name, symwhat[s->kind],
            s->kind == S_INPUT ? "constant (inputs are read when the rules run)" : "value");
        return T_ERR;
      }
    }
    if (!resolve_member(cs, e->pos, e->name, false, want, &en, &ix)) return T_ERR;
    *v = ix;
    return rgc_mktype(RG_K_ENUM, en);
  }
  case RG_EX_FIELD:
    if (e->a->kind == RG_EX_NAME) {
      sym *s = rgc_lookup(cs, e->a->name);
      if (s && s->kind == S_ENUM) {
        int m = rgc_member_by_code(cs, s->index, e->name);
        char list[512];
        if (m < 0) {
          rgc_err(cs, e->pos, "'%s' is not a member of %s (members: %s)%s", e->name, s->name,
              rgc_member_list(cs, s->index, list, sizeof list), rgc_hint_member(cs, s->index, e->name, false));
          return T_ERR;
        }
        *v = m;
        return rgc_mktype(RG_K_ENUM, s->index);
      }
    }
    break;
  case RG_EX_UNARY: {
    rgi_type t = rgc_fold(cs, e->a, want, v);
    t = rgc_unop_type(cs, e->pos, e->op, t);
    if (rgc_is_err(t)) return t;
    if (e->op == RG_AOP_NOT) *v = !*v;
    else if (*v == INT64_MIN) { rgc_err(cs, e->pos, "integer overflow"); return T_ERR; }
    else *v = -*v;
    return t;
  }
  case RG_EX_BINARY: {
    rgi_value a, b;
    rgi_type ta = rgc_fold(cs, e->a, rgc_numeric(want) || want.kind == RG_K_SET ? want : T_NONE, &a);
    rgi_type tb = rgc_fold(cs, e->b, e->op == RG_AOP_IN && ta.kind == RG_K_ENUM
                                    ? rgc_mktype(RG_K_SET, ta.ref) : ta, &b);
    rgi_type t = rgc_binop_type(cs, e->oppos, e->op, ta, tb);
    if (rgc_is_err(t)) return t;
    if (ta.kind == RG_K_RECORD) {        /* == or != of constant records */
      *v = fold_equal(cs, ta, a, b) == (e->op == RG_AOP_EQ);
      return t;
    }
    if (!fold_binop(cs, e->oppos, e->op, ta, a, b, v)) return T_ERR;
    return t;
  }
  case RG_EX_SET: return fold_set(cs, e, want, v);
  case RG_EX_RECORD:
    if (e->a) {
      rgc_err(cs, e->pos, "'{ ... with ... }' is computed when the rules run; it cannot be a constant");
      return T_ERR;
    }
    if (want.kind != RG_K_RECORD) {
      if (!rgc_is_err(want)) rgc_err(cs, e->pos, "a record literal needs a record type from its context");
      return T_ERR;
    }
    return fold_record(cs, e, want.ref, v);
  case RG_EX_ERROR: return T_ERR;
  default: break;
  }
  rgc_err(cs, e->pos, "not a constant: only literals, members, constants and operators on them");
  return T_ERR;
}

