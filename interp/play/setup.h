/*
** setup.h: what one run of the rules is given besides its seed: inputs and
** placeholder data, set by NAME=VALUE.
**
** An `input` is set by its name (`level[A]=high`, parsed by its
** type).  A die or a deck is set by its name too: its faces or cards as
** `FACE:COUNT` or `FACE` (count 1) joined by commas, `D=hit:2,miss:4`,
** `bag=GOLD:8,LEAD:9`, so that a player with real dice or a real bag
** replaces what the rule file could only assume.  The setup then holds a
** module of its own to run: the rules' module with those dice and decks
** changed (sharing everything else with it).
**
** The header of a run, a simulation and exact odds says how choices were
** answered and which placeholder data the result rests on: every die and
** deck that the procedure may roll or draw (its calls followed) and that
** the rule file marks `assumed` or the run set.
*/
#ifndef RG_SETUP_H
#define RG_SETUP_H

#include <stdint.h>

#include "json.h"
#include "module.h"
#include "regula_front.h"
#include "vm.h"

typedef struct rgi_setup {
  const rgi_module *base;    /* the rules (borrowed) */
  rgi_module m;              /* base with the dice and decks set: shares base's
                            ** arrays except dice, faces, decks and cards */
  rgi_value *inputs;         /* [ninputs]: each input's value for the run */
  unsigned char *set;       /* [ndice + ndecks]: 1 when the run set it */
  rgi_dice *dice;            /* m.dice, m.faces, m.decks, m.cards when own */
  rgi_value *faces;
  rgi_deck *decks;
  rgi_value *cards;
} rgi_setup;

/* Sets s up for the verified module m (borrowed; it must outlive s): every
** input at its default, every die and deck as declared.  Returns 0, or -1
** when out of memory; free s with rgi_setup_free whatever this returns. */
int rgi_setup_init(rgi_setup *s, const rgi_module *m);

/* Frees what s holds. */
void rgi_setup_free(rgi_setup *s);

/* Applies text "NAME=VALUE" (spaces around NAME and VALUE ignored); where
** names it in errors ("--set a=b", "army.txt:3").  Returns 0; -1 after
** writing what is wrong to err (one line without "error: "); -3 when NAME
** is no input, die or deck (err lists those there are); -2 when out of
** memory. */
int rgi_setup_set(rgi_setup *s, const char *text, const char *where, rg_out *err);

/* Applies every line of text[0..len) (lines NAME=VALUE; blank lines and
** lines starting with # skipped), naming errors "source:LINE".  Returns as
** rgi_setup_set. */
int rgi_setup_lines(rgi_setup *s, const char *text, size_t len, const char *source,
                   rg_out *err);

/* The module to run: the rules with the dice and decks set. */
const rgi_module *rgi_setup_module(const rgi_setup *s);

/* Writes the placeholder data procedure proc rests on: "dice RED (assumed),
** ..., deck bag (set)", or nothing when there is none; notes are the
** rule file's assumptions (NULL: none known, so only what was set).
** Returns how many it wrote, or -1 when out of memory. */
int rgi_setup_placeholders(const rgi_setup *s, uint32_t proc, const rgi_assumption *notes,
                          rg_out *out);

/* [ndice + ndecks] flags of m (rg_malloc'd; NULL when out of memory): 1
** for a die or deck whose declaration carries an `assumed` note in notes. */
unsigned char *rgi_placeholder_flags(const rgi_module *m, const rgi_assumption *notes);

/* rgi_setup_placeholders by flags: set (or NULL) marks the dice and decks a
** run set, flags (or NULL) those the rule file assumes. */
int rgi_placeholders_text(const rgi_module *m, uint32_t proc, const unsigned char *set,
                         const unsigned char *flags, rg_out *out);
json_t *rgi_placeholders_json(const rgi_module *m, uint32_t proc, const unsigned char *set,
                             const unsigned char *flags);

#endif
