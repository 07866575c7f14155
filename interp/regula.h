/*
** regula.h: the core of the regula library's public interface, version 1.
**
** regula runs wargame quick reference sheets transcribed as rule files.
** This header is what a program needs to embed it: compile a rule file,
** set its inputs, run a procedure with its choices answered, simulate it
** many times and read the tallies as numbers, and work out its exact odds.
** regula_front.h adds what front ends show people (games at the table,
** pictures, the sheet reprint, the diff, formatted text and JSON), built on
** this one.  Every other header of the library is internal.
**
** Rules of the contract, the same for every function:
**   - A function that can fail returns an rg_status: RG_OK, or why.
**   - The message of a failure comes from the handle the function was
**     called on: rg_rules_errmsg, rg_run_errmsg, rg_sims_errmsg,
**     rg_exact_errmsg.  A constructor that fails (rg_rules_copy,
**     rg_run_new, rg_sims_new, rg_exact_new) leaves *out NULL and its
**     message on the rules it was given.  Compiling, which has no handle
**     yet, hands each error to a diagnostic callback instead.
**   - Strings a function returns are owned by the handle they came from
**     and stay valid until that handle's next call that can fail, or its
**     free.
**   - Options come in a struct whose first field, size, the caller sets to
**     sizeof the struct (RG_OPTIONS(T) does): the library then knows which
**     fields a caller compiled against an older header has.  A NULL
**     options pointer gives the defaults.
**   - The library prints nothing, reads no environment and never exits:
**     files come through a loader callback, text goes to an rg_out.
**   - Compiled rules are read-only once made (but for rg_rules_set on a
**     copy): one may serve runs in several threads, each run used by one
**     thread at a time.
*/
#ifndef REGULA_H
#define REGULA_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* The functions of the library's public headers; everything else in it is
** hidden from a program that links the shared library. */
#ifndef REGULA_API
#if defined(__GNUC__)
#define REGULA_API __attribute__((visibility("default")))
#else
#define REGULA_API
#endif
#endif

/* ======================================================================
** Version
** ==================================================================== */

#define REGULA_VERSION "1.0.0"
#define REGULA_VERSION_NUMBER 1000000   /* major * 1000000 + minor * 1000 + patch */

/* Returns REGULA_VERSION as the library was built ("1.0.0"). */
REGULA_API const char *rg_version(void);

/* Returns REGULA_VERSION_NUMBER as the library was built, so that a program
** can tell the header it was compiled with from the library it runs with. */
REGULA_API int rg_version_number(void);

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
  RG_NOT_FOUND = 6,         /* no such file, procedure, table, input or strategy */
  RG_BAD_VALUE = 7,         /* a value, key, argument or option is not valid there */
  RG_IO = 8                 /* a file could not be read or written, or an
                            ** rg_out's write failed (see rg_out) */
} rg_status;

/* Returns the name of status s ("ok", "out of memory", ...; "unknown status"
** for a value that is none of them).  The string is static. */
REGULA_API const char *rg_status_name(rg_status s);

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
** call it once, before any other function of the library, while no other
** thread uses it.  It sets jansson's allocator too, so a program that uses
** jansson itself shares it.  (utf8proc, which normalizes source text,
** allocates with malloc, out of its reach.)  Returns RG_OK. */
REGULA_API rg_status rg_set_allocator(rg_alloc_fn fn, void *ud);

/* Frees memory the library handed out for the caller to free (NULL is
** fine). */
REGULA_API void rg_free(void *p);

/* ======================================================================
** Text out, files in
** ==================================================================== */

