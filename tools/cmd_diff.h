/*
** cmd_diff.h: `regula diff`, a front end on regula.h alone (diff.c).
*/
#ifndef RG_CMD_DIFF_H
#define RG_CMD_DIFF_H

/* What a `regula diff` command line asks for (parsed by regula.c). */
typedef struct diff_request {
  const char *const *files;     /* the rule sets A and B (nfiles of them) */
  int nfiles;
  const char *const *odds;      /* each --odds TABLE=NdS[+K] */
  int nodds;
  int stat, json;               /* --stat, --json given */
} diff_request;

/* Runs `regula diff` for r; returns the exit code: 0 equal, 1 different,
** 2 bad input, 3 out of memory or the output could not be written. */
int diff_main(const diff_request *r);
extern const char diff_usage[];
extern const char diff_help[];

#endif
