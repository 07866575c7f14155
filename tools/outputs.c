/*
** outputs.c: a command line's output files are none of its inputs and are
** all different files.  `regula build m.rules -o m.rules` or
** `run m.rules --svg m.rules` replaced the rule file being read, silently;
** `--svg x.svg --map-svg x.svg` wrote one picture over the other.
*/
#define _XOPEN_SOURCE 700   /* realpath */
#include "outputs.h"
#include "exitcode.h"
#include "fileout.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A file named on the command line: the option that names it and its
** path. */
typedef struct named {
  const char *what;
  char buf[96];               /* what, when made here */
  const char *path;
  size_t len;                 /* of path (a --variants item is not cut) */
} named;

/* Whether paths a and b (each len bytes) name one existing file: the same
** device and inode. */
static int same_file(const named *a, const named *b) {
  char pa[PATH_MAX], pb[PATH_MAX];
  struct stat sa, sb;
  if (a->len >= sizeof pa || b->len >= sizeof pb) return 0;
  memcpy(pa, a->path, a->len);
  pa[a->len] = '\0';
  memcpy(pb, b->path, b->len);
  pb[b->len] = '\0';
  if (strcmp(pa, "-") == 0 || strcmp(pb, "-") == 0) return 0;
  if (stat(pa, &sa) == 0 && stat(pb, &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  /* not made yet: the same folder and name */
  char *ra = NULL, *rb = NULL, *sla = strrchr(pa, '/'), *slb = strrchr(pb, '/');
  const char *na = sla ? sla + 1 : pa, *nb = slb ? slb + 1 : pb;
  if (strcmp(na, nb) != 0) return 0;
  if (sla) *sla = '\0';
  if (slb) *slb = '\0';
  ra = realpath(sla ? (*pa ? pa : "/") : ".", NULL);
  rb = realpath(slb ? (*pb ? pb : "/") : ".", NULL);
  int same = ra && rb && strcmp(ra, rb) == 0;
  free(ra);
  free(rb);
  return same;
}

/* Says that output out names the same file as other (an input, or an
** earlier output); returns EX_BAD. */
static int clash(const char *cmd, const named *out, const named *other, int other_is_output) {
  if (other_is_output)
    cli_eprintf("regula: error: %s %.*s and %s %.*s name one file: name another for one of "
                "them\n", other->what, (int)other->len, other->path, out->what, (int)out->len,
                out->path);
  else
    cli_eprintf("regula: error: %s %.*s would write over %.*s, which %s reads: name another "
                "file\n", out->what, (int)out->len, out->path, (int)other->len, other->path, cmd);
  cli_eprintf("try 'regula %s --help'\n", cmd);
  return EX_BAD;
}

int cli_outputs_apart(const char *cmd, const opts *o) {
  named outs[64], ins[64];
  int nout = 0, nin = 0;
#define ADD(arr, n, w, p, l) do { if ((n) < 64) { (arr)[n].what = (w); (arr)[n].path = (p); \
                                 (arr)[n].len = (l); (n)++; } } while (0)
  if (o->output) ADD(outs, nout, "-o", o->output, strlen(o->output));
  for (int i = 0; i < o->npictures && nout < 64; i++) {
    named *n = &outs[nout];
    ADD(outs, nout, n->buf, o->pictures[i].path, strlen(o->pictures[i].path));
    if (o->pictures[i].name) snprintf(n->buf, sizeof n->buf, "the picture '%.60s' to", o->pictures[i].name);
    else snprintf(n->buf, sizeof n->buf, "--svg");
  }
  if (o->transcript) ADD(outs, nout, "--transcript", o->transcript, strlen(o->transcript));
  if (nout == 0) return EX_OK;
  for (int i = 0; i < o->npos; i++) ADD(ins, nin, "argument", o->pos[i], strlen(o->pos[i]));
  if (o->inputs) ADD(ins, nin, "--inputs", o->inputs, strlen(o->inputs));
  if (o->policy && strncmp(o->policy, "answers:", 8) == 0)
    ADD(ins, nin, "--policy", o->policy + 8, strlen(o->policy + 8));
  if (o->resume) ADD(ins, nin, "--resume", o->resume, strlen(o->resume));
  for (const char *v = o->variants; v && *v;) {
    const char *comma = strchr(v, ',');
    size_t len = comma ? (size_t)(comma - v) : strlen(v);
    ADD(ins, nin, "--variants", v, len);
    v += len + (comma != NULL);
  }
#undef ADD
  for (int i = 0; i < nout; i++) {
    for (int j = 0; j < nin; j++) {
      /* a resumed game goes on saving to its transcript */
      if (outs[i].path == o->transcript && ins[j].path == o->resume) continue;
      if (same_file(&outs[i], &ins[j])) return clash(cmd, &outs[i], &ins[j], 0);
    }
    for (int j = 0; j < i; j++)
      if (same_file(&outs[i], &outs[j])) return clash(cmd, &outs[i], &outs[j], 1);
  }
  return EX_OK;
}

int cli_stdin_once(const char *cmd, const opts *o) {
  char names[2][64];
  int n = 0;
  /* each place a file to read may be named "-" (--resume - is refused by
  ** run itself) */
#define SEEN(...) do { if (n < 2) snprintf(names[n], sizeof names[n], __VA_ARGS__); n++; } while (0)
  for (int i = 0; i < o->npos; i++)
    if (strcmp(o->pos[i], "-") == 0) SEEN("argument %d", i + 1);
  if (o->inputs && strcmp(o->inputs, "-") == 0) SEEN("--inputs -");
  if (o->policy && strcmp(o->policy, "answers:-") == 0) SEEN("--policy answers:-");
  for (int k = 1; o->variants && *o->variants && k > 0; k++) {
    const char *v = o->variants;
    for (int j = 1; j < k && v; j++) v = strchr(v, ',') ? strchr(v, ',') + 1 : NULL;
    if (!v) break;
    if (v[0] == '-' && (v[1] == ',' || !v[1])) SEEN("--variants item %d", k);
  }
#undef SEEN
  if (n > 1)
    return usage_error(cmd, "standard input (-) can be read only once: %s and %s both name it",
                       names[0], names[1]);
  return EX_OK;
}
