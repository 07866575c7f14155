/*
** compile_stmt.c: statements, one function per kind, each headed by the
** grammar production it compiles (grammar/parser.y), dispatched from a
** table indexed by the statement's kind.
*/
#include "compile_int.h"
#include "opcodes.h"

#include <stdio.h>

/* ======================================================================
** Statements
** ==================================================================== */


/* Returns the text of the expression at pos up to `stop` (the next
** statement, when on the same line) or the end of its line, without a
** trailing comment or closing brace, interned; for test failure messages. */
static uint32_t source_text(cstate *cs, rgi_pos pos, const rgi_stmt *stop) {
  size_t len, i, end;
  const char *line = rgi_diag_line(cs->d, pos.file, pos.line, &len);
  char buf[256];
  bool quoted = false;
  if (!line || pos.col == 0 || pos.col - 1 > len) return 0;
  i = pos.col - 1;
  for (end = i; end < len; end++) {
    if (line[end] == '"' && (end == 0 || line[end - 1] != '\\')) quoted = !quoted;
    if (!quoted && line[end] == '#') break;
  }
  if (stop && stop->pos.file == pos.file && stop->pos.line == pos.line && stop->pos.col > pos.col &&
      stop->pos.col - 1 < end)
    end = stop->pos.col - 1;
  for (;;) {                /* drop a block's closing brace, not a set's */
    int depth = 0;
    while (end > i && (line[end - 1] == ' ' || line[end - 1] == '\t')) end--;
    for (size_t j = i; j < end; j++) depth += (line[j] == '{') - (line[j] == '}');
    if (depth >= 0 || end == i || line[end - 1] != '}') break;
    end--;
  }
  if (end - i >= sizeof buf) end = i + sizeof buf - 1;
  memcpy(buf, line + i, end - i);
  buf[end - i] = '\0';
  return rgc_intern(cs, buf);
}

/* stmt ::= 'note' STRING {',' expr}
**
** An event with the types of its values recorded. */
static bool note_stmt(cstate *cs, rgi_stmt *s) {
  uint32_t n = rgc_count_list(s->args), k = 0;
  rgi_type *types = rgc_alloc(cs, n * sizeof *types + 1);
  bool bad = false;
  for (rgi_expr *a = s->args; a; a = a->next, k++) {
    rgi_type t = rgc_expr(cs, a, T_NONE);
    if (t.kind == RG_K_SET && t.ref == REF_ANY) {
      rgc_err(cs, a->pos, "the type of {} is not known here; give it a set type (let x: set ENUM = {})");
      t = T_ERR;
    }
    if (t.kind == RG_K_LIST && t.ref == REF_ANY) t = rgc_list_of(cs, T_INT);  /* [] shows as [] */
    if (rgc_is_err(t)) bad = true;
    types[k] = t;
  }
  if (bad) return false;
  cs->pos = s->pos;
  rgc_emit(cs, RG_OP_NOTE, rgc_note_entry(cs, s->str, types, n));
  return false;
}

/* Marks the local in slot `slot` (just added) as a loop's variable. */
static void mark_loop(cstate *cs, uint32_t slot) {
  for (uint32_t i = cs->nlocal; i-- > 0;)
    if (cs->locals[i].slot == slot) {
      if (cs->locals[i].name[0] != ' ') rgc_mark_loop(cs, i);
      return;
    }
}

/* Records in expectation x the loop variables in scope (outermost first),
** so that a failure says which turn of the loops failed. */
static void expect_vars(cstate *cs, uint32_t x) {
  uint32_t first = cs->evars.n, n = 0;
  for (uint32_t k = 0; k < cs->nloops; k++) {
    uint32_t i = cs->loops[k];
    rgi_expect_var *v;
    v = rgc_push(cs, &cs->evars);
    v->name = rgc_intern(cs, cs->locals[i].name);
    v->slot = cs->locals[i].slot;
    v->type = cs->locals[i].type;
    n++;
  }
  AT(cs->expects, rgi_expect, x).first_var = first;
  AT(cs->expects, rgi_expect, x).nvars = n;
}