/* Where the library's text goes: a write callback and its context.  A
** failed write is remembered in `failed`, so that a writer goes on and the
** caller checks `failed` once at the end.  Set write and ctx, zero failed.
**
** What a writer returns, the same for every function of regula.h and
** regula_front.h that writes to an rg_out `out` and returns an rg_status
** (its own comment does not repeat it):
**   - RG_IO when out failed: its write returned -1 during the call, or
**     before it (failed was already set, and nothing more is written);
**     out->failed is then set;
**   - RG_NOMEM only when the library's own memory ran out (the text is
**     then cut short); when out failed too, RG_NOMEM wins.
** A failure that the function's comment names (a bad argument, a name not
** found, a wrong shape) is returned as it says, whatever became of out.
** A function that returns void or a count (rg_diagnostic_render,
** rg_run_log, rg_rules_placeholders, ...) leaves the caller to read
** failed; an rg_out called `why` only carries the reason of a failure
** (rg_file_save), and its own failure changes no status. */
typedef struct rg_out {
  /* Writes s[0..n); returns 0, or -1 when the text could not be written. */
  int (*write)(void *ctx, const char *s, size_t n);
  void *ctx;
  int failed;
} rg_out;

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
REGULA_API extern const rg_loader rg_file_loader;

/* The largest source file (a rule file, a TSV table) the library reads,
** in bytes: a larger one is refused with "file too large". */
#define RG_MAX_SOURCE (16u << 20)

/* ======================================================================
** Diagnostics: what is wrong with a rule file
** ==================================================================== */

/* How serious a diagnostic is. */
typedef enum rg_severity {
  RG_SEVERITY_ERROR = 0,    /* the input is wrong (or memory ran out) */
  RG_SEVERITY_NOTE = 1      /* information, e.g. "too many errors, stopping here" */
} rg_severity;

/* One diagnostic, as handed to the caller's callback.  Every pointer is
** valid during the callback only. */
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
  const char *message;      /* what is wrong, without "error: "; a name
                            ** misspelt ends with "did you mean 'X'?" */
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
** (the caret under display column col; control characters and bytes that
** are not UTF-8 shown escaped, never sent to a terminal), or "regula:
** error: message" for a diagnostic without a position ("regula: message"
** for a note). */
REGULA_API void rg_diagnostic_render(const rg_diagnostic *d, rg_out *out);

/* ======================================================================
** Compiled rules
** ==================================================================== */

/* A compiled rule set: its procedures, tables, inputs and strategies. */
typedef struct rg_rules rg_rules;

/* How to compile.  A NULL options pointer gives the defaults. */
typedef struct rg_compile_options {
  size_t size;                      /* sizeof(rg_compile_options) */
  const rg_loader *loader;          /* files that `extends` and `from` name;
                                    ** NULL: rg_file_loader (the disk) */
  rg_diagnostic_fn diagnostic;      /* receives each diagnostic; NULL: dropped */
  void *diagnostic_ctx;
  int keep_sources;                 /* 1: the rules keep their source files
                                    ** and `assumed` notes (memory the size
                                    ** of the sources), for the sheet and for
                                    ** runtime errors shown with their line */
} rg_compile_options;

/* An options struct of type T with its size set and every other field
** zero (the defaults): `rg_run_options o = RG_OPTIONS(rg_run_options);`. */
#define RG_OPTIONS(T) ((T){ .size = sizeof(T) })

/* Compiles the rule file text[0..len), called name in diagnostics and
** resolved against by the loader.  Returns RG_OK with *out set (free it
** with rg_rules_free); RG_BAD_RULES after handing each error to the
** diagnostic callback; RG_BAD_VALUE (options without their size);
** RG_NOMEM.  *out is NULL on failure. */
REGULA_API rg_status rg_rules_compile(const char *name, const char *text, size_t len,
                                      const rg_compile_options *opt, rg_rules **out);

/* rg_rules_compile of the file the loader finds for path (asked with no
** including file): a rule file, or a compiled module (.rbc, verified; a bad
** one gives RG_BAD_MODULE with one diagnostic without a position).  A file
** that cannot be read gives the loader's status (RG_NOT_FOUND, RG_IO), with
** its diagnostic. */
REGULA_API rg_status rg_rules_load(const char *path, const rg_compile_options *opt,
                                   rg_rules **out);

/* Writes r to path as a compiled module (.rbc), which rg_rules_load loads
** back: through a temporary file renamed into place (a symbolic link is
** followed and its target replaced), so a failure leaves no partial file.
** Returns RG_OK, or RG_IO (rg_rules_errmsg says why). */
REGULA_API rg_status rg_rules_save(const rg_rules *r, const char *path);

