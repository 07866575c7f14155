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