/* Returns where the expression of expect statement s begins in the source:
** just after the keyword and the blanks that follow it, so that its text
** is the whole expression, an opening parenthesis included (e->pos is
** where its first operand begins). */
static rgi_pos expect_text_pos(cstate *cs, const rgi_stmt *s) {
  size_t len, i;
  const char *line = rgi_diag_line(cs->d, s->pos.file, s->pos.line, &len);
  rgi_pos p = s->e->pos;
  if (!line || s->pos.col == 0 || s->pos.col - 1 + 6 > len ||
      memcmp(line + s->pos.col - 1, "expect", 6) != 0)
    return p;
  i = s->pos.col - 1 + 6;
  while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
  if (i == len || (s->e->pos.line == s->pos.line && s->e->pos.col < i + 1)) return p;
  p.line = s->pos.line;
  p.col = (uint32_t)i + 1;
  return p;
}

/* stmt ::= 'expect' expr
**
** EXPECTEQ for `a == b` (so both values can be shown), else EXPECT. */
static bool expect_stmt(cstate *cs, rgi_stmt *s) {
  rgi_expr *e = s->e;
  rgi_expect *x;
  rgi_type t;
  if (e->kind == RG_EX_BINARY && e->op == RG_AOP_EQ) {
    rgi_type ta, tb, wa = T_NONE;
    if (rgc_needs_context(cs, e->a) &&
        (!rgc_needs_context(cs, e->b) || (e->a->kind == RG_EX_STR && e->b->kind == RG_EX_NAME)))
      wa = rgc_probe(cs, e->b, T_NONE);
    ta = rgc_expr(cs, e->a, wa);
    tb = rgc_expr(cs, e->b, ta);
    t = rgc_binop_type(cs, e->oppos, RG_AOP_EQ, ta, tb);
    if (rgc_is_err(t)) return false;
    x = rgc_push(cs, &cs->expects);
    x->text = source_text(cs, expect_text_pos(cs, s), s->next);
    /* the side whose type is known; [] == [] compares lists of ints, and
    ** {} == {} the ints of two empty sets */
    x->type = rgc_is_any(ta) ? tb : ta;
    if (x->type.kind == RG_K_SET && x->type.ref == REF_ANY) x->type = rgc_mktype(RG_K_INT, 0);
    if (x->type.kind == RG_K_LIST && x->type.ref == REF_ANY) x->type = rgc_list_of(cs, T_INT);
    expect_vars(cs, cs->expects.n - 1);
    cs->pos = s->pos;
    rgc_emit(cs, RG_OP_EXPECTEQ, cs->expects.n - 1);
    return false;
  }
  t = rgc_expr(cs, e, T_BOOL);
  if (rgc_is_err(t) || !rgc_check_type(cs, e->pos, t, T_BOOL, "an expectation")) return false;
  x = rgc_push(cs, &cs->expects);
  x->text = source_text(cs, expect_text_pos(cs, s), s->next);
  x->type = T_BOOL;
  expect_vars(cs, cs->expects.n - 1);
  cs->pos = s->pos;
  rgc_emit(cs, RG_OP_EXPECT, cs->expects.n - 1);
  return false;
}

/* Each statement kind's compiler takes the statement (cs->pos is already
** at it), emits its code and returns true when it always returns (so that
** what follows it is unreachable).  The tree owns s; code goes to cs. */

/* stmt ::= 'let' NAME [':' type] '=' expr */
static bool let_stmt(cstate *cs, rgi_stmt *s) {
  rgi_type want = s->type ? rgc_resolve_type(cs, s->type) : T_NONE;
  rgi_type t = rgc_expr(cs, s->e, want);
  uint32_t slot;
  if (s->type) rgc_check_type(cs, s->e->pos, t, want, "the value");
  else if (t.kind == RG_K_SET && t.ref == REF_ANY) {
    rgc_err(cs, s->e->pos, "the type of {} is not known here; write let %s: set ENUM = {}", s->name);
    t = T_ERR;
  }
  slot = rgc_add_local(cs, s->pos, s->name, s->type ? want : t);
  cs->pos = s->pos;
  rgc_emit(cs, RG_OP_STORE, slot);
  return false;
}

/* stmt ::= NAME '=' expr */
static bool assign_stmt(cstate *cs, rgi_stmt *s) {
  local *l = rgc_find_local(cs, s->name);
  rgi_type t;
  if (!l) {
    sym *g = rgc_lookup(cs, s->name);
    if (g) rgc_err(cs, s->pos, "'%s' cannot be assigned: only variables and parameters can", s->name);
    else rgc_err(cs, s->pos, "unknown variable '%s' (declare it with let)%s", s->name,
                  rgc_hint_name(cs, s->name, 0, false, true));
    rgc_probe(cs, s->e, T_NONE);
    return false;
  }
  t = rgc_expr(cs, s->e, l->type);
  rgc_check_type(cs, s->e->pos, t, l->type, "the value");
  cs->pos = s->pos;
  rgc_emit(cs, RG_OP_STORE, l->slot);
  return false;
}

