/*
** diff.h: `regula diff A B`, a semantic diff of two rule sets (diff.c).
**
** Kept free of the other CLI headers, so that regula.c registers it with a
** one-line wrapper (the command is registered with OPT_ARGS, so --odds
** reaches it as positional words):
**   static int cmd_diff(opts *o) { return regula_diff(o->npos, o->pos); }
*/
#ifndef RG_DIFF_H
#define RG_DIFF_H

#define RG_DIFF_USAGE "diff [--odds TABLE=NdS[+K]]... A B"

/* The text of `regula diff --help` (after the usage line). */
extern const char rg_diff_help[];

/* Compares the two rule sets named in pos (rule files or .rbc); the other
** words are odds hints, --odds TABLE=NdS[+K|-K] or --odds=TABLE=....  Returns 0 equal, 1 different, 2 bad
** input, 3 out of memory. */
int regula_diff(int npos, char **pos);

#endif
