/*
** play.c: a run's sink with policies and a log (see play.h).
*/
#include "play.h"

#include "regula_front.h"
#include "strategy.h"
#include "value.h"

#include <stdio.h>
#include <string.h>

/* ---- naming options for questions ---------------------------------------------- */

/* Formats v of type t as people read it, into buf. */
static char *fmt(const rgi_play *p, rgi_type t, rgi_value v, char *buf, size_t size) {
  uint32_t nheap;
  const rgi_value *heap = rgi_vm_heap(p->vm, &nheap);
  return rgi_value_format(buf, size, p->m, heap, nheap, t, v);
}

/* rgi_question.name: option k of the current question by its display name
** (alt 0) or, for an enum member with a display name, by its code (alt 1). */
static int name_option(void *ctx, uint32_t k, int alt, char *buf, size_t size) {
  rgi_play *p = ctx;
  const rgi_module *m = p->m;
  rgi_value v = p->opts[k];
  if (alt == 0) {
    fmt(p, p->opt_type, v, buf, size);
    return 1;
  }
  /* (the module is verified: an enum type's reference is in range) */
  if (p->opt_type.kind == RG_K_ENUM && v >= 0 && (uint64_t)v < m->enums[p->opt_type.ref].count) {
    const rgi_member_info *mi = &m->members[m->enums[p->opt_type.ref].first + (uint32_t)v];
    if (!mi->display) return 0;
    snprintf(buf, size, "%s", rgi_module_str(m, mi->code));
    return 1;
  }
  return 0;
}

/* rgi_question.left: how many of option k of a deck's question are left. */
static uint32_t left_option(void *ctx, uint32_t k) {
  rgi_play *p = ctx;
  return p->lcount[k];
}

/* rgi_question.remark: how many of option k there are ("2 sides", "3 left"). */
static int remark_option(void *ctx, uint32_t k, char *buf, size_t size) {
  rgi_play *p = ctx;
  if (!p->counts) return 0;
  if (strcmp(p->count_word, "side") == 0)
    snprintf(buf, size, "%u side%s", p->counts[k], p->counts[k] == 1 ? "" : "s");
  else snprintf(buf, size, "%u %s", p->counts[k], p->count_word);
  return 1;
}

/* Returns the rule file line of instruction pc (0 when unknown). */
static uint32_t line_of(const rgi_play *p, uint32_t pc) {
  const char *path;
  uint32_t line = 0, col;
  if (rgi_log_locate(p->m, pc, &path, &line, &col) != 0) return 0;
  return line;
}

/* Fills q's step and where (the rule file and line of pc, into p->where)
** for a person's help. */
static void locate_question(rgi_play *p, rgi_question *q, uint32_t pc) {
  const char *path;
  uint32_t line = 0, col;
  q->step = p->step;
  if (rgi_log_locate(p->m, pc, &path, &line, &col) != 0) return;
  snprintf(p->where, sizeof p->where, "%s:%u", path, line);
  q->where = p->where;
}

/* Puts q to policy pol (NULL: the first option); a refusal stops the run. */
static int64_t ask(rgi_play *p, rgi_policy *pol, const rgi_question *q) {
  int64_t k = pol ? rgi_policy_choose(pol, q) : 0;
  if (k < 0 || (uint64_t)k >= q->n) {
    p->stopped = 1;
    p->stopped_by = pol;
    return -1;
  }
  return k;
}

/* Tells p's event hook that an event was logged (secret: a secret choice). */
static void logged(rgi_play *p, int secret) {
  if (p->logged) p->logged(p->logged_ctx, secret);
}

/* ---- sink callbacks --------------------------------------------------------------- */

/* The generator of p's random choices policy, or NULL. */
static rgi_rng *choices_rng(rgi_play *p) {
  return p->choices && p->choices->kind == RG_POLICY_RANDOM ? &p->choices->rng : NULL;
}

/* Sink: a step begins (and, with rgi_play_seed, draws from its streams). */
static void on_step(void *ctx, const rgi_module *m, uint32_t name, uint32_t pc) {
  rgi_play *p = ctx;
  p->step = rgi_module_str(m, name);
  if (p->seeded)
    rgi_seed_step(p->vm, choices_rng(p), p->seed, rgi_module_str(m, name),
                 rgi_seed_steps_enter(&p->steps, name));
  if (p->log) rgi_log_step(p->log, name, pc);
  logged(p, 0);
}

/* A roll or draw at pc was reported: the pending label, if new, was its
** (a hand of cards drawn at once shares it; a roll or draw elsewhere after
** it does not). */
static void label_used(rgi_play *p, uint32_t pc) {
  uint32_t site, gen;
  rgi_value who;
  if (p->vm && rgi_vm_label(p->vm, &site, &who, &gen) && gen != p->label_gen_used) {
    p->label_gen_used = gen;
    p->label_pc_used = pc;
  }
}

