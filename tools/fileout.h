/*
** fileout.h: the CLI's rg_out over a stdio stream.
**
** The library prints through rg_out (out.h); every command of the CLI hands
** it one of these, which writes to a FILE* (stdout, stderr, a file).
*/
#ifndef RG_FILEOUT_H
#define RG_FILEOUT_H

#include <stdio.h>

#include "out.h"

/* Returns an rg_out that writes to f (borrowed; it must outlive the rg_out).
** A short write marks the rg_out failed; the stream's own error flag is set
** too, so main's final check of stdout still sees it. */
rg_out cli_file_out(FILE *f);

#endif
