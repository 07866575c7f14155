/*
** extends.c: a rule set built on another (part of the compiler; see
** compile_int.h).
**
** The base is parsed first (and its base, up to MAX_EXTENDS deep; a cycle
** is an error), then the derived file's declarations are applied to its
** list in order: new ones are added, `override` replaces one of the same
** name and kind (or cells of a table, or the body of a step or of a rule
** inside one; `override NAME` with notes alone adds them to NAME), `remove`
** drops one, `extend enum` adds members to an enum; each change must say
** where it comes from, and a file replaces each part once.  The merged tree
** is then checked as if it were one file.
*/
#define _XOPEN_SOURCE 700      /* realpath */
#include "compile_int.h"

#include "path.h"

#include <stdlib.h>
#include <string.h>

/* ======================================================================
** Extends: a rule set built on another
** ==================================================================== */

/* Returns whether declaration dc carries a `source` note. */
static bool has_source(const rgi_decl *dc) {
  for (const rgi_note *n = dc->notes; n; n = n->next)
    if (!n->assumed) return true;
  return false;
}

/* Finds the declaration named name (of a kind that has a name) in list;
** stores the link that points at it in *link.  Returns it or NULL. */
static rgi_decl *find_decl(rgi_decl **list, const char *name, rgi_decl ***link) {
  for (rgi_decl **l = list; *l; l = &(*l)->next)
    if ((*l)->kind <= RG_DE_INPUT && (*l)->kind != RG_DE_TEST && strcmp((*l)->name, name) == 0) {
      if (link) *link = l;
      return *l;
    }
  return NULL;
}

/* Finds the part (a statement of kind `kind`: a step or a rule) named
** name in the statements at *list, recursively; stores the link pointing at
** it, and in *within the innermost step or rule around it whose body an
** override of file `file` replaced (NULL when none).  Returns it or NULL. */
static rgi_stmt *find_part(rgi_stmt **list, rgi_skind kind, const char *name, uint32_t file,
                          rgi_stmt ***link, rgi_stmt **within) {
  for (rgi_stmt **l = list; *l; l = &(*l)->next) {
    rgi_stmt *s = *l, *hit;
    if (s->kind == kind && strcmp(s->str, name) == 0) {
      *link = l;
      return s;
    }
    if (s->body && (hit = find_part(&s->body, kind, name, file, link, within))) {
      if (!*within && (s->kind == RG_ST_STEP || s->kind == RG_ST_RULE) && s->replaced.line &&
          s->replaced.file == file)
        *within = s;
      return hit;
    }
    if (s->orelse && (hit = find_part(&s->orelse, kind, name, file, link, within))) return hit;
  }
  return NULL;
}

/* Offers to nr the names of the parts of kind `kind` (steps or rules) in
** the statements at list, recursively, and appends them, quoted and
** comma-separated, to o (up to `max`; *n counts them). */
static void part_names(const rgi_stmt *list, rgi_skind kind, rgc_near *nr, rg_out *o, uint32_t *n,
                       uint32_t max) {
  for (const rgi_stmt *s = list; s; s = s->next) {
    if (s->kind == kind) {
      rgc_near_offer(nr, s->str);
      if (*n < max) rg_printf(o, "%s\"%s\"", *n ? ", " : "", s->str);
      else if (*n == max) rg_puts(o, ", ...");
      ++*n;
    }
    if (s->body) part_names(s->body, kind, nr, o, n, max);
    if (s->orelse) part_names(s->orelse, kind, nr, o, n, max);
  }
}

/* Returns the hint for a name that no declaration of list has (as
** rgc_near_hint): the closest name of a declaration of kind `kind` (any
** kind that has a name when kind < 0). */
static const char *decl_hint(cstate *cs, rgi_decl *list, const char *name, int kind) {
  rgc_near nr;
  rgc_near_init(&nr, name);
  for (const rgi_decl *dc = list; dc; dc = dc->next)
    if (kind < 0 ? dc->kind <= RG_DE_INPUT && dc->kind != RG_DE_TEST : (int)dc->kind == kind)
      rgc_near_offer(&nr, dc->name);
  return rgc_near_hint(cs, &nr, "'");
}