/* Makes *out a copy of r to set up with rg_rules_set, every input at its
** default and every die and deck as declared; r must outlive the copy
** (they share the code).  Every run, simulation, exact odds and game of
** the copy starts from its settings.  Returns RG_OK or RG_NOMEM; free the
** copy with rg_rules_free. */
REGULA_API rg_status rg_rules_copy(const rg_rules *r, rg_rules **out);

/* Frees rules (NULL is fine).  No run, simulation, odds, game or copy of
** them may be left. */
REGULA_API void rg_rules_free(rg_rules *r);

/* The message of the last call on r that failed, or of a constructor given
** r that failed ("no procedure 'x'; procedures: main, roll"); "" when none.
** When threads share r, read it in the thread that failed before another
** call on r fails. */
REGULA_API const char *rg_rules_errmsg(const rg_rules *r);

/* Sets an input, a die or a deck of r, a copy made by rg_rules_copy, from
** "NAME=VALUE" (spaces around NAME and VALUE ignored): an `input` by its
** type (`rating[A]=legendary`, `bonus=2`, `areas=S,P`), a die by its faces
** and a deck by its cards, `FACE:COUNT` or `FACE` joined by commas
** (`D=hit:2,miss:4`, `bag=GOLD:8,LEAD:9`), so that a player's real dice and
** bag replace what the rule file could only assume.  The text is kept: a
** game's transcript and a run's log name it.  Set a copy up before any run
** of it.  Returns RG_OK; RG_NOT_FOUND (no such input, die or deck: the
** message lists those there are); RG_BAD_VALUE (a value that does not
** parse, or r is not a copy); RG_NOMEM. */
REGULA_API rg_status rg_rules_set(rg_rules *r, const char *text);

/* The name in the ruleset header ("" when none).  Owned by r. */
REGULA_API const char *rg_rules_name(const rg_rules *r);

/* What rg_rules_count, _item, _find, _arity and _type are asked about. */
typedef enum rg_item {
  RG_PROC = 0,              /* procedures (tests not among them) */
  RG_INPUT = 1,             /* inputs (`input NAME: T = default`) */
  RG_TABLE = 2,             /* tables */
  RG_STRATEGY = 3           /* strategies (`strategy NAME`: how a player
                            ** answers the choices it covers) */
} rg_item;

/* How many items of kind k r has; the name of item i (NULL out of range);
** the index of the one called name (-1 when none).  Names are owned by r. */
REGULA_API int rg_rules_count(const rg_rules *r, rg_item k);
REGULA_API const char *rg_rules_item(const rg_rules *r, rg_item k, int i);
REGULA_API int rg_rules_find(const rg_rules *r, rg_item k, const char *name);

/* How many parameters procedure i takes, or keys table i has (RG_PROC,
** RG_TABLE; 0 for other kinds; -1 out of range). */
REGULA_API int rg_rules_arity(const rg_rules *r, rg_item k, int i);

/* The name of parameter j of procedure proc (NULL out of range). */
REGULA_API const char *rg_rules_param(const rg_rules *r, int proc, int j);

/* Writes a type into buf ("int", "set E" of an enum E, "distance U") and
** returns buf: of procedure i, its parameter j (its result for j = -1); of
** input i, its own (j unused); of table i, its key j (its cells for j =
** -1).  NULL when out of range, or for a procedure without a result. */
REGULA_API const char *rg_rules_type(const rg_rules *r, rg_item k, int i, int j, char *buf,
                                     size_t size);

/* Looks up the cell of table `table` at keys[0..nkeys) (members by code or
** display name, any case; integers) and writes it into buf as text ("Dust
** Storms", "40%"; a record as "{field: value, ...}").  Returns RG_OK;
** RG_NOT_FOUND (no such table) or RG_BAD_VALUE (wrong number of keys, a
** bad key), with the reason in rg_rules_errmsg. */
REGULA_API rg_status rg_rules_query(const rg_rules *r, const char *table,
                                    const char *const *keys, int nkeys, char *buf, size_t size);

/* ======================================================================
** What every run is given: limits and a policy
** ==================================================================== */

