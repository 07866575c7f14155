/*
** diff.c: `regula diff A B`, a semantic diff of two rule sets.
**
** Both sides are compiled (extends resolved) or loaded from .rbc, then
** compared by name, never by index or line:
**
**   header      ruleset name and revision
**   units       added / removed
**   enums       added / removed; members added / removed; display names
**   records     added / removed; fields added / removed / retyped
**   constants   the named constants (rg_named) and inputs: value before and
**               after, a starred distance printed with *
**   tables      added / removed; key dimensions changed; cells compared by
**               their keys' names (member codes, ints) and printed by their
**               display values, grouped by table, then row (first key), then
**               column (the other keys)
**   procedures  added / removed / changed; a procedure with steps is
**               compared step by step (a step is its STEP instruction and
**               the code up to the next STEP or the end; the code before the
**               first step is "(before the first step)")
**
** Code is compared instruction by instruction, by opcode and operand, with
** operands that name things mapped to their names (tables, procedures,
** notes, choices, strings, dice, decks, inputs, records, enums), locals
** renamed by order of first use within the procedure or step, and line
** numbers ignored.  Values pushed (PUSHI, CONST) are equal when equal, when
** both are the starts of equal strings of their pools (text literals), when
** both are heap offsets whose first four words match (constant records and
** lists, whose offsets shift when a side adds constants), or when a named
** constant changes from the one to the other (its change is reported once,
** as a constant, not again in every step that uses it).  These are
** heuristics over untyped operands: an int that happens to equal such an
** offset on both sides could hide a change of that int.
**
** Each item is followed by its source on both sides, `A-LOC | B-LOC`, paths
** relative to the folder the two files share.
**
** Odds.  Where a changed table is looked up under a dice score, the
** probability of each affected value, per column, is printed before and
** after.  A key is a dice score when the code computes it as `roll NdS`
** directly, or through a local assigned from such a roll (the heuristic
** looks at straight-line code only), or when the command line says so
** (TABLE=NdS+K: the first integer-range key of TABLE is NdS+K).  The odds
** are exact for that score alone: modifiers and clamps the rules apply
** elsewhere are not followed.  A score outside the table's range counts as
** "outside".
**
** Exit: 0 equal, 1 different, 2 bad input, 3 out of memory.
*/
#include "diff.h"

#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "module.h"
#include "opcodes.h"
#include "value.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char rg_diff_help[] =
  "Compares two rule sets after resolving `extends` (each a rule file or a\n"
  ".rbc) and lists what differs, by name: the header, units, enums and\n"
  "members, records, named constants and inputs (value before and after, *\n"
  "for a starred distance), table cells (grouped by table, row, column;\n"
  "dimension changes; tables added or removed), and procedures and their\n"
  "steps (compared by opcode and named operands, line numbers ignored).\n"
  "Every item ends with its source on both sides: A-FILE:LINE | B-FILE:LINE.\n"
  "\n"
  "  ~ changed    + only in B    - only in A\n"
  "\n"
  "Odds: when a changed table is looked up under a dice score (`roll 2d6`\n"
  "or `roll d6` feeding the key, directly or through a local), the chance\n"
  "of each changed value is printed before and after, per column.  Give\n"
  "other scores as --odds TABLE=NdS[+K|-K] (the table's first integer key\n"
  "is NdS+K; repeatable).  Only that score is counted: modifiers and clamps applied\n"
  "elsewhere in the rules are not.\n"
  "\n"
  "Example: regula diff SHEET.rules SHEET-revised.rules\n"
  "Exit: 0 equal, 1 different, 2 bad input, 3 out of memory.\n";

/* ---- a side ---------------------------------------------------------- */

typedef struct side {
  const char *path;
  rg_module m;
  rg_arena arena;
  rg_diag diag;
} side;

static int differ = 0;            /* something was printed */
static size_t strip_len = 0;      /* the shared folder, stripped from paths */
static char strip_dir[1024];

/* Returns string s of m's pool ("" when out of range; owned by m). */
static const char *S(const rg_module *m, uint32_t s) { return rg_module_str(m, s); }

/* Sets sd up (arena, diagnostics on stderr) and loads path into sd->m: a
** .rbc is loaded, anything else compiled.  Returns 0, 2 bad input or 3 out
** of memory, the error printed; free_side(sd) in every case. */
static int load_side(side *sd, const char *path) {
  memset(sd, 0, sizeof *sd);
  sd->path = path;
  rg_arena_init(&sd->arena, 0);
  rg_diag_init(&sd->diag, stderr, &sd->arena);
  if (rg_module_is_rbc(path)) {
    char err[256] = "";
    if (rg_module_load(&sd->m, path, err, sizeof err) != 0) {
      fprintf(stderr, "regula: error: %s: %s\n", path, err[0] ? err : "cannot load the module");
      return strstr(err, "out of memory") ? 3 : 2;
    }
    return 0;
  }
  if (rg_compile(&sd->diag, path, &sd->m, NULL) != 0) {
    if (sd->diag.errors == 0) fprintf(stderr, "regula: error: %s: cannot compile\n", path);
    return sd->arena.failed ? 3 : 2;
  }
  return 0;
}

/* Frees sd's module and arena (not sd itself). */
static void free_side(side *sd) {
  rg_module_free(&sd->m);
  rg_arena_free(&sd->arena);
}

/* Normalizes a path: drops "./" and folds "dir/../". */
static void norm_path(char *out, size_t size, const char *in) {
  char tmp[1024];
  const char *parts[128];
  size_t lens[128];
  int n = 0, abs = in[0] == '/';
  const char *p = in;
  while (*p) {
    const char *q = strchr(p, '/');
    size_t len = q ? (size_t)(q - p) : strlen(p);
    if (len == 0 || (len == 1 && p[0] == '.')) {
    } else if (len == 2 && p[0] == '.' && p[1] == '.' && n > 0 &&
               !(lens[n - 1] == 2 && parts[n - 1][0] == '.' && parts[n - 1][1] == '.')) {
      n--;
    } else if (n < 128) {
      parts[n] = p;
      lens[n++] = len;
    }
    if (!q) break;
    p = q + 1;
  }
  size_t o = 0;
  tmp[0] = '\0';
  if (abs) tmp[o++] = '/';
  for (int i = 0; i < n && o + lens[i] + 2 < sizeof tmp; i++) {
    if (i) tmp[o++] = '/';
    memcpy(tmp + o, parts[i], lens[i]);
    o += lens[i];
  }
  tmp[o] = '\0';
  snprintf(out, size, "%s", tmp);
}

