/*
** regula.h: the public interface of the regula library.
**
** This header is the whole contract for a program that embeds regula; every
** other header of interp/ is internal and may change.  It includes no other
** header of the library.
**
** The library prints nothing, reads no environment and never exits: text
** goes through an rg_out the caller provides, diagnostics come back as
** records, files are read through a loader callback.
*/
#ifndef REGULA_H
#define REGULA_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* ======================================================================
** Status codes
** ==================================================================== */

/* What a function of the library returns: RG_OK, or why it failed. */
typedef enum rg_status {
  RG_OK = 0,
  RG_RUN_ERROR = 1,         /* the rules failed at run time: an empty deck, a key
                            ** outside a table, no answer to a choice */
  RG_RUN_LIMIT = 2,         /* a step, memory or call-depth limit was reached */
  RG_NOMEM = 3,             /* out of memory */
  RG_BAD_RULES = 4,         /* the rule file has errors (the diagnostics say which) */
  RG_BAD_MODULE = 5,        /* a bytecode module is malformed or fails verification */
  RG_NOT_FOUND = 6,         /* no such file, procedure, table or input */
  RG_BAD_VALUE = 7,         /* a value, key or argument is not valid where it is given */
  RG_IO = 8                 /* a file could not be read or written */
} rg_status;

/* Returns the name of status s ("ok", "out of memory", ...; "unknown status"
** for a value that is none of them).  The string is static. */
const char *rg_status_name(rg_status s);

/* ======================================================================
** Loading source files
** ==================================================================== */

/* What a loader is asked for. */
typedef enum rg_load_kind {
  RG_LOAD_RULES = 0,        /* a rule file: the one compiled first, or `extends "NAME"` */
  RG_LOAD_TABLE = 1         /* a table's `from "NAME"` (TSV) */
} rg_load_kind;

/* A file a loader found: its bytes and the name it goes by. */
typedef struct rg_source {
  const char *text;         /* the bytes (UTF-8), valid until release */
  size_t len;
  const char *path;         /* the resolved name, used in diagnostics and as
                            ** `from` for the files it names; NULL: the name
                            ** as asked */
  void *handle;             /* the loader's own, for release */
} rg_source;

/* Where the compiler gets the files a rule file names.  load is asked for
** `name` as written in the file `from` (the resolved path of the including
** file; NULL for the file compiled first, when compiling by path); it fills
** *src and returns RG_OK, or returns RG_NOT_FOUND, RG_IO or RG_NOMEM with a
** message in err[0..errlen) ("cannot open x.rules: No such file or
** directory"), which the compiler reports at the `extends` or `from` that
** asked.  The compiler copies the text at once, then calls release (when
** not NULL) with the same *src. */
typedef struct rg_loader {
  rg_status (*load)(void *ctx, const char *from, const char *name, rg_load_kind kind,
                    rg_source *src, char *err, size_t errlen);
  void (*release)(void *ctx, rg_source *src);
  void *ctx;
} rg_loader;

/* The default loader: reads files from the disk.  `extends "NAME"` is read
** relative to the folder of the including file; `from "NAME"` beside it,
** then in each folder above it (up to 16); the first file as named. */
extern const rg_loader rg_file_loader;

/* The largest source file (a rule file, a TSV table) the library reads,
** in bytes: a larger one is refused with "file too large". */
#define RG_MAX_SOURCE (16u << 20)

/* ======================================================================
** Text output
** ==================================================================== */

/* Where the library's text goes: a write callback and its context.  A
** failed write is remembered in `failed`, so a renderer goes on writing and
** the caller checks `failed` once at the end.  Set write and ctx, zero
** failed. */
typedef struct rg_out {
  /* Writes s[0..n); returns 0, or -1 when the text could not be written. */
  int (*write)(void *ctx, const char *s, size_t n);
  void *ctx;
  int failed;               /* a write failed */
} rg_out;

/* Writes s[0..n) to o (nothing once o has failed). */
void rg_write(rg_out *o, const char *s, size_t n);

/* Writes the NUL-terminated s to o. */
void rg_puts(rg_out *o, const char *s);

/* Writes one byte to o. */
void rg_putc(rg_out *o, int c);