/* A run's limits when they are left 0. */
#define RG_DEFAULT_MAX_STEPS  1000000000ull
#define RG_DEFAULT_MAX_MEMORY (64u << 20)

/* The limits of each run.  Zeros give the defaults. */
typedef struct rg_limits {
  uint64_t max_steps;       /* instructions, as a loop and a call weigh them:
                            ** the bound on time (0: RG_DEFAULT_MAX_STEPS) */
  size_t max_memory;        /* bytes for the stack and heap (0:
                            ** RG_DEFAULT_MAX_MEMORY); for exact odds, all
                            ** the odds keep (0: 1 GiB) */
  int no_fusion;            /* 1: the VM without its fused instructions (for
                            ** people testing the VM: the same results) */
} rg_limits;

typedef struct rg_run rg_run;

/* Answers a choice: `chooser` (as text) picks one of noptions options
** (rg_run_option writes each); returns its index, or -1 to stop the run. */
typedef int64_t (*rg_choose_fn)(void *ctx, rg_run *run, const char *chooser, const char *prompt,
                                uint32_t noptions);

/* Who answers the choices of a run. */
typedef enum rg_choose_policy {
  RG_CHOOSE_RANDOM = 0,     /* at random, from a stream of the seed's own (a
                            ** run's stream 1) */
  RG_CHOOSE_FIRST = 1,      /* every choice takes its first option */
  RG_CHOOSE_ANSWERS = 2,    /* answers, one a line (an option's name or
                            ** number; # comments), used in order; a missing
                            ** or wrong one stops the run naming
                            ** answers_name:LINE */
  RG_CHOOSE_CALLBACK = 3    /* choose(choose_ctx, ...) answers (runs only) */
} rg_choose_policy;

/* Who answers the choices.  Zeros: every choice at random. */
typedef struct rg_policy {
  rg_choose_policy kind;
  const char *strategy;     /* not NULL: the strategy of the rules so named
                            ** answers the choices it covers, kind the others */
  const char *answers;      /* RG_CHOOSE_ANSWERS: the text (copied), */
  size_t answers_len;       /*   its length, */
  const char *answers_name; /*   and its name in errors (NULL: "answers") */
  rg_choose_fn choose;      /* RG_CHOOSE_CALLBACK */
  void *choose_ctx;
} rg_policy;

/* ======================================================================
** Runs
** ==================================================================== */

/* What happened, in the order the rules say it happens. */
typedef enum rg_event_kind {
  RG_EVENT_STEP,            /* a step of the rules begins; name: the step */
  RG_EVENT_ROLL,            /* dice rolled; name: "2d6" or the die; values: each die */
  RG_EVENT_DRAW,            /* a card drawn; name: the deck; value: the card */
  RG_EVENT_CHOICE,          /* a choice made; name: the prompt; values: the
                            ** option taken, then who chose */
  RG_EVENT_NOTE,            /* a note; name: its text; values: its values */
  RG_EVENT_SHAPE,           /* a shape of a picture; name: canvas, rect, ...;
                            ** values: its arguments */
  RG_EVENT_EXPECT_FAIL,     /* an expect failed; name: the expression; values:
                            ** expected, actual (for `expect a == b`) */
  RG_EVENT_KINDS            /* the number of kinds */
} rg_event_kind;

/* Returns the name of kind k ("step", "roll", "draw", "choice", "note",
** "shape", "expect_fail"; "?" out of range).  Static. */
REGULA_API const char *rg_event_kind_name(rg_event_kind k);

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

/* Decides a draw of chance in place of the seeded generator (a person
** reading real dice): what is 'd' for a plain die (n sides), 'f' for a die
** with faces (name: the die), 'c' for a card of deck `name` (n cards left);
** returns 0..n-1, or -1 to stop the run. */
typedef int64_t (*rg_chance_fn)(void *ctx, rg_run *run, int what, const char *name, uint64_t n);

/* Where a run's random numbers come from. */
typedef enum rg_seeding {
  RG_SEEDING_RUN = 0,       /* as `regula run --seed`: each step draws from
                            ** streams of the seed named by the step, so
                            ** variants stay in step */
  RG_SEEDING_CALL = 1       /* as `regula call` and a test: seed 0, one
                            ** stream, from the start of each call */
} rg_seeding;