/* "path:line", the path normalized and the shared folder stripped. */
static const char *loc(char *buf, size_t size, const rg_module *m, uint32_t file, uint32_t line) {
  char p[1024];
  if (file >= m->nfiles || line == 0) {
    snprintf(buf, size, "?");
    return buf;
  }
  norm_path(p, sizeof p, S(m, m->files[file]));
  snprintf(buf, size, "%.400s:%u", strlen(p) > strip_len && strncmp(p, strip_dir, strip_len) == 0
                                     ? p + strip_len : p, line);
  return buf;
}

/* The source line of instruction pc. */
static const char *loc_pc(char *buf, size_t size, const rg_module *m, uint32_t pc) {
  if (pc >= m->nlines) return snprintf(buf, size, "?"), buf;
  return loc(buf, size, m, m->lines[pc].file, m->lines[pc].line);
}

/* Prints an item's source on both sides, `    A | B`; NULL prints "-". */
static void both(const char *a, const char *b) {
  printf("    %s | %s\n", a ? a : "-", b ? b : "-");
}

/* Writes value v of type t of m into buf[0..size): a text in double quotes,
** anything else as rg_value_format writes it. */
static void fmtv(char *buf, size_t size, const rg_module *m, rg_type t, rg_value v) {
  if (t.kind == RG_K_TEXT) {
    snprintf(buf, size, "\"%s\"", S(m, (uint32_t)v));
    return;
  }
  rg_value_format(buf, size, m, m->heap, m->nheap, t, v);
}

/* Prints the heading `== name` unless *printed, then sets *printed; records
** that the sides differ. */
static void section(const char *name, int *printed) {
  if (!*printed) printf("== %s\n", name);
  *printed = 1;
  differ = 1;
}

/* ---- header, units, enums, records ----------------------------------- */

/* Prints the changes of the ruleset's name, revision and source. */
static void diff_header(const rg_module *a, const rg_module *b) {
  int pr = 0;
  if (strcmp(S(a, a->name), S(b, b->name)) != 0) {
    section("ruleset", &pr);
    printf("~ name: \"%s\" -> \"%s\"\n", S(a, a->name), S(b, b->name));
  }
  if (strcmp(S(a, a->revision), S(b, b->revision)) != 0) {
    section("ruleset", &pr);
    printf("~ revision: \"%s\" -> \"%s\"\n", S(a, a->revision), S(b, b->revision));
  }
  if (strcmp(S(a, a->source), S(b, b->source)) != 0) {
    section("ruleset", &pr);
    printf("~ source: \"%s\" -> \"%s\"\n", S(a, a->source), S(b, b->source));
  }
}

/* Returns the index of unit `name` in m, or -1. */
static int find_unit(const rg_module *m, const char *name) {
  for (uint32_t i = 0; i < m->nunits; i++)
    if (strcmp(S(m, m->units[i].name), name) == 0) return (int)i;
  return -1;
}

/* Prints the units only in a (-) and only in b (+), matched by name. */
static void diff_units(const rg_module *a, const rg_module *b) {
  int pr = 0;
  for (uint32_t i = 0; i < a->nunits; i++)
    if (find_unit(b, S(a, a->units[i].name)) < 0) {
      section("units", &pr);
      printf("- unit %s \"%s\"\n", S(a, a->units[i].name), S(a, a->units[i].display));
    }
  for (uint32_t i = 0; i < b->nunits; i++)
    if (find_unit(a, S(b, b->units[i].name)) < 0) {
      section("units", &pr);
      printf("+ unit %s \"%s\"\n", S(b, b->units[i].name), S(b, b->units[i].display));
    }
}

/* Returns the position in enum e of m of the member with code `code`, or -1. */
static int find_member(const rg_module *m, uint32_t e, const char *code) {
  const rg_enum *en = &m->enums[e];
  for (uint32_t k = 0; k < en->count; k++)
    if (strcmp(S(m, m->members[en->first + k].code), code) == 0) return (int)k;
  return -1;
}

/* Prints enum e of m as `NAME { A, B }` (`A < B` when ordered), no newline. */
static void print_enum(const rg_module *m, uint32_t e) {
  const rg_enum *en = &m->enums[e];
  printf("%s {", S(m, en->name));
  for (uint32_t k = 0; k < en->count; k++)
    printf("%s %s", k ? (en->ordered ? " <" : ",") : "", S(m, m->members[en->first + k].code));
  printf(" }");
}

/* Prints the enums added and removed, and of enums on both sides the
** members added, removed or shown differently, and a change of order. */
static void diff_enums(const rg_module *a, const rg_module *b) {
  int pr = 0;
  for (uint32_t i = 0; i < a->nenums; i++) {
    int j = rg_module_find_enum(b, S(a, a->enums[i].name));
    if (j < 0) {
      section("enums", &pr);
      printf("- enum ");
      print_enum(a, i);
      printf("\n");
      continue;
    }
    const rg_enum *ea = &a->enums[i], *eb = &b->enums[j];
    int head = 0;
#define ENUM_HEAD() do { if (!head) { section("enums", &pr); printf("~ enum %s\n", S(a, ea->name)); head = 1; } } while (0)
    for (uint32_t k = 0; k < ea->count; k++) {
      const rg_member_info *ma = &a->members[ea->first + k];
      int kb = find_member(b, (uint32_t)j, S(a, ma->code));
      if (kb < 0) {
        ENUM_HEAD();
        printf("    - %s\n", S(a, ma->code));
      } else if (strcmp(S(a, ma->display), S(b, b->members[eb->first + kb].display)) != 0) {
        ENUM_HEAD();
        printf("    ~ %s: \"%s\" -> \"%s\"\n", S(a, ma->code), S(a, ma->display),
               S(b, b->members[eb->first + kb].display));
      }
    }
    for (uint32_t k = 0; k < eb->count; k++)
      if (find_member(a, i, S(b, b->members[eb->first + k].code)) < 0) {
        ENUM_HEAD();
        printf("    + %s\n", S(b, b->members[eb->first + k].code));
      }
    if (ea->ordered != eb->ordered) {
      ENUM_HEAD();
      printf("    ~ %s -> %s\n", ea->ordered ? "ordered" : "unordered",
             eb->ordered ? "ordered" : "unordered");
    }
#undef ENUM_HEAD
  }
  for (uint32_t j = 0; j < b->nenums; j++)
    if (rg_module_find_enum(a, S(b, b->enums[j].name)) < 0) {
      section("enums", &pr);
      printf("+ enum ");
      print_enum(b, j);
      printf("\n");
    }
}

