/*
** game.c: a game at the table, replayed from its answers (see game.h).
*/
#include "game.h"
#include "grow.h"
#include "outwatch.h"

#include "regula_front.h"
#include "diag.h"
#include "evlog.h"
#include "play.h"
#include "seed.h"
#include "svg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One answer of the list: its text, the question it answered (for the
** transcript's comment) and the line of the file it came from (0: typed). */
typedef struct answer {
  char *text;
  char *question;
  uint32_t line;
  int secret;               /* given at a secret question: never written back */
  uint32_t group;           /* not 0: the cards of one hand typed at once,
                            ** taken back together */
} answer;

/* The pending question, copied out of the run that asked it: the strings
** of its options live in `names` (alt 0, alt 1 and remark of each option,
** each NUL-terminated; an empty alt 1 or remark is none). */
typedef struct pending {
  rgi_question q;
  char *who, *prompt, *step, *where;
  rg_buf names;
  size_t *offs;             /* 3 per option: offsets into names.data */
  uint32_t *left;           /* how many of each option are left, or NULL */
} pending;

struct rg_game {
  const rgi_module *m;
  rgi_game_setup setup;
  char *title, *source;     /* copies; source: the loaded file's name */
  char *sets;               /* a copy of setup's sets (or NULL) */
  char *placeholders;       /* a copy of setup's (or NULL) */
  answer *answers;
  uint32_t nanswers, cap, used;
  /* the last play */
  rgi_vm *vm;
  rgi_play play;
  rgi_log log;
  rg_buf text;              /* the log's text */
  rgi_policy person, chooser;
  rg_game_state state;
  int failed_expects;
  rg_buf error;
  uint32_t error_pc;
  rg_status error_status;   /* RG_RUN_ERROR, RG_BAD_VALUE (an answer) or RG_NOMEM */
  int has_pending;
  pending p;
  size_t hold;              /* SIZE_MAX, or where the open secret moment begins */
  size_t last_len;          /* the text's length after the last event */
  int only;                 /* the question just answered had one option:
                            ** the log says so after its event */
  uint32_t groups;          /* hands typed at once so far (answer.group) */
  int nomem;                /* the play ran out of memory answering a question */
  rg_svg *svg;              /* setup.pictures: the last play's shapes */
};

/* ---- the pending question ------------------------------------------------------- */

/* Returns a rg_malloc'd copy of s (NULL for NULL), or NULL when out of memory. */
static char *dup(const char *s) {
  size_t n;
  char *c;
  if (!s) return NULL;
  n = strlen(s);
  if (!(c = rg_malloc(n + 1))) return NULL;
  memcpy(c, s, n + 1);
  return c;
}

/* Frees what p holds and zeroes it. */
static void pending_free(pending *p) {
  rg_free(p->who);
  rg_free(p->prompt);
  rg_free(p->step);
  rg_free(p->where);
  rg_free(p->offs);
  rg_free(p->left);
  rg_buf_free(&p->names);
  memset(p, 0, sizeof *p);
}

/* rgi_question.name of a copied question. */
static int copied_name(void *ctx, uint32_t k, int alt, char *buf, size_t size) {
  pending *p = ctx;
  const char *s = p->names.data + p->offs[3 * k + (alt ? 1 : 0)];
  if (alt && !*s) return 0;
  snprintf(buf, size, "%s", s);
  return 1;
}

/* rgi_question.remark of a copied question. */
static int copied_remark(void *ctx, uint32_t k, char *buf, size_t size) {
  pending *p = ctx;
  const char *s = p->names.data + p->offs[3 * k + 2];
  if (!*s) return 0;
  snprintf(buf, size, "%s", s);
  return 1;
}

/* rgi_question.left of a copied question. */
static uint32_t copied_left(void *ctx, uint32_t k) {
  pending *p = ctx;
  return p->left[k];
}

