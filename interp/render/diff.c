/*
** diff.c: comparing two modules into a change list (see diff.h).
**
** Each section has one function that walks both modules and appends its
** changes in print order: first what is in a (removed or changed, in a's
** order), then what is only in b.  An item with changes inside it (an enum,
** a record, a table, a procedure) is appended lazily, at its first inner
** change, so that an item without any is never listed.
*/
#include "hash.h"
#include "diff.h"
#include "grow.h"

#include "align.h"
#include "regula_front.h"
#include "opcodes.h"
#include "path.h"
#include "value.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the declarations of one kind of a module are found by name (see
** ---- names below). */
typedef struct nindex {
  const rgi_module *m;
  const char *base;         /* the uint32_t name of item k: base + k * stride */
  size_t stride;
  uint32_t n;
  int display;              /* items are displays: named by their record */
  int no_tests;             /* procedures: tests are never found */
  uint32_t *slot;           /* open addressing: k + 1, 0 empty */
  uint32_t cap;             /* a power of two above n; 0: nothing built */
  uint32_t key;             /* mixed into the hashes (ix_build) */
} nindex;

/* The kinds of declaration found by name, each with an nindex per side. */
enum { IX_UNIT, IX_ENUM, IX_RECORD, IX_NAMED, IX_INPUT, IX_TABLE, IX_PROC, IX_STRATEGY,
       IX_DISPLAY, NIX };

/* The LOOKUP instructions of a module by table (find_dice), in the order
** of the procedures (tests left out) and of their code: those of table t
** are pc[first[t]..first[t+1]), of procedure proc[same]. */
typedef struct lookups {
  uint32_t *first, *pc, *proc;
  int built;
} lookups;

/* The comparison's state: the list it fills and the two modules. */
typedef struct dctx {
  rgi_diff *d;
  const rgi_module *a, *b;
  const rgi_diff_hint *hints;
  int nhints;
  const rgi_diff_runner *run; /* runs a dice key's helper, or NULL */
  int oom;                  /* an allocation failed: the list is dropped */
  int32_t *fmap;            /* a's file index -> b's of the same path, -1 */
  uint32_t helpers_run;     /* tables whose key helper was run (diff_odds):
                            ** at most MAXHELPED, each building a VM */
  rgi_change scratch;        /* what add() hands out once oom is set */
  nindex ix[NIX][2];        /* names of a [0] and b [1], by kind */
  lookups lk[2];            /* a's [0] and b's [1], made at the first find_dice */
  uint32_t *pairs;          /* same_value: open addressing over pair, or NULL */
  rgi_value (*pair)[2];     /* a's named constants' values beside b's of the name */
  uint32_t pcap;            /* of pairs: a power of two, 0 when none */
  uint64_t pkey;            /* mixed into the pairs' hashes */
} dctx;

/* Returns string s of m's pool ("" when out of range; owned by m). */
static const char *S(const rgi_module *m, uint32_t s) { return rgi_module_str(m, s); }

/* Returns the change at index i of c's list (the scratch once oom: i may be
** RG_DIFF_NONE then). */
static rgi_change *at(dctx *c, uint32_t i) {
  return c->oom || i >= c->d->n ? &c->scratch : &c->d->changes[i];
}

/* Appends a change (both sides empty, no cause) and returns its index, or
** RG_DIFF_NONE with c->oom set when memory ran out. */
static uint32_t add(dctx *c, int kind, int what, int section, uint32_t parent, const char *name) {
  rgi_diff *d = c->d;
  rgi_change *ch;
  if (c->oom) return RG_DIFF_NONE;
  if (d->n == d->cap) {
    rgi_change *p = rgi_grow(d->changes, &d->cap, 64, sizeof *p);
    if (!p) {
      c->oom = 1;
      return RG_DIFF_NONE;
    }
    d->changes = p;
  }
  ch = &d->changes[d->n];
  memset(ch, 0, sizeof *ch);
  ch->kind = (uint8_t)kind;
  ch->what = (uint8_t)what;
  ch->section = (uint8_t)section;
  ch->parent = parent;
  ch->cause = RG_DIFF_NONE;
  ch->name = name;
  ch->a.index = ch->b.index = RG_DIFF_NONE;
  return d->n++;
}

/* Returns an arena copy of s (NULL stays NULL), or "" with c->oom set. */
static const char *keep(dctx *c, const char *s) {
  char *p;
  if (!s) return NULL;
  p = rgi_arena_strdup(&c->d->arena, s);
  if (!p) {
    c->oom = 1;
    return "";
  }
  return p;
}

/* Sets the place of side s: file index `file` of m at `line` ("" when the
** module does not name the file, which reads as unknown). */
static void place(rgi_diff_side *s, const rgi_module *m, uint32_t file, uint32_t line) {
  s->file = file < m->nfiles ? S(m, m->files[file]) : "";
  s->line = file < m->nfiles ? line : 0;
}

/* Sets the place of side s to the source line of instruction pc of m. */
static void place_pc(rgi_diff_side *s, const rgi_module *m, uint32_t pc) {
  if (pc >= m->nlines) {
    s->file = "";
    s->line = 0;
    return;
  }
  place(s, m, m->lines[pc].file, m->lines[pc].line);
}

/* Writes value v of type t of m into buf[0..size): a text in double quotes,
** anything else as rgi_value_format writes it. */
static void fmtv(char *buf, size_t size, const rgi_module *m, rgi_type t, rgi_value v) {
  if (t.kind == RG_K_TEXT) {
    snprintf(buf, size, "\"%s\"", S(m, (uint32_t)v));
    return;
  }
  rgi_value_format(buf, size, m, m->heap, m->nheap, t, v);
}

/* A value formatted whole (fmt_whole): a short one in text, a longer one
** in big, so that two values that differ past sizeof text bytes still
** compare different.  Zero it with whole_init, free it with whole_free. */
typedef struct whole {
  char text[1024];
  rg_buf big;
  int failed;               /* big ran out of memory */
} whole;

/* Makes w empty. */
static void whole_init(whole *w) {
  w->text[0] = '\0';
  rg_buf_init(&w->big);
  w->failed = 0;
}

/* Frees what w holds; returns whether its memory ran out. */
static int whole_free(whole *w) {
  rg_buf_free(&w->big);
  return w->failed;
}

/* Writes value v of type t of m into w as fmtv does, whole, and a `*` after
** it when starred.  Returns the text (w->text, or w->big's); w->text cut
** short, with w->failed set, when big ran out of memory.  The text lives
** until w's next use. */
static const char *fmt_whole(whole *w, const rgi_module *m, rgi_type t, rgi_value v, int starred) {
  char *buf = w->text;
  size_t size = sizeof w->text;
  rg_buf *big = &w->big;
  fmtv(buf, size, m, t, v);
  if (starred && strlen(buf) + 2 < size) strcat(buf, "*");
  if (strlen(buf) + 2 < size) return buf;
  big->len = 0;
  if (big->data) big->data[0] = '\0';
  if (t.kind == RG_K_TEXT) rg_printf(&big->out, "\"%s\"", S(m, (uint32_t)v));
  else rgi_value_write(&big->out, m, m->heap, m->nheap, t, v);
  if (starred) rg_putc(&big->out, '*');
  if (big->out.failed || !big->data) {
    w->failed = 1;
    return buf;
  }
  return big->data;
}

/* Sets side s's typed value and its text (fmtv). */
static void set_value(dctx *c, rgi_diff_side *s, rgi_type t, rgi_value v, const char *text) {
  s->type = t;
  s->value = v;
  s->text = keep(c, text);
}

/* ---- names ------------------------------------------------------------ */

/* Each section finds the items of one side by name in the other; with a
** scan of the other's items for each that is quadratic (1 MB of constants:
** 78 s).  So each kind of declaration of each side is indexed once, by a
** hash of its name, and found in constant time, the first of its name as
** a scan would. */

/* Returns a hash of s (FNV-1a). */

/* Returns the name of item k of x (owned by x->m). */
static const char *ix_name(const nindex *x, uint32_t k) {
  if (x->display) return S(x->m, x->m->records[x->m->displays[k].record].name);
  return S(x->m, *(const uint32_t *)(const void *)(x->base + (size_t)k * x->stride));
}

/* Returns the first slot of name's probe sequence in x (x->cap > 0). */
static uint32_t ix_start(const nindex *x, const char *name) {
  return rgi_hash_mix(rgi_hash_text(name) ^ x->key) & (x->cap - 1);
}

/* Returns the index of the item of x named name, or -1. */
static int ix_find(const nindex *x, const char *name) {
  if (!x->cap) return -1;
  for (uint32_t i = ix_start(x, name); x->slot[i]; i = (i + 1) & (x->cap - 1))
    if (strcmp(ix_name(x, x->slot[i] - 1), name) == 0) return (int)(x->slot[i] - 1);
  return -1;
}

/* Indexes x's n items by name (x's other fields set): the first of each
** name (tests never, in a no_tests index), so that ix_find finds what a
** scan of the items would.  The key comes from all the names, so names
** chosen to share slots under one key share them under no other.  Sets
** c->oom when memory runs out (then nothing is found). */
static void ix_build(dctx *c, nindex *x) {
  uint32_t cap = 16, sum = 0;
  while (cap <= x->n * 2u && cap < (1u << 31)) cap *= 2;
  if (x->n == 0 || x->n >= cap) return;
  x->slot = rg_malloc((size_t)cap * sizeof *x->slot);
  if (!x->slot) {
    c->oom = 1;
    return;
  }
  memset(x->slot, 0, (size_t)cap * sizeof *x->slot);
  for (uint32_t k = 0; k < x->n; k++) sum = sum * 31u + rgi_hash_text(ix_name(x, k));
  x->key = rgi_hash_mix(sum);
  x->cap = cap;
  for (uint32_t k = 0; k < x->n; k++) {
    if (x->no_tests && rgi_module_is_test(x->m, k)) continue;
    const char *name = ix_name(x, k);
    uint32_t i = ix_start(x, name);
    while (x->slot[i] && strcmp(ix_name(x, x->slot[i] - 1), name) != 0) i = (i + 1) & (cap - 1);
    if (!x->slot[i]) x->slot[i] = k + 1;
  }
}

/* Sets x to the n items at base (each stride bytes, starting with its
** uint32_t name) of m, and indexes them. */
static void ix_of(dctx *c, nindex *x, const rgi_module *m, const void *base, size_t stride, uint32_t n) {
  memset(x, 0, sizeof *x);
  x->m = m;
  x->base = base;
  x->stride = stride;
  x->n = base ? n : 0;
  ix_build(c, x);
}

/* ix_of over the array `arr` of `n` items whose field `name` names them. */
#define IX_OF(c, x, m, arr, n) \
  ix_of((c), (x), (m), (n) ? (const void *)&(arr)[0].name : NULL, sizeof (arr)[0], (n))

/* Indexes the declarations of a and b by name, kind by kind. */
static void names_build(dctx *c) {
  for (int side = 0; side < 2; side++) {
    const rgi_module *m = side ? c->b : c->a;
    nindex *x = NULL;
    IX_OF(c, &c->ix[IX_UNIT][side], m, m->units, m->nunits);
    IX_OF(c, &c->ix[IX_ENUM][side], m, m->enums, m->nenums);
    IX_OF(c, &c->ix[IX_RECORD][side], m, m->records, m->nrecords);
    IX_OF(c, &c->ix[IX_NAMED][side], m, m->named, m->nnamed);
    IX_OF(c, &c->ix[IX_INPUT][side], m, m->inputs, m->ninputs);
    IX_OF(c, &c->ix[IX_TABLE][side], m, m->tables, m->ntables);
    IX_OF(c, &c->ix[IX_STRATEGY][side], m, m->strategies, m->nstrategies);
    x = &c->ix[IX_PROC][side];
    memset(x, 0, sizeof *x);
    x->m = m;
    x->no_tests = 1;
    x->base = m->nprocs ? (const char *)&m->procs[0].name : NULL;
    x->stride = sizeof m->procs[0];
    x->n = m->nprocs;
    ix_build(c, x);
    x = &c->ix[IX_DISPLAY][side];
    memset(x, 0, sizeof *x);
    x->m = m;
    x->display = 1;
    x->n = m->ndisplays;
    ix_build(c, x);
  }
}

/* Returns the index of the declaration of kind `kind` named name in side
** m (c->a or c->b), or -1. */
static int find_decl(const dctx *c, int kind, const rgi_module *m, const char *name) {
  return ix_find(&c->ix[kind][m == c->a ? 0 : 1], name);
}

/* Frees the indexes of c. */
static void names_free(dctx *c) {
  for (int k = 0; k < NIX; k++)
    for (int side = 0; side < 2; side++) rg_free(c->ix[k][side].slot);
  for (int side = 0; side < 2; side++) {
    rg_free(c->lk[side].first);
    rg_free(c->lk[side].pc);
    rg_free(c->lk[side].proc);
  }
  rg_free(c->pairs);
  rg_free(c->pair);
}

/* Whether file index fa of a and fb of b are the same file (their paths
** normalized). */
static int same_file(const dctx *c, uint32_t fa, uint32_t fb) {
  char pa[1024], pb[1024];
  if (fa >= c->a->nfiles || fb >= c->b->nfiles) return 0;
  rgi_path_norm(pa, sizeof pa, S(c->a, c->a->files[fa]));
  rgi_path_norm(pb, sizeof pb, S(c->b, c->b->files[fb]));
  return strcmp(pa, pb) == 0;
}

/* Whether instruction pa of a and pb of b come from the same line and
** column of the same file.  Both are instructions of their modules, which
** are verified: a line entry per instruction, each naming a file of the
** module. */
static int same_place_pc(const dctx *c, uint32_t pa, uint32_t pb) {
  if (!c->fmap) return 0;
  const rgi_line *la = &c->a->lines[pa], *lb = &c->b->lines[pb];
  return c->fmap[la->file] == (int32_t)lb->file && la->line == lb->line && la->col == lb->col;
}

/* Whether a's code [sa, sa+n) and b's [sb, sb+n) come from the same lines
** of the same file, instruction by instruction: the same source, so a
** difference in what they do follows from what they use.  Both spans are
** code of a procedure of its (verified) module: a line entry each. */
static int same_source(const dctx *c, uint32_t sa, uint32_t sb, uint32_t n) {
  uint32_t fa = UINT32_MAX, fb = UINT32_MAX;
  for (uint32_t k = 0; k < n; k++) {
    const rgi_line *la = &c->a->lines[sa + k], *lb = &c->b->lines[sb + k];
    if (la->line != lb->line || la->col != lb->col) return 0;
    if (la->file != fa || lb->file != fb) {
      if (!same_file(c, la->file, lb->file)) return 0;
      fa = la->file;
      fb = lb->file;
    }
  }
  return 1;
}

