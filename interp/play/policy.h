/*
** policy.h: who answers a run's questions.
**
** A `choose` of the rules is a question with numbered options; so is each
** die rolled and card drawn when a person reads real dice (see play.h).  A
** policy answers questions:
**
**   random     uniform over the options, from a generator of its own (seeded
**              by the caller; seed.h says from which stream)
**   first      always the first option
**   answers    one answer a line from a text in memory (blank lines and
**              lines starting with # skipped); a missing or invalid answer
**              stops the run with an error naming NAME:LINE
**   callback   the caller's function (a person at a terminal, a button in
**              a page)
**
** An answer is an option's name (case-insensitive, NFC and Unicode case
** folding), a prefix of exactly one option's name (else of a later word of it:
** "pass" for "BLACK pass"), or its number in the
** list (1..n).  When the options are themselves numbers (a range, a list of
** ints), the answer is the number itself; several dice asked as one
** question take that many numbers ("3 4").  A yes/no question (the options
** false and true) also takes y, yes, n and no.  Nothing here prints or knows a game: the options come named by
** the caller, and errors are kept as text for the caller to show.
*/
#ifndef RG_POLICY_H
#define RG_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "regula_front.h"
#include "rng.h"

/* One question with n options. */
typedef struct rgi_question {
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
  /* Optional, for a person (NULL or 0 when unknown): */
  int yesno;                /* the options are false, true */
  uint32_t dice;            /* > 1: a range question asks that many dice at
                            ** once: each answer lo .. lo + sides - 1, the
                            ** option index sum (v_i - lo) * sides^i, n =
                            ** sides^dice */
  uint32_t sides;
  int secret;               /* the rules mark the choice secret (or the deck) */
  /* Optional: how many of option k are left to be drawn (a card of a
  ** deck); an option with none left is not an answer.  NULL: any option. */
  uint32_t (*left)(void *ctx, uint32_t k);
  uint32_t hand;            /* > 1: a hand of that many cards is being drawn,
                            ** this the first: a person may name several
                            ** cards at once (rgi_question_hand) */
  const char *step;         /* the step of the rules it is asked in */
  const char *where;        /* "FILE:LINE" of the rule that asks */
  const char *rule;         /* the text of that line of the rule file */
} rgi_question;

/* rg_reply (what a person's line at a question is) is public: regula.h. */

/* Returns the index of the option that answer names (see the top of the
** file; spaces around it are not trimmed here), or -1. */
int64_t rgi_question_match(const rgi_question *q, const char *answer);

/* Reads line (trimmed here) as a person's reply to q: an answer (its
** index in *k), a command (undo/back, save [FILE] with FILE's start in
** *arg, ?/help), or neither, when why says what is wrong ("'s' could be
** Standard or Summer"; "'9' is not an option: answer a number from 1 to
** 6").  line is changed in place. */
rg_reply rgi_question_reply(const rgi_question *q, char *line, int64_t *k, const char **arg,
                           rg_out *why);

/* Reads line (not changed) as several cards of a hand drawn at once (q->hand
** > 1): names separated by spaces or commas ("red red white"), each may be
** after a count ("2 red 1 white").  Stores the option of each card, in
** the order given, in ks[0..] (room for q->hand) and returns how many (1 ..
** q->hand); returns -1 after writing to why what is wrong: a name that fits
** no option (or several), more cards than the hand, more of one kind than
** are left (without naming how many, for a secret deck). */
int rgi_question_hand(const rgi_question *q, const char *line, uint32_t *ks, rg_out *why);

/* Writes an example of a whole hand of q (q->hand cards; 2 when q is not
** a hand) to o from the names of q's own options, never from what is left
** of them (a secret deck): the first option and the next that answers to
** another word, case-folded as answers are read, counted ("2 red 1 white",
** or "3 red" when all options answer to one word) or, when listed, each
** card ("red red white"). */
void rgi_question_hand_example(rg_out *o, const rgi_question *q, int listed);

/* Writes the answer text that names option k of q (the option's name when
** it answers to k and reads back as itself from a line of an answers file
** or a transcript, else its number; dice as "3 4") into buf. */
void rgi_question_answer_text(const rgi_question *q, int64_t k, char *buf, size_t size);

/* Writes a person's help for q to o: where it is asked (step, rule file
** line and its text), then each option on a line of its own. */
void rgi_question_help(rg_out *o, const rgi_question *q);

/* Returns s without the spaces, tabs and CRs around it (cut in place). */
char *rgi_policy_trim(char *s);

/* Writes "WHO, PROMPT" (or PROMPT alone) to o. */
void rgi_question_write(rg_out *o, const rgi_question *q);

/* Writes q's options to o joined by ", " (at most max, then ", ..."), or
** "lo..hi" for a range. */
void rgi_question_options(rg_out *o, const rgi_question *q, uint32_t max);

/* A caller's policy: returns the option's index in 0..q->n-1, or -1 to
** stop the run, after writing why to err (or nothing, when it told the
** user itself). */
typedef int64_t (*rgi_policy_fn)(void *ctx, const rgi_question *q, rg_out *err);

typedef enum rgi_policy_kind {
  RG_POLICY_RANDOM, RG_POLICY_FIRST, RG_POLICY_ANSWERS, RG_POLICY_CALLBACK
} rgi_policy_kind;

/* A policy and its state.  Set up by one of the rgi_policy_* makers below;
** freed by rgi_policy_free. */
typedef struct rgi_policy {
  rgi_policy_kind kind;
  const char *name;         /* as shown in a log header ("random", "ask") */
  rgi_rng rng;               /* random */
  rgi_policy_fn fn;          /* callback */
  void *fn_ctx;
  const char *source;       /* answers: the name errors give (a path) */
  char *text;               /* answers: a copy of the text, NUL-terminated (never
                            ** changed: a simulation reads it again each run) */
  char *cur;                /* answers: the line being answered, trimmed (as long
                            ** as text, so any line fits) */
  size_t pos;               /* answers: where the next line starts */
  unsigned line;            /* answers: lines consumed so far */
  rg_buf err;               /* why the last question went unanswered */
} rgi_policy;

/* Sets p up as the random policy, its generator seeded by the caller
** (rgi_seed_step for a run). */
void rgi_policy_random(rgi_policy *p);

/* Sets p up as the first-option policy. */
void rgi_policy_first(rgi_policy *p);

/* Sets p up to answer from text[0..len) (copied), one answer a line; source
** names it in errors ("answers.txt" gives "answers.txt:3: ...").  Returns 0;
** -1 when text holds a NUL byte (rgi_policy_error says so); -2 when out of
** memory.  p must be freed whatever this returns. */
int rgi_policy_answers(rgi_policy *p, const char *source, const char *text, size_t len);

/* Sets p up to ask fn(ctx, ...) each question; name is shown in logs
** ("ask"). */
void rgi_policy_callback(rgi_policy *p, const char *name, rgi_policy_fn fn, void *ctx);

/* Frees what p holds (not p). */
void rgi_policy_free(rgi_policy *p);

/* Answers q: returns the option's index in 0..q->n-1, or -1 when the run
** must stop (rgi_policy_error then says why, or is empty when a callback
** told the user itself). */
int64_t rgi_policy_choose(rgi_policy *p, const rgi_question *q);

/* Why the last rgi_policy_choose (or rgi_policy_answers) failed: a message
** without "error: " ("answers.txt:3: 'x' is not an option of: ..."), or "". */
const char *rgi_policy_error(const rgi_policy *p);

#endif
