/*
** table.c: `regula run` with people at the table: the terminal's side of
** a game (interp/play/game.h holds the game: its questions, the answers,
** undo, the transcript).
**
** The conversation (questions, what went wrong, help) goes to stderr; the
** game's log is shown as it happens on the terminal (stdout when it is
** one, else stderr when that is one).  When stdout is not a terminal it
** receives the log of the game as finally played, once it is over (or
** stopped): the same bytes as `--resume` of its transcript gives.  A
** secret answer is read without echo and its choice shows only when the
** moment's secret answers are all in.  Nothing here knows a game.
*/
#include "regula_front.h"
#include "ask.h"
#include "cmd_rules.h"
#include "exitcode.h"
#include "fileout.h"
#include "outputs.h"
#include "pictures.h"
#include "table.h"

#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* The transcript `save` writes when neither it nor --transcript names a file. */
#define DEFAULT_TRANSCRIPT "regula-transcript.txt"

/* What a game at the terminal holds. */
typedef struct table {
  const rg_rules *r;
  const opts *o;
  rg_game *g;
  reader in;
  FILE *live;               /* where the log shows as it happens, or NULL */
  rg_buf shown;             /* the log text shown on live so far */
  int tty_in;
  char *alone;              /* who has the screen to themselves (a secret
                            ** question of theirs was the last), or NULL */
} table;

/* Shows on t->live what the game's visible log holds beyond what was
** shown; when an undo made the log shorter, says that the lines after
** the point it went back to are taken back. */
static void show_log(table *t) {
  size_t len, vis, common = 0;
  const char *text = rg_game_log(t->g, &len, &vis);
  if (!t->live) return;
  while (common < vis && common < t->shown.len && text[common] == t->shown.data[common]) common++;
  if (common < t->shown.len) {
    /* Back to the start of the line the texts part on. */
    while (common > 0 && text[common - 1] != '\n') common--;
    fputs("  -- taken back: the game goes on from here --\n", t->live);
  }
  fwrite(text + common, 1, vis - common, t->live);
  fflush(t->live);
  rg_buf_free(&t->shown);
  rg_write(&t->shown.out, text, vis);
}

/* Writes the game's transcript to path, atomically (no partial file).
** Returns 0, or -1 after saying why on stderr. */
static int save_transcript(table *t, const char *path) {
  rg_buf b;
  int rc;
  rg_buf_init(&b);
  rg_game_transcript(t->g, &b.out);
  if (b.out.failed) {
    rg_buf_free(&b);
    fputs("regula: error: out of memory\n", stderr);
    return -1;
  }
  rc = cli_file_save(path, b.data, b.len);
  rg_buf_free(&b);
  return rc;
}

/* When a secret question leaves a terminal (answered, taken back, given
** up): clears the screen and its scrollback, where the question, its
** options (the player's hand), help and mistakes were, however many lines
** they took, and shows the log shown so far again; then says `said`.
** Not on a terminal: says it alone. */
static void hide_secret(const table *t, const char *said) {
  if (t->tty_in && isatty(fileno(stderr))) {
    fputs("\033[H\033[2J\033[3J", stderr);
    fflush(stderr);
    if (t->live && t->shown.len) {
      fwrite(t->shown.data, 1, t->shown.len, t->live);
      fflush(t->live);
    }
  }
  fputs(said, stderr);
  fflush(stderr);
}

/* Returns line without the spaces and tabs around it, nor a CR at its
** end (cut in place). */
static char *trim(char *line) {
  size_t n;
  while (*line == ' ' || *line == '\t') line++;
  for (n = strlen(line); n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r');
       n--)
    line[n - 1] = '\0';
  return line;
}

