/*
** diff.h: what changed between two rule sets, as a list of changes.
**
** rgi_diff_modules compares two compiled modules (extends already resolved)
** by name, never by index or line, and returns a change list: data, not
** text.  Printing it is a separate renderer (rgi_diff_print, the text of
** `regula diff`); another renderer (JSON, a page) reads the same list.
**
** The list is flat and in print order.  Every change has a kind (added,
** removed, changed), a section (ruleset, units, enums, records, constants,
** tables, procedures), what it is about (a table, a cell of it, a step...),
** and a parent: the change it belongs under (a cell under its table, a
** member under its enum, a step under its procedure), or RG_DIFF_NONE at
** the top.  Each side (a, b) says where the item is given in its module (the
** source file and line, the item's index in the module's arrays, the span
** of code of a procedure or step) and its value, typed and as text.
**
** What the comparison sees:
**
**   ruleset     name, revision, source
**   units       added / removed
**   enums       added / removed; members added / removed / shown otherwise;
**               order
**   records     added / removed; fields added / removed / retyped
**   constants   named constants (rgi_named) and inputs: their values
**   tables      added / removed; dimensions; cell type; cells matched by
**               their keys' names (member codes, ints)
**   odds        where a changed table is looked up under a dice score, the
**               chance of each value of each column, before and after
**   procedures  added / removed / changed; steps added / removed / changed
**
** Code is compared instruction by instruction, by opcode and operand, with
** operands that name things compared by name, locals renamed by order of
** first use, and lines ignored; a value pushed is equal when equal, when
** both are equal texts, when both are constant records or lists with the
** same first words, or when they are the values of the same named constant
** (whose change is then listed once, as a constant).  These are heuristics
** over untyped operands: an int equal to such an offset on both sides could
** hide a change of that int.
**
** Odds: a table's key is a dice score when a hint names it (TABLE=NdS+K),
** or when the code computes it from `roll NdS` (or sum(rolls(N, dS)))
** directly, through a local assigned from one (straight-line code only), or
** through a call of a helper procedure: pure (it rolls, draws, asks and
** calls nothing), its other parameters enums.  A helper is run by the VM
** on both sides for every dice total and member of its enum arguments, so
** its modifiers and clamps count (a changed season modifier moves the
** weather's odds, shown per season); other modifiers are not followed.
*/
/*
** What issue 19 added: rows of a list aligned by content (align.c, RG_DW_CELL
** with b_key); changes that follow from others (`derived`: the same source
** on both sides) under an RG_DW_CAUSE head per section, named after a
** `scale` line when it is the cause; procedures and steps as source hunks
** (rgi_diff_sources, diff_src.c); renderers for text with words marked
** (diff_text.c), --stat and --json (diff_report.c); the public API
** (diff_api.c, regula.h).  Known limit: "the same source" is the same path
** and lines, so two .rbc files built from one path at two revisions would
** call a real change derived.
*/
#ifndef RG_DIFF_H
#define RG_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "module.h"
#include "regula_front.h"

/* No index: a top-level change's parent, an item not on one side. */
#define RG_DIFF_NONE UINT32_MAX

typedef enum rgi_change_kind {
  RG_CHANGE_ADDED = '+',    /* only in b */
  RG_CHANGE_REMOVED = '-',  /* only in a */
  RG_CHANGE_CHANGED = '~'   /* on both sides, different */
} rgi_change_kind;

/* The sections, in the order the list holds them. */
#define RG_DIFF_SECTIONS(X) \
  X(RULESET, "ruleset") X(UNITS, "units") X(ENUMS, "enums") X(RECORDS, "records") \
  X(CONSTANTS, "constants") X(TABLES, "tables") X(PROCEDURES, "procedures") \
  X(STRATEGIES, "strategies") X(DISPLAYS, "displays")

typedef enum rgi_diff_section {
#define RG_X(id, name) RG_DS_##id,
  RG_DIFF_SECTIONS(RG_X)
#undef RG_X
  RG_NDIFF_SECTIONS
} rgi_diff_section;

/* The name of section s ("tables"). */
const char *rgi_diff_section_name(uint32_t s);

