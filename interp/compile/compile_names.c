/*
** compile_names.c: the compiler's foundations: growable arrays, errors,
** arena copies, the symbol table, the string pool, types (compatibility,
** list types, written types) and enum members by code or display name.
*/
#include "compile_int.h"
#include "grow.h"
#include "value.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <utf8proc.h>

/* Appends room for one zeroed item to v; returns it, or NULL. */
static void *vec_grow(vec *v) {
  if (v->n == v->cap) {
    void *p = rgi_grow(v->items, &v->cap, 16, v->size);
    if (!p) return NULL;
    v->items = p;
  }
  {
    void *it = (char *)v->items + (size_t)v->n * v->size;
    memset(it, 0, v->size);
    v->n++;
    return it;
  }
}



/* Reports an error at pos unless probing. */
void rgc_err(cstate *cs, rgi_pos pos, const char *fmt, ...) {
  va_list ap;
  if (cs->quiet) { cs->quiet_errors++; return; }
  va_start(ap, fmt);
  rgi_verror(cs->d, pos, fmt, ap);
  va_end(ap);
}

/* Out of memory: unwinds the whole compile to rgi_compile, which frees
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
  void *p = rgi_arena_alloc(cs->A, n);
  if (!p) rgc_oom(cs);
  return p;
}

/* Copies s[0..n) into the arena cs->A, NUL-terminated (the arena owns it);
** unwinds through rgc_oom when out of memory. */
char *rgc_strndup(cstate *cs, const char *s, size_t n) {
  char *p = rgi_arena_strndup(cs->A, s, n);
  if (!p) rgc_oom(cs);
  return p;
}

/* Copies the string s into the arena cs->A (see rgc_strndup). */
char *rgc_strdup(cstate *cs, const char *s) {
  return rgc_strndup(cs, s, strlen(s));
}


/* Doubles the buckets of t (64 at first) in the arena under a new key.
** Each old chain, walked newest first, is pushed onto the new chains,
** which reverses entries of one hash; in a table that keeps them newest
** first (t->ordered) every new chain is then reversed.  Out of memory
** unwinds. */
static void htab_grow(cstate *cs, rgc_htab *t) {
  rgc_htab nt = { NULL, t->cap ? t->cap * 2 : 64, t->n, 0, t->sum, t->ordered };
  if (nt.cap == 0) rgc_oom(cs);                    /* 2^32 buckets: never */
  nt.key = rgi_hash_mix(t->key ^ t->sum ^ nt.cap);
  nt.head = rgc_alloc(cs, (size_t)nt.cap * sizeof *nt.head);
  for (uint32_t b = 0; b < nt.cap; b++) nt.head[b] = NULL;
  for (uint32_t b = 0; b < t->cap; b++)
    for (rgc_hlink *l = t->head[b], *next; l; l = next) {
      rgc_hlink **to = &nt.head[rgc_bucket(&nt, l->hash)];
      next = l->next;
      l->next = *to;
      *to = l;
    }
  for (uint32_t b = 0; t->ordered && b < nt.cap; b++) {
    rgc_hlink *rev = NULL;
    for (rgc_hlink *l = nt.head[b], *next; l; l = next) {
      next = l->next;
      l->next = rev;
      rev = l;
    }
    nt.head[b] = rev;
  }
  *t = nt;
}

void rgc_htab_add(cstate *cs, rgc_htab *t, rgc_hlink *l) {
  rgc_hlink **b;
  if (t->n >= t->cap) htab_grow(cs, t);
  b = &t->head[rgc_bucket(t, l->hash)];
  l->next = *b;
  *b = l;
  t->n++;
  t->sum = t->sum * 31u + l->hash;
}

/* Returns the NEAR_BUCKETS empty heads of a hint order (arena memory).
** Out of memory unwinds. */
static void *near_heads(cstate *cs) {
  void **p = rgc_alloc(cs, NEAR_BUCKETS * sizeof *p);
  for (uint32_t b = 0; b < NEAR_BUCKETS; b++) p[b] = NULL;
  return p;
}

/* Returns the symbol named name, or NULL. */
sym *rgc_lookup(cstate *cs, const char *name) {
  uint32_t h = rgi_hash_text(name);
  for (rgc_hlink *l = rgc_htab_first(&cs->syms, h); l; l = l->next)
    if (l->hash == h && strcmp(((sym *)l)->name, name) == 0) return (sym *)l;
  return NULL;
}

/* Declares name; reports a duplicate and returns NULL if it exists. */
sym *rgc_declare(cstate *cs, rgi_decl *dc, symkind kind) {
  sym *s = rgc_lookup(cs, dc->name);
  sym **near;
  if (s) {
    rgc_err(cs, dc->pos, "'%s' is already declared at line %u", dc->name, s->decl->pos.line);
    return NULL;
  }
  s = rgc_alloc(cs, sizeof *s);
  s->name = dc->name;
  s->kind = kind;
  s->decl = dc;
  s->link.hash = rgi_hash_text(dc->name);
  rgc_htab_add(cs, &cs->syms, &s->link);
  if (!cs->near_syms) cs->near_syms = near_heads(cs);
  near = &cs->near_syms[s->link.hash % NEAR_BUCKETS];
  s->near = *near;
  *near = s;
  return s;
}