/* Returns the index of record type `name` in m, or -1. */
static int find_record(const rg_module *m, const char *name) {
  for (uint32_t i = 0; i < m->nrecords; i++)
    if (strcmp(S(m, m->records[i].name), name) == 0) return (int)i;
  return -1;
}

/* Prints the record types added and removed, and of those on both sides the
** fields added, removed or retyped (compared by type name). */
static void diff_records(const rg_module *a, const rg_module *b) {
  int pr = 0;
  char ta[128], tb[128];
  for (uint32_t i = 0; i < a->nrecords; i++) {
    const rg_record *ra = &a->records[i];
    int j = find_record(b, S(a, ra->name));
    if (j < 0) {
      section("records", &pr);
      printf("- record %s\n", S(a, ra->name));
      continue;
    }
    const rg_record *rb = &b->records[j];
    int head = 0;
    for (uint32_t k = 0; k < ra->count; k++) {
      const rg_field_info *fa = &a->fields[ra->first + k];
      int found = -1;
      for (uint32_t l = 0; l < rb->count; l++)
        if (strcmp(S(a, fa->name), S(b, b->fields[rb->first + l].name)) == 0) found = (int)l;
      rg_type_name(ta, sizeof ta, a, fa->type);
      if (found >= 0) rg_type_name(tb, sizeof tb, b, b->fields[rb->first + found].type);
      if (found < 0 || strcmp(ta, tb) != 0) {
        if (!head) { section("records", &pr); printf("~ record %s\n", S(a, ra->name)); head = 1; }
        if (found < 0) printf("    - %s: %s\n", S(a, fa->name), ta);
        else printf("    ~ %s: %s -> %s\n", S(a, fa->name), ta, tb);
      }
    }
    for (uint32_t l = 0; l < rb->count; l++) {
      const rg_field_info *fb = &b->fields[rb->first + l];
      int found = 0;
      for (uint32_t k = 0; k < ra->count; k++)
        if (strcmp(S(b, fb->name), S(a, a->fields[ra->first + k].name)) == 0) found = 1;
      if (!found) {
        if (!head) { section("records", &pr); printf("~ record %s\n", S(a, ra->name)); head = 1; }
        rg_type_name(tb, sizeof tb, b, fb->type);
        printf("    + %s: %s\n", S(b, fb->name), tb);
      }
    }
  }
  for (uint32_t j = 0; j < b->nrecords; j++)
    if (find_record(a, S(b, b->records[j].name)) < 0) {
      section("records", &pr);
      printf("+ record %s\n", S(b, b->records[j].name));
    }
}

/* ---- constants and inputs --------------------------------------------- */

/* Returns the index of named constant `name` in m, or -1. */
static int find_named(const rg_module *m, const char *name) {
  for (uint32_t i = 0; i < m->nnamed; i++)
    if (strcmp(S(m, m->named[i].name), name) == 0) return (int)i;
  return -1;
}

/* Writes named constant n of m into buf[0..size) (see fmtv), with a `*`
** after a starred value. */
static void fmt_named(char *buf, size_t size, const rg_module *m, const rg_named *n) {
  fmtv(buf, size, m, n->type, n->value);
  if (n->starred && strlen(buf) + 2 < size) strcat(buf, "*");
}

/* Prints the named constants added, removed or changed, with their sources,
** then the inputs added, removed or with another default. */
static void diff_consts(const rg_module *a, const rg_module *b) {
  int pr = 0;
  char va[512], vb[512], la[512], lb[512];
  for (uint32_t i = 0; i < a->nnamed; i++) {
    const rg_named *na = &a->named[i];
    int j = find_named(b, S(a, na->name));
    fmt_named(va, sizeof va, a, na);
    loc(la, sizeof la, a, na->file, na->line);
    if (j < 0) {
      section("constants", &pr);
      printf("- %s = %s\n", S(a, na->name), va);
      both(la, NULL);
      continue;
    }
    const rg_named *nb = &b->named[j];
    fmt_named(vb, sizeof vb, b, nb);
    if (strcmp(va, vb) != 0) {
      section("constants", &pr);
      printf("~ %s: %s -> %s\n", S(a, na->name), va, vb);
      both(la, loc(lb, sizeof lb, b, nb->file, nb->line));
    }
  }
  for (uint32_t j = 0; j < b->nnamed; j++)
    if (find_named(a, S(b, b->named[j].name)) < 0) {
      section("constants", &pr);
      fmt_named(vb, sizeof vb, b, &b->named[j]);
      printf("+ %s = %s\n", S(b, b->named[j].name), vb);
      both(NULL, loc(lb, sizeof lb, b, b->named[j].file, b->named[j].line));
    }
  /* Inputs: their defaults. */
  for (uint32_t i = 0; i < a->ninputs; i++) {
    int j = -1;
    for (uint32_t k = 0; k < b->ninputs; k++)
      if (strcmp(S(a, a->inputs[i].name), S(b, b->inputs[k].name)) == 0) j = (int)k;
    fmtv(va, sizeof va, a, a->inputs[i].type, a->inputs[i].value);
    if (j < 0) {
      section("constants", &pr);
      printf("- input %s = %s\n", S(a, a->inputs[i].name), va);
      continue;
    }
    fmtv(vb, sizeof vb, b, b->inputs[j].type, b->inputs[j].value);
    if (strcmp(va, vb) != 0) {
      section("constants", &pr);
      printf("~ input %s: %s -> %s\n", S(a, a->inputs[i].name), va, vb);
    }
  }
  for (uint32_t k = 0; k < b->ninputs; k++) {
    int found = 0;
    for (uint32_t i = 0; i < a->ninputs; i++)
      if (strcmp(S(a, a->inputs[i].name), S(b, b->inputs[k].name)) == 0) found = 1;
    if (!found) {
      section("constants", &pr);
      fmtv(vb, sizeof vb, b, b->inputs[k].type, b->inputs[k].value);
      printf("+ input %s = %s\n", S(b, b->inputs[k].name), vb);
    }
  }
}