/* Copies q into g->p (its option names too, unless a range).  Returns 0,
** or -1 when out of memory. */
static int pending_copy(rg_game *g, const rgi_question *q) {
  pending *p = &g->p;
  char buf[1024];
  pending_free(p);
  rg_buf_init(&p->names);
  p->q = *q;
  p->who = dup(q->who);
  p->prompt = dup(q->prompt ? q->prompt : "");
  p->step = dup(q->step);
  p->where = dup(q->where);
  if ((q->who && !p->who) || !p->prompt || (q->step && !p->step) || (q->where && !p->where))
    return -1;
  p->q.who = p->who;
  p->q.prompt = p->prompt;
  p->q.step = p->step;
  p->q.where = p->where;
  p->q.rule = NULL;
  p->q.left = NULL;
  p->q.ctx = p;
  p->q.name = copied_name;
  p->q.remark = copied_remark;
  if (q->range) return 0;
  if (!(p->offs = rg_malloc(3 * (size_t)q->n * sizeof *p->offs))) return -1;
  if (q->left) {
    if (!(p->left = rg_malloc((size_t)q->n * sizeof *p->left))) return -1;
    for (uint32_t k = 0; k < q->n; k++) p->left[k] = q->left(q->ctx, k);
    p->q.left = copied_left;
  }
  for (uint32_t k = 0; k < q->n; k++)
    for (int part = 0; part < 3; part++) {
      int have = part == 2 ? q->remark && q->remark(q->ctx, k, buf, sizeof buf)
                           : q->name(q->ctx, k, part, buf, sizeof buf);
      p->offs[3 * k + (uint32_t)part] = p->names.len;
      if (have) rg_puts(&p->names.out, buf);
      rg_putc(&p->names.out, '\0');
    }
  return p->names.out.failed ? -1 : 0;
}

/* ---- answering from the list ----------------------------------------------------- */

/* The person's policy: the next answer of the list, or (past its end) the
** question becomes the pending one and the run stops. */
static int64_t from_list(void *ctx, const rgi_question *q, rg_out *err) {
  rg_game *g = ctx;
  int64_t k;
  if (q->n == 1 && !q->secret && !q->range) {
    /* One option: nothing to ask (a secret one is asked all the same: that
    ** the player had no other would tell the others about the hand). */
    g->only = 1;
    return 0;
  }
  if (g->used < g->nanswers) {
    const answer *a = &g->answers[g->used];
    k = rgi_question_match(q, a->text);
    if (k < 0) {
      if (a->line) rg_printf(err, "%s:%u: ", g->source ? g->source : "answers", a->line);
      rg_printf(err, "'%s' is not an option of: ", a->text);
      rgi_question_write(err, q);
      rg_puts(err, "; options: ");
      rgi_question_options(err, q, 40);
      return -1;
    }
    if (!a->question) {
      /* A loaded answer: its question, for the transcript. */
      rg_buf qt;
      rg_buf_init(&qt);
      rgi_question_write(&qt.out, q);
      g->answers[g->used].question = qt.out.failed ? NULL : dup(qt.data ? qt.data : "");
      rg_buf_free(&qt);
      if (!g->answers[g->used].question) {
        g->nomem = 1;
        return -1;
      }
    }
    g->used++;
    return k;
  }
  if (pending_copy(g, q) != 0) {
    g->nomem = 1;
    return -1;
  }
  g->has_pending = 1;
  return -1;
}

/* rgi_play's event hook: a secret choice opens (or continues) a moment,
** anything else closes it. */
static void on_logged(void *ctx, int secret) {
  rg_game *g = ctx;
  if (g->only) {
    g->only = 0;
    rg_puts(&g->text.out, "    (the only option: not asked)\n");
  }
  if (secret) {
    if (g->hold == SIZE_MAX) g->hold = g->last_len;
  } else {
    g->hold = SIZE_MAX;
  }
  g->last_len = g->text.len;
}

/* ---- the game ------------------------------------------------------------------- */

rg_status rgi_game_open(const rgi_module *m, const rgi_game_setup *setup, rg_game **out) {
  rg_game *g = rg_malloc(sizeof *g);
  *out = NULL;
  if (!g) return RG_NOMEM;
  memset(g, 0, sizeof *g);
  g->m = m;
  g->setup = *setup;
  g->hold = SIZE_MAX;
  g->error_pc = UINT32_MAX;   /* no rule failed (until a play says one did) */
  rg_buf_init(&g->text);
  rg_buf_init(&g->error);
  rg_buf_init(&g->p.names);
  g->title = dup(setup->title ? setup->title : "");
  g->setup.title = g->title;
  g->placeholders = setup->placeholders ? dup(setup->placeholders) : NULL;
  g->setup.placeholders = g->placeholders;
  g->sets = setup->sets && *setup->sets ? dup(setup->sets) : NULL;
  g->setup.sets = g->sets;
  if (!g->title || (setup->sets && *setup->sets && !g->sets) ||
      (setup->placeholders && !g->placeholders)) {
    rg_game_free(g);
    return RG_NOMEM;
  }
  *out = g;
  return RG_OK;
}

/* Frees the last play (its VM, log text, policies). */
static void play_free(rg_game *g) {
  rgi_vm_free(g->vm);
  g->vm = NULL;
  rgi_play_free(&g->play);
  rgi_policy_free(&g->person);
  rgi_policy_free(&g->chooser);
  rg_buf_free(&g->text);
  rg_buf_free(&g->error);
}