/* Returns *head, first appending the RG_DW_CAUSE item of section `section`
** (its changes that follow from others, see diff.h) when it is
** RG_DIFF_NONE. */
static uint32_t cause_head(dctx *c, uint32_t *head, int section) {
  if (*head == RG_DIFF_NONE && !c->oom)
    *head = add(c, '~', RG_DW_CAUSE, section, RG_DIFF_NONE, NULL);
  return *head;
}

/* ---- header, units, enums, records ----------------------------------- */

/* The changes of the ruleset's name, revision and source. */
static void diff_header(dctx *c) {
  static const char *const what[] = { "name", "revision", "source" };
  const rgi_module *a = c->a, *b = c->b;
  uint32_t sa[3] = { a->name, a->revision, a->source }, sb[3] = { b->name, b->revision, b->source };
  for (int k = 0; k < 3; k++)
    if (strcmp(S(a, sa[k]), S(b, sb[k])) != 0) {
      uint32_t i = add(c, '~', RG_DW_HEADER, RG_DS_RULESET, RG_DIFF_NONE, what[k]);
      at(c, i)->a.text = S(a, sa[k]);
      at(c, i)->b.text = S(b, sb[k]);
    }
}

/* ---- strategies ------------------------------------------------------- */

/* Writes the head of rule r of strategy st of m ("\"season\"", "\"season\"
** for player A") into b, and its picks ("max card, first") into p; returns
** the index of the rule's first pick, or UINT32_MAX when there is no rule r. */
static uint32_t srule_text(const rgi_module *m, const rgi_strategy *st, uint32_t r, rg_buf *h,
                           rg_buf *p) {
  uint32_t i = st->first, end = st->first + st->count, first;
  static const char *const words[] = { "", "max", "min", "first", "random" };
  while (i < end && m->picks[i].rule != r) i++;
  if (i == end) return UINT32_MAX;
  first = i;
  h->len = p->len = 0;
  if (h->data) h->data[0] = '\0';
  if (p->data) p->data[0] = '\0';
  rg_printf(&h->out, "\"%s\"", S(m, m->picks[i].prompt));
  if (m->picks[i].who_set) {
    for (uint32_t c = 0; c < m->nchoices; c++)
      if (m->choices[c].prompt == m->picks[i].prompt) {
        rg_puts(&h->out, " for ");   /* whole: the texts are compared */
        rgi_value_write(&h->out, m, m->heap, m->nheap, m->choices[c].chooser, m->picks[i].who);
        break;
      }
  }
  for (; i < end && m->picks[i].rule == r; i++) {
    const rgi_pick *pk = &m->picks[i];
    if (i > first) rg_puts(&p->out, ", ");
    if (pk->kind == RG_PICK_VALUE) {
      for (uint32_t c = 0; c < m->nchoices; c++)
        if (m->choices[c].prompt == pk->prompt) {
          rgi_value_write(&p->out, m, m->heap, m->nheap, m->choices[c].option, pk->value);
          break;
        }
    } else {
      rg_puts(&p->out, pk->kind <= RG_PICK_RANDOM ? words[pk->kind] : "?");
      if (pk->field) {
        for (uint32_t c = 0; c < m->nchoices; c++)
          if (m->choices[c].prompt == pk->prompt && m->choices[c].option.kind == RG_K_RECORD) {
            const rgi_record *rec = &m->records[m->choices[c].option.ref];
            rg_printf(&p->out, " %s", S(m, m->fields[rec->first + pk->field - 1].name));
            break;
          }
      }
    }
  }
  return first;
}

/* The rules of strategy sa of a and sb of b (either may be NULL): each rule
** of one side matched by its head on the other, under head (a change of
** the strategy, or its addition or removal). */
static void diff_srules(dctx *c, uint32_t head, const rgi_strategy *sa, const rgi_strategy *sb) {
  rg_buf ha, pa, hb, pb;
  rg_buf_init(&ha); rg_buf_init(&pa); rg_buf_init(&hb); rg_buf_init(&pb);
  for (uint32_t r = 0; sa && srule_text(c->a, sa, r, &ha, &pa) != UINT32_MAX; r++) {
    int found = 0;
    for (uint32_t q = 0; sb && srule_text(c->b, sb, q, &hb, &pb) != UINT32_MAX; q++)
      if (ha.data && hb.data && strcmp(ha.data, hb.data) == 0) { found = 1; break; }
    if (found && strcmp(pa.data ? pa.data : "", pb.data ? pb.data : "") == 0) continue;
    rgi_change *ch = at(c, add(c, found ? '~' : '-', RG_DW_SRULE, RG_DS_STRATEGIES, head,
                              keep(c, ha.data ? ha.data : "")));
    ch->a.text = keep(c, pa.data ? pa.data : "");
    if (found) ch->b.text = keep(c, pb.data ? pb.data : "");
  }
  for (uint32_t q = 0; sb && srule_text(c->b, sb, q, &hb, &pb) != UINT32_MAX; q++) {
    int found = 0;
    for (uint32_t r = 0; sa && srule_text(c->a, sa, r, &ha, &pa) != UINT32_MAX; r++)
      if (ha.data && hb.data && strcmp(ha.data, hb.data) == 0) { found = 1; break; }
    if (found) continue;
    rgi_change *ch = at(c, add(c, '+', RG_DW_SRULE, RG_DS_STRATEGIES, head, keep(c, hb.data ? hb.data : "")));
    ch->b.text = keep(c, pb.data ? pb.data : "");
  }
  if (ha.out.failed || pa.out.failed || hb.out.failed || pb.out.failed) c->oom = 1;
  rg_buf_free(&ha); rg_buf_free(&pa); rg_buf_free(&hb); rg_buf_free(&pb);
}

/* The strategies only in a (-), only in b (+), and changed (~), by name,
** each with its rules. */
static void diff_strategies(dctx *c) {
  const rgi_module *a = c->a, *b = c->b;
  for (uint32_t i = 0; i < a->nstrategies; i++) {
    const rgi_strategy *sa = &a->strategies[i];
    int j = find_decl(c, IX_STRATEGY, b, S(a, sa->name));
    const rgi_strategy *sb = j >= 0 ? &b->strategies[j] : NULL;
    uint32_t n0 = c->d->n;
    uint32_t head = add(c, j < 0 ? '-' : '~', RG_DW_STRATEGY, RG_DS_STRATEGIES, RG_DIFF_NONE,
                        S(a, sa->name));
    if (head == RG_DIFF_NONE) return;
    at(c, head)->a.index = i;
    at(c, head)->a.text = S(a, sa->doc);
    if (sb) {
      at(c, head)->b.index = (uint32_t)j;
      at(c, head)->b.text = S(b, sb->doc);
    }
    diff_srules(c, head, sa, sb);
    if (sb && c->d->n == n0 + 1 && strcmp(S(a, sa->doc), S(b, sb->doc)) == 0)
      c->d->n = n0;                      /* the same strategy: no change */
  }
  for (uint32_t k = 0; k < b->nstrategies; k++) {
    const rgi_strategy *sb = &b->strategies[k];
    if (find_decl(c, IX_STRATEGY, a, S(b, sb->name)) >= 0) continue;
    uint32_t head = add(c, '+', RG_DW_STRATEGY, RG_DS_STRATEGIES, RG_DIFF_NONE, S(b, sb->name));
    if (head == RG_DIFF_NONE) return;
    at(c, head)->b.index = k;
    at(c, head)->b.text = S(b, sb->doc);
    diff_srules(c, head, NULL, sb);
  }
}

/* ---- displays --------------------------------------------------------- */

/* Writes line k of display d of m as written in the rule file into b. */
static void dline_text(const rgi_module *m, const rgi_display *d, uint32_t k, rg_buf *b) {
  const rgi_dline *dl = &m->dlines[d->first + k];
  const rgi_record *r = &m->records[d->record];
  b->len = 0;
  if (b->data) b->data[0] = '\0';
  if (dl->kind == RG_DL_FORM) {
    rg_printf(&b->out, "\"%s\"", S(m, dl->text));
    return;
  }
  rg_printf(&b->out, "%s %s", dl->kind == RG_DL_TABLE ? "table" : "list",
            S(m, m->fields[r->first + dl->field].name));
  if (dl->kind == RG_DL_TABLE) {
    rgi_type et = m->types[m->fields[r->first + dl->field].type.ref];
    const rgi_record *er = &m->records[et.ref];
    for (uint32_t c = 0; c < dl->count; c++)
      rg_printf(&b->out, "%s%s", c ? ", " : ": ", S(m, m->fields[er->first + m->dcols[dl->first + c]].name));
  } else if (dl->text) {
    rg_printf(&b->out, " shown \"%s\"", S(m, dl->text));
  }
}

/* Returns the display of record `name` in side m of c, or NULL. */
static const rgi_display *find_display(const dctx *c, const rgi_module *m, const char *name) {
  int k = find_decl(c, IX_DISPLAY, m, name);
  return k < 0 ? NULL : &m->displays[k];
}

/* Whether display d of m has a line written as text. */
static int has_dline(const rgi_module *m, const rgi_display *d, const char *text, rg_buf *scratch) {
  for (uint32_t k = 0; d && k < d->count; k++) {
    dline_text(m, d, k, scratch);
    if (strcmp(scratch->data ? scratch->data : "", text) == 0) return 1;
  }
  return 0;
}

/* The lines of display da (side a) missing from db (-), then those of db
** missing from da (+), under head. */
static void diff_dlines(dctx *c, uint32_t head, const rgi_display *da, const rgi_display *db) {
  rg_buf line, scratch;
  rg_buf_init(&line);
  rg_buf_init(&scratch);
  for (uint32_t k = 0; da && k < da->count; k++) {
    dline_text(c->a, da, k, &line);
    if (!has_dline(c->b, db, line.data ? line.data : "", &scratch))
      at(c, add(c, '-', RG_DW_DLINE, RG_DS_DISPLAYS, head, NULL))->a.text = keep(c, line.data ? line.data : "");
  }
  for (uint32_t k = 0; db && k < db->count; k++) {
    dline_text(c->b, db, k, &line);
    if (!has_dline(c->a, da, line.data ? line.data : "", &scratch))
      at(c, add(c, '+', RG_DW_DLINE, RG_DS_DISPLAYS, head, NULL))->b.text = keep(c, line.data ? line.data : "");
  }
  if (line.out.failed || scratch.out.failed) c->oom = 1;
  rg_buf_free(&line);
  rg_buf_free(&scratch);
}

/* The displays only in a (-), only in b (+), and changed (~), by the
** record they show, each with its lines added and removed. */
static void diff_displays(dctx *c) {
  const rgi_module *a = c->a, *b = c->b;
  for (uint32_t i = 0; i < a->ndisplays; i++) {
    const rgi_display *da = &a->displays[i];
    const char *name = S(a, a->records[da->record].name);
    const rgi_display *db = find_display(c, b, name);
    uint32_t n0 = c->d->n;
    uint32_t head = add(c, db ? '~' : '-', RG_DW_DISPLAY, RG_DS_DISPLAYS, RG_DIFF_NONE, name);
    if (head == RG_DIFF_NONE) return;
    at(c, head)->a.index = i;
    at(c, head)->a.text = S(a, da->title);
    if (db) {
      at(c, head)->b.index = (uint32_t)(db - b->displays);
      at(c, head)->b.text = S(b, db->title);
    }
    diff_dlines(c, head, da, db);
    if (db && c->d->n == n0 + 1 && strcmp(S(a, da->title), S(b, db->title)) == 0)
      c->d->n = n0;                      /* the same display */
  }
  for (uint32_t k = 0; k < b->ndisplays; k++) {
    const rgi_display *db = &b->displays[k];
    const char *name = S(b, b->records[db->record].name);
    if (find_display(c, a, name)) continue;
    uint32_t head = add(c, '+', RG_DW_DISPLAY, RG_DS_DISPLAYS, RG_DIFF_NONE, name);
    if (head == RG_DIFF_NONE) return;
    at(c, head)->b.index = k;
    at(c, head)->b.text = S(b, db->title);
    diff_dlines(c, head, NULL, db);
  }
}

/* Returns the index of unit `name` in side m of c, or -1. */
static int find_unit(const dctx *c, const rgi_module *m, const char *name) {
  return find_decl(c, IX_UNIT, m, name);
}

/* The units only in a (-) and only in b (+), matched by name. */
static void diff_units(dctx *c) {
  const rgi_module *a = c->a, *b = c->b;
  for (uint32_t i = 0; i < a->nunits; i++)
    if (find_unit(c, b, S(a, a->units[i].name)) < 0) {
      rgi_change *ch = at(c, add(c, '-', RG_DW_UNIT, RG_DS_UNITS, RG_DIFF_NONE, S(a, a->units[i].name)));
      ch->a.index = i;
      ch->a.text = S(a, a->units[i].display);
    }
  for (uint32_t i = 0; i < b->nunits; i++)
    if (find_unit(c, a, S(b, b->units[i].name)) < 0) {
      rgi_change *ch = at(c, add(c, '+', RG_DW_UNIT, RG_DS_UNITS, RG_DIFF_NONE, S(b, b->units[i].name)));
      ch->b.index = i;
      ch->b.text = S(b, b->units[i].display);
    }
}

/* Returns the position in enum e of m of the member with code `code`, or -1. */
static int find_member(const rgi_module *m, uint32_t e, const char *code) {
  const rgi_enum *en = &m->enums[e];
  for (uint32_t k = 0; k < en->count; k++)
    if (strcmp(S(m, m->members[en->first + k].code), code) == 0) return (int)k;
  return -1;
}

/* Returns enum e of m as "{ A, B }" ("{ A < B }" when ordered), kept in
** c's arena. */
static const char *enum_text(dctx *c, const rgi_module *m, uint32_t e) {
  const rgi_enum *en = &m->enums[e];
  rg_buf t;
  const char *r;
  rg_buf_init(&t);
  rg_puts(&t.out, "{");
  for (uint32_t k = 0; k < en->count; k++)
    rg_printf(&t.out, "%s %s", k ? (en->ordered ? " <" : ",") : "", S(m, m->members[en->first + k].code));
  rg_puts(&t.out, " }");
  if (t.out.failed) c->oom = 1;
  r = keep(c, t.data ? t.data : "");
  rg_buf_free(&t);
  return r;
}

/* Returns *head, first appending the `~` change of the item (what, name,
** indexes ia and ib) when *head is RG_DIFF_NONE. */
static uint32_t head_of(dctx *c, uint32_t *head, int what, int section, const char *name,
                        uint32_t ia, uint32_t ib) {
  if (*head == RG_DIFF_NONE && !c->oom) {
    *head = add(c, '~', what, section, RG_DIFF_NONE, name);
    at(c, *head)->a.index = ia;
    at(c, *head)->b.index = ib;
  }
  return *head;
}

