/*
** compile.c: the checker and code generator (see compile.h).
**
** One pass over the declarations of a parsed rule file, in this order:
**
**   units, enums, records      the vocabulary
**   table and procedure heads  so bodies may refer to anything
**   constants                  folded to values, on first use
**   table cells                flattened, with coverage and overlap checks
**                              (tables.c)
**   procedure and test bodies  type-checked and turned into bytecode
**
** A rule set that extends another is merged into one tree first
** (extends.c).  compile_int.h holds what the three parts share.
**
** Every expression is checked against the type its context wants (a table
** key wants the key's enum, a record field its field's type), which is how a
** bare member name, a display name in quotes, an empty set or a record
** literal learn their type.  An expression in error has the type T_ERR,
** which every later check accepts silently: one mistake, one message.
**
** Module arrays grow with rg_realloc (module.h owns them once built); the
** syntax tree, symbols and scratch space live in the diagnostics' arena.
*/
#include "builtins.h"
#include "compile_int.h"
#include "opcodes.h"
#include "value.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <limits.h>
#include <utf8proc.h>

/* Appends room for one zeroed item to v; returns it, or NULL. */
static void *vec_grow(vec *v) {
  if (v->n == v->cap) {
    uint32_t cap = v->cap ? v->cap * 2 : 16;
    void *p;
    if (v->cap > (1u << 30)) return NULL;
    p = rg_realloc(v->items, (size_t)cap * v->size);
    if (!p) return NULL;
    v->items = p;
    v->cap = cap;
  }
  {
    void *it = (char *)v->items + (size_t)v->n * v->size;
    memset(it, 0, v->size);
    v->n++;
    return it;
  }
}


static const char *const symwhat[] = { "a unit", "an enum", "a record type", "a constant",
                                       "a table", "a procedure", "a die", "a deck", "an input" };


/* Reports an error at pos unless probing. */
void rgc_err(cstate *cs, rg_pos pos, const char *fmt, ...) {
  va_list ap;
  if (cs->quiet) { cs->quiet_errors++; return; }
  va_start(ap, fmt);
  rg_verror(cs->d, pos, fmt, ap);
  va_end(ap);
}

/* Out of memory: unwinds the whole compile to rg_compile, which frees
** everything and reports it once (as Lua's parser does with luaD_throw). */
_Noreturn void rgc_oom(cstate *cs) {
  longjmp(cs->oom_jmp, 1);
}

/* vec_grow that unwinds on failure. */
void *rgc_push(cstate *cs, vec *v) {
  void *p = vec_grow(v);
  if (!p) rgc_oom(cs);
  return p;
}

/* Arena allocation that unwinds on failure. */
void *rgc_alloc(cstate *cs, size_t n) {
  void *p = rg_arena_alloc(cs->A, n);
  if (!p) rgc_oom(cs);
  return p;
}

/* Copies s[0..n) into the arena cs->A, NUL-terminated (the arena owns it);
** unwinds through rgc_oom when out of memory. */
char *rgc_strndup(cstate *cs, const char *s, size_t n) {
  char *p = rg_arena_strndup(cs->A, s, n);
  if (!p) rgc_oom(cs);
  return p;
}

/* Copies the string s into the arena cs->A (see rgc_strndup). */
char *rgc_strdup(cstate *cs, const char *s) {
  return rgc_strndup(cs, s, strlen(s));
}

/* Returns the hash bucket of s. */
static uint32_t hash(const char *s) {
  uint32_t h = 2166136261u;
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h % NBUCKETS;
}

/* Returns the symbol named name, or NULL. */
sym *rgc_lookup(cstate *cs, const char *name) {
  for (sym *s = cs->syms[hash(name)]; s; s = s->next)
    if (strcmp(s->name, name) == 0) return s;
  return NULL;
}

/* Declares name; reports a duplicate and returns NULL if it exists. */
static sym *declare(cstate *cs, rg_decl *dc, symkind kind) {
  sym *s = rgc_lookup(cs, dc->name);
  uint32_t h;
  if (s) {
    rgc_err(cs, dc->pos, "'%s' is already declared at line %u", dc->name, s->decl->pos.line);
    return NULL;
  }
  s = rgc_alloc(cs, sizeof *s);
  if (!s) rgc_oom(cs);
  s->name = dc->name;
  s->kind = kind;
  s->decl = dc;
  h = hash(dc->name);
  s->next = cs->syms[h];
  cs->syms[h] = s;
  return s;
}

/* ======================================================================
** The string pool
** ==================================================================== */

/* Returns the pool offset of s, adding it once. */
uint32_t rgc_intern(cstate *cs, const char *s) {
  uint32_t h = hash(s);
  size_t n = strlen(s);
  for (struct strent *e = cs->strhash[h]; e; e = e->next)
    if (strcmp(cs->pool + e->off, s) == 0) return e->off;
  if (n > (1u << 24) || cs->npool + n + 1 > (1u << 30)) { rgc_oom(cs); return 0; }
  if (cs->npool + n + 1 > cs->cappool) {
    uint32_t cap = cs->cappool ? cs->cappool : 1024;
    char *p;
    while (cap < cs->npool + n + 1) cap *= 2;
    p = rg_realloc(cs->pool, cap);
    if (!p) { rgc_oom(cs); return 0; }
    cs->pool = p;
    cs->cappool = cap;
  }
  {
    struct strent *e = rgc_alloc(cs, sizeof *e);
    uint32_t off = cs->npool;
    if (!e) { rgc_oom(cs); return 0; }
    memcpy(cs->pool + off, s, n + 1);
    cs->npool += (uint32_t)n + 1;
    e->off = off;
    e->next = cs->strhash[h];
    cs->strhash[h] = e;
    return off;
  }
}

/* ======================================================================
** Types
** ==================================================================== */

/* Returns the type of kind `kind` (an rg_kind) with reference ref (see
** rg_kind; 0 when unused). */
static rg_type mktype(uint32_t kind, uint32_t ref) {
  rg_type t = { kind, ref };
  return t;
}


/* Returns whether a value of type got may stand where want is expected.
** types is the list of element types that list types refer to. */
static bool compatible_in(const rg_type *types, rg_type got, rg_type want) {
  /* A loop over copies, not a recursive call: the parameters are never
  ** written (clang 14 for wasm32, turning the recursion into a loop at -O2,
  ** wrote the element type over the caller's struct argument). */
  uint32_t gk = got.kind, gr = got.ref, wk = want.kind, wr = want.ref;
  for (;;) {
    if (gk == K_ERR || wk == K_ERR) return true;
    if (gk != wk) return false;
    if ((gk == RG_K_SET || gk == RG_K_LIST) && (gr == REF_ANY || wr == REF_ANY)) return true;
    if (gk != RG_K_LIST) return gr == wr;
    gk = types[gr].kind;
    wk = types[wr].kind;
    gr = types[gr].ref;
    wr = types[wr].ref;
  }
}



#define COMPAT(got, want) compatible_in((const rg_type *)cs->types.items, (got), (want))

/* Returns the index in types[] of type t, adding it once. */
static uint32_t type_index(cstate *cs, rg_type t) {
  for (uint32_t i = 0; i < cs->types.n; i++) {
    rg_type u = AT(cs->types, rg_type, i);
    if (u.kind == t.kind && u.ref == t.ref) return i;
  }
  {
    rg_type *slot = rgc_push(cs, &cs->types);
    if (!slot) return 0;
    *slot = t;
    return cs->types.n - 1;
  }
}

/* Returns the type `list elem`. */
static rg_type list_of(cstate *cs, rg_type elem) {
  rg_type t = { RG_K_LIST, 0 };
  unsigned depth = 1;
  for (rg_type e = elem; e.kind == RG_K_LIST && e.ref != REF_ANY; e = AT(cs->types, rg_type, e.ref))
    depth++;
  if (depth > RG_MAX_LIST_NEST) {
    rgc_err(cs, cs->pos, "lists nested too deeply (at most %u levels of list)", RG_MAX_LIST_NEST);
    return T_ERR;
  }
  t.ref = type_index(cs, elem);
  return t;
}

/* Returns the element type of list type t (T_ERR for the empty list's). */
static rg_type elem_of(cstate *cs, rg_type t) {
  if (t.ref == REF_ANY) return T_ERR;
  return AT(cs->types, rg_type, t.ref);
}

/* Writes a readable name of t into buf; returns buf. */
const char *rgc_tname(cstate *cs, rg_type t, char *buf, size_t size) {
  /* The module's own printer, on a view of the arrays being built; only the
  ** compiler's "any set" and "any list" (the types of {} and []) are its own. */
  rg_module view;
  if ((t.kind == RG_K_SET || t.kind == RG_K_LIST) && t.ref == REF_ANY) {
    snprintf(buf, size, "%s", t.kind == RG_K_SET ? "set" : "list");
    return buf;
  }
  memset(&view, 0, sizeof view);
  view.strings = cs->pool;
  view.nstrings = cs->npool;
  view.units = cs->units.items;
  view.nunits = cs->units.n;
  view.enums = cs->enums.items;
  view.nenums = cs->enums.n;
  view.records = cs->records.items;
  view.nrecords = cs->records.n;
  view.types = cs->types.items;
  view.ntypes = cs->types.n;
  return rg_type_name(buf, size, &view, t);
}

/* Reports "expected W, found G" at pos when got does not fit want. */
bool rgc_check_type(cstate *cs, rg_pos pos, rg_type got, rg_type want, const char *what) {
  char a[96], b[96];
  if (COMPAT(got, want)) return true;
  rgc_err(cs, pos, "%s must be %s, not %s", what, rgc_tname(cs, want, a, sizeof a),
      rgc_tname(cs, got, b, sizeof b));
  return false;
}

/* Resolves a written type; reports unknown names and returns T_ERR. */
static rg_type resolve_type(cstate *cs, const rg_typeexpr *te) {
  sym *s;
  switch (te->kind) {
  case RG_TY_INT: return T_INT;
  case RG_TY_BOOL: return T_BOOL;
  case RG_TY_PERCENT: return mktype(RG_K_PERCENT, 0);
  case RG_TY_TEXT: return T_TEXT;
  case RG_TY_DISTANCE:
    if (!te->name) {
      if (cs->units.n == 0) {
        rgc_err(cs, te->pos, "distance needs a unit: declare one with 'unit'");
        return T_ERR;
      }
      return mktype(RG_K_DIST, 0);
    }
    s = rgc_lookup(cs, te->name);
    if (!s || s->kind != S_UNIT) {
      rgc_err(cs, te->pos, "unknown unit '%s'", te->name);
      return T_ERR;
    }
    return mktype(RG_K_DIST, s->index);
  case RG_TY_SET:
    s = rgc_lookup(cs, te->name);
    if (!s || s->kind != S_ENUM) {
      rgc_err(cs, te->pos, "a set's members must be an enum; '%s' is not one", te->name);
      return T_ERR;
    }
    return mktype(RG_K_SET, s->index);
  case RG_TY_LIST: {
    rg_type e;
    unsigned depth = 0;
    for (const rg_typeexpr *l = te; l->kind == RG_TY_LIST; l = l->elem) depth++;
    if (depth > RG_MAX_LIST_NEST) {
      rgc_err(cs, te->pos, "lists nested too deeply (at most %u levels of list)", RG_MAX_LIST_NEST);
      return T_ERR;
    }
    e = resolve_type(cs, te->elem);
    return rgc_is_err(e) ? T_ERR : list_of(cs, e);
  }
  case RG_TY_NAMED:
    s = rgc_lookup(cs, te->name);
    if (s && s->kind == S_ENUM) return mktype(RG_K_ENUM, s->index);
    if (s && s->kind == S_RECORD) return mktype(RG_K_RECORD, s->index);
    rgc_err(cs, te->pos, "unknown type '%s'", te->name);
    return T_ERR;
  }
  return T_ERR;
}

/* ======================================================================
** Enum members
** ==================================================================== */

/* Compares a and b case-insensitively (NFC case folding). */
static bool same_folded(const char *a, const char *b) {
  utf8proc_uint8_t *fa = NULL, *fb = NULL;
  bool same;
  if (strcmp(a, b) == 0) return true;
  if (utf8proc_map((const utf8proc_uint8_t *)a, 0, &fa,
                   UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD) < 0)
    fa = NULL;
  if (utf8proc_map((const utf8proc_uint8_t *)b, 0, &fb,
                   UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD) < 0)
    fb = NULL;
  same = fa && fb && strcmp((const char *)fa, (const char *)fb) == 0;
  free(fa);
  free(fb);
  return same;
}

/* Returns the member of enum en whose code is code (exactly), or -1. */
int rgc_member_by_code(cstate *cs, uint32_t en, const char *code) {
  const rg_enum *e = &AT(cs->enums, rg_enum, en);
  for (uint32_t i = 0; i < e->count; i++)
    if (strcmp(cs->pool + AT(cs->members, rg_member_info, e->first + i).code, code) == 0)
      return (int)i;
  return -1;
}

/* Returns the member of en named text by code or display name, ignoring
** case; or -1. */
int rgc_member_by_text(cstate *cs, uint32_t en, const char *text) {
  const rg_enum *e = &AT(cs->enums, rg_enum, en);
  int m = rgc_member_by_code(cs, en, text);
  if (m >= 0) return m;
  for (uint32_t i = 0; i < e->count; i++) {
    const rg_member_info *mi = &AT(cs->members, rg_member_info, e->first + i);
    if (same_folded(cs->pool + mi->code, text)) return (int)i;
    if (mi->display && same_folded(cs->pool + mi->display, text)) return (int)i;
  }
  return -1;
}

/* Writes the codes of en's members, comma-separated, into buf. */
const char *rgc_member_list(cstate *cs, uint32_t en, char *buf, size_t size) {
  const rg_enum *e = &AT(cs->enums, rg_enum, en);
  size_t n = 0;
  buf[0] = '\0';
  for (uint32_t i = 0; i < e->count && n + 1 < size; i++) {
    int k = snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
                     cs->pool + AT(cs->members, rg_member_info, e->first + i).code);
    if (k < 0) break;
    n += (size_t)k;
  }
  return buf;
}