void rg_game_free(rg_game *g) {
  if (!g) return;
  play_free(g);
  rgi_svg_free(g->svg);
  pending_free(&g->p);
  for (uint32_t i = 0; i < g->nanswers; i++) {
    rg_free(g->answers[i].text);
    rg_free(g->answers[i].question);
  }
  rg_free(g->answers);
  rg_free(g->title);
  rg_free(g->sets);
  rg_free(g->placeholders);
  rg_free(g->source);
  rg_free(g);
}

/* Appends an answer (text[0..len), copied) with its question and line.
** Returns 0, or -1 when out of memory. */
static int add_answer(rg_game *g, const char *text, size_t len, const char *question,
                      uint32_t line) {
  answer *a;
  if (g->nanswers == g->cap) {
    answer *more = rgi_grow(g->answers, &g->cap, 64, sizeof *more);
    if (!more) return -1;
    g->answers = more;
  }
  a = &g->answers[g->nanswers];
  if (!(a->text = rg_malloc(len + 1))) return -1;
  memcpy(a->text, text, len);
  a->text[len] = '\0';
  a->question = dup(question);
  if (question && !a->question) {
    rg_free(a->text);
    return -1;
  }
  a->line = line;
  a->secret = 0;
  a->group = 0;
  g->nanswers++;
  return 0;
}

rg_status rg_game_load(rg_game *g, const char *name, const char *text, size_t len) {
  uint32_t line = 0;
  size_t at = rgi_bom_len(text, len);       /* a file's byte order mark */
  if (len && memchr(text, '\0', len)) return RG_BAD_VALUE;
  rg_free(g->source);
  if (!(g->source = dup(name ? name : "answers"))) return RG_NOMEM;
  while (at < len) {
    const char *s = text + at, *nl = memchr(s, '\n', len - at);
    size_t n = nl ? (size_t)(nl - s) : len - at;
    at += n + (nl ? 1 : 0);
    line++;
    while (n && (*s == ' ' || *s == '\t')) { s++; n--; }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    if (!n || *s == '#') continue;
    if (add_answer(g, s, n, NULL, line) != 0) return RG_NOMEM;
  }
  return RG_OK;
}

/* Sink (setup.pictures): a shape of a picture is added to the play's
** (g->svg: rg_game_play hooks this only once it has made it). */
static void on_shape(void *ctx, const rgi_module *m, uint32_t note, const rgi_value *vals,
                     uint32_t pc) {
  rg_game *g = ctx;
  uint32_t nheap;
  const rgi_value *heap = rgi_vm_heap(g->vm, &nheap);
  rgi_svg_add(g->svg, m, note, vals, heap, nheap, pc);
}

const rg_pictures *rg_game_drawn(const rg_game *g) {
  return g->svg;
}

rg_game_state rg_game_play(rg_game *g) {
  const rgi_module *m = g->m;
  const rgi_game_setup *s = &g->setup;
  rgi_value result = 0;
  rgi_sink sink;
  rg_status st;
  play_free(g);
  pending_free(&g->p);
  rg_buf_init(&g->p.names);
  g->has_pending = 0;
  g->used = 0;
  g->hold = SIZE_MAX;
  g->last_len = 0;
  g->only = 0;
  g->nomem = 0;
  g->failed_expects = 0;
  g->error_pc = UINT32_MAX;
  rg_buf_init(&g->text);
  rg_buf_init(&g->error);
  rgi_log_init(&g->log, &g->text.out, m, 0);
  rgi_policy_callback(&g->person, "ask", from_list, g);
  if (s->first) rgi_policy_first(&g->chooser);
  else rgi_policy_random(&g->chooser);      /* seeded by rgi_play_seed below */
  if (rgi_play_init(&g->play, m, &g->log, s->ask_choices ? &g->person : &g->chooser,
                   s->ask_dice ? &g->person : NULL) != 0)
    goto nomem;
  if (s->pictures) {          /* only the last play's shapes count */
    rgi_svg_free(g->svg);
    if (!(g->svg = rgi_svg_new())) goto nomem;
    g->play.shape = on_shape;
    g->play.shape_ctx = g;
  }
  g->play.logged = on_logged;
  g->play.logged_ctx = g;
  rgi_play_sink(&g->play, &sink);
  if (!(g->vm = rgi_vm_new(m, &s->limits, &sink))) goto nomem;
  rgi_play_attach(&g->play, g->vm);
  rgi_play_seed(&g->play, s->seed);
  rgi_log_run(&g->log, rgi_module_str(m, m->procs[s->proc].name), s->seed,
             s->ask_choices ? "ask" : s->first ? "first" : "random",
             s->ask_dice ? "ask" : "random");
  if (s->placeholders && *s->placeholders)
    rg_printf(&g->text.out, "placeholders: %s\n", s->placeholders);
  g->last_len = g->text.len;
  st = rgi_vm_call(g->vm, s->proc, &result, &result);   /* no arguments */
  g->failed_expects = g->play.failed;
  /* the log (or a question's copy, or an answer's) not whole: never shown as if it were */
  if (g->text.out.failed || g->nomem) goto nomem;
  if (g->has_pending) {
    g->state = RG_GAME_ASKING;
    return g->state;
  }
  if (g->play.stopped) {
    const char *why = rgi_play_error(&g->play);
    rg_puts(&g->error.out, *why ? why : "a question went unanswered");
    g->error_status = RG_BAD_VALUE;
    g->state = RG_GAME_FAILED;
    return g->state;
  }
  if (st != RG_RUN_OK) {
    const char *msg = rgi_vm_error(g->vm, &g->error_pc);
    rg_puts(&g->error.out, msg && *msg ? msg : "the run failed");
    g->error_status = RG_RUN_ERROR;
    g->state = RG_GAME_FAILED;
    return g->state;
  }
  g->hold = SIZE_MAX;
  rgi_log_summary(&g->log, m->procs[s->proc].result, result);
  if (g->text.out.failed) goto nomem;
  g->state = RG_GAME_OVER;
  return g->state;
nomem:
  rg_buf_free(&g->error);
  rg_puts(&g->error.out, "out of memory");
  g->error_status = RG_NOMEM;
  g->state = RG_GAME_FAILED;
  return g->state;
}