/* The enums added and removed, and of enums on both sides the members
** added, removed or shown differently, and a change of order. */
static void diff_enums(dctx *c) {
  const rgi_module *a = c->a, *b = c->b;
  for (uint32_t i = 0; i < a->nenums; i++) {
    int j = find_decl(c, IX_ENUM, b, S(a, a->enums[i].name));
    if (j < 0) {
      rgi_change *ch = at(c, add(c, '-', RG_DW_ENUM, RG_DS_ENUMS, RG_DIFF_NONE, S(a, a->enums[i].name)));
      ch->a.index = i;
      ch->a.text = enum_text(c, a, i);
      continue;
    }
    const rgi_enum *ea = &a->enums[i], *eb = &b->enums[j];
    uint32_t head = RG_DIFF_NONE;
#define ENUM_HEAD() head_of(c, &head, RG_DW_ENUM, RG_DS_ENUMS, S(a, ea->name), i, (uint32_t)j)
    for (uint32_t k = 0; k < ea->count; k++) {
      const rgi_member_info *ma = &a->members[ea->first + k];
      int kb = find_member(b, (uint32_t)j, S(a, ma->code));
      if (kb < 0) {
        rgi_change *ch = at(c, add(c, '-', RG_DW_MEMBER, RG_DS_ENUMS, ENUM_HEAD(), S(a, ma->code)));
        ch->a.index = ea->first + k;
        ch->a.text = S(a, ma->display);
      } else if (strcmp(S(a, ma->display), S(b, b->members[eb->first + kb].display)) != 0) {
        rgi_change *ch = at(c, add(c, '~', RG_DW_MEMBER, RG_DS_ENUMS, ENUM_HEAD(), S(a, ma->code)));
        ch->a.index = ea->first + k;
        ch->a.text = S(a, ma->display);
        ch->b.index = eb->first + (uint32_t)kb;
        ch->b.text = S(b, b->members[eb->first + kb].display);
      }
    }
    for (uint32_t k = 0; k < eb->count; k++)
      if (find_member(a, i, S(b, b->members[eb->first + k].code)) < 0) {
        rgi_change *ch = at(c, add(c, '+', RG_DW_MEMBER, RG_DS_ENUMS, ENUM_HEAD(),
                                  S(b, b->members[eb->first + k].code)));
        ch->b.index = eb->first + k;
        ch->b.text = S(b, b->members[eb->first + k].display);
      }
    if (ea->ordered != eb->ordered) {
      rgi_change *ch = at(c, add(c, '~', RG_DW_ORDER, RG_DS_ENUMS, ENUM_HEAD(), S(a, ea->name)));
      ch->a.text = ea->ordered ? "ordered" : "unordered";
      ch->b.text = eb->ordered ? "ordered" : "unordered";
    }
#undef ENUM_HEAD
  }
  for (uint32_t j = 0; j < b->nenums; j++)
    if (find_decl(c, IX_ENUM, a, S(b, b->enums[j].name)) < 0) {
      rgi_change *ch = at(c, add(c, '+', RG_DW_ENUM, RG_DS_ENUMS, RG_DIFF_NONE, S(b, b->enums[j].name)));
      ch->b.index = j;
      ch->b.text = enum_text(c, b, j);
    }
}

/* Returns the index of record type `name` in side m of c, or -1. */
static int find_record(const dctx *c, const rgi_module *m, const char *name) {
  return find_decl(c, IX_RECORD, m, name);
}

/* Indexes the fields of record r of m into *x (ix_of). */
static void fields_index(dctx *c, nindex *x, const rgi_module *m, const rgi_record *r) {
  IX_OF(c, x, m, m->fields + r->first, r->count);
}

/* Returns the position of field `name` in the record x indexes, or -1. */
static int find_field(const nindex *x, const char *name) {
  return ix_find(x, name);
}

/* The record types added and removed, and of those on both sides the fields
** added, removed or retyped (compared by type name). */
static void diff_records(dctx *c) {
  const rgi_module *a = c->a, *b = c->b;
  char ta[RGI_TYPE_NAME_SIZE], tb[RGI_TYPE_NAME_SIZE];
  for (uint32_t i = 0; i < a->nrecords; i++) {
    const rgi_record *ra = &a->records[i];
    int j = find_record(c, b, S(a, ra->name));
    if (j < 0) {
      at(c, add(c, '-', RG_DW_RECORD, RG_DS_RECORDS, RG_DIFF_NONE, S(a, ra->name)))->a.index = i;
      continue;
    }
    const rgi_record *rb = &b->records[j];
    uint32_t head = RG_DIFF_NONE;
    nindex xa, xb;
    fields_index(c, &xa, a, ra);
    fields_index(c, &xb, b, rb);
    for (uint32_t k = 0; k < ra->count; k++) {
      const rgi_field_info *fa = &a->fields[ra->first + k];
      int found = find_field(&xb, S(a, fa->name));
      rgi_type_name(ta, sizeof ta, a, fa->type);
      if (found >= 0) rgi_type_name(tb, sizeof tb, b, b->fields[rb->first + found].type);
      if (found >= 0 && strcmp(ta, tb) == 0) continue;
      head_of(c, &head, RG_DW_RECORD, RG_DS_RECORDS, S(a, ra->name), i, (uint32_t)j);
      rgi_change *ch = at(c, add(c, found < 0 ? '-' : '~', RG_DW_FIELD, RG_DS_RECORDS, head, S(a, fa->name)));
      ch->a.index = ra->first + k;
      ch->a.text = keep(c, ta);
      if (found >= 0) {
        ch->b.index = rb->first + (uint32_t)found;
        ch->b.text = keep(c, tb);
      }
    }
    for (uint32_t l = 0; l < rb->count; l++) {
      const rgi_field_info *fb = &b->fields[rb->first + l];
      if (find_field(&xa, S(b, fb->name)) >= 0) continue;
      head_of(c, &head, RG_DW_RECORD, RG_DS_RECORDS, S(a, ra->name), i, (uint32_t)j);
      rgi_type_name(tb, sizeof tb, b, fb->type);
      rgi_change *ch = at(c, add(c, '+', RG_DW_FIELD, RG_DS_RECORDS, head, S(b, fb->name)));
      ch->b.index = rb->first + l;
      ch->b.text = keep(c, tb);
    }
    rg_free(xa.slot);
    rg_free(xb.slot);
  }
  for (uint32_t j = 0; j < b->nrecords; j++)
    if (find_record(c, a, S(b, b->records[j].name)) < 0)
      at(c, add(c, '+', RG_DW_RECORD, RG_DS_RECORDS, RG_DIFF_NONE, S(b, b->records[j].name)))->b.index = j;
}

/* ---- constants and inputs --------------------------------------------- */

/* Returns the index of named constant `name` in side m of c, or -1. */
static int find_named(const dctx *c, const rgi_module *m, const char *name) {
  return find_decl(c, IX_NAMED, m, name);
}

/* Returns the index of input `name` in side m of c, or -1. */
static int find_input(const dctx *c, const rgi_module *m, const char *name) {
  return find_decl(c, IX_INPUT, m, name);
}


/* Fills side s with named constant i of m: index, value, text, place. */
static void named_side(dctx *c, rgi_diff_side *s, const rgi_module *m, uint32_t i, const char *text) {
  const rgi_named *n = &m->named[i];
  s->index = i;
  set_value(c, s, n->type, n->value, text);
  place(s, m, n->file, n->line);
}

/* The named constants added, removed or changed (compared by their text),
** then the inputs added, removed or with another default. */
static void diff_consts(dctx *c) {
  const rgi_module *a = c->a, *b = c->b;
  const char *va, *vb = NULL;
  whole wa, wb;
  whole_init(&wa);
  whole_init(&wb);
  /* Those written elsewhere in b first; then, under one RG_DW_CAUSE item,
  ** those declared at the same place on both sides (same source: their
  ** value follows from a scale or the constants they are computed from). */
  uint32_t head = RG_DIFF_NONE;
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t i = 0; i < a->nnamed; i++) {
      const rgi_named *na = &a->named[i];
      int j = find_named(c, b, S(a, na->name));
      va = fmt_whole(&wa, a, na->type, na->value, na->starred);
      if (j >= 0)
        vb = fmt_whole(&wb, b, b->named[j].type, b->named[j].value,
                       b->named[j].starred);
      if (j >= 0 && strcmp(va, vb) == 0) continue;
      int derived = j >= 0 && na->line == b->named[j].line && same_file(c, na->file, b->named[j].file);
      if (derived != pass) continue;
      uint32_t parent = derived ? cause_head(c, &head, RG_DS_CONSTANTS) : RG_DIFF_NONE;
      rgi_change *ch = at(c, add(c, j < 0 ? '-' : '~', RG_DW_CONST, RG_DS_CONSTANTS, parent, S(a, na->name)));
      ch->cause = parent;
      ch->derived = (uint8_t)derived;
      named_side(c, &ch->a, a, i, va);
      if (j >= 0) named_side(c, &ch->b, b, (uint32_t)j, vb);
    }
  for (uint32_t j = 0; j < b->nnamed; j++)
    if (find_named(c, a, S(b, b->named[j].name)) < 0) {
      rgi_change *ch = at(c, add(c, '+', RG_DW_CONST, RG_DS_CONSTANTS, RG_DIFF_NONE, S(b, b->named[j].name)));
      vb = fmt_whole(&wb, b, b->named[j].type, b->named[j].value,
                     b->named[j].starred);
      named_side(c, &ch->b, b, j, vb);
    }
  for (uint32_t i = 0; i < a->ninputs; i++) {
    const rgi_input *ia = &a->inputs[i];
    int j = find_input(c, b, S(a, ia->name));
    va = fmt_whole(&wa, a, ia->type, ia->value, 0);
    if (j >= 0) vb = fmt_whole(&wb, b, b->inputs[j].type, b->inputs[j].value, 0);
    if (j >= 0 && strcmp(va, vb) == 0) continue;
    rgi_change *ch = at(c, add(c, j < 0 ? '-' : '~', RG_DW_INPUT, RG_DS_CONSTANTS, RG_DIFF_NONE, S(a, ia->name)));
    ch->a.index = i;
    set_value(c, &ch->a, ia->type, ia->value, va);
    if (j >= 0) {
      ch->b.index = (uint32_t)j;
      set_value(c, &ch->b, b->inputs[j].type, b->inputs[j].value, vb);
    }
  }
  for (uint32_t k = 0; k < b->ninputs; k++)
    if (find_input(c, a, S(b, b->inputs[k].name)) < 0) {
      rgi_change *ch = at(c, add(c, '+', RG_DW_INPUT, RG_DS_CONSTANTS, RG_DIFF_NONE, S(b, b->inputs[k].name)));
      vb = fmt_whole(&wb, b, b->inputs[k].type, b->inputs[k].value, 0);
      ch->b.index = k;
      set_value(c, &ch->b, b->inputs[k].type, b->inputs[k].value, vb);
    }
  if (whole_free(&wa) | whole_free(&wb)) c->oom = 1;
}

/* ---- tables ---------------------------------------------------------- */

/* The name of key index k (0-based) of dimension d. */
static void key_name(char *buf, size_t size, const rgi_module *m, const rgi_dim *d, uint32_t k) {
  if (d->is_enum) {
    const rgi_member_info *mi = &m->members[m->enums[d->ref].first + k];
    snprintf(buf, size, "%s", S(m, mi->display ? mi->display : mi->code));
  } else {
    snprintf(buf, size, "%lld", (long long)(d->lo + (int64_t)k));
  }
}

/* Finds the index in dimension db of b of key k of dimension da of a, by
** member code or integer; -1 when b has no such key. */
static int64_t map_key(const rgi_module *a, const rgi_dim *da, uint32_t k, const rgi_module *b,
                       const rgi_dim *db) {
  if (da->is_enum != db->is_enum) return -1;
  if (da->is_enum) return find_member(b, db->ref, S(a, a->members[a->enums[da->ref].first + k].code));
  int64_t v = da->lo + (int64_t)k;
  if (v < db->lo || v >= db->lo + (int64_t)db->size) return -1;
  return v - db->lo;
}

/* Room for dim_text's text of any table of a compiled rule file, whole
** (compared to tell a change of dimensions): "(" and ")", 8 dimensions at
** most, each a label and an enum name of at most RG_MAX_NAME bytes (or
** "lo..hi" of two int64s, shorter) with ": ", and ", " between them. */
#define DIM_TEXT_SIZE (2 + 8 * (2 * RG_MAX_NAME + 2) + 7 * 2 + 1)

/* Writes table t's dimensions into buf[0..size) as `(label: Enum, lo..hi)`,
** cut short when it does not fit. */
static void dim_text(char *buf, size_t size, const rgi_module *m, const rgi_table *t) {
  size_t o = 0;
  o += (size_t)snprintf(buf + o, size - o, "(");
  for (uint32_t i = 0; i < t->ndims && o < size; i++) {
    const rgi_dim *d = &m->dims[t->first_dim + i];
    const char *lab = S(m, d->label);
    if (i) o += (size_t)snprintf(buf + o, size - o, ", ");
    if (o >= size) break;
    if (*lab) o += (size_t)snprintf(buf + o, size - o, "%s: ", lab);
    if (o >= size) break;
    if (d->is_enum) o += (size_t)snprintf(buf + o, size - o, "%s", S(m, m->enums[d->ref].name));
    else o += (size_t)snprintf(buf + o, size - o, "%lld..%lld", (long long)d->lo,
                               (long long)(d->lo + (int64_t)d->size - 1));
  }
  if (o < size) snprintf(buf + o, size - o, ")");
}

/* Splits cell c (0-based within table t of m) into its key indexes. */
static void cell_keys(const rgi_module *m, const rgi_table *t, uint32_t c, uint32_t *keys) {
  for (int d = (int)t->ndims - 1; d >= 0; d--) {
    uint32_t size = m->dims[t->first_dim + d].size;
    keys[d] = c % size;
    c /= size;
  }
}

/* A run of cell changes merged into one change: cells of one side's table
** (a's keys, or b's for a cell only in b) that change alike (kind, both
** texts, both places), in a box: rows r0..r1 of the first key, the same
** middle keys (mid, their cell offset), keys c0..c1 of the last one (0..0
** for a table of one key).  A table of a million equal changes is then one
** change, and the comparison keeps one run per box, not one per cell. */
typedef struct cellrun {
  uint32_t ch;              /* its change in the list (RG_DIFF_NONE: merged
                            ** into another and gone) */
  uint32_t r0, r1, mid, c0, c1;
  uint8_t on_a;             /* the keys are a's */
  uint8_t alone;            /* never merged (a row paired by content) */
  rgi_value ra, rb;          /* the raw values of its first cell (a run's
                            ** cells hold them all, or equal texts) */
} cellrun;