/* ---- tables ---------------------------------------------------------- */

/* The name of key index k (0-based) of dimension d. */
static void key_name(char *buf, size_t size, const rg_module *m, const rg_dim *d, uint32_t k) {
  if (d->is_enum) {
    const rg_member_info *mi = &m->members[m->enums[d->ref].first + k];
    snprintf(buf, size, "%s", S(m, mi->display ? mi->display : mi->code));
  } else {
    snprintf(buf, size, "%lld", (long long)(d->lo + (int64_t)k));
  }
}

/* Finds the index in dimension db of b of key k of dimension da of a, by
** member code or integer; -1 when b has no such key. */
static int64_t map_key(const rg_module *a, const rg_dim *da, uint32_t k, const rg_module *b,
                       const rg_dim *db) {
  if (da->is_enum != db->is_enum) return -1;
  if (da->is_enum) return find_member(b, db->ref, S(a, a->members[a->enums[da->ref].first + k].code));
  int64_t v = da->lo + (int64_t)k;
  if (v < db->lo || v >= db->lo + (int64_t)db->size) return -1;
  return v - db->lo;
}

/* Writes table t's dimensions into buf[0..size) as `(label: Enum, lo..hi)`,
** cut short when it does not fit. */
static void dim_text(char *buf, size_t size, const rg_module *m, const rg_table *t) {
  size_t o = 0;
  o += (size_t)snprintf(buf + o, size - o, "(");
  for (uint32_t i = 0; i < t->ndims && o < size; i++) {
    const rg_dim *d = &m->dims[t->first_dim + i];
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

/* Odds hints and detected dice keys. */
typedef struct dicekey {
  int dim;                  /* which dimension (-1: none) */
  int n, sides, plus;
  char where[512];          /* how it was found */
} dicekey;

static char **hints;
static int nhints;

/* Finds a dice key for table t (by name) of module m: a hint first, then the
** heuristic over m's code. */
static dicekey find_dice(const rg_module *m, const char *tname);

static void print_odds(const side *sa, const side *sb, int ta, int tb);

/* Prints the tables added and removed, and of tables on both sides changed
** dimensions or cell type and every cell changed, only in a or only in b
** (matched by key names), then their odds (print_odds). */
static void diff_tables(const side *sa, const side *sb) {
  const rg_module *a = &sa->m, *b = &sb->m;
  int pr = 0;
  char la[512], lb[512], da[512], db[512], va[1024], vb[1024], key[512], row[256];
  for (uint32_t i = 0; i < a->ntables; i++) {
    const rg_table *ta = &a->tables[i];
    int j = rg_module_find_table(b, S(a, ta->name));
    dim_text(da, sizeof da, a, ta);
    if (j < 0) {
      section("tables", &pr);
      printf("- table %s%s\n", S(a, ta->name), da);
      both(loc(la, sizeof la, a, a->cellsrc[ta->first].file, a->cellsrc[ta->first].line), NULL);
      continue;
    }
    const rg_table *tb = &b->tables[j];
    dim_text(db, sizeof db, b, tb);
    int head = 0;
    char tya[128], tyb[128];
    rg_type_name(tya, sizeof tya, a, ta->value);
    rg_type_name(tyb, sizeof tyb, b, tb->value);
#define TABLE_HEAD() do { if (!head) { section("tables", &pr); printf("~ table %s%s\n", S(a, ta->name), da); head = 1; } } while (0)
    if (strcmp(da, db) != 0) {
      TABLE_HEAD();
      printf("    dimensions: %s -> %s\n", da, db);
    }
    if (strcmp(tya, tyb) != 0) {
      TABLE_HEAD();
      printf("    cell type: %s -> %s\n", tya, tyb);
    }
    int same_ndims = ta->ndims == tb->ndims;
    char last_row[256] = "";
    /* Cells of a, in order: changed or only in a. */
    for (uint32_t c = 0; c < ta->count; c++) {
      uint32_t rest = c, keys[8];
      for (int d = (int)ta->ndims - 1; d >= 0; d--) {
        uint32_t size = a->dims[ta->first_dim + d].size;
        keys[d] = rest % size;
        rest /= size;
      }
      int64_t cb = -1;
      if (same_ndims) {
        cb = 0;
        for (uint32_t d = 0; d < ta->ndims; d++) {
          const rg_dim *dda = &a->dims[ta->first_dim + d], *ddb = &b->dims[tb->first_dim + d];
          int64_t kb = map_key(a, dda, keys[d], b, ddb);
          if (kb < 0) { cb = -1; break; }
          cb = cb * ddb->size + kb;
        }
      }
      fmtv(va, sizeof va, a, ta->value, a->cells[ta->first + c]);
      if (cb >= 0) fmtv(vb, sizeof vb, b, tb->value, b->cells[tb->first + (uint32_t)cb]);
      if (cb >= 0 && strcmp(va, vb) == 0) continue;
      TABLE_HEAD();
      /* row = first key; column = the others */
      key_name(row, sizeof row, a, &a->dims[ta->first_dim], keys[0]);
      key[0] = '\0';
      for (uint32_t d = 1; d < ta->ndims; d++) {
        char k1[128];
        key_name(k1, sizeof k1, a, &a->dims[ta->first_dim + d], keys[d]);
        if (d > 1) strncat(key, ", ", sizeof key - strlen(key) - 1);
        strncat(key, k1, sizeof key - strlen(key) - 1);
      }
      if (ta->ndims > 1 && strcmp(row, last_row) != 0) {
        printf("    row %s:\n", row);
        snprintf(last_row, sizeof last_row, "%s", row);
      }
      const char *ind = ta->ndims > 1 ? "      " : "    ";
      const char *label = ta->ndims > 1 ? key : row;
      loc(la, sizeof la, a, a->cellsrc[ta->first + c].file, a->cellsrc[ta->first + c].line);
      if (cb < 0) {
        printf("%s- [%s]: %s\n", ind, label, va);
        printf("%s    %s | -\n", ind, la);
      } else {
        loc(lb, sizeof lb, b, b->cellsrc[tb->first + (uint32_t)cb].file,
            b->cellsrc[tb->first + (uint32_t)cb].line);
        printf("%s~ [%s]: %s -> %s\n", ind, label, va, vb);
        printf("%s    %s | %s\n", ind, la, lb);
      }
    }
    /* Cells only in b. */
    for (uint32_t c = 0; c < tb->count; c++) {
      uint32_t rest = c, keys[8];
      for (int d = (int)tb->ndims - 1; d >= 0; d--) {
        uint32_t size = b->dims[tb->first_dim + d].size;
        keys[d] = rest % size;
        rest /= size;
      }
      int in_a = same_ndims;
      for (uint32_t d = 0; in_a && d < tb->ndims; d++)
        if (map_key(b, &b->dims[tb->first_dim + d], keys[d], a, &a->dims[ta->first_dim + d]) < 0)
          in_a = 0;
      if (in_a) continue;
      TABLE_HEAD();
      key_name(row, sizeof row, b, &b->dims[tb->first_dim], keys[0]);
      key[0] = '\0';
      for (uint32_t d = 1; d < tb->ndims; d++) {
        char k1[128];
        key_name(k1, sizeof k1, b, &b->dims[tb->first_dim + d], keys[d]);
        if (d > 1) strncat(key, ", ", sizeof key - strlen(key) - 1);
        strncat(key, k1, sizeof key - strlen(key) - 1);
      }
      fmtv(vb, sizeof vb, b, tb->value, b->cells[tb->first + c]);
      loc(lb, sizeof lb, b, b->cellsrc[tb->first + c].file, b->cellsrc[tb->first + c].line);
      if (tb->ndims > 1) printf("    row %s:\n      + [%s]: %s\n          - | %s\n", row, key, vb, lb);
      else printf("    + [%s]: %s\n        - | %s\n", row, vb, lb);
    }
#undef TABLE_HEAD
    if (head) print_odds(sa, sb, (int)i, j);
  }
  for (uint32_t j = 0; j < b->ntables; j++)
    if (rg_module_find_table(a, S(b, b->tables[j].name)) < 0) {
      section("tables", &pr);
      dim_text(db, sizeof db, b, &b->tables[j]);
      printf("+ table %s%s\n", S(b, b->tables[j].name), db);
      both(NULL, loc(lb, sizeof lb, b, b->cellsrc[b->tables[j].first].file,
                     b->cellsrc[b->tables[j].first].line));
    }
}

/* ---- odds -------------------------------------------------------------- */

/* The distribution of NdS: counts[s] for sums s = n..n*S; returns the total
** (S^n), or 0 when too large. */
static uint64_t dice_counts(int n, int sides, uint64_t *counts, int max) {
  uint64_t total = 1;
  if (n < 1 || n > 6 || sides < 2 || sides > 20 || n * sides >= max) return 0;
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

/* A value of a table column and the outcomes of the dice that give it,
** before (in a) and after (in b). */
typedef struct odds_row {
  char value[256];
  uint64_t before, after;
} odds_row;

/* Adds into rows[0..*nrows) (at most 64) the outcomes of the dice counts[]
** that give each value of column colkeys of table t of m, the score along
** dimension dk->dim: to .after when `after`, else to .before. */
static void column_odds(const rg_module *m, const rg_table *t, const dicekey *dk,
                        const uint32_t *colkeys, const uint64_t *counts, odds_row *rows,
                        int *nrows, int after) {
  const rg_dim *d = &m->dims[t->first_dim + dk->dim];
  for (int s = 0; s < 128; s++) {
    if (!counts[s]) continue;
    int64_t score = s + dk->plus;
    char v[256];
    if (score < d->lo || score >= d->lo + (int64_t)d->size) {
      snprintf(v, sizeof v, "(outside %lld..%lld)", (long long)d->lo,
               (long long)(d->lo + (int64_t)d->size - 1));
    } else {
      uint32_t keys[8], cell = 0;
      for (uint32_t i = 0; i < t->ndims; i++) keys[i] = colkeys[i];
      keys[dk->dim] = (uint32_t)(score - d->lo);
      for (uint32_t i = 0; i < t->ndims; i++) cell = cell * m->dims[t->first_dim + i].size + keys[i];
      fmtv(v, sizeof v, m, t->value, m->cells[t->first + cell]);
    }
    int r;
    for (r = 0; r < *nrows; r++)
      if (strcmp(rows[r].value, v) == 0) break;
    if (r == *nrows) {
      if (*nrows >= 64) continue;
      memset(&rows[r], 0, sizeof rows[r]);
      snprintf(rows[r].value, sizeof rows[r].value, "%s", v);
      (*nrows)++;
    }
    if (after) rows[r].after += counts[s];
    else rows[r].before += counts[s];
  }
}

/* When a dice key for table ita of a (itb of b) is found and the sides agree
** on it, prints per column each value whose chance changed, before and
** after. */
static void print_odds(const side *sa, const side *sb, int ita, int itb) {
  const rg_module *a = &sa->m, *b = &sb->m;
  const rg_table *ta = &a->tables[ita], *tb = &b->tables[itb];
  const char *name = S(a, ta->name);
  dicekey ka = find_dice(a, name), kb = find_dice(b, name);
  if (ka.dim < 0 && kb.dim < 0) return;
  if (ka.dim < 0) ka = kb;
  if (kb.dim < 0) kb = ka;
  if (ta->ndims != tb->ndims || ka.dim >= (int)ta->ndims || kb.dim >= (int)tb->ndims ||
      ka.n != kb.n || ka.sides != kb.sides || ka.plus != kb.plus)
    return;
  uint64_t counts[128];
  uint64_t total = dice_counts(ka.n, ka.sides, counts, 128);
  if (!total) return;
  printf("    odds, %s = %dd%d%+d (%s):\n", S(a, a->dims[ta->first_dim + ka.dim].label)[0]
         ? S(a, a->dims[ta->first_dim + ka.dim].label) : "key", ka.n, ka.sides, ka.plus, ka.where);
  /* Every column of a (keys other than the dice dimension) that maps to b. */
  uint32_t ncols = 1;
  for (uint32_t d = 0; d < ta->ndims; d++)
    if ((int)d != ka.dim) ncols *= a->dims[ta->first_dim + d].size;
  for (uint32_t col = 0; col < ncols; col++) {
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
    odds_row rows[64];
    int nrows = 0;
    column_odds(a, ta, &ka, keysa, counts, rows, &nrows, 0);
    column_odds(b, tb, &kb, keysb, counts, rows, &nrows, 1);
    int changed = 0;
    for (int r = 0; r < nrows; r++)
      if (rows[r].before != rows[r].after) changed = 1;
    if (!changed) continue;
    char colname[256] = "";
    for (uint32_t d = 0; d < ta->ndims; d++) {
      char k1[128];
      if ((int)d == ka.dim) continue;
      key_name(k1, sizeof k1, a, &a->dims[ta->first_dim + d], keysa[d]);
      if (colname[0]) strncat(colname, ", ", sizeof colname - strlen(colname) - 1);
      strncat(colname, k1, sizeof colname - strlen(colname) - 1);
    }
    if (colname[0]) printf("      %s:\n", colname);
    for (int r = 0; r < nrows; r++) {
      if (rows[r].before == rows[r].after) continue;
      printf("      %s%s: %llu/%llu (%.1f%%) -> %llu/%llu (%.1f%%)\n", colname[0] ? "  " : "",
             rows[r].value, (unsigned long long)rows[r].before, (unsigned long long)total,
             100.0 * (double)rows[r].before / (double)total, (unsigned long long)rows[r].after,
             (unsigned long long)total, 100.0 * (double)rows[r].after / (double)total);
    }
  }
}

/* Parses "NdS", "dS", "NdS+K", "NdS-K". */
static int parse_dice(const char *s, int *n, int *sides, int *plus) {
  char *end;
  long v = 1;
  if (*s != 'd' && *s != 'D') {
    v = strtol(s, &end, 10);
    s = end;
  }
  if (*s != 'd' && *s != 'D') return -1;
  *n = (int)v;
  v = strtol(s + 1, &end, 10);
  if (end == s + 1) return -1;
  *sides = (int)v;
  *plus = 0;
  if (*end == '+' || *end == '-') {
    char *e2;
    long k = strtol(end, &e2, 10);
    if (e2 == end + 1) return -1;
    *plus = (int)k;
    end = e2;
  }
  if (*end) return -1;
  uint64_t c[128];
  return dice_counts(*n, *sides, c, 128) ? 0 : -1;
}

/* The instruction that pushed the value `depth` below the top of the stack
** just before pc, walking back through straight-line code; -1 when unknown. */
static int64_t producer(const rg_module *m, const rg_proc *p, uint32_t pc, int depth) {
  uint32_t start = p->code;
  while (pc > start) {
    uint32_t ins = m->code[--pc];
    unsigned op = RG_INS_OP(ins);
    int pops, pushes;
    if (op == RG_OP_JMP || op == RG_OP_JMPF || op == RG_OP_JMPT || op == RG_OP_RET ||
        op == RG_OP_RETV)
      return -1;
    if (rg_op_effect(m, ins, &pops, &pushes) != 0) return -1;
    if (depth < pushes) return depth == 0 && pushes == 1 ? (int64_t)pc : -1;
    depth = depth - pushes + pops;
  }
  return -1;
}

/* When instruction pc is a `roll NdS` (PUSHI n; ROLL S), sets n and sides. */
static int is_roll(const rg_module *m, const rg_proc *p, int64_t pc, int *n, int *sides) {
  if (pc < 0 || RG_INS_OP(m->code[pc]) != RG_OP_ROLL) return 0;
  int64_t c = producer(m, p, (uint32_t)pc, 0);
  if (c < 0 || RG_INS_OP(m->code[c]) != RG_OP_PUSHI) return 0;
  *n = RG_INS_SA(m->code[c]);
  *sides = (int)RG_INS_A(m->code[pc]);
  return 1;
}

/* Returns the dice key of table tname of m (dim -1 when none): a --odds hint
** first, then a LOOKUP whose integer key comes from `roll NdS`. */
static dicekey find_dice(const rg_module *m, const char *tname) {
  dicekey k;
  memset(&k, 0, sizeof k);
  k.dim = -1;
  int t = rg_module_find_table(m, tname);
  if (t < 0) return k;
  const rg_table *tab = &m->tables[t];
  for (int h = 0; h < nhints; h++) {
    const char *eq = strchr(hints[h], '=');
    if ((size_t)(eq - hints[h]) != strlen(tname) || strncmp(hints[h], tname, strlen(tname)) != 0)
      continue;
    for (uint32_t d = 0; d < tab->ndims; d++)
      if (!m->dims[tab->first_dim + d].is_enum) {
        if (parse_dice(eq + 1, &k.n, &k.sides, &k.plus) != 0) break;
        k.dim = (int)d;
        snprintf(k.where, sizeof k.where, "given on the command line");
        return k;
      }
  }
  /* Heuristic: a LOOKUP of the table whose integer key is a roll, directly
  ** or through a local stored from a roll. */
  for (uint32_t pi = 0; pi < m->nprocs; pi++) {
    const rg_proc *p = &m->procs[pi];
    int is_test = 0;
    for (uint32_t i = 0; i < m->ntests; i++)
      if (m->tests[i].proc == pi) is_test = 1;
    if (is_test) continue;
    for (uint32_t pc = p->code; pc < p->code + p->ncode; pc++) {
      uint32_t ins = m->code[pc];
      if (RG_INS_OP(ins) != RG_OP_LOOKUP || RG_INS_A(ins) != (uint32_t)t) continue;
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
        if (is_roll(m, p, rollpc, &n, &sides)) {
          char l[512];
          k.dim = (int)d;
          k.n = n;
          k.sides = sides;
          k.plus = 0;
          snprintf(k.where, sizeof k.where, "roll %dd%d at %s", n, sides,
                   loc_pc(l, sizeof l, m, (uint32_t)rollpc));
          return k;
        }
      }
    }
  }
  return k;
}

/* ---- procedures and steps -------------------------------------------- */

typedef struct ctx {
  const rg_module *a, *b;
} ctx;

/* Whether the values va (pushed in a) and vb (in b) are the same. */
static int same_value(const rg_module *a, rg_value va, const rg_module *b, rg_value vb) {
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
      rg_value x = a->heap[va + k], y = b->heap[vb + k];
      if (x == y) continue;
      if (x > 0 && y > 0 && (uint64_t)x < a->nstrings && (uint64_t)y < b->nstrings &&
          a->strings[x - 1] == '\0' && b->strings[y - 1] == '\0' &&
          strcmp(a->strings + x, b->strings + y) == 0)
        continue;
      break;
    }
    if (n > 0 && k == n) return 1;
  }
  for (uint32_t i = 0; i < a->nnamed; i++) {
    if (a->named[i].value != va) continue;
    int j = find_named(b, S(a, a->named[i].name));
    if (j >= 0 && b->named[j].value == vb) return 1;
  }
  return 0;
}