/* How to run.  A NULL options pointer gives the defaults. */
typedef struct rg_run_options {
  size_t size;              /* sizeof(rg_run_options) */
  uint64_t seed;            /* dice and decks draw from stream 0 of it,
                            ** random choices from stream 1 */
  rg_seeding seeding;
  rg_limits limits;
  rg_policy policy;
  rg_event_fn event;        /* NULL: events are not delivered */
  void *event_ctx;
  unsigned events;          /* the kinds event receives, a bit (1u << kind)
                            ** each; 0: every kind (a run that needs fewer
                            ** runs faster) */
  rg_chance_fn chance;      /* NULL: the seeded generator */
  void *chance_ctx;
  rg_choose_fn dice;        /* not NULL: each die rolled and card drawn is a
                            ** question put to dice(dice_ctx, ...), as
                            ** `regula run --dice ask` asks it (chooser "",
                            ** prompt "roll d6 (line 34)"; options 1..6, a
                            ** die's distinct faces, a deck's cards, named by
                            ** rg_run_option); chance is then not used */
  void *dice_ctx;
} rg_run_options;

/* Makes a run of rules r (which must outlive it).  Returns RG_OK with *out
** set (free it with rg_run_free); RG_NOT_FOUND (no strategy of that name),
** RG_BAD_VALUE (a callback policy without choose, answers holding a NUL
** byte, options without their size), with the reason in
** rg_rules_errmsg(r); RG_NOMEM. */
REGULA_API rg_status rg_run_new(const rg_rules *r, const rg_run_options *opt, rg_run **out);

/* Frees a run (NULL is fine). */
REGULA_API void rg_run_free(rg_run *run);

/* Runs procedure proc with args[0..nargs) parsed by its parameters' types
** ("7", "Desert", "S,P"), from the start of the seed: the same seed, inputs
** and answers give the same run, and the same as `regula run --seed`.
** Events and choices go to the callbacks as they happen.  Returns RG_OK;
** RG_NOT_FOUND (no such procedure), RG_BAD_VALUE (wrong number of
** arguments, a bad one); RG_RUN_ERROR or RG_RUN_LIMIT when the rules
** failed, a choice went unanswered or a limit was reached; RG_NOMEM.
** rg_run_errmsg says why and rg_run_where where. */
REGULA_API rg_status rg_run_call(rg_run *run, const char *proc, const char *const *args,
                                 int nargs);

/* The message of the last failed rg_run_call ("" when none). */
REGULA_API const char *rg_run_errmsg(const rg_run *run);

/* A place in the rules: the rule file, the line and the display column. */
typedef struct rg_place {
  const char *path;         /* "?" when the rules do not say */
  uint32_t line, col;       /* 0 when they do not say */
} rg_place;

/* After a failed rg_run_call: where in the rules it failed, in *where;
** returns 1, or 0 when the failure was not in the rules (an argument, an
** unanswered choice: *where is then "?", 0, 0). */
REGULA_API int rg_run_where(const rg_run *run, rg_place *where);

/* After a failed rg_run_call: 1 when no rule failed but a choice or a die
** went unanswered (the answers ran out or one fits no option), else 0. */
REGULA_API int rg_run_stopped(const rg_run *run);

/* After a successful rg_run_call: writes the result into buf as text (a
** record as "{field: value, ...}"; "" for a procedure without one).
** Returns RG_OK. */
REGULA_API rg_status rg_run_result(const rg_run *run, char *buf, size_t size);

/* How many `expect`s failed during the last call (each is also an
** RG_EVENT_EXPECT_FAIL event). */
REGULA_API int rg_run_failed_expects(const rg_run *run);

/* Writes value i of the event being delivered into buf as text (as
** rg_rules_query writes cells).  Only during an event callback.  Returns
** RG_OK, or RG_BAD_VALUE when i is out of range (buf then ""). */
REGULA_API rg_status rg_run_event_value(const rg_run *run, uint32_t i, char *buf, size_t size);