/* Applies override (or remove) dc of a step or rule to procedure proc of
** the base: replaces the part's body (a rule's notes too: they come with
** the override) or unlinks it.  Reports a part that is not there, or that
** an override of the same file already replaced. */
static void change_part(cstate *cs, rgi_decl *dc, rgi_decl *proc) {
  const char *what = dc->part == RG_ST_RULE ? "rule" : "step";
  rgi_stmt **sl = NULL, *within = NULL;
  rgi_stmt *st = find_part(&proc->body, dc->part == RG_ST_RULE ? RG_ST_RULE : RG_ST_STEP, dc->name,
                          dc->pos.file, &sl, &within);
  if (!st) {
    /* Say which it has, and the closest. */
    rgc_near nr;
    rg_buf names;
    uint32_t n = 0;
    rgc_near_init(&nr, dc->name);
    rg_buf_init(&names);
    part_names(proc->body, dc->part == RG_ST_RULE ? RG_ST_RULE : RG_ST_STEP, &nr, &names.out, &n, 20);
    if (names.out.failed) {
      rg_buf_free(&names);
      rgc_oom(cs);
    }
    if (n)
      rgc_err(cs, dc->pos, "procedure %s has no %s \"%s\"%s (its %ss: %s)", dc->target, what, dc->name,
          rgc_near_hint(cs, &nr, "\""), what, names.data);
    else
      rgc_err(cs, dc->pos, "procedure %s has no %s \"%s\" (it has no %ss)", dc->target, what, dc->name, what);
    rg_buf_free(&names);
    return;
  }
  if (st->replaced.line && st->replaced.file == dc->pos.file) {
    rgc_err(cs, dc->pos, "%s \"%s\" of procedure %s is already replaced by the override at line %u",
        what, dc->name, dc->target, st->replaced.line);
    return;
  }
  if (within) {
    rgc_err(cs, dc->pos, "%s \"%s\" is part of %s \"%s\", which the override at line %u already replaces; change it there",
        what, dc->name, within->kind == RG_ST_RULE ? "rule" : "step", within->str, within->replaced.line);
    return;
  }
  if (dc->kind == RG_DE_REMOVE) {
    *sl = st->next;
    return;
  }
  st->body = dc->body;
  st->replaced = dc->pos;
  if (dc->part == RG_ST_RULE) st->notes = dc->notes;
}

/* Adds the members of `extend enum` dc to enum en of the base, each where
** it says (after or before a member, else at the end); a member without
** notes of its own carries the extend's (its source).  Reports a member
** already there, a place that names no member, and an enum grown past the
** 64 members an enum may have. */
static void extend_enum(cstate *cs, rgi_decl *dc, rgi_decl *en) {
  uint32_t n = 0;
  rgi_member *next;
  for (rgi_member *m = en->members; m; m = m->next) n++;
  for (rgi_member *m = dc->members; m; m = next) {
    rgi_member **at = NULL, *old = NULL;
    next = m->next;
    m->next = NULL;
    for (rgi_member *o = en->members; o; o = o->next)
      if (strcmp(o->code, m->code) == 0 || (m->display && o->display && strcmp(o->display, m->display) == 0)) {
        old = o;
        break;
      }
    if (old) {
      if (strcmp(old->code, m->code) == 0)
        rgc_err(cs, m->pos, "'%s' is already a member of %s (%s:%u)", m->code, en->name,
            cs->d->files[old->pos.file]->path, old->pos.line);
      else
        rgc_err(cs, m->pos, "display name \"%s\" already names member %s of %s", m->display,
            old->code, en->name);
      continue;
    }
    if (++n > 64) {
      rgc_err(cs, m->pos, "enum %s would have %u members; at most 64 are allowed", en->name, n);
      return;
    }
    if (m->anchor) {
      for (rgi_member **l = &en->members; *l; l = &(*l)->next)
        if (strcmp((*l)->code, m->anchor) == 0) { at = m->before ? l : &(*l)->next; break; }
      if (!at) {
        rgc_near nr;
        rgc_near_init(&nr, m->anchor);
        for (const rgi_member *o = en->members; o; o = o->next) rgc_near_offer(&nr, o->code);
        rgc_err(cs, m->anchor_pos, "'%s' is not a member of %s%s", m->anchor, en->name,
            rgc_near_hint(cs, &nr, "'"));
        n--;
        continue;
      }
    } else {
      at = &en->members;
      while (*at) at = &(*at)->next;
    }
    if (!m->notes) m->notes = dc->notes;
    m->next = *at;
    *at = m;
  }
}