void rgc_add_memref(cstate *cs, memref *r) {
  memref **near;
  r->link.hash = rgi_hash_text(r->code);
  rgc_htab_add(cs, &cs->memhash, &r->link);
  if (!cs->near_members) cs->near_members = near_heads(cs);
  near = &cs->near_members[r->link.hash % NEAR_BUCKETS];
  r->near = *near;
  *near = r;
}

/* ======================================================================
** The string pool
** ==================================================================== */

/* A string of the pool, in cs->strhash. */
struct strent {
  rgc_hlink link;
  uint32_t off;                   /* where it starts in cs->pool */
};

/* Returns the pool offset of s, adding it once. */
uint32_t rgc_intern(cstate *cs, const char *s) {
  uint32_t h = rgi_hash_text(s);
  size_t n = strlen(s);
  for (rgc_hlink *l = rgc_htab_first(&cs->strhash, h); l; l = l->next)
    if (l->hash == h && strcmp(cs->pool + ((struct strent *)l)->off, s) == 0)
      return ((struct strent *)l)->off;
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
    memcpy(cs->pool + off, s, n + 1);
    cs->npool += (uint32_t)n + 1;
    e->off = off;
    e->link.hash = h;
    rgc_htab_add(cs, &cs->strhash, &e->link);
    return off;
  }
}

/* ======================================================================
** Types
** ==================================================================== */



/* Returns whether a value of type got may stand where want is expected.
** types is the list of element types that list types refer to. */
bool rgc_compatible_in(const rgi_type *types, rgi_type got, rgi_type want) {
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




/* Returns the index in types[] of type t, adding it once. */
uint32_t rgc_type_index(cstate *cs, rgi_type t) {
  for (uint32_t i = 0; i < cs->types.n; i++) {
    rgi_type u = AT(cs->types, rgi_type, i);
    if (u.kind == t.kind && u.ref == t.ref) return i;
  }
  {
    rgi_type *slot = rgc_push(cs, &cs->types);
    *slot = t;
    return cs->types.n - 1;
  }
}

/* Returns the type `list elem`: T_ERR after reporting when elem is the
** type of an empty literal ([] or {}) that its context did not give a type
** (the module's types never hold "any"). */
rgi_type rgc_list_of(cstate *cs, rgi_type elem) {
  rgi_type t = { RG_K_LIST, 0 };
  unsigned depth = 1;
  if (rgc_is_any(elem)) {
    rgc_err(cs, cs->pos, "the type of %s is not known here; give it one from its context, "
        "such as let x: list T = ...", elem.kind == RG_K_SET ? "{}" : "[]");
    return T_ERR;
  }
  for (rgi_type e = elem; e.kind == RG_K_LIST && e.ref != REF_ANY; e = AT(cs->types, rgi_type, e.ref))
    depth++;
  if (depth > RG_MAX_LIST_NEST) {
    rgc_err(cs, cs->pos, "lists nested too deeply (at most %u levels of list)", RG_MAX_LIST_NEST);
    return T_ERR;
  }
  t.ref = rgc_type_index(cs, elem);
  return t;
}

/* Returns the element type of list type t (T_ERR for the empty list's). */
rgi_type rgc_elem_of(cstate *cs, rgi_type t) {
  if (t.ref == REF_ANY) return T_ERR;
  return AT(cs->types, rgi_type, t.ref);
}

/* Writes a readable name of t into buf; returns buf. */
const char *rgc_tname(cstate *cs, rgi_type t, char *buf, size_t size) {
  /* The module's own printer, on a view of the arrays being built; only the
  ** compiler's "any set" and "any list" (the types of {} and []) are its own. */
  rgi_module view;
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
  return rgi_type_name(buf, size, &view, t);
}

/* Reports "expected W, found G" at pos when got does not fit want. */
bool rgc_check_type(cstate *cs, rgi_pos pos, rgi_type got, rgi_type want, const char *what) {
  char a[RGI_TYPE_NAME_SIZE], b[RGI_TYPE_NAME_SIZE];
  if (RGC_COMPAT(got, want)) return true;
  rgc_err(cs, pos, "%s must be %s, not %s", what, rgc_tname(cs, want, a, sizeof a),
      rgc_tname(cs, got, b, sizeof b));
  return false;
}

/* Resolves a written type; reports unknown names and returns T_ERR. */
rgi_type rgc_resolve_type(cstate *cs, const rgi_typeexpr *te) {
  sym *s;
  switch (te->kind) {
  case RG_TY_INT: return T_INT;
  case RG_TY_BOOL: return T_BOOL;
  case RG_TY_PERCENT: return rgc_mktype(RG_K_PERCENT, 0);
  case RG_TY_TEXT: return T_TEXT;
  case RG_TY_DISTANCE:
    if (!te->name) {
      if (cs->units.n == 0) {
        rgc_err(cs, te->pos, "distance needs a unit: declare one with 'unit'");
        return T_ERR;
      }
      return rgc_mktype(RG_K_DIST, 0);
    }
    s = rgc_lookup(cs, te->name);
    if (!s || s->kind != S_UNIT) {
      rgc_err(cs, te->pos, "unknown unit '%s'", te->name);
      return T_ERR;
    }
    return rgc_mktype(RG_K_DIST, s->index);
  case RG_TY_SET:
    s = rgc_lookup(cs, te->name);
    if (!s || s->kind != S_ENUM) {
      rgc_err(cs, te->pos, "a set's members must be an enum; '%s' is not one", te->name);
      return T_ERR;
    }
    return rgc_mktype(RG_K_SET, s->index);
  case RG_TY_LIST: {
    rgi_type e;
    unsigned depth = 0;
    for (const rgi_typeexpr *l = te; l->kind == RG_TY_LIST; l = l->elem) depth++;
    if (depth > RG_MAX_LIST_NEST) {
      rgc_err(cs, te->pos, "lists nested too deeply (at most %u levels of list)", RG_MAX_LIST_NEST);
      return T_ERR;
    }
    e = rgc_resolve_type(cs, te->elem);
    return rgc_is_err(e) ? T_ERR : rgc_list_of(cs, e);
  }
  case RG_TY_NAMED:
    s = rgc_lookup(cs, te->name);
    if (s && s->kind == S_ENUM) return rgc_mktype(RG_K_ENUM, s->index);
    if (s && s->kind == S_RECORD) return rgc_mktype(RG_K_RECORD, s->index);
    rgc_err(cs, te->pos, "unknown type '%s'%s", te->name,
        rgc_hint_name(cs, te->name, RGC_KIND(S_ENUM) | RGC_KIND(S_RECORD), false, false));
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
  /* ASCII against ASCII: folding is tolower, NFC changes nothing. */
  size_t i = 0;
  while (a[i] && b[i] && !((a[i] | b[i]) & 0x80)) {
    char ca = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] + 32) : a[i];
    char cb = b[i] >= 'A' && b[i] <= 'Z' ? (char)(b[i] + 32) : b[i];
    if (ca != cb) return false;
    i++;
  }
  if (!a[i] || !b[i]) return !a[i] && !b[i];
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
  const rgi_enum *e = &AT(cs->enums, rgi_enum, en);
  for (uint32_t i = 0; i < e->count; i++)
    if (strcmp(cs->pool + AT(cs->members, rgi_member_info, e->first + i).code, code) == 0)
      return (int)i;
  return -1;
}