/* Compares one instruction of each side; lmap_a/lmap_b rename locals by
** order of first use (arrays of size nlocals, -1 unused), *next the next
** canonical number. */
static int same_ins(const rg_module *a, uint32_t ia, const rg_module *b, uint32_t ib,
                    int *lmap_a, uint32_t na, int *lmap_b, uint32_t nb, int *next) {
  unsigned op = RG_INS_OP(ia);
  uint32_t A = RG_INS_A(ia), B = RG_INS_A(ib);
  if (op != RG_INS_OP(ib)) return 0;
  switch (op) {
  case RG_OP_PUSHI: return same_value(a, RG_INS_SA(ia), b, RG_INS_SA(ib));
  case RG_OP_CONST: return same_value(a, a->consts[A], b, b->consts[B]);
  case RG_OP_LOAD: case RG_OP_STORE:
    if (A >= na || B >= nb) return A == B;
    if (lmap_a[A] < 0 && lmap_b[B] < 0) { lmap_a[A] = lmap_b[B] = (*next)++; return 1; }
    return lmap_a[A] == lmap_b[B];
  case RG_OP_LOOKUP: return strcmp(S(a, a->tables[A].name), S(b, b->tables[B].name)) == 0;
  case RG_OP_MKREC: return strcmp(S(a, a->records[A].name), S(b, b->records[B].name)) == 0;
  case RG_OP_CALL: return strcmp(S(a, a->procs[A].name), S(b, b->procs[B].name)) == 0;
  case RG_OP_NOTE:
    return a->notes[A].nvals == b->notes[B].nvals &&
           strcmp(S(a, a->notes[A].text), S(b, b->notes[B].text)) == 0;
  case RG_OP_EXPECT: case RG_OP_EXPECTEQ:
    return strcmp(S(a, a->expects[A].text), S(b, b->expects[B].text)) == 0;
  case RG_OP_STEP: case RG_OP_FAIL: return strcmp(S(a, A), S(b, B)) == 0;
  case RG_OP_ROLLDIE: return strcmp(S(a, a->dice[A].name), S(b, b->dice[B].name)) == 0;
  case RG_OP_DRAW: case RG_OP_LEFT:
    return strcmp(S(a, a->decks[A].name), S(b, b->decks[B].name)) == 0;
  case RG_OP_CHOOSE:
    return a->choices[A].kind == b->choices[B].kind &&
           strcmp(S(a, a->choices[A].prompt), S(b, b->choices[B].prompt)) == 0;
  case RG_OP_INPUT: return strcmp(S(a, a->inputs[A].name), S(b, b->inputs[B].name)) == 0;
  case RG_OP_NTH: return strcmp(S(a, a->enums[A].name), S(b, b->enums[B].name)) == 0;
  default: return ia == ib;
  }
}