/* Sink: dice rolled. */
static void on_roll(void *ctx, const rgi_module *m, int32_t die, uint32_t sides,
                    const rgi_value *results, uint32_t n, uint32_t pc) {
  rgi_play *p = ctx;
  (void)m;
  if (p->log) rgi_log_roll(p->log, die, sides, results, n, pc);
  label_used(p, pc);
  logged(p, 0);
}

/* Sink: a card drawn. */
static void on_draw(void *ctx, const rgi_module *m, uint32_t deck, rgi_value card, uint32_t pc) {
  rgi_play *p = ctx;
  (void)m;
  if (p->log) rgi_log_draw(p->log, deck, card, pc);
  label_used(p, pc);
  logged(p, 0);
}

/* Sink: a note. */
static void on_note(void *ctx, const rgi_module *m, uint32_t note, const rgi_value *vals,
                    uint32_t pc) {
  rgi_play *p = ctx;
  (void)m;
  if (p->log) rgi_log_note(p->log, note, vals, pc);
  logged(p, 0);
}

/* Sink: a failed expect, counted and logged. */
static void on_expect_fail(void *ctx, const rgi_module *m, uint32_t expect, rgi_value actual,
                           rgi_value expected, uint32_t pc) {
  rgi_play *p = ctx;
  (void)m;
  p->failed++;
  if (p->log) rgi_log_expect_fail(p->log, expect, actual, expected, pc, p->vm ? rgi_vm_frame(p->vm) : NULL);
  logged(p, 0);
}

/* Sink: a shape, passed on. */
static void on_shape(void *ctx, const rgi_module *m, uint32_t note, const rgi_value *vals,
                     uint32_t pc) {
  rgi_play *p = ctx;
  if (p->shape) p->shape(p->shape_ctx, m, note, vals, pc);
}

/* Sink: a choice: the policy picks, then it is logged.  Returns the index,
** or -1 (unanswered). */
static int64_t on_choose(void *ctx, const rgi_module *m, uint32_t choice, rgi_value chooser,
                         const rgi_value *options, uint32_t n, uint32_t pc) {
  rgi_play *p = ctx;
  const rgi_choice *c = &m->choices[choice];
  char who[1024];
  rgi_question q = { 0 };
  int64_t k;
  p->opt_type = c->option;
  p->opts = options;
  p->counts = NULL;
  q.who = fmt(p, c->chooser, chooser, who, sizeof who);
  q.prompt = rgi_module_str(m, c->prompt);
  q.n = n;
  q.numeric = c->option.kind == RG_K_INT;
  q.range = c->kind == RG_OPT_RANGE;
  q.lo = options[0];
  q.name = name_option;
  q.ctx = p;
  q.secret = (c->flags & RG_CHOICE_SECRET) != 0;
  q.yesno = c->option.kind == RG_K_BOOL && n == 2 && options[0] == 0 && options[1] == 1;
  locate_question(p, &q, pc);
  k = -1;
  if (p->strategy) {
    uint32_t nheap;
    const rgi_value *heap = rgi_vm_heap(p->vm, &nheap);
    k = rgi_strategy_pick(m, p->strategy - 1, choice, chooser, options, n, heap, nheap,
                         choices_rng(p));
  }
  if (k < 0) k = ask(p, p->choices, &q);
  if (k >= 0 && p->log) rgi_log_choice(p->log, choice, chooser, options, n, (uint32_t)k, pc);
  if (k >= 0) logged(p, q.secret);
  return k;
}

/* Sorts vals[0..n) ascending, with their counts and first indexes. */
static void sort_distinct(rgi_value *vals, uint32_t *counts, uint32_t *first, uint32_t n) {
  for (uint32_t i = 1; i < n; i++)
    for (uint32_t j = i; j > 0 && vals[j - 1] > vals[j]; j--) {
      rgi_value tv = vals[j];
      uint32_t tc = counts[j], tf = first[j];
      vals[j] = vals[j - 1];
      counts[j] = counts[j - 1];
      first[j] = first[j - 1];
      vals[j - 1] = tv;
      counts[j - 1] = tc;
      first[j - 1] = tf;
    }
}

/* Collects the distinct values of vals[0..n) into p's scratch, with how
** many of each and where each first occurs.  Returns how many. */
static uint32_t collect_distinct(rgi_play *p, const rgi_value *vals, uint32_t n) {
  uint32_t d = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = 0;
    while (i < d && p->distinct[i] != vals[k]) i++;
    if (i == d) {
      p->distinct[d] = vals[k];
      p->dcount[d] = 0;
      p->dfirst[d] = k;
      d++;
    }
    p->dcount[i]++;
  }
  return d;
}