/* Asks the pending question until the person answers, takes an answer
** back or the input ends; what to say once a secret question has left
** the screen goes to *after (the rest is said at once).  Returns 0 to play
** on, or an exit code. */
static int ask_loop(table *t, const char *transcript, rg_buf *after) {
  rg_game_question question, *q = &question;
  rg_buf why;
  int shown_question = 0;
  rg_game_asking(t->g, q);
  for (;;) {
    char *line;
    const char *arg;
    rg_reply r;
    int rc;
    if (!shown_question) {
      if (q->secret)
        fputs("(secret: only the player who answers should see this; the answer is not shown)\n",
              stderr);
      ask_show(t->g);
      shown_question = 1;
    }
    rc = reader_line(&t->in, &line);
    if (rc == READ_NOMEM) {
      fputs("\nregula: error: out of memory\n", stderr);
      return EX_RUNTIME;
    }
    if (rc != 0 && rc != READ_END) {
      fprintf(stderr, "\nregula: error: stdin:%u: %s\n", t->in.line, reader_error(rc));
      return EX_BAD;
    }
    if (rc != 0) {
      rg_buf_free(after);
      if (q->secret) fputc('\n', stderr);
      rg_printf(&after->out, "%sregula: error: no answer (end of input) for: ",
                q->secret ? "" : "\n");
      rg_game_question_write(t->g, 0, &after->out);
      rg_putc(&after->out, '\n');
      if (rg_game_answers(t->g) && !transcript && t->tty_in)
        rg_puts(&after->out, "(type save at a question to keep a game for --resume)\n");
      return EX_BAD;
    }
    /* Piped answers are not echoed by a terminal: echo them, so that the
    ** conversation on stderr reads as a dialogue.  A secret one is not. */
    if (!t->tty_in) cli_eprintf("%s\n", q->secret ? "(hidden)" : trim(line));
    rg_buf_init(&why);
    r = rg_game_reply(t->g, line, &arg, &why.out);
    switch (r) {
    case RG_REPLY_ANSWER:
      rg_buf_free(&why);
      if (q->secret)
        rg_printf(&after->out, "(%s%sanswered in secret)\n", q->who ? q->who : "",
                  q->who ? " has " : "");
      if (transcript && save_transcript(t, transcript) != 0) return EX_RUNTIME;
      return 0;
    case RG_REPLY_UNDO:
      if (q->secret) rg_printf(&after->out, "%s\n", why.data ? why.data : "");
      else cli_eprintf("%s\n", why.data ? why.data : "");
      rg_buf_free(&why);
      if (transcript && save_transcript(t, transcript) != 0) return EX_RUNTIME;
      return 0;
    case RG_REPLY_SAVE: {
      const char *path = arg ? arg : transcript ? transcript : DEFAULT_TRANSCRIPT;
      if (cli_outputs_over(t->r, path) == EX_OK && save_transcript(t, path) == 0)
        cli_eprintf("saved the game so far to %s (go on with: regula run --resume %s)\n", path,
                    path);
      shown_question = 0;
      break;
    }
    case RG_REPLY_HELP:
      fputs(why.data ? why.data : "", stderr);
      shown_question = 0;
      break;
    default:
      cli_eprintf("%s\n", why.data ? why.data : "");
      shown_question = q->range || q->numeric || q->yesno;   /* a short prompt is shown again */
      if (shown_question) ask_show(t->g);
      break;
    }
    rg_buf_free(&why);
  }
}