/* Applies the declarations of a derived file to the merged list of its
** base, in order: new declarations are added, `override` replaces,
** `remove` drops.  Reports what does not match the base. */
static void apply_changes(cstate *cs, rgi_decl **base, rgi_decl *derived, const char *basepath) {
  rgi_decl *next, *cell_table = NULL;
  rgi_cell **cell_tail = NULL;
  for (rgi_decl *dc = derived; dc; dc = next) {
    rgi_decl **link = NULL, *old;
    next = dc->next;
    dc->next = NULL;
    if ((dc->is_override || dc->kind == RG_DE_REMOVE || dc->kind == RG_DE_EXTEND) && !has_source(dc)) {
      /* said, and the change made all the same: what else is wrong with
      ** the file is found in the same check */
      rgc_err(cs, dc->pos, "a change to the base rule set must say where it comes from: add source \"...\"");
    }
    switch (dc->kind) {
    case RG_DE_SCALE:
      for (rgi_decl **l = base; *l; l = &(*l)->next)
        if ((*l)->kind == RG_DE_SCALE) { link = l; break; }
      if (link) { dc->next = (*link)->next; *link = dc; continue; }
      break;
    case RG_DE_EXTEND:
      old = find_decl(base, dc->name, NULL);
      if (!old || old->kind != RG_DE_ENUM) {
        rgc_err(cs, dc->pos, "there is no enum '%s' in %s to extend%s", dc->name, basepath,
            decl_hint(cs, *base, dc->name, RG_DE_ENUM));
        continue;
      }
      extend_enum(cs, dc, old);
      continue;
    case RG_DE_CELL:
      old = find_decl(base, dc->name, NULL);
      if (!old || old->kind != RG_DE_TABLE) {
        rgc_err(cs, dc->pos, "there is no table '%s' in %s to override%s", dc->name, basepath,
            decl_hint(cs, *base, dc->name, RG_DE_TABLE));
        continue;
      }
      {
        /* the tail of the last table changed is kept: a run of overrides
        ** of one table appends in constant time */
        rgi_cell **tail = old == cell_table ? cell_tail : &old->changes;
        while (*tail) tail = &(*tail)->next;
        dc->cells->notes = dc->notes;
        *tail = dc->cells;
        cell_table = old;
        cell_tail = tail;
      }
      continue;
    case RG_DE_NOTES:
      /* notes on a declaration of the base (its value unchanged): after its own */
      old = find_decl(base, dc->name, NULL);
      if (!old) {
        rgc_err(cs, dc->pos, "there is no '%s' in %s to add notes to", dc->name, basepath);
        continue;
      }
      {
        rgi_note **tail = &old->notes;
        while (*tail) tail = &(*tail)->next;
        *tail = dc->notes;
      }
      continue;
    case RG_DE_STRATEGY: case RG_DE_DISPLAY:
      /* by kind and name (a display's name is its record's): a strategy or
      ** display of the base is replaced only by an override */
      old = NULL;
      for (rgi_decl **l = base; *l; l = &(*l)->next)
        if ((*l)->kind == dc->kind && strcmp((*l)->name, dc->name) == 0) { old = *l; link = l; break; }
      if (dc->is_override && !old) {
        rgc_err(cs, dc->pos, "there is no %s '%s' in %s to override%s", rgc_kindname[dc->kind],
                dc->name, basepath, decl_hint(cs, *base, dc->name, (int)dc->kind));
        continue;
      }
      if (!dc->is_override && old) {
        rgc_err(cs, dc->pos, "%s '%s' is already declared in %s (line %u); write override to "
                "replace it", rgc_kindname[dc->kind], dc->name, basepath, old->pos.line);
        continue;
      }
      if (old) {
        /* an override of the default strategy stays the default */
        if (old->is_default && !dc->is_default) {
          dc->is_default = true;
          dc->default_pos = old->default_pos;
        }
        dc->next = old->next;
        *link = dc;
        continue;
      }
      break;
    case RG_DE_STEP: case RG_DE_REMOVE:
      if (dc->kind == RG_DE_REMOVE && !dc->target) {
        old = find_decl(base, dc->name, &link);
        if (!old) {
          rgc_err(cs, dc->pos, "there is no '%s' in %s to remove%s", dc->name, basepath,
              decl_hint(cs, *base, dc->name, -1));
          continue;
        }
        *link = old->next;
        continue;
      }
      old = find_decl(base, dc->target, NULL);
      if (!old || old->kind != RG_DE_PROC) {
        rgc_err(cs, dc->pos, "there is no procedure '%s' in %s%s", dc->target, basepath,
            decl_hint(cs, *base, dc->target, RG_DE_PROC));
        continue;
      }
      change_part(cs, dc, old);
      continue;
    default:
      old = find_decl(base, dc->name, &link);
      if (dc->is_override) {
        if (!old) {
          rgc_err(cs, dc->pos, "there is no '%s' in %s to override%s", dc->name, basepath,
              decl_hint(cs, *base, dc->name, (int)dc->kind));
          continue;
        }
        if (old->is_override && old->pos.file == dc->pos.file) {
          rgc_err(cs, dc->pos, "'%s' is already replaced by the override at line %u", dc->name,
              old->pos.line);
          continue;
        }
        if (old->kind != dc->kind) {
          rgc_err(cs, dc->pos, "'%s' is %s %s in %s; an override must be one too", dc->name,
              old->kind == RG_DE_ENUM || old->kind == RG_DE_INPUT ? "an" : "a", rgc_kindname[old->kind], basepath);
          continue;
        }
        dc->next = old->next;
        *link = dc;
        continue;
      }
      if (old) {
        rgc_err(cs, dc->pos, "'%s' is already declared in %s (line %u); write override to replace it",
            dc->name, basepath, old->pos.line);
        continue;
      }
      break;
    }
    /* A new declaration: append. */
    {
      rgi_decl **tail = base;
      while (*tail) tail = &(*tail)->next;
      *tail = dc;
    }
  }
}