/* What a change is about, with what its fields hold.  `index` is the item's
** index on that side, in the module array named in brackets. */
typedef enum rgi_diff_what {
  RG_DW_HEADER,     /* name: "name", "revision" or "source"; text: the strings */
  RG_DW_UNIT,       /* [units] name: the symbol; text: its display name */
  RG_DW_ENUM,       /* [enums] name; text: "{ A, B }" ("{ A < B }" ordered) */
  RG_DW_MEMBER,     /* [members] under its enum; name: the code; text: display */
  RG_DW_ORDER,      /* under its enum; text: "ordered" / "unordered" */
  RG_DW_RECORD,     /* [records] name */
  RG_DW_FIELD,      /* [fields] under its record; name; text: its type */
  RG_DW_CONST,      /* [named] name; text: the value (texts quoted, `*` when
                    ** starred); file, line */
  RG_DW_INPUT,      /* [inputs] name; text: the default */
  RG_DW_TABLE,      /* [tables] name; text: its dimensions "(score: 0..14,
                    ** ground)"; file, line: its first cell */
  RG_DW_DIMS,       /* under its table; text: the dimensions */
  RG_DW_CELLTYPE,   /* under its table; text: the cell type's name */
  RG_DW_CELL,       /* [cells] under its table; row: the first key, name: the
                    ** others joined by ", " (one key: name is the first key,
                    ** row NULL); text: the value; file, line.  Neighbour
                    ** cells that change alike are one change (ncells), its
                    ** keys ranges ("1..9", "Open..Forest") */
  RG_DW_ODDS,       /* under its table: a dice key found; name: the key's
                    ** label; odds.n/sides/plus; a, b: where each side rolls
                    ** (file NULL: given as a hint), text the procedure that
                    ** rolls; row: when a helper
                    ** procedure computes the key from the dice and enum
                    ** arguments, its call ("score(2d6, s)"), else NULL.
                    ** Listed under a changed table, or under one the same
                    ** on both sides whose helper's scores differ */
  RG_DW_ODDS_VALUE, /* under its table, after its RG_DW_ODDS: row: the
                    ** column (the other keys, "" for none), name: the value;
                    ** odds.before/after out of odds.total outcomes */
  RG_DW_PROC,       /* [procs] name; code: its instructions; file, line;
                    ** text: its signature "(total: int) -> int" when the
                    ** two sides' differ (listed then even when the code
                    ** is the same), else NULL */
  RG_DW_STEP,       /* under its procedure; name: the step's (NULL: the code
                    ** before the first step); code: its instructions */
  RG_DW_CAUSE,      /* constants or procedures: the head of the changes that
                    ** follow from others (derived: the same source on both
                    ** sides); name: the cause when known (a `scale` line,
                    ** after rgi_diff_sources; b: its place), else NULL */
  RG_DW_STRATEGY,   /* [strategies] name; text: its description */
  RG_DW_SRULE,      /* under its strategy; name: the rule's prompt (and
                    ** " for WHO"); text: its picks ("max card, first") */
  RG_DW_DISPLAY,    /* [displays] name: the record it shows; text: its title */
  RG_DW_DLINE,      /* under its display: a line added or removed; text: the
                    ** line as written ("table terrain: name, sector") */
  RG_DW_RULE,       /* under its step (or its procedure, for a rule outside
                    ** any step), after rgi_diff_sources: a `rule "NAME"` that
                    ** an override or `remove rule` on one side changed;
                    ** name: the rule's; each side: where the rule as that
                    ** side runs it is written (the base's rule or the
                    ** override), or for a removed rule the `remove rule`
                    ** line (text NULL); source: the quotation and hunks */
  RG_NDIFF_WHAT
} rgi_diff_what;

/* One side of a change. */
typedef struct rgi_diff_side {
  const char *file;         /* source path as the module has it (NULL: the item
                            ** is not on this side or has no place) */
  uint32_t line;            /* 0: the place is not known */
  uint32_t index;           /* see rgi_diff_what; RG_DIFF_NONE when none */
  uint32_t code, ncode;     /* procedures and steps: code[code .. code+ncode) */
  const char *text;         /* as people read it; NULL when not on this side */
  rgi_type type;             /* constants, inputs, cells: the value's type */
  rgi_value value;
} rgi_diff_side;

typedef struct rgi_change {
  uint8_t kind;             /* rgi_change_kind */
  uint8_t what;             /* rgi_diff_what */
  uint8_t section;          /* rgi_diff_section */
  uint32_t parent;          /* index in the list, or RG_DIFF_NONE */
  uint32_t cause;           /* a change this one follows from (RG_DIFF_NONE:
                            ** none known): its RG_DW_CAUSE head */
  uint8_t derived;          /* 1: the same source on both sides (a constant
                            ** declared, a procedure or step written, at the
                            ** same place): the change follows from others */
  const char *name;
  const char *row;
  const char *b_key;        /* RG_DW_CELL paired by content (a row of a list
                            ** renumbered): the first key on side b, when it
                            ** differs from a's (row, or name with one key);
                            ** else NULL */
  rgi_diff_side a, b;
  uint32_t ncells;          /* RG_DW_CELL: how many cells it stands for (a
                            ** run of cells that change alike: row and name
                            ** are then key ranges, "1..2048", and each side
                            ** its first cell) */
  const char *source;       /* RG_DW_PROC (without steps listed), RG_DW_STEP
                            ** or RG_DW_RULE, after rgi_diff_sources: the
                            ** override's `source "..."` line when it has one,
                            ** then `--- A`, `+++ B` and the hunks (`@@ -A,N
                            ** +B,M @@`, lines marked ' ', '-', '+') of both
                            ** sides' source (never the two paths without a
                            ** hunk); else NULL */
  struct {
    int n, sides, plus;     /* RG_DW_ODDS: the score is NdS+plus */
    uint64_t before, after, total;   /* RG_DW_ODDS_VALUE */
  } odds;
} rgi_change;

