/*
** evlog.h: the event log of a run, as text or as JSON lines, written to an
** rg_out.
**
** Text: the run's settings, a heading per step, one indented line per event
** ending with the rule file and line it comes from, then the result:
**
**     run main: seed 1, policy random, dice random
**
**     == Roll-off
**       roll 2d6: 3 + 5 = 8  [skirmish.rules:31]
**       roll 3d6: 2, 6, 1  [skirmish.rules:32]         (a list of rolls)
**       roll RED: hit  [skirmish.rules:33]
**       draw bag: RED (4 left)  [skirmish.rules:50]
**       Alpha chooses Standard (which ground?)  [skirmish.rules:42]
**       note cards drawn: RED, 2  [skirmish.rules:53]
**       FAIL expected 7, got 5  [skirmish.rules:20]
**
**     == Summary
**     winner: Bravo
**
** JSON (one object a line, built by jansson through json.h, keys in this
** order; the first line says the format's version):
**
**     {"event":"run","format":2,"procedure":"main","seed":"1","policy":"random","dice":"random"}
**     {"event":"step","name":"Roll-off","file":"x.rules","line":30}
**     {"event":"roll","dice":"2d6","results":[3,5],"total":8,"file":"x.rules","line":31}
**     {"event":"draw","deck":"bag","card":{"code":"RED","name":"RED"},"left":4,"file":"x.rules","line":50}
**     {"event":"choice","chooser":..,"prompt":"...","options":[...],"chosen":..,"index":0,"file":"x.rules","line":42}
**     {"event":"note","text":"...","values":[...],"file":"x.rules","line":44}
**     {"event":"expect_fail","text":"...","expected":...,"actual":...,"file":"x.rules","line":9}
**         (inside loops, with "loop":{"k":3}: the loop variables' values)
**     {"event":"summary","result":...}
**
** Values are typed as json.h writes them (ints as numbers, members by code
** with their name beside, distances as numbers with their unit).  The seed
** is a decimal string: it may exceed 2^53, past which JSON readers round.
** A note has one format everywhere, `note TEXT: v1, v2` (`note TEXT`
** without values), in the log and in `regula call`.
** Nothing here knows a game.
*/
#ifndef RG_EVLOG_H
#define RG_EVLOG_H

#include <stdint.h>

#include "module.h"
#include "regula_front.h"

/* Where a log goes and what it reads values from. */
typedef struct rgi_log {
  rg_out *out;
  const rgi_module *m;
  rgi_view view;             /* the run's values (its heap, its decks); may be
                            ** set late; heap NULL: none yet */
  int json;                 /* JSON lines instead of text */
  char base[512];           /* the folder the code's files share: cut from
                            ** the paths a text log shows */
  uint32_t shown_file;      /* the file index whose path is in shown */
  const char *strategy;     /* JSON: the run's strategy, named apart in its
                            ** first line (NULL: none) */
  char shown[512];          /* that path normalized (text: base cut) */
} rgi_log;

/* Sets lg up to write m's events to out, as JSON when json.  Each event
** ends with its place: in text `  [PATH:LINE]`, PATH relative to the folder
** that the files of m's code share (`base.rules`, and for a revision of
** it `revised/base.rules`); in JSON `"file":PATH,"line":N` with PATH
** normalized as m names it. */
void rgi_log_init(rgi_log *lg, rg_out *out, const rgi_module *m, int json);

/* The first line: the procedure run, the seed, who answers the choices
** (policy) and the dice ("random" or "ask"). */
void rgi_log_run(rgi_log *lg, const char *proc, uint64_t seed, const char *policy,
                const char *dice);

/* The events, as the VM's sink reports them (rgi_sink); pc is
** the instruction, which names the rule file's line. */
void rgi_log_step(rgi_log *lg, uint32_t name, uint32_t pc);
void rgi_log_roll(rgi_log *lg, int32_t die, uint32_t sides, const rgi_value *results, uint32_t n,
                 uint32_t pc);
void rgi_log_draw(rgi_log *lg, uint32_t deck, rgi_value card, uint32_t pc);
/* Option k of options[0..n) was chosen by chooser at choice site `choice`. */
void rgi_log_choice(rgi_log *lg, uint32_t choice, rgi_value chooser, const rgi_value *options,
                   uint32_t n, uint32_t k, uint32_t pc);
void rgi_log_note(rgi_log *lg, uint32_t note, const rgi_value *vals, uint32_t pc);
void rgi_log_expect_fail(rgi_log *lg, uint32_t expect, rgi_value actual, rgi_value expected,
                        uint32_t pc, const rgi_value *frame);

/* The end: "== Summary" and the result v of type t (RG_K_VOID: none). */
void rgi_log_summary(rgi_log *lg, rgi_type t, rgi_value v);

/* Writes note `note` with its values as `note TEXT: v1, v2` (no newline);
** values are read from heap[0..nheap). */
void rgi_log_note_text(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                      uint32_t note, const rgi_value *vals);

/* Writes what failed expectation `expect` at pc says, without newline:
** "expected X, got Y" (expect a == b) or "expected true: TEXT", then, when
** frame (the failing procedure's locals, rgi_vm_frame; may be NULL) is given
** and the expectation is inside loops, the values of their variables:
** " (for s = 10, t = \"Standard\")".  Text values and members are quoted. */
void rgi_log_expect_text(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                        uint32_t expect, rgi_value actual, rgi_value expected, uint32_t pc,
                        const rgi_value *frame);

/* Writes the name of a roll into buf: a custom die's name, "d6" for one
** plain die, "2d6" for n of them.  Returns the type of the values rolled. */
rgi_type rgi_log_dice_name(const rgi_module *m, int32_t die, uint32_t sides, uint32_t n,
                         char *buf, size_t size);

/* Finds the source path, line and display column of instruction pc of m.
** Returns 0, or -1 when the line table does not say. */
int rgi_log_locate(const rgi_module *m, uint32_t pc, const char **path, uint32_t *line,
                  uint32_t *col);

#endif