/* Returns the member of en named text by code or display name, ignoring
** case; or -1. */
int rgc_member_by_text(cstate *cs, uint32_t en, const char *text) {
  const rgi_enum *e = &AT(cs->enums, rgi_enum, en);
  int m = rgc_member_by_code(cs, en, text);
  if (m >= 0) return m;
  for (uint32_t i = 0; i < e->count; i++) {
    const rgi_member_info *mi = &AT(cs->members, rgi_member_info, e->first + i);
    if (same_folded(cs->pool + mi->code, text)) return (int)i;
    if (mi->display && same_folded(cs->pool + mi->display, text)) return (int)i;
  }
  return -1;
}

/* Writes the codes of en's members, comma-separated, into buf. */
const char *rgc_member_list(cstate *cs, uint32_t en, char *buf, size_t size) {
  const rgi_enum *e = &AT(cs->enums, rgi_enum, en);
  size_t n = 0;
  buf[0] = '\0';
  for (uint32_t i = 0; i < e->count && n + 1 < size; i++) {
    int k = snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
                     cs->pool + AT(cs->members, rgi_member_info, e->first + i).code);
    if (k < 0) break;
    n += (size_t)k;
  }
  return buf;
}

/* Looks a bare member name up in every enum.  Returns the number of enums
** that have it, and the first one's enum and index. */
int rgc_find_member(cstate *cs, const char *code, uint32_t *en, uint32_t *index,
                       char *enums, size_t size) {
  int found = 0;
  size_t n = 0;
  if (enums && size) enums[0] = '\0';
  uint32_t h = rgi_hash_text(code);
  for (rgc_hlink *l = rgc_htab_first(&cs->memhash, h); l; l = l->next) {
    const memref *m = (const memref *)l;
    if (l->hash != h || strcmp(m->code, code) != 0) continue;
    if (!found) { *en = m->en; *index = m->index; }
    if (enums && n + 1 < size) {
      int k = snprintf(enums + n, size - n, "%s%s", found ? ", " : "",
                       cs->pool + AT(cs->enums, rgi_enum, m->en).name);
      if (k > 0) n += (size_t)k;
    }
    found++;
  }
  return found;
}

