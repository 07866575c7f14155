/*
** ask.h: the CLI's side of who answers a run's questions.
**
** The policies themselves (random, first, answers, a caller's callback) are
** the library's (interp/policy.h).  What stays here is what needs a
** terminal or a file: `--policy ask` (a person: the question goes to
** stderr, the answer comes from stdin, a bad answer is asked again, end of
** input stops the run), reading an answers file for `answers:FILE`, and
** turning the --policy text into a library policy.
*/
#ifndef RG_CLI_ASK_H
#define RG_CLI_ASK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "policy.h"

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

/* Sets p up from spec ("random", "first", "ask", "answers:FILE"; NULL is
** random) for seed; in is stdin's reader (for ask).  Returns 0, or EX_BAD
** after printing what is wrong, or EX_RUNTIME when out of memory.  The
** caller frees p with rg_policy_free whatever it returns. */
int policy_open(rg_policy *p, const char *spec, uint64_t seed, reader *in);

/* Asks a person q through in, on stderr, until a valid answer comes.
** Returns the option's index, or -1 at the end of input (after saying so). */
int64_t ask_person(reader *in, const rg_question *q);

#endif