/* Writes into prompt the question of a roll or draw: what (e.g. "roll
** YELLOW") and where, after the label the rule file gave it (`roll(p,
** "commander die", YELLOW)`: "commander die: roll YELLOW (line 639)"), whose
** who (in whobuf) becomes q's. */
static void chance_prompt(rgi_play *p, rgi_question *q, const char *what, uint32_t pc,
                          char *prompt, size_t size, char *whobuf, size_t wsize) {
  const rgi_module *m = p->m;
  uint32_t site;
  rgi_value who;
  uint32_t gen;
  if (p->vm && rgi_vm_label(p->vm, &site, &who, &gen) && site < m->nchoices &&
      (gen != p->label_gen_used || pc == p->label_pc_used)) {
    q->who = fmt(p, m->choices[site].chooser, who, whobuf, wsize);
    snprintf(prompt, size, "%s: %s (line %u)", rgi_module_str(m, m->choices[site].prompt), what,
             line_of(p, pc));
  } else {
    snprintf(prompt, size, "%s (line %u)", what, line_of(p, pc));
  }
}

/* Sink (a dice policy): a die or card read by the dice policy.  Plain die:
** "roll dN (line L)" over 1..N; custom die: its distinct faces; deck: the
** distinct cards left, in order, with how many are left.  Returns the
** outcome's index, or -1 (unanswered). */
static int64_t on_chance(void *ctx, const rgi_module *m, int what, uint32_t index, uint64_t n,
                         uint32_t pc) {
  rgi_play *p = ctx;
  char prompt[512], act[256], who[256];
  rgi_question q = { 0 };
  int64_t k;
  uint32_t d;
  q.ctx = p;
  q.name = name_option;
  q.remark = remark_option;
  locate_question(p, &q, pc);
  if (what == 'd') {
    snprintf(act, sizeof act, "roll d%u", index);
    chance_prompt(p, &q, act, pc, prompt, sizeof prompt, who, sizeof who);
    q.prompt = prompt;
    q.n = (uint32_t)n;
    q.numeric = q.range = 1;
    q.lo = 1;
    return ask(p, p->dice, &q);
  }
  if (what == 'f' && index < m->ndice) {
    const rgi_dice *die = &m->dice[index];
    d = collect_distinct(p, m->faces + die->first, die->count);
    p->opt_type = die->face;
    p->count_word = "side";
    snprintf(act, sizeof act, "roll %s", rgi_module_str(m, die->name));
    chance_prompt(p, &q, act, pc, prompt, sizeof prompt, who, sizeof who);
  } else if (what == 'c' && index < m->ndecks) {
    const rgi_deck *deck = &m->decks[index];
    uint32_t left = 0, hand = 1 + (p->vm ? rgi_vm_draws_after(p->vm) : 0);
    const rgi_value *cards = rgi_vm_deck_left(p->vm, index, &left);
    q.secret = (deck->flags & RG_DECK_SECRET) != 0;
    /* A secret deck offers every card it holds when full: the cards left
    ** would show what the others drew. */
    d = q.secret ? collect_distinct(p, m->cards + deck->first, deck->count)
                 : collect_distinct(p, cards, left);
    sort_distinct(p->distinct, p->dcount, p->dfirst, d);
    for (uint32_t i = 0; i < d; i++) p->lcount[i] = 0;
    for (uint32_t j = 0; j < left; j++) {
      uint32_t i = 0;
      while (i < d && p->distinct[i] != cards[j]) i++;
      if (i == d) continue;             /* not in the full deck: cannot be */
      if (p->lcount[i]++ == 0) p->lfirst[i] = j;
    }
    p->opt_type = deck->card;
    p->count_word = "left";
    q.left = left_option;
    if (q.secret) q.remark = NULL;
    q.hand = hand;
    if (hand > 1)
      snprintf(act, sizeof act, "draw %u from %s", hand, rgi_module_str(m, deck->name));
    else
      snprintf(act, sizeof act, "draw from %s", rgi_module_str(m, deck->name));
    chance_prompt(p, &q, act, pc, prompt, sizeof prompt, who, sizeof who);
    p->opts = p->distinct;
    p->counts = p->dcount;
    q.prompt = prompt;
    q.n = d;
    q.numeric = p->opt_type.kind == RG_K_INT;
    k = ask(p, p->dice, &q);
    p->counts = NULL;
    if (k >= 0 && p->lcount[k] == 0) {   /* a policy that ignored q.left */
      p->stopped = 1;
      return -1;
    }
    return k < 0 ? -1 : (int64_t)p->lfirst[k];
  } else {
    p->stopped = 1;
    return -1;
  }
  p->opts = p->distinct;
  p->counts = p->dcount;
  q.prompt = prompt;
  q.n = d;
  q.numeric = p->opt_type.kind == RG_K_INT;
  k = ask(p, p->dice, &q);
  p->counts = NULL;
  return k < 0 ? -1 : (int64_t)p->dfirst[k];
}