/* Returns whether a's code [sa, ea) of pa and b's [sb, eb) of pb match
** instruction by instruction (same_ins, locals renamed); 0 when out of memory.
** RG_DIFF_DEBUG=1 prints the first difference on stderr. */
static int same_code(const rg_module *a, const rg_proc *pa, uint32_t sa, uint32_t ea,
                     const rg_module *b, const rg_proc *pb, uint32_t sb, uint32_t eb) {
  if (ea - sa != eb - sb) return 0;
  int *ma = calloc(pa->nlocals + 1, sizeof *ma), *mb = calloc(pb->nlocals + 1, sizeof *mb);
  int next = 0, same = 1;
  if (!ma || !mb) { free(ma); free(mb); return 0; }
  for (uint32_t i = 0; i <= pa->nlocals; i++) ma[i] = -1;
  for (uint32_t i = 0; i <= pb->nlocals; i++) mb[i] = -1;
  for (uint32_t k = 0; same && k < ea - sa; k++) {
    same = same_ins(a, a->code[sa + k], b, b->code[sb + k], ma, pa->nlocals, mb, pb->nlocals, &next);
    if (!same && getenv("RG_DIFF_DEBUG"))
      fprintf(stderr, "differ at +%u: %s %u / %s %u\n", k, rg_opnames[RG_INS_OP(a->code[sa + k])],
              RG_INS_A(a->code[sa + k]), rg_opnames[RG_INS_OP(b->code[sb + k])], RG_INS_A(b->code[sb + k]));
  }
  free(ma);
  free(mb);
  return same;
}

