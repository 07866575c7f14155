/*
** path.h: file paths as the renderers show them.
**
** A rule set names its files as they were reached: `rules/game/revised/
** ../base.rules` for the base of a revision.  Shown to people, a path is
** normalized ("./" and empty parts dropped, "dir/.." folded) and cut after
** the folder that the files in view share, so the base and its revision
** read `base.rules` and `revised/base.rules`, never two alike basenames.
*/
#ifndef RG_PATH_H
#define RG_PATH_H

#include <stddef.h>

/* Writes path `in` normalized into out[0..size): "./" and empty parts
** dropped, "dir/.." folded (a leading ".." is kept). */
void rgi_path_norm(char *out, size_t size, const char *in);

/* Writes into buf[0..size) the folder, with its final '/', that the
** normalized paths a and b share ("" when none).  a may itself be a folder
** that this returned ("x/y/"), to fold in a third path; buf may be a. */
void rgi_path_shared_dir(const char *a, const char *b, char *buf, size_t size);

#endif
