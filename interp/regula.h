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

#endif