/* if_stmt ::= 'if' expr block {'else' 'if' expr block} ['else' block]
**
** An else-if chain is compiled in a loop, one branch at a time (it is a
** list, however long); jend collects the jumps from the end of each branch
** past the chain.  The chain ends (returns) when every branch does and there
** is a final else. */
static bool if_stmt(cstate *cs, rgi_stmt *s) {
  jumps *jend = NULL;
  bool ends = true;
  for (const rgi_stmt *b = s;; b = b->orelse) {
    jumps *jf = NULL;
    rgi_type t;
    bool then_ends;
    cs->pos = b->pos;
    t = rgc_cond(cs, b->e, false, &jf);
    rgc_check_type(cs, b->e->pos, t, T_BOOL, "the condition");
    then_ends = rgc_block(cs, b->body);
    ends = ends && then_ends;
    if (!b->orelse) {
      rgc_patch_list(cs, jf, rgc_here(cs));
      ends = false;
      break;
    }
    cs->pos = b->pos;
    if (!then_ends) rgc_emit_jump(cs, RG_OP_JMP, &jend);
    rgc_patch_list(cs, jf, rgc_here(cs));
    if (b->orelse->kind != RG_ST_IF) {
      ends = rgc_block(cs, b->orelse->body) && ends;
      break;
    }
  }
  rgc_patch_list(cs, jend, rgc_here(cs));
  return ends;
}

/* stmt ::= 'for' NAME 'in' expr '..' expr block
**
** The variable and the (hidden) end in locals; the end is evaluated once.
** The step var := var + 1 must not overflow when the range ends at the
** largest int: unless the end is a constant below it, the loop leaves
** before the step once var == end (one more test per turn). */
static bool for_stmt(cstate *cs, rgi_stmt *s) {
  rgi_type ta, tb;
  uint32_t var, end, top, jexit, jlast = 0;
  bool guard = true;
  cs->depth++;
  ta = rgc_expr(cs, s->e, T_INT);
  rgc_check_type(cs, s->e->pos, ta, T_INT, "the start of the range");
  var = rgc_add_local(cs, s->pos, s->name, T_INT);
  mark_loop(cs, var);
  rgc_emit(cs, RG_OP_STORE, var);
  tb = rgc_expr(cs, s->e2, T_INT);
  rgc_check_type(cs, s->e2->pos, tb, T_INT, "the end of the range");
  if (tb.kind == RG_K_INT && !s->e2->next && rgc_foldable(cs, s->e2)) {
    rgi_value v;
    if (rgc_fold(cs, s->e2, T_INT, &v).kind == RG_K_INT && v < INT64_MAX) guard = false;
  }
  end = rgc_add_local(cs, s->pos, " end", T_INT);
  cs->pos = s->pos;
  rgc_emit(cs, RG_OP_STORE, end);
  top = rgc_here(cs);
  rgc_emit(cs, RG_OP_LOAD, var);
  rgc_emit(cs, RG_OP_LOAD, end);
  rgc_emit(cs, RG_OP_GT, 0);
  jexit = rgc_emit(cs, RG_OP_JMPT, 0);
  rgc_block(cs, s->body);
  cs->pos = s->pos;
  if (guard) {
    rgc_emit(cs, RG_OP_LOAD, var);
    rgc_emit(cs, RG_OP_LOAD, end);
    rgc_emit(cs, RG_OP_EQ, 0);
    jlast = rgc_emit(cs, RG_OP_JMPT, 0);
  }
  rgc_emit(cs, RG_OP_LOAD, var);
  rgc_emit_value(cs, 1);
  rgc_emit(cs, RG_OP_ADD, 0);
  rgc_emit(cs, RG_OP_STORE, var);
  rgc_emit_back(cs, RG_OP_JMP, top);
  rgc_patch(cs, jexit, rgc_here(cs));
  if (guard) rgc_patch(cs, jlast, rgc_here(cs));
  rgc_end_block(cs);
  return false;
}

