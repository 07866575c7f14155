/*
** policy.h: who answers a run's questions.
**
** A `choose` of the rules is a question with numbered options; so, with
** `regula run --dice ask`, is each die rolled and each card drawn.  A policy
** answers choices:
**
**   random        uniform over the options, from its own generator (seeded
**                 as stream 1 of the run's seed, so choices never shift the
**                 dice, which use stream 0)
**   first         always the first option
**   ask           a person: the question goes to stderr, the answer comes
**                 from stdin, a bad answer is asked again, end of input
**                 stops the run
**   answers:FILE  one answer a line from FILE (blank lines and lines
**                 starting with # skipped); a missing or invalid answer
**                 stops the run, naming FILE:LINE
**
** An answer is an option's name (case-insensitive, Unicode case folding)
** or its number in the list (1..n).  When the options are themselves
** numbers (a range, a list of ints), the answer is the number itself.
** Nothing here knows a game: the options come named by the caller.
*/
#ifndef RG_POLICY_H
#define RG_POLICY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rng.h"

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

/* One question with n options. */
typedef struct question {
  const char *who;          /* who answers, as shown ("player A"), or NULL */
  const char *prompt;       /* what is asked */
  uint32_t n;               /* options, >= 1 */
  int numeric;              /* the options are numbers: answers are values */
  int range;                /* the options are the ints lo .. lo + n - 1 */
  int64_t lo;
  /* Writes the name of option k into buf (alt 0), or another name it also
  ** answers to (alt 1: an enum member's code); returns 0 when there is no
  ** such name.  Not called for a range. */
  int (*name)(void *ctx, uint32_t k, int alt, char *buf, size_t size);
  /* Optional: writes a remark shown after option k in a list ("2 left");
  ** returns 0 for none. */
  int (*remark)(void *ctx, uint32_t k, char *buf, size_t size);
  void *ctx;
} question;

typedef enum policy_kind { POLICY_RANDOM, POLICY_FIRST, POLICY_ASK, POLICY_ANSWERS } policy_kind;

/* A policy and its state. */
typedef struct policy {
  policy_kind kind;
  rg_rng rng;               /* random */
  reader *in;               /* ask: the person's answers */
  const char *path;         /* answers: the file */
  char *text;               /* answers: its contents, NUL-terminated */
  size_t pos;               /* answers: where the next line starts */
  unsigned line;            /* answers: lines consumed so far */
} policy;

/* Sets p up from spec ("random", "first", "ask", "answers:FILE"; NULL is
** random) for seed; in is stdin's reader (for ask).  Returns 0, or EX_BAD
** after printing what is wrong, or EX_RUNTIME when out of memory.  The
** caller frees p with policy_close whatever it returns. */
int policy_open(policy *p, const char *spec, uint64_t seed, reader *in);

/* Frees what policy_open allocated. */
void policy_close(policy *p);

/* Returns the name of p's kind: "random", "first", "ask", "answers". */
const char *policy_name(const policy *p);

/* Answers q: returns the option's index in 0..n-1, or -1 when the run must
** stop (the reason is printed on stderr: no answer, end of input). */
int64_t policy_choose(policy *p, const question *q);

/* Asks a person q through in, on stderr, until a valid answer comes.
** Returns the option's index, or -1 at the end of input (after saying so). */
int64_t ask_person(reader *in, const question *q);

#endif