/* Fills link l for the file at path: shown as rgi_path_norm writes it;
** known by its canonical path (realpath) when the files come from the
** disk (rg_file_loader) and it resolves there, else by the shown path. */
static void link_of(cstate *cs, const char *path, rgc_link *l) {
  char norm[4096];
  rgi_path_norm(norm, sizeof norm, path);
  l->shown = rgc_strdup(cs, norm);
  l->id = l->shown;
  if (cs->loader == &rg_file_loader) {
    char *real = realpath(path, NULL);
    if (real) {
      l->id = rgc_strdup(cs, real);
      free(real);
    }
  }
}

/* Parses the rule set in source file `file` and, when it extends another,
** the chain of its bases (asked of the loader), merged.  chain holds the
** files that extend it, depth of them (chain[depth] is this one when depth
** > 0): a base already there closes a cycle, reported at the `extends`
** that reaches it, naming the files around the cycle.  Returns the merged
** tree (a change that does not fit its base reported and left out), or
** NULL after reporting a file that does not parse or a base not loaded. */
rgi_ast_file *rgc_load_rules(cstate *cs, uint32_t file, rgc_link *chain, int depth) {
  rgi_diag *d = cs->d;
  const char *path = d->files[file]->path, *bpath;
  rgi_ast_file *ast, *base;
  int errors0 = d->errors;
  uint32_t bfile;
  const rgi_pos *at;
  rgc_link next;
  if (depth == 0) link_of(cs, path, &chain[0]);
  ast = rgi_parse(d, file, cs->A);
  if (!ast) rgc_oom(cs);
  if (d->errors > errors0) return NULL;
  if (!ast->header || !ast->header->extends) {
    for (rgi_decl *dc = ast->decls; dc; dc = dc->next)
      if (dc->is_override || dc->kind == RG_DE_REMOVE || dc->kind == RG_DE_CELL ||
          dc->kind == RG_DE_STEP || dc->kind == RG_DE_EXTEND)
        rgc_err(cs, dc->pos, "only a rule set that extends another can change it: add extends \"BASE\" to the ruleset header");
    return d->errors > errors0 ? NULL : ast;
  }
  at = &ast->header->extends_pos;
  if (rgi_diag_fetch(d, cs->loader, path, ast->header->extends, RG_LOAD_RULES, at, &bfile)) {
    if (cs->A->failed) rgc_oom(cs);
    return NULL;
  }
  bpath = d->files[bfile]->path;
  link_of(cs, bpath, &next);
  for (int i = 0; i <= depth; i++)
    if (strcmp(chain[i].id, next.id) == 0) {
      /* The chain from the repeated file back to itself. */
      rg_buf b;
      rg_buf_init(&b);
      for (int j = i; j <= depth; j++) rg_printf(&b.out, "%s extends ", chain[j].shown);
      rg_puts(&b.out, chain[i].shown);
      if (b.out.failed) {
        rg_buf_free(&b);
        rgc_oom(cs);
      }
      rgc_err(cs, *at, "rule sets extend each other in a cycle: %s", b.data);
      rg_buf_free(&b);
      return NULL;
    }
  if (depth + 1 >= MAX_EXTENDS) {
    rgc_err(cs, *at, "too many rule sets extend each other (limit %d)", MAX_EXTENDS);
    return NULL;
  }
  chain[depth + 1] = next;
  base = rgc_load_rules(cs, bfile, chain, depth + 1);
  if (!base) return NULL;
  /* The base's tests check the base's sheet; a rule set that changes it
  ** has tests of its own. */
  for (rgi_decl **l = &base->decls; *l;)
    if ((*l)->kind == RG_DE_TEST) *l = (*l)->next;
    else l = &(*l)->next;
  apply_changes(cs, &base->decls, ast->decls, bpath);
  base->header = ast->header;
  /* A change that did not fit its base was said and left out; the rest is
  ** checked on (the compile fails at its end), so one check finds them all. */
  return base;
}
