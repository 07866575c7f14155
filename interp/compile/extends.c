/*
** extends.c: a rule set built on another (part of the compiler; see
** compile_int.h).
**
** The base is parsed first (and its base, up to MAX_EXTENDS deep; a cycle
** is an error), then the derived file's declarations are applied to its
** list in order: new ones are added, `override` replaces one of the same
** name and kind (or cells of a table, or the body of a step or of a rule
** inside one), `remove` drops one; each change must say where it comes
** from, and a file replaces each part once.  The merged tree
** is then checked as if it were one file.
*/
#include "compile_int.h"

#include <string.h>

/* ======================================================================
** Extends: a rule set built on another
** ==================================================================== */

/* Returns whether declaration dc carries a `source` note. */
static bool has_source(const rg_decl *dc) {
  for (const rg_note *n = dc->notes; n; n = n->next)
    if (!n->assumed) return true;
  return false;
}

/* Finds the declaration named name (of a kind that has a name) in list;
** stores the link that points at it in *link.  Returns it or NULL. */
static rg_decl *find_decl(rg_decl **list, const char *name, rg_decl ***link) {
  for (rg_decl **l = list; *l; l = &(*l)->next)
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
static rg_stmt *find_part(rg_stmt **list, rg_skind kind, const char *name, uint32_t file,
                          rg_stmt ***link, rg_stmt **within) {
  for (rg_stmt **l = list; *l; l = &(*l)->next) {
    rg_stmt *s = *l, *hit;
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

/* Applies override (or remove) dc of a step or rule to procedure proc of
** the base: replaces the part's body (a rule's notes too: they come with
** the override) or unlinks it.  Reports a part that is not there, or that
** an override of the same file already replaced. */
static void change_part(cstate *cs, rg_decl *dc, rg_decl *proc) {
  const char *what = dc->part == RG_ST_RULE ? "rule" : "step";
  rg_stmt **sl = NULL, *within = NULL;
  rg_stmt *st = find_part(&proc->body, dc->part == RG_ST_RULE ? RG_ST_RULE : RG_ST_STEP, dc->name,
                          dc->pos.file, &sl, &within);
  if (!st) {
    rgc_err(cs, dc->pos, "procedure %s has no %s \"%s\"", dc->target, what, dc->name);
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

/* Applies the declarations of a derived file to the merged list of its
** base, in order: new declarations are added, `override` replaces,
** `remove` drops.  Reports what does not match the base. */
static void apply_changes(cstate *cs, rg_decl **base, rg_decl *derived, const char *basepath) {
  rg_decl *next;
  for (rg_decl *dc = derived; dc; dc = next) {
    rg_decl **link = NULL, *old;
    next = dc->next;
    dc->next = NULL;
    if ((dc->is_override || dc->kind == RG_DE_REMOVE) && !has_source(dc)) {
      rgc_err(cs, dc->pos, "a change to the base rule set must say where it comes from: add source \"...\"");
      continue;
    }
    switch (dc->kind) {
    case RG_DE_SCALE:
      for (rg_decl **l = base; *l; l = &(*l)->next)
        if ((*l)->kind == RG_DE_SCALE) { link = l; break; }
      if (link) { dc->next = (*link)->next; *link = dc; continue; }
      break;
    case RG_DE_CELL:
      old = find_decl(base, dc->name, NULL);
      if (!old || old->kind != RG_DE_TABLE) {
        rgc_err(cs, dc->pos, "there is no table '%s' in %s to override", dc->name, basepath);
        continue;
      }
      {
        rg_cell **tail = &old->changes;
        while (*tail) tail = &(*tail)->next;
        dc->cells->notes = dc->notes;
        *tail = dc->cells;
      }
      continue;
    case RG_DE_STRATEGY: case RG_DE_DISPLAY:
      /* by kind and name (a display's name is its record's): a strategy or
      ** display of the base is replaced only by an override */
      old = NULL;
      for (rg_decl **l = base; *l; l = &(*l)->next)
        if ((*l)->kind == dc->kind && strcmp((*l)->name, dc->name) == 0) { old = *l; link = l; break; }
      if (dc->is_override && !old) {
        rgc_err(cs, dc->pos, "there is no %s '%s' in %s to override", rgc_kindname[dc->kind],
                dc->name, basepath);
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
          rgc_err(cs, dc->pos, "there is no '%s' in %s to remove", dc->name, basepath);
          continue;
        }
        *link = old->next;
        continue;
      }
      old = find_decl(base, dc->target, NULL);
      if (!old || old->kind != RG_DE_PROC) {
        rgc_err(cs, dc->pos, "there is no procedure '%s' in %s", dc->target, basepath);
        continue;
      }
      change_part(cs, dc, old);
      continue;
    default:
      old = find_decl(base, dc->name, &link);
      if (dc->is_override) {
        if (!old) {
          rgc_err(cs, dc->pos, "there is no '%s' in %s to override", dc->name, basepath);
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
      rg_decl **tail = base;
      while (*tail) tail = &(*tail)->next;
      *tail = dc;
    }
  }
}

/* Parses the rule set in source file `file` and, when it extends another,
** the chain of its bases (asked of the loader), merged.  chain holds the
** paths of the files that extend it, depth of them (for cycles).  Returns
** the merged tree, or NULL after reporting. */
rg_ast_file *rgc_load_rules(cstate *cs, uint32_t file, const char **chain, int depth) {
  rg_diag *d = cs->d;
  const char *path = d->files[file]->path, *bpath;
  rg_ast_file *ast, *base;
  int errors0 = d->errors;
  uint32_t bfile;
  const rg_pos *at;
  chain[depth] = path;
  ast = rg_parse(d, file, cs->A);
  if (!ast) rgc_oom(cs);
  if (d->errors > errors0) return NULL;
  if (!ast->header || !ast->header->extends) {
    for (rg_decl *dc = ast->decls; dc; dc = dc->next)
      if (dc->is_override || dc->kind == RG_DE_REMOVE || dc->kind == RG_DE_CELL || dc->kind == RG_DE_STEP)
        rgc_err(cs, dc->pos, "only a rule set that extends another can change it: add extends \"BASE\" to the ruleset header");
    return d->errors > errors0 ? NULL : ast;
  }
  at = &ast->header->extends_pos;
  if (rg_diag_fetch(d, cs->loader, path, ast->header->extends, RG_LOAD_RULES, at, &bfile)) {
    if (cs->A->failed) rgc_oom(cs);
    return NULL;
  }
  bpath = d->files[bfile]->path;
  for (int i = 0; i <= depth; i++)
    if (strcmp(chain[i], bpath) == 0) {
      rgc_err(cs, *at, "rule sets extend each other in a cycle: %s extends %s again", path, bpath);
      return NULL;
    }
  if (depth + 1 >= MAX_EXTENDS) {
    rgc_err(cs, *at, "too many rule sets extend each other (limit %d)", MAX_EXTENDS);
    return NULL;
  }
  base = rgc_load_rules(cs, bfile, chain, depth + 1);
  if (!base) return NULL;
  /* The base's tests check the base's sheet; a rule set that changes it
  ** has tests of its own. */
  for (rg_decl **l = &base->decls; *l;)
    if ((*l)->kind == RG_DE_TEST) *l = (*l)->next;
    else l = &(*l)->next;
  apply_changes(cs, &base->decls, ast->decls, bpath);
  base->header = ast->header;
  return d->errors > errors0 ? NULL : base;
}