/* The most dice one question asks together (see on_dice). */
#define DICE_AT_ONCE 6

/* Sink (a dice policy): n plain dice rolled at once, asked as one question
** "roll NdS (line L)" taking n numbers; more than DICE_AT_ONCE dice (or too
** many outcomes) are asked one at a time.  Returns 0, or -1 (unanswered). */
static int on_dice(void *ctx, const rgi_module *m, uint32_t sides, uint32_t n, rgi_value *out,
                   uint32_t pc) {
  rgi_play *p = ctx;
  char prompt[512], what[64], who[256];
  rgi_question q = { 0 };
  uint64_t outcomes = 1;
  int64_t k;
  for (uint32_t i = 0; i < n && outcomes <= UINT32_MAX; i++) outcomes *= sides;
  if (n > DICE_AT_ONCE || outcomes > UINT32_MAX) {
    for (uint32_t i = 0; i < n; i++) {
      if ((k = on_chance(ctx, m, 'd', sides, sides, pc)) < 0) return -1;
      out[i] = k + 1;
    }
    return 0;
  }
  locate_question(p, &q, pc);
  snprintf(what, sizeof what, "roll %ud%u", n, sides);
  chance_prompt(p, &q, what, pc, prompt, sizeof prompt, who, sizeof who);
  q.prompt = prompt;
  q.ctx = p;
  q.name = name_option;
  q.n = (uint32_t)outcomes;
  q.numeric = q.range = 1;
  q.lo = 1;
  q.dice = n;
  q.sides = sides;
  if ((k = ask(p, p->dice, &q)) < 0) return -1;
  for (uint32_t i = 0; i < n; i++) {
    out[i] = (rgi_value)((uint64_t)k % sides) + 1;
    k /= sides;
  }
  return 0;
}

/* ---- the play ---------------------------------------------------------------------- */

int rgi_play_init(rgi_play *p, const rgi_module *m, rgi_log *log, rgi_policy *choices,
                 rgi_policy *dice) {
  uint32_t most = 1;
  memset(p, 0, sizeof *p);
  p->m = m;
  p->log = log;
  p->choices = choices;
  p->dice = dice;
  if (!dice) return 0;
  for (uint32_t i = 0; i < m->ndice; i++) if (m->dice[i].count > most) most = m->dice[i].count;
  for (uint32_t i = 0; i < m->ndecks; i++) if (m->decks[i].count > most) most = m->decks[i].count;
  p->distinct = rg_malloc(most * sizeof *p->distinct);
  p->dcount = rg_malloc(most * sizeof *p->dcount);
  p->dfirst = rg_malloc(most * sizeof *p->dfirst);
  p->lcount = rg_malloc(most * sizeof *p->lcount);
  p->lfirst = rg_malloc(most * sizeof *p->lfirst);
  return p->distinct && p->dcount && p->dfirst && p->lcount && p->lfirst ? 0 : -1;
}

void rgi_play_sink(rgi_play *p, rgi_sink *sink) {
  memset(sink, 0, sizeof *sink);
  sink->ctx = p;
  sink->step = on_step;
  sink->roll = on_roll;
  sink->draw = on_draw;
  sink->note = on_note;
  sink->expect_fail = on_expect_fail;
  sink->choose = on_choose;
  sink->shape = p->shape ? on_shape : NULL;
  sink->chance = p->dice ? on_chance : NULL;
  sink->dice = p->dice ? on_dice : NULL;
}

void rgi_play_attach(rgi_play *p, rgi_vm *vm) {
  p->label_gen_used = p->label_pc_used = 0;   /* a new VM counts its labels anew */
  p->vm = vm;
  if (p->log) p->log->view = rgi_vm_view(vm);
}

void rgi_play_seed(rgi_play *p, uint64_t seed) {
  p->seeded = 1;
  p->seed = seed;
  p->steps.n = 0;
  rgi_seed_step(p->vm, choices_rng(p), seed, "", 0);
}

void rgi_play_seed_call(rgi_play *p) {
  p->seeded = 0;
  p->steps.n = 0;
  rgi_seed_test(p->vm);
  rgi_seed_step(NULL, choices_rng(p), 0, "", 0);
}

void rgi_play_free(rgi_play *p) {
  rg_free(p->distinct);
  rg_free(p->dcount);
  rg_free(p->dfirst);
  rg_free(p->lcount);
  rg_free(p->lfirst);
  p->distinct = NULL;
  p->dcount = p->dfirst = p->lcount = p->lfirst = NULL;
}

const char *rgi_play_error(const rgi_play *p) {
  return p->stopped_by ? rgi_policy_error(p->stopped_by) : "";
}
