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

/* Lines read from a stream (stdin for a person). */
typedef struct reader {
  FILE *f;
  char *buf;                /* getline's buffer, freed by reader_free */
  size_t cap;
} reader;

/* Reads the next line into *line (without its line end).  Returns 0, or -1
** at the end of input or on a read error. */
int reader_line(reader *r, char **line);

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