/* The runs of the table being compared. */
typedef struct cellruns {
  cellrun *v;
  uint32_t n, cap;
  uint32_t pend;            /* runs [pend, n): the row being built */
  uint32_t row;             /* that row (on side row_a) */
  int row_a;                /* -1: none yet */
  uint32_t *open[2];        /* per side (0 b, 1 a): the runs of the last row
                            ** flushed, the ones a next row may extend */
  uint32_t nopen[2], capopen[2];
  uint32_t openrow[2];
} cellruns;

/* A cell's value formatted (fmtv), kept while the next cell holds the same
** raw value (a table filled by `else` formats one value). */
typedef struct vmemo {
  int has;
  rgi_value raw;
  const char *shown;        /* in w */
  whole w;                  /* freed with vmemo_free */
} vmemo;

/* Returns cell x of m (of table value type t) formatted whole (fmt_whole),
** through memo. */
static const char *cell_text(vmemo *memo, const rgi_module *m, rgi_type t, uint32_t x) {
  if (!memo->has || memo->raw != m->cells[x]) {
    memo->shown = fmt_whole(&memo->w, m, t, m->cells[x], 0);
    memo->raw = m->cells[x];
    memo->has = 1;
  }
  return memo->shown;
}

/* Frees what memo holds; returns whether its memory ran out. */
static int vmemo_free(vmemo *memo) {
  return whole_free(&memo->w);
}

/* Whether changes x and y of one table change alike: kind, texts, places. */
static int same_change(const rgi_change *x, const rgi_change *y) {
  return x->kind == y->kind && x->a.file == y->a.file && x->a.line == y->a.line &&
         x->b.file == y->b.file && x->b.line == y->b.line && !x->b_key && !y->b_key &&
         strcmp(x->a.text ? x->a.text : "", y->a.text ? y->a.text : "") == 0 &&
         strcmp(x->b.text ? x->b.text : "", y->b.text ? y->b.text : "") == 0 &&
         (x->a.text == NULL) == (y->a.text == NULL) && (x->b.text == NULL) == (y->b.text == NULL);
}

/* Splits the keys of a cell of table t of m into the run's coordinates. */
static void run_coords(const rgi_module *m, const rgi_table *t, const uint32_t *keys, uint32_t *r,
                       uint32_t *mid, uint32_t *col) {
  *r = keys[0];
  *mid = 0;
  *col = 0;
  if (t->ndims < 2) return;
  for (uint32_t d = 1; d + 1 < t->ndims; d++) *mid = *mid * m->dims[t->first_dim + d].size + keys[d];
  *col = keys[t->ndims - 1];
}

/* Ends the row being built: each of its runs extends the run of the same
** box one row up (the last row flushed on its side, when that is the row
** just above) that changes alike, or stays a change of its own.  Runs
** merged away leave the list's tail, which they are. */
static void flush_row(dctx *c, cellruns *R) {
  if (R->row_a < 0 || R->pend == R->n) {
    if (R->row_a >= 0) R->nopen[R->row_a] = 0;
    R->pend = R->n;
    return;
  }
  int side = R->row_a;
  uint32_t *open = R->open[side], nopen = R->nopen[side], o = 0;
  int above = nopen > 0 && R->openrow[side] + 1 == R->row;
  uint32_t base = R->v[R->pend].ch, keep_at = base;   /* the tail of the list */
  uint32_t need = R->n - R->pend;
  if (need > R->capopen[side]) {
    uint32_t *p = rg_realloc(R->open[side], (size_t)need * sizeof *p);
    if (!p) {
      c->oom = 1;
      return;
    }
    R->open[side] = open = p;
    R->capopen[side] = need;
  }
  /* both lists are in key order: walk them together */
  uint32_t *prev = NULL, nprev = 0;
  if (above && nopen) {
    prev = rg_malloc((size_t)nopen * sizeof *prev);
    if (!prev) {
      c->oom = 1;
      return;
    }
    memcpy(prev, open, (size_t)nopen * sizeof *prev);
    nprev = nopen;
  }
  uint32_t nnew = 0;
  for (uint32_t k = R->pend; k < R->n; k++) {
    cellrun *p = &R->v[k];
    cellrun *up = NULL;
    while (o < nprev) {
      cellrun *q = &R->v[prev[o]];
      if (q->mid < p->mid || (q->mid == p->mid && q->c0 < p->c0)) { o++; continue; }
      if (q->mid == p->mid && q->c0 == p->c0 && q->c1 == p->c1 && !q->alone && !p->alone &&
          same_change(&c->d->changes[q->ch], &c->d->changes[p->ch]))
        up = q;
      break;
    }
    if (up) {
      up->r1 = p->r1;
      p->ch = RG_DIFF_NONE;
      open[nnew++] = (uint32_t)(up - R->v);
      o++;
      continue;
    }
    if (p->ch != keep_at) c->d->changes[keep_at] = c->d->changes[p->ch];
    p->ch = keep_at++;
    open[nnew++] = k;
  }
  rg_free(prev);
  (void)base;
  c->d->n = keep_at;
  R->nopen[side] = nnew;
  R->openrow[side] = R->row;
  R->pend = R->n;
}

/* Appends a cell change of kind under the table change `head`: cell xa of
** a's cells (table ta; kind '-' or '~') and xb of b's (table tb; '+' or
** '~'), with their texts va and vb; its keys are a's (b's for '+').
** Extends the run of the row being built when the cell is the next key of
** it and changes alike; a new row flushes the last (flush_row).  alone: the
** change is never merged (a row paired by content).  Returns the index of
** the change (of its run), or RG_DIFF_NONE. */
static uint32_t add_cell(dctx *c, cellruns *R, int kind, uint32_t head, const rgi_table *ta,
                         uint32_t xa, const char *va, const rgi_table *tb, uint32_t xb, const char *vb,
                         int alone) {
  const rgi_module *a = c->a, *b = c->b;
  int on_a = kind != '+';
  const rgi_module *m = on_a ? a : b;
  const rgi_table *t = on_a ? ta : tb;
  uint32_t keys[8] = {0}, r, mid, col;
  cell_keys(m, t, on_a ? xa - ta->first : xb - tb->first, keys);
  run_coords(m, t, keys, &r, &mid, &col);
  if (R->row_a != on_a || R->row != r) {
    flush_row(c, R);
    R->row_a = on_a;
    R->row = r;
  }
  const rgi_cellsrc *pa = kind != '+' ? &a->cellsrc[xa] : NULL;
  const rgi_cellsrc *pb = kind != '-' ? &b->cellsrc[xb] : NULL;
  /* the next key of the last run of this row, changing alike? */
  if (R->n > R->pend && !alone && !c->oom) {
    cellrun *last = &R->v[R->n - 1];
    rgi_change *lc = &c->d->changes[last->ch];
    /* a raw value equal to the run's reads the same (one module, one
    ** type); another may still read the same */
    int alike = !last->alone && last->mid == mid && last->c1 + 1 == col && lc->kind == kind &&
                (!pa || (lc->a.text && (a->cells[xa] == last->ra || strcmp(va, lc->a.text) == 0) &&
                         pa->file < a->nfiles && lc->a.file == S(a, a->files[pa->file]) &&
                         lc->a.line == pa->line)) &&
                (!pb || (lc->b.text && (b->cells[xb] == last->rb || strcmp(vb, lc->b.text) == 0) &&
                         pb->file < b->nfiles && lc->b.file == S(b, b->files[pb->file]) &&
                         lc->b.line == pb->line));
    if (alike) {
      last->c1 = col;
      return last->ch;
    }
  }
  if (R->n == R->cap) {
    cellrun *p = rgi_grow(R->v, &R->cap, 64, sizeof *p);
    if (!p) {
      c->oom = 1;
      return RG_DIFF_NONE;
    }
    R->v = p;
  }
  uint32_t i = add(c, kind, RG_DW_CELL, RG_DS_TABLES, head, NULL);
  if (i == RG_DIFF_NONE) return i;
  R->v[R->n++] = (cellrun){ i, r, r, mid, col, col, (uint8_t)on_a, (uint8_t)alone,
                            pa ? a->cells[xa] : 0, pb ? b->cells[xb] : 0 };
  rgi_change *ch = at(c, i);
  ch->ncells = 1;
  if (pa) {
    ch->a.index = xa;
    set_value(c, &ch->a, ta->value, a->cells[xa], va);
    place(&ch->a, a, pa->file, pa->line);
  }
  if (pb) {
    ch->b.index = xb;
    set_value(c, &ch->b, tb->value, b->cells[xb], vb);
    place(&ch->b, b, pb->file, pb->line);
  }
  return i;
}

/* Writes key k..k2 of dimension d of m into buf: "K" or "K..K2". */
static void key_range(char *buf, size_t size, const rgi_module *m, const rgi_dim *d, uint32_t k, uint32_t k2) {
  char x[128], y[128];
  key_name(x, sizeof x, m, d, k);
  if (k2 == k) {
    snprintf(buf, size, "%s", x);
    return;
  }
  key_name(y, sizeof y, m, d, k2);
  snprintf(buf, size, "%s..%s", x, y);
}

/* Names each run of table ta (tb for runs on b's keys) after its box: row
** its first keys ("3" or "3..9"; NULL for a table of one key, whose name
** is then the range), name the other keys joined by ", ". */
static void name_runs(dctx *c, cellruns *R, const rgi_table *ta, const rgi_table *tb) {
  for (uint32_t k = 0; k < R->n && !c->oom; k++) {
    cellrun *run = &R->v[k];
    if (run->ch == RG_DIFF_NONE || run->ch >= c->d->n) continue;
    const rgi_module *m = run->on_a ? c->a : c->b;
    const rgi_table *t = run->on_a ? ta : tb;
    char row[300], key[600], k1[300];
    rgi_change *ch = &c->d->changes[run->ch];
    key_range(row, sizeof row, m, &m->dims[t->first_dim], run->r0, run->r1);
    key[0] = '\0';
    if (t->ndims > 1) {
      uint32_t rest = run->mid, mids[8] = {0};
      for (int d = (int)t->ndims - 2; d >= 1; d--) {
        uint32_t size = m->dims[t->first_dim + d].size;
        mids[d] = rest % size;
        rest /= size;
      }
      for (uint32_t d = 1; d + 1 < t->ndims; d++) {
        key_name(k1, sizeof k1, m, &m->dims[t->first_dim + d], mids[d]);
        strncat(key, k1, sizeof key - strlen(key) - 1);
        strncat(key, ", ", sizeof key - strlen(key) - 1);
      }
      key_range(k1, sizeof k1, m, &m->dims[t->first_dim + t->ndims - 1], run->c0, run->c1);
      strncat(key, k1, sizeof key - strlen(key) - 1);
    }
    ch->row = t->ndims > 1 ? keep(c, row) : NULL;
    ch->name = keep(c, t->ndims > 1 ? key : row);
    uint64_t cells = (uint64_t)(run->r1 - run->r0 + 1) * (run->c1 - run->c0 + 1);
    ch->ncells = cells > UINT32_MAX ? UINT32_MAX : (uint32_t)cells;
  }
}

/* Frees what R holds. */
static void runs_free(cellruns *R) {
  rg_free(R->v);
  rg_free(R->open[0]);
  rg_free(R->open[1]);
  memset(R, 0, sizeof *R);
  R->row_a = -1;
}

/* Writes the rows of table t of m (one per key of its first dimension) as
** spans into rows[]: each row's cells formatted (fmtv) and joined by a
** separator, in text (which the caller frees with rg_buf_free).  Returns 0,
** or -1 when out of memory. */
static int row_texts(const rgi_module *m, const rgi_table *t, rg_buf *text, rgi_span *rows) {
  uint32_t nrows = m->dims[t->first_dim].size, stride = nrows ? t->count / nrows : 0;
  size_t *at = rg_malloc(((size_t)nrows + 1) * sizeof *at);
  vmemo *memo = rg_malloc(sizeof *memo);
  rg_buf_init(text);        /* before any return: the caller frees it */
  if (!at || !memo) {
    rg_free(at);
    rg_free(memo);
    return -1;
  }
  memset(memo, 0, sizeof *memo);
  whole_init(&memo->w);
  for (uint32_t r = 0; r < nrows; r++) {
    at[r] = text->len;
    for (uint32_t k = 0; k < stride; k++) {
      if (k) rg_putc(&text->out, '\x1f');
      rg_puts(&text->out, cell_text(memo, m, t->value, t->first + r * stride + k));
    }
  }
  if (vmemo_free(memo)) text->out.failed = 1;
  rg_free(memo);
  at[nrows] = text->len;
  int failed = text->out.failed;
  for (uint32_t r = 0; r < nrows; r++)
    rows[r] = (rgi_span){ failed || !text->data ? "" : text->data + at[r], failed ? 0 : at[r + 1] - at[r] };
  rg_free(at);
  return failed ? -1 : 0;
}

/* Fills rowmap[0..rows of ta) with the row of tb that each row of ta pairs
** with (-1: none).  Rows pair by key, except when the first dimension is an
** integer range whose size differs while the other dimensions agree: then a
** row is a line of a list, and rows pair by content (rgi_align: equal rows
** along a longest common subsequence, then the most alike of the rows left
** between them), so that one row removed from the middle is one removal. */
static void row_map(dctx *c, const rgi_table *ta, const rgi_table *tb, int64_t *rowmap) {
  const rgi_module *a = c->a, *b = c->b;
  const rgi_dim *da = &a->dims[ta->first_dim], *db = &b->dims[tb->first_dim];
  int by_content = ta->ndims == tb->ndims && !da->is_enum && !db->is_enum && da->size != db->size;
  for (uint32_t d = 1; by_content && d < ta->ndims; d++) {
    const rgi_dim *xa = &a->dims[ta->first_dim + d], *xb = &b->dims[tb->first_dim + d];
    if (xa->is_enum != xb->is_enum || xa->size != xb->size) by_content = 0;
    for (uint32_t k = 0; by_content && k < xa->size; k++)
      if (map_key(a, xa, k, b, xb) != (int64_t)k) by_content = 0;
  }
  if (by_content) {
    rg_buf ta_text, tb_text;
    rgi_span *ra = rg_malloc(((size_t)da->size + db->size) * sizeof *ra), *rb = ra ? ra + da->size : NULL;
    int32_t *match = rg_malloc((size_t)da->size * sizeof *match);
    int ok = ra && match;
    if (ok) {
      int e1 = row_texts(a, ta, &ta_text, ra), e2 = row_texts(b, tb, &tb_text, rb);
      ok = e1 == 0 && e2 == 0 && rgi_align(ra, da->size, rb, db->size, RG_ALIGN_CAP, match) == 0 &&
           rgi_align_gaps(ra, da->size, rb, db->size, match) == 0;
      rg_buf_free(&ta_text);
      rg_buf_free(&tb_text);
    }
    if (ok)
      for (uint32_t r = 0; r < da->size; r++) rowmap[r] = match[r];
    rg_free(ra);
    rg_free(match);
    if (ok) return;
    c->oom = 1;
  }
  for (uint32_t r = 0; r < da->size; r++) rowmap[r] = map_key(a, da, r, b, db);
}

