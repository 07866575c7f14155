/*
** compile_decl.c: declarations: units, enums, records, tables and
** procedures (their heads), dice and decks, inputs, procedure bodies and
** tests; the `assumed` notes they carry.
*/
#include "builtins.h"
#include "compile_int.h"
#include "opcodes.h"
#include "value.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ======================================================================
** Declarations: the vocabulary
** ==================================================================== */

/* Records the assumed notes in list for `regula check --assumptions`. */
void rgc_collect_notes(cstate *cs, rgi_note *n, const char *what) {
  for (; n; n = n->next) {
    rgi_assumption *a;
    if (!n->assumed) continue;
    a = rgc_alloc(cs, sizeof *a);
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
  return s;
}

/* unit NAME ["display"] */
void rgc_decl_unit(cstate *cs, rgi_decl *dc) {
  sym *s = rgc_declare(cs, dc, S_UNIT);
  rgi_unit *u;
  if (!s) return;
  u = rgc_push(cs, &cs->units);
  s->index = cs->units.n - 1;
  u->name = rgc_intern(cs, dc->name);
  u->display = dc->display ? rgc_intern(cs, dc->display) : 0;
}

/* enum NAME { CODE ["display"], ... } */
void rgc_decl_enum(cstate *cs, rgi_decl *dc) {
  sym *s = rgc_declare(cs, dc, S_ENUM);
  rgi_enum *e;
  uint32_t n = 0;
  if (!s) return;
  for (rgi_member *m = dc->members; m; m = m->next) n++;
  if (n > 64) {
    /* said, and the enum kept with its first 64 members: the symbol must
    ** name an enum (its uses read it; a fuzzer found one read past the
    ** enums when none was kept) */
    rgc_err(cs, dc->pos, "enum %s has %u members; at most 64 are allowed", dc->name, n);
  }
  e = rgc_push(cs, &cs->enums);
  s->index = cs->enums.n - 1;
  e->name = rgc_intern(cs, dc->name);
  e->first = cs->members.n;
  e->ordered = dc->ordered;
  n = 0;
  for (rgi_member *m = dc->members; m && n < 64; m = m->next, n++) {
    rgi_member_info *mi;
    memref *r;
    if (rgc_member_by_code(cs, s->index, m->code) >= 0) {
      rgc_err(cs, m->pos, "'%s' is already a member of %s", m->code, dc->name);
      continue;
    }
    if (m->display) {
      int other = rgc_member_by_text(cs, s->index, m->display);
      if (other >= 0) {
        rgc_err(cs, m->pos, "display name \"%s\" already names member %s of %s", m->display,
            cs->pool + AT(cs->members, rgi_member_info, AT(cs->enums, rgi_enum, s->index).first + other).code,
            dc->name);
        continue;
      }
    }
    mi = rgc_push(cs, &cs->members);
    r = rgc_alloc(cs, sizeof *r);
    mi->code = rgc_intern(cs, m->code);
    mi->display = m->display ? rgc_intern(cs, m->display) : 0;
    AT(cs->enums, rgi_enum, s->index).count++;
    r->code = m->code;
    r->en = s->index;
    r->index = AT(cs->enums, rgi_enum, s->index).count - 1;
    rgc_add_memref(cs, r);
    rgc_collect_notes(cs, m->notes, rgc_describe(cs, "%s.%s", dc->name, m->code));
  }
}

/* record NAME { field: type, ... }: the head; field types come after all
** records are declared, so records may refer to each other. */
void rgc_decl_record(cstate *cs, rgi_decl *dc) {
  sym *s = rgc_declare(cs, dc, S_RECORD);
  rgi_record *r;
  if (!s) return;
  r = rgc_push(cs, &cs->records);
  s->index = cs->records.n - 1;
  r->name = rgc_intern(cs, dc->name);
}

/* Checks form[s..end) (a shown form or a display's line, `what`) against
** record r (named name): every {FIELD} a field of it; {FIELD:TEXT} only
** for a bool or a number field, TEXT itself a form, nested at most
** RG_FORM_MAX_NEST deep (nest: how deep this is).  "{{" is a brace.
** Returns false after an error at pos. */
static bool check_form_in(cstate *cs, rgi_pos pos, const char *s, const char *end,
                          const rgi_record *r, const char *name, const char *what, int nest) {
  while ((s = memchr(s, '{', (size_t)(end - s)))) {
    rgi_form_part p;
    bool found = false;
    uint32_t k = 0;
    int n;
    if (s + 1 < end && s[1] == '{') { s += 2; continue; }
    if (rgi_form_part_at(s, end, &p) != 0) {
      rgc_err(cs, pos, "the %s has a '{' without its '}'", what);
      return false;
    }
    /* {FIELD}, or {FIELD:TEXT} for a bool or a number field */
    for (; k < r->count && !found; k++) {
      const char *f = cs->pool + AT(cs->fields, rgi_field_info, r->first + k).name;
      found = strlen(f) == p.nlen && strncmp(f, p.name, p.nlen) == 0;
    }
    n = (int)p.nlen;
    if (!found) {
      rgc_err(cs, pos, "the %s names '%.*s', which is not a field of %s", what, n, p.name, name);
      return false;
    }
    if (p.text) {
      if (!rgi_form_flag_kind((rgi_kind)AT(cs->fields, rgi_field_info, r->first + k - 1).type.kind)) {
        rgc_err(cs, pos, "the %s writes {%.*s:...}, but '%.*s' is neither a bool nor a number: "
                "only those show a text of their own (a bool when true, a number when not 0)",
                what, n, p.name, n, p.name);
        return false;
      }
      if (nest >= RG_FORM_MAX_NEST) {
        rgc_err(cs, pos, "the %s nests {FIELD:...} more than %d deep", what, RG_FORM_MAX_NEST);
        return false;
      }
      if (!check_form_in(cs, pos, p.text, p.close, r, name, what, nest + 1)) return false;
    }
    s = p.close + 1;
  }
  return true;
}

/* check_form_in over the whole of form. */
static bool check_form(cstate *cs, rgi_pos pos, const char *form, const rgi_record *r,
                       const char *name, const char *what) {
  return check_form_in(cs, pos, form, form + strlen(form), r, name, what, 0);
}

/* A record's shown form: checked (check_form), then stored in r. */
static void record_shown(cstate *cs, rgi_decl *dc, rgi_record *r) {
  if (check_form(cs, dc->from_pos, dc->display, r, dc->name, "shown form"))
    r->shown = rgc_intern(cs, dc->display);
}

/* The fields of a record. */
void rgc_record_fields(cstate *cs, rgi_decl *dc) {
  sym *s = rgc_lookup(cs, dc->name);
  rgi_record *r;
  if (!s || s->decl != dc) return;
  AT(cs->records, rgi_record, s->index).first = cs->fields.n;
  for (rgi_field *f = dc->fields; f; f = f->next) {
    rgi_field_info *fi;
    r = &AT(cs->records, rgi_record, s->index);
    for (uint32_t k = 0; k < r->count; k++)
      if (strcmp(cs->pool + AT(cs->fields, rgi_field_info, r->first + k).name, f->name) == 0) {
        rgc_err(cs, f->pos, "field '%s' is already declared", f->name);
        goto next;
      }
    fi = rgc_push(cs, &cs->fields);
    fi->name = rgc_intern(cs, f->name);
    fi->type = rgc_resolve_type(cs, f->type);
    if (rgc_is_err(fi->type)) fi->type = T_INT;     /* reported; keep the layout */
    AT(cs->records, rgi_record, s->index).count++;
  next:;
  }
  if (dc->display) record_shown(cs, dc, &AT(cs->records, rgi_record, s->index));
}

/* table NAME(keys) -> type: the head (dimensions and cell storage). */
void rgc_decl_table(cstate *cs, rgi_decl *dc) {
  sym *s = rgc_declare(cs, dc, S_TABLE);
  rgi_table *tb;
  uint64_t count = 1;
  bool bad = false;
  if (!s) return;
  tb = rgc_push(cs, &cs->tables);
  s->index = cs->tables.n - 1;
  tb->name = rgc_intern(cs, dc->name);
  tb->first_dim = cs->dims.n;
  tb->value = rgc_resolve_type(cs, dc->type);
  for (rgi_keyspec *k = dc->keys; k; k = k->next) {
    rgi_dim *dm = rgc_push(cs, &cs->dims);
    AT(cs->tables, rgi_table, s->index).ndims++;
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
      dm->size = AT(cs->enums, rgi_enum, e->index).count;
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
    count *= AT(cs->dims, rgi_dim, cs->dims.n - 1).size;
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
  tb = &AT(cs->tables, rgi_table, s->index);
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
  if (bad) AT(cs->tables, rgi_table, s->index).value = T_ERR;
}

static const char *const builtins[] = {
#define RG_X(n, kind, argc, args, op, fn) #n,
  RG_BUILTINS(RG_X)
#undef RG_X
  NULL
};

/* procedure NAME(params) [-> type]: the head. */
void rgc_decl_proc(cstate *cs, rgi_decl *dc) {
  sym *s;
  rgi_proc *p;
  for (int i = 0; builtins[i]; i++)
    if (strcmp(dc->name, builtins[i]) == 0) {
      rgc_err(cs, dc->pos, "'%s' is a builtin; choose another name", dc->name);
      return;
    }
  s = rgc_declare(cs, dc, S_PROC);
  if (!s) return;
  p = rgc_push(cs, &cs->procs);
  s->index = cs->procs.n - 1;
  p->name = rgc_intern(cs, dc->name);
  p->first_param = cs->params.n;
  p->result = dc->type ? rgc_resolve_type(cs, dc->type) : T_NONE;
  for (rgi_param *pa = dc->params; pa; pa = pa->next) {
    rgi_param_info *pi;
    if (AT(cs->procs, rgi_proc, s->index).nparams == MAX_PARAMS) {
      rgc_err(cs, pa->pos, "too many parameters (limit %d)", MAX_PARAMS);
      return;
    }
    for (rgi_param *q = dc->params; q != pa; q = q->next)
      if (strcmp(q->name, pa->name) == 0) rgc_err(cs, pa->pos, "parameter '%s' is given twice", pa->name);
    pi = rgc_push(cs, &cs->params);
    pi->name = rgc_intern(cs, pa->name);
    pi->type = rgc_resolve_type(cs, pa->type);
    AT(cs->procs, rgi_proc, s->index).nparams++;
  }
}

/* Resolves the key of a dice face or a deck card (a member by code or
** display name, or an integer) against type t. */
static bool chance_key(cstate *cs, const rgi_keypat *k, rgi_type t, rgi_value *v) {
  char x[RGI_TYPE_NAME_SIZE];
  if (k->next) {
    rgc_err(cs, k->pos, "a face or card is one value, not several keys");
    return false;
  }
  if (t.kind == RG_K_ENUM && (k->kind == RG_KP_NAME || k->kind == RG_KP_STR)) {
    int m = k->kind == RG_KP_NAME ? rgc_member_by_code(cs, t.ref, k->name) : rgc_member_by_text(cs, t.ref, k->name);
    char list[512];
    if (m < 0) {
      rgc_err(cs, k->pos, "'%s' is not a member of %s (members: %s)", k->name,
          cs->pool + AT(cs->enums, rgi_enum, t.ref).name, rgc_member_list(cs, t.ref, list, sizeof list));
      return false;
    }
    *v = m;
    return true;
  }
  if (t.kind == RG_K_INT && k->kind == RG_KP_INT) {
    *v = k->lo;
    return true;
  }
  if (t.kind == RG_K_INT) rgc_err(cs, k->pos, "a face or card here must be an integer");
  else rgc_err(cs, k->pos, "a face or card here must be a member of %s", rgc_tname(cs, t, x, sizeof x));
  return false;
}

/* dice NAME: T = { face: count, ... } and deck NAME: T = { card: count, ...
** }: both become a flat list of values, one per side or per card. */
void rgc_decl_chance(cstate *cs, rgi_decl *dc) {
  bool is_dice = dc->kind == RG_DE_DICE;
  sym *s = rgc_declare(cs, dc, is_dice ? S_DICE : S_DECK);
  rgi_type t;
  vec *values = is_dice ? &cs->faces : &cs->cards;
  uint32_t first = values->n, total = 0;
  bool bad = false;              /* a face or count reported: "no faces" would repeat it */
  if (!s) return;
  t = rgc_resolve_type(cs, dc->type);
  if (!rgc_is_err(t) && t.kind != RG_K_ENUM && t.kind != RG_K_INT) {
    char x[RGI_TYPE_NAME_SIZE];
    rgc_err(cs, dc->type->pos, "%s must be an enum or int, not %s",
        is_dice ? "a die's faces" : "a deck's cards", rgc_tname(cs, t, x, sizeof x));
    t = T_ERR;
  }
  for (rgi_cell *c = dc->cells; c; c = c->next) {
    rgi_value key, count;
    rgi_type ct;
    if (!c->keys) { rgc_err(cs, c->pos, "'else' has no meaning here"); bad = true; continue; }
    if (rgc_is_err(t) || !chance_key(cs, c->keys, t, &key)) { bad = true; continue; }
    ct = rgc_fold(cs, c->value, T_INT, &count);
    if (rgc_is_err(ct) || !rgc_check_type(cs, c->value->pos, ct, T_INT, "a count")) { bad = true; continue; }
    if (count < 0 || count > 100000 || total + count > 1000000) {
      rgc_err(cs, c->value->pos, "a count must be 0..100000 (and 1000000 in all)");
      bad = true;
      continue;
    }
    for (rgi_value i = 0; i < count; i++) {
      rgi_value *slot = rgc_push(cs, values);
      *slot = key;
    }
    total += (uint32_t)count;
    rgc_collect_notes(cs, c->notes, rgc_describe(cs, "%s %s: %s", is_dice ? "dice" : "deck", dc->name,
                                         c->keys->name ? c->keys->name : "?"));
  }
  if (total == 0 && !rgc_is_err(t) && !bad)
    rgc_err(cs, dc->pos, "%s %s has no %s", is_dice ? "die" : "deck", dc->name, is_dice ? "faces" : "cards");
  if (is_dice) {
    rgi_dice *d = rgc_push(cs, &cs->dice);
    s->index = cs->dice.n - 1;
    d->name = rgc_intern(cs, dc->name);
    d->face = rgc_is_err(t) ? T_INT : t;
    d->first = first;
    d->count = total;
  } else {
    rgi_deck *d = rgc_push(cs, &cs->decks);
    s->index = cs->decks.n - 1;
    d->name = rgc_intern(cs, dc->name);
    d->card = rgc_is_err(t) ? T_INT : t;
    d->first = first;
    d->count = total;
    d->flags = dc->secret ? RG_DECK_SECRET : 0;
  }
}

/* input NAME[E]: T = { CODE: default, ... }: reports a field of the
** defaults that names no member of enum en, a member named twice, and a
** member without a default. */
static void check_member_defaults(cstate *cs, const rgi_decl *dc, uint32_t en) {
  char list[512];
  const rgi_enum *e = &AT(cs->enums, rgi_enum, en);
  for (const rgi_fieldinit *f = dc->value->fields; f; f = f->next) {
    if (rgc_member_by_code(cs, en, f->name) < 0)
      rgc_err(cs, f->pos, "'%s' is not a member of %s (members: %s)", f->name, cs->pool + e->name,
          rgc_member_list(cs, en, list, sizeof list));
    for (const rgi_fieldinit *g = dc->value->fields; g != f; g = g->next)
      if (strcmp(g->name, f->name) == 0) {
        rgc_err(cs, f->pos, "the default of %s[%s] is given twice", dc->name, f->name);
        break;
      }
  }
  for (uint32_t k = 0; k < e->count; k++) {
    const char *code = cs->pool + AT(cs->members, rgi_member_info, e->first + k).code;
    const rgi_fieldinit *f;
    for (f = dc->value->fields; f; f = f->next)
      if (strcmp(f->name, code) == 0) break;
    if (!f) {
      /* A member that an `extend enum` added: the error is where it is added. */
      const sym *es = rgc_lookup(cs, cs->pool + e->name);
      const rgi_member *m = es && es->kind == S_ENUM && es->decl ? es->decl->members : NULL;
      while (m && strcmp(m->code, code) != 0) m = m->next;
      if (m && m->added)
        rgc_err(cs, m->pos, "input %s has no default for %s, added here: write override input %s "
            "with a default for every member of %s", dc->name, code, dc->name, cs->pool + e->name);
      else
        rgc_err(cs, dc->value->pos, "no default for %s[%s]: give one for every member of %s",
            dc->name, code, cs->pool + e->name);
    }
  }
}

/* The default of input dc[code] from its per-member defaults (the first
** field named code), folded against want; 0 when absent or in error
** (reported). */
static rgi_value member_default(cstate *cs, const rgi_decl *dc, const char *code, rgi_type want) {
  for (const rgi_fieldinit *f = dc->value->fields; f; f = f->next)
    if (strcmp(f->name, code) == 0) {
      rgi_value v = 0;
      rgi_type t = rgc_fold(cs, f->value, want, &v);
      if (!rgc_is_err(t)) rgc_check_type(cs, f->value->pos, t, want, "the default");
      return v;
    }
  return 0;
}

/* input NAME: T = default; input NAME[E]: T = default, or one default
** per member: { CODE: default, ... } */
void rgc_decl_input(cstate *cs, rgi_decl *dc) {
  sym *s = rgc_declare(cs, dc, S_INPUT);
  rgi_input *in;
  rgi_type want, t;
  rgi_value v = 0;
  bool per_member;
  if (!s) return;
  want = rgc_resolve_type(cs, dc->type);
  if (!rgc_is_err(want) && (want.kind == RG_K_RECORD || want.kind == RG_K_LIST)) {
    rgc_err(cs, dc->type->pos, "an input cannot be a record or a list");
    want = T_ERR;
  }
  per_member = dc->index && dc->value->kind == RG_EX_RECORD && !dc->value->a;
  if (!per_member) {
    t = rgc_fold(cs, dc->value, want, &v);
    if (!rgc_is_err(t)) rgc_check_type(cs, dc->value->pos, t, want, "the default");
  }
  s->index = cs->inputs.n;
  s->type = rgc_is_err(want) ? T_ERR : want;
  if (dc->index) {
    /* input NAME[E]: one input per member of E, named NAME[CODE], in the
    ** members' order; NAME[k] picks one (input_index) */
    rgi_type it = rgc_resolve_type(cs, dc->index);
    const rgi_enum *en;
    if (rgc_is_err(it)) { s->type = T_ERR; return; }
    if (it.kind != RG_K_ENUM) {
      char x[RGI_TYPE_NAME_SIZE];
      rgc_err(cs, dc->index->pos, "an input is indexed by an enum, not %s", rgc_tname(cs, it, x, sizeof x));
      s->type = T_ERR;
      return;
    }
    en = &AT(cs->enums, rgi_enum, it.ref);
    if (per_member) check_member_defaults(cs, dc, it.ref);
    for (uint32_t k = 0; k < en->count; k++) {
      const char *code = cs->pool + AT(cs->members, rgi_member_info, en->first + k).code;
      char *name = rgc_alloc(cs, strlen(dc->name) + strlen(code) + 3);
      sprintf(name, "%s[%s]", dc->name, code);
      if (per_member) v = member_default(cs, dc, code, want);
      in = rgc_push(cs, &cs->inputs);
      in->name = rgc_intern(cs, name);
      in->type = rgc_is_err(want) ? T_INT : want;
      in->value = v;
      en = &AT(cs->enums, rgi_enum, it.ref);
    }
    return;
  }
  in = rgc_push(cs, &cs->inputs);
  in->name = rgc_intern(cs, dc->name);
  in->type = rgc_is_err(want) ? T_INT : want;
  in->value = v;
}

/* Records the `assumed` notes of the statements of block s, and of the
** blocks inside them, for `regula check --assumptions`: a step's as
** `step "NAME" in procedure P`, any other's as `statement in procedure P`
** (`statement in step "NAME" of procedure P` inside a step; `test "T"` for
** a test).  dc is the procedure or test; step the enclosing step or NULL. */
static void stmt_notes(cstate *cs, const rgi_decl *dc, rgi_stmt *s, const char *step) {
  for (; s; s = s->next) {
    if (s->notes) {
      char where[300];
      snprintf(where, sizeof where, dc->kind == RG_DE_TEST ? "test \"%s\"" : "procedure %s", dc->name);
      if (s->kind == RG_ST_STEP)
        rgc_collect_notes(cs, s->notes, rgc_describe(cs, "step \"%s\" in %s", s->str, where));
      else if (s->kind == RG_ST_RULE && step)
        rgc_collect_notes(cs, s->notes, rgc_describe(cs, "rule \"%s\" in step \"%s\" of %s", s->str, step, where));
      else if (s->kind == RG_ST_RULE)
        rgc_collect_notes(cs, s->notes, rgc_describe(cs, "rule \"%s\" in %s", s->str, where));
      else if (step)
        rgc_collect_notes(cs, s->notes, rgc_describe(cs, "statement in step \"%s\" of %s", step, where));
      else
        rgc_collect_notes(cs, s->notes, rgc_describe(cs, "statement in %s", where));
    }
    stmt_notes(cs, dc, s->body, s->kind == RG_ST_STEP ? s->str : step);
    stmt_notes(cs, dc, s->orelse, step);
  }
}

/* Reports a rule of the statements from s on (recursively) whose name an
** earlier rule of procedure dc has: `override rule` names a rule by its
** procedure and name alone.  *seen lists the rules met so far (arena). */
typedef struct rulename { const rgi_stmt *s; struct rulename *next; } rulename;
static void rule_names(cstate *cs, const rgi_decl *dc, const rgi_stmt *s, rulename **seen) {
  for (; s; s = s->next) {
    if (s->kind == RG_ST_RULE) {
      rulename *r;
      for (r = *seen; r; r = r->next)
        if (strcmp(r->s->str, s->str) == 0) break;
      if (r)
        rgc_err(cs, s->pos, "procedure %s already has a rule \"%s\" (line %u); a rule's name is unique in its procedure",
            dc->name, s->str, r->s->pos.line);
      else {
        r = rgc_alloc(cs, sizeof *r);
        r->s = s;
        r->next = *seen;
        *seen = r;
      }
    }
    rule_names(cs, dc, s->body, seen);
    rule_names(cs, dc, s->orelse, seen);
  }
}

/* The body of procedure or test dc, compiled into procedure index. */
void rgc_proc_body(cstate *cs, rgi_decl *dc, uint32_t index) {
  rgi_proc *p = &AT(cs->procs, rgi_proc, index);
  bool ends;
  uint32_t i = 0;
  rgc_reset_locals(cs);
  cs->nslots = 0;
  cs->depth = 0;
  cs->result = p->result;
  cs->proc_start = cs->code.n;
  cs->pos = dc->pos;
  cs->quiet++;                   /* a parameter given twice is reported by decl_proc */
  for (rgi_param *pa = dc->params; pa && i < p->nparams; pa = pa->next, i++)
    rgc_add_local(cs, pa->pos, pa->name, AT(cs->params, rgi_param_info, p->first_param + i).type);
  cs->quiet--;
  stmt_notes(cs, dc, dc->body, NULL);
  {
    rulename *seen = NULL;
    rule_names(cs, dc, dc->body, &seen);
  }
  ends = rgc_block(cs, dc->body);
  if (!ends) {
    if (cs->result.kind != RG_K_VOID && !rgc_is_err(cs->result))
      rgc_err(cs, dc->pos, "procedure %s can end without returning a value", dc->name);
    cs->pos = dc->pos;
    rgc_emit(cs, RG_OP_RETV, 0);
  }
  p = &AT(cs->procs, rgi_proc, index);
  p->code = cs->proc_start;
  p->ncode = cs->code.n - cs->proc_start;
  p->nlocals = cs->nslots;
}

/* test "title" { ... }: a procedure without parameters, and its entry. */
void rgc_decl_test(cstate *cs, rgi_decl *dc) {
  rgi_proc *p = rgc_push(cs, &cs->procs);
  rgi_test *t;
  uint32_t index = cs->procs.n - 1;
  p->name = rgc_intern(cs, dc->name);
  p->first_param = cs->params.n;
  p->result = T_NONE;
  for (uint32_t i = 0; i < cs->tests.n; i++)
    if (AT(cs->tests, rgi_test, i).name == p->name)
      rgc_err(cs, dc->pos, "a test named \"%s\" already exists", dc->name);
  cs->in_test = true;
  rgc_proc_body(cs, dc, index);
  cs->in_test = false;
  t = rgc_push(cs, &cs->tests);
  t->name = AT(cs->procs, rgi_proc, index).name;
  t->proc = index;
}


/* ---- strategies -------------------------------------------------------------------- */

/* The choice sites by prompt: at[0..n) sorted by (prompt, site), so that a
** rule finds the first site asking its prompt, and the sites asking one
** prompt are neighbours, in O(log n). */
typedef struct site_at {
  uint32_t prompt, site;
} site_at;

typedef struct sites_by_prompt {
  site_at *at;
  uint32_t n;
} sites_by_prompt;

/* qsort: two sites by (prompt, site). */
static int by_prompt(const void *a, const void *b) {
  const site_at *x = a, *y = b;
  if (x->prompt != y->prompt) return x->prompt < y->prompt ? -1 : 1;
  return (x->site > y->site) - (x->site < y->site);
}

/* Fills *ix with the sites of cs sorted by prompt (memory from the arena). */
static void index_sites(cstate *cs, sites_by_prompt *ix) {
  ix->n = cs->choices.n;
  ix->at = rgc_alloc(cs, (size_t)ix->n * sizeof *ix->at + 1);
  for (uint32_t i = 0; i < ix->n; i++)
    ix->at[i] = (site_at){ AT(cs->choices, rgi_choice, i).prompt, i };
  qsort(ix->at, ix->n, sizeof *ix->at, by_prompt);
}

/* Returns the position in ix of the first site asking prompt pr, or -1. */
static int64_t first_site(const sites_by_prompt *ix, uint32_t pr) {
  uint32_t lo = 0, hi = ix->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (ix->at[mid].prompt < pr) lo = mid + 1;
    else hi = mid;
  }
  return lo < ix->n && ix->at[lo].prompt == pr ? (int64_t)lo : -1;
}

/* Compiles pick x of a rule answering choice site c into *pk (kind, field,
** value).  Returns false after an error. */
static bool strategy_pick(cstate *cs, const rgi_pickx *x, const rgi_choice *c, rgi_pick *pk) {
  rgi_type opt = c->option;
  char tn[RGI_TYPE_NAME_SIZE];
  if (x->word) {                                   /* max FIELD, min FIELD */
    const rgi_record *r;
    if (strcmp(x->word, "max") != 0 && strcmp(x->word, "min") != 0) {
      rgc_err(cs, x->pos, "a pick is a value, max, min, max FIELD, min FIELD, first or random, not '%s %s'",
              x->word, x->field);
      return false;
    }
    if (opt.kind != RG_K_RECORD) {
      rgc_err(cs, x->pos, "'%s %s': the options are %s, not records with fields", x->word,
              x->field, rgc_tname(cs, opt, tn, sizeof tn));
      return false;
    }
    r = &AT(cs->records, rgi_record, opt.ref);
    for (uint32_t f = 0; f < r->count; f++) {
      const rgi_field_info *fi = &AT(cs->fields, rgi_field_info, r->first + f);
      if (strcmp(cs->pool + fi->name, x->field) != 0) continue;
      if (fi->type.kind == RG_K_RECORD || fi->type.kind == RG_K_LIST) {
        rgc_err(cs, x->pos, "field '%s' is %s: max and min compare simple values", x->field,
                rgc_tname(cs, fi->type, tn, sizeof tn));
        return false;
      }
      pk->kind = strcmp(x->word, "max") == 0 ? RG_PICK_MAX : RG_PICK_MIN;
      pk->field = f + 1;
      return true;
    }
    rgc_err(cs, x->pos, "the options (%s) have no field '%s'", rgc_tname(cs, opt, tn, sizeof tn),
            x->field);
    return false;
  }
  if (x->value->kind == RG_EX_NAME) {              /* the words, unless a member */
    static const char *const words[] = { "max", "min", "first", "random" };
    static const rgi_pickkind kinds[] = { RG_PICK_MAX, RG_PICK_MIN, RG_PICK_FIRST, RG_PICK_RANDOM };
    for (int w = 0; w < 4; w++)
      if (strcmp(x->value->name, words[w]) == 0 &&
          !(opt.kind == RG_K_ENUM && rgc_member_by_code(cs, opt.ref, words[w]) >= 0)) {
        pk->kind = kinds[w];
        return true;
      }
  }
  if (opt.kind == RG_K_RECORD || opt.kind == RG_K_LIST) {
    rgc_err(cs, x->pos, "the options are %s: pick them by max FIELD, min FIELD, first or random",
            rgc_tname(cs, opt, tn, sizeof tn));
    return false;
  }
  rgi_type t = rgc_fold(cs, x->value, opt, &pk->value);
  if (rgc_is_err(t) || !rgc_check_type(cs, x->value->pos, t, opt, "a pick")) return false;
  pk->kind = RG_PICK_VALUE;
  return true;
}

/* One rule of a strategy being compiled, for sorting by prompt. */
typedef struct srule_at {
  uint32_t prompt;          /* interned */
  uint32_t order;           /* its place in the strategy */
  const rgi_srule *r;
} srule_at;

/* qsort: rules by (prompt, order): a stable sort by prompt. */
static int by_rule_prompt(const void *a, const void *b) {
  const srule_at *x = a, *y = b;
  if (x->prompt != y->prompt) return x->prompt < y->prompt ? -1 : 1;
  return (x->order > y->order) - (x->order < y->order);
}

/* strategy NAME ["doc"] { "prompt" [for who]: pick, ... }: after every
** procedure body (the choice sites are known).  Each rule names the prompt
** of at least one `choose`; all the choices asking it must agree on the
** chooser's and the options' types, so one rule compiles for them all.
** Only rules of one prompt interact, so the picks are kept sorted by
** prompt (in the written order within one): a run finds a choice's rules
** by binary search.  Everything here is O(n log n) in the rules and sites. */
void rgc_decl_strategy(cstate *cs, rgi_decl *dc) {
  rgi_strategy *st;
  uint32_t first = cs->picks.n, nrules = 0, k;
  char ta[RGI_TYPE_NAME_SIZE], tb[RGI_TYPE_NAME_SIZE];
  sites_by_prompt ix;
  srule_at *rules;
  for (uint32_t i = 0; i < cs->strategies.n; i++)
    if (strcmp(cs->pool + AT(cs->strategies, rgi_strategy, i).name, dc->name) == 0) {
      rgc_err(cs, dc->pos, "there is already a strategy '%s'", dc->name);
      return;
    }
  index_sites(cs, &ix);
  for (const rgi_srule *r = dc->srules; r; r = r->next) nrules++;
  rules = rgc_alloc(cs, (size_t)nrules * sizeof *rules + 1);
  k = 0;
  for (const rgi_srule *r = dc->srules; r; r = r->next, k++)
    rules[k] = (srule_at){ rgc_intern(cs, r->prompt), k, r };
  qsort(rules, nrules, sizeof *rules, by_rule_prompt);
  for (k = 0; k < nrules; k++) {
    const rgi_srule *r = rules[k].r;
    uint32_t pr = rules[k].prompt;
    int64_t at = first_site(&ix, pr);
    rgi_choice c;
    rgi_value who = 0;
    if (at < 0) {
      /* after other errors the choose may be in code not compiled: quiet */
      if (cs->d->errors == 0)
        rgc_err(cs, r->pos, "no choice asks \"%s\" (a rule names the prompt of a choose)", r->prompt);
      continue;
    }
    c = AT(cs->choices, rgi_choice, ix.at[at].site);
    if (k == 0 || rules[k - 1].prompt != pr) {
      /* the first rule of its prompt: the sites asking it agree on types */
      for (uint32_t i = (uint32_t)at + 1; i < ix.n && ix.at[i].prompt == pr; i++) {
        const rgi_choice *o = &AT(cs->choices, rgi_choice, ix.at[i].site);
        if (memcmp(&o->option, &c.option, sizeof c.option) != 0 ||
            memcmp(&o->chooser, &c.chooser, sizeof c.chooser) != 0) {
          rgc_err(cs, r->pos, "the choices asking \"%s\" differ in their types (%s and %s): "
                  "one rule cannot answer both", r->prompt,
                  rgc_tname(cs, o->option, ta, sizeof ta), rgc_tname(cs, c.option, tb, sizeof tb));
          break;
        }
      }
    } else {
      /* a later rule of the same prompt: none before it answers everyone */
      const rgi_srule *q = NULL;
      for (uint32_t b = k; b-- > 0 && rules[b].prompt == pr;)
        if (!rules[b].r->who) q = rules[b].r;
      if (q) {
        rgc_err(cs, r->pos, "the rule for \"%s\" at line %u answers every chooser already",
                r->prompt, q->pos.line);
        continue;
      }
    }
    if (r->who) {
      rgi_type t;
      if (c.chooser.kind == RG_K_RECORD || c.chooser.kind == RG_K_LIST) {
        rgc_err(cs, r->who->pos, "who answers \"%s\" is %s: a rule cannot name one", r->prompt,
                rgc_tname(cs, c.chooser, ta, sizeof ta));
        continue;
      }
      t = rgc_fold(cs, r->who, c.chooser, &who);
      if (rgc_is_err(t) || !rgc_check_type(cs, r->who->pos, t, c.chooser, "who")) continue;
    }
    for (const rgi_pickx *x = r->picks; x; x = x->next) {
      rgi_pick pk = { 0 };
      if (!strategy_pick(cs, x, &c, &pk)) continue;
      pk.prompt = pr;
      pk.rule = k;
      pk.who_set = r->who != NULL;
      pk.who = who;
      rgi_pick *slot = rgc_push(cs, &cs->picks);
      *slot = pk;
    }
  }
  /* rule numbers run on without gaps over the picks kept */
  for (uint32_t i = first, n = 0, prev = UINT32_MAX; i < cs->picks.n; i++) {
    rgi_pick *pk = &AT(cs->picks, rgi_pick, i);
    if (pk->rule != prev) { prev = pk->rule; pk->rule = n++; }
    else pk->rule = n - 1;
  }
  st = rgc_push(cs, &cs->strategies);
  st->name = rgc_intern(cs, dc->name);
  st->doc = rgc_intern(cs, dc->display ? dc->display : "");
  st->first = first;
  st->count = cs->picks.n - first;
  st->flags = dc->is_default ? RG_STRATEGY_DEFAULT : 0;
}

/* ---- displays ---------------------------------------------------------------------- */

/* Returns the index of field name of record r, or -1. */
static int64_t field_of(cstate *cs, const rgi_record *r, const char *name) {
  for (uint32_t k = 0; k < r->count; k++)
    if (strcmp(cs->pool + AT(cs->fields, rgi_field_info, r->first + k).name, name) == 0) return k;
  return -1;
}

/* display RECORD "title" { "form" | table FIELD: col, ... | list FIELD }:
** how a value of the record is shown as a card (one display a record). */
void rgc_decl_display(cstate *cs, rgi_decl *dc) {
  sym *s = rgc_lookup(cs, dc->name);
  const rgi_record *r;
  rgi_display *dp;
  uint32_t first = cs->dlines.n;
  char tn[RGI_TYPE_NAME_SIZE];
  if (!s || s->kind != S_RECORD) {
    rgc_err(cs, dc->pos, "'%s' is not a record: a display shows a record", dc->name);
    return;
  }
  for (uint32_t i = 0; i < cs->displays.n; i++)
    if (AT(cs->displays, rgi_display, i).record == s->index) {
      rgc_err(cs, dc->pos, "record %s has a display already", dc->name);
      return;
    }
  r = &AT(cs->records, rgi_record, s->index);
  for (const rgi_dlinex *x = dc->dlines; x; x = x->next) {
    rgi_dline dl = { 0 };
    dl.kind = (uint32_t)x->kind;
    if (x->kind == RG_DL_FORM) {
      if (!check_form(cs, x->pos, x->text, r, dc->name, "line")) continue;
      dl.text = rgc_intern(cs, x->text);
    } else {
      int64_t f = field_of(cs, r, x->text);
      rgi_type ft, et = T_ERR;
      if (f < 0) {
        rgc_err(cs, x->pos, "'%s' is not a field of %s%s", x->text, dc->name,
            rgc_hint_field(cs, s->index, x->text));
        continue;
      }
      dl.field = (uint32_t)f;
      ft = AT(cs->fields, rgi_field_info, r->first + (uint32_t)f).type;
      if (ft.kind == RG_K_LIST) et = AT(cs->types, rgi_type, ft.ref);
      if (ft.kind != RG_K_LIST || (x->kind == RG_DL_TABLE && et.kind != RG_K_RECORD)) {
        rgc_err(cs, x->pos, "field '%s' is %s: %s", x->text, rgc_tname(cs, ft, tn, sizeof tn),
                x->kind == RG_DL_TABLE ? "a table shows a list of records" : "a list shows a list");
        continue;
      }
      if (x->kind == RG_DL_TABLE) {
        const rgi_record *er = &AT(cs->records, rgi_record, et.ref);
        const char *ename = cs->pool + er->name;
        dl.first = cs->dcols.n;
        for (const rgi_dcolx *c = x->cols; c; c = c->next) {
          int64_t k = field_of(cs, er, c->name);
          uint32_t *slot;
          if (k < 0) {
            rgc_err(cs, c->pos, "'%s' is not a field of %s (the records of '%s')%s", c->name, ename,
                    x->text, rgc_hint_field(cs, et.ref, c->name));
            continue;
          }
          slot = rgc_push(cs, &cs->dcols);
          *slot = (uint32_t)k;
          er = &AT(cs->records, rgi_record, et.ref);
          r = &AT(cs->records, rgi_record, s->index);
        }
        dl.count = cs->dcols.n - dl.first;
        if (dl.count > 64) {
          rgc_err(cs, x->pos, "a table shows at most 64 columns");
          continue;
        }
      }
      if (x->kind == RG_DL_LIST && x->form) {
        if (et.kind != RG_K_RECORD) {
          rgc_err(cs, x->form_pos, "a form shows records; the elements of '%s' are %s", x->text,
                  rgc_tname(cs, et, tn, sizeof tn));
          continue;
        }
        if (!check_form(cs, x->form_pos, x->form, &AT(cs->records, rgi_record, et.ref),
                        cs->pool + AT(cs->records, rgi_record, et.ref).name, "form"))
          continue;
        dl.text = rgc_intern(cs, x->form);
      }
    }
    rgi_dline *slot = rgc_push(cs, &cs->dlines);
    *slot = dl;
    r = &AT(cs->records, rgi_record, s->index);
  }
  dp = rgc_push(cs, &cs->displays);
  dp->record = s->index;
  dp->title = rgc_intern(cs, dc->display ? dc->display : "");
  dp->first = first;
  dp->count = cs->dlines.n - first;
}