/* Writes option i of the choice being asked into buf as text (an enum
** member by its display name; a number as digits).  Only during a choose
** or dice callback.  Returns RG_OK or RG_BAD_VALUE. */
REGULA_API rg_status rg_run_option(const rg_run *run, uint32_t i, char *buf, size_t size);

/* Returns 1 when the question being asked (during a choose or dice
** callback) is secret: a choice the rules mark secret, or a card of a
** secret deck; else 0. */
REGULA_API int rg_run_asking_secret(const rg_run *run);

/* ======================================================================
** Simulations: a procedure run many times, its results tallied
** ==================================================================== */

/* Run i draws from stream i of the seed, so the tallies after n runs are
** the same whatever the threads and whatever the slices the runs were made
** in (a page reports progress and may stop between slices). */
typedef struct rg_sims rg_sims;

/* The most worker threads a simulation takes. */
#define RG_SIMS_MAX_THREADS 256

/* What to simulate.  A NULL options pointer gives the defaults. */
typedef struct rg_sims_options {
  size_t size;              /* sizeof(rg_sims_options) */
  const char *proc;         /* the procedure; it must have a result; NULL: "main" */
  const char *const *args;  /* its arguments, parsed by its parameters' types */
  int nargs;
  uint64_t seed;
  uint32_t threads;         /* worker threads, at most RG_SIMS_MAX_THREADS; 0: 1 */
  rg_limits limits;         /* of each run */
  rg_policy policy;         /* random (a stream of each run's own), first or
                            ** answers (the same in every run); not a
                            ** callback */
  /* Optional: called on the caller's thread about every 100 ms while
  ** rg_sims_run's workers run, with the runs of that call done so far. */
  void (*progress)(void *ctx, uint64_t done, uint64_t total);
  void *progress_ctx;
} rg_sims_options;

/* Starts a simulation of rules r (which must outlive it).  Returns RG_OK
** with *out set (free it with rg_sims_free); RG_NOT_FOUND (no such
** procedure or strategy), RG_BAD_VALUE (no result, arguments, a callback
** policy, answers holding a NUL byte), with the reason in
** rg_rules_errmsg(r); RG_NOMEM. */
REGULA_API rg_status rg_sims_new(const rg_rules *r, const rg_sims_options *opt, rg_sims **out);

/* Makes the next n runs.  Returns RG_OK; RG_RUN_ERROR or RG_RUN_LIMIT when
** a run failed (rg_sims_errmsg, rg_sims_where); RG_NOMEM. */
REGULA_API rg_status rg_sims_run(rg_sims *s, uint64_t n);

/* The runs made so far. */
REGULA_API uint64_t rg_sims_done(const rg_sims *s);

/* The first failed run's message ("run N failed: path:line:col: MESSAGE",
** N counted from 1), or "" when none failed. */
REGULA_API const char *rg_sims_errmsg(const rg_sims *s);

/* The first failed run: its index (from 0: the run that draws from that
** stream of the seed) in *run, where it failed in *where (see
** rg_run_where).  Returns 1, or 0 when no run failed or no rule did (a
** choice went unanswered: the answers ran out or one fits no option;
** *where is then "?", 0, 0). */
REGULA_API int rg_sims_where(const rg_sims *s, uint64_t *run, rg_place *where);

/* How many runs had an `expect` fail; the first in *run and where its
** expectation is in *where (either may be NULL). */
REGULA_API uint64_t rg_sims_expects(const rg_sims *s, uint64_t *run, rg_place *where);

/* The tallies, as numbers.  A result is tallied column by column: one
** column, "result", for a number, a member or a text; one per field of a
** record ("winner", "weather"), a field of a record inside it too
** ("final.row"), and for a list of records one per field of its items
** ("terrain.name": a run counts once for each value some item has) and its
** length ("terrain (items)").  rg_sims_columns says how many columns;
** rg_sims_column names column c and stores in *nvalues how many distinct
** values it has (0 when more than 1000 came: not tallied), returning
** RG_OK or RG_NOT_FOUND (c out of range); rg_sims_value stores value i of
** column c (in the values' natural order: numbers by value, members in
** their enum's order) as text in *text and the runs that had it in *count
** (owned by s, valid until the next rg_sims_run), returning RG_OK or
** RG_NOT_FOUND. */
REGULA_API uint32_t rg_sims_columns(const rg_sims *s);
REGULA_API rg_status rg_sims_column(const rg_sims *s, uint32_t c, const char **name,
                                    uint32_t *nvalues);