/* What the cell loop of one table pair keeps: the key maps of the
** dimensions after the first (a's key -> b's and back, -1 none), the rows
** paired, the runs, the formatted values. */
typedef struct tpair {
  const rgi_table *ta, *tb;
  int same_ndims;
  int64_t *rowmap, *rowof_b;    /* a's row -> b's, b's -> a's (-1 none) */
  int64_t *a2b[8], *b2a[8];     /* per dimension d >= 1, when same_ndims */
  int b_cols_in_a;              /* every key of b's dimensions after the
                                ** first is one of a's */
  cellruns runs;
  vmemo ma, mb;
} tpair;

/* Appends under `head` the cells of table tb of b, in its rows from..to-1,
** that table ta of a lacks.  Returns `to`. */
static uint32_t cells_only_in_b(dctx *c, tpair *tp, uint32_t head, uint32_t from, uint32_t to) {
  const rgi_module *b = c->b;
  const rgi_table *tb = tp->tb;
  uint32_t stride = tb->count / b->dims[tb->first_dim].size;
  for (uint32_t cell = from * stride; cell < to * stride && !c->oom; cell++) {
    uint32_t keys[8];
    int in_a = tp->same_ndims;
    if (tp->b_cols_in_a && cell % stride == 0 && tp->rowof_b[cell / stride] >= 0) {
      cell += stride - 1;             /* a row of b that a has whole */
      continue;
    }
    cell_keys(b, tb, cell, keys);
    if (tp->rowof_b[keys[0]] < 0) in_a = 0;
    for (uint32_t d = 1; in_a && d < tb->ndims; d++)
      if (tp->b2a[d][keys[d]] < 0) in_a = 0;
    if (!in_a)
      add_cell(c, &tp->runs, '+', head, tp->ta, 0, NULL, tb, tb->first + cell,
               cell_text(&tp->mb, b, tb->value, tb->first + cell), 0);
  }
  return to;
}

static void diff_odds(dctx *c, uint32_t head, int ita, int itb, int moved_only);

/* Compares the cells of tables tp->ta of a and tp->tb of b under `head`:
** every cell changed, only in a or only in b (matched by key names, rows
** by content for a list), as runs (add_cell).  Time: one pass over the
** cells with their values formatted once per run of equal raw values;
** memory: the runs. */
static void diff_cells(dctx *c, tpair *tp, uint32_t head) {
  const rgi_module *a = c->a, *b = c->b;
  const rgi_table *ta = tp->ta, *tb = tp->tb;
  uint32_t na = a->dims[ta->first_dim].size, nb = b->dims[tb->first_dim].size;
  tp->rowmap = rg_malloc(((size_t)na + nb) * sizeof *tp->rowmap);
  tp->rowof_b = tp->rowmap ? tp->rowmap + na : NULL;
  if (!tp->rowmap) {
    c->oom = 1;
    return;
  }
  for (uint32_t d = 1; tp->same_ndims && d < ta->ndims; d++) {
    const rgi_dim *da = &a->dims[ta->first_dim + d], *db = &b->dims[tb->first_dim + d];
    tp->a2b[d] = rg_malloc(((size_t)da->size + db->size) * sizeof *tp->a2b[d]);
    if (!tp->a2b[d]) {
      c->oom = 1;
      return;
    }
    tp->b2a[d] = tp->a2b[d] + da->size;
    for (uint32_t k = 0; k < da->size; k++) tp->a2b[d][k] = map_key(a, da, k, b, db);
    for (uint32_t k = 0; k < db->size; k++) tp->b2a[d][k] = map_key(b, db, k, a, da);
  }
  tp->b_cols_in_a = tp->same_ndims;
  for (uint32_t d = 1; tp->b_cols_in_a && d < tb->ndims; d++)
    for (uint32_t k = 0; k < b->dims[tb->first_dim + d].size; k++)
      if (tp->b2a[d][k] < 0) tp->b_cols_in_a = 0;
  row_map(c, ta, tb, tp->rowmap);
  for (uint32_t r = 0; r < nb; r++) tp->rowof_b[r] = -1;
  for (uint32_t r = 0; r < na; r++)
    if (tp->rowmap[r] >= 0) tp->rowof_b[tp->rowmap[r]] = r;
  /* Cells of a, in order: changed or only in a; before a row paired with
  ** row y of b, the cells only in b of b's rows before y. */
  uint32_t nextb = 0, stride = na ? ta->count / na : 0;
  rgi_value last_a = 0, last_b = 0;
  int last_same = -1;
  for (uint32_t row = 0; row < na && !c->oom; row++) {
    int64_t rb = tp->rowmap[row];
    if (rb >= (int64_t)nextb) nextb = cells_only_in_b(c, tp, head, nextb, (uint32_t)rb);
    char bk[128];
    const char *b_key = NULL;
    if (rb >= 0 && rb != map_key(a, &a->dims[ta->first_dim], row, b, &b->dims[tb->first_dim])) {
      key_name(bk, sizeof bk, b, &b->dims[tb->first_dim], (uint32_t)rb);
      b_key = bk;
    }
    for (uint32_t k = 0; k < stride && !c->oom; k++) {
      uint32_t cell = row * stride + k, xa = ta->first + cell;
      int64_t cb = -1;
      if (tp->same_ndims && rb >= 0) {
        uint32_t keys[8];
        cell_keys(a, ta, cell, keys);
        cb = rb;
        for (uint32_t d = 1; d < ta->ndims; d++) {
          int64_t kb = tp->a2b[d][keys[d]];
          if (kb < 0) { cb = -1; break; }
          cb = cb * b->dims[tb->first_dim + d].size + kb;
        }
      }
      const char *va = cell_text(&tp->ma, a, ta->value, xa), *vb = NULL;
      if (cb >= 0) {
        uint32_t xb = tb->first + (uint32_t)cb;
        vb = cell_text(&tp->mb, b, tb->value, xb);
        /* the same raw pair as the cell before reads the same */
        int same = last_same >= 0 && a->cells[xa] == last_a && b->cells[xb] == last_b
                       ? last_same : strcmp(va, vb) == 0;
        last_a = a->cells[xa];
        last_b = b->cells[xb];
        last_same = same;
        if (same) continue;
        uint32_t i = add_cell(c, &tp->runs, '~', head, ta, xa, va, tb, xb, vb, b_key != NULL);
        if (b_key && i != RG_DIFF_NONE) at(c, i)->b_key = keep(c, b_key);
      } else {
        add_cell(c, &tp->runs, '-', head, ta, xa, va, tb, 0, NULL, 0);
      }
    }
  }
  cells_only_in_b(c, tp, head, nextb, nb);
  flush_row(c, &tp->runs);
  name_runs(c, &tp->runs, ta, tb);
}

/* Frees what tp holds; returns whether its values' memory ran out. */
static int tpair_free(tpair *tp) {
  int failed = vmemo_free(&tp->ma) | vmemo_free(&tp->mb);
  rg_free(tp->rowmap);
  for (int d = 0; d < 8; d++) rg_free(tp->a2b[d]);
  runs_free(&tp->runs);
  return failed;
}

/* The tables added and removed, and of tables on both sides changed
** dimensions or cell type and every cell changed, only in a or only in b
** (diff_cells), then their odds (diff_odds). */
static void diff_tables(dctx *c) {
  const rgi_module *a = c->a, *b = c->b;
  char da[DIM_TEXT_SIZE], db[DIM_TEXT_SIZE];
  for (uint32_t i = 0; i < a->ntables && !c->oom; i++) {
    const rgi_table *ta = &a->tables[i];
    int j = find_decl(c, IX_TABLE, b, S(a, ta->name));
    dim_text(da, sizeof da, a, ta);
    if (j < 0) {
      rgi_change *ch = at(c, add(c, '-', RG_DW_TABLE, RG_DS_TABLES, RG_DIFF_NONE, S(a, ta->name)));
      ch->a.index = i;
      ch->a.text = keep(c, da);
      place(&ch->a, a, a->cellsrc[ta->first].file, a->cellsrc[ta->first].line);
      continue;
    }
    const rgi_table *tb = &b->tables[j];
    uint32_t head = RG_DIFF_NONE;
    char tya[RGI_TYPE_NAME_SIZE], tyb[RGI_TYPE_NAME_SIZE];
    dim_text(db, sizeof db, b, tb);
    rgi_type_name(tya, sizeof tya, a, ta->value);
    rgi_type_name(tyb, sizeof tyb, b, tb->value);
    /* The table's `~` item comes first, with its dimensions as its texts; it
    ** is dropped again below when nothing inside it changed. */
    if (head_of(c, &head, RG_DW_TABLE, RG_DS_TABLES, S(a, ta->name), i, (uint32_t)j) != RG_DIFF_NONE) {
      at(c, head)->a.text = keep(c, da);
      at(c, head)->b.text = keep(c, db);
      place(&at(c, head)->a, a, a->cellsrc[ta->first].file, a->cellsrc[ta->first].line);
      place(&at(c, head)->b, b, b->cellsrc[tb->first].file, b->cellsrc[tb->first].line);
    }
    if (strcmp(da, db) != 0) {
      rgi_change *ch = at(c, add(c, '~', RG_DW_DIMS, RG_DS_TABLES, head, S(a, ta->name)));
      ch->a.text = keep(c, da);
      ch->b.text = keep(c, db);
    }
    if (strcmp(tya, tyb) != 0) {
      rgi_change *ch = at(c, add(c, '~', RG_DW_CELLTYPE, RG_DS_TABLES, head, S(a, ta->name)));
      ch->a.text = keep(c, tya);
      ch->b.text = keep(c, tyb);
    }
    tpair tp;
    memset(&tp, 0, sizeof tp);
    tp.ta = ta;
    tp.tb = tb;
    tp.same_ndims = ta->ndims == tb->ndims;
    tp.runs.row_a = -1;
    whole_init(&tp.ma.w);
    whole_init(&tp.mb.w);
    diff_cells(c, &tp, head);
    if (tpair_free(&tp)) c->oom = 1;
    if (c->oom) return;
    /* the odds: of a changed table, or of one whose dice key a changed
    ** helper computes; the table's item goes when nothing is inside */
    diff_odds(c, head, (int)i, j, head == c->d->n - 1);
    if (!c->oom && head == c->d->n - 1) c->d->n--;
  }
  for (uint32_t j = 0; j < b->ntables; j++)
    if (find_decl(c, IX_TABLE, a, S(b, b->tables[j].name)) < 0) {
      const rgi_table *tb = &b->tables[j];
      rgi_change *ch = at(c, add(c, '+', RG_DW_TABLE, RG_DS_TABLES, RG_DIFF_NONE, S(b, tb->name)));
      dim_text(db, sizeof db, b, tb);
      ch->b.index = j;
      ch->b.text = keep(c, db);
      place(&ch->b, b, b->cellsrc[tb->first].file, b->cellsrc[tb->first].line);
    }
}

/* ---- odds -------------------------------------------------------------- */

/* The distribution of NdS: counts[s] for sums s = n..n*S; returns the total
** (S^n), or 0 when the largest sum is max or more (max <= 128: 1d100, 2d20
** and 21d6 are counted) or the total passes INT64_MAX (a JSON integer:
** 40d3, 63d2). */
static uint64_t dice_counts(int n, int sides, uint64_t *counts, int max) {
  uint64_t total = 1;
  if (n < 1 || sides < 2 || n >= max || sides >= max || n * sides >= max || max > 128) return 0;
  for (int i = 0; i < n; i++) {
    if (total > (uint64_t)INT64_MAX / (uint64_t)sides) return 0;
    total *= (uint64_t)sides;
  }
  total = 1;
  memset(counts, 0, (size_t)max * sizeof *counts);
  counts[0] = 1;
  for (int i = 0; i < n; i++) {
    uint64_t next[128] = {0};
    for (int s = 0; s < max; s++)
      if (counts[s])
        for (int f = 1; f <= sides && s + f < max; f++) next[s + f] += counts[s];
    memcpy(counts, next, (size_t)max * sizeof *counts);
    total *= (uint64_t)sides;
  }
  return total;
}

/* Reads the decimal number at *p (digits only: no space or sign, which
** strtol would take) into *v, at most `max`; moves *p past it.  Returns 0,
** or -1 when there is no digit or the number is larger. */
static int hint_number(const char **p, long max, long *v) {
  long n = 0;
  if (**p < '0' || **p > '9') return -1;
  for (; **p >= '0' && **p <= '9'; (*p)++) {
    int d = **p - '0';
    if (n > (max - d) / 10) return -1;
    n = n * 10 + d;
  }
  *v = n;
  return 0;
}

int rgi_diff_hint_parse(const char *text, rgi_diff_hint *h) {
  const char *eq = strchr(text, '='), *s;
  long n = 1, sides, plus = 0;
  uint64_t counts[128];
  if (!eq || eq == text || (size_t)(eq - text) >= sizeof h->table) return -1;
  s = eq + 1;
  /* NdS[+K|-K] in plain digits, each bounded (N and S well past what
  ** dice_counts allows), so that no number wraps into a valid one */
  if (*s != 'd' && *s != 'D' && hint_number(&s, 1000, &n) != 0) return -1;
  if (*s != 'd' && *s != 'D') return -1;
  s++;
  if (hint_number(&s, 1000, &sides) != 0) return -1;
  if (*s == '+' || *s == '-') {
    int neg = *s++ == '-';
    if (hint_number(&s, INT_MAX, &plus) != 0) return -1;
    if (neg) plus = -plus;
  }
  if (*s) return -1;
  memcpy(h->table, text, (size_t)(eq - text));
  h->table[eq - text] = '\0';
  h->n = (int)n;
  h->sides = (int)sides;
  h->plus = (int)plus;
  return dice_counts(h->n, h->sides, counts, 128) ? 0 : -1;
}

/* A dice key of a table: which dimension is NdS+plus, and where the roll is
** (rollpc in m; m NULL when a hint gave it). */
typedef struct dicekey {
  int dim;                  /* -1: none */
  int n, sides, plus;
  const rgi_module *m;
  uint32_t rollpc;
  uint32_t proc;            /* the procedure that rolls (m NULL: none) */
  int helper;               /* >= 0: the key is helper(NdS, E1, ...), a
                            ** procedure of m whose parameter harg is the dice
                            ** and whose others are enums; -1: NdS+plus */
  uint32_t harg;
} dicekey;

