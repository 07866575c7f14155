/*
** regula_front.h: what front ends show people, built on regula.h.
**
** The regula program, its page and its language server are thin clients of
** these functions: games at the table (a run whose choices people answer,
** taken back, saved and resumed), pictures, the sheet reprint, the diff,
** formatting and symbols for editors, and every text, table, chart and
** JSON the regula program prints, so that another front end shows the same
** bytes.  An embedder who only computes needs regula.h alone.  The rules of
** regula.h hold here too: a failure's message comes from the handle the
** function was called on (or is written to the rg_out named `why`).
*/
#ifndef REGULA_FRONT_H
#define REGULA_FRONT_H

#include "regula.h"

/* ======================================================================
** Text: writing to an rg_out, buffers, files
** ==================================================================== */

/* Writes s[0..n) to o (nothing once o has failed). */
REGULA_API void rg_write(rg_out *o, const char *s, size_t n);

/* Writes the NUL-terminated s to o. */
REGULA_API void rg_puts(rg_out *o, const char *s);

/* Writes one byte to o. */
REGULA_API void rg_putc(rg_out *o, int c);

/* Writes printf-style text to o (any length: long text is formatted into a
** heap buffer; when that fails, o is marked failed). */
REGULA_API void rg_printf(rg_out *o, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;
REGULA_API void rg_vprintf(rg_out *o, const char *fmt, va_list ap);

/* Writes s[0..n) to o so that a terminal shows it and acts on none of it:
** the one way every message quotes text from outside (a file name, an
** argument, a line of an answers or inputs file, a --set text).  A control
** character (C0 but newline and tab when flags has RG_SHOWN_LINES; CR
** always; DEL) and a byte that is not UTF-8 are written as \xNN (ESC as
** \x1b), a C1 control or a bidirectional override or isolate as \uNNNN;
** the rest is copied.  RG_SHOWN_SGR keeps colour sequences (ESC [ digits
** and ; m) as they are.  Returns the bytes of s consumed: n, but with
** RG_SHOWN_PARTIAL a UTF-8 sequence cut by the end of s is not written (a
** caller writing a stream in pieces passes it again with the next piece). */
#define RG_SHOWN_LINES 1
#define RG_SHOWN_SGR 2
#define RG_SHOWN_PARTIAL 4
REGULA_API size_t rg_write_shown(rg_out *o, const char *s, size_t n, int flags);

/* A growable byte buffer with an rg_out that appends to it, for a caller
** that wants the text as a string: always NUL-terminated when len > 0. */
typedef struct rg_buf {
  char *data;               /* rg_malloc'd; NULL until something is written */
  size_t len, cap;
  rg_out out;               /* writes append to the buffer */
} rg_buf;

/* Sets b up empty, with b->out appending to it. */
REGULA_API void rg_buf_init(rg_buf *b);

/* Frees b's data and empties it. */
REGULA_API void rg_buf_free(rg_buf *b);


/* An rg_diagnostic_fn that renders each diagnostic to the rg_out *ctx. */
REGULA_API void rg_diagnostic_print(void *ctx, const rg_diagnostic *d);



/* Returns s[0..n) as a new NUL-terminated string (rg_malloc'd; free it
** with rg_free), each byte that is not part of valid UTF-8 and each NUL
** replaced by U+FFFD, its length in *len; NULL when out of memory.  For a
** front end that hands text on to something that takes only valid UTF-8
** (JSON, a browser). */
REGULA_API char *rg_utf8_repair(const char *s, size_t n, size_t *len);



/* The library's malloc and realloc: through the allocator of
** rg_set_allocator, and failing when a test says so (rg_alloc_fail_at).
** Free what they give with rg_free. */
REGULA_API void *rg_malloc(size_t n);
REGULA_API void *rg_realloc(void *p, size_t n);

/* Writes data[0..len) to the file at path so that a failure never leaves a
** partial file: through a temporary file in the same directory renamed
** into place, removed on any failure.  A file that exists keeps its mode; a
** new one gets mode less the process's umask, as open(2) does (mode 0:
** private, 0600).  A symbolic link is followed (link after link) and its
** target replaced: the link stays a link.  A path that exists and is not a
** regular file (a device, a FIFO) is written straight to instead.
** Returns RG_OK; RG_IO (RG_NOMEM when memory ran out) with the reason
** written to why (may be NULL: "cannot write X: No space left on device"). */
REGULA_API rg_status rg_file_save(const char *path, const void *data, size_t len, int mode, rg_out *why);

/* Testing: makes the nth allocation from now on fail (0: none fail), so a
** test can check that each failure ends cleanly with RG_NOMEM.  Counts
** allocations of every thread (atomically). */
REGULA_API void rg_alloc_fail_at(unsigned long n);

/* ======================================================================
** Compiled rules: more for front ends
** ==================================================================== */

/* Reads a policy as the regula program's --policy names it, the one place
** those names are parsed: "random"; "first"; "answers:NAME" (kind
** RG_CHOOSE_ANSWERS, answers_name NAME, pointing into text: the caller
** reads that file and sets answers and answers_len); or the name of a
** strategy of r (kind RG_CHOOSE_RANDOM for the choices it does not cover,
** strategy r's copy of the name).  Fills *out, its other fields zero, and
** returns RG_OK; RG_NOT_FOUND for any other text (r NULL: a strategy too),
** rg_rules_errmsg(r) saying what a policy may be; RG_BAD_VALUE for a NULL
** text.  A command that takes more ("ask") checks those first. */
REGULA_API rg_status rg_policy_parse(const rg_rules *r, const char *text, rg_policy *out);

/* Parses args[0..nargs) by the parameters' types of procedure proc, as a
** run would.  Returns RG_OK; RG_NOT_FOUND (no such procedure) or
** RG_BAD_VALUE (another number of arguments, a bad one) with the reason in
** rg_rules_errmsg ("argument 1 (k: int) of 'roll': 'x' is not a whole
** number"); RG_NOMEM. */
REGULA_API rg_status rg_rules_check_args(const rg_rules *r, const char *proc, const char *const *args,
                              int nargs);

/* The text of line `line` (from 1) of the source file path, as r read it
** (compiled with keep_sources), without its line end; its length in
** *len.  NULL when r does not hold that line. */
REGULA_API const char *rg_rules_source_line(const rg_rules *r, const char *path, uint32_t line,
                                 size_t *len);

/* How many files r was read from (see rg_rules_file); for a copy
** (rg_rules_copy), those of the rules copied.  0 for a NULL r. */
REGULA_API uint32_t rg_rules_nfiles(const rg_rules *r);

/* File i (from 0) that r was read from, owned by r, or NULL when i is out
** of range: for rules compiled from source, the rule file compiled first
** (the name it was compiled under), then each file an `extends` or a
** table's `from` read, as the loader resolved it, each once, in the order
** read; for a compiled module (.rbc), that file alone.  *kind (when kind
** is not NULL) is RG_LOAD_TABLE for a file read for a table's `from`,
** else RG_LOAD_RULES.  A front end that writes files checks them against
** these, so that an output never replaces a file the rules came from. */
REGULA_API const char *rg_rules_file(const rg_rules *r, uint32_t i, rg_load_kind *kind);

/* The description of strategy index i (`strategy NAME "..."`; "" when it
** has none, NULL when i is out of range).  Owned by r. */
REGULA_API const char *rg_rules_strategy_doc(const rg_rules *r, int strategy);

/* The index of the rules' default strategy (`default strategy NAME`), the
** one a front end answers choices with when no policy is asked for; -1
** when the rules name none. */
REGULA_API int rg_rules_default_strategy(const rg_rules *r);


/* Writes the cell of table `table` at keys[0..nkeys) to out as `regula
** query` prints it, ending with a newline (a record: one "field: value"
** line per field).  Returns RG_OK; RG_NOT_FOUND (no such table) or
** RG_BAD_VALUE (wrong number of keys, a bad key) with the reason in
** rg_rules_errmsg and nothing written. */
REGULA_API rg_status rg_rules_query_write(const rg_rules *r, const char *table, const char *const *keys,
                               int nkeys, rg_out *out);

/* Writes the hash of r's compiled module (of the rules r is a copy of,
** when rg_rules_copy made it: a game's settings are not part of it) into
** buf as 16 hex digits, the same on every platform: two rule files that
** compile to the same module have the same hash.  Returns RG_OK, or
** RG_NOMEM (buf then ""). */
REGULA_API rg_status rg_rules_hash(const rg_rules *r, char *buf, size_t size);

/* The native tier: machine code for r's procedures, made by compiling a
** translation of its verified code with the system's C compiler.  cc is
** the compiler's absolute path (the library searches no PATH and reads no
** environment: the caller finds it), cache_dir the folder that keeps the
** compiled code between processes (made 0700 when missing; a folder that
** is not the user's own and private is not used).  Afterwards runs,
** simulations, games and tests of r and of its copies (rg_rules_copy) run
** the machine code, with the VM's results, events, errors, limits and
** seeding byte for byte; with limits.no_fusion set they run in the VM.
** When the tier cannot be had (no compiler, a compile that fails, an
** instruction it does not translate, a build without it such as the
** page's) r stays with the VM: note[0..notelen) says why (or how the code
** was had), and that is not an error.  Returns RG_OK, or RG_NOMEM. */
typedef struct rg_native_options {
  size_t size;              /* sizeof(rg_native_options) */
  const char *cc;           /* the C compiler's absolute path */
  const char *cache_dir;    /* the cache folder */
} rg_native_options;
REGULA_API rg_status rg_rules_native(rg_rules *r, const rg_native_options *opt, char *note,
                                     size_t notelen);

/* Writes the default value of input i of r (`input NAME: T = default`) into
** buf as a run's log writes values ("talented", "12", "Standard, Plains"),
** for a front end to show beside a field left blank; returns buf (cut to
** size), or NULL when i is out of range. */
REGULA_API const char *rg_rules_input_value(const rg_rules *r, int input, char *buf,
                                            size_t size);

/* rg_rules_dis's flags. */
#define RG_DIS_FAST 1       /* the VM's private register code, not the bytecode */
#define RG_DIS_NO_FUSION 2  /* with RG_DIS_FAST: without fused instructions */

/* Writes the disassembly of r to out as `regula dis` prints it: per
** procedure its signature, then one instruction a line, "addr [line]
** OPNAME operands ; comment" (or, with RG_DIS_FAST, the VM's register
** code).  Returns RG_OK or RG_NOMEM. */
REGULA_API rg_status rg_rules_dis(const rg_rules *r, int flags, rg_out *out);

/* Receives one `assumed` note: the file and line it is on (path NULL when
** the rules do not say: a rule set read from standard input names it
** "-"), what it is on ("table weather", "dice RED") and its text. */
typedef void (*rg_assumption_fn)(void *ctx, const char *path, uint32_t line, const char *what,
                                 const char *text);

/* Hands fn every `assumed` note of r, in the order of the sources.  Only
** rules compiled with keep_sources keep them (a module loaded from a .rbc
** has none).  Returns how many. */
REGULA_API uint32_t rg_rules_assumptions(const rg_rules *r, rg_assumption_fn fn, void *ctx);

/* rg_rules_set of each line of text[0..len) (NAME=VALUE; blank lines and
** lines starting with # skipped), named "source:LINE" in errors; these
** are not named in a transcript.  Returns as rg_rules_set, at the first
** line refused (rg_rules_errmsg: "SOURCE:LINE: ..."). */
REGULA_API rg_status rg_rules_set_lines(rg_rules *r, const char *text, size_t len, const char *source);

/* Writes the placeholder data procedure proc rests on: each die and deck
** it may roll or draw (its calls followed) that the rule file marks
** `assumed` (a .rbc keeps no such note) or that r set, as text
** ("dice RED (assumed), deck bag (set)") or, json 1, as a JSON array of
** {"kind":"dice"|"deck","name","given":"assumed"|"set"}.  Writes nothing
** when there is none.  Returns how many (0 also for no such procedure),
** or -1 when out of memory or out failed. */
REGULA_API int rg_rules_placeholders(const rg_rules *r, const char *proc, int json, rg_out *out);

/* ======================================================================
** Runs: what the regula program prints of them
** ==================================================================== */

/* After a successful rg_run_call: writes the result to out as `regula
** call` prints it, ending with a newline (a record: one "field: value"
** line per field); nothing for a procedure without one. */
REGULA_API rg_status rg_run_result_write(const rg_run *run, rg_out *out);

/* During an event callback: writes a note as `regula call` prints it
** ("note TEXT: V, V"; "note TEXT" without values), or a failed expect as "expected X, got Y" (`expect a == b`) or "expected
** true: TEXT"; no newline.  Returns RG_OK, or RG_BAD_VALUE for any other
** event (nothing written). */
REGULA_API rg_status rg_run_event_text(const rg_run *run, rg_out *out);

/* Writes a runtime error of r (rg_run_errmsg's message, rg_run_where's place) to out
** as the regula program prints it: "path:line:col: error: msg" with the
** source line and a caret under the column when r was compiled with
** keep_sources from that file, else that line alone; "regula: error: msg"
** when there is no position (path NULL or "?"). */
REGULA_API void rg_rules_error_write(const rg_rules *r, const char *msg, const char *path, uint32_t line,
                          uint32_t col, rg_out *out);

/* ======================================================================
** Formatting (interp/front/fmt.c)
** ==================================================================== */

/* Writes the rule file text[0..len), called name in diagnostics, to out in
** regula's canonical layout (`regula fmt`): every token on its line,
** indentation and spaces between tokens by rule, comments kept, blank lines
** at most one in a row.  The file is parsed, not compiled: only the file
** itself is read (opt's loader is not used).  Returns RG_OK; RG_BAD_RULES
** after handing each syntax error to opt's diagnostic callback (nothing is
** written then); RG_NOMEM. */
REGULA_API rg_status rg_rules_format(const char *name, const char *text, size_t len,
                          const rg_compile_options *opt, rg_out *out);

/* ======================================================================
** Symbols, for editors (interp/compile/symbols.c, api.c)
** ==================================================================== */

/* What a symbol declares. */
typedef enum rg_symbol_kind {
  RG_SYMBOL_UNIT = 1, RG_SYMBOL_ENUM, RG_SYMBOL_MEMBER, RG_SYMBOL_RECORD, RG_SYMBOL_FIELD,
  RG_SYMBOL_CONST, RG_SYMBOL_TABLE, RG_SYMBOL_PROCEDURE, RG_SYMBOL_STEP, RG_SYMBOL_TEST,
  RG_SYMBOL_DICE, RG_SYMBOL_DECK, RG_SYMBOL_INPUT,
  RG_SYMBOL_NOTE,           /* an `assumed` note: name is its text */
  RG_SYMBOL_STRATEGY,       /* detail: its description */
  RG_SYMBOL_DISPLAY,        /* name: the record it shows; detail: its title */
  RG_SYMBOL_RULE,           /* a `rule "..."` of a procedure (container) */
  RG_SYMBOL_ROW,            /* a cell of a table written in the file: name
                            ** is its keys as written, joined by ", "
                            ** ("10, Standard"); container the table */
  RG_SYMBOL_NAME            /* (rg_rules_uses only) a name whose kind the
                            ** syntax does not tell: a constant, a member,
                            ** a table, a field, a variable... */
} rg_symbol_kind;

/* One declaration and where it is.  Every pointer is valid during the
** callback only. */
typedef struct rg_symbol {
  rg_symbol_kind kind;
  const char *name;         /* the name; a member's code; a step's or a
                            ** test's title; a note's text */
  const char *display;      /* a member's or a unit's display name, or NULL */
  const char *container;    /* the enum of a member, the record of a field,
                            ** the procedure of a step, what a note is on;
                            ** or NULL */
  const char *path;         /* the file it is declared in (as the loader
                            ** resolved it) */
  uint32_t line;            /* 1-based */
  uint32_t byte_col;        /* 1-based byte offset in source_line */
  const char *source_line;  /* the text of the line (no newline), or NULL */
  size_t source_len;
  const char *assumed;      /* the text of its first `assumed` note, or NULL */
  const char *tsv;          /* a table `from` a TSV: the file's resolved
                            ** path; else NULL */
  int use;                  /* 0 a declaration; 1 a use (rg_rules_uses) */
} rg_symbol;

/* Receives each symbol. */
typedef void (*rg_symbol_fn)(void *ctx, const rg_symbol *s);

/* Hands fn every declaration of the rule file text[0..len) (called name,
** resolved against by opt's loader) and of the rule sets it extends, the
** file's own first, each file in order: units, enums and their members,
** records and their fields, constants, tables and the cells written in the
** file (RG_SYMBOL_ROW), procedures and their steps and rules (an `override
** step` or `override rule` too), tests, dice, decks, inputs, `assumed`
** notes.  The files are parsed, not
** compiled, so a file with errors still has its index (syntax errors go to
** opt's diagnostic callback; what parses is indexed).  Returns RG_OK, or
** RG_NOMEM. */
REGULA_API rg_status rg_rules_symbols(const char *name, const char *text, size_t len,
                           const rg_compile_options *opt, rg_symbol_fn fn, void *ctx);

/* Hands fn every use of a name in the rule file text[0..len) and in the
** rule sets it extends (as rg_rules_symbols reads them), each with use = 1
** and its position: a name in an expression or a type (RG_SYMBOL_NAME; a
** call's RG_SYMBOL_PROCEDURE; a key of a cell RG_SYMBOL_MEMBER), and what
** `override` and `remove` name: a step or a rule of a procedure
** (RG_SYMBOL_STEP, RG_SYMBOL_RULE, container the procedure), a table whose
** cell is overridden (RG_SYMBOL_TABLE) and that cell (RG_SYMBOL_ROW, named
** as rg_rules_symbols names the cells), a removed name (RG_SYMBOL_NAME).
** Names are not resolved: a local variable that shares a constant's name is
** handed as a use of it.  Returns RG_OK, or RG_NOMEM. */
REGULA_API rg_status rg_rules_uses(const char *name, const char *text, size_t len,
                        const rg_compile_options *opt, rg_symbol_fn fn, void *ctx);

/* Writes what compiled rules r know of the table or constant called name,
** for a reader: a table's cells in the layout of `regula sheet`; a named
** constant as `name = value` (its value as computed, a starred distance
** with its star).  Returns RG_OK, or RG_NOT_FOUND when r has no table or
** constant of that name, RG_NOMEM. */
REGULA_API rg_status rg_rules_describe(const rg_rules *r, const char *name, rg_out *out);

/* ======================================================================
** Front ends: the regula program's texts (the page, other front ends)
**
** What `regula run`, `test`, `sheet`, `diff` and `sim` print, written to
** an rg_out, so that another front end shows the same bytes.
** ==================================================================== */

/* Writes the log of each later rg_run_call of run to out (NULL: no log),
** as `regula run` prints it (json 0) or as its --json lines (json 1): the
** first line names the procedure, the seed and the labels policy and dice
** (NULL: "random", "first", "answers" or "ask" as the run's policy is, and
** "ask" or "random" for the dice), then the events, then the summary when
** the call succeeds.  out must outlive the calls. */
REGULA_API void rg_run_log(rg_run *run, rg_out *out, int json, const char *policy, const char *dice);

/* Writes the results of runs[0..n) side by side as `regula run --variants`
** prints them (json 0: a row per field of the result records, matched by
** name, a column per run headed names[i], "* " before the rows that
** differ, after a line naming the procedure, n, seed and policy; json 1:
** its --json lines).  Each run must have just called the procedure with
** success.  Returns RG_OK; RG_BAD_VALUE (n < 1, a run without a result);
** RG_NOMEM. */
REGULA_API rg_status rg_runs_side_by_side(const rg_run *const *runs, const char *const *names, int n,
                               uint64_t seed, const char *policy, int json, rg_out *out);

/* Collects the pictures (canvas, rect, ...) the later calls of run draw.
** Returns RG_OK or RG_NOMEM. */
REGULA_API rg_status rg_run_pictures(rg_run *run);

/* Pictures: what the canvas, rect, line, circle, polygon and label
** statements of a run drew, each an SVG document.  Read-only; owned by
** whoever drew them (a run: rg_run_drawn). */
typedef struct rg_svg rg_pictures;

/* The pictures run collected so far (after rg_run_pictures), or NULL. */
REGULA_API const rg_pictures *rg_run_drawn(const rg_run *run);

/* How many pictures p holds; the name of picture i (its canvas's; NULL out
** of range); the index of the picture called name (-1 when none). */
REGULA_API uint32_t rg_pictures_count(const rg_pictures *p);
REGULA_API const char *rg_pictures_name(const rg_pictures *p, uint32_t i);
REGULA_API int rg_pictures_find(const rg_pictures *p, const char *name);

/* The first wrong shape (a style with a forbidden character, a shape
** before any canvas, a canvas of no size): its message, and where in the
** rules (where may be NULL).  NULL when every shape was right. */
REGULA_API const char *rg_pictures_error(const rg_pictures *p, rg_place *where);

/* Writes picture i as a self-contained SVG document (as `regula draw`
** writes it) to out.  Returns RG_OK; RG_BAD_VALUE when i is out of range;
** RG_RUN_ERROR when a shape was wrong (rg_pictures_error); RG_NOMEM. */
REGULA_API rg_status rg_pictures_write(const rg_pictures *p, uint32_t i, rg_out *out);

/* Writes picture i to the file path as rg_file_save does (mode 0644, no
** partial file).  Returns RG_OK; RG_BAD_VALUE when i is out of range;
** RG_RUN_ERROR (a wrong shape); RG_IO or RG_NOMEM with the reason written to
** why (may be NULL). */
REGULA_API rg_status rg_pictures_save(const rg_pictures *p, uint32_t i, const char *path, rg_out *why);

/* Runs every `test` of r and writes each failure as `regula test` prints
** it ("path:line: FAIL test \"NAME\": MESSAGE"), adding to *passed and
** *failed (not the closing count line), each test within limits (NULL:
** the defaults).  Returns RG_OK or RG_NOMEM. */
REGULA_API rg_status rg_rules_test(const rg_rules *r, const rg_limits *limits, rg_out *out,
                        uint32_t *passed, uint32_t *failed);

/* Compiles the rule file text[0..len) as rg_rules_compile does and writes
** its sheet as `regula sheet NAME` prints it.  Returns RG_OK; RG_BAD_RULES
** (the diagnostics go to opt's callback) or RG_NOMEM. */
REGULA_API rg_status rg_rules_sheet(const char *name, const char *text, size_t len,
                         const rg_compile_options *opt, rg_out *out);

/* Writes the sheet of r as `regula sheet` prints it: every table and the
** constants, or only the tables named in tables[0..ntables).  The cells
** carrying an `assumed` note are marked when r was compiled with
** keep_sources (a module loaded from a .rbc keeps none: a line says so).
** Returns RG_OK; RG_NOT_FOUND when a name is not a table of r (nothing is
** written: check with rg_rules_find first); RG_NOMEM. */
REGULA_API rg_status rg_rules_sheet_of(const rg_rules *r, const char *const *tables, int ntables,
                            rg_out *out);

/* Writes what changed from a (compiled from a_path) to b (from b_path) as
** `regula diff A_PATH B_PATH` prints it, and the number of changes into
** *changes.  Returns RG_OK or RG_NOMEM. */
REGULA_API rg_status rg_rules_diff(const rg_rules *a, const char *a_path, const rg_rules *b,
                        const char *b_path, rg_out *out, uint32_t *changes);

/* ======================================================================
** Simulations and exact odds: as the regula program prints them
** ==================================================================== */

/* The message of the first failed run alone ("division by zero"), without
** rg_sims_errmsg's "run N failed: PLACE" (a front end that shows the place
** with its source line, from rg_sims_where); NULL when no run failed. */
REGULA_API const char *rg_sims_failure_text(const rg_sims *s);

/* Writes the tallies so far as `regula sim` prints them: "PROC: N runs,
** seed S, policy P", the placeholder data they rest on, then a table per
** field of value, count, share and 95% interval.  Returns RG_OK or
** RG_NOMEM. */
REGULA_API rg_status rg_sims_write(const rg_sims *s, rg_out *out);

/* Writes the tallies so far as `regula sim --json` prints them: one JSON
** object and a newline, {"format", "procedure", "runs", "seed", "policy",
** "placeholders", "tallies": [{"name", "tallied", "values": [{"text",
** "count", "share", "low", "high", "value"}, ...]}, ...]} (values in their
** natural order; low..high the 95% Wilson interval).  Returns as
** rg_sims_write. */
REGULA_API rg_status rg_sims_json(const rg_sims *s, rg_out *out);

/* Writes the tallies so far as `regula sim --svg` draws them: a bar chart
** per field with the intervals, one SVG document.  Returns as
** rg_sims_write. */
REGULA_API rg_status rg_sims_svg(const rg_sims *s, rg_out *out);

/* Variants compared run by run (`regula sim --variants`): the same
** procedure of several rule sets, run i of each drawing from the same
** numbers at each step of the same name (common random numbers), so the
** differences of their shares come from the rules, with paired 95%
** intervals.  The tallies are the same whatever the threads. */
typedef struct rg_simvars rg_simvars;

/* The most rule sets compared at once. */
#define RG_SIMVARS_MAX 16

/* What to compare.  A NULL options pointer gives the defaults. */
typedef struct rg_simvars_options {
  size_t size;              /* sizeof(rg_simvars_options) */
  const char *proc;         /* no parameters, a result; NULL: "main" */
  uint64_t seed;
  uint32_t threads;         /* worker threads (0: 1) */
  rg_limits limits;
  rg_policy policy;         /* random or first, and a strategy every rule set
                            ** declares */
} rg_simvars_options;

/* Starts a comparison of rules[0..n) (2..RG_SIMVARS_MAX, each outliving
** it), named names[i] in what is written (copied).  Returns RG_OK with
** *out set (free it with rg_simvars_free); RG_NOT_FOUND (no such procedure
** or strategy in one of them), RG_BAD_VALUE (n, no result, parameters,
** another policy), with the reason in rg_rules_errmsg(rules[0]);
** RG_NOMEM. */
REGULA_API rg_status rg_simvars_new(const rg_rules *const *rules, const char *const *names, uint32_t n,
                         const rg_simvars_options *opt, rg_simvars **out);

/* Makes runs runs (once).  Returns RG_OK; RG_RUN_ERROR or RG_RUN_LIMIT when a
** run failed (rg_simvars_failure says which); RG_NOMEM. */
REGULA_API rg_status rg_simvars_run(rg_simvars *c, uint64_t runs);

/* The first failed run: its message, the rule set (its index in *variant),
** the run's index in *run (from 0), and where it failed.  NULL when no run
** failed.  Pointers may be NULL. */
REGULA_API const char *rg_simvars_failure(const rg_simvars *c, uint32_t *variant, uint64_t *run,
                               rg_place *where);

/* Writes the comparison as `regula sim --variants` prints it: the header,
** each rule set with the placeholder data it rests on, then per field the
** shares side by side and each one's difference from the first with its
** paired and unpaired 95% intervals; _json: as --json, one object and a
** newline.  Returns RG_OK or RG_NOMEM. */
REGULA_API rg_status rg_simvars_write(const rg_simvars *c, rg_out *out);
REGULA_API rg_status rg_simvars_json(const rg_simvars *c, rg_out *out);

/* Writes the comparison as bar charts, the rule sets side by side with
** their intervals, one SVG document.  Returns as rg_simvars_write. */
REGULA_API rg_status rg_simvars_svg(const rg_simvars *c, rg_out *out);

/* Frees c (NULL is fine). */
REGULA_API void rg_simvars_free(rg_simvars *c);

/* After RG_RUN_LIMIT from rg_exact_run: 1 when the limit reached was the
** number of runs (rg_exact_options.limit: a front end says how to raise
** it), else 0. */
REGULA_API int rg_exact_limit_was_runs(const rg_exact *x);

/* After RG_RUN_ERROR from rg_exact_run: writes the failed run's outcomes
** to out as " 2/6 1/3" (1-based, one per draw).  Returns RG_OK, or
** RG_BAD_VALUE when no run failed. */
REGULA_API rg_status rg_exact_failed_draws(const rg_exact *x, rg_out *out);

/* Writes the distribution as `regula odds` prints it: a header naming the
** policy and the placeholder data, a line per result with its fraction,
** percent and bar, then the runs and states; _json: as --json, one object
** and a newline.  Returns RG_OK; RG_BAD_VALUE when the odds were not worked
** out; RG_NOMEM. */
REGULA_API rg_status rg_exact_write(const rg_exact *x, rg_out *out);
REGULA_API rg_status rg_exact_json(const rg_exact *x, rg_out *out);

/* Writes the distribution as one bar chart, an SVG document.  Returns as
** rg_exact_write. */
REGULA_API rg_status rg_exact_svg(const rg_exact *x, rg_out *out);

/* Writes the odds xs[0..n) of one procedure asked of several rule sets
** (2..RG_SIMVARS_MAX, each worked out: RG_OK from rg_exact_run), named
** names[v] (their files), side by side as `regula odds --variants` prints
** them: the call, the policy, each rule set with its settings and
** placeholders, then per column of the result each value's probability
** under each rule set (a fraction and a percent; values in their natural
** order) and each later rule set's exact difference from the first
** ("B - A", a signed fraction), then each one's runs and states; _json:
** one JSON object and a newline.  Returns RG_OK; RG_BAD_VALUE (n, odds not
** worked out); RG_NOMEM (also when a difference needs more than 128
** bits). */
REGULA_API rg_status rg_exact_compare(const rg_exact *const *xs, const char *const *names, uint32_t n,
                           rg_out *out);
REGULA_API rg_status rg_exact_compare_json(const rg_exact *const *xs, const char *const *names,
                                uint32_t n, rg_out *out);

/* The same as bar charts, the rule sets side by side, one SVG document.
** Returns as rg_exact_compare. */
REGULA_API rg_status rg_exact_compare_svg(const rg_exact *const *xs, const char *const *names, uint32_t n,
                               rg_out *out);

/* ======================================================================
** Games at the table
**
** A game is a run in which people answer: the choices (and, with
** ask_dice, the dice and cards they roll and draw for real).  It keeps
** the answers, so that a front end (a terminal, a page) can take the last
** one back, save the game and resume it.  The front end calls
** rg_game_play, shows the new part of rg_game_log, and while the game is
** asking shows the question (rg_game_asking, rg_game_option), reads a
** line and hands it to rg_game_reply; then plays again.  Each play runs the
** procedure from the start with the answers so far (a run is
** deterministic), which for a pre-battle takes well under a millisecond.
** ==================================================================== */

typedef struct rg_game rg_game;

/* How to set a game up.  A NULL options pointer gives the defaults. */
typedef struct rg_game_options {
  size_t size;              /* sizeof(rg_game_options) */
  const char *proc;         /* the procedure played, without parameters; NULL: "main" */
  uint64_t seed;            /* as rg_run_options.seed */
  int ask_choices;          /* people answer the choices; else the policy does */
  rg_policy policy;         /* random or first, and a strategy (not asked) */
  int ask_dice;             /* people read the dice and cards; else the seed rolls */
  const char *title;        /* named in the transcript's first line (the rule file) */
  rg_limits limits;
  int pictures;             /* collect the pictures drawn (rg_game_drawn) */
  const char *module;       /* the rules' hash written in the transcript
                            ** (NULL: rg_rules_hash of the game's rules) */
} rg_game_options;

/* Where a game stands after rg_game_play. */
typedef enum rg_game_state {
  RG_GAME_ASKING = 0,       /* a question waits for an answer */
  RG_GAME_OVER = 1,         /* the procedure returned; the log ends with its result */
  RG_GAME_FAILED = 2        /* the rules failed, or a loaded answer fits no option
                            ** (rg_game_error says which) */
} rg_game_state;

/* What a person's line at a question is (rg_game_reply). */
typedef enum rg_reply {
  RG_REPLY_ANSWER = 0,      /* an answer, now added to the game */
  RG_REPLY_UNDO = 1,        /* "undo" or "back": the last answer is taken back */
  RG_REPLY_SAVE = 2,        /* "save" or "save FILE": the front end writes the transcript */
  RG_REPLY_HELP = 3,        /* "?" or "help": the help is written */
  RG_REPLY_BAD = 4          /* none of these: why is written */
} rg_reply;

/* The question a game is asking, as a person should see it.  Strings are
** owned by the game, valid until the next rg_game_play or rg_game_reply. */
typedef struct rg_game_question {
  const char *who;          /* who answers ("player A"), or NULL */
  const char *prompt;       /* what for ("play a card", "roll 2d6") */
  uint32_t noptions;        /* options (rg_game_option names each) */
  int numeric;              /* the answer is a number (or numbers) */
  int range;                /* any whole number from lo, noptions of them */
  int64_t lo;
  uint32_t dice;            /* > 1: that many dice at once, each lo .. lo + sides - 1 */
  uint32_t sides;
  int yesno;                /* answered by yes or no */
  int secret;               /* a secret answer: do not show it, nor the choice,
                            ** until the log shows it; nor the options (a
                            ** hand), to anyone but the one who answers */
  uint32_t hand;            /* > 1: the first card of a hand of that many
                            ** drawn at once; the reply may name them all
                            ** ("red red white", "2 red 1 white") */
  const char *step;         /* the step of the rules, or NULL */
  const char *where;        /* "FILE:LINE" of the rule that asks, or NULL */
} rg_game_question;

/* Makes a game of rules r (which must outlive it).  Returns RG_OK with
** *out set (free it with rg_game_free), RG_NOT_FOUND (no such procedure,
** or it takes parameters) or RG_NOMEM. */
REGULA_API rg_status rg_game_new(const rg_rules *r, const rg_game_options *opt, rg_game **out);

/* Frees g (NULL is fine). */
REGULA_API void rg_game_free(rg_game *g);

/* Adds the answers of a saved transcript, text[0..len): one answer a line,
** # comments and blank lines skipped (name is used in errors with the
** line: "game.txt:12: 'x' is not an option of: ...").  Returns RG_OK,
** RG_BAD_VALUE (a NUL byte) or RG_NOMEM. */
REGULA_API rg_status rg_game_load(rg_game *g, const char *name, const char *text, size_t len);

/* Plays from the start with the answers so far; returns where it stands. */
REGULA_API rg_game_state rg_game_play(rg_game *g);

/* The game's log as text (the same lines as `regula run` prints), its
** length in *len, and in *visible how many of its bytes may be shown now:
** a secret choice and those made with it are held back until all are in. */
REGULA_API const char *rg_game_log(const rg_game *g, size_t *len, size_t *visible);

/* Writes what every player may see now, the game's public view: the log
** as far as it may be shown (the visible part of rg_game_log), then, when
** the game is asking, "? WHO, PROMPT" and, unless the question is secret,
** its options one a line ("  1) Standard" and a remark in brackets).  A
** secret question's options (a hand) are for the one who answers alone,
** and so is all a front end shows while it is asked.  The promise: two
** games that differ only in one player's secret cards or answers have the
** same public view until the rules show the secret.  Returns RG_OK or
** RG_NOMEM. */
REGULA_API rg_status rg_game_public(const rg_game *g, rg_out *out);

/* When the game is asking: fills *q and returns 1; else returns 0. */
REGULA_API int rg_game_asking(const rg_game *g, rg_game_question *q);

/* Writes the name of option i of the question into buf ("Standard";
** empty for a range).  Returns RG_OK or RG_BAD_VALUE. */
REGULA_API rg_status rg_game_option(const rg_game *g, uint32_t i, char *buf, size_t size);

/* Writes the question as the regula program shows it: max 0, "WHO,
** PROMPT" (or "PROMPT"); else its options on one line ("1..6", "Standard,
** Summer, ...", at most max named).  Returns RG_OK; RG_BAD_VALUE when the
** game is not asking; RG_NOMEM. */
REGULA_API rg_status rg_game_question_write(const rg_game *g, uint32_t max, rg_out *out);

/* Writes an example of the whole hand the question asks for (its hand > 1)
** from the names of its own cards, as a person may type it: counted ("2 red
** 1 white") or, when listed, each card ("red red white").  Made from the
** options alone, never from what is left of them: it tells nothing of a
** secret deck.  Returns RG_OK; RG_BAD_VALUE when the game is not asking for
** a hand; RG_NOMEM. */
REGULA_API rg_status rg_game_hand_example(const rg_game *g, int listed, rg_out *out);

/* Writes the remark shown after option i of the question ("2 left") into
** buf; returns 1, or 0 when it has none. */
REGULA_API int rg_game_option_remark(const rg_game *g, uint32_t i, char *buf, size_t size);

/* How many answers the game holds (loaded and given); how many `expect`s
** failed in the last play. */
REGULA_API uint32_t rg_game_answers(const rg_game *g);
REGULA_API int rg_game_failed_expects(const rg_game *g);

/* Reads line (changed in place) as a person's reply to the question (see
** rg_reply): an answer (a name in any case, a prefix of one name only, its
** number, yes/no, "3 4" for two dice), undo or back, save [FILE] (FILE in
** *arg, else NULL), ? or help.  Writes to why what a person should read:
** the help, what was taken back, why an answer is refused. */
REGULA_API rg_reply rg_game_reply(rg_game *g, char *line, const char **arg, rg_out *why);

/* Writes the transcript to o: a comment line naming the game, then per
** answer a comment with its question and the answer: what rg_game_load
** reads back. */
REGULA_API void rg_game_transcript(const rg_game *g, rg_out *o);

/* What the header of a transcript says (rg_transcript_head): pointers into
** the text read, each with its length (0: not said). */
typedef struct rg_transcript_info {
  const char *rules;        /* the rule file it was played with, as named
                            ** (escaped: see rg_transcript_rules) */
  size_t rules_len;
  const char *module;       /* the hash of its module (rg_rules_hash) */
  size_t module_len;
  const char *proc;         /* the procedure played */
  size_t proc_len;
  uint64_t seed;            /* with has_seed */
  int has_seed;
  int choices;              /* who answered the choices: 'a' ask, 'r' random,
                            ** 'f' first; 0 not said */
  int dice;                 /* the dice and cards: 'a' ask, 'r' random; 0 */
  uint32_t bad_line;        /* not 0: the header line that does not parse, */
  uint32_t bad_col;         /*   the column (bytes, from 1) where, */
  const char *bad;          /*   and why ("the seed is not a whole number ...") */
} rg_transcript_info;

/* Reads the header of a transcript (text[0..len), as rg_game_transcript
** writes it: its first comment lines) into *info.  Returns RG_OK, or
** RG_BAD_VALUE when a header line does not parse (info->bad_line says
** which, and why); a text with no header gives RG_OK with nothing said. */
REGULA_API rg_status rg_transcript_head(const char *text, size_t len, rg_transcript_info *info);

/* Writes to out the rule file info's header names (info->rules, which
** holds it as the header line does: a control byte or backslash of the
** path as \xNN) as a path again.  Returns RG_OK; RG_IO when out failed
** (an rg_buf's: memory ran out); nothing is written when info->rules is
** NULL. */
REGULA_API rg_status rg_transcript_rules(const rg_transcript_info *info, rg_out *out);

/* Reads the settings a transcript (text[0..len), as rg_game_transcript
** writes it) was played with, from the comments at its top: the seed (in
** *seed, *has_seed = 1; else *has_seed = 0) and each "# set NAME=VALUE",
** handed to each(ctx, set, n) (not NUL-terminated) in order. */
REGULA_API void rg_transcript_settings(const char *text, size_t len, uint64_t *seed, int *has_seed,
                            void (*each)(void *ctx, const char *set, size_t n), void *ctx);

/* After RG_GAME_FAILED: why; in *status RG_RUN_ERROR when a rule failed
** (or a limit was reached), RG_BAD_VALUE when a loaded answer fits no
** option, RG_NOMEM; and where in the rules (path, line, display column;
** "?" and 0 when no rule failed or the rules do not say).  Any pointer
** may be NULL. */
REGULA_API const char *rg_game_error(const rg_game *g, rg_status *status, rg_place *where);

/* The pictures the last play drew (with pictures set), or NULL. */
REGULA_API const rg_pictures *rg_game_drawn(const rg_game *g);

/* ======================================================================
** Comparing rule sets (regula diff)
** ==================================================================== */

/* What changed from one rule set to another, as a list: the header,
** units, enums and members, records, named constants and inputs, table
** cells (rows of a list aligned by content), the odds of dice-keyed tables,
** procedures and their steps.  Made by rg_changes_new, freed by
** rg_changes_free; it borrows both rule sets, which must outlive it.
** (rg_rules_diff, above, writes it as `regula diff` prints it.) */
typedef struct rg_changes rg_changes;

/* How to compare.  A NULL options pointer gives the defaults. */
typedef struct rg_diff_options {
  size_t size;              /* sizeof(rg_diff_options) */
  const char *const *odds;  /* hints "TABLE=NdS[+K|-K]": TABLE's first integer
                            ** key is that dice score (see rg_diff_hint_valid) */
  int nodds;
  int with_source;          /* 1: read both rule sets' files to show each
                            ** changed procedure and step as a unified diff
                            ** of its source, with an override's `source` */
  const rg_loader *loader;  /* how to read them; NULL: rg_file_loader */
} rg_diff_options;

/* Returns 1 when text is an odds hint "TABLE=NdS", "TABLE=dS",
** "TABLE=NdS+K" or "TABLE=NdS-K" with 1 to 6 dice of 2 to 20 sides; else 0. */
REGULA_API int rg_diff_hint_valid(const char *text);

/* Compares a with b.  Returns RG_OK with *out set; RG_BAD_VALUE when a hint
** is not valid; RG_NOMEM.  *out is NULL on failure. */
REGULA_API rg_status rg_changes_new(const rg_rules *a, const rg_rules *b, const rg_diff_options *opt,
                         rg_changes **out);

/* How many changes c lists (items and the items inside them): 0 when the
** rule sets do the same. */
REGULA_API uint32_t rg_changes_count(const rg_changes *c);

/* How rg_changes_write writes a list. */
typedef enum rg_diff_format {
  RG_DIFF_TEXT = 0,         /* for people: one line per change, its places below */
  RG_DIFF_STAT = 1,         /* how many changes of each kind, per section */
  RG_DIFF_JSON = 2          /* JSON lines: {"format":2,"changes":N}, then one
                            ** object per change */
} rg_diff_format;

/* rg_changes_write's flags: mark the words that changed inside a text in
** colour (ANSI red and green) rather than as [-removed-]{+added+}. */
#define RG_DIFF_COLOR 1

/* Writes c to out in format, with paths shown without the folder `base`
** (NULL or "": as the rule sets name them; see rg_diff_shared_dir).
** Returns RG_OK or RG_NOMEM. */
REGULA_API rg_status rg_changes_write(const rg_changes *c, rg_diff_format format, int flags, const char *base,
                           rg_out *out);

/* Frees c (NULL is fine). */
REGULA_API void rg_changes_free(rg_changes *c);

/* Writes into buf[0..size) the folder that paths a and b share
** ("rules/game/" for rules/game/x.rules and rules/game/revised/y.rules, after
** dropping "./" and folding "dir/.."), "" when none. */
REGULA_API void rg_diff_shared_dir(const char *a, const char *b, char *buf, size_t size);


#endif
