/*
** outputs.h: a command's output files are none of the files it reads and
** are all different files (the CLI's checks before a command runs, after
** each compile, and at `save`).
*/
#ifndef REGULA_OUTPUTS_H
#define REGULA_OUTPUTS_H

#include "opts.h"

/* Checks the files o names for writing (-o, --svg, --map-svg, --picture
** NAME=OUT, --transcript) against the files it names for reading (the
** positional arguments, --inputs, --policy answers:FILE, --variants,
** --resume), against standard input when it is a file, and against each
** other.  An output that is one of those (by file identity, so a link or
** another spelling is caught), or two outputs naming one file, is refused
** before anything is read or written: says which on stderr and returns
** EX_BAD.  --transcript may name the --resume file (a resumed game goes on
** saving there).  Returns EX_OK otherwise.  Remembers cmd and o (which
** must outlive the command) for cli_outputs_over. */
int cli_outputs_apart(const char *cmd, const opts *o);

/* The check of every file the command reads that only compiling tells:
** each file r was read from (rg_rules_file: the rule file, every file its
** `extends` and its tables' `from` read, a module), against the outputs of
** the command line cli_outputs_apart was given; or, when save is not NULL,
** against the file `save` typed at a question writes (checked against the
** files the command line names for reading and standard input too, but
** the --resume game, which a game is saved to).  cli_rules_load calls it
** after each compile, table.c before each save: so nothing is written over
** a file the command reads.  Returns EX_OK, or EX_BAD after saying which
** file and why on stderr.  EX_OK when cli_outputs_apart was not called. */
int cli_outputs_over(const rg_rules *r, const char *save);

/* Checks that o names standard input ("-") at most once among the files it
** reads (the positional arguments, --inputs, --policy answers:, each
** --variants item): it can be read only once, and a second read found it
** empty (`run - --inputs -` ran with no inputs, exit 0).  Says which two
** name it and returns EX_BAD; EX_OK otherwise. */
int cli_stdin_once(const char *cmd, const opts *o);

#endif
