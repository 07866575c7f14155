/*
** game.h: a game at the table, played by people through a front end (the
** terminal, a page), that can be undone, saved and resumed.
**
** A game is a run of one procedure whose questions to a person (the
** choices, and with dice asked the dice and cards too) are answered from
** a list of answers kept by the game.  rg_game_play runs the procedure from
** the start with the answers so far (a run is deterministic: the same seed,
** inputs and answers give the same game) and stops at the first question
** beyond them, which becomes the pending question; the front end shows it,
** reads a line and hands it to rg_game_reply, which adds an answer, takes
** the last one back (undo), or says what is wrong.  Then it plays again.
** Replaying a pre-battle from the start takes well under a millisecond.
**
** The log of the run is kept as text; the front end prints what it has
** not printed yet.  A choice the rules mark secret is held back from the
** visible text with every secret choice that follows it directly (one
** moment of simultaneous play), until something else happens: then they
** show together.
**
** The transcript is the answers, one a line, each after a comment naming
** its question: an answers file, which rg_game_load reads back to resume
** the game.  Nothing here prints, reads a file or knows a game.
*/
#ifndef RG_GAME_H
#define RG_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "module.h"
#include "regula_front.h"
#include "policy.h"
#include "vm.h"

/* rg_game and the functions on it that a front end needs (rg_game_play,
** rg_game_log, rg_game_reply, rg_game_load, rg_game_transcript,
** rg_game_error, rg_game_free) are declared in regula.h. */

/* How a game is set up.  Strings are copied. */
typedef struct rgi_game_setup {
  uint32_t proc;            /* the procedure played (no parameters) */
  uint64_t seed;
  rgi_limits limits;
  int ask_choices;          /* a person answers the choices; else: */
  int first;                /*   the first option (1) or at random (0, seeded) */
  int ask_dice;             /* a person reads the dice and cards; else the seed */
  const char *title;        /* the transcript's first comment ("base.rules") */
  const char *sets;         /* the settings of the run, one a line, each ending
                            ** with a newline ("level[A]=high\n"), written
                            ** into the transcript (rg_transcript_settings reads
                            ** them); NULL or "": none */
  const char *placeholders; /* (copied) the assumed or set dice and decks the run rests
                            ** on, as a line after the header ("" or NULL: none) */
  int pictures;             /* collect the pictures drawn (rg_game_drawn): of
                            ** the last play only */
  char module[24];          /* the rules' hash, named in the transcript ("": none) */
  /* Optional: line `line` of rule file path as read (its length in *len),
  ** or NULL: for the help, the sheet's words the rule file quotes. */
  const char *(*source_line)(void *ctx, const char *path, uint32_t line, size_t *len);
  void *source_ctx;
} rgi_game_setup;

/* rg_game_state (where a game stands after rg_game_play) is public: regula.h. */

/* Makes a game of module m (which must outlive it).  Returns RG_OK with
** *out set, or RG_NOMEM.  (regula.h's rg_game_new makes one of rules.)
** Free it with rg_game_free. */
rg_status rgi_game_open(const rgi_module *m, const rgi_game_setup *setup, rg_game **out);

/* The pending question (RG_GAME_ASKING), or NULL.  Valid until the next
** rg_game_play or rg_game_reply. */
const rgi_question *rgi_game_pending(const rg_game *g);

/* Drops the last answer; returns 0, or -1 when there is none. */
int rgi_game_undo(rg_game *g);

#endif
