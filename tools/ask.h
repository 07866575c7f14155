/*
** ask.h: the CLI's side of who answers a run's questions, on regula.h
** alone.
**
** The policies themselves (random, first, answers, a strategy) are the
** library's (rg_run_options), and so is a game with a person answering
** (rg_game, played at the terminal by table.c).  What stays here is what
** needs a terminal or a file: showing a question on stderr, reading lines
** and answers files.
*/
#ifndef RG_CLI_ASK_H
#define RG_CLI_ASK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "regula_front.h"

/* Lines read from a stream (stdin for a person, an inputs file). */
typedef struct reader {
  FILE *f;
  char *buf;                /* the line, rg_malloc'd, freed by reader_free */
  size_t cap;
  unsigned line;            /* lines read so far */
  int nomem;                /* reading ran out of memory */
} reader;

/* The longest line reader_line and an answers file take, in bytes. */
#define READER_LINE_MAX 65536u

/* What reader_line returns besides 0 (a line). */
enum { READ_END = -1, READ_LONG = -2, READ_NUL = -3, READ_NOMEM = -4 };

/* Reads the next line into *line (without its line end, LF or CRLF).
** Returns 0; READ_END at the end of input or on a read error; READ_LONG for
** a line longer than READER_LINE_MAX; READ_NUL for a NUL byte in it;
** READ_NOMEM (r->nomem set) when out of memory. */
int reader_line(reader *r, char **line);

/* Returns what reader_line's error rc means, for "FILE:LINE: ..." */
const char *reader_error(int rc);

/* After the last reader_line of r on path returned rc: says on stderr what
** went wrong (FILE:LINE for a long line or a NUL) and returns EX_BAD or
** EX_RUNTIME (out of memory); returns 0 at a clean end of input. */
int reader_status(const reader *r, int rc, const char *path);

/* Frees the reader's buffer (not its stream). */
void reader_free(reader *r);

/* Shows the question game g asks to a person on stderr: yes/no and
** numbers inline ("PROMPT (1..6): "), other options one a line ("  1)
** Standard") then "> ". */
void ask_show(const rg_game *g);

/* Writes the question's "WHO, PROMPT" (which 0) or its options (which 1)
** to stderr. */
void ask_put(const rg_game *g, int which);

/* Reads the lines of path (each at most READER_LINE_MAX bytes, no NUL)
** into an rg_malloc'd NUL-terminated buffer (*text, its length in *size),
** each ended by LF, 16 MiB at most.  Returns 0, EX_BAD (said on stderr,
** naming FILE:LINE) or EX_RUNTIME (out of memory). */
int ask_read_file(const char *path, char **text, size_t *size);

#endif
