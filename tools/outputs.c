/*
** outputs.c: a command's output files are none of the files it reads and
** are all different files.  `regula build m.rules -o m.rules` or
** `run m.rules --svg m.rules` replaced the rule file being read, silently;
** `--svg x.svg --map-svg x.svg` wrote one picture over the other; so did
** `build child.rules -o base.rules` the base that child.rules extends, an
** output the TSV a table reads `from`, `build - -o m.rules < m.rules` the
** file on standard input, and `save m.rules` typed at a question the rule
** file being played.
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

/* A file the command writes or reads: the option that names it (or, for a
** file it reads without naming it, why it reads it) and its path. */
typedef struct named {
  const char *what;
  char buf[96];               /* what, when made here */
  const char *path;
  size_t len;                 /* of path (a --variants item is not cut) */
  const char *why;            /* read though not named: " (the rule file)",
                              ** ...; NULL for a file the command line names */
  int is_stdin;               /* standard input, which is a file (path "-") */
} named;

#define NAMED_MAX 128

/* The command line being run, remembered by cli_outputs_apart for the
** checks after each compile and at `save` (one command per process). */
static const char *line_cmd;
static const opts *line_opts;

/* Whether the file on standard input is the file at path p: the same
** device and inode (both exist, standard input is a regular file). */
static int stdin_is(const char *p) {
  struct stat si, sp;
  return fstat(0, &si) == 0 && S_ISREG(si.st_mode) && stat(p, &sp) == 0 &&
         si.st_dev == sp.st_dev && si.st_ino == sp.st_ino;
}

