/*
** diag.h: source files and diagnostics.
**
** A compile reads one or more files (the rule file, the TSV tables it
** imports).  Each is loaded here: checked for valid UTF-8 and NUL bytes,
** stripped of a BOM, CRLF turned to LF, and normalized to NFC, so that the
** lexer sees clean text.
**
** Diagnostics are records (rg_diagnostic, regula.h): each is handed to the
** callback d->report as it is found, or, when there is none, kept in a list
** (d->kept) in the arena.  Nothing here prints; rg_diagnostic_render writes
** a record as the program shows it,
**
**     path:line:col: error: message
**         the source line
**         ^
**
** with the column and the caret in display columns (utf8proc_charwidth).
*/
#ifndef RG_DIAG_H
#define RG_DIAG_H

#include <stdint.h>
#include <stdarg.h>

#include "arena.h"
#include "ast.h"
#include "regula_front.h"

/* A loaded source file.  text is NFC, LF line ends, NUL-terminated. */
typedef struct rgi_file {
  const char *path;
  char *text;
  size_t len;
  uint32_t *line_start;    /* byte offset of each line; nlines entries */
  uint32_t nlines;
  uint32_t *col_marks;     /* every RG_COL_STEP bytes of text: a character's
                              offset and display column (rgi_diag_col), or NULL */
} rgi_file;

#define RG_COL_STEP 128u    /* bytes between two col_marks */

#define RG_MAX_FILES 256
/* RG_MAX_SOURCE, the largest source file: see regula.h. */
#define RG_MAX_MARKS 30             /* combining marks in a row in a source file */

/* A diagnostic kept by the library (when no callback is set). */
typedef struct rgi_diag_kept {
  rg_diagnostic rec;        /* message copied into the arena */
  struct rgi_diag_kept *next;
} rgi_diag_kept;

/* The diagnostics of one compile, and the files they refer to. */
typedef struct rgi_diag {
  rg_diagnostic_fn report;  /* receives each diagnostic; NULL: kept */
  void *report_ctx;
  rgi_diag_kept *kept, **kept_tail;   /* the records, when report is NULL */
  rgi_arena *arena;          /* owns the files (and kept records) */
  rgi_file *files[RG_MAX_FILES];
  uint32_t nfiles;
  unsigned char tables[RG_MAX_FILES];   /* 1: files[i] was read for a table's `from` */
  int errors;              /* errors reported so far */
  int max_errors;          /* stop reporting after this many (0: 50) */
  int oom;                 /* "out of memory" was reported (it is, once) */
  int full;                /* "too many source files" was reported (once) */
  rg_status first_load;    /* the loader's status for the file compiled
                           ** first when it could not be loaded, else RG_OK */
} rgi_diag;

/* Sets up d with files kept in arena; diagnostics go to report(ctx, ...),
** or, when report is NULL, are kept in d->kept (in the arena). */
void rgi_diag_init(rgi_diag *d, rgi_arena *arena, rg_diagnostic_fn report, void *ctx);

/* Asks loader ld for `name` as written in the file `from` (NULL for the
** file compiled first) and adds what it gives as a source file (see
** rgi_diag_add_text).  On success stores its index in *index and returns 0.
** On failure reports the loader's message (at `at` when given, e.g. the
** `from "x.tsv"` clause; else without a position; out of memory through
** rgi_diag_oom) and returns -1. */
int rgi_diag_fetch(rgi_diag *d, const rg_loader *ld, const char *from, const char *name,
                  rg_load_kind kind, const rgi_pos *at, uint32_t *index);

/* Loads the file at path from the disk (rgi_diag_fetch with rg_file_loader);
** errors are reported at `at` when given. */
int rgi_diag_load(rgi_diag *d, const char *path, const rgi_pos *at, uint32_t *index);

/* Adds text already in memory as a file named path (for tests and for
** command-line arguments); the text is validated and normalized the same way.
** Returns 0 and the index, or -1 after reporting. */
int rgi_diag_add_text(rgi_diag *d, const char *path, const char *text, size_t len,
                     uint32_t *index);

/* Reports an error at pos with a printf-style message: counts it and,
** while within d->max_errors, hands a record to d->report (after the last
** one, a note "too many errors, stopping here"). */
void rgi_error(rgi_diag *d, rgi_pos pos, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;
void rgi_verror(rgi_diag *d, rgi_pos pos, const char *fmt, va_list ap);

/* Reports that memory ran out: marks d->arena failed (so callers tell out
** of memory, exit 3, from bad input) and reports "out of memory" (an error
** without a position) the first time only, even past max_errors.  rgi_error_plain(d, "out
** of memory") does the same. */
void rgi_diag_oom(rgi_diag *d);

/* Reports an error that has no source position (rendered "regula: error:
** message"). */
void rgi_error_plain(rgi_diag *d, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;

/* Returns the text of line (1-based) of file, and its length in *len; or NULL. */
const char *rgi_diag_line(const rgi_diag *d, uint32_t file, uint32_t line, size_t *len);

/* Returns the display column (1-based) of byte column col in the given line:
** tab and every other character count their width (utf8proc_charwidth), a
** character shown as '?' (rgi_unsafe_char, bad UTF-8) counts 1.  Takes time
** in proportion to col. */
uint32_t rgi_display_col(const char *line, size_t len, uint32_t col);

/* Returns the display width of the NUL-terminated text s, counted as
** rgi_display_col counts: what a column of a table must hold. */
size_t rgi_text_width(const char *s);

/* Returns the display width of the first n bytes of s, counted as
** rgi_text_width counts; no byte past them is read (a character cut at n
** counts as bad bytes, 1 each). */
size_t rgi_text_width_n(const char *s, size_t n);

/* Writes s to out as a cell of a table w display columns wide: padded
** with spaces; when cut, at most w columns of it (whole characters) and
** "..." is not added.  The one way tables line up text of any script. */
void rgi_put_cell(rg_out *out, const char *s, size_t w, int cut);

/* Returns the display column of byte column col of line `line` of file,
** like rgi_display_col, in time bounded by RG_COL_STEP whatever the line's
** length: the first call on a file marks its text every RG_COL_STEP bytes
** (in d's arena; when that fails, it counts from the line's start). */
uint32_t rgi_diag_col(rgi_diag *d, uint32_t file, uint32_t line, uint32_t col);

/* Returns the byte column (1-based) of display column dcol in the given line,
** the inverse of rgi_display_col, in one pass; or 0 when no character starts
** at that display column. */
uint32_t rgi_byte_col(const char *line, size_t len, uint32_t dcol);

/* Returns whether code point cp must never reach a terminal raw: a control
** character other than tab and newline (C0, DEL, C1) or a bidirectional
** override or isolate (U+202A..U+202E, U+2066..U+2069), which could make a
** line look other than it is.  Source files may not hold them; diagnostics
** show them as '?'. */
int rgi_unsafe_char(int32_t cp);

/* Returns 3 when text[0..len) starts with a UTF-8 byte order mark, else 0:
** a rule file, an inputs file and an answers file (or transcript) skip it,
** as an editor on Windows may save one. */
size_t rgi_bom_len(const char *text, size_t len);

/* Writes a runtime error msg at path:line:col (a display column) to out as
** the regula program prints it: with the source line and a caret when src
** (may be NULL) holds the text of path, else "path:line:col: error: msg";
** "regula: error: msg" when path is NULL. */
void rgi_diag_runtime(const rgi_diag *src, const char *msg, const char *path, uint32_t line,
                     uint32_t col, rg_out *out);

#endif