/* A value of a table column and the outcomes of the dice that give it,
** before (in a) and after (in b). */
typedef struct odds_row {
  size_t at;                /* the value's text: oddsrows.texts.data + at */
  uint64_t before, after;
} odds_row;

/* The values of one column (at most 64), with their texts whole, so that
** two values that differ past any length are two rows. */
typedef struct oddsrows {
  odds_row row[64];
  int n;
  rg_buf texts;             /* each row's text and its NUL */
  whole w;                  /* scratch for a value's text */
} oddsrows;

/* Adds into o's rows (at most 64) the outcomes of the dice counts[] that
** give each value of column colkeys of table t of m, the score along
** dimension dk->dim: to .after when `after`, else to .before.  The score
** of dice total s is smap[s] when smap is given (INT64_MIN: none), else
** s + dk->plus.  Out of memory: o->texts.out.failed or o->w.failed. */
static void column_odds(const rgi_module *m, const rgi_table *t, const dicekey *dk,
                        const uint32_t *colkeys, const uint64_t *counts, const int64_t *smap,
                        oddsrows *o, int after) {
  const rgi_dim *d = &m->dims[t->first_dim + dk->dim];
  for (int s = 0; s < 128; s++) {
    if (!counts[s]) continue;
    int64_t score = smap ? smap[s] : (int64_t)s + dk->plus;
    char note[64];
    const char *v = note;
    if (score == INT64_MIN) {
      snprintf(note, sizeof note, "(no score)");
    } else if (score < d->lo || score >= d->lo + (int64_t)d->size) {
      snprintf(note, sizeof note, "(outside %lld..%lld)", (long long)d->lo,
               (long long)(d->lo + (int64_t)d->size - 1));
    } else {
      uint32_t keys[8], cell = 0;
      for (uint32_t i = 0; i < t->ndims; i++) keys[i] = colkeys[i];
      keys[dk->dim] = (uint32_t)(score - d->lo);
      for (uint32_t i = 0; i < t->ndims; i++) cell = cell * m->dims[t->first_dim + i].size + keys[i];
      v = fmt_whole(&o->w, m, t->value, m->cells[t->first + cell], 0);
    }
    int r;
    for (r = 0; r < o->n; r++)
      if (o->texts.data && strcmp(o->texts.data + o->row[r].at, v) == 0) break;
    if (r == o->n) {
      if (o->n >= 64) continue;
      memset(&o->row[r], 0, sizeof o->row[r]);
      o->row[r].at = o->texts.len;
      rg_write(&o->texts.out, v, strlen(v) + 1);
      if (o->texts.out.failed) return;
      o->n++;
    }
    if (after) o->row[r].after += counts[s];
    else o->row[r].before += counts[s];
  }
}

/* The instruction that pushed the value `depth` below the top of the stack
** just before pc, walking back through straight-line code; -1 when unknown. */
static int64_t producer(const rgi_module *m, const rgi_proc *p, uint32_t pc, int depth) {
  uint32_t start = p->code;
  while (pc > start) {
    uint32_t ins = m->code[--pc];
    unsigned op = RG_INS_OP(ins);
    int pops, pushes;
    if (op == RG_OP_JMP || op == RG_OP_JMPF || op == RG_OP_JMPT || op == RG_OP_RET ||
        op == RG_OP_RETV)
      return -1;
    if (rgi_op_effect(m, ins, &pops, &pushes) != 0) return -1;
    if (depth < pushes) return depth == 0 && pushes == 1 ? (int64_t)pc : -1;
    depth = depth - pushes + pops;
  }
  return -1;
}

/* When instruction pc is a `roll NdS` (PUSHI n; ROLL S), sets n and sides. */
static int is_roll(const rgi_module *m, const rgi_proc *p, int64_t pc, int *n, int *sides) {
  if (pc < 0 || RG_INS_OP(m->code[pc]) != RG_OP_ROLL) return 0;
  int64_t c = producer(m, p, (uint32_t)pc, 0);
  if (c < 0 || RG_INS_OP(m->code[c]) != RG_OP_PUSHI) return 0;
  *n = RG_INS_SA(m->code[c]);
  *sides = (int)RG_INS_A(m->code[pc]);
  return 1;
}

/* The instruction that stored the value a LOAD at pc reads: the producer
** of the last STORE to that local before pc, in straight-line order; -1. */
static int64_t stored(const rgi_module *m, const rgi_proc *p, int64_t pc) {
  uint32_t local = RG_INS_A(m->code[pc]);
  for (int64_t q = pc - 1; q >= p->code; q--) {
    uint32_t iq = m->code[q];
    if (RG_INS_OP(iq) == RG_OP_JMP || RG_INS_OP(iq) == RG_OP_JMPF || RG_INS_OP(iq) == RG_OP_JMPT)
      return -1;
    if (RG_INS_OP(iq) == RG_OP_STORE && RG_INS_A(iq) == local) return producer(m, p, (uint32_t)q, 0);
  }
  return -1;
}

/* Whether instruction pc of p pushes the total of plain dice NdS: `roll
** NdS`, or sum() of `rolls(N, dS)`, directly or through locals (a few
** deep); sets n, sides and *at (the roll). */
static int dice_total(const rgi_module *m, const rgi_proc *p, int64_t pc, int *n, int *sides, int64_t *at) {
  for (int depth = 0; pc >= 0 && depth < 4; depth++) {
    unsigned op = RG_INS_OP(m->code[pc]);
    if (op == RG_OP_LOAD) {
      pc = stored(m, p, pc);
      continue;
    }
    if (op == RG_OP_ROLL) {
      *at = pc;
      return is_roll(m, p, pc, n, sides);
    }
    if (op != RG_OP_SUM) return 0;
    int64_t list = producer(m, p, (uint32_t)pc, 0);
    if (list >= 0 && RG_INS_OP(m->code[list]) == RG_OP_LOAD) list = stored(m, p, list);
    if (list < 0 || RG_INS_OP(m->code[list]) != RG_OP_ROLLS) return 0;
    int64_t cnt = producer(m, p, (uint32_t)list, 0);
    if (cnt < 0 || RG_INS_OP(m->code[cnt]) != RG_OP_PUSHI) return 0;
    *n = RG_INS_SA(m->code[cnt]);
    *sides = (int)RG_INS_A(m->code[list]);
    *at = list;
    return 1;
  }
  return 0;
}

/* Whether procedure pi of m is a key helper: it returns an int, rolls,
** draws, asks and calls nothing, and its parameters are ints or enums; it
** has no loop (no jump backward) and at most 4096 instructions, so that
** running it for every total and argument (diff_odds) is bounded by its
** length, whatever the rule file. */
static int pure_helper(const rgi_module *m, uint32_t pi) {
  const rgi_proc *p = &m->procs[pi];
  if (p->result.kind != RG_K_INT || p->ncode > 4096) return 0;
  for (uint32_t k = 0; k < p->nparams; k++) {
    unsigned kind = m->params[p->first_param + k].type.kind;
    if (kind != RG_K_INT && kind != RG_K_ENUM) return 0;
  }
  for (uint32_t pc = p->code; pc < p->code + p->ncode; pc++)
    switch (RG_INS_OP(m->code[pc])) {
    case RG_OP_ROLL: case RG_OP_ROLLS: case RG_OP_ROLLAT: case RG_OP_ROLLDIE: case RG_OP_DRAW:
    case RG_OP_DRAWS: case RG_OP_CHOOSE: case RG_OP_INPUT: case RG_OP_CALL: case RG_OP_LEFT:
      return 0;
    case RG_OP_JMP: case RG_OP_JMPF: case RG_OP_JMPT:
      if (RG_INS_SA(m->code[pc]) <= 0) return 0;
      break;
    default: break;
    }
  return 1;
}

/* Fills *lk with the LOOKUP instructions of m by table (see lookups):
** counted by table, then placed in the order of the code.  Sets c->oom
** when memory runs out. */
static void lookups_build(dctx *c, lookups *lk, const rgi_module *m) {
  uint32_t n = 0;
  lk->first = rg_malloc(((size_t)m->ntables + 2) * sizeof *lk->first);
  if (!lk->first) {
    c->oom = 1;
    return;
  }
  memset(lk->first, 0, ((size_t)m->ntables + 2) * sizeof *lk->first);
  for (int fill = 0; fill < 2; fill++) {
    for (uint32_t pi = 0; pi < m->nprocs; pi++) {
      const rgi_proc *p = &m->procs[pi];
      if (rgi_module_is_test(m, pi)) continue;
      for (uint32_t pc = p->code; pc < p->code + p->ncode; pc++) {
        uint32_t ins = m->code[pc], t = RG_INS_A(ins);
        if (RG_INS_OP(ins) != RG_OP_LOOKUP || t >= m->ntables) continue;
        if (!fill) {
          lk->first[t + 2]++;
          n++;
          continue;
        }
        lk->pc[lk->first[t + 1]] = pc;
        lk->proc[lk->first[t + 1]++] = pi;
      }
    }
    if (fill) break;
    /* first[t + 2] counted table t's; summed, first[t + 1] is where
    ** table t's start, and filling moves it on to where they end */
    for (uint32_t t = 0; t < m->ntables; t++) lk->first[t + 2] += lk->first[t + 1];
    lk->pc = rg_malloc(((size_t)n + 1) * sizeof *lk->pc);
    lk->proc = rg_malloc(((size_t)n + 1) * sizeof *lk->proc);
    if (!lk->pc || !lk->proc) {
      c->oom = 1;
      return;
    }
  }
  lk->built = 1;
}

/* Returns the dice key of table tname of m (dim -1 when none): a hint
** first, then a LOOKUP whose integer key comes from `roll NdS`. */
static dicekey find_dice(const dctx *c, const rgi_module *m, const char *tname) {
  dicekey k;
  memset(&k, 0, sizeof k);
  k.dim = -1;
  k.helper = -1;
  int t = find_decl(c, IX_TABLE, m, tname);
  if (t < 0) return k;
  const rgi_table *tab = &m->tables[t];
  for (int h = 0; h < c->nhints; h++) {
    if (strcmp(c->hints[h].table, tname) != 0) continue;
    for (uint32_t d = 0; d < tab->ndims; d++)
      if (!m->dims[tab->first_dim + d].is_enum) {
        k.dim = (int)d;
        k.n = c->hints[h].n;
        k.sides = c->hints[h].sides;
        k.plus = c->hints[h].plus;
        k.helper = -1;
        return k;
      }
  }
  /* Heuristic: a LOOKUP of the table whose integer key is a roll, directly
  ** or through a local stored from a roll (the LOOKUPs of the table, in
  ** the order of the procedures and their code: c's lookups). */
  const lookups *lk = &c->lk[m == c->a ? 0 : 1];
  for (uint32_t x = lk->built ? lk->first[t] : 0; lk->built && x < lk->first[t + 1]; x++) {
    uint32_t pi = lk->proc[x], pc = lk->pc[x];
    const rgi_proc *p = &m->procs[pi];
    for (uint32_t d = 0; d < tab->ndims; d++) {
      if (m->dims[tab->first_dim + d].is_enum) continue;
      int64_t src = producer(m, p, pc, (int)(tab->ndims - 1 - d));
      int n, sides;
      int64_t rollpc = -1;
      if (src >= 0 && RG_INS_OP(m->code[src]) == RG_OP_LOAD) {
        /* the last STORE to that local before src, in straight-line order */
        uint32_t local = RG_INS_A(m->code[src]);
        for (int64_t q = src - 1; q >= p->code; q--) {
          uint32_t iq = m->code[q];
          if (RG_INS_OP(iq) == RG_OP_STORE && RG_INS_A(iq) == local) {
            rollpc = producer(m, p, (uint32_t)q, 0);
            break;
          }
        }
      } else {
        rollpc = src;
      }
      int64_t at = rollpc;  /* where the dice are rolled */
      int helper = -1, found = -1;
      if (!is_roll(m, p, rollpc, &n, &sides)) {
        /* helper(dice total, enum, ...): a call whose one int argument is
        ** the total of a roll and whose others are enums */
        int64_t call = rollpc;
        if (call < 0 || RG_INS_OP(m->code[call]) != RG_OP_CALL) continue;
        uint32_t hp = RG_INS_A(m->code[call]);
        if (!pure_helper(m, hp)) continue;   /* hp < nprocs: verified */
        const rgi_proc *h = &m->procs[hp];
        int ok = 1;
        at = -1;
        for (uint32_t a = 0; a < h->nparams && ok; a++) {
          int64_t arg = producer(m, p, (uint32_t)call, (int)(h->nparams - 1 - a));
          int64_t here = -1;
          if (m->params[h->first_param + a].type.kind == RG_K_ENUM) continue;
          if (found >= 0 || !dice_total(m, p, arg, &n, &sides, &here)) ok = 0;
          else found = (int)a, at = here;
        }
        if (!ok || found < 0) continue;
        helper = (int)hp;
      }
      k.dim = (int)d;
      k.n = n;
      k.sides = sides;
      k.plus = 0;
      k.m = m;
      k.rollpc = (uint32_t)at;
      k.proc = pi;
      k.helper = helper;
      k.harg = found >= 0 ? (uint32_t)found : 0;
      return k;
    }
  }
  return k;
}

enum { MAXCOMBOS = 64 };    /* helper argument combinations followed */
enum { MAXHELPED = 64 };    /* tables whose key helper is run, per diff */

/* The scores of a key helper, for every combination of its enum arguments
** (combo k: the members' positions as digits, the last fastest) and every
** dice total s: map[k * 128 + s], INT64_MIN when the call failed. */
typedef struct helpermap {
  uint32_t ncombos;
  int64_t *map;
} helpermap;