const char *rg_game_log(const rg_game *g, size_t *len, size_t *visible) {
  *len = g->text.len;
  *visible = g->hold < g->text.len ? g->hold : g->text.len;
  return g->text.data ? g->text.data : "";
}

const rgi_question *rgi_game_pending(const rg_game *g) {
  return g->state == RG_GAME_ASKING && g->has_pending ? &g->p.q : NULL;
}

int rg_game_asking(const rg_game *g, rg_game_question *q) {
  const rgi_question *p = rgi_game_pending(g);
  memset(q, 0, sizeof *q);
  if (!p) return 0;
  q->who = p->who;
  q->prompt = p->prompt;
  q->noptions = p->n;
  q->numeric = p->numeric;
  q->range = p->range;
  q->lo = p->lo;
  q->dice = p->dice;
  q->sides = p->sides;
  q->yesno = p->yesno;
  q->secret = p->secret;
  q->hand = p->hand;
  q->step = p->step;
  q->where = p->where;
  return 1;
}

rg_status rg_game_public(const rg_game *g, rg_out *given) {
  const rgi_question *p = rgi_game_pending(g);
  size_t len, vis;
  const char *text = rg_game_log(g, &len, &vis);
  char buf[1024];
  rgi_watch w;
  rg_out *out = rgi_watch_begin(&w, given);
  rg_write(out, text, vis);
  if (p) {
    rg_puts(out, "? ");
    rgi_question_write(out, p);
    rg_putc(out, '\n');
    if (p->secret) {
      rg_puts(out, "  (answered in secret)\n");
    } else if (p->range || p->numeric) {
      rg_puts(out, "  ");
      rgi_question_options(out, p, p->n);
      rg_putc(out, '\n');
    } else {
      for (uint32_t k = 0; k < p->n; k++) {
        p->name(p->ctx, k, 0, buf, sizeof buf);
        rg_printf(out, "  %u) %s", k + 1, buf);
        if (p->remark && p->remark(p->ctx, k, buf, sizeof buf)) rg_printf(out, "  (%s)", buf);
        rg_putc(out, '\n');
      }
    }
  }
  return rgi_watch_end(&w, RG_OK);
}

rg_status rg_game_option(const rg_game *g, uint32_t i, char *buf, size_t size) {
  const rgi_question *p = rgi_game_pending(g);
  if (size) buf[0] = '\0';
  if (!p || i >= p->n) return RG_BAD_VALUE;
  if (p->range) {
    if (p->dice <= 1) snprintf(buf, size, "%lld", (long long)(p->lo + (int64_t)i));
    return RG_OK;
  }
  p->name(p->ctx, i, 0, buf, size);
  return RG_OK;
}

int rg_game_option_remark(const rg_game *g, uint32_t i, char *buf, size_t size) {
  const rgi_question *p = rgi_game_pending(g);
  if (size) buf[0] = '\0';
  return p && i < p->n && !p->range && p->remark && p->remark(p->ctx, i, buf, size);
}