/* stmt ::= 'while' expr block */
static bool while_stmt(cstate *cs, rgi_stmt *s) {
  uint32_t top = rgc_here(cs);
  jumps *jexit = NULL;
  rgi_type t = rgc_cond(cs, s->e, false, &jexit);
  rgc_check_type(cs, s->e->pos, t, T_BOOL, "the condition");
  rgc_block(cs, s->body);
  cs->pos = s->pos;
  rgc_emit_back(cs, RG_OP_JMP, top);
  rgc_patch_list(cs, jexit, rgc_here(cs));
  return false;
}

/* stmt ::= 'return' expr */
static bool return_stmt(cstate *cs, rgi_stmt *s) {
  rgi_type t;
  if (cs->result.kind == RG_K_VOID) {
    if (cs->in_test) rgc_err(cs, s->pos, "a test cannot return a value");
    else rgc_err(cs, s->pos, "this procedure has no result type; declare one with -> TYPE to return a value");
    rgc_probe(cs, s->e, T_NONE);
    return true;
  }
  t = rgc_expr(cs, s->e, cs->result);
  rgc_check_type(cs, s->e->pos, t, cs->result, "the result");
  cs->pos = s->pos;
  rgc_emit(cs, RG_OP_RET, 0);
  return true;
}

/* stmt ::= NAME '[' expr ']' '=' expr
**
** An element of a list variable, in place: LOAD x, k, v, SETITEM. */
static bool setitem_stmt(cstate *cs, rgi_stmt *s) {
  local *l = rgc_find_local(cs, s->name);
  rgi_type t;
  char x[RGI_TYPE_NAME_SIZE];
  if (!l) {
    rgc_err(cs, s->pos, "unknown variable '%s' (declare it with let)%s", s->name,
                  rgc_hint_name(cs, s->name, 0, false, true));
    return false;
  }
  if (rgc_is_err(l->type)) return false;
  if (l->type.kind != RG_K_LIST || l->type.ref == REF_ANY) {
    rgc_err(cs, s->pos, "'%s' is %s; only an element of a list can be assigned", s->name,
        rgc_tname(cs, l->type, x, sizeof x));
    return false;
  }
  rgc_emit(cs, RG_OP_LOAD, l->slot);
  if (!rgc_int_arg(cs, s->e)) return false;
  t = rgc_expr(cs, s->e2, rgc_elem_of(cs, l->type));
  if (rgc_is_err(t) || !rgc_check_type(cs, s->e2->pos, t, rgc_elem_of(cs, l->type), "the element")) return false;
  cs->pos = s->pos;
  rgc_emit(cs, RG_OP_SETITEM, 0);
  return false;
}

/* stmt ::= call
**
** A procedure called for its notes: its result is dropped. */
static bool call_stmt(cstate *cs, rgi_stmt *s) {
  rgi_type t = rgc_call(cs, s->e, T_NONE);
  cs->pos = s->pos;
  if (!rgc_is_err(t) && t.kind != RG_K_VOID) rgc_emit(cs, RG_OP_POP, 0);
  return false;
}

/* if_stmt ::= ... 'else' '{' stmt_list '}'   (the final else's block) */
static bool block_stmt(cstate *cs, rgi_stmt *s) {
  return rgc_block(cs, s->body);
}

/* stmt ::= 'step' STRING note_list block */
static bool step_stmt(cstate *cs, rgi_stmt *s) {
  rgc_emit(cs, RG_OP_STEP, rgc_intern(cs, s->str));
  return rgc_block(cs, s->body);
}