/* Writes printf-style text to o (any length: long text is formatted into a
** heap buffer; when that fails, o is marked failed). */
void rg_printf(rg_out *o, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;
void rg_vprintf(rg_out *o, const char *fmt, va_list ap);

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
size_t rg_write_shown(rg_out *o, const char *s, size_t n, int flags);

/* A growable byte buffer with an rg_out that appends to it, for a caller
** that wants the text as a string: always NUL-terminated when len > 0. */
typedef struct rg_buf {
  char *data;               /* rg_malloc'd; NULL until something is written */
  size_t len, cap;
  rg_out out;               /* writes append to the buffer */
} rg_buf;

/* Sets b up empty, with b->out appending to it. */
void rg_buf_init(rg_buf *b);

/* Frees b's data and empties it. */
void rg_buf_free(rg_buf *b);

/* ======================================================================
** Diagnostics
** ==================================================================== */

/* How serious a diagnostic is. */
typedef enum rg_severity {
  RG_SEVERITY_ERROR = 0,    /* the input is wrong (or memory ran out) */
  RG_SEVERITY_NOTE = 1      /* information, e.g. "too many errors, stopping here" */
} rg_severity;

/* One diagnostic, as handed to the caller's callback.  Every pointer is
** valid during the callback only (for records kept by the library, until
** the compile's memory is freed). */
typedef struct rg_diagnostic {
  rg_severity severity;
  int located;              /* 1: path, line and columns say where; 0: no
                            ** position ("out of memory", "too many source
                            ** files"): only message is meaningful */
  uint32_t file;            /* index of the source file in the compile */
  const char *path;         /* that file's path ("?" when unknown) */
  uint32_t line;            /* 1-based */
  uint32_t col;             /* 1-based display column (character widths as a
                            ** terminal shows them; a tab counts 1) */
  uint32_t end_col;         /* display column just past the token at col
                            ** (a name, a number, a string; else one
                            ** character): the range to underline */
  const char *message;      /* what is wrong, without "error: " */
  const char *source_line;  /* the text of the line (no newline), or NULL */
  size_t source_len;        /* its length in bytes */
  uint32_t byte_col;        /* 1-based byte offset of col in source_line */
} rg_diagnostic;

/* Receives each diagnostic as it is found. */
typedef void (*rg_diagnostic_fn)(void *ctx, const rg_diagnostic *d);

/* Writes d to out exactly as the regula program prints it:
**     path:line:col: error: message
**         the source line
**         ^
** (the caret under display column col; bytes that are not UTF-8 shown as
** '?'), or "regula: error: message" for a diagnostic without a position
** ("regula: message" for a note). */
void rg_diagnostic_render(const rg_diagnostic *d, rg_out *out);

/* An rg_diagnostic_fn that renders each diagnostic to the rg_out *ctx. */
void rg_diagnostic_print(void *ctx, const rg_diagnostic *d);

/* ======================================================================
** Version
** ==================================================================== */

#define REGULA_VERSION "0.1.0"
#define REGULA_VERSION_NUMBER 1000      /* major * 1000000 + minor * 1000 + patch */

/* Returns REGULA_VERSION as the library was built ("0.1.0"). */
const char *rg_version(void);

/* Returns s[0..n) as a new NUL-terminated string (rg_malloc'd; free it
** with rg_free), each byte that is not part of valid UTF-8 and each NUL
** replaced by U+FFFD, its length in *len; NULL when out of memory.  For a
** front end that hands text on to something that takes only valid UTF-8
** (JSON, a browser). */
char *rg_utf8_repair(const char *s, size_t n, size_t *len);

/* ======================================================================
** Memory
** ==================================================================== */

/* An allocator in the manner of lua_Alloc: with size 0 frees ptr (which may
** be NULL) and returns NULL; otherwise resizes ptr (NULL: allocates) to
** size bytes and returns the block, or NULL when out of memory (ptr is then
** unchanged). */
typedef void *(*rg_alloc_fn)(void *ud, void *ptr, size_t size);

/* Makes every allocation of the library go through fn(ud, ...) (NULL: back
** to malloc, realloc and free).  Like sqlite3_config(SQLITE_CONFIG_MALLOC),
** it must be called once, before any other function of the library, while
** no other thread uses it: memory allocated by one allocator must not be
** freed by another.  It sets jansson's allocator too (json_set_alloc_funcs:
** the JSON the library reads and writes goes through fn), so a program that
** uses jansson itself shares it.  (utf8proc, which normalizes source text,
** allocates with malloc, out of its reach.)  Returns RG_OK. */
rg_status rg_set_allocator(rg_alloc_fn fn, void *ud);

/* The library's malloc, realloc and free: through the allocator set above,
** and failing when a test says so (rg_alloc_fail_at).  Memory the library
** hands out (an rg_buf's data) is freed with rg_free. */
void *rg_malloc(size_t n);
void *rg_realloc(void *p, size_t n);
void rg_free(void *p);

/* Writes data[0..len) to the file at path so that a failure never leaves a
** partial file: through a temporary file in the same directory renamed
** into place, removed on any failure.  A file that exists keeps its mode; a
** new one gets mode less the process's umask, as open(2) does (mode 0:
** private, 0600).  A symbolic link is followed (link after link) and its
** target replaced: the link stays a link.  A path that exists and is not a
** regular file (a device, a FIFO) is written straight to instead.
** Returns 0, or -1 with a message in err (size errlen). */
int rg_file_save(const char *path, const void *data, size_t len, int mode, char *err,
                 size_t errlen);

/* Testing: makes the nth allocation from now on fail (0: none fail), so a
** test can check that each failure ends cleanly with RG_NOMEM.  Counts
** allocations of every thread (atomically). */
void rg_alloc_fail_at(unsigned long n);

/* ======================================================================
** Compiled rules
** ==================================================================== */

/* A compiled rule set: its procedures, tables and inputs.  Read-only once
** made, so one may serve many runs, in several threads. */
typedef struct rg_rules rg_rules;

/* How to compile.  A zeroed struct (or NULL) gives the defaults. */
typedef struct rg_compile_options {
  const rg_loader *loader;          /* files that `extends` and `from` name;
                                    ** NULL: rg_file_loader (the disk) */
  rg_diagnostic_fn diagnostic;      /* receives each diagnostic; NULL: dropped */
  void *diagnostic_ctx;
  int keep_sources;                 /* 1: the rules keep their source files
                                    ** and `assumed` notes (memory the size
                                    ** of the sources), for rg_rules_sheet_of */
} rg_compile_options;

/* Compiles the rule file text[0..len), called name in diagnostics and
** resolved against by the loader.  Returns RG_OK with *out set (free it
** with rg_rules_free); RG_BAD_RULES after handing each error to the
** diagnostic callback; RG_NOMEM.  *out is NULL on failure. */
rg_status rg_rules_compile(const char *name, const char *text, size_t len,
                           const rg_compile_options *opt, rg_rules **out);

/* rg_rules_compile of the file the loader finds for path (asked with no
** including file): a rule file, or a compiled module (.rbc, verified; a bad
** one gives RG_BAD_MODULE with one diagnostic without a position).  A file
** that cannot be read gives the loader's status (RG_NOT_FOUND, RG_IO), with
** its diagnostic, not RG_BAD_RULES. */
rg_status rg_rules_compile_path(const char *path, const rg_compile_options *opt, rg_rules **out);

/* Frees rules made by rg_rules_compile (NULL is fine).  No run of them may
** be left. */
void rg_rules_free(rg_rules *r);

/* The name in the ruleset header ("" when none).  Owned by r. */
const char *rg_rules_name(const rg_rules *r);

/* Procedures (tests excluded from find): how many, the index of the one
** called name (-1 when none), the name of index i.  Names are owned by r. */
int rg_rules_proc_count(const rg_rules *r);
int rg_rules_find_proc(const rg_rules *r, const char *name);
const char *rg_rules_proc_name(const rg_rules *r, int proc);

/* The parameters of procedure proc: how many, the name of the kth, and its
** type written into buf ("int", "set ground", "distance BW").  Out of
** range: -1, NULL, NULL. */
int rg_rules_param_count(const rg_rules *r, int proc);
const char *rg_rules_param_name(const rg_rules *r, int proc, int k);
const char *rg_rules_param_type(const rg_rules *r, int proc, int k, char *buf, size_t size);

/* Parses args[0..nargs) by the parameters' types of procedure proc, as a
** run would.  Returns RG_OK; RG_NOT_FOUND (no such procedure) or
** RG_BAD_VALUE (another number of arguments, a bad one) with the reason in
** err ("argument 1 (k: int) of 'roll': 'x' is not a whole number");
** RG_NOMEM. */
rg_status rg_rules_check_args(const rg_rules *r, const char *proc, const char *const *args,
                              int nargs, char *err, size_t errlen);

/* The type of procedure proc's result written into buf ("int", "outcome");
** NULL when it has none or proc is out of range. */
const char *rg_rules_result_type(const rg_rules *r, int proc, char *buf, size_t size);

/* Inputs (`input NAME: T = default`): how many, the index of name (-1),
** the name of index i, its type into buf. */
int rg_rules_input_count(const rg_rules *r);
int rg_rules_find_input(const rg_rules *r, const char *name);
const char *rg_rules_input_name(const rg_rules *r, int input);
const char *rg_rules_input_type(const rg_rules *r, int input, char *buf, size_t size);

/* The text of line `line` (from 1) of the source file path, as r read it
** (compiled with keep_sources), without its line end; its length in
** *len.  NULL when r does not hold that line. */
const char *rg_rules_source_line(const rg_rules *r, const char *path, uint32_t line,
                                 size_t *len);

/* Strategies (`strategy NAME`: how a player answers the choices it
** covers): how many, the index of name (-1), the name of index i. */
int rg_rules_strategy_count(const rg_rules *r);
int rg_rules_find_strategy(const rg_rules *r, const char *name);
const char *rg_rules_strategy_name(const rg_rules *r, int strategy);

/* The description of strategy index i (`strategy NAME "..."`; "" when it
** has none, NULL when i is out of range).  Owned by r. */
const char *rg_rules_strategy_doc(const rg_rules *r, int strategy);

/* The index of the rules' default strategy (`default strategy NAME`), the
** one a front end answers choices with when no policy is asked for; -1
** when the rules name none. */
int rg_rules_default_strategy(const rg_rules *r);

/* Tables: how many, the index of name (-1), the name of index i, its number
** of keys. */
int rg_rules_table_count(const rg_rules *r);
int rg_rules_find_table(const rg_rules *r, const char *name);
const char *rg_rules_table_name(const rg_rules *r, int table);
int rg_rules_table_keys(const rg_rules *r, int table);

/* Looks up the cell of table `table` at keys[0..nkeys) (members by code or
** display name, any case; integers) and writes it into buf as text
** ("Dust Storms", "40%"; a record as "{field: value, ...}").  Returns
** RG_OK; RG_NOT_FOUND (no such table) or RG_BAD_VALUE (wrong number of
** keys, a bad key) with the reason in buf instead. */
rg_status rg_rules_query(const rg_rules *r, const char *table, const char *const *keys,
                         int nkeys, char *buf, size_t size);

/* Writes the cell of table `table` at keys[0..nkeys) to out as `regula
** query` prints it, ending with a newline (a record: one "field: value"
** line per field).  Returns RG_OK; RG_NOT_FOUND (no such table) or
** RG_BAD_VALUE (wrong number of keys, a bad key) with the reason in
** err[0..errlen) and nothing written. */
rg_status rg_rules_query_write(const rg_rules *r, const char *table, const char *const *keys,
                               int nkeys, rg_out *out, char *err, size_t errlen);

/* Writes r to path as a compiled module (.rbc), which rg_rules_compile_path
** loads back: through a temporary file renamed into place, so a failure
** leaves no partial file (a path that is not a regular file, such as
** /dev/stdout, is written straight to).  Returns RG_OK, or RG_IO with the
** reason in err[0..errlen). */
rg_status rg_rules_save(const rg_rules *r, const char *path, char *err, size_t errlen);

/* Writes the hash of r's compiled module (of the rules r is a copy of,
** when rg_rules_with made it: a game's settings are not part of it) into
** buf as 16 hex digits, the same on every platform: two rule files that
** compile to the same module have the same hash.  Returns RG_OK, or
** RG_NOMEM (buf then ""). */
rg_status rg_rules_hash(const rg_rules *r, char *buf, size_t size);
/* The native tier: machine code for r's procedures, made by compiling a
** translation of its verified code with the system's C compiler.  cc is
** the compiler's absolute path (the library searches no PATH and reads no
** environment: the caller finds it), cache_dir the folder that keeps the
** compiled code between processes (made 0700 when missing; a folder that
** is not the user's own and private is not used).  Afterwards runs,
** simulations and tests of r and of its copies (rg_rules_with) run the
** machine code, with the VM's results, events, errors, limits and seeding
** byte for byte; with no_fusion set they run in the VM.  When the tier
** cannot be had (no compiler, a compile that fails, an instruction it does
** not translate, a build without it such as the page's) r stays with the
** VM: note[0..notelen) says why (or how the code was had), and that is not
** an error.  Returns RG_OK, or RG_NOMEM. */
typedef struct rg_native_options {
  size_t size;              /* sizeof(rg_native_options) */
  const char *cc;           /* the C compiler's absolute path */
  const char *cache_dir;    /* the cache folder */
} rg_native_options;
rg_status rg_rules_native(rg_rules *r, const rg_native_options *opt, char *note, size_t notelen);

/* rg_rules_dis's flags. */
#define RG_DIS_FAST 1       /* the VM's private register code, not the bytecode */
#define RG_DIS_NO_FUSION 2  /* with RG_DIS_FAST: without fused instructions */

/* Writes the disassembly of r to out as `regula dis` prints it: per
** procedure its signature, then one instruction a line, "addr [line]
** OPNAME operands ; comment" (or, with RG_DIS_FAST, the VM's register
** code).  Returns RG_OK or RG_NOMEM. */
rg_status rg_rules_dis(const rg_rules *r, int flags, rg_out *out);

/* Receives one `assumed` note: the file and line it is on (path NULL when
** the rules do not say: a rule set read from standard input names it
** "-"), what it is on ("table weather", "dice RED") and its text. */
typedef void (*rg_assumption_fn)(void *ctx, const char *path, uint32_t line, const char *what,
                                 const char *text);

/* Hands fn every `assumed` note of r, in the order of the sources.  Only
** rules compiled with keep_sources keep them (a module loaded from a .rbc
** has none).  Returns how many. */
uint32_t rg_rules_assumptions(const rg_rules *r, rg_assumption_fn fn, void *ctx);

/* ======================================================================
** Rules set up for runs
**
** What a run is given besides its seed: an `input` set by its name
** (`level[A]=high`, parsed by its type), and a die or a deck given
** its faces or cards, `FACE:COUNT` or `FACE` joined by commas
** (`D=hit:2,miss:4`, `bag=GOLD:8,LEAD:9`), so that a
** player's real dice and bag replace what the rule file could only assume.
** rg_rules_with makes a copy of rules to set up; every run, game,
** simulation and exact odds of the copy starts from its settings, and
** their logs name the placeholder data they rest on.  Set a copy up
** before making a run, game or simulation of it.
** ==================================================================== */

/* Makes *out a copy of r to set up, every input at its default and every
** die and deck as declared.  r must outlive the copy (they share the
** code).  Returns RG_OK or RG_NOMEM; free the copy with rg_rules_free. */
rg_status rg_rules_with(const rg_rules *r, rg_rules **out);

/* Applies "NAME=VALUE" (spaces around NAME and VALUE ignored) to r, a copy
** made by rg_rules_with; where names the text in errors ("--set a=b").
** The text is kept: a game's transcript names it ("# set NAME=VALUE").
** Returns RG_OK; RG_BAD_VALUE after writing what is wrong to err (one
** line, "WHERE: ...", without "error: "; also when r is not a copy);
** RG_NOT_FOUND when NAME is no input, die or deck (err lists those there
** are); RG_NOMEM. */
rg_status rg_rules_set(rg_rules *r, const char *text, const char *where, rg_out *err);

/* rg_rules_set of each line of text[0..len) (NAME=VALUE; blank lines and
** lines starting with # skipped), named "source:LINE" in errors; these
** are not named in a transcript.  Returns as rg_rules_set, at the first
** line refused. */
rg_status rg_rules_set_lines(rg_rules *r, const char *text, size_t len, const char *source,
                             rg_out *err);

/* Writes the placeholder data procedure proc rests on: each die and deck
** it may roll or draw (its calls followed) that the rule file marks
** `assumed` (a .rbc keeps no such note) or that r set, as text
** ("dice RED (assumed), deck bag (set)") or, json 1, as a JSON array of
** {"kind":"dice"|"deck","name","given":"assumed"|"set"}.  Writes nothing
** when there is none.  Returns how many (0 also for no such procedure),
** or -1 when out of memory. */
int rg_rules_placeholders(const rg_rules *r, const char *proc, int json, rg_out *out);

/* ======================================================================
** Runs
** ==================================================================== */

/* A run: a virtual machine for one rule set, its seed, its inputs, the
** callbacks that answer choices and receive events.  One thread at a time. */
typedef struct rg_run rg_run;

/* What happened, in the order the rules say it happens. */
typedef enum rg_event_kind {
  RG_EVENT_STEP,            /* a step of the rules begins; name: the step */
  RG_EVENT_ROLL,            /* dice rolled; name: "2d6" or the die; values: each die */
  RG_EVENT_DRAW,            /* a card drawn; name: the deck; value: the card */
  RG_EVENT_CHOICE,          /* a choice made; name: the prompt; values: the
                            ** option taken, then who chose */
  RG_EVENT_NOTE,            /* a note; name: its text; values: its values */
  RG_EVENT_SHAPE,           /* a shape of a picture; name: canvas, rect, ...; values: its arguments */
  RG_EVENT_EXPECT_FAIL,     /* an expect failed; name: the expression; values:
                            ** expected, actual (for `expect a == b`) */
  RG_EVENT_KINDS            /* the number of kinds */
} rg_event_kind;

/* Returns the name of kind k ("step", "roll", "draw", "choice", "note",
** "shape", "expect_fail"; "?" out of range).  Static. */
const char *rg_event_kind_name(rg_event_kind k);

/* One event.  Valid during the callback only. */
typedef struct rg_event {
  rg_event_kind kind;
  const char *name;         /* see rg_event_kind */
  uint32_t nvalues;         /* values rg_run_event_value can write */
  const char *path;         /* the rule file and position it comes from
                            ** ("?" and 0 when unknown) */
  uint32_t line, col;
  int secret;               /* a choice the rules mark secret (`choose
                            ** secret`): a front end holds it back until the
                            ** moment's other secret choices are made */
} rg_event;

/* Receives each event of a run. */
typedef void (*rg_event_fn)(void *ctx, rg_run *run, const rg_event *ev);

/* Writes value i of the event being delivered into buf as text (as
** rg_rules_query writes cells).  Only during an event callback.  Returns
** RG_OK, or RG_BAD_VALUE when i is out of range (buf then ""). */
rg_status rg_run_event_value(const rg_run *run, uint32_t i, char *buf, size_t size);

/* Answers a choice: `chooser` (as text) picks one of noptions options
** (rg_run_option writes each); returns its index, or -1 to stop the run
** (rg_run_call then gives RG_RUN_ERROR). */
typedef int64_t (*rg_choose_fn)(void *ctx, rg_run *run, const char *chooser, const char *prompt,
                                uint32_t noptions);

/* Returns 1 when the question being asked (during a choose or dice
** callback) is secret: a choice the rules mark secret, or a card of a
** secret deck; else 0. */
int rg_run_asking_secret(const rg_run *run);

/* Writes option i of the choice being asked into buf as text (an enum
** member by its display name; a number as digits).  Only during a choose
** callback.  Returns RG_OK or RG_BAD_VALUE. */
rg_status rg_run_option(const rg_run *run, uint32_t i, char *buf, size_t size);

/* Decides a draw of chance in place of the seeded generator (a person
** reading real dice): what is 'd' for a plain die (n sides), 'f' for a die
** with faces (name: the die), 'c' for a card of deck `name` (n cards left);
** returns 0..n-1, or -1 to stop the run. */
typedef int64_t (*rg_chance_fn)(void *ctx, rg_run *run, int what, const char *name, uint64_t n);

/* Who answers the choices of a run (interp/play/policy.h does the work). */
typedef enum rg_choose_policy {
  RG_CHOOSE_RANDOM = 0,     /* at random, from stream 1 of the seed (the CLI's
                            ** default, so a seed gives the CLI's game) */
  RG_CHOOSE_FIRST = 1,      /* every choice takes its first option */
  RG_CHOOSE_ANSWERS = 2,    /* answers[0..answers_len), one a line (an
                            ** option's name or number; # comments), used in
                            ** order across calls; a missing or wrong one
                            ** stops the run naming answers_name:LINE */
  RG_CHOOSE_CALLBACK = 3    /* choose(choose_ctx, ...) answers */
} rg_choose_policy;

/* A run's limits when rg_run_options leaves them 0: steps (instructions:
** a backward jump costs the instructions of the loop it closes, a call the
** callee's length, so that the steps bound the time), and bytes for the
** stack and heap. */
#define RG_DEFAULT_MAX_STEPS  1000000000ull
#define RG_DEFAULT_MAX_MEMORY (64u << 20)

/* Where a run's random numbers come from (the contract: interp/play/seed.h). */
typedef enum rg_seeding {
  RG_SEEDING_RUN = 0,       /* as `regula run --seed`: each step draws from
                            ** streams of the seed named by the step */
  RG_SEEDING_CALL = 1       /* as `regula call` and a test: seed 0, one
                            ** stream, from the start of each call (the
                            ** options' seed is not used) */
} rg_seeding;

/* How to run.  A zeroed struct (or NULL) gives the defaults. */
typedef struct rg_run_options {
  uint64_t seed;            /* the dice and decks draw from stream 0 of it,
                            ** random choices from stream 1 */
  rg_seeding seeding;
  uint64_t max_steps;       /* instructions (see RG_DEFAULT_MAX_STEPS); 0: that default */
  size_t max_memory;        /* bytes for the stack and heap; 0: RG_DEFAULT_MAX_MEMORY */
  rg_choose_policy policy;
  const char *answers;      /* RG_CHOOSE_ANSWERS: the text (copied) */
  size_t answers_len;
  const char *answers_name; /* named in errors ("answers.txt"; NULL: "answers") */
  rg_choose_fn choose;      /* RG_CHOOSE_CALLBACK */
  void *choose_ctx;
  rg_chance_fn chance;      /* NULL: the seeded generator */
  void *chance_ctx;
  rg_event_fn event;        /* NULL: events are not delivered */
  void *event_ctx;
  unsigned events;          /* the kinds event receives, a bit (1u << kind)
                            ** each; 0: every kind (a run that needs fewer
                            ** runs faster) */
  rg_choose_fn dice;        /* not NULL: each die rolled and card drawn is a
                            ** question put to dice(dice_ctx, ...), as
                            ** `regula run --dice ask` asks it (chooser "",
                            ** prompt "roll d6 (line 34)"; options 1..6, a
                            ** die's distinct faces, a deck's distinct cards
                            ** left in order, named by rg_run_option); chance
                            ** is then not used */
  void *dice_ctx;
  int no_fusion;            /* 1: the VM runs without its fused instructions
                            ** (for people testing the VM: results, errors
                            ** and rolls are the same either way) */
  const char *strategy;     /* not NULL: the strategy of the rules so named
                            ** answers the choices it covers, the policy
                            ** the others (`regula run --policy NAME`: the
                            ** random policy) */
} rg_run_options;

/* Makes a run of rules r (which must outlive it).  Returns RG_OK with *out
** set (free it with rg_run_free), or RG_NOMEM, or RG_BAD_VALUE (policy
** RG_CHOOSE_CALLBACK without choose, answers holding a NUL byte), or
** RG_NOT_FOUND (no strategy of that name). */
rg_status rg_run_new(const rg_rules *r, const rg_run_options *opt, rg_run **out);

/* Frees a run (NULL is fine). */
void rg_run_free(rg_run *run);

/* Sets input `name` to value (parsed by its type, as on the command line:
** "high", "S,P,D", "40%") for the calls that follow.  Returns RG_OK,
** RG_NOT_FOUND or RG_BAD_VALUE, with the reason in err[0..errlen). */
rg_status rg_run_set_input(rg_run *run, const char *name, const char *value, char *err,
                           size_t errlen);

/* Runs procedure proc with args[0..nargs) parsed by its parameters' types,
** from the start of the seed (the same seed, inputs and answers give the
** same run, and the same as `regula run --seed`).  Events and choices go to the callbacks as they happen.
** Returns RG_OK; RG_NOT_FOUND (no such procedure) or RG_BAD_VALUE (wrong
** number of arguments, a bad one), with rg_run_error saying why;
** RG_RUN_ERROR or RG_RUN_LIMIT when the rules failed, a choice went
** unanswered or a limit was reached (rg_run_error says what and where);
** RG_NOMEM. */
rg_status rg_run_call(rg_run *run, const char *proc, const char *const *args, int nargs);

/* After a failed rg_run_call: 1 when no rule failed but a choice or a die
** went unanswered (the answers ran out or one fits no option; the
** message names the answers' line), else 0. */
int rg_run_stopped(const rg_run *run);

/* After a failed rg_run_call: the message, and where in the rules (path,
** line, display column; "?" and 0 when not in the rules).  Any pointer may
** be NULL.  Owned by the run, valid until the next call. */
const char *rg_run_error(const rg_run *run, const char **path, uint32_t *line, uint32_t *col);

/* After a successful rg_run_call: writes the result into buf as text (a
** record as "{field: value, ...}"; "" for a procedure without one).
** Returns RG_OK. */
rg_status rg_run_result(const rg_run *run, char *buf, size_t size);

/* How many `expect`s failed during the last call (each is also an
** RG_EVENT_EXPECT_FAIL event). */
int rg_run_failed_expects(const rg_run *run);

/* After a successful rg_run_call: writes the result to out as `regula
** call` prints it, ending with a newline (a record: one "field: value"
** line per field); nothing for a procedure without one.  Returns RG_OK. */
rg_status rg_run_result_write(const rg_run *run, rg_out *out);

/* During an event callback: writes a note as `regula call` prints it
** ("note TEXT: V, V"; "note TEXT" without values), or a failed expect as "expected X, got Y" (`expect a == b`) or "expected
** true: TEXT"; no newline.  Returns RG_OK, or RG_BAD_VALUE for any other
** event (nothing written). */
rg_status rg_run_event_text(const rg_run *run, rg_out *out);

/* Writes a runtime error of r (rg_run_error's message and position) to out
** as the regula program prints it: "path:line:col: error: msg" with the
** source line and a caret under the column when r was compiled with
** keep_sources from that file, else that line alone; "regula: error: msg"
** when there is no position (path NULL or "?"). */
void rg_rules_error_write(const rg_rules *r, const char *msg, const char *path, uint32_t line,
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
** written then); RG_NOMEM; RG_IO when out failed. */
rg_status rg_rules_format(const char *name, const char *text, size_t len,
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
rg_status rg_rules_symbols(const char *name, const char *text, size_t len,
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
rg_status rg_rules_uses(const char *name, const char *text, size_t len,
                        const rg_compile_options *opt, rg_symbol_fn fn, void *ctx);

/* Writes what compiled rules r know of the table or constant called name,
** for a reader: a table's cells in the layout of `regula sheet`; a named
** constant as `name = value` (its value as computed, a starred distance
** with its star).  Returns RG_OK, or RG_NOT_FOUND when r has no table or
** constant of that name, RG_NOMEM. */
rg_status rg_rules_describe(const rg_rules *r, const char *name, rg_out *out);

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
void rg_run_log(rg_run *run, rg_out *out, int json, const char *policy, const char *dice);

/* Writes the default value of input i of r (`input NAME: T = default`) into
** buf as a run's log writes values ("talented", "12", "{Standard, Plains}"),
** for a front end to show beside a field left blank; returns buf (cut to
** size), or NULL when i is out of range. */
const char *rg_rules_input_value(const rg_rules *r, int input, char *buf, size_t size);

/* Writes the results of runs[0..n) side by side as `regula run --variants`
** prints them (json 0: a row per field of the result records, matched by
** name, a column per run headed names[i], "* " before the rows that
** differ, after a line naming the procedure, n, seed and policy; json 1:
** its --json lines).  Each run must have just called the procedure with
** success.  Returns RG_OK; RG_BAD_VALUE (n < 1, a run without a result);
** RG_NOMEM. */
rg_status rg_runs_side_by_side(const rg_run *const *runs, const char *const *names, int n,
                               uint64_t seed, const char *policy, int json, rg_out *out);

/* Collects the pictures (canvas, rect, ...) the later calls of run draw.
** Returns RG_OK or RG_NOMEM. */
rg_status rg_run_pictures(rg_run *run);

/* Pictures: what the canvas, rect, line, circle, polygon and label
** statements of a run drew, each an SVG document.  Read-only; owned by
** whoever drew them (a run: rg_run_drawn). */
typedef struct rg_svg rg_pictures;

/* The pictures run collected so far (after rg_run_pictures), or NULL. */
const rg_pictures *rg_run_drawn(const rg_run *run);

/* How many pictures p holds; the name of picture i (its canvas's; NULL out
** of range); the index of the picture called name (-1 when none). */
uint32_t rg_pictures_count(const rg_pictures *p);
const char *rg_pictures_name(const rg_pictures *p, uint32_t i);
int rg_pictures_find(const rg_pictures *p, const char *name);

/* The first wrong shape (a style with a forbidden character, a shape
** before any canvas, a canvas of no size): its message, and where in the
** rules (path, line, display column; "?" and 0 when unknown; any pointer
** may be NULL).  NULL when every shape was right. */
const char *rg_pictures_error(const rg_pictures *p, const char **path, uint32_t *line,
                              uint32_t *col);

/* Writes picture i as a self-contained SVG document (as `regula draw`
** writes it) to out.  Returns RG_OK; RG_BAD_VALUE when i is out of range;
** RG_RUN_ERROR when a shape was wrong (rg_pictures_error); RG_NOMEM. */
rg_status rg_pictures_write(const rg_pictures *p, uint32_t i, rg_out *out);

/* Writes picture i to the file path as rg_file_save does (mode 0644, no
** partial file).  Returns RG_OK; RG_BAD_VALUE when i is out of range;
** RG_RUN_ERROR (a wrong shape); RG_IO with the reason in err[0..errlen)
** (also when memory ran out). */
rg_status rg_pictures_save(const rg_pictures *p, uint32_t i, const char *path, char *err,
                           size_t errlen);

/* Runs every `test` of r and writes each failure as `regula test` prints
** it ("path:line: FAIL test \"NAME\": MESSAGE"), adding to *passed and
** *failed (not the closing count line).  Of opt (NULL: the defaults) only
** max_steps, max_memory and no_fusion count, for each test.  Returns
** RG_OK or RG_NOMEM. */
rg_status rg_rules_test(const rg_rules *r, const rg_run_options *opt, rg_out *out,
                        uint32_t *passed, uint32_t *failed);

/* Compiles the rule file text[0..len) as rg_rules_compile does and writes
** its sheet as `regula sheet NAME` prints it.  Returns RG_OK; RG_BAD_RULES
** (the diagnostics go to opt's callback) or RG_NOMEM. */
rg_status rg_rules_sheet(const char *name, const char *text, size_t len,
                         const rg_compile_options *opt, rg_out *out);

/* Writes the sheet of r as `regula sheet` prints it: every table and the
** constants, or only the tables named in tables[0..ntables).  The cells
** carrying an `assumed` note are marked when r was compiled with
** keep_sources (a module loaded from a .rbc keeps none: a line says so).
** Returns RG_OK; RG_NOT_FOUND when a name is not a table of r (nothing is
** written: check with rg_rules_find_table first); RG_NOMEM. */
rg_status rg_rules_sheet_of(const rg_rules *r, const char *const *tables, int ntables,
                            rg_out *out);

/* Writes what changed from a (compiled from a_path) to b (from b_path) as
** `regula diff A_PATH B_PATH` prints it, and the number of changes into
** *changes.  Returns RG_OK or RG_NOMEM. */
rg_status rg_rules_diff(const rg_rules *a, const char *a_path, const rg_rules *b,
                        const char *b_path, rg_out *out, uint32_t *changes);

/* A simulation: a procedure run many times, its results tallied.  Run i
** draws from stream i of the seed as in `regula sim`, so the tallies after
** n runs are those of `regula sim --runs n` whatever the slices the runs
** were made in (a page's worker reports progress and may stop between
** slices) and whatever the threads. */
typedef struct rg_sims rg_sims;

/* The most worker threads a simulation takes. */
#define RG_SIMS_MAX_THREADS 256

/* How to simulate.  A zeroed struct gives the defaults. */
typedef struct rg_sims_options {
  const char *proc;         /* the procedure; it must have a result; NULL: "main" */
  const char *const *args;  /* its arguments, parsed by its parameters' types */
  int nargs;
  uint64_t seed;
  uint32_t threads;         /* worker threads, at most RG_SIMS_MAX_THREADS; 0: 1 */
  uint64_t max_steps;       /* of each run, as rg_run_options */
  size_t max_memory;
  int no_fusion;
  rg_choose_policy policy;  /* RG_CHOOSE_RANDOM (a stream of each run's own),
                            ** RG_CHOOSE_FIRST or RG_CHOOSE_ANSWERS (the same
                            ** answers in every run); not a callback */
  const char *answers;      /* RG_CHOOSE_ANSWERS: as rg_run_options */
  size_t answers_len;
  const char *answers_name;
  const char *strategy;     /* a strategy of the rules answers the choices it
                            ** covers, the policy the others */
  /* Optional: called on the caller's thread about every 100 ms while
  ** rg_sims_run's workers run, with the runs of that call done so far. */
  void (*progress)(void *ctx, uint64_t done, uint64_t total);
  void *progress_ctx;
} rg_sims_options;

/* Starts a simulation of rules r (which must outlive it).  Returns RG_OK
** with *out set (free it with rg_sims_free); RG_NOT_FOUND (no such
** procedure or strategy), RG_BAD_VALUE (no result, a wrong number of
** arguments or a bad one, answers holding a NUL byte, a callback policy),
** with the reason in err[0..errlen); RG_NOMEM. */
rg_status rg_sims_open(const rg_rules *r, const rg_sims_options *opt, char *err, size_t errlen,
                       rg_sims **out);

/* rg_sims_open of procedure proc (no parameters) with seed, on one thread,
** choices at random. */
rg_status rg_sims_new(const rg_rules *r, const char *proc, uint64_t seed, rg_sims **out);

/* Runs the next n runs.  Returns RG_OK; RG_RUN_ERROR or RG_RUN_LIMIT when
** a run failed (rg_sims_failure says which); RG_NOMEM. */
rg_status rg_sims_run(rg_sims *s, uint64_t n);

/* The runs done so far, and the first failed run's message ("run N
** failed: path:line:col: MESSAGE", N counted from 1; NULL when none
** failed). */
uint64_t rg_sims_done(const rg_sims *s);
const char *rg_sims_error(const rg_sims *s);

/* The first failed run: its message, its index in *run (from 0: the run
** that draws from stream *run of the seed), where it failed (path, line,
** display column; "?" and 0 when the rules do not say; an unanswered
** choice has no place).  NULL when no run failed.  Pointers may be NULL. */
const char *rg_sims_failure(const rg_sims *s, uint64_t *run, const char **path, uint32_t *line,
                            uint32_t *col);

/* How many runs so far had an `expect` fail, and the first of them: its
** index in *run and where the expectation is (path and line; "?" and 0
** when the rules do not say).  Pointers may be NULL. */
uint64_t rg_sims_expects(const rg_sims *s, uint64_t *run, const char **path, uint32_t *line);

/* Writes the tallies so far as `regula sim` prints them: "PROC: N runs,
** seed S, policy P", the placeholder data they rest on, then a table per
** field of value, count, share and 95% interval.  Returns RG_OK or
** RG_NOMEM (also when out failed). */
rg_status rg_sims_write(const rg_sims *s, rg_out *out);

/* Writes the tallies so far as `regula sim --json` prints them: one JSON
** object and a newline, {"format", "procedure", "runs", "seed", "policy",
** "placeholders", "tallies": [{"name", "tallied", "values": [{"text",
** "count", "share", "low", "high", "value"}, ...]}, ...]} (values in their
** natural order; low..high the 95% Wilson interval).  Returns as
** rg_sims_write. */
rg_status rg_sims_json(const rg_sims *s, rg_out *out);

/* Writes the tallies so far as `regula sim --svg` draws them: a bar chart
** per field with the intervals, one SVG document.  Returns as
** rg_sims_write. */
rg_status rg_sims_svg(const rg_sims *s, rg_out *out);

/* Frees s (NULL is fine). */
void rg_sims_free(rg_sims *s);

/* Variants compared run by run (`regula sim --variants`): the same
** procedure of several rule sets, run i of each drawing from the same
** numbers at each step of the same name (common random numbers), so the
** differences of their shares come from the rules, with paired 95%
** intervals.  The tallies are the same whatever the threads. */
typedef struct rg_simvars rg_simvars;

/* The most rule sets compared at once. */
#define RG_SIMVARS_MAX 16

/* Starts a comparison of procedure proc (no parameters, a result; NULL:
** "main") of rules[0..n) (2..RG_SIMVARS_MAX, each outliving it), named
** names[i] in what is written (copied), with the run options of opt (NULL:
** the defaults): seed, max_steps, max_memory, no_fusion, the policy
** (RG_CHOOSE_RANDOM or RG_CHOOSE_FIRST) and a strategy (every rule set
** must declare it); threads worker threads (0: 1).  Returns RG_OK with
** *out set (free it with rg_simvars_free); RG_NOT_FOUND (no such
** procedure or strategy in one of them), RG_BAD_VALUE (n, no result,
** parameters, another policy), with the reason in err; RG_NOMEM. */
rg_status rg_simvars_open(const rg_rules *const *rules, const char *const *names, uint32_t n,
                          const char *proc, const rg_run_options *opt, uint32_t threads,
                          char *err, size_t errlen, rg_simvars **out);

/* Makes runs runs (once).  Returns RG_OK; RG_RUN_ERROR or RG_RUN_LIMIT when a
** run failed (rg_simvars_failure says which); RG_NOMEM. */
rg_status rg_simvars_run(rg_simvars *c, uint64_t runs);

/* The first failed run: its message, the rule set (its index in *variant),
** the run's index in *run (from 0), and where it failed (path, line,
** display column; "?" and 0 when the rules do not say).  NULL when no run
** failed.  Pointers may be NULL. */
const char *rg_simvars_failure(const rg_simvars *c, uint32_t *variant, uint64_t *run,
                               const char **path, uint32_t *line, uint32_t *col);

/* Writes the comparison as `regula sim --variants` prints it (json 0: the
** header, each rule set with the placeholder data it rests on, then per
** field the shares side by side and each one's difference from the first
** with its paired and unpaired 95% intervals; json 1: as --json, one
** object and a newline).  Returns RG_OK or RG_NOMEM (also when out
** failed). */
rg_status rg_simvars_write(const rg_simvars *c, int json, rg_out *out);

/* Writes the comparison as bar charts, the rule sets side by side with
** their intervals, one SVG document.  Returns as rg_simvars_write. */
rg_status rg_simvars_svg(const rg_simvars *c, rg_out *out);

/* Frees c (NULL is fine). */
void rg_simvars_free(rg_simvars *c);

/* Exact odds (`regula odds`): a procedure run for every outcome of every
** roll and draw (and, as asked, every option of every choice), its
** results' probabilities as exact fractions; a run that comes back to a
** state it has been in (ties rolled again) is a loop, solved exactly. */
typedef struct rg_exact rg_exact;

/* What the odds are asked for.  A zeroed struct gives the defaults. */
typedef struct rg_exact_options {
  const char *proc;         /* the procedure; it must have a result; NULL: "main" */
  const char *const *args;  /* its arguments, parsed by its parameters' types */
  int nargs;
  uint64_t limit;           /* the most runs to make; 0: 1000000 */
  uint32_t depth;           /* a run is cut after this many draws (its
                            ** probability then unresolved); 0: 200 */
  uint64_t max_steps;       /* of each run, as rg_run_options */
  size_t max_memory;        /* of each run, and of what the odds keep besides
                            ** (the states told apart, their heaps, paths,
                            ** the equations of a loop; 0: 1 GiB for those) */
  int no_fusion;
  rg_choose_policy policy;  /* RG_CHOOSE_RANDOM: every option of every choice
                            ** in turn, each equally likely; RG_CHOOSE_FIRST:
                            ** the first option (`regula odds`'s default);
                            ** RG_CHOOSE_ANSWERS: the answers, read again by
                            ** every run; not a callback */
  const char *answers;      /* RG_CHOOSE_ANSWERS: as rg_run_options */
  size_t answers_len;
  const char *answers_name;
  const char *strategy;     /* a strategy of the rules answers the choices it
                            ** covers (its random picks enumerated); the
                            ** others: every option */
} rg_exact_options;

/* Works out the odds of rules r (which must outlive the result).  Returns
** RG_OK with *out set; RG_NOT_FOUND (no such procedure or strategy) or
** RG_BAD_VALUE (no result, arguments, a NUL byte in the answers, a callback
** policy) with the reason in err and *out NULL; or, with *out set so that
** rg_exact_failure and rg_exact_error say why: RG_RUN_ERROR (a run failed,
** or a choice went unanswered), RG_RUN_LIMIT (more runs than the limit,
** odds too fine, a loop too large to be exact, or more memory than
** max_memory to keep the states: rg_exact_error), RG_NOMEM.
** Free *out with rg_exact_free whatever this returns. */
rg_status rg_exact_new(const rg_rules *r, const rg_exact_options *opt, char *err, size_t errlen,
                       rg_exact **out);

/* After RG_RUN_LIMIT: why the odds are not exact ("more than 1000000 runs
** to enumerate the outcomes" with *runs set to 1, so that a front end can
** say how to raise its limit; else 0 and a sentence that ends the
** message).  NULL otherwise. */
const char *rg_exact_error(const rg_exact *x, int *runs);

/* After RG_RUN_ERROR: the message, where the rules failed (path, line,
** display column; "?" and 0 when they do not say), and the failed run's
** outcomes written to outcomes (may be NULL) as " 2/6 1/3" (1-based, one
** per draw).  NULL otherwise.  Pointers may be NULL. */
const char *rg_exact_failure(const rg_exact *x, const char **path, uint32_t *line,
                             uint32_t *col, rg_out *outcomes);

/* How many runs were made, and how many had an `expect` fail (*path and
** *line: where the first failed; "?" and 0 when none or unknown). */
uint64_t rg_exact_runs(const rg_exact *x);
uint64_t rg_exact_expects(const rg_exact *x, const char **path, uint32_t *line);

/* Writes the distribution as `regula odds` prints it (json 0: a header
** naming the policy and the placeholder data, a line per result with its
** fraction, percent and bar, then the runs and states; json 1: as --json,
** one object and a newline).  Returns RG_OK; RG_BAD_VALUE when the odds
** were not worked out; RG_NOMEM (also when out failed). */
rg_status rg_exact_write(const rg_exact *x, int json, rg_out *out);

/* Writes the distribution as one bar chart, an SVG document.  Returns as
** rg_exact_write. */
rg_status rg_exact_svg(const rg_exact *x, rg_out *out);

/* Frees x (NULL is fine). */
void rg_exact_free(rg_exact *x);

/* Writes the odds xs[0..n) of one procedure asked of several rule sets
** (2..RG_SIMVARS_MAX, each worked out: RG_OK from rg_exact_new), named
** names[v] (their files), side by side as `regula odds --variants` prints
** them: json 0: the call, the policy, each rule set with its settings and
** placeholders, then per column of the result each value's probability
** under each rule set (a fraction and a percent; values in their natural
** order) and each later rule set's exact difference from the first
** ("B - A", a signed fraction), then each one's runs and states; json 1:
** one JSON object and a newline.  Returns RG_OK; RG_BAD_VALUE (n, odds not
** worked out); RG_NOMEM (also when out failed or a difference needs more
** than 128 bits). */
rg_status rg_exact_compare(const rg_exact *const *xs, const char *const *names, uint32_t n,
                           int json, rg_out *out);

/* The same as bar charts, the rule sets side by side, one SVG document.
** Returns as rg_exact_compare. */
rg_status rg_exact_compare_svg(const rg_exact *const *xs, const char *const *names, uint32_t n,
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

/* How to set a game up.  A zeroed struct (or NULL) gives the defaults. */
typedef struct rg_game_options {
  const char *proc;         /* the procedure played, without parameters; NULL: "main" */
  uint64_t seed;            /* as rg_run_options.seed */
  int ask_choices;          /* people answer the choices; else: */
  int first;                /*   each takes its first option (1), or one at random (0) */
  int ask_dice;             /* people read the dice and cards; else the seed rolls */
  const char *title;        /* named in the transcript's first line (the rule file) */
  uint64_t max_steps;       /* as rg_run_options */
  size_t max_memory;
  int no_fusion;
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
rg_status rg_game_new(const rg_rules *r, const rg_game_options *opt, rg_game **out);

/* Frees g (NULL is fine). */
void rg_game_free(rg_game *g);

/* Adds the answers of a saved transcript, text[0..len): one answer a line,
** # comments and blank lines skipped (name is used in errors with the
** line: "game.txt:12: 'x' is not an option of: ...").  Returns RG_OK,
** RG_BAD_VALUE (a NUL byte) or RG_NOMEM. */
rg_status rg_game_load(rg_game *g, const char *name, const char *text, size_t len);

/* Plays from the start with the answers so far; returns where it stands. */
rg_game_state rg_game_play(rg_game *g);

/* The game's log as text (the same lines as `regula run` prints), its
** length in *len, and in *visible how many of its bytes may be shown now:
** a secret choice and those made with it are held back until all are in. */
const char *rg_game_log(const rg_game *g, size_t *len, size_t *visible);

/* Writes what every player may see now, the game's public view: the log
** as far as it may be shown (the visible part of rg_game_log), then, when
** the game is asking, "? WHO, PROMPT" and, unless the question is secret,
** its options one a line ("  1) Standard" and a remark in brackets).  A
** secret question's options (a hand) are for the one who answers alone,
** and so is all a front end shows while it is asked.  The promise: two
** games that differ only in one player's secret cards or answers have the
** same public view until the rules show the secret.  Returns RG_OK or
** RG_NOMEM. */
rg_status rg_game_public(const rg_game *g, rg_out *out);

/* When the game is asking: fills *q and returns 1; else returns 0. */
int rg_game_asking(const rg_game *g, rg_game_question *q);

/* Writes the name of option i of the question into buf ("Standard";
** empty for a range).  Returns RG_OK or RG_BAD_VALUE. */
rg_status rg_game_option(const rg_game *g, uint32_t i, char *buf, size_t size);

/* Writes the question as the regula program shows it: max 0, "WHO,
** PROMPT" (or "PROMPT"); else its options on one line ("1..6", "Standard,
** Summer, ...", at most max named).  Returns RG_OK; RG_BAD_VALUE when the
** game is not asking; RG_NOMEM. */
rg_status rg_game_question_write(const rg_game *g, uint32_t max, rg_out *out);

/* Writes the remark shown after option i of the question ("2 left") into
** buf; returns 1, or 0 when it has none. */
int rg_game_option_remark(const rg_game *g, uint32_t i, char *buf, size_t size);

/* How many answers the game holds (loaded and given); how many `expect`s
** failed in the last play. */
uint32_t rg_game_answers(const rg_game *g);
int rg_game_failed_expects(const rg_game *g);

/* Reads line (changed in place) as a person's reply to the question (see
** rg_reply): an answer (a name in any case, a prefix of one name only, its
** number, yes/no, "3 4" for two dice), undo or back, save [FILE] (FILE in
** *arg, else NULL), ? or help.  Writes to why what a person should read:
** the help, what was taken back, why an answer is refused. */
rg_reply rg_game_reply(rg_game *g, char *line, const char **arg, rg_out *why);

/* Writes the transcript to o: a comment line naming the game, then per
** answer a comment with its question and the answer: what rg_game_load
** reads back. */
void rg_game_transcript(const rg_game *g, rg_out *o);

/* What the header of a transcript says (rg_transcript_head): pointers into
** the text read, each with its length (0: not said). */
typedef struct rg_transcript_info {
  const char *rules;        /* the rule file it was played with, as named */
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
rg_status rg_transcript_head(const char *text, size_t len, rg_transcript_info *info);

/* Reads the settings a transcript (text[0..len), as rg_game_transcript
** writes it) was played with, from the comments at its top: the seed (in
** *seed, *has_seed = 1; else *has_seed = 0) and each "# set NAME=VALUE",
** handed to each(ctx, set, n) (not NUL-terminated) in order. */
void rg_transcript_settings(const char *text, size_t len, uint64_t *seed, int *has_seed,
                            void (*each)(void *ctx, const char *set, size_t n), void *ctx);

/* After RG_GAME_FAILED: why; in *status RG_RUN_ERROR when a rule failed
** (or a limit was reached), RG_BAD_VALUE when a loaded answer fits no
** option, RG_NOMEM; and where in the rules (path, line, display column;
** "?" and 0 when no rule failed or the rules do not say).  Any pointer
** may be NULL. */
const char *rg_game_error(const rg_game *g, rg_status *status, const char **path,
                          uint32_t *line, uint32_t *col);

/* The pictures the last play drew (with pictures set), or NULL. */
const rg_pictures *rg_game_drawn(const rg_game *g);

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

/* How to compare.  A zeroed struct (or NULL) gives the defaults. */
typedef struct rg_diff_options {
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
int rg_diff_hint_valid(const char *text);

/* Compares a with b.  Returns RG_OK with *out set; RG_BAD_VALUE when a hint
** is not valid; RG_NOMEM.  *out is NULL on failure. */
rg_status rg_changes_new(const rg_rules *a, const rg_rules *b, const rg_diff_options *opt,
                         rg_changes **out);

/* How many changes c lists (items and the items inside them): 0 when the
** rule sets do the same. */
uint32_t rg_changes_count(const rg_changes *c);

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
** Returns RG_OK; RG_NOMEM when memory ran out (the text is cut short);
** RG_IO when out failed. */
rg_status rg_changes_write(const rg_changes *c, rg_diff_format format, int flags, const char *base,
                           rg_out *out);

/* Frees c (NULL is fine). */
void rg_changes_free(rg_changes *c);

/* Writes into buf[0..size) the folder that paths a and b share
** ("rules/game/" for rules/game/x.rules and rules/game/revised/y.rules, after
** dropping "./" and folding "dir/.."), "" when none. */
void rg_diff_shared_dir(const char *a, const char *b, char *buf, size_t size);

#endif