rg_status rg_game_hand_example(const rg_game *g, int listed, rg_out *out) {
  const rgi_question *p = rgi_game_pending(g);
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (!p || p->hand <= 1 || p->numeric || p->range) return RG_BAD_VALUE;
  rgi_question_hand_example(o, p, listed);
  return rgi_watch_end(&w, RG_OK);
}

rg_status rg_game_question_write(const rg_game *g, uint32_t max, rg_out *out) {
  const rgi_question *p = rgi_game_pending(g);
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (!p) return RG_BAD_VALUE;
  if (max) rgi_question_options(o, p, max);
  else rgi_question_write(o, p);
  return rgi_watch_end(&w, RG_OK);
}

int rgi_game_undo(rg_game *g) {
  uint32_t group;
  if (g->nanswers == 0) return -1;
  group = g->answers[g->nanswers - 1].group;
  do {
    g->nanswers--;
    rg_free(g->answers[g->nanswers].text);
    rg_free(g->answers[g->nanswers].question);
  } while (group && g->nanswers && g->answers[g->nanswers - 1].group == group);
  return 0;
}

/* Adds the answers of the cards ks[0..n) of a hand typed at once to the
** question q, as one group.  Returns 0, or -1 when out of memory (none
** added). */
static int add_hand(rg_game *g, const rgi_question *q, const uint32_t *ks, int n) {
  uint32_t before = g->nanswers;
  char text[1024];
  rg_buf qtext;
  rg_buf_init(&qtext);
  rgi_question_write(&qtext.out, q);
  g->groups++;
  for (int i = 0; i < n && !qtext.out.failed; i++) {
    rgi_question_answer_text(q, ks[i], text, sizeof text);
    if (add_answer(g, text, strlen(text), qtext.data, 0) != 0) break;
    g->answers[g->nanswers - 1].secret = q->secret;
    g->answers[g->nanswers - 1].group = g->groups;
  }
  rg_buf_free(&qtext);
  if (g->nanswers - before == (uint32_t)n) return 0;
  while (g->nanswers > before) {
    g->nanswers--;
    rg_free(g->answers[g->nanswers].text);
    rg_free(g->answers[g->nanswers].question);
  }
  return -1;
}

/* Returns 1 when line (trimmed) holds more than one word. */
static int several_words(const char *line) {
  while (*line == ' ' || *line == '\t') line++;
  while (*line && *line != ' ' && *line != '\t' && *line != ',') line++;
  while (*line == ' ' || *line == '\t' || *line == ',' || *line == '\r') line++;
  return *line != '\0';
}

/* Writes the words of line[0..n) without the spaces around it and, when
** lead is there, after it (a comment's "#", a note's "source"). */
static void put_trimmed(rg_out *o, const char *line, size_t n, const char *lead) {
  while (n && (*line == ' ' || *line == '\t')) { line++; n--; }
  if (lead && n >= strlen(lead) && memcmp(line, lead, strlen(lead)) == 0) {
    line += strlen(lead);
    n -= strlen(lead);
    while (n && *line == ' ') { line++; n--; }
  }
  while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r')) n--;
  rg_write(o, line, n);
}

/* Returns 1 when line[0..n), without its leading blanks, starts with w. */
static int starts(const char *line, size_t n, const char *w) {
  while (n && (*line == ' ' || *line == '\t')) { line++; n--; }
  return n >= strlen(w) && memcmp(line, w, strlen(w)) == 0;
}