/* Whether a and b name one file: the same device and inode (links
** followed), or, for files not made yet, the same folder and name;
** standard input by the file it is. */
static int same_file(const named *a, const named *b) {
  char pa[PATH_MAX], pb[PATH_MAX];
  struct stat sa, sb;
  if (a->is_stdin && b->is_stdin) return 1;
  if (a->len >= sizeof pa || b->len >= sizeof pb) return 0;
  memcpy(pa, a->path, a->len);
  pa[a->len] = '\0';
  memcpy(pb, b->path, b->len);
  pb[b->len] = '\0';
  if (a->is_stdin) return stdin_is(pb);
  if (b->is_stdin) return stdin_is(pa);
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

/* Says on stderr that output out names the same file as other (a file the
** command reads, or an earlier output), with the hint to read cmd's help
** when hint; returns EX_BAD. */
static int clash(const char *cmd, const named *out, const named *other, int other_is_output,
                 int hint) {
  if (other_is_output)
    cli_eprintf("regula: error: %s %.*s and %s %.*s name one file: name another for one of "
                "them\n", other->what, (int)other->len, other->path, out->what, (int)out->len,
                out->path);
  else if (other->is_stdin)
    cli_eprintf("regula: error: %s %.*s would write over %.*s, which %s reads (it is standard "
                "input): name another file\n", out->what, (int)out->len, out->path,
                (int)out->len, out->path, cmd);
  else
    cli_eprintf("regula: error: %s %.*s would write over %.*s, which %s reads%s: name another "
                "file\n", out->what, (int)out->len, out->path, (int)other->len, other->path, cmd,
                other->why ? other->why : "");
  if (hint) cli_eprintf("try 'regula %s --help'\n", cmd);
  return EX_BAD;
}

/* Adds the file path (len bytes) that `what` names to arr (n of them),
** unless it is full. */
static void add(named *arr, int *n, const char *what, const char *path, size_t len) {
  if (*n >= NAMED_MAX) return;
  memset(&arr[*n], 0, sizeof arr[*n]);
  arr[*n].what = what;
  arr[*n].path = path;
  arr[*n].len = len;
  (*n)++;
}

/* Stores in outs the files o names for writing; returns how many. */
static int outputs_of(const opts *o, named *outs) {
  int n = 0;
  if (o->output) add(outs, &n, "-o", o->output, strlen(o->output));
  for (int i = 0; i < o->npictures && n < NAMED_MAX; i++) {
    named *p = &outs[n];
    add(outs, &n, p->buf, o->pictures[i].path, strlen(o->pictures[i].path));
    if (o->pictures[i].name) snprintf(p->buf, sizeof p->buf, "the picture '%.60s' to", o->pictures[i].name);
    else snprintf(p->buf, sizeof p->buf, "--svg");
  }
  if (o->transcript) add(outs, &n, "--transcript", o->transcript, strlen(o->transcript));
  return n;
}

/* Stores in ins the files o names for reading (--resume too when
** with_resume) and standard input; returns how many. */
static int inputs_of(const opts *o, named *ins, int with_resume) {
  int n = 0;
  for (int i = 0; i < o->npos; i++) add(ins, &n, "argument", o->pos[i], strlen(o->pos[i]));
  if (o->inputs) add(ins, &n, "--inputs", o->inputs, strlen(o->inputs));
  if (o->policy && strncmp(o->policy, "answers:", 8) == 0)
    add(ins, &n, "--policy", o->policy + 8, strlen(o->policy + 8));
  if (o->resume && with_resume) add(ins, &n, "--resume", o->resume, strlen(o->resume));
  for (const char *v = o->variants; v && *v;) {
    const char *comma = strchr(v, ',');
    size_t len = comma ? (size_t)(comma - v) : strlen(v);
    add(ins, &n, "--variants", v, len);
    v += len + (comma != NULL);
  }
  if (n < NAMED_MAX) {
    add(ins, &n, "standard input", "-", 1);
    ins[n - 1].is_stdin = 1;
  }
  return n;
}

int cli_outputs_apart(const char *cmd, const opts *o) {
  named outs[NAMED_MAX], ins[NAMED_MAX];
  int nout, nin;
  line_cmd = cmd;
  line_opts = o;
  if ((nout = outputs_of(o, outs)) == 0) return EX_OK;
  nin = inputs_of(o, ins, 1);
  for (int i = 0; i < nout; i++) {
    for (int j = 0; j < nin; j++) {
      /* a resumed game goes on saving to its transcript */
      if (outs[i].path == o->transcript && ins[j].path == o->resume) continue;
      if (same_file(&outs[i], &ins[j])) return clash(cmd, &outs[i], &ins[j], 0, 1);
    }
    for (int j = 0; j < i; j++)
      if (same_file(&outs[i], &outs[j])) return clash(cmd, &outs[i], &outs[j], 1, 1);
  }
  return EX_OK;
}

int cli_outputs_over(const rg_rules *r, const char *save) {
  named outs[NAMED_MAX], ins[NAMED_MAX], in;
  int nout = 0, nin = 0;
  uint32_t nfiles = rg_rules_nfiles(r);
  if (!line_opts) return EX_OK;
  if (save) {
    /* the files the command line names, but the game it resumes (a game
    ** is saved to its transcript) */
    add(outs, &nout, "save", save, strlen(save));
    nin = inputs_of(line_opts, ins, 0);
  } else {
    nout = outputs_of(line_opts, outs);
  }
  for (int i = 0; i < nout; i++) {
    for (int j = 0; j < nin; j++)
      if (same_file(&outs[i], &ins[j])) return clash(line_cmd, &outs[i], &ins[j], 0, 0);
    for (uint32_t k = 0; k < nfiles; k++) {
      rg_load_kind kind = RG_LOAD_RULES;
      const char *path = rg_rules_file(r, k, &kind);
      if (!path) continue;
      memset(&in, 0, sizeof in);
      in.what = "";
      in.path = path;
      in.len = strlen(path);
      in.why = k == 0 ? " (the rule file)"
             : kind == RG_LOAD_TABLE ? " (a table's `from`)" : " (a rule file the rules extend)";
      if (same_file(&outs[i], &in)) return clash(line_cmd, &outs[i], &in, 0, !save);
    }
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