/* Fills *hm with helper dk->helper of module m run by the VM on every
** combination of the members of its enum parameters (their codes matched
** to module `names`' helper of the same name when given, so that both
** sides run the same combinations; a member names lacks gives INT64_MIN)
** and every total of the dice counts[].  Returns 0; -1 (hm empty) when
** there are too many combinations or parameters that do not match; -2
** when memory ran out. */
static int helper_scores(const rgi_diff_runner *run, const rgi_module *m, const dicekey *dk,
                         const uint64_t *counts, const rgi_module *names, const dicekey *nk,
                         helpermap *hm) {
  const rgi_proc *h = &m->procs[dk->helper];
  const rgi_proc *hn = names ? &names->procs[nk->helper] : h;
  const rgi_module *nm = names ? names : m;
  uint32_t combos = 1;
  memset(hm, 0, sizeof *hm);
  if (hn->nparams != h->nparams) return -1;
  for (uint32_t k = 0; k < hn->nparams; k++) {
    rgi_type t = nm->params[hn->first_param + k].type;
    if (k == dk->harg) continue;
    if (t.kind != RG_K_ENUM) return -1;
    combos *= nm->enums[t.ref].count;
    if (combos > MAXCOMBOS) return -1;
  }
  if (h->nparams > 16 || !run) return -1;
  hm->map = rg_malloc((size_t)combos * 128 * sizeof *hm->map);
  if (!hm->map) return -2;
  hm->ncombos = combos;
  /* a helper is short and pure: the runner's bounded runs */
  void *vm = run->open(run->ctx, m);
  if (!vm) {                  /* a verified module: only memory fails it */
    rg_free(hm->map);
    memset(hm, 0, sizeof *hm);
    return -2;
  }
  for (uint32_t cb = 0; cb < combos; cb++) {
    rgi_value args[16];
    uint32_t rest = cb;
    int ok = 1;               /* nparams <= 16 and vm: checked above */
    for (int k = (int)hn->nparams - 1; k >= 0 && ok; k--) {
      if ((uint32_t)k == dk->harg) continue;
      rgi_type tn = nm->params[hn->first_param + k].type, t = m->params[h->first_param + k].type;
      uint32_t size = nm->enums[tn.ref].count, member = rest % size;
      rest /= size;
      /* the member of this side with the code of names' member (t is an
      ** enum: every parameter of a key helper but its dice is, find_dice) */
      int here = find_member(m, t.ref, S(nm, nm->members[nm->enums[tn.ref].first + member].code));
      if (here < 0) ok = 0;
      else args[k] = here;
    }
    for (int sc = 0; sc < 128; sc++) {
      rgi_value r = 0;
      hm->map[cb * 128 + sc] = INT64_MIN;
      if (!ok || !counts[sc]) continue;
      args[dk->harg] = sc;
      if (run->call(vm, (uint32_t)dk->helper, args, &r) == 0) hm->map[cb * 128 + sc] = r;
    }
  }
  run->close(vm);
  return 0;
}

/* Writes the members of combination cb of helper dk->helper's enum
** parameters of m (joined by ", ") into buf. */
static void combo_text(char *buf, size_t size, const rgi_module *m, const dicekey *dk, uint32_t cb) {
  const rgi_proc *h = &m->procs[dk->helper];
  uint32_t pos[16] = {0}, rest = cb;
  for (int k = (int)h->nparams - 1; k >= 0; k--) {
    if ((uint32_t)k == dk->harg || k >= 16) continue;
    uint32_t size2 = m->enums[m->params[h->first_param + k].type.ref].count;
    pos[k] = rest % size2;
    rest /= size2;
  }
  buf[0] = '\0';
  for (uint32_t k = 0; k < h->nparams && k < 16; k++) {
    if (k == dk->harg) continue;
    const rgi_enum *e = &m->enums[m->params[h->first_param + k].type.ref];
    const rgi_member_info *mi = &m->members[e->first + pos[k]];
    if (buf[0]) strncat(buf, ", ", size - strlen(buf) - 1);
    strncat(buf, S(m, mi->display ? mi->display : mi->code), size - strlen(buf) - 1);
  }
}

/* When a dice key for table ita of a (itb of b) is found and the sides agree
** on it, appends under `head` the key (RG_DW_ODDS) and per column each value
** whose chance changed, before and after (RG_DW_ODDS_VALUE).  A key given
** by a helper (weather_score(2d6, season)) is run on both sides for every
** member of its enum arguments, which become part of each column.  When
** `moved_only`, nothing is appended unless the helper's scores differ
** between the sides (the table is the same, what leads to it changed). */
static void diff_odds(dctx *c, uint32_t head, int ita, int itb, int moved_only) {
  const rgi_module *a = c->a, *b = c->b;
  const rgi_table *ta = &a->tables[ita], *tb = &b->tables[itb];
  const char *name = S(a, ta->name);
  for (int side = 0; side < 2; side++)
    if (!c->lk[side].built && !c->oom) lookups_build(c, &c->lk[side], side ? b : a);
  if (c->oom) return;
  dicekey ka = find_dice(c, a, name), kb = find_dice(c, b, name);
  if (ka.dim < 0 && kb.dim < 0) return;
  /* a side that does not roll for the table is read with the other's key,
  ** but has no roll of its own to name */
  int rolls_a = ka.dim >= 0, rolls_b = kb.dim >= 0;
  if (ka.dim < 0 || kb.dim < 0) {
    if ((ka.dim < 0 ? kb : ka).helper >= 0) return;   /* a helper on one side only */
    if (ka.dim < 0) ka = kb;
    if (kb.dim < 0) kb = ka;
  }
  if (ta->ndims != tb->ndims || ka.dim >= (int)ta->ndims || kb.dim >= (int)tb->ndims ||
      ka.n != kb.n || ka.sides != kb.sides || ka.plus != kb.plus || (ka.helper < 0) != (kb.helper < 0))
    return;
  if (ka.helper >= 0 && (strcmp(S(a, a->procs[ka.helper].name), S(b, b->procs[kb.helper].name)) != 0 ||
                         ka.harg != kb.harg))
    return;
  if (moved_only && ka.helper < 0) return;
  if (ka.helper >= 0 && c->helpers_run++ >= MAXHELPED) return;
  uint64_t counts[128];
  uint64_t total = dice_counts(ka.n, ka.sides, counts, 128);
  if (!total) return;
  helpermap ha = { 0, NULL }, hb = { 0, NULL };
  uint32_t combos = 1;
  if (ka.helper >= 0) {
    int ea = helper_scores(c->run, a, &ka, counts, NULL, NULL, &ha);
    int eb = ea == 0 ? helper_scores(c->run, b, &kb, counts, a, &ka, &hb) : 0;
    if (ea == -2 || eb == -2) c->oom = 1;
    /* both sides ran the combinations of a's enums: the same number */
    if (ea != 0 || eb != 0) {
      rg_free(ha.map);
      rg_free(hb.map);
      return;
    }
    combos = ha.ncombos;
    if (moved_only && memcmp(ha.map, hb.map, (size_t)combos * 128 * sizeof *ha.map) == 0) {
      rg_free(ha.map);
      rg_free(hb.map);
      return;
    }
  }
  const char *label = S(a, a->dims[ta->first_dim + ka.dim].label);
  char hl[300] = "";
  if (ka.helper >= 0) {   /* weather_score(2d6, s): the call, the dice in place */
    const rgi_proc *h = &a->procs[ka.helper];
    snprintf(hl, sizeof hl, "%s(", S(a, h->name));
    for (uint32_t k = 0; k < h->nparams; k++) {
      char arg[128];
      if (k == ka.harg) snprintf(arg, sizeof arg, "%s%dd%d", k ? ", " : "", ka.n, ka.sides);
      else snprintf(arg, sizeof arg, "%s%s", k ? ", " : "", S(a, a->params[h->first_param + k].name));
      strncat(hl, arg, sizeof hl - strlen(hl) - 1);
    }
    strncat(hl, ")", sizeof hl - strlen(hl) - 1);
  }
  rgi_change *ch = at(c, add(c, '~', RG_DW_ODDS, RG_DS_TABLES, head, *label ? label : "key"));
  ch->odds.n = ka.n;
  ch->odds.sides = ka.sides;
  ch->odds.plus = ka.plus;
  ch->row = ka.helper >= 0 ? keep(c, hl) : NULL;
  if (ka.m && rolls_a) {                                   /* where it rolls */
    place_pc(&ch->a, ka.m, ka.rollpc);
    ch->a.text = S(ka.m, ka.m->procs[ka.proc].name);
  }
  if (kb.m && rolls_b) {
    place_pc(&ch->b, kb.m, kb.rollpc);
    ch->b.text = S(kb.m, kb.m->procs[kb.proc].name);
  }
  /* Every column of a (keys other than the dice dimension) that maps to b,
  ** for every combination of the helper's enum arguments. */
  oddsrows orows, *rows = &orows;
  rg_buf_init(&rows->texts);
  whole_init(&rows->w);
  uint32_t ncols = 1;
  for (uint32_t d = 0; d < ta->ndims; d++)
    if ((int)d != ka.dim) ncols *= a->dims[ta->first_dim + d].size;
  for (uint32_t cb = 0; cb < combos && !c->oom; cb++) {
    char combo[256] = "";
    if (ka.helper >= 0) combo_text(combo, sizeof combo, a, &ka, cb);
    for (uint32_t col = 0; col < ncols && !c->oom; col++) {
      uint32_t keysa[8] = {0}, keysb[8] = {0}, rest = col;
      int ok = 1;
      for (int d = (int)ta->ndims - 1; d >= 0; d--) {
        if (d == ka.dim) continue;
        uint32_t size = a->dims[ta->first_dim + d].size;
        keysa[d] = rest % size;
        rest /= size;
        int64_t k = map_key(a, &a->dims[ta->first_dim + d], keysa[d], b, &b->dims[tb->first_dim + d]);
        if (k < 0) ok = 0;
        else keysb[d] = (uint32_t)k;
      }
      if (!ok) continue;
      rows->n = 0;
      rows->texts.len = 0;
      column_odds(a, ta, &ka, keysa, counts, ha.map ? ha.map + (size_t)cb * 128 : NULL, rows, 0);
      column_odds(b, tb, &kb, keysb, counts, hb.map ? hb.map + (size_t)cb * 128 : NULL, rows, 1);
      if (rows->texts.out.failed || rows->w.failed) {
        c->oom = 1;
        break;
      }
      char colname[512];
      snprintf(colname, sizeof colname, "%s", combo);
      for (uint32_t d = 0; d < ta->ndims; d++) {
        char k1[128];
        if ((int)d == ka.dim) continue;
        key_name(k1, sizeof k1, a, &a->dims[ta->first_dim + d], keysa[d]);
        if (colname[0]) strncat(colname, ", ", sizeof colname - strlen(colname) - 1);
        strncat(colname, k1, sizeof colname - strlen(colname) - 1);
      }
      const char *col_text = NULL;
      for (int r = 0; r < rows->n; r++) {
        const odds_row *row = &rows->row[r];
        if (row->before == row->after) continue;
        if (!col_text) col_text = keep(c, colname);
        ch = at(c, add(c, '~', RG_DW_ODDS_VALUE, RG_DS_TABLES, head, keep(c, rows->texts.data + row->at)));
        ch->row = col_text;
        ch->odds.before = row->before;
        ch->odds.after = row->after;
        ch->odds.total = total;
      }
    }
  }
  rg_buf_free(&rows->texts);
  whole_free(&rows->w);
  rg_free(ha.map);
  rg_free(hb.map);
}

/* ---- procedures and steps -------------------------------------------- */

/* Returns the first slot of pair (x, y)'s probe sequence in c's pairs:
** a hash of both under c->pkey (splitmix64's finalizer). */
static uint32_t pair_start(const dctx *c, rgi_value x, rgi_value y) {
  uint64_t h = ((uint64_t)x ^ c->pkey) * 0x9E3779B97F4A7C15ull ^ (uint64_t)y;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  return (uint32_t)(h ^ (h >> 31)) & (c->pcap - 1);
}

/* Returns the slot of pair (x, y) in c's pairs: where it is, or the empty
** slot where it goes. */
static uint32_t pair_slot(const dctx *c, rgi_value x, rgi_value y) {
  uint32_t i = pair_start(c, x, y);
  while (c->pairs[i] && (c->pair[c->pairs[i] - 1][0] != x || c->pair[c->pairs[i] - 1][1] != y))
    i = (i + 1) & (c->pcap - 1);
  return i;
}

/* Makes c's pairs: for each named constant of a, its value beside that of
** b's constant of its name (when b has one), each pair once, indexed under
** a key drawn from all the values.  Sets c->oom when memory runs out. */
static void pairs_build(dctx *c) {
  const rgi_module *a = c->a, *b = c->b;
  uint32_t cap = 16, n = 0;
  uint64_t sum = 0;
  if (a->nnamed == 0) return;
  c->pair = rg_malloc((size_t)a->nnamed * sizeof *c->pair);
  while (cap <= a->nnamed * 2u && cap < (1u << 31)) cap *= 2;
  c->pairs = a->nnamed < cap ? rg_malloc((size_t)cap * sizeof *c->pairs) : NULL;
  if (!c->pair || !c->pairs) {
    c->oom = 1;
    return;
  }
  memset(c->pairs, 0, (size_t)cap * sizeof *c->pairs);
  for (uint32_t i = 0; i < a->nnamed; i++) {
    int j = find_named(c, b, S(a, a->named[i].name));
    if (j < 0) continue;
    c->pair[n][0] = a->named[i].value;
    c->pair[n][1] = b->named[j].value;
    sum = sum * 31u + (uint64_t)c->pair[n][0] * 7u + (uint64_t)c->pair[n][1];
    n++;
  }
  c->pkey = sum;
  c->pcap = cap;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = pair_slot(c, c->pair[k][0], c->pair[k][1]);
    if (!c->pairs[i]) c->pairs[i] = k + 1;
  }
}

/* Whether some named constant has the value va in a and vb in b. */
static int named_pair(const dctx *c, rgi_value va, rgi_value vb) {
  return c->pcap && c->pairs[pair_slot(c, va, vb)] != 0;
}

/* Whether the values va (pushed in a) and vb (in b) are the same; by_name:
** also when they are the values of one named constant on both sides (the
** instructions come from the same place of the same source, so the one
** that differs is the constant's value, listed as a constant). */
static int same_value(const dctx *c, rgi_value va, rgi_value vb, int by_name) {
  const rgi_module *a = c->a, *b = c->b;
  if (va == vb) return 1;
  if (va > 0 && vb > 0 && (uint64_t)va < a->nstrings && (uint64_t)vb < b->nstrings &&
      a->strings[va - 1] == '\0' && b->strings[vb - 1] == '\0' &&
      strcmp(a->strings + va, b->strings + vb) == 0)
    return 1;
  /* Constant records and lists live in the module heap, whose offsets shift
  ** when the other side adds constants: equal when the words there match. */
  if (va >= 0 && vb >= 0 && (uint64_t)va < a->nheap && (uint64_t)vb < b->nheap) {
    uint32_t n = 0, k;
    while (n < 4 && (uint64_t)va + n < a->nheap && (uint64_t)vb + n < b->nheap) n++;
    for (k = 0; k < n; k++) {
      rgi_value x = a->heap[va + k], y = b->heap[vb + k];
      if (x == y) continue;
      if (x > 0 && y > 0 && (uint64_t)x < a->nstrings && (uint64_t)y < b->nstrings &&
          a->strings[x - 1] == '\0' && b->strings[y - 1] == '\0' &&
          strcmp(a->strings + x, b->strings + y) == 0)
        continue;
      break;
    }
    if (n > 0 && k == n) return 1;
  }
  return by_name && named_pair(c, va, vb);
}

/* Whether types ta of a and tb of b have the same name. */
static int same_type(const rgi_module *a, rgi_type ta, const rgi_module *b, rgi_type tb) {
  char na[RGI_TYPE_NAME_SIZE], nb[RGI_TYPE_NAME_SIZE];
  rgi_type_name(na, sizeof na, a, ta);
  rgi_type_name(nb, sizeof nb, b, tb);
  return strcmp(na, nb) == 0;
}