REGULA_API rg_status rg_sims_value(const rg_sims *s, uint32_t c, uint32_t i, const char **text,
                                   uint64_t *count);

/* Frees s (NULL is fine). */
REGULA_API void rg_sims_free(rg_sims *s);

/* ======================================================================
** Exact odds: every outcome of every roll and draw
** ==================================================================== */

/* A procedure run for every outcome of every roll and draw (and, as asked,
** every option of every choice), its results' probabilities as exact
** fractions; a run that comes back to a state it has been in (ties rolled
** again) is a loop, solved exactly. */
typedef struct rg_exact rg_exact;

/* What the odds are asked for.  A NULL options pointer gives the defaults. */
typedef struct rg_exact_options {
  size_t size;              /* sizeof(rg_exact_options) */
  const char *proc;         /* the procedure; it must have a result; NULL: "main" */
  const char *const *args;  /* its arguments, parsed by its parameters' types */
  int nargs;
  uint64_t limit;           /* the most runs to make; 0: 1000000 */
  uint32_t depth;           /* a run is cut after this many draws (its
                            ** probability then unresolved); 0: 200 */
  rg_limits limits;         /* of each run; max_memory bounds all the odds keep */
  rg_policy policy;         /* RG_CHOOSE_RANDOM: every option of every choice
                            ** in turn, each equally likely (a strategy's
                            ** random picks too); RG_CHOOSE_FIRST: the first
                            ** option; RG_CHOOSE_ANSWERS: the answers, read
                            ** again by every run; not a callback */
} rg_exact_options;

/* Sets up exact odds of rules r (which must outlive them).  Returns RG_OK
** with *out set (free it with rg_exact_free); RG_NOT_FOUND (no such
** procedure or strategy) or RG_BAD_VALUE (no result, arguments, a callback
** policy, a NUL byte in the answers), with the reason in rg_rules_errmsg(r);
** RG_NOMEM. */
REGULA_API rg_status rg_exact_new(const rg_rules *r, const rg_exact_options *opt,
                                  rg_exact **out);

/* Works the odds out.  Returns RG_OK; RG_RUN_ERROR (a run failed, or a
** choice went unanswered: rg_exact_where says where); RG_RUN_LIMIT (more
** runs than the limit, more memory than max_memory, or odds too fine or a
** loop too large to be exact); RG_NOMEM; rg_exact_errmsg says why. */
REGULA_API rg_status rg_exact_run(rg_exact *x);

/* The message of the failed rg_exact_run ("" when none). */
REGULA_API const char *rg_exact_errmsg(const rg_exact *x);

/* After RG_RUN_ERROR: where the rules failed (see rg_run_where); returns 1,
** or 0 when no rule failed (a choice went unanswered: *where is "?", 0, 0). */
REGULA_API int rg_exact_where(const rg_exact *x, rg_place *where);

/* How many runs were made; how many had an `expect` fail (*where: where
** the first expectation is; may be NULL). */
REGULA_API uint64_t rg_exact_runs(const rg_exact *x);
REGULA_API uint64_t rg_exact_expects(const rg_exact *x, rg_place *where);

/* The distribution, as numbers: how many distinct results; result i (in
** their natural order) as text in *text (owned by x) and its probability
** as the fraction *num / *den in lowest terms.  Returns RG_OK; RG_NOT_FOUND
** (i out of range, or the odds not worked out); RG_RUN_LIMIT when the
** fraction needs more than 64 bits (*num and *den then 0: the text of
** regula_front.h's rg_exact_write shows it whole). */
REGULA_API uint32_t rg_exact_outcomes(const rg_exact *x);
REGULA_API rg_status rg_exact_outcome(const rg_exact *x, uint32_t i, const char **text,
                                      uint64_t *num, uint64_t *den);

/* Frees x (NULL is fine). */
REGULA_API void rg_exact_free(rg_exact *x);

#endif