/* A step of a procedure: code [start, end) from its STEP (or from the
** procedure's start) to the next STEP or the end. */
typedef struct seg {
  uint32_t start, end;
  const char *name;         /* NULL: before the first step */
} seg;

/* Splits procedure p of m into out[0..max) at its STEPs (the part before the
** first step only when not empty).  Returns the count. */
static int segments(const rg_module *m, const rg_proc *p, seg *out, int max) {
  int n = 0;
  uint32_t s = p->code;
  const char *name = NULL;
  for (uint32_t pc = p->code; pc < p->code + p->ncode; pc++) {
    if (RG_INS_OP(m->code[pc]) != RG_OP_STEP) continue;
    if (n < max && (pc > s || name)) out[n++] = (seg){ s, pc, name };
    s = pc;
    name = S(m, RG_INS_A(m->code[pc]));
  }
  if (n < max) out[n++] = (seg){ s, p->code + p->ncode, name };
  return n;
}

/* Where a step is given: the line of its STEP, or of its body's first
** instruction when that comes from another file (an `override step`). */
static const char *step_loc(char *buf, size_t size, const rg_module *m, const seg *sg) {
  uint32_t pc = sg->start;
  if (sg->name && pc + 1 < sg->end && pc + 1 < m->nlines &&
      m->lines[pc + 1].file != m->lines[pc].file)
    pc++;
  return loc_pc(buf, size, m, pc);
}

/* Returns whether procedure p of m is the body of a test. */
static int is_test(const rg_module *m, uint32_t p) {
  for (uint32_t i = 0; i < m->ntests; i++)
    if (m->tests[i].proc == p) return 1;
  return 0;
}