/* The help for question q: its step, the sheet's words as the rule file
** gives them (the comment lines right above the rule, and the `source` and
** `assumed` notes right after it), then where and the options.  No rule
** file code: a player wants the sheet. */
static void game_help(const rg_game *g, const rgi_question *q, rg_out *o) {
  rgi_question rest = *q;
  const char *colon = q->where ? strrchr(q->where, ':') : NULL;
  if (q->step && *q->step) rg_printf(o, "step: %s\n", q->step);
  if (colon && g->setup.source_line) {
    char path[1024];
    size_t plen = (size_t)(colon - q->where), len;
    unsigned long line = strtoul(colon + 1, NULL, 10);
    uint32_t top = (uint32_t)line;
    const char *text;
    if (plen < sizeof path && line > 0 && line < UINT32_MAX) {
      memcpy(path, q->where, plen);
      path[plen] = '\0';
      /* the nearest comment above in the rule's block (a few lines up at
      ** most): the sheet's words the rule quotes */
      uint32_t below = 0;
      for (uint32_t l = top - 1; l >= 1 && top - l <= 10; l--) {
        if (!(text = g->setup.source_line(g->setup.source_ctx, path, l, &len))) break;
        if (starts(text, len, "#")) {
          below = l + 1;
          break;
        }
        if (starts(text, len, "procedure ") || starts(text, len, "step ") ||
            starts(text, len, "test ") || starts(text, len, "strategy "))
          break;
      }
      top = below;
      while (below && top > 1 &&
             (text = g->setup.source_line(g->setup.source_ctx, path, top - 1, &len)) &&
             starts(text, len, "#") && below - top < 12)
        top--;
      for (uint32_t l = top; l < below; l++) {
        text = g->setup.source_line(g->setup.source_ctx, path, l, &len);
        rg_puts(o, l == top ? "the sheet: " : "           ");
        put_trimmed(o, text, len, "#");
        rg_putc(o, '\n');
      }
      /* the notes right after the rule (and on its line: not code) */
      for (uint32_t l = (uint32_t)line + 1; l < (uint32_t)line + 8; l++) {
        const char *note;
        if (!(text = g->setup.source_line(g->setup.source_ctx, path, l, &len))) break;
        if (starts(text, len, "source ")) note = "source";
        else if (starts(text, len, "assumed ")) note = "assumed";
        else break;
        rg_printf(o, "%s: ", note);       /* "assumed: \"...\"", the word once */
        put_trimmed(o, text, len, note);
        rg_putc(o, '\n');
      }
    }
  }
  rest.step = NULL;
  rest.rule = NULL;
  rgi_question_help(o, &rest);
}

rg_reply rg_game_reply(rg_game *g, char *line, const char **arg, rg_out *why) {
  const rgi_question *q = rgi_game_pending(g);
  char text[1024];
  rg_buf qtext;
  int64_t k;
  rg_reply r;
  *arg = NULL;
  if (!q) {
    rg_puts(why, "no question is waiting");
    return RG_REPLY_BAD;
  }
  if (q->hand > 1 && several_words(line)) {
    /* A hand at once: "red red white", "2 red 1 white" (not a command:
    ** "save FILE" is two words too). */
    char word[8];
    size_t n = 0;
    const char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    while (s[n] && s[n] != ' ' && s[n] != '\t' && n + 1 < sizeof word) {
      word[n] = (char)(s[n] >= 'A' && s[n] <= 'Z' ? s[n] - 'A' + 'a' : s[n]);
      n++;
    }
    word[n] = '\0';
    if (strcmp(word, "save") != 0) {
      uint32_t *ks = rg_malloc((size_t)q->hand * sizeof *ks);
      int got;
      if (!ks) {
        rg_puts(why, "out of memory");
        return RG_REPLY_BAD;
      }
      got = rgi_question_hand(q, line, ks, why);
      if (got > 0 && add_hand(g, q, ks, got) != 0) {
        rg_puts(why, "out of memory");
        got = -1;
      }
      rg_free(ks);
      if (got < 0) rg_puts(why, " (? for help, undo to go back)");
      return got > 0 ? RG_REPLY_ANSWER : RG_REPLY_BAD;
    }
  }
  r = rgi_question_reply(q, line, &k, arg, why);
  if (r == RG_REPLY_HELP) game_help(g, q, why);
  if (r == RG_REPLY_UNDO) {
    if (g->nanswers == 0) {
      rg_puts(why, "nothing to take back: this is the first question");
      return RG_REPLY_BAD;
    }
    /* a secret answer is not shown: the other players may be looking */
    if (g->answers[g->nanswers - 1].group) {
      uint32_t n = 0, group = g->answers[g->nanswers - 1].group;
      for (uint32_t i = g->nanswers; i > 0 && g->answers[i - 1].group == group; i--) n++;
      if (g->answers[g->nanswers - 1].secret) rg_printf(why, "took back %u secret cards", n);
      else rg_printf(why, "took back %u cards", n);
    } else if (g->answers[g->nanswers - 1].secret) rg_puts(why, "took back a secret answer");
    else rg_printf(why, "took back '%s'", g->answers[g->nanswers - 1].text);
    if (g->answers[g->nanswers - 1].question)
      rg_printf(why, " (%s)", g->answers[g->nanswers - 1].question);
    rgi_game_undo(g);
  }
  if (r != RG_REPLY_ANSWER) return r;
  rgi_question_answer_text(q, k, text, sizeof text);
  rg_buf_init(&qtext);
  rgi_question_write(&qtext.out, q);
  if (qtext.out.failed || add_answer(g, text, strlen(text), qtext.data, 0) != 0) {
    rg_buf_free(&qtext);
    rg_puts(why, "out of memory");
    return RG_REPLY_BAD;
  }
  rg_buf_free(&qtext);
  g->answers[g->nanswers - 1].secret = q->secret;
  return RG_REPLY_ANSWER;
}