/* Whether note A of a and note B of b have the same text and value types. */
static int same_note(const rgi_module *a, uint32_t A, const rgi_module *b, uint32_t B) {
  const rgi_note_info *na = &a->notes[A], *nb = &b->notes[B];
  if (na->nvals != nb->nvals || strcmp(S(a, na->text), S(b, nb->text)) != 0) return 0;
  for (uint32_t k = 0; k < na->nvals; k++)
    if (!same_type(a, a->types[na->first_type + k], b, b->types[nb->first_type + k])) return 0;
  return 1;
}

/* Compares instruction ia of c->a and ib of c->b by opcode, then by what its operand
** refers to (rgi_op_operand, the one list of operand kinds): an index into a
** module array is compared by the name or text of what it indexes, never as
** a number, so an opcode added later is compared right without a case here.
** lmap_a/lmap_b rename locals by order of first use (arrays of size nlocals,
** -1 unused), *next the next canonical number.  here: both come from the
** same place of the same file (see same_value). */
static int same_ins(const dctx *c, uint32_t ia, uint32_t ib,
                    int *lmap_a, uint32_t na, int *lmap_b, uint32_t nb, int *next, int here) {
  const rgi_module *a = c->a, *b = c->b;
  unsigned op = RG_INS_OP(ia);
  uint32_t A = RG_INS_A(ia), B = RG_INS_A(ib);
  if (op != RG_INS_OP(ib)) return 0;   /* op < RG_NOPCODES: verified */
  switch (rgi_op_operand[op]) {
  case RG_A_IMM: return same_value(c, RG_INS_SA(ia), RG_INS_SA(ib), here);
  case RG_A_CONST: return same_value(c, a->consts[A], b->consts[B], here);
  case RG_A_LOCAL:                    /* A < na, B < nb: verified */
    if (lmap_a[A] < 0 && lmap_b[B] < 0) { lmap_a[A] = lmap_b[B] = (*next)++; return 1; }
    return lmap_a[A] == lmap_b[B];
  case RG_A_TABLE: return strcmp(S(a, a->tables[A].name), S(b, b->tables[B].name)) == 0;
  case RG_A_RECORD: return strcmp(S(a, a->records[A].name), S(b, b->records[B].name)) == 0;
  case RG_A_PROC: return strcmp(S(a, a->procs[A].name), S(b, b->procs[B].name)) == 0;
  case RG_A_NOTE: return same_note(a, A, b, B);
  case RG_A_EXPECT:
    return strcmp(S(a, a->expects[A].text), S(b, b->expects[B].text)) == 0 &&
           same_type(a, a->expects[A].type, b, b->expects[B].type);
  case RG_A_STRING: return strcmp(S(a, A), S(b, B)) == 0;
  case RG_A_DICE: return strcmp(S(a, a->dice[A].name), S(b, b->dice[B].name)) == 0;
  case RG_A_DECK: return strcmp(S(a, a->decks[A].name), S(b, b->decks[B].name)) == 0;
  case RG_A_CHOICE:
    return a->choices[A].kind == b->choices[B].kind &&
           strcmp(S(a, a->choices[A].prompt), S(b, b->choices[B].prompt)) == 0 &&
           same_type(a, a->choices[A].option, b, b->choices[B].option);
  case RG_A_INPUT: return strcmp(S(a, a->inputs[A].name), S(b, b->inputs[B].name)) == 0;
  case RG_A_ENUM: return strcmp(S(a, a->enums[A].name), S(b, b->enums[B].name)) == 0;
  case RG_A_TYPE: return same_type(a, a->types[A], b, b->types[B]);
  default: return ia == ib;   /* NONE, JUMP, FIELD, COUNT, COUNT0: plain numbers */
  }
}

/* Returns whether a's code [sa, ea) of pa and b's [sb, eb) of pb match
** instruction by instruction (same_ins, locals renamed); 0 with c->oom set
** when out of memory. */
static int same_code(dctx *c, const rgi_proc *pa, uint32_t sa, uint32_t ea, const rgi_proc *pb,
                     uint32_t sb, uint32_t eb) {
  const rgi_module *a = c->a, *b = c->b;
  if (ea - sa != eb - sb) return 0;
  int *ma = rg_malloc(((size_t)pa->nlocals + 1) * sizeof *ma);
  int *mb = rg_malloc(((size_t)pb->nlocals + 1) * sizeof *mb);
  int next = 0, same = 1;
  if (!ma || !mb) {
    rg_free(ma);
    rg_free(mb);
    c->oom = 1;
    return 0;
  }
  for (uint32_t i = 0; i <= pa->nlocals; i++) ma[i] = -1;
  for (uint32_t i = 0; i <= pb->nlocals; i++) mb[i] = -1;
  for (uint32_t k = 0; same && k < ea - sa; k++)
    same = same_ins(c, a->code[sa + k], b->code[sb + k], ma, pa->nlocals, mb, pb->nlocals, &next,
                    same_place_pc(c, sa + k, sb + k));
  rg_free(ma);
  rg_free(mb);
  return same;
}

/* A step of a procedure: code [start, end) from its STEP (or from the
** procedure's start) to the next STEP or the end. */
typedef struct seg {
  uint32_t start, end;
  const char *name;         /* NULL: before the first step */
} seg;

enum { MAXSEG = 256 };

/* Splits procedure p of m into out[0..MAXSEG) at its STEPs (the part before
** the first step only when not empty).  Returns the count. */
static int segments(const rgi_module *m, const rgi_proc *p, seg *out) {
  int n = 0;
  uint32_t s = p->code;
  const char *name = NULL;
  for (uint32_t pc = p->code; pc < p->code + p->ncode; pc++) {
    if (RG_INS_OP(m->code[pc]) != RG_OP_STEP) continue;
    if (n < MAXSEG && (pc > s || name)) out[n++] = (seg){ s, pc, name };
    s = pc;
    name = S(m, RG_INS_A(m->code[pc]));
  }
  if (n < MAXSEG) out[n++] = (seg){ s, p->code + p->ncode, name };
  return n;
}

/* Sets side s to step sg of m: its code, and its place: the line of its
** STEP, or of its body's first instruction when that comes from another
** file (an `override step`); at the STEP itself when `at_step`. */
static void step_side(rgi_diff_side *s, const rgi_module *m, const seg *sg, int at_step) {
  uint32_t pc = sg->start;
  s->code = sg->start;
  s->ncode = sg->end - sg->start;
  if (!at_step && sg->name && pc + 1 < sg->end && pc + 1 < m->nlines &&
      m->lines[pc + 1].file != m->lines[pc].file)
    pc++;
  place_pc(s, m, pc);
}

/* Returns the index of procedure `name` in side m of c, tests left out,
** or -1. */
static int find_proc(const dctx *c, const rgi_module *m, const char *name) {
  return find_decl(c, IX_PROC, m, name);
}

/* Returns the position in s[0..n) of the step named like t (both NULL: the
** code before the first step), or n. */
static int find_seg(const seg *s, int n, const seg *t) {
  int y;
  for (y = 0; y < n; y++)
    if ((s[y].name == NULL) == (t->name == NULL) && (!t->name || strcmp(t->name, s[y].name) == 0))
      break;
  return y;
}

/* Sets side s to procedure i of m: index, code, place. */
static void proc_side(rgi_diff_side *s, const rgi_module *m, uint32_t i) {
  s->index = i;
  s->code = m->procs[i].code;
  s->ncode = m->procs[i].ncode;
  place_pc(s, m, m->procs[i].code);
}

/* Writes procedure p's signature of m into b, as written in a rule file
** without its name: "(total: int, s: season) -> int" (no `->` when it
** returns nothing). */
static void signature(rg_buf *b, const rgi_module *m, const rgi_proc *p) {
  char ty[RGI_TYPE_NAME_SIZE];
  b->len = 0;
  if (b->data) b->data[0] = '\0';
  rg_putc(&b->out, '(');
  for (uint32_t k = 0; k < p->nparams; k++) {
    const rgi_param_info *pi = &m->params[p->first_param + k];
    rgi_type_name(ty, sizeof ty, m, pi->type);
    rg_printf(&b->out, "%s%s: %s", k ? ", " : "", S(m, pi->name), ty);
  }
  rg_putc(&b->out, ')');
  if (p->result.kind != RG_K_VOID) {
    rgi_type_name(ty, sizeof ty, m, p->result);
    rg_printf(&b->out, " -> %s", ty);
  }
}

/* The procedures added, removed or changed (not tests), and of a changed
** one with steps the steps added, removed or changed, by name.  A
** procedure whose parameters or result changed is changed even when its
** code is the same; its texts are then both signatures. */
static void diff_procs(dctx *c) {
  const rgi_module *a = c->a, *b = c->b;
  seg *sa = rg_malloc(2 * MAXSEG * sizeof *sa), *sb = sa + MAXSEG;
  if (!sa) {
    c->oom = 1;
    return;
  }
  /* Changed and removed procedures; those only in b; then, under one
  ** RG_DW_CAUSE item, the changed ones whose source is the same on both
  ** sides (what they do follows from what they use). */
  uint32_t cause = RG_DIFF_NONE;
  rg_buf siga, sigb;
  rg_buf_init(&siga);
  rg_buf_init(&sigb);
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t i = 0; i < a->nprocs && !c->oom; i++) {
      if (rgi_module_is_test(a, i)) continue;
      const rgi_proc *pa = &a->procs[i];
      int j = find_proc(c, b, S(a, pa->name));
      if (j < 0) {
        if (pass == 0)
          proc_side(&at(c, add(c, '-', RG_DW_PROC, RG_DS_PROCEDURES, RG_DIFF_NONE, S(a, pa->name)))->a, a, i);
        continue;
      }
      const rgi_proc *pb = &b->procs[j];
      signature(&siga, a, pa);
      signature(&sigb, b, pb);
      if (siga.out.failed || sigb.out.failed) {
        c->oom = 1;
        break;
      }
      int samesig = strcmp(siga.data, sigb.data) == 0;
      if (samesig && same_code(c, pa, pa->code, pa->code + pa->ncode, pb, pb->code, pb->code + pb->ncode))
        continue;
      int derived = pa->ncode == pb->ncode && same_source(c, pa->code, pb->code, pa->ncode);
      if (derived != pass) continue;
      int na = segments(a, pa, sa), nb = segments(b, pb, sb);
      uint32_t parent = derived ? cause_head(c, &cause, RG_DS_PROCEDURES) : RG_DIFF_NONE;
      uint32_t head = add(c, '~', RG_DW_PROC, RG_DS_PROCEDURES, parent, S(a, pa->name));
      at(c, head)->cause = parent;
      at(c, head)->derived = (uint8_t)derived;
      proc_side(&at(c, head)->a, a, i);
      proc_side(&at(c, head)->b, b, (uint32_t)j);
      if (!samesig) {
        at(c, head)->a.text = keep(c, siga.data);
        at(c, head)->b.text = keep(c, sigb.data);
      }
      if (derived || (na == 1 && nb == 1 && !sa[0].name && !sb[0].name)) continue;
      for (int x = 0; x < na; x++) {
        int y = find_seg(sb, nb, &sa[x]);
        if (y == nb) {
          step_side(&at(c, add(c, '-', RG_DW_STEP, RG_DS_PROCEDURES, head, sa[x].name))->a, a, &sa[x], 1);
          continue;
        }
        if (same_code(c, pa, sa[x].start, sa[x].end, pb, sb[y].start, sb[y].end)) continue;
        rgi_change *ch = at(c, add(c, '~', RG_DW_STEP, RG_DS_PROCEDURES, head, sa[x].name));
        ch->derived = sa[x].end - sa[x].start == sb[y].end - sb[y].start &&
                      same_source(c, sa[x].start, sb[y].start, sa[x].end - sa[x].start);
        step_side(&ch->a, a, &sa[x], 0);
        step_side(&ch->b, b, &sb[y], 0);
      }
      for (int y = 0; y < nb; y++)
        if (find_seg(sa, na, &sb[y]) == na)
          step_side(&at(c, add(c, '+', RG_DW_STEP, RG_DS_PROCEDURES, head, sb[y].name))->b, b, &sb[y], 0);
    }
    for (uint32_t j = 0; pass == 0 && j < b->nprocs && !c->oom; j++) {
      if (rgi_module_is_test(b, j) || find_proc(c, a, S(b, b->procs[j].name)) >= 0) continue;
      proc_side(&at(c, add(c, '+', RG_DW_PROC, RG_DS_PROCEDURES, RG_DIFF_NONE, S(b, b->procs[j].name)))->b, b, j);
    }
  }
  rg_buf_free(&siga);
  rg_buf_free(&sigb);
  rg_free(sa);
}

/* ---- the list ---------------------------------------------------------- */

const char *rgi_diff_section_name(uint32_t s) {
  static const char *const names[] = {
#define RG_X(id, name) name,
    RG_DIFF_SECTIONS(RG_X)
#undef RG_X
  };
  return s < RG_NDIFF_SECTIONS ? names[s] : "?";
}

int rgi_diff_modules(const rgi_module *a, const rgi_module *b, const rgi_diff_hint *hints,
                    int nhints, const rgi_diff_runner *run, rgi_diff *d) {
  dctx c;
  memset(d, 0, sizeof *d);
  d->a = a;
  d->b = b;
  rgi_arena_init(&d->arena, 0);
  memset(&c, 0, sizeof c);
  c.d = d;
  c.a = a;
  c.b = b;
  c.hints = hints;
  c.nhints = nhints;
  c.run = run;
  c.fmap = rg_malloc(((size_t)a->nfiles + 1) * sizeof *c.fmap);
  if (!c.fmap) c.oom = 1;
  for (uint32_t i = 0; c.fmap && i < a->nfiles; i++) {
    c.fmap[i] = -1;
    for (uint32_t j = 0; j < b->nfiles && c.fmap[i] < 0; j++)
      if (same_file(&c, i, j)) c.fmap[i] = (int32_t)j;
  }
  names_build(&c);
  pairs_build(&c);
  diff_header(&c);
  diff_units(&c);
  diff_enums(&c);
  diff_records(&c);
  diff_consts(&c);
  diff_tables(&c);
  diff_procs(&c);
  diff_strategies(&c);
  diff_displays(&c);
  names_free(&c);
  rg_free(c.fmap);
  if (c.oom || d->arena.failed) {
    rgi_diff_free(d);
    d->a = a;
    d->b = b;
    return -1;
  }
  return 0;
}

void rgi_diff_free(rgi_diff *d) {
  rg_free(d->changes);
  rgi_arena_free(&d->arena);
  memset(d, 0, sizeof *d);
}