/* stmt ::= 'for' NAME 'in' expr block
**
** Each element of a list (a set becomes its list of members): the list,
** index and length in hidden locals. */
static bool foreach_stmt(cstate *cs, rgi_stmt *s) {
  rgi_type t, el;
  uint32_t lst, idx, len, var, top, jexit;
  char x[RGI_TYPE_NAME_SIZE];
  cs->depth++;
  t = rgc_expr(cs, s->e, T_NONE);
  if (!rgc_is_err(t) && t.kind == RG_K_SET && t.ref != REF_ANY) {
    rgc_emit(cs, RG_OP_SETLIST, 0);
    t = rgc_list_of(cs, rgc_mktype(RG_K_ENUM, t.ref));
  }
  if (!rgc_is_err(t) && (t.kind != RG_K_LIST || t.ref == REF_ANY)) {
    rgc_err(cs, s->e->pos, "for ... in needs a list, a set or a range a..b; not %s", rgc_tname(cs, t, x, sizeof x));
    t = T_ERR;
  }
  el = rgc_is_err(t) ? T_ERR : rgc_elem_of(cs, t);
  lst = rgc_add_local(cs, s->pos, " list", t);
  cs->pos = s->pos;
  rgc_emit(cs, RG_OP_STORE, lst);
  idx = rgc_add_local(cs, s->pos, " index", T_INT);
  len = rgc_add_local(cs, s->pos, " length", T_INT);
  rgc_emit_value(cs, 0);
  rgc_emit(cs, RG_OP_STORE, idx);
  rgc_emit(cs, RG_OP_LOAD, lst);
  rgc_emit(cs, RG_OP_LEN, 0);
  rgc_emit(cs, RG_OP_STORE, len);
  top = rgc_here(cs);
  rgc_emit(cs, RG_OP_LOAD, idx);
  rgc_emit(cs, RG_OP_LOAD, len);
  rgc_emit(cs, RG_OP_LT, 0);
  jexit = rgc_emit(cs, RG_OP_JMPF, 0);
  var = rgc_add_local(cs, s->pos, s->name, el);
  mark_loop(cs, var);
  rgc_emit(cs, RG_OP_LOAD, lst);
  rgc_emit(cs, RG_OP_LOAD, idx);
  rgc_emit(cs, RG_OP_ITEM, 0);
  rgc_emit(cs, RG_OP_STORE, var);
  rgc_block(cs, s->body);
  cs->pos = s->pos;
  rgc_emit(cs, RG_OP_LOAD, idx);
  rgc_emit_value(cs, 1);
  rgc_emit(cs, RG_OP_ADD, 0);
  rgc_emit(cs, RG_OP_STORE, idx);
  rgc_emit_back(cs, RG_OP_JMP, top);
  rgc_patch(cs, jexit, rgc_here(cs));
  rgc_end_block(cs);
  return false;
}

/* rule "NAME" { ... }: below, beside the block it shares its loop with. */
static bool rule_stmt(cstate *cs, rgi_stmt *s);

/* The compiler of each statement kind, indexed by rgi_stkind. */
static bool (*const stmt_kinds[])(cstate *cs, rgi_stmt *s) = {
  [RG_ST_LET] = let_stmt,
  [RG_ST_ASSIGN] = assign_stmt,
  [RG_ST_IF] = if_stmt,
  [RG_ST_FOR] = for_stmt,
  [RG_ST_WHILE] = while_stmt,
  [RG_ST_RETURN] = return_stmt,
  [RG_ST_NOTE] = note_stmt,
  [RG_ST_EXPECT] = expect_stmt,
  [RG_ST_CALL] = call_stmt,
  [RG_ST_BLOCK] = block_stmt,
  [RG_ST_FOREACH] = foreach_stmt,
  [RG_ST_STEP] = step_stmt,
  [RG_ST_SETITEM] = setitem_stmt,
  [RG_ST_RULE] = rule_stmt,
};

/* Compiles one statement through stmt_kinds.  Returns true when it always
** returns. */
static bool stmt(cstate *cs, rgi_stmt *s) {
  cs->pos = s->pos;
  if ((size_t)s->kind >= sizeof stmt_kinds / sizeof stmt_kinds[0] || !stmt_kinds[s->kind])
    return false;
  return stmt_kinds[s->kind](cs, s);
}

/* Compiles the statements from s on in the current scope.  Returns true
** when they always return; a statement after one that always returns is an
** error. */
static bool statements(cstate *cs, rgi_stmt *s) {
  bool ends = false;
  for (; s; s = s->next) {
    if (ends) {
      rgc_err(cs, s->pos, "this statement is never reached");
      break;
    }
    ends = stmt(cs, s);
  }
  return ends;
}

/* Compiles a block in a new scope.  Returns true when it always returns. */
bool rgc_block(cstate *cs, rgi_stmt *s) {
  bool ends;
  cs->depth++;
  ends = statements(cs, s);
  rgc_end_block(cs);
  return ends;
}

/* stmt ::= 'rule' STRING note_list block
**
** A named part of a step, which a rule set built on this one may replace
** (override rule "NAME" in PROC) or remove.  Its statements run in the
** scope around it, so what it declares is seen after it (an override must
** declare the same); it emits nothing of its own. */
static bool rule_stmt(cstate *cs, rgi_stmt *s) {
  return statements(cs, s->body);
}