/* Looks a bare member name up in every enum.  Returns the number of enums
** that have it, and the first one's enum and index. */
static int find_member(cstate *cs, const char *code, uint32_t *en, uint32_t *index,
                       char *enums, size_t size) {
  int found = 0;
  size_t n = 0;
  if (enums && size) enums[0] = '\0';
  for (memref *m = cs->memhash[hash(code)]; m; m = m->next) {
    if (strcmp(m->code, code) != 0) continue;
    if (!found) { *en = m->en; *index = m->index; }
    if (enums && n + 1 < size) {
      int k = snprintf(enums + n, size - n, "%s%s", found ? ", " : "",
                       cs->pool + AT(cs->enums, rg_enum, m->en).name);
      if (k > 0) n += (size_t)k;
    }
    found++;
  }
  return found;
}

/* ======================================================================
** Operators: one place says what each operator accepts and gives
** ==================================================================== */

static const char *const opsym[] = {
  "-", "not", "+", "-", "*", "/", "mod", "==", "!=", "<", "<=", ">", ">=",
  "and", "or", "in"
};

/* Returns whether t is a numeric type: int, percent or distance. */
static bool numeric(rg_type t) {
  return t.kind == RG_K_INT || t.kind == RG_K_PERCENT || t.kind == RG_K_DIST;
}