/* Before a secret question on a terminal, the screen goes to the one who
** answers it: unless it is theirs alone already (their own secret question
** was the last), says whom to pass it to and waits for Enter, so that the
** player who answered last never sees the next one's options (a hand).
** What is typed there is not an answer.  A question asked openly gives the
** screen back to everyone.  Returns 0, or an exit code (no input left). */
static int hand_over(table *t, const rg_game_question *q) {
  const char *who = q->who ? q->who : "the next player";
  char *line;
  int rc;
  if (!q->secret || !t->tty_in) {
    free(t->alone);
    t->alone = NULL;
    return 0;
  }
  if (t->alone && q->who && strcmp(t->alone, q->who) == 0) return 0;
  free(t->alone);
  t->alone = NULL;
  cli_eprintf("(pass to %s; %s, press Enter when only you can see the screen): ", who, who);
  fflush(stderr);
  rc = reader_line(&t->in, &line);
  if (rc == READ_NOMEM) {
    fputs("\nregula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  if (rc != 0) {
    cli_eprintf("\nregula: error: no answer (end of input) for the hand-over to %s\n", who);
    return EX_BAD;
  }
  if (q->who && !(t->alone = strdup(q->who))) {
    fputs("regula: error: out of memory\n", stderr);
    return EX_RUNTIME;
  }
  return 0;
}

/* ask_loop, with the terminal's echo off for a secret question (off
** before the question shows, so no early keystroke is echoed; nothing
** typed is discarded). */
static int ask(table *t, const char *transcript) {
  rg_game_question q;
  struct termios old, quiet;
  rg_buf after;
  int fd = fileno(t->in.f), rc;
  int hidden;
  if (rg_game_asking(t->g, &q) && (rc = hand_over(t, &q)) != 0) return rc;
  hidden = rg_game_asking(t->g, &q) && q.secret && t->tty_in && tcgetattr(fd, &old) == 0;
  if (hidden) {
    quiet = old;
    quiet.c_lflag &= ~(tcflag_t)ECHO;
    quiet.c_lflag |= ECHONL;
    tcsetattr(fd, TCSANOW, &quiet);
  }
  rg_buf_init(&after);
  rc = ask_loop(t, transcript, &after);
  if (hidden) tcsetattr(fd, TCSANOW, &old);
  if (q.secret) hide_secret(t, after.data ? after.data : "");
  else if (after.data) fputs(after.data, stderr);
  rg_buf_free(&after);
  return rc;
}

/* Prints the game's log (as it stands) to stdout when stdout is not where
** it was shown live. */
static void flush_record(table *t) {
  size_t len, vis;
  const char *text = rg_game_log(t->g, &len, &vis);
  if (t->live == stdout) return;
  fwrite(text, 1, len, stdout);
  fflush(stdout);
}

int table_pictures(const rg_rules *r, const opts *o, const rg_pictures *p) {
  picture_request rq = { o->pictures, o->npictures, o->picture, "run", 0 };
  return pictures_write(p, &rq, call_fault, (void *)r);
}

int table_play(const rg_rules *r, const opts *o, uint64_t seed, int ask_choices, int ask_dice) {
  table t;
  rg_game_options go = RG_OPTIONS(rg_game_options);
  int rc = 0;
  rg_status st;
  memset(&t, 0, sizeof t);
  t.r = r;
  t.o = o;
  t.in.f = stdin;
  t.tty_in = isatty(fileno(stdin));
  t.live = isatty(fileno(stdout)) ? stdout : isatty(fileno(stderr)) ? stderr : NULL;
  rg_buf_init(&t.shown);
  go.proc = o->proc;
  go.seed = seed;
  go.ask_choices = ask_choices;
  {
    /* who answers the choices people do not: first or random ("ask" and
    ** a strategy are none of the library's plain policies) */
    rg_policy p;
    go.policy.kind = o->policy && rg_policy_parse(NULL, o->policy, &p) == RG_OK &&
                     p.kind == RG_CHOOSE_FIRST ? RG_CHOOSE_FIRST : RG_CHOOSE_RANDOM;
  }
  go.ask_dice = ask_dice;
  go.title = o->rules_named ? o->rules_named : o->pos[0];
  go.limits = cli_limits(o);
  go.pictures = o->npictures || o->picture;
  if ((st = rg_game_new(r, &go, &t.g)) != RG_OK) {
    fputs(st == RG_NOMEM ? "regula: error: out of memory\n" : "regula: error: no such procedure\n",
          stderr);
    return st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
  }
  if (o->resume) {
    char *text;
    size_t len;
    rc = ask_read_file(o->resume, &text, &len);
    if (rc == 0) {
      if (rg_game_load(t.g, o->resume, text, len) != RG_OK) {
        fputs("regula: error: out of memory\n", stderr);
        rc = EX_RUNTIME;
      }
      rg_free(text);
    }
  }
  while (rc == 0) {           /* each turn plays the game again, then asks */
    rg_game_state gs = rg_game_play(t.g);
    show_log(&t);
    if (gs == RG_GAME_ASKING) {
      rc = ask(&t, o->transcript);
      if (rc != 0) flush_record(&t);
      continue;
    }
    /* Over or failed: the last turn. */
    flush_record(&t);
    if (gs == RG_GAME_FAILED) {
      rg_place at;
      const char *msg = rg_game_error(t.g, &st, &at);
      if (st == RG_RUN_ERROR) {
        call_fault((void *)r, msg, at.path, at.line, at.col);
        rc = EX_RUNTIME;
      } else {
        cli_eprintf("regula: error: %s\n", msg);
        rc = st == RG_NOMEM ? EX_RUNTIME : EX_BAD;
      }
      break;
    }
    if (rg_game_failed_expects(t.g)) rc = EX_FINDINGS;
    if (go.pictures) {
      int prc = table_pictures(r, o, rg_game_drawn(t.g));
      if (prc != EX_OK) rc = prc;
    }
    break;
  }
  rg_buf_free(&t.shown);
  free(t.alone);
  reader_free(&t.in);
  rg_game_free(t.g);
  return rc;
}
