/*
** fileout.h: the CLI's plain input and output, on regula.h alone: an
** rg_out over a stdio stream, standard input read whole, a rule set
** compiled (or a module loaded) with its diagnostics on stderr.
**
** The library prints through rg_out (regula.h); every command of the CLI hands
** it one of these, which writes to a FILE* (stdout, stderr, a file).
*/
#ifndef RG_FILEOUT_H
#define RG_FILEOUT_H

#include <stdarg.h>
#include <stdio.h>

#include "regula_front.h"

/* Returns an rg_out that writes to f (borrowed; it must outlive the rg_out).
** A short write marks the rg_out failed; the stream's own error flag is set
** too, so main's final check of stdout still sees it.  What goes to stdout
** or stderr passes through rg_write_shown (newlines and tabs kept): no
** control character from a file name or an argument reaches the terminal. */
rg_out cli_file_out(FILE *f);

/* cli_file_out(stdout) that keeps colour sequences (diff's colours). */
rg_out cli_colour_out(void);

/* The exit code after a writer of the library wrote to standard output
** (through cli_file_out) and returned st (regula.h, rg_out): 0 for RG_OK;
** 3 for RG_IO, saying nothing (main says once that the output could not be
** written); 3 for RG_NOMEM, after "regula: error: out of memory"; -1 for
** any other status, which the caller explains. */
int cli_written(rg_status st);

/* A writer's status for one that returns none (rg_run_log): out writes
** through to `to` and never fails itself, so that a failure of out is the
** library's (memory) and one of `to` the stream's. */
typedef struct cli_watch {
  rg_out out;
  rg_out to;
} cli_watch;

/* Sets w up over to (copied) and returns &w->out, the rg_out to hand to
** the library. */
rg_out *cli_watch_init(cli_watch *w, rg_out to);

/* What a writer would return through w (regula.h, rg_out): RG_NOMEM when
** w's out failed (the library's memory), else RG_IO when `to` failed, else
** RG_OK. */
rg_status cli_watch_status(const cli_watch *w);

/* fprintf(stderr, fmt, ...) through cli_file_out(stderr): every message of
** the CLI that may quote a file name, an argument or a line of a file goes
** through it. */
void cli_eprintf(const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 1, 2)))
#endif
  ;
void cli_veprintf(const char *fmt, va_list ap);

/* Reads all of standard input into *text (rg_malloc'd, NUL-terminated,
** *len bytes, at most RG_MAX_SOURCE).  Returns 0, or -1 after saying why
** on stderr (too large, a read error, out of memory). */
int cli_read_stdin(char **text, size_t *len);

/* Compiles the rule file at path ("-": standard input), or loads and
** verifies a .rbc module, into *r (freed with rg_rules_free), each
** diagnostic printed on stderr; keep_sources as in rg_compile_options.
** Returns an exit code: 0, 2 bad input (the diagnostics said why; or an
** output of the command is a file the rules were read from, checked by
** cli_outputs_over: *r is then NULL), 3 out of memory or unreadable
** standard input.  With REGULA_NATIVE=1 in the
** environment the rules run in the native tier (cli_native). */
int cli_rules_load(const char *path, int keep_sources, rg_rules **r);

/* Writes data[0..len) to path with rg_file_save (mode 0644 for a new
** file; no partial file).  Returns 0, or -1 after saying why on stderr
** ("regula: error: OUT: cannot write: ..."). */
int cli_file_save(const char *path, const void *data, size_t len);

/* Turns on the native tier for r (--native): the compiler is $REGULA_CC
** (a path, or a name looked up on PATH), else cc on PATH; the cache folder
** $XDG_CACHE_HOME/regula/native, else $HOME/.cache/regula/native.  When the
** tier cannot be had, says why on stderr ("regula: note: ...") and the VM
** runs.  Returns an exit code: 0, or 3 when memory ran out. */
int cli_native(rg_rules *r);

/* Says on stderr that r has no table `name`, listing its tables; returns
** the exit code 2. */
int cli_rules_no_table(const rg_rules *r, const char *name);

/* Finds procedure name of r for command cmd, called with nargs arguments.
** Returns its index, or -1 after saying on stderr what is wrong: no such
** procedure (listing those there are; tests are not procedures one
** calls), or another number of arguments (listing the parameters). */
int cli_rules_proc(const rg_rules *r, const char *cmd, const char *name, int nargs);

/* cli_rules_proc for a procedure whose result is counted (sim, odds):
** also refuses one without a result, and arguments that do not parse by
** the parameters' types.  Returns its index, or -1 after saying what is
** wrong (exit 2), or -2 when out of memory (exit 3). */
int cli_rules_counted(const rg_rules *r, const char *cmd, const char *name,
                      const char *const *args, int nargs);

#endif