uint32_t rg_game_answers(const rg_game *g) {
  return g->nanswers;
}

/* The line after which a transcript's answers begin (its header ends). */
static const char answers_begin[] = "# one answer a line; go on with: regula run --resume THIS";

/* Writes path to o so that the header line holds it on one line and
** rg_transcript_rules gives it back: a control byte (newline included),
** DEL and a backslash as \xNN, the rest as it is. */
static void put_path(rg_out *o, const char *path) {
  static const char hex[] = "0123456789abcdef";
  const char *run = path;
  for (const char *p = path; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c >= 0x20 && c != 0x7f && c != '\\') continue;
    rg_write(o, run, (size_t)(p - run));
    rg_putc(o, '\\');
    rg_putc(o, 'x');
    rg_putc(o, hex[c >> 4]);
    rg_putc(o, hex[c & 15]);
    run = p + 1;
  }
  rg_puts(o, run);
}

void rg_game_transcript(const rg_game *g, rg_out *o) {
  const rgi_game_setup *s = &g->setup;
  rg_puts(o, "# regula transcript: ");
  put_path(o, g->title);
  rg_printf(o, ", %s, seed %llu, choices %s, dice %s\n",
            rgi_module_str(g->m, g->m->procs[s->proc].name), (unsigned long long)s->seed,
            s->ask_choices ? "ask" : s->first ? "first" : "random", s->ask_dice ? "ask" : "random");
  if (s->module[0]) rg_printf(o, "# module %s\n", s->module);
  for (const char *p = g->sets; p && *p;) {           /* "# set NAME=VALUE" each */
    const char *nl = strchr(p, '\n');
    rg_printf(o, "# set %.*s\n", (int)(nl - p), p);
    p = nl + 1;
  }
  rg_printf(o, "%s\n", answers_begin);
  for (uint32_t i = 0; i < g->nanswers; i++) {
    const char *q = g->answers[i].question;
    if (q) {
      /* a comment of one line, whatever the prompt holds */
      rg_puts(o, "# ");
      rg_write_shown(o, q, strlen(q), 0);
      rg_putc(o, '\n');
    }
    rg_printf(o, "%s\n", g->answers[i].text);
  }
}

const char *rg_game_error(const rg_game *g, rg_status *status, rg_place *where) {
  const char *p = "?", *msg = g->error.data ? g->error.data : "";
  uint32_t l = 0, c = 0;
  if (g->error_pc != UINT32_MAX && rgi_log_locate(g->m, g->error_pc, &p, &l, &c) != 0) {
    p = "?";
    l = c = 0;
  }
  if (status) *status = g->error_status;
  if (where) {
    where->path = p;
    where->line = l;
    where->col = c;
  }
  return msg;
}

int rg_game_failed_expects(const rg_game *g) {
  return g->failed_expects;
}

/* Returns 1 when l[0..n) starts with the word w (and a space or its end). */
static int has_word(const char *l, size_t n, const char *w, size_t *after) {
  size_t k = strlen(w);
  if (n < k || memcmp(l, w, k) != 0 || (n > k && l[k] != ' ' && l[k] != ',')) return 0;
  *after = k;
  return 1;
}

/* Reads "ask", "random" or "first" (first only when first_ok) at l[0..n):
** returns 'a', 'r', 'f', or 0. */
static int mode_word(const char *l, size_t n, int first_ok) {
  size_t k;
  if (has_word(l, n, "ask", &k)) return 'a';
  if (has_word(l, n, "random", &k)) return 'r';
  if (first_ok && has_word(l, n, "first", &k)) return 'f';
  return 0;
}

