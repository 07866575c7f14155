/*
** table.h: `regula run` with people at the table (table.c), on regula.h
** alone.
*/
#ifndef RG_CLI_TABLE_H
#define RG_CLI_TABLE_H

#include <stdint.h>

#include "opts.h"
#include "regula_front.h"

/* Plays procedure o->proc (default main; it exists and takes no
** parameters) of r (set up with the run's inputs and --set values, whose
** texts its transcript names), seeded by seed, with a person answering
** (ask_choices: the choices; ask_dice: the dice and cards), resumable (o:
** --resume, --transcript; undo and save at a question); writes the
** pictures o asks for of the game as finally played.  Returns the exit
** code. */
int table_play(const rg_rules *r, const opts *o, uint64_t seed, int ask_choices, int ask_dice);

/* Writes the pictures o asks for from p (drawn by a run of r; NULL:
** none), a wrong shape said with its source line.  Returns the exit
** code. */
int table_pictures(const rg_rules *r, const opts *o, const rg_pictures *p);

#endif