/* Returns the type of `a op b` for operand types a and b, or T_ERR after
** reporting why the operator does not apply. */
static rg_type binop_type(cstate *cs, rg_pos pos, rg_op op, rg_type a, rg_type b) {
  char x[96], y[96];
  if (rgc_is_err(a) || rgc_is_err(b)) return T_ERR;
  switch (op) {
  case RG_AOP_ADD: case RG_AOP_SUB:
    if ((numeric(a) || a.kind == RG_K_SET || a.kind == RG_K_LIST) && COMPAT(a, b))
      return (a.kind == RG_K_SET || a.kind == RG_K_LIST) && a.ref == REF_ANY ? b : a;
    break;
  case RG_AOP_MUL:
    if (a.kind == RG_K_INT && b.kind == RG_K_INT) return a;
    if (numeric(a) && b.kind == RG_K_INT) return a;
    if (a.kind == RG_K_INT && numeric(b)) return b;
    if (a.kind == RG_K_SET && COMPAT(a, b)) return a.ref == REF_ANY ? b : a;
    break;
  case RG_AOP_DIV:
    if (numeric(a) && b.kind == RG_K_INT) return a;
    if (numeric(a) && a.kind != RG_K_INT && COMPAT(a, b)) return T_INT;
    break;
  case RG_AOP_MOD:
    if (a.kind == RG_K_INT && b.kind == RG_K_INT) return a;
    break;
  case RG_AOP_EQ: case RG_AOP_NE:
    /* records field by field, lists element by element (EQV) */
    if (COMPAT(a, b)) return T_BOOL;
    break;
  case RG_AOP_LT: case RG_AOP_LE: case RG_AOP_GT: case RG_AOP_GE:
    if (a.kind == RG_K_ENUM && COMPAT(a, b)) {
      const rg_enum *e = &AT(cs->enums, rg_enum, a.ref);
      if (e->ordered) return T_BOOL;
      rgc_err(cs, pos, "'%s' needs an ordered enum; '%s' is declared with commas, not <",
          opsym[op], cs->pool + e->name);
      return T_ERR;
    }
    if (numeric(a) && COMPAT(a, b)) return T_BOOL;
    break;
  case RG_AOP_AND: case RG_AOP_OR:
    if (a.kind == RG_K_BOOL && b.kind == RG_K_BOOL) return T_BOOL;
    break;
  case RG_AOP_IN:
    if (a.kind == RG_K_ENUM && b.kind == RG_K_SET && (b.ref == REF_ANY || b.ref == a.ref))
      return T_BOOL;
    if (b.kind == RG_K_LIST && (b.ref == REF_ANY || COMPAT(a, elem_of(cs, b))))
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
static rg_type unop_type(cstate *cs, rg_pos pos, rg_op op, rg_type a) {
  char x[96];
  if (rgc_is_err(a)) return T_ERR;
  if (op == RG_AOP_NEG && numeric(a)) return a;
  if (op == RG_AOP_NOT && a.kind == RG_K_BOOL) return a;
  rgc_err(cs, pos, "'%s' cannot apply to %s", opsym[op], rgc_tname(cs, a, x, sizeof x));
  return T_ERR;
}

/* Scale of a value of type t in a multiplication or division: distances are
** thousandths, so dist * dist is not allowed and dist / dist rescales. */
static rg_opcode binop_code(rg_op op, rg_type ta, rg_type tb) {
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
static bool fold_binop(cstate *cs, rg_pos pos, rg_op op, rg_type ta, rg_value a, rg_value b,
                       rg_value *out) {
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
static bool resolve_member(cstate *cs, rg_pos pos, const char *text, bool quoted, rg_type want,
                           uint32_t *en, uint32_t *index) {
  char list[512];
  uint32_t ctx = UINT32_MAX;
  if (want.kind == RG_K_ENUM || (want.kind == RG_K_SET && want.ref != REF_ANY))
    ctx = want.ref;
  if (ctx != UINT32_MAX) {
    int m = quoted ? rgc_member_by_text(cs, ctx, text) : rgc_member_by_code(cs, ctx, text);
    if (m >= 0) { *en = ctx; *index = (uint32_t)m; return true; }
    if (quoted || !find_member(cs, text, en, index, NULL, 0)) {
      rgc_err(cs, pos, "'%s' is not a member of %s (members: %s)", text,
          cs->pool + AT(cs->enums, rg_enum, ctx).name, rgc_member_list(cs, ctx, list, sizeof list));
      return false;
    }
    /* A member of another enum: let the type check say so. */
  }
  if (quoted) return false;
  {
    int n = find_member(cs, text, en, index, list, sizeof list);
    if (n == 1 || (n > 1 && ctx != UINT32_MAX)) return true;
    if (n > 1) {
      rgc_err(cs, pos, "'%s' is a member of several enums (%s); write ENUM.%s", text, list, text);
      return false;
    }
  }
  rgc_err(cs, pos, "unknown name '%s'", text);
  return false;
}

/* Finds the unit of a distance literal ("in" for inches); returns its index
** or -1 after reporting. */
static int resolve_unit(cstate *cs, rg_pos pos, const char *name) {
  sym *s = rgc_lookup(cs, name);
  if (s && s->kind == S_UNIT) return (int)s->index;
  rgc_err(cs, pos, "unknown unit '%s'%s", name,
      cs->units.n ? "" : " (declare it with 'unit')");
  return -1;
}

/* Returns whether e's value depends on a starred distance: a starred
** literal, or a constant that does (so `regula diff` marks it as scaled). */
static bool expr_starred(cstate *cs, const rg_expr *e, int depth) {
  if (!e || depth > 32) return false;
  switch (e->kind) {
  case RG_EX_DIST: return e->starred;
  case RG_EX_NAME: {
    sym *s = rgc_lookup(cs, e->name);
    return s && s->kind == S_CONST && expr_starred(cs, s->decl->value, depth + 1);
  }
  case RG_EX_UNARY: return expr_starred(cs, e->a, depth + 1);
  case RG_EX_BINARY: return expr_starred(cs, e->a, depth + 1) || expr_starred(cs, e->b, depth + 1);
  case RG_EX_CALL: case RG_EX_SET: case RG_EX_LIST:
    for (const rg_expr *a = e->args; a; a = a->next)
      if (expr_starred(cs, a, depth + 1)) return true;
    return false;
  default: return false;
  }
}

/* Applies the rule set's scale to a starred distance of v thousandths:
** v * num / den, rounded to whole units as the scale says. */
static rg_value scaled(cstate *cs, rg_pos pos, rg_value v) {
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
static rg_type const_value(cstate *cs, rg_pos use, sym *s, rg_value *v) {
  if (s->state == 1) {
    rgc_err(cs, use, "constant '%s' depends on itself", s->name);
    s->state = 3;
    return T_ERR;
  }
  if (s->state == 0) {
    rg_type want = T_NONE;
    rg_type t;
    s->state = 1;
    if (s->decl->type) want = resolve_type(cs, s->decl->type);
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
rg_value rgc_heap_record(cstate *cs, const rg_value *vals, uint32_t n) {
  uint32_t off = cs->heap.n;
  for (uint32_t i = 0; i < n; i++) {
    rg_value *slot = rgc_push(cs, &cs->heap);
    if (!slot) return 0;
    *slot = vals[i];
  }
  return off;
}

/* Folds a record literal against record type r. */
static rg_type fold_record(cstate *cs, rg_expr *e, uint32_t r, rg_value *v) {
  const rg_record *rec = &AT(cs->records, rg_record, r);
  uint32_t n = rec->count;
  rg_value *vals = rgc_alloc(cs, n * sizeof *vals);
  bool *seen = rgc_alloc(cs, n * sizeof *seen);
  bool ok = true;
  if (!vals || !seen) { rgc_oom(cs); return T_ERR; }
  for (rg_fieldinit *f = e->fields; f; f = f->next) {
    uint32_t k;
    for (k = 0; k < n; k++)
      if (strcmp(cs->pool + AT(cs->fields, rg_field_info, rec->first + k).name, f->name) == 0)
        break;
    if (k == n) {
      rgc_err(cs, f->pos, "record %s has no field '%s'", cs->pool + rec->name, f->name);
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
      rg_type ft = AT(cs->fields, rg_field_info, rec->first + k).type;
      rg_type t = rgc_fold(cs, f->value, ft, &vals[k]);
      if (rgc_is_err(t) || !rgc_check_type(cs, f->value->pos, t, ft, "this field")) ok = false;
    }
  }
  for (uint32_t k = 0; k < n && ok; k++)
    if (!seen[k]) {
      rgc_err(cs, e->pos, "field '%s' of %s is missing",
          cs->pool + AT(cs->fields, rg_field_info, rec->first + k).name, cs->pool + rec->name);
      ok = false;
    }
  if (!ok) return T_ERR;
  *v = rgc_heap_record(cs, vals, n);
  return mktype(RG_K_RECORD, r);
}

/* Folds a set literal; members take their enum from want or the first. */
static rg_type fold_set(cstate *cs, rg_expr *e, rg_type want, rg_value *v) {
  rg_type elem = T_NONE;
  uint64_t mask = 0;
  bool ok = true;
  if (want.kind == RG_K_SET && want.ref != REF_ANY) elem = mktype(RG_K_ENUM, want.ref);
  if (!e->args) { *v = 0; return want.kind == RG_K_SET ? want : mktype(RG_K_SET, REF_ANY); }
  for (rg_expr *m = e->args; m; m = m->next) {
    rg_value mv;
    rg_type t = rgc_fold(cs, m, elem, &mv);
    if (rgc_is_err(t)) { ok = false; continue; }
    if (t.kind != RG_K_ENUM) {
      char x[96];
      rgc_err(cs, m->pos, "a set's members must be enum members, not %s", rgc_tname(cs, t, x, sizeof x));
      ok = false;
      continue;
    }
    if (elem.kind == RG_K_VOID) elem = t;
    else if (!rgc_check_type(cs, m->pos, t, elem, "a member of this set")) { ok = false; continue; }
    mask |= (uint64_t)1 << (mv & 63);
  }
  if (!ok) return T_ERR;
  *v = (rg_value)mask;
  return mktype(RG_K_SET, elem.ref);
}

/* Folds the constant expression e in the context of want.  Returns its
** type and stores its value; T_ERR after reporting. */
/* Whether constant values a and b of type t are equal: records (on the
** constant heap) field by field, anything else as numbers.  (Constant
** records hold no lists: list literals are not constants.) */
static bool fold_equal(cstate *cs, rg_type t, rg_value a, rg_value b) {
  if (a == b) return true;
  if (t.kind != RG_K_RECORD) return false;
  {
    const rg_record *rec = &AT(cs->records, rg_record, t.ref);
    for (uint32_t k = 0; k < rec->count; k++)
      if (!fold_equal(cs, AT(cs->fields, rg_field_info, rec->first + k).type,
                      AT(cs->heap, rg_value, (uint32_t)a + k), AT(cs->heap, rg_value, (uint32_t)b + k)))
        return false;
  }
  return true;
}

rg_type rgc_fold(cstate *cs, rg_expr *e, rg_type want, rg_value *v) {
  *v = 0;
  switch (e->kind) {
  case RG_EX_INT: *v = e->ival; return T_INT;
  case RG_EX_PERCENT: *v = e->ival; return mktype(RG_K_PERCENT, 0);
  case RG_EX_BOOL: *v = e->ival; return T_BOOL;
  case RG_EX_DIST: {
    int u = resolve_unit(cs, e->pos, e->name);
    if (u < 0) return T_ERR;
    *v = e->starred ? scaled(cs, e->pos, e->ival) : e->ival;
    return mktype(RG_K_DIST, (uint32_t)u);
  }
  case RG_EX_STR:
    if (want.kind == RG_K_ENUM) {
      uint32_t en, ix;
      if (!resolve_member(cs, e->pos, e->str, true, want, &en, &ix)) return T_ERR;
      *v = ix;
      return mktype(RG_K_ENUM, en);
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
      if (s->kind == S_CONST) return const_value(cs, e->pos, s, v);
      if (s->kind == S_ENUM && find_member(cs, e->name, &en, &ix, NULL, 0) == 0) {
        /* an enum's name as a value: the set of all its members */
        uint32_t n = AT(cs->enums, rg_enum, s->index).count;
        *v = (rg_value)(n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1);
        return mktype(RG_K_SET, s->index);
      }
      if (find_member(cs, e->name, &en, &ix, NULL, 0) == 0) {
        rgc_err(cs, e->pos, "'%s' is %s, not a %s", e->name, symwhat[s->kind],
            s->kind == S_INPUT ? "constant (inputs are read when the rules run)" : "value");
        return T_ERR;
      }
    }
    if (!resolve_member(cs, e->pos, e->name, false, want, &en, &ix)) return T_ERR;
    *v = ix;
    return mktype(RG_K_ENUM, en);
  }
  case RG_EX_FIELD:
    if (e->a->kind == RG_EX_NAME) {
      sym *s = rgc_lookup(cs, e->a->name);
      if (s && s->kind == S_ENUM) {
        int m = rgc_member_by_code(cs, s->index, e->name);
        char list[512];
        if (m < 0) {
          rgc_err(cs, e->pos, "'%s' is not a member of %s (members: %s)", e->name, s->name,
              rgc_member_list(cs, s->index, list, sizeof list));
          return T_ERR;
        }
        *v = m;
        return mktype(RG_K_ENUM, s->index);
      }
    }
    break;
  case RG_EX_UNARY: {
    rg_type t = rgc_fold(cs, e->a, want, v);
    t = unop_type(cs, e->pos, e->op, t);
    if (rgc_is_err(t)) return t;
    if (e->op == RG_AOP_NOT) *v = !*v;
    else if (*v == INT64_MIN) { rgc_err(cs, e->pos, "integer overflow"); return T_ERR; }
    else *v = -*v;
    return t;
  }
  case RG_EX_BINARY: {
    rg_value a, b;
    rg_type ta = rgc_fold(cs, e->a, numeric(want) || want.kind == RG_K_SET ? want : T_NONE, &a);
    rg_type tb = rgc_fold(cs, e->b, e->op == RG_AOP_IN && ta.kind == RG_K_ENUM
                                    ? mktype(RG_K_SET, ta.ref) : ta, &b);
    rg_type t = binop_type(cs, e->oppos, e->op, ta, tb);
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

/* ======================================================================
** Emitting code
** ==================================================================== */

/* Appends instruction op A, tagged with the current position; returns its
** index relative to the procedure start. */
static uint32_t emit(cstate *cs, rg_opcode op, uint32_t a) {
  uint32_t *ins;
  rg_line *ln;
  if (a > RG_A_MAX) {
    rgc_err(cs, cs->pos, "procedure too large (operand %u exceeds the limit)", a);
    a = 0;
  }
  ins = rgc_push(cs, &cs->code);
  ln = rgc_push(cs, &cs->lines);
  if (!ins || !ln) return 0;
  *ins = RG_INS(op, a);
  ln->file = cs->pos.file;
  ln->line = cs->pos.line;
  ln->col = rg_diag_col(cs->d, cs->pos.file, cs->pos.line, cs->pos.col);
  return cs->code.n - 1 - cs->proc_start;
}

/* Returns the index of constant v in K[], adding it once. */
static uint32_t konst(cstate *cs, rg_value v) {
  for (uint32_t i = 0; i < cs->consts.n; i++)
    if (AT(cs->consts, rg_value, i) == v) return i;
  {
    rg_value *k = rgc_push(cs, &cs->consts);
    if (!k) return 0;
    *k = v;
    return cs->consts.n - 1;
  }
}

/* Emits code that pushes the value v. */
static void emit_value(cstate *cs, rg_value v) {
  if (v >= RG_SA_MIN && v <= RG_SA_MAX) emit(cs, RG_OP_PUSHI, (uint32_t)v & RG_A_MAX);
  else emit(cs, RG_OP_CONST, konst(cs, v));
}

/* -a for a number written out (a literal just compiled to PUSHI k): turns
** that PUSHI into PUSHI -k and returns true; false when a is anything else
** (the caller emits NEG). */
static bool fold_neg(cstate *cs, const rg_expr *a) {
  uint32_t *last;
  if (a->kind != RG_EX_INT && a->kind != RG_EX_PERCENT && a->kind != RG_EX_DIST) return false;
  if (cs->code.n == 0) return false;
  last = &AT(cs->code, uint32_t, cs->code.n - 1);
  if (RG_INS_OP(*last) != RG_OP_PUSHI || RG_INS_SA(*last) == RG_SA_MIN) return false;
  *last = RG_INS(RG_OP_PUSHI, (uint32_t)-RG_INS_SA(*last) & RG_A_MAX);
  return true;
}

/* Returns the index of the next instruction, relative to the procedure. */
static uint32_t here(cstate *cs) { return cs->code.n - cs->proc_start; }

/* Points the jump at `at` to `target` (both relative to the procedure). */
static void patch(cstate *cs, uint32_t at, uint32_t target) {
  int64_t off = (int64_t)target - (int64_t)at - 1;
  uint32_t *ins;
  if (off < RG_SA_MIN || off > RG_SA_MAX) {
    rgc_err(cs, cs->pos, "procedure too large: a jump spans more than %d instructions", RG_SA_MAX);
    return;
  }
  ins = &AT(cs->code, uint32_t, cs->proc_start + at);
  *ins = RG_INS(RG_INS_OP(*ins), (uint32_t)off & RG_A_MAX);
}

/* Emits a jump back to target. */
static void emit_back(cstate *cs, rg_opcode op, uint32_t target) {
  uint32_t at = emit(cs, op, 0);
  patch(cs, at, target);
}

/* A list of forward jumps whose target is not known yet: the instruction
** indexes (relative to the procedure) of JMP, JMPF or JMPT instructions
** emitted with operand 0, linked in the arena.  NULL is the empty list. */
typedef struct jumps {
  uint32_t at;
  struct jumps *next;
} jumps;

/* Emits jump op (JMP, JMPF or JMPT) with its target still to come, and adds
** it to *list. */
static void emit_jump(cstate *cs, rg_opcode op, jumps **list) {
  jumps *j = rgc_alloc(cs, sizeof *j);
  j->at = emit(cs, op, 0);
  j->next = *list;
  *list = j;
}

/* Points every jump of list at target (relative to the procedure). */
static void patch_list(cstate *cs, jumps *list, uint32_t target) {
  for (; list; list = list->next) patch(cs, list->at, target);
}

/* ======================================================================
** Locals
** ==================================================================== */

/* Returns the innermost local named name, or NULL. */
static local *find_local(cstate *cs, const char *name) {
  for (uint32_t i = cs->nlocal; i-- > 0;)
    if (strcmp(cs->locals[i].name, name) == 0) return &cs->locals[i];
  return NULL;
}

/* Adds a local of type t in the current block; returns its slot.  A name
** that starts with a space is the compiler's own (a hidden local): never
** written in a rule file, it may be added again in the same block. */
static uint32_t add_local(cstate *cs, rg_pos pos, const char *name, rg_type t) {
  local *l = name[0] == ' ' ? NULL : find_local(cs, name);   /* " x": hidden, never clashes */
  if (l && l->depth == cs->depth) rgc_err(cs, pos, "'%s' is already declared in this block", name);
  if (cs->nlocal == cs->caplocal) {
    uint32_t cap = cs->caplocal ? cs->caplocal * 2 : 32;
    local *p = rgc_alloc(cs, cap * sizeof *p);
    if (!p) { rgc_oom(cs); return 0; }
    if (cs->nlocal) memcpy(p, cs->locals, cs->nlocal * sizeof *p);
    cs->locals = p;
    cs->caplocal = cap;
  }
  if (cs->nslots >= MAX_LOCALS) {
    rgc_err(cs, pos, "too many local variables (limit %d)", MAX_LOCALS);
    return 0;
  }
  l = &cs->locals[cs->nlocal++];
  l->name = name;
  l->slot = cs->nslots++;
  l->type = t;
  l->depth = cs->depth;
  return l->slot;
}

/* Leaves a block: forgets its locals (their slots are not reused). */
static void end_block(cstate *cs) {
  while (cs->nlocal && cs->locals[cs->nlocal - 1].depth == cs->depth) cs->nlocal--;
  cs->depth--;
}

/* ======================================================================
** Expressions
** ==================================================================== */

static rg_type expr(cstate *cs, rg_expr *e, rg_type want);
static rg_type builtin2(cstate *cs, rg_expr *e, rg_type want, bool *is_builtin);
static rg_type shape_call(cstate *cs, rg_expr *e, bool *is_shape);
static bool foldable(cstate *cs, rg_expr *e);
static bool int_arg(cstate *cs, rg_expr *a);

/* Type-checks e without keeping its code or reporting its errors. */
static rg_type probe(cstate *cs, rg_expr *e, rg_type want) {
  uint32_t ncode = cs->code.n, nlines = cs->lines.n;
  rg_type t;
  cs->quiet++;
  t = expr(cs, e, want);
  cs->quiet--;
  cs->code.n = ncode;
  cs->lines.n = nlines;
  return t;
}

/* Returns whether e takes its type from context: a bare member name, a
** quoted display name, an empty set or a record literal. */
static bool needs_context(cstate *cs, rg_expr *e) {
  switch (e->kind) {
  case RG_EX_NAME: return !find_local(cs, e->name) && !rgc_lookup(cs, e->name);
  case RG_EX_STR: return true;
  case RG_EX_SET: case RG_EX_LIST: return e->args == NULL;
  case RG_EX_RECORD: return true;
  default: return false;
  }
}

/* Counts a list of expressions. */
static uint32_t count_list(rg_expr *e) {
  uint32_t n = 0;
  for (; e; e = e->next) n++;
  return n;
}

/* builtin(args): min, max, clamp, abs, count, ord.  Returns T_NONE (kind
** VOID with ref 1) when name is not a builtin. */
static rg_type builtin(cstate *cs, rg_expr *e, rg_type want, bool *is_builtin) {
  const char *n = e->name;
  uint32_t argc = count_list(e->args);
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
      rg_type ta = expr(cs, a, t.kind == RG_K_VOID ? want : t);
      if (rgc_is_err(ta)) { bad = true; continue; }
      if (!numeric(ta) && !(ta.kind == RG_K_ENUM && AT(cs->enums, rg_enum, ta.ref).ordered)) {
        rgc_err(cs, a->pos, "%s needs numbers or an ordered enum, not %s", n, rgc_tname(cs, ta, x, sizeof x));
        bad = true;
        continue;
      }
      if (t.kind == RG_K_VOID) t = ta;
      else if (!rgc_check_type(cs, a->pos, ta, t, "this argument")) bad = true;
    }
    if (bad) return T_ERR;
    if (clamp) emit(cs, RG_OP_CLAMP, 0);
    else emit(cs, n[1] == 'i' ? RG_OP_MIN : RG_OP_MAX, argc);
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
      lo_e->next = NULL;             /* foldable() checks a whole list */
      lo_ok = foldable(cs, lo_e);
      lo_e->next = hi_e;
      if (!lo_ok || !foldable(cs, hi_e)) {
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
    tx = expr(cs, e->args, T_INT);
    if (rgc_is_err(tx) || !rgc_check_type(cs, e->args->pos, tx, T_INT, "the value of wrap"))
      return T_ERR;
    cs->pos = e->pos;
    emit_value(cs, lo);
    emit(cs, RG_OP_SUB, 0);
    emit_value(cs, span);
    emit(cs, RG_OP_MOD, 0);
    emit_value(cs, span);
    emit(cs, RG_OP_ADD, 0);
    emit_value(cs, span);
    emit(cs, RG_OP_MOD, 0);
    emit_value(cs, lo);
    emit(cs, RG_OP_ADD, 0);
    return T_INT;
  }
  if (strcmp(n, "abs") == 0 || strcmp(n, "count") == 0 || strcmp(n, "ord") == 0) {
    rg_type ta;
    if (argc != 1) {
      rgc_err(cs, e->pos, "%s takes 1 argument, not %u", n, argc);
      return T_ERR;
    }
    ta = expr(cs, e->args, T_NONE);
    if (rgc_is_err(ta)) return T_ERR;
    if (n[0] == 'a') {
      if (!numeric(ta)) { rgc_err(cs, e->args->pos, "abs needs a number, not %s", rgc_tname(cs, ta, x, sizeof x)); return T_ERR; }
      emit(cs, RG_OP_ABS, 0);
      return ta;
    }
    if (n[0] == 'c') {
      if (ta.kind != RG_K_SET) { rgc_err(cs, e->args->pos, "count needs a set, not %s", rgc_tname(cs, ta, x, sizeof x)); return T_ERR; }
      emit(cs, RG_OP_COUNT, 0);
      return T_INT;
    }
    if (ta.kind != RG_K_ENUM) { rgc_err(cs, e->args->pos, "ord needs an enum member, not %s", rgc_tname(cs, ta, x, sizeof x)); return T_ERR; }
    return T_INT;
  }
  *is_builtin = false;
  return T_ERR;
}

/* name(args): a procedure call (or a builtin).  Pushes the result, if any. */
static rg_type call(cstate *cs, rg_expr *e, rg_type want) {
  bool is_builtin;
  rg_type t = builtin(cs, e, want, &is_builtin);
  sym *s;
  if (!is_builtin) t = builtin2(cs, e, want, &is_builtin);
  if (!is_builtin) t = shape_call(cs, e, &is_builtin);
  const rg_proc *p;
  uint32_t argc = count_list(e->args), i = 0;
  bool bad = false;
  if (is_builtin) return t;
  s = rgc_lookup(cs, e->name);
  if (!s || s->kind != S_PROC) {
    if (s) rgc_err(cs, e->pos, "'%s' is not a procedure", e->name);
    else rgc_err(cs, e->pos, "unknown procedure '%s'", e->name);
    for (rg_expr *a = e->args; a; a = a->next) probe(cs, a, T_NONE);
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
    rg_type ta = expr(cs, a, pt);
    if (!rgc_check_type(cs, a->pos, ta, pt, "this argument")) bad = true;
    if (rgc_is_err(ta)) bad = true;
  }
  cs->pos = e->pos;
  emit(cs, RG_OP_CALL, s->index);
  return bad ? T_ERR : p->result;
}

/* NAME[k] of an input indexed by enum E (input NAME[E]): the input of
** member k.  A constant k reads its input directly; otherwise k goes to a
** hidden local and a chain picks the input:
**     LOAD k; PUSH i; EQ; JMPF next; INPUT first + i; JMP end; next: ...
** ending with the last member's input. */
static rg_type input_index(cstate *cs, rg_expr *e, sym *s) {
  rg_type it = resolve_type(cs, s->decl->index), kt;
  const rg_enum *en;
  uint32_t key, n;
  jumps *ends = NULL;
  if (rgc_is_err(it) || rgc_is_err(s->type)) return T_ERR;
  if (count_list(e->args) != 1) {
    rgc_err(cs, e->pos, "input %s takes 1 key (a %s), not %u", s->name, s->decl->index->name,
        count_list(e->args));
    return T_ERR;
  }
  en = &AT(cs->enums, rg_enum, it.ref);
  n = en->count;
  if (foldable(cs, e->args)) {
    rg_value v;
    kt = rgc_fold(cs, e->args, it, &v);
    if (rgc_is_err(kt) || !rgc_check_type(cs, e->args->pos, kt, it, "this key")) return T_ERR;
    cs->pos = e->pos;
    emit(cs, RG_OP_INPUT, s->index + (uint32_t)v);
    return s->type;
  }
  kt = expr(cs, e->args, it);
  if (rgc_is_err(kt) || !rgc_check_type(cs, e->args->pos, kt, it, "this key")) return T_ERR;
  key = add_local(cs, e->pos, " key", it);
  cs->pos = e->pos;
  emit(cs, RG_OP_STORE, key);
  for (uint32_t k = 0; k + 1 < n; k++) {
    uint32_t next;
    emit(cs, RG_OP_LOAD, key);
    emit_value(cs, k);
    emit(cs, RG_OP_EQ, 0);
    next = emit(cs, RG_OP_JMPF, 0);
    emit(cs, RG_OP_INPUT, s->index + k);
    emit_jump(cs, RG_OP_JMP, &ends);
    patch(cs, next, here(cs));
  }
  emit(cs, RG_OP_INPUT, s->index + n - 1);
  patch_list(cs, ends, here(cs));
  return s->type;
}

/* t[keys]: a table lookup. */
static rg_type index_expr(cstate *cs, rg_expr *e) {
  sym *s = e->a->kind == RG_EX_NAME && !find_local(cs, e->a->name) ? rgc_lookup(cs, e->a->name) : NULL;
  const rg_table *tb;
  uint32_t argc = count_list(e->args), i = 0;
  bool bad = false;
  if ((!s || (s->kind != S_TABLE && s->kind != S_INPUT)) && !(e->a->kind == RG_EX_NAME && !s &&
                                                              !find_local(cs, e->a->name))) {
    /* An expression that is not a table: a list, indexed from 0. */
    rg_type l = expr(cs, e->a, T_NONE);
    char x[96];
    if (rgc_is_err(l)) return T_ERR;
    if (l.kind != RG_K_LIST) {
      rgc_err(cs, e->a->pos, "only tables and lists can be indexed with [...], not %s", rgc_tname(cs, l, x, sizeof x));
      return T_ERR;
    }
    if (argc != 1) {
      rgc_err(cs, e->pos, "a list takes 1 index, not %u", argc);
      return T_ERR;
    }
    if (!int_arg(cs, e->args)) return T_ERR;
    cs->pos = e->pos;
    emit(cs, RG_OP_ITEM, 0);
    return l.ref == REF_ANY ? T_ERR : elem_of(cs, l);
  }
  if (s && s->kind == S_INPUT && s->decl->index) return input_index(cs, e, s);
  if (!s || s->kind != S_TABLE) {
    if (e->a->kind == RG_EX_NAME && !s && !find_local(cs, e->a->name))
      rgc_err(cs, e->a->pos, "unknown table '%s'", e->a->name);
    else rgc_err(cs, e->a->pos, "only tables can be indexed with [...]");
    return T_ERR;
  }
  tb = &AT(cs->tables, rg_table, s->index);
  if (argc != tb->ndims) {
    rgc_err(cs, e->pos, "table %s takes %u key%s, not %u", s->name, tb->ndims,
        tb->ndims == 1 ? "" : "s", argc);
    return T_ERR;
  }
  for (rg_expr *k = e->args; k; k = k->next, i++) {
    const rg_dim *dm = &AT(cs->dims, rg_dim, tb->first_dim + i);
    rg_type kt = dm->is_enum ? mktype(RG_K_ENUM, dm->ref) : T_INT;
    rg_type t = expr(cs, k, kt);
    if (rgc_is_err(t) || !rgc_check_type(cs, k->pos, t, kt, "this key")) bad = true;
  }
  cs->pos = e->pos;
  emit(cs, RG_OP_LOOKUP, s->index);
  return bad ? T_ERR : tb->value;
}

/* Returns whether e can be folded here: no locals, no calls, no lookups. */
static bool foldable(cstate *cs, rg_expr *e) {
  for (; e; e = e->next) {
    switch (e->kind) {
    case RG_EX_NAME: if (find_local(cs, e->name)) return false; break;
    case RG_EX_INT: case RG_EX_PERCENT: case RG_EX_DIST: case RG_EX_STR: case RG_EX_BOOL: break;
    case RG_EX_FIELD:
      if (e->a->kind != RG_EX_NAME || find_local(cs, e->a->name)) return false;
      break;
    case RG_EX_UNARY: if (!foldable(cs, e->a)) return false; break;
    case RG_EX_BINARY: if (!foldable(cs, e->a) || !foldable(cs, e->b)) return false; break;
    case RG_EX_SET: if (!foldable(cs, e->args)) return false; break;
    case RG_EX_RECORD:
      if (e->a) return false;   /* { a with ... } is built when the rules run */
      for (rg_fieldinit *f = e->fields; f; f = f->next)
        if (f->value->next || !foldable(cs, f->value)) return false;
      break;
    default: return false;
    }
  }
  return true;
}

/* A set literal: folded to a mask when constant, else built with SETADD. */
static rg_type set_expr(cstate *cs, rg_expr *e, rg_type want) {
  rg_type elem = T_NONE;
  bool bad = false;
  if (foldable(cs, e->args)) {
    rg_value v;
    rg_type t = rgc_fold(cs, e, want, &v);
    if (!rgc_is_err(t)) emit_value(cs, v);
    return t;
  }
  if (want.kind == RG_K_SET && want.ref != REF_ANY) elem = mktype(RG_K_ENUM, want.ref);
  emit_value(cs, 0);
  for (rg_expr *m = e->args; m; m = m->next) {
    rg_type t = expr(cs, m, elem);
    if (rgc_is_err(t)) { bad = true; continue; }
    if (t.kind != RG_K_ENUM) {
      char x[96];
      rgc_err(cs, m->pos, "a set's members must be enum members, not %s", rgc_tname(cs, t, x, sizeof x));
      bad = true;
      continue;
    }
    if (elem.kind == RG_K_VOID) elem = t;
    else if (!rgc_check_type(cs, m->pos, t, elem, "a member of this set")) { bad = true; continue; }
    emit(cs, RG_OP_SETADD, 0);
  }
  if (bad) return T_ERR;
  return mktype(RG_K_SET, elem.ref);
}

/* A record literal built at run time: its fields in declared order, then
** MKREC; folded into the constant heap when every field is constant. */
static rg_type record_expr(cstate *cs, rg_expr *e, rg_type want) {
  const rg_record *rec;
  rg_expr **byfield;
  bool bad = false;
  uint32_t base = 0;
  if (e->a) {
    /* { a with f: v, ... }: a is stored in a hidden local, the fields not
    ** given are read from it */
    char x[96];
    rg_type bt = expr(cs, e->a, want);
    if (rgc_is_err(bt)) return T_ERR;
    if (bt.kind != RG_K_RECORD) {
      rgc_err(cs, e->a->pos, "'with' needs a record to copy, not %s", rgc_tname(cs, bt, x, sizeof x));
      return T_ERR;
    }
    if (!rgc_is_err(want) && want.kind != RG_K_VOID && !rgc_check_type(cs, e->pos, bt, want, "the record"))
      return T_ERR;
    want = bt;
    base = add_local(cs, e->pos, " with", bt);
    cs->pos = e->pos;
    emit(cs, RG_OP_STORE, base);
  }
  if (want.kind != RG_K_RECORD) {
    if (!rgc_is_err(want)) rgc_err(cs, e->pos, "a record literal needs a record type from its context");
    return T_ERR;
  }
  if (foldable(cs, e)) {
    rg_value v;
    rg_type t = rgc_fold(cs, e, want, &v);
    if (!rgc_is_err(t)) emit_value(cs, v);
    return t;
  }
  rec = &AT(cs->records, rg_record, want.ref);
  byfield = rgc_alloc(cs, rec->count * sizeof *byfield);
  if (!byfield) { rgc_oom(cs); return T_ERR; }
  for (rg_fieldinit *f = e->fields; f; f = f->next) {
    uint32_t k;
    for (k = 0; k < rec->count; k++)
      if (strcmp(cs->pool + AT(cs->fields, rg_field_info, rec->first + k).name, f->name) == 0)
        break;
    if (k == rec->count) {
      rgc_err(cs, f->pos, "record %s has no field '%s'", cs->pool + rec->name, f->name);
      bad = true;
    } else if (byfield[k]) {
      rgc_err(cs, f->pos, "field '%s' is given twice", f->name);
      bad = true;
    } else byfield[k] = f->value;
  }
  for (uint32_t k = 0; k < rec->count; k++) {
    rg_type ft = AT(cs->fields, rg_field_info, rec->first + k).type;
    rg_type t;
    if (!byfield[k] && e->a) {
      cs->pos = e->pos;
      emit(cs, RG_OP_LOAD, base);
      emit(cs, RG_OP_FIELD, k);
      continue;
    }
    if (!byfield[k]) {
      if (!bad) rgc_err(cs, e->pos, "field '%s' of %s is missing",
                    cs->pool + AT(cs->fields, rg_field_info, rec->first + k).name,
                    cs->pool + rec->name);
      bad = true;
      continue;
    }
    t = expr(cs, byfield[k], ft);
    if (rgc_is_err(t) || !rgc_check_type(cs, byfield[k]->pos, t, ft, "this field")) bad = true;
  }
  cs->pos = e->pos;
  emit(cs, RG_OP_MKREC, want.ref);
  return bad ? T_ERR : want;
}

/* [a, b, ...]: a list literal built on the run heap. */
static rg_type list_expr(cstate *cs, rg_expr *e, rg_type want) {
  rg_type elem = want.kind == RG_K_LIST && want.ref != REF_ANY ? elem_of(cs, want) : T_NONE;
  uint32_t n = 0;
  bool bad = false;
  for (rg_expr *a = e->args; a; a = a->next, n++) {
    rg_type t = expr(cs, a, elem);
    if (rgc_is_err(t)) { bad = true; continue; }
    if (elem.kind == RG_K_VOID) elem = t;
    else if (!rgc_check_type(cs, a->pos, t, elem, "an element of this list")) bad = true;
  }
  cs->pos = e->pos;
  emit(cs, RG_OP_LIST, n);
  if (bad) return T_ERR;
  if (elem.kind == RG_K_VOID) {
    rg_type any = { RG_K_LIST, REF_ANY };
    return want.kind == RG_K_LIST ? want : any;
  }
  return list_of(cs, elem);
}

/* Compiles argument a expecting a list; returns its type or T_ERR. */
static rg_type list_arg(cstate *cs, rg_expr *a, const char *fn, rg_type want) {
  rg_type t = expr(cs, a, want);
  char x[96];
  if (rgc_is_err(t)) return t;
  if (t.kind != RG_K_LIST) {
    rgc_err(cs, a->pos, "%s needs a list, not %s", fn, rgc_tname(cs, t, x, sizeof x));
    return T_ERR;
  }
  return t;
}

/* Compiles argument a expecting an int. */
static bool int_arg(cstate *cs, rg_expr *a) {
  rg_type t = expr(cs, a, T_INT);
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
  uint32_t argc = count_list(e->args), first = cs->types.n, k = 0;
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
  for (rg_expr *a = e->args; a; a = a->next, k++) {
    rg_type t = expr(cs, a, args[k] == 's' ? T_TEXT : T_NONE);
    rg_type *slot = rgc_push(cs, &cs->types);
    *slot = t;
    if (rgc_is_err(t)) { bad = true; continue; }
    switch (args[k]) {
    case 'n':
      if (!numeric(t)) { rgc_err(cs, a->pos, "%s needs a number or a distance here, not %s", e->name, rgc_tname(cs, t, x, sizeof x)); bad = true; }
      break;
    case 's':
      if (t.kind != RG_K_TEXT) { rgc_err(cs, a->pos, "a style is text, not %s", rgc_tname(cs, t, x, sizeof x)); bad = true; }
      break;
    case 'L':
      if (t.kind != RG_K_LIST || !numeric(elem_of(cs, t))) {
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
  {
    rg_note_info *ni = rgc_push(cs, &cs->notes);
    ni->text = rgc_intern(cs, e->name);
    ni->first_type = first;
    ni->nvals = argc;
  }
  cs->pos = e->pos;
  emit(cs, RG_OP_SHAPE, cs->notes.n - 1);
  return T_NONE;
}

/* The builtins on lists, decks and choices.  Sets *is_builtin. */
static rg_type builtin2(cstate *cs, rg_expr *e, rg_type want, bool *is_builtin) {
  const char *n = e->name;
  uint32_t argc = count_list(e->args);
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
  if (sig[k].argc && argc != sig[k].argc) {
    rgc_err(cs, e->pos, "%s takes %u argument%s, not %u", n, sig[k].argc, sig[k].argc == 1 ? "" : "s", argc);
    return T_ERR;
  }
  if (strcmp(n, "len") == 0) {
    if (rgc_is_err(list_arg(cs, a1, n, T_NONE))) return T_ERR;
    emit(cs, RG_OP_LEN, 0);
    return T_INT;
  }
  if (strcmp(n, "append") == 0) {
    rg_type l = list_arg(cs, a1, n, want), t;
    if (rgc_is_err(l)) return T_ERR;
    t = expr(cs, a2, l.ref == REF_ANY ? T_NONE : elem_of(cs, l));
    if (rgc_is_err(t)) return T_ERR;
    if (l.ref == REF_ANY) l = list_of(cs, t);
    else if (!rgc_check_type(cs, a2->pos, t, elem_of(cs, l), "the element")) return T_ERR;
    cs->pos = e->pos;
    emit(cs, RG_OP_APPEND, 0);
    return l;
  }
  if (strcmp(n, "at_least") == 0 && a1->kind == RG_EX_CALL && strcmp(a1->name, "rolls") == 0 &&
      count_list(a1->args) == 2 && a1->args->next->kind == RG_EX_DICE && a1->args->next->ival == 1) {
    /* at_least(rolls(n, dS), k): count the dice, no list (a dice pool). */
    if (!int_arg(cs, a1->args) || !int_arg(cs, a2)) return T_ERR;
    cs->pos = e->pos;
    emit(cs, RG_OP_ROLLAT, (uint32_t)a1->args->next->sides);
    return T_INT;
  }
  if (strcmp(n, "without") == 0 || strcmp(n, "best") == 0 || strcmp(n, "at_least") == 0) {
    rg_type l = list_arg(cs, a1, n, want);
    if (rgc_is_err(l)) return T_ERR;
    if (n[0] == 'a') {
      rg_type el = elem_of(cs, l), t = expr(cs, a2, el);
      if (rgc_is_err(t) || !rgc_check_type(cs, a2->pos, t, el, "the threshold")) return T_ERR;
    } else if (!int_arg(cs, a2)) return T_ERR;
    cs->pos = e->pos;
    emit(cs, n[0] == 'w' ? RG_OP_REMOVE : n[0] == 'b' ? RG_OP_BEST : RG_OP_ATLEAST, 0);
    return n[0] == 'a' ? T_INT : l;
  }
  if (strcmp(n, "sorted") == 0 || strcmp(n, "sum") == 0) {
    rg_type l = list_arg(cs, a1, n, want), el;
    if (rgc_is_err(l)) return T_ERR;
    el = elem_of(cs, l);
    if (!numeric(el) && !(n[1] == 'o' && el.kind == RG_K_ENUM && AT(cs->enums, rg_enum, el.ref).ordered)) {
      rgc_err(cs, a1->pos, "%s needs a list of numbers%s, not %s", n, n[1] == 'o' ? " or ordered members" : "",
          rgc_tname(cs, l, x, sizeof x));
      return T_ERR;
    }
    emit(cs, n[1] == 'o' ? RG_OP_SORT : RG_OP_SUM, 0);
    return n[1] == 'o' ? l : el;
  }
  if (strcmp(n, "members") == 0) {
    rg_type t = expr(cs, a1, T_NONE);
    if (rgc_is_err(t)) return T_ERR;
    if (t.kind != RG_K_SET || t.ref == REF_ANY) {
      rgc_err(cs, a1->pos, "members needs a set of a known enum, not %s", rgc_tname(cs, t, x, sizeof x));
      return T_ERR;
    }
    emit(cs, RG_OP_SETLIST, 0);
    return list_of(cs, mktype(RG_K_ENUM, t.ref));
  }
  if (strcmp(n, "rolls") == 0) {
    if (a2->kind != RG_EX_DICE || a2->ival != 1) {
      rgc_err(cs, a2->pos, "the second argument of rolls is one kind of die, like d6");
      return T_ERR;
    }
    if (!int_arg(cs, a1)) return T_ERR;
    cs->pos = e->pos;
    emit(cs, RG_OP_ROLLS, (uint32_t)a2->sides);
    return list_of(cs, T_INT);
  }
  if (strcmp(n, "left") == 0) {
    sym *d = named_arg(cs, a1, S_DECK, "a deck");
    if (!d) return T_ERR;
    emit(cs, RG_OP_LEFT, d->index);
    return T_INT;
  }
  if (strcmp(n, "draws") == 0) {
    sym *d = named_arg(cs, a1, S_DECK, "a deck");
    if (!d || !int_arg(cs, a2)) return T_ERR;
    cs->pos = e->pos;
    emit(cs, RG_OP_DRAWS, d->index);
    return list_of(cs, AT(cs->decks, rg_deck, d->index).card);
  }
  if (strcmp(n, "nth") == 0) {
    sym *en = named_arg(cs, a1, S_ENUM, "an enum");
    if (!en || !int_arg(cs, a2)) return T_ERR;
    cs->pos = e->pos;
    emit(cs, RG_OP_NTH, en->index);
    return mktype(RG_K_ENUM, en->index);
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
    who = expr(cs, a1, T_NONE);
    if (rgc_is_err(who)) return T_ERR;
    if (who.kind == RG_K_RECORD || who.kind == RG_K_LIST) {
      rgc_err(cs, a1->pos, "the chooser must be a simple value, such as a side");
      return T_ERR;
    }
    if (argc == 4) {
      if (!int_arg(cs, a3) || !int_arg(cs, a3->next)) return T_ERR;
      kind = RG_OPT_RANGE;
      res = T_INT;
    } else {
      rg_type w = T_NONE;
      if (want.kind == RG_K_ENUM) w = mktype(RG_K_SET, want.ref);
      opt = expr(cs, a3, w);
      if (rgc_is_err(opt)) return T_ERR;
      if (opt.kind == RG_K_SET && opt.ref != REF_ANY) { kind = RG_OPT_SET; res = mktype(RG_K_ENUM, opt.ref); }
      else if (opt.kind == RG_K_LIST && opt.ref != REF_ANY) { kind = RG_OPT_LIST; res = elem_of(cs, opt); }
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
    cs->pos = e->pos;
    emit(cs, RG_OP_CHOOSE, cs->choices.n - 1);
    return res;
  }
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
static rg_type cond(cstate *cs, rg_expr *e, bool jump_when, jumps **list) {
  if (e->kind == RG_EX_BINARY && (e->op == RG_AOP_AND || e->op == RG_AOP_OR)) {
    bool decides = e->op == RG_AOP_OR;   /* the value of a that decides e */
    const char *what = e->op == RG_AOP_AND ? "'and' operand" : "'or' operand";
    jumps *skip = NULL;
    rg_type ta, tb;
    ta = cond(cs, e->a, decides, decides == jump_when ? list : &skip);
    rgc_check_type(cs, e->a->pos, ta, T_BOOL, what);
    tb = cond(cs, e->b, jump_when, list);
    rgc_check_type(cs, e->b->pos, tb, T_BOOL, what);
    patch_list(cs, skip, here(cs));
    return rgc_is_err(ta) || rgc_is_err(tb) ? T_ERR : T_BOOL;
  }
  if (e->kind == RG_EX_UNARY && e->op == RG_AOP_NOT) {
    rg_type ta = cond(cs, e->a, !jump_when, list);
    return unop_type(cs, e->pos, e->op, ta);
  }
  if (e->kind == RG_EX_BOOL) {
    rg_value v;
    rg_type t = rgc_fold(cs, e, T_BOOL, &v);
    if (!rgc_is_err(t) && (v != 0) == jump_when) emit_jump(cs, RG_OP_JMP, list);
    return t;
  }
  {
    rg_type t = expr(cs, e, T_BOOL);
    emit_jump(cs, jump_when ? RG_OP_JMPT : RG_OP_JMPF, list);
    return t;
  }
}

/* a op b, with short-circuit and/or and context passed between operands.
** The value of `a and b` is a as a condition, jumping to PUSHI 0 when
** false, else b's value (`a or b`: to PUSHI 1 when a is true). */
/* The type of values compared by a value operation (EQV, LISTHASV,
** LISTSUB) on a and b: the one that is not an empty literal's `list of
** anything` (int when both are: no element is ever compared). */
static rg_type value_type(rg_type a, rg_type b) {
  if (a.kind == RG_K_LIST && a.ref == REF_ANY) a = b;
  if (a.kind == RG_K_LIST && a.ref == REF_ANY) return T_INT;
  return a;
}

/* Emits the code of binary operator op on values of types ta and tb (both
** on the stack): records and lists compare as values (EQV), `x in l` over
** records or lists and `l - m` go element by element as values. */
static void emit_binop(cstate *cs, rg_op op, rg_type ta, rg_type tb) {
  bool compound = ta.kind == RG_K_RECORD || ta.kind == RG_K_LIST;
  if ((op == RG_AOP_EQ || op == RG_AOP_NE) && compound) {
    rg_type t = value_type(ta, tb);
    /* [] == []: two lists of anything, compared as (empty) lists of ints */
    if (t.kind == RG_K_INT) t = list_of(cs, T_INT);
    emit(cs, RG_OP_EQV, type_index(cs, t));
    if (op == RG_AOP_NE) emit(cs, RG_OP_NOT, 0);
  } else if (op == RG_AOP_IN && tb.kind == RG_K_LIST && compound) {
    emit(cs, RG_OP_LISTHASV, type_index(cs, ta));
  } else if (op == RG_AOP_SUB && ta.kind == RG_K_LIST) {
    rg_type t = value_type(ta, tb);
    emit(cs, RG_OP_LISTSUB, t.kind == RG_K_LIST ? type_index(cs, elem_of(cs, t)) : type_index(cs, t));
  } else {
    emit(cs, binop_code(op, ta, tb), 0);
  }
}

static rg_type binary(cstate *cs, rg_expr *e, rg_type want) {
  rg_type ta, tb, wa = T_NONE, wb = T_NONE, t;
  rg_op op = e->op;
  if (op == RG_AOP_AND || op == RG_AOP_OR) {
    jumps *decided = NULL;   /* where a alone decides the value */
    cs->pos = e->pos;
    ta = cond(cs, e->a, op == RG_AOP_OR, &decided);
    rgc_check_type(cs, e->a->pos, ta, T_BOOL, op == RG_AOP_AND ? "'and' operand" : "'or' operand");
    tb = expr(cs, e->b, T_BOOL);
    rgc_check_type(cs, e->b->pos, tb, T_BOOL, op == RG_AOP_AND ? "'and' operand" : "'or' operand");
    if (decided) {
      uint32_t jend;
      cs->pos = e->pos;
      jend = emit(cs, RG_OP_JMP, 0);
      patch_list(cs, decided, here(cs));
      emit_value(cs, op == RG_AOP_OR);
      patch(cs, jend, here(cs));
    }
    return rgc_is_err(ta) || rgc_is_err(tb) ? T_ERR : T_BOOL;
  }
  if (numeric(want) || want.kind == RG_K_SET) wa = want;
  if (needs_context(cs, e->a) &&
      (!needs_context(cs, e->b) || (e->a->kind == RG_EX_STR && e->b->kind == RG_EX_NAME))) {
    rg_type pb = probe(cs, e->b, T_NONE);
    if (op == RG_AOP_IN) {
      if (pb.kind == RG_K_SET && pb.ref != REF_ANY) wa = mktype(RG_K_ENUM, pb.ref);
      if (pb.kind == RG_K_LIST && pb.ref != REF_ANY) wa = elem_of(cs, pb);
    }
    else if (op != RG_AOP_MUL && op != RG_AOP_DIV && op != RG_AOP_MOD) wa = pb;
  }
  ta = expr(cs, e->a, wa);
  if (op == RG_AOP_IN) wb = ta.kind == RG_K_ENUM ? mktype(RG_K_SET, ta.ref) : T_NONE;
  if (op == RG_AOP_IN && e->b->kind == RG_EX_LIST && !rgc_is_err(ta)) wb = list_of(cs, ta);
  else if (op == RG_AOP_MUL || op == RG_AOP_DIV || op == RG_AOP_MOD) wb = ta.kind == RG_K_SET ? ta : T_NONE;
  else wb = ta;
  tb = expr(cs, e->b, wb);
  cs->pos = e->oppos;
  t = binop_type(cs, e->oppos, op, ta, tb);
  if (!rgc_is_err(t)) emit_binop(cs, op, ta, tb);
  return t;
}

/* Compiles e so that it pushes one value; returns its type (T_ERR after
** reporting).  want is the type the context expects, or T_NONE. */
/* roll NAME, NAME a local of enum type E: rolls the die named by NAME's
** value.  Every member of E must name a die (a die declared with the
** member's code as its name), all with one face type.  Compiles to a chain
**     LOAD x; PUSH k; EQ; JMPF next; ROLLDIE die(k); JMP end; next: ...
** ending with the last member's die (the value is always a member).
** Returns the face type. */
static rg_type roll_by_value(cstate *cs, rg_expr *e, local *l) {
  uint32_t en, n, die[64];
  rg_type face = T_NONE;
  jumps *ends = NULL;
  char x[96];
  if (l->type.kind != RG_K_ENUM) {
    rgc_err(cs, e->pos, "roll %s: '%s' is %s; roll takes a die, or a member naming a die",
        e->name, e->name, rgc_tname(cs, l->type, x, sizeof x));
    return T_ERR;
  }
  en = l->type.ref;
  n = AT(cs->enums, rg_enum, en).count;
  for (uint32_t k = 0; k < n; k++) {
    const char *code = cs->pool + AT(cs->members, rg_member_info,
                                     AT(cs->enums, rg_enum, en).first + k).code;
    sym *d = rgc_lookup(cs, code);
    rg_type f;
    if (!d || d->kind != S_DICE) {
      rgc_err(cs, e->pos, "roll %s: member %s of %s names no die (declare 'dice %s')",
          e->name, code, cs->pool + AT(cs->enums, rg_enum, en).name, code);
      return T_ERR;
    }
    f = AT(cs->dice, rg_dice, d->index).face;
    if (k > 0 && !(f.kind == face.kind && f.ref == face.ref)) {
      char y[96];
      rgc_err(cs, e->pos, "roll %s: die %s has faces of %s, die %s of %s; the dice must match",
          e->name, code, rgc_tname(cs, f, x, sizeof x),
          cs->pool + AT(cs->members, rg_member_info, AT(cs->enums, rg_enum, en).first).code,
          rgc_tname(cs, face, y, sizeof y));
      return T_ERR;
    }
    face = f;
    die[k] = d->index;
  }
  for (uint32_t k = 0; k + 1 < n; k++) {
    uint32_t next;
    emit(cs, RG_OP_LOAD, l->slot);
    emit_value(cs, k);
    emit(cs, RG_OP_EQ, 0);
    next = emit(cs, RG_OP_JMPF, 0);
    emit(cs, RG_OP_ROLLDIE, die[k]);
    emit_jump(cs, RG_OP_JMP, &ends);
    patch(cs, next, here(cs));
  }
  emit(cs, RG_OP_ROLLDIE, die[n - 1]);
  patch_list(cs, ends, here(cs));
  return face;
}

static rg_type expr(cstate *cs, rg_expr *e, rg_type want) {
  rg_pos saved = cs->pos;
  rg_type t = T_ERR;
  cs->pos = e->pos;
  switch (e->kind) {
  case RG_EX_NAME: {
    local *l = find_local(cs, e->name);
    sym *g;
    if (l) { emit(cs, RG_OP_LOAD, l->slot); t = l->type; break; }
    g = rgc_lookup(cs, e->name);
    if (g && g->kind == S_INPUT) {
      if (g->decl->index) {
        rgc_err(cs, e->pos, "input '%s' has one value per %s: write %s[KEY]", e->name,
            g->decl->index->name, e->name);
        break;
      }
      if (!rgc_is_err(g->type)) emit(cs, RG_OP_INPUT, g->index);
      t = g->type;
      break;
    }
  }
  /* fall through */
  case RG_EX_INT: case RG_EX_PERCENT: case RG_EX_DIST: case RG_EX_STR: case RG_EX_BOOL: {
    rg_value v;
    t = rgc_fold(cs, e, want, &v);
    if (!rgc_is_err(t)) emit_value(cs, v);
    break;
  }
  case RG_EX_FIELD: {
    if (e->a->kind == RG_EX_NAME && !find_local(cs, e->a->name)) {
      sym *s = rgc_lookup(cs, e->a->name);
      if (s && s->kind == S_ENUM) {
        rg_value v;
        t = rgc_fold(cs, e, want, &v);
        if (!rgc_is_err(t)) emit_value(cs, v);
        break;
      }
    }
    {
      rg_type rt = expr(cs, e->a, T_NONE);
      const rg_record *rec;
      char x[96];
      if (rgc_is_err(rt)) break;
      if (rt.kind != RG_K_RECORD) {
        rgc_err(cs, e->pos, "'.%s' needs a record, not %s", e->name, rgc_tname(cs, rt, x, sizeof x));
        break;
      }
      rec = &AT(cs->records, rg_record, rt.ref);
      for (uint32_t k = 0; k < rec->count; k++)
        if (strcmp(cs->pool + AT(cs->fields, rg_field_info, rec->first + k).name, e->name) == 0) {
          cs->pos = e->pos;
          emit(cs, RG_OP_FIELD, k);
          t = AT(cs->fields, rg_field_info, rec->first + k).type;
          break;
        }
      if (rgc_is_err(t)) rgc_err(cs, e->pos, "record %s has no field '%s'", cs->pool + rec->name, e->name);
    }
    break;
  }
  case RG_EX_UNARY: {
    rg_type ta = expr(cs, e->a, e->op == RG_AOP_NOT ? T_BOOL : want);
    t = unop_type(cs, e->pos, e->op, ta);
    cs->pos = e->pos;
    if (!rgc_is_err(t) && e->op == RG_AOP_NEG && fold_neg(cs, e->a)) break;
    if (!rgc_is_err(t)) emit(cs, e->op == RG_AOP_NOT ? RG_OP_NOT : RG_OP_NEG, 0);
    break;
  }
  case RG_EX_BINARY: t = binary(cs, e, want); break;
  case RG_EX_INDEX: t = index_expr(cs, e); break;
  case RG_EX_CALL:
    t = call(cs, e, want);
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
      emit_value(cs, e->ival);
      emit(cs, RG_OP_ROLL, (uint32_t)e->sides);
      t = T_INT;
    } else if (find_local(cs, e->name)) {
      t = roll_by_value(cs, e, find_local(cs, e->name));
    } else {
      sym *d = rgc_lookup(cs, e->name);
      if (!d || d->kind != S_DICE) {
        rgc_err(cs, e->pos, "'%s' is not a die (declare it with 'dice')", e->name);
        break;
      }
      emit(cs, RG_OP_ROLLDIE, d->index);
      t = AT(cs->dice, rg_dice, d->index).face;
    }
    break;
  case RG_EX_DRAW: {
    sym *d = rgc_lookup(cs, e->name);
    if (!d || d->kind != S_DECK) {
      rgc_err(cs, e->pos, "'%s' is not a deck (declare it with 'deck')", e->name);
      break;
    }
    emit(cs, RG_OP_DRAW, d->index);
    t = AT(cs->decks, rg_deck, d->index).card;
    break;
  }
  case RG_EX_ERROR: t = T_ERR; break;
  }
  cs->pos = saved;
  return t;
}

/* ======================================================================
** Statements
** ==================================================================== */

static bool block(cstate *cs, rg_stmt *s);

/* Returns the text of the expression at pos up to `stop` (the next
** statement, when on the same line) or the end of its line, without a
** trailing comment or closing brace, interned; for test failure messages. */
static uint32_t source_text(cstate *cs, rg_pos pos, const rg_stmt *stop) {
  size_t len, i, end;
  const char *line = rg_diag_line(cs->d, pos.file, pos.line, &len);
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

/* note "text", values: an event with the types of its values recorded. */
static void note_stmt(cstate *cs, rg_stmt *s) {
  uint32_t n = count_list(s->args), first = cs->types.n;
  rg_note_info *ni;
  bool bad = false;
  for (rg_expr *a = s->args; a; a = a->next) {
    rg_type t = expr(cs, a, T_NONE);
    rg_type *slot = rgc_push(cs, &cs->types);
    if (!slot) return;
    if (rgc_is_err(t)) bad = true;
    *slot = t;
  }
  if (bad) return;
  ni = rgc_push(cs, &cs->notes);
  if (!ni) return;
  ni->text = rgc_intern(cs, s->str);
  ni->first_type = first;
  ni->nvals = n;
  cs->pos = s->pos;
  emit(cs, RG_OP_NOTE, cs->notes.n - 1);
}

/* expect e: EXPECTEQ for `a == b` (so both values can be shown), else EXPECT. */
static void expect_stmt(cstate *cs, rg_stmt *s) {
  rg_expr *e = s->e;
  rg_expect *x;
  rg_type t;
  if (e->kind == RG_EX_BINARY && e->op == RG_AOP_EQ) {
    rg_type ta, tb, wa = T_NONE;
    if (needs_context(cs, e->a) &&
        (!needs_context(cs, e->b) || (e->a->kind == RG_EX_STR && e->b->kind == RG_EX_NAME)))
      wa = probe(cs, e->b, T_NONE);
    ta = expr(cs, e->a, wa);
    tb = expr(cs, e->b, ta);
    t = binop_type(cs, e->oppos, RG_AOP_EQ, ta, tb);
    if (rgc_is_err(t)) return;
    x = rgc_push(cs, &cs->expects);
    if (!x) return;
    x->text = source_text(cs, e->pos, s->next);
    x->type = ta.kind == RG_K_SET && ta.ref == REF_ANY ? tb : ta;
    if (x->type.kind == RG_K_SET && x->type.ref == REF_ANY) x->type = mktype(RG_K_INT, 0);
    cs->pos = s->pos;
    emit(cs, RG_OP_EXPECTEQ, cs->expects.n - 1);
    return;
  }
  t = expr(cs, e, T_BOOL);
  if (rgc_is_err(t) || !rgc_check_type(cs, e->pos, t, T_BOOL, "an expectation")) return;
  x = rgc_push(cs, &cs->expects);
  if (!x) return;
  x->text = source_text(cs, e->pos, s->next);
  x->type = T_BOOL;
  cs->pos = s->pos;
  emit(cs, RG_OP_EXPECT, cs->expects.n - 1);
}

/* Compiles one statement.  Returns true when it always returns. */
static bool stmt(cstate *cs, rg_stmt *s) {
  cs->pos = s->pos;
  switch (s->kind) {
  case RG_ST_LET: {
    rg_type want = s->type ? resolve_type(cs, s->type) : T_NONE;
    rg_type t = expr(cs, s->e, want);
    uint32_t slot;
    if (s->type) rgc_check_type(cs, s->e->pos, t, want, "the value");
    else if (t.kind == RG_K_SET && t.ref == REF_ANY) {
      rgc_err(cs, s->e->pos, "the type of {} is not known here; write let %s: set ENUM = {}", s->name);
      t = T_ERR;
    }
    slot = add_local(cs, s->pos, s->name, s->type ? want : t);
    cs->pos = s->pos;
    emit(cs, RG_OP_STORE, slot);
    return false;
  }
  case RG_ST_ASSIGN: {
    local *l = find_local(cs, s->name);
    rg_type t;
    if (!l) {
      sym *g = rgc_lookup(cs, s->name);
      if (g) rgc_err(cs, s->pos, "'%s' cannot be assigned: only variables and parameters can", s->name);
      else rgc_err(cs, s->pos, "unknown variable '%s' (declare it with let)", s->name);
      probe(cs, s->e, T_NONE);
      return false;
    }
    t = expr(cs, s->e, l->type);
    rgc_check_type(cs, s->e->pos, t, l->type, "the value");
    cs->pos = s->pos;
    emit(cs, RG_OP_STORE, l->slot);
    return false;
  }
  case RG_ST_IF: {
    /* An else-if chain is compiled in a loop, one branch at a time (it is
    ** a list, however long); jend collects the jumps from the end of each
    ** branch past the chain.  The chain ends (returns) when every branch
    ** does and there is a final else. */
    jumps *jend = NULL;
    bool ends = true;
    for (const rg_stmt *b = s;; b = b->orelse) {
      jumps *jf = NULL;
      rg_type t;
      bool then_ends;
      cs->pos = b->pos;
      t = cond(cs, b->e, false, &jf);
      rgc_check_type(cs, b->e->pos, t, T_BOOL, "the condition");
      then_ends = block(cs, b->body);
      ends = ends && then_ends;
      if (!b->orelse) {
        patch_list(cs, jf, here(cs));
        ends = false;
        break;
      }
      cs->pos = b->pos;
      if (!then_ends) emit_jump(cs, RG_OP_JMP, &jend);
      patch_list(cs, jf, here(cs));
      if (b->orelse->kind != RG_ST_IF) {
        ends = block(cs, b->orelse->body) && ends;
        break;
      }
    }
    patch_list(cs, jend, here(cs));
    return ends;
  }
  case RG_ST_FOR: {
    rg_type ta, tb;
    uint32_t var, end, top, jexit;
    cs->depth++;
    ta = expr(cs, s->e, T_INT);
    rgc_check_type(cs, s->e->pos, ta, T_INT, "the start of the range");
    var = add_local(cs, s->pos, s->name, T_INT);
    emit(cs, RG_OP_STORE, var);
    tb = expr(cs, s->e2, T_INT);
    rgc_check_type(cs, s->e2->pos, tb, T_INT, "the end of the range");
    end = add_local(cs, s->pos, " end", T_INT);
    cs->pos = s->pos;
    emit(cs, RG_OP_STORE, end);
    top = here(cs);
    emit(cs, RG_OP_LOAD, var);
    emit(cs, RG_OP_LOAD, end);
    emit(cs, RG_OP_GT, 0);
    jexit = emit(cs, RG_OP_JMPT, 0);
    block(cs, s->body);
    cs->pos = s->pos;
    emit(cs, RG_OP_LOAD, var);
    emit_value(cs, 1);
    emit(cs, RG_OP_ADD, 0);
    emit(cs, RG_OP_STORE, var);
    emit_back(cs, RG_OP_JMP, top);
    patch(cs, jexit, here(cs));
    end_block(cs);
    return false;
  }
  case RG_ST_WHILE: {
    uint32_t top = here(cs);
    jumps *jexit = NULL;
    rg_type t = cond(cs, s->e, false, &jexit);
    rgc_check_type(cs, s->e->pos, t, T_BOOL, "the condition");
    block(cs, s->body);
    cs->pos = s->pos;
    emit_back(cs, RG_OP_JMP, top);
    patch_list(cs, jexit, here(cs));
    return false;
  }
  case RG_ST_RETURN: {
    rg_type t;
    if (cs->result.kind == RG_K_VOID) {
      if (cs->in_test) rgc_err(cs, s->pos, "a test cannot return a value");
      else rgc_err(cs, s->pos, "this procedure has no result type; declare one with -> TYPE to return a value");
      probe(cs, s->e, T_NONE);
      return true;
    }
    t = expr(cs, s->e, cs->result);
    rgc_check_type(cs, s->e->pos, t, cs->result, "the result");
    cs->pos = s->pos;
    emit(cs, RG_OP_RET, 0);
    return true;
  }
  case RG_ST_SETITEM: {
    /* x[k] = v: LOAD x, k, v, SETITEM */
    local *l = find_local(cs, s->name);
    rg_type t;
    char x[96];
    if (!l) {
      rgc_err(cs, s->pos, "unknown variable '%s' (declare it with let)", s->name);
      return false;
    }
    if (rgc_is_err(l->type)) return false;
    if (l->type.kind != RG_K_LIST || l->type.ref == REF_ANY) {
      rgc_err(cs, s->pos, "'%s' is %s; only an element of a list can be assigned", s->name,
          rgc_tname(cs, l->type, x, sizeof x));
      return false;
    }
    emit(cs, RG_OP_LOAD, l->slot);
    if (!int_arg(cs, s->e)) return false;
    t = expr(cs, s->e2, elem_of(cs, l->type));
    if (rgc_is_err(t) || !rgc_check_type(cs, s->e2->pos, t, elem_of(cs, l->type), "the element")) return false;
    cs->pos = s->pos;
    emit(cs, RG_OP_SETITEM, 0);
    return false;
  }
  case RG_ST_NOTE: note_stmt(cs, s); return false;
  case RG_ST_EXPECT: expect_stmt(cs, s); return false;
  case RG_ST_CALL: {
    rg_type t = call(cs, s->e, T_NONE);
    cs->pos = s->pos;
    /* A procedure called for its notes: drop its result. */
    if (!rgc_is_err(t) && t.kind != RG_K_VOID) emit(cs, RG_OP_POP, 0);
    return false;
  }
  case RG_ST_BLOCK: return block(cs, s->body);
  case RG_ST_STEP:
    emit(cs, RG_OP_STEP, rgc_intern(cs, s->str));
    return block(cs, s->body);
  case RG_ST_FOREACH: {
    /* for x in l: hidden list, index and length; a set becomes its list */
    rg_type t, el;
    uint32_t lst, idx, len, var, top, jexit;
    char x[96];
    cs->depth++;
    t = expr(cs, s->e, T_NONE);
    if (!rgc_is_err(t) && t.kind == RG_K_SET && t.ref != REF_ANY) {
      emit(cs, RG_OP_SETLIST, 0);
      t = list_of(cs, mktype(RG_K_ENUM, t.ref));
    }
    if (!rgc_is_err(t) && (t.kind != RG_K_LIST || t.ref == REF_ANY)) {
      rgc_err(cs, s->e->pos, "for ... in needs a list, a set or a range a..b; not %s", rgc_tname(cs, t, x, sizeof x));
      t = T_ERR;
    }
    el = rgc_is_err(t) ? T_ERR : elem_of(cs, t);
    lst = add_local(cs, s->pos, " list", t);
    cs->pos = s->pos;
    emit(cs, RG_OP_STORE, lst);
    idx = add_local(cs, s->pos, " index", T_INT);
    len = add_local(cs, s->pos, " length", T_INT);
    emit_value(cs, 0);
    emit(cs, RG_OP_STORE, idx);
    emit(cs, RG_OP_LOAD, lst);
    emit(cs, RG_OP_LEN, 0);
    emit(cs, RG_OP_STORE, len);
    top = here(cs);
    emit(cs, RG_OP_LOAD, idx);
    emit(cs, RG_OP_LOAD, len);
    emit(cs, RG_OP_LT, 0);
    jexit = emit(cs, RG_OP_JMPF, 0);
    var = add_local(cs, s->pos, s->name, el);
    emit(cs, RG_OP_LOAD, lst);
    emit(cs, RG_OP_LOAD, idx);
    emit(cs, RG_OP_ITEM, 0);
    emit(cs, RG_OP_STORE, var);
    block(cs, s->body);
    cs->pos = s->pos;
    emit(cs, RG_OP_LOAD, idx);
    emit_value(cs, 1);
    emit(cs, RG_OP_ADD, 0);
    emit(cs, RG_OP_STORE, idx);
    emit_back(cs, RG_OP_JMP, top);
    patch(cs, jexit, here(cs));
    end_block(cs);
    return false;
  }
  }
  return false;
}

/* Compiles a block in a new scope.  Returns true when it always returns;
** a statement after one that always returns is an error. */
static bool block(cstate *cs, rg_stmt *s) {
  bool ends = false;
  cs->depth++;
  for (; s; s = s->next) {
    if (ends) {
      rgc_err(cs, s->pos, "this statement is never reached");
      break;
    }
    ends = stmt(cs, s);
  }
  end_block(cs);
  return ends;
}

/* ======================================================================
** Declarations: the vocabulary
** ==================================================================== */

/* Records the assumed notes in list for `regula check --assumptions`. */
void rgc_collect_notes(cstate *cs, rg_note *n, const char *what) {
  for (; n; n = n->next) {
    rg_assumption *a;
    if (!n->assumed) continue;
    a = rgc_alloc(cs, sizeof *a);
    if (!a) { rgc_oom(cs); return; }
    a->pos = n->pos;
    a->what = what;
    a->text = n->text;
    *cs->assumed_tail = a;
    cs->assumed_tail = &a->next;
  }
}

/* Returns an arena string "fmt..." for describing what a note annotates. */
const char *rgc_describe(cstate *cs, const char *fmt, ...) {
  char buf[256];
  va_list ap;
  const char *s;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  s = rgc_strdup(cs, buf);
  if (!s) rgc_oom(cs);
  return s ? s : "";
}

/* unit NAME ["display"] */
static void decl_unit(cstate *cs, rg_decl *dc) {
  sym *s = declare(cs, dc, S_UNIT);
  rg_unit *u;
  if (!s) return;
  u = rgc_push(cs, &cs->units);
  if (!u) return;
  s->index = cs->units.n - 1;
  u->name = rgc_intern(cs, dc->name);
  u->display = dc->display ? rgc_intern(cs, dc->display) : 0;
}

/* enum NAME { CODE ["display"], ... } */
static void decl_enum(cstate *cs, rg_decl *dc) {
  sym *s = declare(cs, dc, S_ENUM);
  rg_enum *e;
  uint32_t n = 0;
  if (!s) return;
  for (rg_member *m = dc->members; m; m = m->next) n++;
  if (n > 64) {
    rgc_err(cs, dc->pos, "enum %s has %u members; at most 64 are allowed", dc->name, n);
    return;
  }
  e = rgc_push(cs, &cs->enums);
  if (!e) return;
  s->index = cs->enums.n - 1;
  e->name = rgc_intern(cs, dc->name);
  e->first = cs->members.n;
  e->ordered = dc->ordered;
  for (rg_member *m = dc->members; m; m = m->next) {
    rg_member_info *mi;
    memref *r;
    uint32_t h;
    if (rgc_member_by_code(cs, s->index, m->code) >= 0) {
      rgc_err(cs, m->pos, "'%s' is already a member of %s", m->code, dc->name);
      continue;
    }
    if (m->display) {
      int other = rgc_member_by_text(cs, s->index, m->display);
      if (other >= 0) {
        rgc_err(cs, m->pos, "display name \"%s\" already names member %s of %s", m->display,
            cs->pool + AT(cs->members, rg_member_info, AT(cs->enums, rg_enum, s->index).first + other).code,
            dc->name);
        continue;
      }
    }
    mi = rgc_push(cs, &cs->members);
    r = rgc_alloc(cs, sizeof *r);
    if (!mi || !r) { rgc_oom(cs); return; }
    mi->code = rgc_intern(cs, m->code);
    mi->display = m->display ? rgc_intern(cs, m->display) : 0;
    AT(cs->enums, rg_enum, s->index).count++;
    r->code = m->code;
    r->en = s->index;
    r->index = AT(cs->enums, rg_enum, s->index).count - 1;
    h = hash(m->code);
    r->next = cs->memhash[h];
    cs->memhash[h] = r;
    rgc_collect_notes(cs, m->notes, rgc_describe(cs, "%s.%s", dc->name, m->code));
  }
}

/* record NAME { field: type, ... }: the head; field types come after all
** records are declared, so records may refer to each other. */
static void decl_record(cstate *cs, rg_decl *dc) {
  sym *s = declare(cs, dc, S_RECORD);
  rg_record *r;
  if (!s) return;
  r = rgc_push(cs, &cs->records);
  if (!r) return;
  s->index = cs->records.n - 1;
  r->name = rgc_intern(cs, dc->name);
}

/* The fields of a record. */
static void record_fields(cstate *cs, rg_decl *dc) {
  sym *s = rgc_lookup(cs, dc->name);
  rg_record *r;
  if (!s || s->decl != dc) return;
  AT(cs->records, rg_record, s->index).first = cs->fields.n;
  for (rg_field *f = dc->fields; f; f = f->next) {
    rg_field_info *fi;
    r = &AT(cs->records, rg_record, s->index);
    for (uint32_t k = 0; k < r->count; k++)
      if (strcmp(cs->pool + AT(cs->fields, rg_field_info, r->first + k).name, f->name) == 0) {
        rgc_err(cs, f->pos, "field '%s' is already declared", f->name);
        goto next;
      }
    fi = rgc_push(cs, &cs->fields);
    if (!fi) return;
    fi->name = rgc_intern(cs, f->name);
    fi->type = resolve_type(cs, f->type);
    if (rgc_is_err(fi->type)) fi->type = T_INT;     /* reported; keep the layout */
    AT(cs->records, rg_record, s->index).count++;
  next:;
  }
}

/* table NAME(keys) -> type: the head (dimensions and cell storage). */
static void decl_table(cstate *cs, rg_decl *dc) {
  sym *s = declare(cs, dc, S_TABLE);
  rg_table *tb;
  uint64_t count = 1;
  bool bad = false;
  if (!s) return;
  tb = rgc_push(cs, &cs->tables);
  if (!tb) return;
  s->index = cs->tables.n - 1;
  tb->name = rgc_intern(cs, dc->name);
  tb->first_dim = cs->dims.n;
  tb->value = resolve_type(cs, dc->type);
  for (rg_keyspec *k = dc->keys; k; k = k->next) {
    rg_dim *dm = rgc_push(cs, &cs->dims);
    if (!dm) return;
    AT(cs->tables, rg_table, s->index).ndims++;
    dm->label = k->name ? rgc_intern(cs, k->name) : 0;
    if (k->enum_name) {
      sym *e = rgc_lookup(cs, k->enum_name);
      if (!e || e->kind != S_ENUM) {
        rgc_err(cs, k->pos, "a table key must be an enum or a range lo..hi; '%s' is not an enum",
            k->enum_name);
        bad = true;
        dm->size = 1;
        continue;
      }
      dm->is_enum = 1;
      dm->ref = e->index;
      dm->size = AT(cs->enums, rg_enum, e->index).count;
      if (!dm->label) dm->label = rgc_intern(cs, k->enum_name);
    } else {
      if (k->lo > k->hi) {
        rgc_err(cs, k->pos, "range %lld..%lld is empty", (long long)k->lo, (long long)k->hi);
        bad = true;
        dm->size = 1;
        continue;
      }
      if ((uint64_t)(k->hi - k->lo) >= MAX_TABLE_CELLS) {
        rgc_err(cs, k->pos, "range %lld..%lld is too large", (long long)k->lo, (long long)k->hi);
        bad = true;
        dm->size = 1;
        continue;
      }
      dm->lo = k->lo;
      dm->size = (uint32_t)(k->hi - k->lo + 1);
    }
    count *= AT(cs->dims, rg_dim, cs->dims.n - 1).size;
    if (count > MAX_TABLE_CELLS) {
      rgc_err(cs, dc->pos, "table %s has too many cells (limit %u)", dc->name, MAX_TABLE_CELLS);
      bad = true;
      count = 1;
    }
  }
  if (!bad && cs->cells.n + count > MAX_MODULE_CELLS) {
    rgc_err(cs, dc->pos, "the tables of this rule set have too many cells in all (limit %u)",
        MAX_MODULE_CELLS);
    bad = true;
  }
  tb = &AT(cs->tables, rg_table, s->index);
  if (tb->ndims > 8) {
    rgc_err(cs, dc->pos, "table %s has %u keys; at most 8 are allowed", dc->name, tb->ndims);
    bad = true;
  }
  if (bad || rgc_is_err(tb->value)) tb->value = rgc_is_err(tb->value) ? T_ERR : tb->value;
  tb->count = bad ? 0 : (uint32_t)count;
  tb->first = cs->cells.n;
  for (uint32_t i = 0; i < tb->count; i++) {
    rgc_push(cs, &cs->cells);
    rgc_push(cs, &cs->cellsrc);
  }
  if (bad) AT(cs->tables, rg_table, s->index).value = T_ERR;
}

static const char *const builtins[] = {
#define RG_X(n, kind, argc, args) #n,
  RG_BUILTINS(RG_X)
#undef RG_X
  NULL
};

/* procedure NAME(params) [-> type]: the head. */
static void decl_proc(cstate *cs, rg_decl *dc) {
  sym *s;
  rg_proc *p;
  for (int i = 0; builtins[i]; i++)
    if (strcmp(dc->name, builtins[i]) == 0) {
      rgc_err(cs, dc->pos, "'%s' is a builtin; choose another name", dc->name);
      return;
    }
  s = declare(cs, dc, S_PROC);
  if (!s) return;
  p = rgc_push(cs, &cs->procs);
  if (!p) return;
  s->index = cs->procs.n - 1;
  p->name = rgc_intern(cs, dc->name);
  p->first_param = cs->params.n;
  p->result = dc->type ? resolve_type(cs, dc->type) : T_NONE;
  for (rg_param *pa = dc->params; pa; pa = pa->next) {
    rg_param_info *pi;
    if (AT(cs->procs, rg_proc, s->index).nparams == MAX_PARAMS) {
      rgc_err(cs, pa->pos, "too many parameters (limit %d)", MAX_PARAMS);
      return;
    }
    for (rg_param *q = dc->params; q != pa; q = q->next)
      if (strcmp(q->name, pa->name) == 0) rgc_err(cs, pa->pos, "parameter '%s' is given twice", pa->name);
    pi = rgc_push(cs, &cs->params);
    if (!pi) return;
    pi->name = rgc_intern(cs, pa->name);
    pi->type = resolve_type(cs, pa->type);
    AT(cs->procs, rg_proc, s->index).nparams++;
  }
}

/* Resolves the key of a dice face or a deck card (a member by code or
** display name, or an integer) against type t. */
static bool chance_key(cstate *cs, const rg_keypat *k, rg_type t, rg_value *v) {
  char x[96];
  if (k->next) {
    rgc_err(cs, k->pos, "a face or card is one value, not several keys");
    return false;
  }
  if (t.kind == RG_K_ENUM && (k->kind == RG_KP_NAME || k->kind == RG_KP_STR)) {
    int m = k->kind == RG_KP_NAME ? rgc_member_by_code(cs, t.ref, k->name) : rgc_member_by_text(cs, t.ref, k->name);
    char list[512];
    if (m < 0) {
      rgc_err(cs, k->pos, "'%s' is not a member of %s (members: %s)", k->name,
          cs->pool + AT(cs->enums, rg_enum, t.ref).name, rgc_member_list(cs, t.ref, list, sizeof list));
      return false;
    }
    *v = m;
    return true;
  }
  if (t.kind == RG_K_INT && k->kind == RG_KP_INT) {
    *v = k->lo;
    return true;
  }
  rgc_err(cs, k->pos, "faces and cards must be enum members or integers; this one is not a %s",
      rgc_tname(cs, t, x, sizeof x));
  return false;
}

/* dice NAME: T = { face: count, ... } and deck NAME: T = { card: count, ...
** }: both become a flat list of values, one per side or per card. */
static void decl_chance(cstate *cs, rg_decl *dc) {
  bool is_dice = dc->kind == RG_DE_DICE;
  sym *s = declare(cs, dc, is_dice ? S_DICE : S_DECK);
  rg_type t;
  vec *values = is_dice ? &cs->faces : &cs->cards;
  uint32_t first = values->n, total = 0;
  if (!s) return;
  t = resolve_type(cs, dc->type);
  if (!rgc_is_err(t) && t.kind != RG_K_ENUM && t.kind != RG_K_INT) {
    char x[96];
    rgc_err(cs, dc->type->pos, "%s must be an enum or int, not %s",
        is_dice ? "a die's faces" : "a deck's cards", rgc_tname(cs, t, x, sizeof x));
    t = T_ERR;
  }
  for (rg_cell *c = dc->cells; c; c = c->next) {
    rg_value key, count;
    rg_type ct;
    if (!c->keys) { rgc_err(cs, c->pos, "'else' has no meaning here"); continue; }
    if (rgc_is_err(t) || !chance_key(cs, c->keys, t, &key)) continue;
    ct = rgc_fold(cs, c->value, T_INT, &count);
    if (rgc_is_err(ct) || !rgc_check_type(cs, c->value->pos, ct, T_INT, "a count")) continue;
    if (count < 0 || count > 100000 || total + count > 1000000) {
      rgc_err(cs, c->value->pos, "a count must be 0..100000 (and 1000000 in all)");
      continue;
    }
    for (rg_value i = 0; i < count; i++) {
      rg_value *slot = rgc_push(cs, values);
      if (!slot) return;
      *slot = key;
    }
    total += (uint32_t)count;
    rgc_collect_notes(cs, c->notes, rgc_describe(cs, "%s %s: %s", is_dice ? "dice" : "deck", dc->name,
                                         c->keys->name ? c->keys->name : "?"));
  }
  if (total == 0 && !rgc_is_err(t)) rgc_err(cs, dc->pos, "%s %s has no %s", is_dice ? "die" : "deck",
                                    dc->name, is_dice ? "faces" : "cards");
  if (is_dice) {
    rg_dice *d = rgc_push(cs, &cs->dice);
    if (!d) return;
    s->index = cs->dice.n - 1;
    d->name = rgc_intern(cs, dc->name);
    d->face = rgc_is_err(t) ? T_INT : t;
    d->first = first;
    d->count = total;
  } else {
    rg_deck *d = rgc_push(cs, &cs->decks);
    if (!d) return;
    s->index = cs->decks.n - 1;
    d->name = rgc_intern(cs, dc->name);
    d->card = rgc_is_err(t) ? T_INT : t;
    d->first = first;
    d->count = total;
  }
}

/* input NAME: T = default */
static void decl_input(cstate *cs, rg_decl *dc) {
  sym *s = declare(cs, dc, S_INPUT);
  rg_input *in;
  rg_type want, t;
  rg_value v = 0;
  if (!s) return;
  want = resolve_type(cs, dc->type);
  if (!rgc_is_err(want) && (want.kind == RG_K_RECORD || want.kind == RG_K_LIST)) {
    rgc_err(cs, dc->type->pos, "an input cannot be a record or a list");
    want = T_ERR;
  }
  t = rgc_fold(cs, dc->value, want, &v);
  if (!rgc_is_err(t)) rgc_check_type(cs, dc->value->pos, t, want, "the default");
  s->index = cs->inputs.n;
  s->type = rgc_is_err(want) ? T_ERR : want;
  if (dc->index) {
    /* input NAME[E]: one input per member of E, named NAME[CODE], in the
    ** members' order; NAME[k] picks one (input_index) */
    rg_type it = resolve_type(cs, dc->index);
    const rg_enum *en;
    if (rgc_is_err(it)) { s->type = T_ERR; return; }
    if (it.kind != RG_K_ENUM) {
      char x[96];
      rgc_err(cs, dc->index->pos, "an input is indexed by an enum, not %s", rgc_tname(cs, it, x, sizeof x));
      s->type = T_ERR;
      return;
    }
    en = &AT(cs->enums, rg_enum, it.ref);
    for (uint32_t k = 0; k < en->count; k++) {
      const char *code = cs->pool + AT(cs->members, rg_member_info, en->first + k).code;
      char *name = rgc_alloc(cs, strlen(dc->name) + strlen(code) + 3);
      if (!name) return;
      sprintf(name, "%s[%s]", dc->name, code);
      in = rgc_push(cs, &cs->inputs);
      if (!in) return;
      in->name = rgc_intern(cs, name);
      in->type = rgc_is_err(want) ? T_INT : want;
      in->value = v;
    }
    return;
  }
  in = rgc_push(cs, &cs->inputs);
  if (!in) return;
  in->name = rgc_intern(cs, dc->name);
  in->type = rgc_is_err(want) ? T_INT : want;
  in->value = v;
}

/* Records the `assumed` notes of the statements of block s, and of the
** blocks inside them, for `regula check --assumptions`: a step's as
** `step "NAME" in procedure P`, any other's as `statement in procedure P`
** (`statement in step "NAME" of procedure P` inside a step; `test "T"` for
** a test).  dc is the procedure or test; step the enclosing step or NULL. */
static void stmt_notes(cstate *cs, const rg_decl *dc, rg_stmt *s, const char *step) {
  for (; s; s = s->next) {
    if (s->notes) {
      char where[300];
      snprintf(where, sizeof where, dc->kind == RG_DE_TEST ? "test \"%s\"" : "procedure %s", dc->name);
      if (s->kind == RG_ST_STEP)
        rgc_collect_notes(cs, s->notes, rgc_describe(cs, "step \"%s\" in %s", s->str, where));
      else if (step)
        rgc_collect_notes(cs, s->notes, rgc_describe(cs, "statement in step \"%s\" of %s", step, where));
      else
        rgc_collect_notes(cs, s->notes, rgc_describe(cs, "statement in %s", where));
    }
    stmt_notes(cs, dc, s->body, s->kind == RG_ST_STEP ? s->str : step);
    stmt_notes(cs, dc, s->orelse, step);
  }
}

/* The body of procedure or test dc, compiled into procedure index. */
static void proc_body(cstate *cs, rg_decl *dc, uint32_t index) {
  rg_proc *p = &AT(cs->procs, rg_proc, index);
  bool ends;
  uint32_t i = 0;
  cs->nlocal = 0;
  cs->nslots = 0;
  cs->depth = 0;
  cs->result = p->result;
  cs->proc_start = cs->code.n;
  cs->pos = dc->pos;
  cs->quiet++;                   /* a parameter given twice is reported by decl_proc */
  for (rg_param *pa = dc->params; pa && i < p->nparams; pa = pa->next, i++)
    add_local(cs, pa->pos, pa->name, AT(cs->params, rg_param_info, p->first_param + i).type);
  cs->quiet--;
  stmt_notes(cs, dc, dc->body, NULL);
  ends = block(cs, dc->body);
  if (!ends) {
    if (cs->result.kind != RG_K_VOID && !rgc_is_err(cs->result))
      rgc_err(cs, dc->pos, "procedure %s can end without returning a value", dc->name);
    cs->pos = dc->pos;
    emit(cs, RG_OP_RETV, 0);
  }
  p = &AT(cs->procs, rg_proc, index);
  p->code = cs->proc_start;
  p->ncode = cs->code.n - cs->proc_start;
  p->nlocals = cs->nslots;
}

/* test "title" { ... }: a procedure without parameters, and its entry. */
static void decl_test(cstate *cs, rg_decl *dc) {
  rg_proc *p = rgc_push(cs, &cs->procs);
  rg_test *t;
  uint32_t index = cs->procs.n - 1;
  if (!p) return;
  p->name = rgc_intern(cs, dc->name);
  p->first_param = cs->params.n;
  p->result = T_NONE;
  for (uint32_t i = 0; i < cs->tests.n; i++)
    if (AT(cs->tests, rg_test, i).name == p->name)
      rgc_err(cs, dc->pos, "a test named \"%s\" already exists", dc->name);
  cs->in_test = true;
  proc_body(cs, dc, index);
  cs->in_test = false;
  t = rgc_push(cs, &cs->tests);
  if (!t) return;
  t->name = AT(cs->procs, rg_proc, index).name;
  t->proc = index;
}

/* ======================================================================
** The driver
** ==================================================================== */

const char *const rgc_kindname[] = { "unit", "enum", "record", "const", "table",
                                        "procedure", "test", "dice", "deck", "input",
                                        "scale", "cell", "step", "remove" };

/* Frees every growable array of cs (after an error, or the rest after
** build_module took them). */
static void free_vecs(cstate *cs) {
#define RG_X(field, count, type) rg_free(cs->field.items); cs->field.items = NULL; cs->field.n = 0;
  RG_MODULE_ARRAYS(RG_X)
#undef RG_X
  rg_free(cs->pool);
  cs->pool = NULL;
}

/* Moves the arrays of cs into m; cs no longer owns them. */
static void build_module(cstate *cs, rg_module *m) {
#define RG_X(field, count, type) m->field = cs->field.items; m->count = cs->field.n; cs->field.items = NULL;
  RG_MODULE_ARRAYS(RG_X)
#undef RG_X
  m->strings = cs->pool;
  m->nstrings = cs->npool;
  cs->pool = NULL;
  m->name = (uint32_t)cs->name_v;
  m->revision = (uint32_t)cs->revision_v;
  m->source = (uint32_t)cs->source_v;
}

/* Compiles the rule file in source file `file` into m; out of memory
** unwinds past it. */
static int compile_rules(cstate *cs, uint32_t file, rg_module *m, rg_assumption **assumptions) {
  rg_diag *d = cs->d;
  rg_ast_file *ast;
  int errors0 = d->errors;
  const char *chain[MAX_EXTENDS];
  rgc_intern(cs, "");
  ast = rgc_load_rules(cs, file, chain, 0);
  if (!ast) return -1;                  /* syntax errors: the tree is not worth checking */
  if (ast->header) {
    cs->name_v = rgc_intern(cs, ast->header->name ? ast->header->name : "");
    cs->revision_v = ast->header->revision ? rgc_intern(cs, ast->header->revision) : 0;
    cs->source_v = ast->header->source ? rgc_intern(cs, ast->header->source) : 0;
  }

  /* The vocabulary: units, enums, record and constant names. */
  for (rg_decl *dc = ast->decls; dc; dc = dc->next) {
    switch (dc->kind) {
    case RG_DE_UNIT: decl_unit(cs, dc); break;
    case RG_DE_ENUM: decl_enum(cs, dc); break;
    case RG_DE_RECORD: decl_record(cs, dc); break;
    case RG_DE_SCALE:
      if (dc->num <= 0 || dc->den <= 0 || dc->num > 1000000 || dc->den > 1000000)
        rgc_err(cs, dc->pos, "a scale must be a positive fraction, such as 2/3");
      else if (cs->scale_den != 1 || cs->scale_num != 1 || cs->scale_round)
        rgc_err(cs, dc->pos, "a rule set has one scale");
      else {
        cs->scale_num = dc->num;
        cs->scale_den = dc->den;
        cs->scale_round = dc->round;
      }
      break;
    case RG_DE_CONST: {
      uint32_t en, ix;
      if (find_member(cs, dc->name, &en, &ix, NULL, 0)) {
        rgc_err(cs, dc->pos, "'%s' is already a member of enum %s; choose another name", dc->name,
            cs->pool + AT(cs->enums, rg_enum, en).name);
        break;
      }
      declare(cs, dc, S_CONST);
      break;
    }
    default: break;
    }
    if (dc->kind != RG_DE_TEST)
      rgc_collect_notes(cs, dc->notes, rgc_describe(cs, "%s %s", rgc_kindname[dc->kind], dc->name));
  }
  for (rg_decl *dc = ast->decls; dc; dc = dc->next)
    if (dc->kind == RG_DE_RECORD) record_fields(cs, dc);
  for (rg_decl *dc = ast->decls; dc; dc = dc->next) {
    if (dc->kind == RG_DE_DICE || dc->kind == RG_DE_DECK) decl_chance(cs, dc);
    else if (dc->kind == RG_DE_INPUT) decl_input(cs, dc);
  }
  /* Heads of tables and procedures. */
  for (rg_decl *dc = ast->decls; dc; dc = dc->next) {
    if (dc->kind == RG_DE_TABLE) decl_table(cs, dc);
    else if (dc->kind == RG_DE_PROC) decl_proc(cs, dc);
  }
  /* Constants, then table cells, then code.  Constants are kept by name for
  ** diff and sheet, but for lists and records (the verifier refuses them). */
  for (rg_decl *dc = ast->decls; dc; dc = dc->next)
    if (dc->kind == RG_DE_CONST) {
      sym *s = rgc_lookup(cs, dc->name);
      rg_value v;
      if (s && s->decl == dc && !rgc_is_err(const_value(cs, dc->pos, s, &v)) &&
          s->type.kind != RG_K_LIST && s->type.kind != RG_K_RECORD) {
        rg_named *nm = rgc_push(cs, &cs->named);
        nm->name = rgc_intern(cs, dc->name);
        nm->type = s->type;
        nm->value = v;
        nm->file = dc->pos.file;
        nm->line = dc->pos.line;
        nm->starred = expr_starred(cs, dc->value, 0);
      }
    }
  for (rg_decl *dc = ast->decls; dc; dc = dc->next)
    if (dc->kind == RG_DE_TABLE) rgc_table_cells(cs, dc);
  for (rg_decl *dc = ast->decls; dc; dc = dc->next) {
    if (dc->kind == RG_DE_PROC) {
      sym *s = rgc_lookup(cs, dc->name);
      if (s && s->decl == dc) proc_body(cs, dc, s->index);
    } else if (dc->kind == RG_DE_TEST) {
      decl_test(cs, dc);
    }
  }
  /* The files the line table refers to. */
  for (uint32_t i = 0; i < d->nfiles; i++) {
    uint32_t *f = rgc_push(cs, &cs->files);
    *f = rgc_intern(cs, d->files[i]->path);
  }
  if (d->errors > errors0) return -1;

  build_module(cs, m);
  {
    char msg[256];
    rg_status st = rg_module_verify(m, msg, sizeof msg);
    if (st != RG_OK) {
      if (st == RG_NOMEM) rgc_oom(cs);
      rg_error_plain(d, "internal error: the compiled module fails verification: %s", msg);
      rg_module_free(m);
      return -1;
    }
  }
  if (assumptions) *assumptions = cs->assumed;
  return 0;
}

/* Compiles source file `file` of d (loaded) into m, with the files it
** names from ld: sets up the compiler state, and frees what it built when
** errors or out of memory stop it.  Returns 0 or -1 (rg_compile_source). */
static int compile_loaded(rg_diag *d, uint32_t file, const rg_loader *ld, rg_module *m,
                          rg_assumption **assumptions) {
  cstate *cs;
  int rc;
  cs = rg_arena_alloc(d->arena, sizeof *cs);
  if (!cs) { rg_error_plain(d, "out of memory"); return -1; }
  cs->d = d;
  cs->A = d->arena;
  cs->loader = ld;
  cs->assumed_tail = &cs->assumed;
  cs->scale_num = cs->scale_den = 1;
#define RG_X(field, count, type) cs->field.size = sizeof(type);
  RG_MODULE_ARRAYS(RG_X)
#undef RG_X
  if (setjmp(cs->oom_jmp)) {
    /* The arena's sticky failure flag is how callers tell out of memory
    ** (exit 3) from bad input (exit 2). */
    d->arena->failed = true;
    rg_error_plain(d, "out of memory");
    free_vecs(cs);
    rg_module_free(m);
    if (assumptions) *assumptions = NULL;
    return -1;
  }
  rc = compile_rules(cs, file, m, assumptions);
  free_vecs(cs);
  return rc;
}

int rg_compile_source(rg_diag *d, const char *name, const char *text, size_t len,
                      const rg_loader *ld, rg_module *m, rg_assumption **assumptions) {
  uint32_t file;
  memset(m, 0, sizeof *m);
  if (assumptions) *assumptions = NULL;
  if (rg_diag_add_text(d, name, text, len, &file)) return -1;
  return compile_loaded(d, file, ld ? ld : &rg_file_loader, m, assumptions);
}

int rg_compile_path(rg_diag *d, const char *path, const rg_loader *ld, rg_module *m,
                    rg_assumption **assumptions) {
  uint32_t file;
  memset(m, 0, sizeof *m);
  if (assumptions) *assumptions = NULL;
  if (!ld) ld = &rg_file_loader;
  if (rg_diag_fetch(d, ld, NULL, path, RG_LOAD_RULES, NULL, &file)) return -1;
  return compile_loaded(d, file, ld, m, assumptions);
}

int rg_compile(rg_diag *d, const char *path, rg_module *m, rg_assumption **assumptions) {
  return rg_compile_path(d, path, NULL, m, assumptions);
}