/* Returns the value of hex digit c (either case), or -1. */
static int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Reads the first header line, l[0..n) after "# regula transcript: ", at
** line 1, column col0 + 1 of l[0].  Returns 0, or -1 with info->bad set. */
static int read_title(const char *l, size_t n, size_t col0, rg_transcript_info *info) {
  const char *seed = NULL, *end = l + n, *p;
  /* "TITLE, PROC, seed N, choices X, dice Y": the last ", seed " (a path
  ** may hold one) */
  for (const char *q = l; q + 7 <= end; q++)
    if (memcmp(q, ", seed ", 7) == 0) seed = q;
  if (!seed) return 0;
  for (p = seed; p > l && p[-1] != ','; p--) {}
  if (p > l) {
    info->rules = l;
    info->rules_len = (size_t)(p - 1 - l);
    while (p < seed && *p == ' ') p++;
    info->proc = p;
    info->proc_len = (size_t)(seed - p);
  }
  p = seed + 7;
  {
    const char *digits = p;
    uint64_t v = 0;
    int ok = p < end && *p >= '0' && *p <= '9';
    for (; p < end && *p != ','; p++) {
      if (*p < '0' || *p > '9' || v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) ok = 0;
      else v = v * 10 + (uint64_t)(*p - '0');
    }
    if (!ok) {
      info->bad_line = 1;
      info->bad_col = (uint32_t)(col0 + (size_t)(digits - l) + 1);
      info->bad = "the seed is not a whole number from 0 to 18446744073709551615";
      return -1;
    }
    info->seed = v;
    info->has_seed = 1;
  }
  while (p < end) {
    size_t k;
    while (p < end && (*p == ',' || *p == ' ')) p++;
    if (has_word(p, (size_t)(end - p), "choices", &k)) {
      const char *w = p + k + 1;
      if (w > end || !(info->choices = mode_word(w, (size_t)(end - w), 1))) {
        info->bad_line = 1;
        info->bad_col = (uint32_t)(col0 + (size_t)(p - l) + 1);
        info->bad = "choices must be ask, random or first";
        return -1;
      }
    } else if (has_word(p, (size_t)(end - p), "dice", &k)) {
      const char *w = p + k + 1;
      if (w > end || !(info->dice = mode_word(w, (size_t)(end - w), 0))) {
        info->bad_line = 1;
        info->bad_col = (uint32_t)(col0 + (size_t)(p - l) + 1);
        info->bad = "dice must be ask or random";
        return -1;
      }
    }
    while (p < end && *p != ',') p++;
  }
  return 0;
}

rg_status rg_transcript_head(const char *text, size_t len, rg_transcript_info *info) {
  static const char head[] = "# regula transcript: ";
  size_t at = rgi_bom_len(text, len);
  uint32_t line = 0;
  memset(info, 0, sizeof *info);
  while (at < len && text[at] == '#') {            /* the comments at the top */
    const char *l = text + at, *nl = memchr(l, '\n', len - at);
    size_t n = nl ? (size_t)(nl - l) : len - at;
    at = nl ? (size_t)(nl - text) + 1 : len;
    line++;
    if (l[n - 1] == '\r') n--;               /* n > 0: the line starts with '#' */
    if (n == sizeof answers_begin - 1 && memcmp(l, answers_begin, n) == 0) break;
    if (line == 1 && n >= sizeof head - 1 && memcmp(l, head, sizeof head - 1) == 0) {
      if (read_title(l + sizeof head - 1, n - (sizeof head - 1), sizeof head - 1, info) != 0)
        return RG_BAD_VALUE;
    } else if (n > 9 && memcmp(l, "# module ", 9) == 0) {
      info->module = l + 9;
      info->module_len = n - 9;
    }
  }
  return RG_OK;
}

void rg_transcript_settings(const char *text, size_t len, uint64_t *seed, int *has_seed,
                            void (*each)(void *ctx, const char *set, size_t n), void *ctx) {
  rg_transcript_info info;
  size_t at = rgi_bom_len(text, len);
  *has_seed = 0;
  if (rg_transcript_head(text, len, &info) == RG_OK && info.has_seed) {
    *seed = info.seed;
    *has_seed = 1;
  }
  while (at < len && text[at] == '#') {            /* the comments at the top */
    const char *l = text + at, *nl = memchr(l, '\n', len - at);
    size_t n = nl ? (size_t)(nl - l) : len - at;
    if (n >= sizeof answers_begin - 1 && memcmp(l, answers_begin, sizeof answers_begin - 1) == 0)
      break;                                       /* the answers' comments */
    if (n > 6 && memcmp(l, "# set ", 6) == 0 && each) each(ctx, l + 6, n - 6);
    at += n + (nl ? 1 : 0);
  }
}

rg_status rg_transcript_rules(const rg_transcript_info *info, rg_out *out) {
  const char *p = info->rules, *end = p ? p + info->rules_len : NULL, *run = p;
  for (; p && p < end; p++) {
    int hi, lo;
    if (*p != '\\' || end - p < 4 || p[1] != 'x') continue;
    hi = hex_digit(p[2]);
    lo = hex_digit(p[3]);
    if (hi < 0 || lo < 0 || hi + lo == 0) continue;   /* not an escape: as it is */
    rg_write(out, run, (size_t)(p - run));
    rg_putc(out, hi * 16 + lo);
    p += 3;
    run = p + 1;
  }
  if (run) rg_write(out, run, (size_t)(end - run));
  return out->failed ? RG_IO : RG_OK;
}
