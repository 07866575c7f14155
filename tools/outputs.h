/*
** outputs.h: a command line's output files are none of its inputs and are
** all different files (the CLI's check before a command runs).
*/
#ifndef REGULA_OUTPUTS_H
#define REGULA_OUTPUTS_H

#include "opts.h"

/* Checks the files o names for writing (-o, --svg, --map-svg, --picture
** NAME=OUT, --transcript) against the files it reads (the positional
** arguments, --inputs, --policy answers:FILE, --variants, --resume) and
** against each other.  An output that is an input (by file identity, so a
** link or another spelling is caught), or two outputs naming one file, is
** refused before anything is read or written: says which on stderr and
** returns EX_BAD.  --transcript may name the --resume file (a resumed game
** goes on saving there).  Returns EX_OK otherwise. */
int cli_outputs_apart(const char *cmd, const opts *o);

/* Checks that o names standard input ("-") at most once among the files it
** reads (the positional arguments, --inputs, --policy answers:, each
** --variants item): it can be read only once, and a second read found it
** empty (`run - --inputs -` ran with no inputs, exit 0).  Says which two
** name it and returns EX_BAD; EX_OK otherwise. */
int cli_stdin_once(const char *cmd, const opts *o);

#endif