/* A change list.  It borrows both modules (they must outlive it): texts and
** paths point into their string pools or into the list's arena. */
typedef struct rgi_diff {
  const rgi_module *a, *b;
  rgi_change *changes;       /* rg_malloc'd */
  uint32_t n, cap;
  rgi_arena arena;           /* the texts the list made */
} rgi_diff;

/* A dice score given by hand: the first integer key of table `table` is
** NdS+plus (`--odds TABLE=NdS+K`). */
typedef struct rgi_diff_hint {
  char table[128];
  int n, sides, plus;
} rgi_diff_hint;

/* Parses "TABLE=NdS", "TABLE=dS", "TABLE=NdS+K" or "TABLE=NdS-K" into *h.
** Returns 0, or -1 when text is not such a hint or the dice are outside
** 1..6 dice of 2..20 sides. */
int rgi_diff_hint_parse(const char *text, rgi_diff_hint *h);

/* How the diff runs a dice key's pure helper procedure (diff_odds) without
** knowing a VM: open starts runs of module m (NULL: out of memory), call
** runs procedure proc of it on args (0 with *result; -1 when the run
** failed), close ends them. */
typedef struct rgi_diff_runner {
  void *(*open)(void *ctx, const rgi_module *m);
  int (*call)(void *runs, uint32_t proc, const rgi_value *args, rgi_value *result);
  void (*close)(void *runs);
  void *ctx;
} rgi_diff_runner;

/* Compares a with b (both verified) into *d, using hints[0..nhints) for
** odds and run (NULL: helpers are not run, their tables get no odds) for a
** dice key's helper.  Returns 0, or -1 when out of memory (d is then
** empty).  Free d with rgi_diff_free in every case. */
int rgi_diff_modules(const rgi_module *a, const rgi_module *b, const rgi_diff_hint *hints,
                    int nhints, const rgi_diff_runner *run, rgi_diff *d);

/* Reads both sides' rule files through ld (NULL: rg_file_loader) and sets
** the `source` of each changed procedure or step whose source both files
** show (see rgi_change).  Where a procedure or step is the same declaration
** on both sides and an `override rule` or `remove rule` of either side
** changed a rule inside it (in a step, directly in the procedure, inside
** an `if` or a loop), each such rule is inserted into the list as an
** RG_DW_RULE under the step it is in (under the procedure when it is in
** none), with both sides' places and its own source; indexes after it
** move.  A file that cannot be read or parsed leaves its changes without
** source.  Returns 0, or -1 when out of memory, reading a file included (d
** keeps what was set). */
int rgi_diff_sources(rgi_diff *d, const rg_loader *ld);

/* Frees the changes and texts of d (not the modules). */
void rgi_diff_free(rgi_diff *d);

/* Writes d as the text of `regula diff`: a `== SECTION` heading before each
** section's first change, one line per change (`~ name: old -> new`,
** `+ table NAME(...)`), and under each item its place on both sides
** (`    A-FILE:LINE | B-FILE:LINE`, `-` for a side without it, `?` when not
** known), paths normalized and the folder `base` ("" or NULL: none)
** stripped.  A changed text or record is written once, the words that
** changed marked (`[-old-]{+new+}`, or in colour with RG_DIFF_COLOR in
** flags, regula.h).  An empty list writes `no differences`.  Returns 0, or
** -1 when memory ran out (the text is then cut short). */
int rgi_diff_print(rg_out *out, const rgi_diff *d, const char *base, int flags);

/* Writes d as `regula diff --stat`: per section, how many items were
** changed, added and removed, and how many inside them (cells, each cell
** of a run counted, members, fields, steps, rules); then the total. */
void rgi_diff_print_stat(rg_out *out, const rgi_diff *d);

/* Writes d as JSON lines: {"format":2,"changes":N}, then one object per
** change in list order: index, kind, section, what, parent (an index, or
** null), name, row, b_key, derived, source, a and b (file with `base`
** stripped, line, text, and the typed value of a constant, input or cell),
** cells (of a cell: how many it stands for), and dice or odds.  Returns 0, or -1 when memory ran out (the lines are
** then cut short). */
int rgi_diff_print_json(rg_out *out, const rgi_diff *d, const char *base);

/* Writes file into out[0..size) as the renderers show it: normalized
** ("./" dropped, "dir/.." folded) and without the folder `base` (NULL or
** "": none). */
void rgi_diff_path(char *out, size_t size, const char *file, const char *base);

/* Writes source, the `source` text of a change (NULL: nothing), to out,
** each line after indent: its `--- A` and `+++ B` paths as rgi_diff_path
** shows them with `base` cut off (as the places are), other lines as they
** are, those removed red and those added green when color is set.  Owns
** nothing. */
void rgi_diff_put_source(rg_out *out, const char *indent, const char *source, const char *base,
                         int color);

/* The name of what w ("cell"), kind k ("changed"). */
const char *rgi_diff_what_name(uint32_t w);
const char *rgi_diff_kind_name(int k);

#endif