/* Returns the index of procedure `name` in m, tests left out, or -1. */
static int find_proc(const rg_module *m, const char *name) {
  for (uint32_t i = 0; i < m->nprocs; i++)
    if (!is_test(m, i) && strcmp(S(m, m->procs[i].name), name) == 0) return (int)i;
  return -1;
}

/* Prints the procedures added, removed or changed (not tests), and of a
** changed one with steps the steps added, removed or changed, by name. */
static void diff_procs(const rg_module *a, const rg_module *b) {
  int pr = 0;
  char la[512], lb[512];
  enum { MAXSEG = 256 };
  static seg sa[MAXSEG], sb[MAXSEG];
  for (uint32_t i = 0; i < a->nprocs; i++) {
    if (is_test(a, i)) continue;
    const rg_proc *pa = &a->procs[i];
    int j = find_proc(b, S(a, pa->name));
    loc_pc(la, sizeof la, a, pa->code);
    if (j < 0) {
      section("procedures", &pr);
      printf("- procedure %s\n", S(a, pa->name));
      both(la, NULL);
      continue;
    }
    const rg_proc *pb = &b->procs[j];
    loc_pc(lb, sizeof lb, b, pb->code);
    if (same_code(a, pa, pa->code, pa->code + pa->ncode, b, pb, pb->code, pb->code + pb->ncode))
      continue;
    int na = segments(a, pa, sa, MAXSEG), nb = segments(b, pb, sb, MAXSEG);
    section("procedures", &pr);
    printf("~ procedure %s\n", S(a, pa->name));
    both(la, lb);
    if (na == 1 && nb == 1 && !sa[0].name && !sb[0].name) continue;
    for (int x = 0; x < na; x++) {
      int y;
      for (y = 0; y < nb; y++)
        if ((sa[x].name == NULL) == (sb[y].name == NULL) &&
            (!sa[x].name || strcmp(sa[x].name, sb[y].name) == 0))
          break;
      const char *nm = sa[x].name ? sa[x].name : "(before the first step)";
      loc_pc(la, sizeof la, a, sa[x].start);
      if (y == nb) {
        printf("    - step \"%s\"\n", nm);
        printf("        %s | -\n", la);
        continue;
      }
      if (same_code(a, pa, sa[x].start, sa[x].end, b, pb, sb[y].start, sb[y].end)) continue;
      step_loc(la, sizeof la, a, &sa[x]);
      step_loc(lb, sizeof lb, b, &sb[y]);
      printf("    ~ step \"%s\"\n", nm);
      printf("        %s | %s\n", la, lb);
    }
    for (int y = 0; y < nb; y++) {
      int x;
      for (x = 0; x < na; x++)
        if ((sa[x].name == NULL) == (sb[y].name == NULL) &&
            (!sa[x].name || strcmp(sa[x].name, sb[y].name) == 0))
          break;
      if (x < na) continue;
      step_loc(lb, sizeof lb, b, &sb[y]);
      printf("    + step \"%s\"\n", sb[y].name ? sb[y].name : "(before the first step)");
      printf("        - | %s\n", lb);
    }
  }
  for (uint32_t j = 0; j < b->nprocs; j++) {
    if (is_test(b, j) || find_proc(a, S(b, b->procs[j].name)) >= 0) continue;
    section("procedures", &pr);
    printf("+ procedure %s\n", S(b, b->procs[j].name));
    both(NULL, loc_pc(lb, sizeof lb, b, b->procs[j].code));
  }
}

/* ---- the command ------------------------------------------------------- */

int regula_diff(int npos, char **pos) {
  side A, B;
  int rc, nfiles = 0;
  char *files[2];
  static char *hint_store[64];
  nhints = 0;
  for (int i = 0; i < npos; i++) {
    const char *h = NULL;
    if (strcmp(pos[i], "--odds") == 0) {
      if (i + 1 >= npos) {
        fprintf(stderr, "regula: error: --odds needs TABLE=NdS[+K]\ntry 'regula diff --help'\n");
        return 2;
      }
      h = pos[++i];
    } else if (strncmp(pos[i], "--odds=", 7) == 0) {
      h = pos[i] + 7;
    } else if (pos[i][0] == '-' && pos[i][1]) {
      fprintf(stderr, "regula: error: unknown option '%s'\ntry 'regula diff --help'\n", pos[i]);
      return 2;
    } else if (nfiles < 2) {
      files[nfiles++] = pos[i];
      continue;
    } else {
      fprintf(stderr, "regula: error: diff takes two rule files, not '%s'\ntry 'regula diff --help'\n",
              pos[i]);
      return 2;
    }
    const char *eq = strchr(h, '=');
    int n, s, k;
    if (!eq || eq == h || parse_dice(eq + 1, &n, &s, &k) != 0 || nhints >= 64) {
      fprintf(stderr, "regula: error: '%s' is not an odds hint TABLE=NdS[+K]\n"
                      "try 'regula diff --help'\n", h);
      return 2;
    }
    hint_store[nhints++] = (char *)h;
  }
  if (nfiles < 2) {
    fprintf(stderr, "regula: error: diff needs two rule files (A and B)\ntry 'regula diff --help'\n");
    return 2;
  }
  hints = hint_store;
  pos = files;
  differ = 0;
  rc = load_side(&A, pos[0]);
  if (rc == 0) rc = load_side(&B, pos[1]);
  else memset(&B, 0, sizeof B), rg_arena_init(&B.arena, 0);
  if (rc != 0) {
    free_side(&A);
    free_side(&B);
    return rc;
  }
  /* Strip the folder the two files share from every path printed. */
  {
    char na[1024], nb[1024];
    norm_path(na, sizeof na, pos[0]);
    norm_path(nb, sizeof nb, pos[1]);
    size_t i = 0, last = 0;
    while (na[i] && na[i] == nb[i]) {
      if (na[i] == '/') last = i + 1;
      i++;
    }
    strip_len = last;
    memcpy(strip_dir, na, last);
    strip_dir[last] = '\0';
  }
  diff_header(&A.m, &B.m);
  diff_units(&A.m, &B.m);
  diff_enums(&A.m, &B.m);
  diff_records(&A.m, &B.m);
  diff_consts(&A.m, &B.m);
  diff_tables(&A, &B);
  diff_procs(&A.m, &B.m);
  if (!differ) printf("no differences\n");
  free_side(&A);
  free_side(&B);
  return differ ? 1 : 0;
}
