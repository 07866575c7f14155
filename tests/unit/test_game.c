/*
** test_game.c: games at the table (regula.h: rgi_game_*) through the public
** interface only, as a page would play one.  Worked out by hand from the
** rule text below:
**
**   - the first question is the 2d6 roll, one question taking two numbers
**     ("4 3" gives the log line "roll 2d6: 4 + 3 = 7");
**   - a yes/no choice answers to "y"; a member by a prefix of its display
**     name ("co" is Coastal), not by an ambiguous one ("s": Standard and
**     Swamp both start with it);
**   - undo takes the last answer back and the same question is asked again;
**   - the transcript, loaded into a new game, replays it to the same log,
**     byte for byte; a transcript answer that fits no option fails the game
**     naming its line.
*/
#include "regula_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include "check.h"

static const char text[] =
  "ruleset \"game\"\n"
  "enum side { A \"Alpha\", B \"Bravo\" }\n"
  "enum ground { St \"Standard\", C \"Coastal\", W \"Swamp\" }\n"
  "procedure main() -> ground {\n"
  "  step \"Roll\" { let r = roll 2d6  note \"total\", r }\n"
  "  let g = choose(A, \"ground?\", {St, C, W})\n"
  "  let ok = choose(B, \"agree?\", [false, true])\n"
  "  note \"agreed\", ok\n"
  "  return g\n"
  "}\n";

/* An rg_out writing into a fixed buffer. */
typedef struct fixed {
  char buf[4096];
  size_t len;
} fixed;

static int fixed_write(void *ctx, const char *s, size_t n) {
  fixed *f = ctx;
  if (f->len + n >= sizeof f->buf) return -1;
  memcpy(f->buf + f->len, s, n);
  f->len += n;
  f->buf[f->len] = '\0';
  return 0;
}

/* An rg_out that refuses every write. */
static int refuse_write(void *ctx, const char *s, size_t n) {
  (void)ctx;
  (void)s;
  (void)n;
  return -1;
}

/* Replies line to g, keeping what it writes in *f. */
static rg_reply tell(rg_game *g, const char *line, fixed *f) {
  char copy[128];
  const char *arg;
  rg_out o = { fixed_write, f, 0 };
  f->len = 0;
  f->buf[0] = '\0';
  snprintf(copy, sizeof copy, "%s", line);
  return rg_game_reply(g, copy, &arg, &o);
}

/* rg_transcript_settings's each: appends set[0..n) and '|' to the rg_buf ctx. */
static void keep_set(void *ctx, const char *set, size_t n) {
  rg_buf *b = ctx;
  rg_printf(&b->out, "%.*s|", (int)n, set);
}

/* The out-of-memory loop's step: whether g plays to state `want`; when it
** does not, *bad counts it unless the game failed for want of memory. */
static int plays_to(rg_game *g, rg_game_state want, int *bad) {
  rg_status st = RG_OK;
  if (rg_game_play(g) == want) return 1;
  rg_game_error(g, &st, NULL);
  *bad += st != RG_NOMEM;
  return 0;
}

/* The out-of-memory loop's step: whether g takes line as an answer (what
** it says goes to w, emptied first); when it does not, *bad counts it
** unless it was refused for want of memory. */
static int answers(rg_game *g, const char *line, rg_buf *w, int *bad) {
  char ln[32];
  const char *a;
  rg_reply rr;
  rg_buf_free(w);
  snprintf(ln, sizeof ln, "%s", line);
  rr = rg_game_reply(g, ln, &a, &w->out);
  if (rr == RG_REPLY_ANSWER) return 1;
  *bad += rr != RG_REPLY_BAD || !w->data || !strstr(w->data, "out of memory");
  return 0;
}

/* Plays a game of rules r (seed, the dice asked when ask_dice) answering
** each question with a pseudo-random option (from *x, a xorshift state):
** by its number, or, where numbers do not name options (a yes/no, a
** number, dice), by the option's text.  Then loads its transcript into a
** new game and plays that: returns 1 when both end and their logs are the
** same byte for byte, 0 (saying why) otherwise.  tr (emptied first) keeps
** the transcript. */
/* Adds the path of every .rules file under dir (its folders walked,
** entries sorted: the same order on every machine) to files[n..max), each
** malloc'd (the caller frees them).  Returns the new count. */
static int rule_files(const char *dir, char **files, int n, int max) {
  struct dirent **ents;
  int k = scandir(dir, &ents, NULL, alphasort);
  for (int i = 0; i < k; i++) {
    char path[1024];
    struct stat sb;
    size_t len = strlen(ents[i]->d_name);
    snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
    if (ents[i]->d_name[0] != '.' && stat(path, &sb) == 0) {
      if (S_ISDIR(sb.st_mode)) n = rule_files(path, files, n, max);
      else if (len > 6 && strcmp(ents[i]->d_name + len - 6, ".rules") == 0 && n < max &&
               (files[n] = strdup(path)))
        n++;
    }
    free(ents[i]);
  }
  if (k >= 0) free(ents);
  return n;
}

static int replays(const rg_rules *r, const char *name, uint64_t seed, int ask_dice, uint64_t *x,
                   rg_buf *tr) {
  rg_game_options o = { .size = sizeof o, .seed = seed, .ask_choices = 1, .ask_dice = ask_dice,
                        .title = name };
  rg_game *g = NULL, *h = NULL;
  rg_game_question q;
  rg_game_state st = RG_GAME_FAILED;
  char line[1100], why[256];
  const char *arg, *a, *b;
  size_t alen = 0, blen = 0, vis;
  int same = 0;
  rg_buf_free(tr);
  if (rg_game_new(r, &o, &g) != RG_OK) {
    printf("  %s: no game\n", name);
    return 0;
  }
  for (int asked = 0; asked < 5000 && (st = rg_game_play(g)) == RG_GAME_ASKING; asked++) {
    rg_reply rr = RG_REPLY_BAD;
    if (!rg_game_asking(g, &q) || !q.noptions) break;
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    for (uint32_t t = 0; t < q.noptions && rr != RG_REPLY_ANSWER; t++) {
      uint32_t k = (uint32_t)((*x + t) % q.noptions);
      fixed f = { .len = 0 };
      rg_out fo = { fixed_write, &f, 0 };
      if (q.dice > 1) {                       /* "3 5": k's dice, the first lowest */
        size_t at = 0;
        for (uint32_t d = 0, rest = k; d < q.dice && at < sizeof line - 24; d++, rest /= q.sides)
          at += (size_t)snprintf(line + at, sizeof line - at, "%s%lld", d ? " " : "",
                                 (long long)(q.lo + (int64_t)(rest % q.sides)));
      } else if (q.yesno) {
        snprintf(line, sizeof line, "%s", k ? "y" : "n");
      } else if (q.range || q.numeric) {
        rg_game_option(g, k, line, sizeof line);
      } else {
        snprintf(line, sizeof line, "%u", k + 1);
      }
      rr = rg_game_reply(g, line, &arg, &fo);
      snprintf(why, sizeof why, "%.200s", f.buf);
    }
    if (rr != RG_REPLY_ANSWER) {
      printf("  %s: no option answers: %s\n", name, why);
      break;
    }
  }
  rg_game_transcript(g, &tr->out);
  if (st != RG_GAME_OVER || !tr->data) {
    rg_status es = RG_OK;
    printf("  %s seed %llu: the game did not end (%d: %s)\n", name, (unsigned long long)seed,
           (int)st, rg_game_error(g, &es, NULL));
  } else if (rg_game_new(r, &o, &h) == RG_OK && rg_game_load(h, name, tr->data, tr->len) == RG_OK &&
             rg_game_play(h) == RG_GAME_OVER) {
    a = rg_game_log(g, &alen, &vis);
    b = rg_game_log(h, &blen, &vis);
    same = alen == blen && memcmp(a, b, alen) == 0;
    if (!same) printf("  %s seed %llu: another log:\n%s\n--\n%s\n", name, (unsigned long long)seed, a, b);
  } else {
    printf("  %s seed %llu: the transcript does not replay: %s\n%s\n", name,
           (unsigned long long)seed, h ? rg_game_error(h, NULL, NULL) : "", tr->data);
  }
  rg_game_free(h);
  rg_game_free(g);
  return same;
}

int main(void) {
  rg_rules *r = NULL;
  rg_game *g = NULL, *h = NULL;
  rg_game_options opt = { .size = sizeof opt, .seed = 1, .ask_choices = 1, .ask_dice = 1, .title = "game" };
  rg_game_question q;
  fixed why, tr;
  char name[64];
  size_t len, vis;
  const char *log;
  rg_out tro = { fixed_write, &tr, 0 };

  CHECK(rg_rules_compile("game.rules", text, sizeof text - 1, NULL, &r) == RG_OK, "compiles");
  if (!r) return 1;
  CHECK(rg_game_new(r, &opt, &g) == RG_OK, "a new game");

  CHECK(rg_game_play(g) == RG_GAME_ASKING, "asks first");
  CHECK(rg_game_asking(g, &q) && q.dice == 2 && q.sides == 6 && q.range && q.lo == 1,
        "2d6 is one question of two dice");
  CHECK(strcmp(q.prompt, "roll 2d6 (line 5)") == 0, "its prompt: %s", q.prompt);
  CHECK(q.step && strcmp(q.step, "Roll") == 0, "asked in step Roll");
  CHECK(tell(g, "7", &why) == RG_REPLY_BAD, "one number is not two dice");
  CHECK(tell(g, "4 3", &why) == RG_REPLY_ANSWER, "4 3 answers");

  CHECK(rg_game_play(g) == RG_GAME_ASKING, "asks the ground");
  log = rg_game_log(g, &len, &vis);
  CHECK(strstr(log, "roll 2d6: 4 + 3 = 7") != NULL, "the log has the dice: %s", log);
  CHECK(rg_game_asking(g, &q) && q.noptions == 3 && strcmp(q.who, "Alpha") == 0, "Alpha asked");
  CHECK(rg_game_option(g, 1, name, sizeof name) == RG_OK && strcmp(name, "Coastal") == 0,
        "option 2 is Coastal: %s", name);
  CHECK(tell(g, "s", &why) == RG_REPLY_BAD && strstr(why.buf, "could be Standard or Swamp"),
        "'s' is ambiguous: %s", why.buf);
  CHECK(tell(g, "help", &why) == RG_REPLY_HELP && strstr(why.buf, "  2) Coastal\n"),
        "help lists the options: %s", why.buf);
  tr.len = 0;
  tr.buf[0] = '\0';
  CHECK(rg_game_question_write(g, 0, &tro) == RG_OK && strcmp(tr.buf, "Alpha, ground?") == 0,
        "the question as shown: %s", tr.buf);
  tr.len = 0;
  CHECK(rg_game_question_write(g, 2, &tro) == RG_OK && strcmp(tr.buf, "Standard, Coastal, ...") == 0,
        "its options, two named: %s", tr.buf);
  CHECK(rg_game_option_remark(g, 0, name, sizeof name) == 0 && name[0] == '\0',
        "a member has no remark");
  CHECK(rg_game_answers(g) == 1, "one answer so far");
  CHECK(tell(g, "co", &why) == RG_REPLY_ANSWER, "'co' is Coastal");

  CHECK(rg_game_play(g) == RG_GAME_ASKING && rg_game_asking(g, &q) && q.yesno,
        "a yes/no question");
  CHECK(tell(g, "undo", &why) == RG_REPLY_UNDO && strstr(why.buf, "took back 'Coastal'"),
        "undo takes Coastal back: %s", why.buf);
  CHECK(rg_game_play(g) == RG_GAME_ASKING && rg_game_asking(g, &q) && strcmp(q.prompt, "ground?") == 0,
        "the ground is asked again");
  CHECK(tell(g, "SWAMP", &why) == RG_REPLY_ANSWER, "SWAMP in capitals");
  CHECK(rg_game_play(g) == RG_GAME_ASKING, "asks agree?");
  CHECK(tell(g, "y", &why) == RG_REPLY_ANSWER, "y is yes");
  CHECK(rg_game_play(g) == RG_GAME_OVER, "over");
  log = rg_game_log(g, &len, &vis);
  CHECK(vis == len && strstr(log, "note agreed: true") && strstr(log, "Swamp"),
        "the whole log shows: %s", log);

  /* The transcript replays the same game. */
  tr.len = 0;
  rg_game_transcript(g, &tro);
  CHECK(strstr(tr.buf, "\n4 3\n") && strstr(tr.buf, "\nSwamp\n") && strstr(tr.buf, "\ntrue\n") &&
        !strstr(tr.buf, "Coastal"), "the transcript: %s", tr.buf);
  CHECK(rg_game_new(r, &opt, &h) == RG_OK, "a second game");
  CHECK(rg_game_load(h, "t.txt", tr.buf, tr.len) == RG_OK, "loads the transcript");
  CHECK(rg_game_play(h) == RG_GAME_OVER, "the transcript plays it to the end");
  {
    size_t len2, vis2;
    const char *log2 = rg_game_log(h, &len2, &vis2);
    CHECK(len2 == len && memcmp(log, log2, len) == 0, "byte for byte the same log");
  }
  rg_game_free(h);

  /* A transcript of another game. */
  CHECK(rg_game_new(r, &opt, &h) == RG_OK, "a third game");
  CHECK(rg_game_load(h, "bad.txt", "# x\n4 3\nForest\n", 15) == RG_OK, "loads");
  CHECK(rg_game_play(h) == RG_GAME_FAILED, "fails");
  {
    rg_status st = RG_OK;
    rg_place at = { NULL, 9, 9 };
    rg_game_error(h, &st, &at);
    CHECK(st == RG_BAD_VALUE && strcmp(at.path, "?") == 0 && at.line == 0 && at.col == 0,
          "an answer that fits no option is no rule's failure");
  }
  CHECK(strcmp(rg_game_error(h, NULL, NULL),
               "bad.txt:3: 'Forest' is not an option of: Alpha, ground?; options: Standard, "
               "Coastal, Swamp") == 0, "names the line: %s", rg_game_error(h, NULL, NULL));
  rg_game_free(h);

  rg_game_free(g);
  rg_rules_free(r);

  /* A game's log names the placeholder data it rests on, as `regula run`:
  ** the die the rule file assumes and rolls, not the deck it never draws. */
  {
    static const char ph[] =
      "ruleset \"placeholders\"\n"
      "enum mark { hit, miss }\n"
      "dice HIT: mark = { hit: 1, miss: 1 } assumed \"faces not printed\"\n"
      "deck BAG: mark = { hit: 1 } assumed \"not printed either\"\n"
      "procedure main() -> mark { return roll HIT }\n";
    rg_game_options po = { .size = sizeof po, .seed = 1, .policy = { .kind = RG_CHOOSE_FIRST } };
    rg_rules *pr = NULL;
    rg_game *pg = NULL;
    CHECK(rg_rules_compile("ph.rules", ph, sizeof ph - 1, NULL, &pr) == RG_OK, "placeholders compile");
    CHECK(pr && rg_game_new(pr, &po, &pg) == RG_OK && rg_game_play(pg) == RG_GAME_OVER,
          "a game without people is over at once");
    log = pg ? rg_game_log(pg, &len, &vis) : "";
    CHECK(strstr(log, "\nplaceholders: dice HIT (assumed)\n") != NULL && !strstr(log, "BAG"),
          "the log names the assumed die only: %s", log);
    rg_game_free(pg);
    rg_rules_free(pr);
  }

  /* Game options: pictures of the last play only, a rule's failure with
  ** its place, the step limit, and a card's remark (how many are left:
  ** two RED and one BLACK in the bag, so RED is "2 left"). */
  {
    static const char pic[] =
      "ruleset \"pictures\"\n"
      "enum colour { BLACK, RED }\n"
      "deck bag: colour = { BLACK: 1, RED: 2 }\n"
      "procedure main() -> int {\n"
      "  canvas(\"board\", 20, 10, \"the board\")\n"
      "  let c = draw bag\n"
      "  let n = 0\n"
      "  while n < 50 { n = n + 1 }\n"
      "  return 10 / (n - 50)\n"
      "}\n";
    rg_game_options po = { .size = sizeof po, .seed = 1, .ask_dice = 1, .pictures = 1 };
    rg_rules *pr = NULL;
    rg_game *pg = NULL;
    rg_status st = RG_OK;
    rg_place at = { NULL, 0, 0 };
    CHECK(rg_rules_compile("pic.rules", pic, sizeof pic - 1, NULL, &pr) == RG_OK, "pictures compile");
    CHECK(pr && rg_game_new(pr, &po, &pg) == RG_OK && rg_game_play(pg) == RG_GAME_ASKING,
          "the card is asked");
    CHECK(pg && rg_game_option(pg, 1, name, sizeof name) == RG_OK && strcmp(name, "RED") == 0 &&
          rg_game_option_remark(pg, 1, name, sizeof name) == 1 && strcmp(name, "2 left") == 0,
          "RED: %s", name);
    CHECK(pg && rg_pictures_count(rg_game_drawn(pg)) == 1 &&
          strcmp(rg_pictures_name(rg_game_drawn(pg), 0), "board") == 0, "the board is drawn");
    CHECK(pg && tell(pg, "RED", &why) == RG_REPLY_ANSWER && rg_game_play(pg) == RG_GAME_FAILED,
          "division by zero");
    CHECK(pg && strcmp(rg_game_error(pg, &st, &at), "division by zero") == 0 &&
          st == RG_RUN_ERROR && strcmp(at.path, "pic.rules") == 0 && at.line == 9,
          "the failure's place: %s:%u", at.path ? at.path : "", at.line);
    CHECK(pg && rg_pictures_count(rg_game_drawn(pg)) == 1, "the last play's board only");
    rg_game_free(pg);
    pg = NULL;
    po.limits.max_steps = 10;
    CHECK(rg_game_new(pr, &po, &pg) == RG_OK, "a game of at most 10 steps");
    rg_game_load(pg, "a.txt", "RED\n", 4);
    CHECK(rg_game_play(pg) == RG_GAME_FAILED &&
          strstr(rg_game_error(pg, &st, NULL), "limit") && st == RG_RUN_ERROR,
          "the step limit: %s", rg_game_error(pg, NULL, NULL));
    rg_game_free(pg);
    rg_rules_free(pr);
  }
  /* Taking back a secret answer does not show it (the other players may be
  ** looking at the screen); taking back an open one names it. */
  {
    static const char sec[] =
      "ruleset \"secret\"\n"
      "enum side { A, B }\n"
      "enum colour { BLACK, RED }\n"
      "procedure main() -> colour {\n"
      "  let c = choose secret(A, \"card?\", {BLACK, RED})\n"
      "  let d = choose(B, \"open?\", {BLACK, RED})\n"
      "  return c\n"
      "}\n";
    rg_game_options so = { .size = sizeof so, .ask_choices = 1 };
    rg_rules *sr = NULL;
    rg_game *sg = NULL;
    CHECK(rg_rules_compile("sec.rules", sec, sizeof sec - 1, NULL, &sr) == RG_OK &&
          rg_game_new(sr, &so, &sg) == RG_OK && rg_game_play(sg) == RG_GAME_ASKING &&
          rg_game_asking(sg, &q) && q.secret, "a secret question");
    CHECK(sg && tell(sg, "RED", &why) == RG_REPLY_ANSWER && rg_game_play(sg) == RG_GAME_ASKING &&
          tell(sg, "undo", &why) == RG_REPLY_UNDO && strcmp(why.buf, "took back a secret answer (A, card?)") == 0,
          "its answer is not shown: %s", why.buf);
    CHECK(sg && rg_game_play(sg) == RG_GAME_ASKING && tell(sg, "BLACK", &why) == RG_REPLY_ANSWER &&
          rg_game_play(sg) == RG_GAME_ASKING && tell(sg, "RED", &why) == RG_REPLY_ANSWER &&
          tell(sg, "undo", &why) == RG_REPLY_UNDO &&
          strcmp(why.buf, "took back 'RED' (B, open?)") == 0, "an open one is: %s", why.buf);
    rg_game_free(sg);
    rg_rules_free(sr);
  }
  /* The secrecy promise at the library's level (rg_game_public), as the
  ** page will test it: A's two cards from a secret bag of three colours,
  ** three of each, are any of 9 hands; B then draws BLACK and WHITE (left
  ** whatever A holds) and plays in secret after A.  What every player may
  ** see at each of B's questions, and B's own options, are the same for all
  ** 9 hands; what differs
  ** (A's card) shows only once both have played.  Before the bag's draw
  ** question hid its counts, B's draw listed "(2 left)" or "(3 left)". */
  {
    static const char hands[] =
      "ruleset \"hands\"\n"
      "enum side { A, B }\n"
      "enum colour { BLACK, WHITE, RED }\n"
      "deck bag: colour = { BLACK: 3, WHITE: 3, RED: 3 } secret\n"
      "procedure main() -> int {\n"
      "  let a = draws(A, \"hand\", bag, 2)\n"
      "  let b = draws(B, \"hand\", bag, 2)\n"
      "  let pa = choose secret(A, \"play\", a)\n"
      "  let pb = choose secret(B, \"play\", b)\n"
      "  note \"played\", pa, pb\n"
      "  return 0\n"
      "}\n";
    static const char *const colours[] = { "BLACK", "WHITE", "RED" };
    static fixed first[3], now;
    rg_game_options ho = { .size = sizeof ho, .ask_choices = 1, .ask_dice = 1 };
    rg_rules *hr = NULL;
    rg_out po = { fixed_write, &now, 0 };
    int same = 1, hidden = 1, shown = 0;
    CHECK(rg_rules_compile("hands.rules", hands, sizeof hands - 1, NULL, &hr) == RG_OK,
          "hands compile");
    for (int h = 0; hr && h < 9; h++) {
      const char *say[] = { colours[h / 3], colours[h % 3], "BLACK", "WHITE", "1", "1" };
      rg_game *hg = NULL;
      int at = 0;
      if (rg_game_new(hr, &ho, &hg) != RG_OK) break;
      for (int k = 0; k < 6 && rg_game_play(hg) == RG_GAME_ASKING; k++) {
        rg_game_asking(hg, &q);
        if (strcmp(q.who, "B") == 0) {    /* B's question: what all may see */
          now.len = 0;
          now.buf[0] = '\0';
          rg_game_public(hg, &po);
          hidden &= strstr(now.buf, "  1) ") == NULL && strstr(now.buf, "A chooses") == NULL;
          for (uint32_t i = 0; i < q.noptions; i++) {   /* and what B alone sees */
            char rem[64] = "";
            rg_game_option(hg, i, name, sizeof name);
            rg_game_option_remark(hg, i, rem, sizeof rem);
            rg_write(&po, name, strlen(name));
            rg_write(&po, rem, strlen(rem));
            rg_write(&po, "\n", 1);
          }
          if (h == 0) first[at] = now;
          else same &= strcmp(first[at].buf, now.buf) == 0;
          at++;
        }
        tell(hg, say[k], &why);
      }
      CHECK(rg_game_play(hg) == RG_GAME_OVER, "hand %d: the game ends", h);
      now.len = 0;
      rg_game_public(hg, &po);
      shown += strstr(now.buf, "A chooses") != NULL;
      rg_game_free(hg);
    }
    CHECK(same, "B sees the same at each question whatever A's hand: %s", now.buf);
    CHECK(hidden, "no option of a secret question (the bag, a hand) nor A's card shows before "
          "both played: %s / %s / %s",
          first[0].buf, first[1].buf, first[2].buf);
    CHECK(shown == 9, "both cards show once played: %d", shown);
    rg_rules_free(hr);
  }
  /* A transcript's header read back (rg_transcript_head), columns counted
  ** by hand from the lines below ("# regula transcript: " is 21 bytes):
  ** every part said; a path holding ", seed " (the last one is the seed's);
  ** a seed past 2^64 - 1 and a negative one (both at column 42); a mode
  ** that is not one (column 45), dice `first` (column 61); no seed, no
  ** header.  Then the settings (rg_transcript_settings): the seed and each
  ** `# set` line in order. */
  {
    rg_transcript_info ti;
    static const char full[] = "# regula transcript: rules/x.rules, main, seed 42, choices first, dice ask\r\n"
                               "# module 0123abcd\n# set a=1\n# set b[A]=S,C\nyes\n";
    CHECK(rg_transcript_head(full, strlen(full), &ti) == RG_OK && ti.has_seed && ti.seed == 42 &&
          ti.rules_len == 13 && memcmp(ti.rules, "rules/x.rules", 13) == 0 && ti.proc_len == 4 &&
          memcmp(ti.proc, "main", 4) == 0 && ti.choices == 'f' && ti.dice == 'a' &&
          ti.module_len == 8 && memcmp(ti.module, "0123abcd", 8) == 0 && !ti.bad,
          "transcript head: every part");
    static const char path[] = "# regula transcript: dir, seed 3/x.rules, main, seed 7, choices ask, dice random\n";
    CHECK(rg_transcript_head(path, strlen(path), &ti) == RG_OK && ti.seed == 7 && ti.rules_len == 19 &&
          memcmp(ti.rules, "dir, seed 3/x.rules", 19) == 0 && ti.choices == 'a' && ti.dice == 'r',
          "transcript head: a path with ', seed ' in it");
    static const char big[] = "# regula transcript: x.rules, main, seed 18446744073709551616\n";
    CHECK(rg_transcript_head(big, strlen(big), &ti) == RG_BAD_VALUE && ti.bad_line == 1 &&
          ti.bad_col == 42 && ti.bad && strstr(ti.bad, "not a whole number"),
          "transcript head: a seed past 2^64 - 1 (col %u)", ti.bad_col);
    static const char neg[] = "# regula transcript: x.rules, main, seed -1\n";
    CHECK(rg_transcript_head(neg, strlen(neg), &ti) == RG_BAD_VALUE && ti.bad_col == 42,
          "transcript head: a negative seed (col %u)", ti.bad_col);
    static const char mode[] = "# regula transcript: x.rules, main, seed 1, choices maybe\n";
    CHECK(rg_transcript_head(mode, strlen(mode), &ti) == RG_BAD_VALUE && ti.bad_col == 45 &&
          strcmp(ti.bad, "choices must be ask, random or first") == 0,
          "transcript head: choices maybe (col %u)", ti.bad_col);
    static const char dice[] = "# regula transcript: x.rules, main, seed 1, choices random, dice first\n";
    CHECK(rg_transcript_head(dice, strlen(dice), &ti) == RG_BAD_VALUE && ti.bad_col == 61 &&
          strcmp(ti.bad, "dice must be ask or random") == 0,
          "transcript head: dice first (col %u)", ti.bad_col);
    static const char noseed[] = "# regula transcript: something else\n# a comment\n";
    CHECK(rg_transcript_head(noseed, strlen(noseed), &ti) == RG_OK && !ti.has_seed && !ti.rules &&
          !ti.choices, "transcript head: no seed");
    CHECK(rg_transcript_head("yes\n", 4, &ti) == RG_OK && !ti.has_seed && !ti.module,
          "transcript head: none");
    uint64_t seed = 0;
    int has = 0;
    rg_buf sets;
    rg_buf_init(&sets);
    rg_transcript_settings(full, strlen(full), &seed, &has, keep_set, &sets);
    CHECK(has && seed == 42 && sets.data && strcmp(sets.data, "a=1|b[A]=S,C|") == 0,
          "transcript settings: '%s'", sets.data ? sets.data : "");
    rg_buf_free(&sets);
  }
  /* At the table, worked out by hand from the rule text below (its line
  ** numbers matter: the roll is on line 11, the hand on 16, the choice on
  ** 17):
  **   - the die's help quotes the sheet's words above it (lines 9-10,
  **     without "#") and its `source` and `assumed` notes, each word once ("assumed: ..."), never
  **     rule-file code; the public view of a die lists 1..6, not 6 options;
  **   - an answer has its tabs and spaces trimmed; 7 is no face of d6;
  **   - a hand of 3 from RED x2, WHITE x2, BLUE x1 typed at once, by counts,
  **     commas, tabs and a later word of a name ("pass" is "RED pass"), is
  **     taken back as one; each wrong hand says why (4 cards, a third RED,
  **     "green", a fourth card, a count without a card); "save FILE" at a
  **     hand question is the command, not two cards;
  **   - with the deck secret, neither a refused hand nor the undo names a
  **     card, and the public view shows no option;
  **   - the transcript names the module given and the copy's setting, and
  **     a loaded one (tabs, CR, blank and # lines) replays it: 3 + level 2. */
  {
    static const char tbl[] =
      "ruleset \"table\"\n"
      "enum side { A \"Alpha\", B \"Bravo\" }\n"
      "enum colour { RED \"RED pass\", WHITE \"White\", BLUE \"Blue\" }\n"
      "deck bag: colour = { RED: 2, WHITE: 2, BLUE: 1 }\n"
      "input level: int = 1\n"
      "procedure main() -> int {\n"
      "  let w = 0\n"
      "  step \"Weather\" {\n"
      "    # \"Roll a die: on 1-2 it rains,\n"
      "    # otherwise it is dry.\"\n"
      "    w = roll d6\n"
      "      source \"QRS p.2\"\n"
      "      assumed \"an ordinary die\"\n"
      "    note \"weather\", w\n"
      "  }\n"
      "  let h = draws(A, \"hand\", bag, 3)\n"
      "  let c = choose(B, \"colour?\", {RED, WHITE, BLUE})\n"
      "  return w + level\n"
      "}\n";
    static const char help[] =
      "step: Weather\n"
      "the sheet: \"Roll a die: on 1-2 it rains,\n"
      "           otherwise it is dry.\"\n"
      "source: \"QRS p.2\"\n"
      "assumed: \"an ordinary die\"\n"
      "rule file: table.rules:11\n"
      "answer a number from 1 to 6\n"
      "a name may be shortened while only one fits; undo (or back) takes back\n"
      "the last answer; save [FILE] writes the game so far\n";
    static const char more[] = " (? for help, undo to go back)";
    static const char hand_q[] = "Alpha, hand: draw 3 from bag (line 16)";
    static fixed pub, want;
    rg_compile_options co = { .size = sizeof co, .keep_sources = 1 };
    rg_game_options to = { .size = sizeof to, .seed = 1, .ask_choices = 1, .ask_dice = 1,
                           .title = "table", .module = "0123abcd" };
    rg_rules *tr0 = NULL, *tr1 = NULL;
    rg_game *tg = NULL;
    rg_out pubo = { fixed_write, &pub, 0 };
    const char *arg = NULL;
    char line[64];
    rg_out wo = { fixed_write, &why, 0 };
    CHECK(rg_rules_compile("table.rules", tbl, sizeof tbl - 1, &co, &tr0) == RG_OK &&
          rg_rules_copy(tr0, &tr1) == RG_OK && rg_rules_set(tr1, "level=2") == RG_OK,
          "table rules compile, a copy with level=2");
    CHECK(tr1 && rg_game_new(tr1, &to, &tg) == RG_OK && rg_game_play(tg) == RG_GAME_ASKING,
          "the table game asks");
    if (!tg) return 1;
    CHECK(tell(tg, "undo", &why) == RG_REPLY_BAD &&
          strcmp(why.buf, "nothing to take back: this is the first question") == 0,
          "nothing to undo at the first question: %s", why.buf);
    CHECK(tell(tg, "?", &why) == RG_REPLY_HELP && strcmp(why.buf, help) == 0,
          "the die's help, the sheet's words and its note once: %s", why.buf);
    pub.len = 0;
    CHECK(rg_game_public(tg, &pubo) == RG_OK &&
          strstr(pub.buf, "\n? roll d6 (line 11)\n  1..6\n") && !strstr(pub.buf, "1) "),
          "the public view of a die: %s", pub.buf);
    CHECK(rg_game_option(tg, 2, name, sizeof name) == RG_OK && strcmp(name, "3") == 0,
          "option 3 of a die is 3: %s", name);
    CHECK(rg_game_option(tg, 6, name, sizeof name) == RG_BAD_VALUE && name[0] == '\0',
          "d6 has no seventh option");
    CHECK(rg_game_option_remark(tg, 0, name, sizeof name) == 0, "a face has no remark");
    CHECK(rg_game_hand_example(tg, 0, &pubo) == RG_BAD_VALUE, "a die is no hand: no example");
    CHECK(tell(tg, "7", &why) == RG_REPLY_BAD &&
          strcmp(why.buf, "'7' is not an option; answer a number from 1 to 6 (? for help, undo to "
                 "go back)") == 0, "7 is no face: %s", why.buf);
    CHECK(tell(tg, "\t3  ", &why) == RG_REPLY_ANSWER && rg_game_answers(tg) == 1,
          "a 3 between tabs and spaces");
    CHECK(rg_game_play(tg) == RG_GAME_ASKING && rg_game_asking(tg, &q) && q.hand == 3 &&
          q.noptions == 3 && !q.secret, "then the hand of 3");
    pub.len = 0;
    rg_game_public(tg, &pubo);
    CHECK(strstr(pub.buf, "\n? Alpha, hand: draw 3 from bag (line 16)\n  1) RED pass  (2 left)\n"
                 "  2) White  (2 left)\n  3) Blue  (1 left)\n") != NULL,
          "an open hand's options with what is left: %s", pub.buf);
    pub.len = 0;
    CHECK(rg_game_hand_example(tg, 0, &pubo) == RG_OK && strcmp(pub.buf, "2 red 1 white") == 0,
          "the hand's counted example, from its own cards: %s", pub.buf);
    pub.len = 0;
    CHECK(rg_game_hand_example(tg, 1, &pubo) == RG_OK && strcmp(pub.buf, "red red white") == 0,
          "the hand's listed example: %s", pub.buf);
    snprintf(want.buf, sizeof want.buf, "4 cards: this hand is 3 cards at most%s", more);
    CHECK(tell(tg, "4 red", &why) == RG_REPLY_BAD && strcmp(why.buf, want.buf) == 0,
          "four cards of three: %s", why.buf);
    snprintf(want.buf, sizeof want.buf, "no RED pass is left by the cards entered so far; check the "
             "card, or undo to correct one entered before%s", more);
    CHECK(tell(tg, "red red red", &why) == RG_REPLY_BAD && strcmp(why.buf, want.buf) == 0,
          "a third RED: %s", why.buf);
    snprintf(want.buf, sizeof want.buf, "'green' is not one of the cards (a hand is names, each may "
             "be after a count: 2 red 1 white)%s", more);
    CHECK(tell(tg, "red green", &why) == RG_REPLY_BAD && strcmp(why.buf, want.buf) == 0,
          "green: %s", why.buf);
    snprintf(want.buf, sizeof want.buf, "more than 3 cards: this hand is 3 cards%s", more);
    CHECK(tell(tg, "w b w r", &why) == RG_REPLY_BAD && strcmp(why.buf, want.buf) == 0,
          "four names: %s", why.buf);
    snprintf(want.buf, sizeof want.buf, "a count needs a card after it (2 red 1 white)%s", more);
    CHECK(tell(tg, "2 red 1", &why) == RG_REPLY_BAD && strcmp(why.buf, want.buf) == 0,
          "a count alone: %s", why.buf);
    CHECK(rg_game_answers(tg) == 1, "no refused hand added a card");
    snprintf(line, sizeof line, "Save t.txt");
    CHECK(rg_game_reply(tg, line, &arg, &wo) == RG_REPLY_SAVE && arg && strcmp(arg, "t.txt") == 0,
          "save FILE at a hand question");
    CHECK(tell(tg, "1 blue, pass\twhite", &why) == RG_REPLY_ANSWER && rg_game_answers(tg) == 4,
          "a hand typed at once is three answers");
    CHECK(rg_game_play(tg) == RG_GAME_ASKING && rg_game_asking(tg, &q) &&
          strcmp(q.prompt, "colour?") == 0, "then B's colour");
    log = rg_game_log(tg, &len, &vis);
    CHECK(strstr(log, "draw bag: Blue (4 left)") && strstr(log, "draw bag: RED pass (3 left)") &&
          strstr(log, "draw bag: White (2 left)"), "the hand drawn in its order: %s", log);
    snprintf(want.buf, sizeof want.buf, "took back 3 cards (%s)", hand_q);
    CHECK(tell(tg, "back", &why) == RG_REPLY_UNDO && strcmp(why.buf, want.buf) == 0 &&
          rg_game_answers(tg) == 1, "back takes the hand back at once: %s", why.buf);
    CHECK(rg_game_play(tg) == RG_GAME_ASKING && rg_game_asking(tg, &q) && q.hand == 3,
          "the hand is asked again");
    CHECK(tell(tg, "b r r", &why) == RG_REPLY_ANSWER && rg_game_play(tg) == RG_GAME_ASKING &&
          tell(tg, "2", &why) == RG_REPLY_ANSWER && rg_game_play(tg) == RG_GAME_OVER,
          "Blue, RED, RED; White by its number; over");
    log = rg_game_log(tg, &len, &vis);
    CHECK(strstr(log, "Bravo chooses White") && strstr(log, "\n5\n"), "3 + 2 = 5: %s", log);
    CHECK(tell(tg, "1", &why) == RG_REPLY_BAD && strcmp(why.buf, "no question is waiting") == 0,
          "an answer with no question");
    CHECK(rg_game_question_write(tg, 0, &wo) == RG_BAD_VALUE && rg_game_option(tg, 0, name, 8) ==
          RG_BAD_VALUE, "no question to write once over");
    tr.len = 0;
    tr.buf[0] = '\0';
    rg_game_transcript(tg, &tro);
    CHECK(strcmp(tr.buf, "# regula transcript: table, main, seed 1, choices ask, dice ask\n"
                         "# module 0123abcd\n# set level=2\n"
                         "# one answer a line; go on with: regula run --resume THIS\n"
                         "# roll d6 (line 11)\n3\n"
                         "# Alpha, hand: draw 3 from bag (line 16)\nBlue\n"
                         "# Alpha, hand: draw 3 from bag (line 16)\nRED pass\n"
                         "# Alpha, hand: draw 3 from bag (line 16)\nRED pass\n"
                         "# Bravo, colour?\nWhite\n") == 0, "the table transcript: %s", tr.buf);
    rg_game_free(tg);
    tg = NULL;
    {
      static const char back[] = "# typed by hand\r\n\t3 \r\n\n  Blue\t\nRED pass\n# two\nRED pass\nW\n";
      static const char nul[] = "3\0Blue\n";
      CHECK(rg_game_new(tr1, &to, &tg) == RG_OK && rg_game_load(tg, "t.txt", back, sizeof back - 1)
            == RG_OK && rg_game_answers(tg) == 5 && rg_game_play(tg) == RG_GAME_OVER,
            "a transcript typed by hand plays to the end");
      log = tg ? rg_game_log(tg, &len, &vis) : "";
      CHECK(strstr(log, "Bravo chooses White") && strstr(log, "\n5\n"), "to 5 again: %s", log);
      CHECK(tg && rg_game_load(tg, "n.txt", nul, sizeof nul - 1) == RG_BAD_VALUE,
            "a NUL byte in the answers");
      rg_game_free(tg);
      tg = NULL;
    }
    rg_rules_free(tr1);
    rg_rules_free(tr0);
  }
  /* The same hand from a secret bag: a refused hand names no card (others
  ** may be looking), the public view shows none of its options, and the
  ** undo says how many secret cards it took back, not which. */
  {
    static const char sec[] =
      "ruleset \"table\"\n"
      "enum side { A \"Alpha\", B \"Bravo\" }\n"
      "enum colour { RED \"RED pass\", WHITE \"White\", BLUE \"Blue\" }\n"
      "deck bag: colour = { RED: 2, WHITE: 2, BLUE: 1 } secret\n"
      "procedure main() -> int {\n"
      "  let h = draws(A, \"hand\", bag, 3)\n"
      "  let c = choose(B, \"colour?\", {RED, WHITE, BLUE})\n"
      "  return 0\n"
      "}\n";
    static const char more[] = " (? for help, undo to go back)";
    static fixed pub, want;
    rg_game_options so = { .size = sizeof so, .ask_choices = 1, .ask_dice = 1 };
    rg_rules *sr = NULL;
    rg_game *sg = NULL;
    rg_out pubo = { fixed_write, &pub, 0 };
    CHECK(rg_rules_compile("sec.rules", sec, sizeof sec - 1, NULL, &sr) == RG_OK &&
          rg_game_new(sr, &so, &sg) == RG_OK && rg_game_play(sg) == RG_GAME_ASKING &&
          rg_game_asking(sg, &q) && q.secret && q.hand == 3, "a secret hand is asked");
    if (!sg) return 1;
    rg_game_public(sg, &pubo);
    CHECK(strstr(pub.buf, "\n? Alpha, hand: draw 3 from bag (line 6)\n  (answered in secret)\n") &&
          !strstr(pub.buf, "Blue"), "its public view: %s", pub.buf);
    snprintf(want.buf, sizeof want.buf, "none of that card is left by the cards entered so far; "
             "check the card, or undo to correct one entered before%s", more);
    CHECK(tell(sg, "red red red", &why) == RG_REPLY_BAD && strcmp(why.buf, want.buf) == 0,
          "a third RED, not named: %s", why.buf);
    snprintf(want.buf, sizeof want.buf, "a card's name is not one of the cards (a hand is names, "
             "each may be after a count: 2 red 1 white)%s", more);
    CHECK(tell(sg, "red green", &why) == RG_REPLY_BAD && strcmp(why.buf, want.buf) == 0,
          "green, not repeated: %s", why.buf);
    CHECK(tell(sg, "red, blue white", &why) == RG_REPLY_ANSWER && rg_game_play(sg) == RG_GAME_ASKING,
          "a secret hand typed at once");
    CHECK(tell(sg, "undo", &why) == RG_REPLY_UNDO &&
          strcmp(why.buf, "took back 3 secret cards (Alpha, hand: draw 3 from bag (line 6))") == 0 &&
          rg_game_answers(sg) == 0, "their undo names none: %s", why.buf);
    rg_game_free(sg);
    rg_rules_free(sr);
  }
  /* Out of memory at each allocation of a game in turn (N = 1, 2, ...
  ** until none is left to fail): making it, loading answers, playing,
  ** replying (an answer, a hand at once, help), the public view and the
  ** transcript each end with their documented out-of-memory result
  ** (RG_NOMEM; RG_GAME_FAILED with status RG_NOMEM; RG_REPLY_BAD saying
  ** "out of memory"), never a crash; and once no allocation fails, the game
  ** ends as without injection: B chose Blue, 4 + 2 = 6. */
  {
    static const char oom[] =
      "ruleset \"oom\"\n"
      "enum side { A \"Alpha\", B \"Bravo\" }\n"
      "enum colour { RED, WHITE, BLUE }\n"
      "deck bag: colour = { RED: 2, WHITE: 2, BLUE: 1 } secret\n"
      "procedure main() -> int {\n"
      "  let w = roll d6\n"
      "  let h = draws(A, \"hand\", bag, 2)\n"
      "  let c = choose secret(B, \"colour?\", {RED, WHITE, BLUE})\n"
      "  note \"chosen\", c\n"
      "  return w + 2\n"
      "}\n";
    rg_compile_options co = { .size = sizeof co, .keep_sources = 1 };
    rg_game_options oo = { .size = sizeof oo, .seed = 1, .ask_choices = 1, .ask_dice = 1,
                           .pictures = 1 };
    rg_rules *orl = NULL;
    int done = 0, bad = 0, swallowed = 0;
    unsigned long k;
    CHECK(rg_rules_compile("oom.rules", oom, sizeof oom - 1, &co, &orl) == RG_OK, "oom compiles");
    for (k = 1; orl && k < 20000 && !done; k++) {
      rg_game *og = NULL;
      rg_status st = RG_OK;
      rg_reply rr;
      static fixed pub;
      rg_out pubo = { fixed_write, &pub, 0 };
      char ln[32];
      const char *a;
      rg_buf w;
      check_counts f = { .fail_at = (long)k };
      rg_buf_init(&w);
      rg_set_allocator(check_counting, &f);
      st = rg_game_new(orl, &oo, &og);
      if (st != RG_OK) {
        bad += st != RG_NOMEM || og != NULL;
        goto next;
      }
      st = rg_game_load(og, "o.txt", "4\n", 2);
      if (st != RG_OK) {
        bad += st != RG_NOMEM;
        goto next;
      }
      if (!plays_to(og, RG_GAME_ASKING, &bad)) goto next;
      snprintf(ln, sizeof ln, "help");
      rr = rg_game_reply(og, ln, &a, &w.out);
      if (rr != RG_REPLY_HELP) bad++;
      if (w.out.failed) goto next;      /* the help ran out: the rest is for a later N */
      if (!answers(og, "red white", &w, &bad) || !plays_to(og, RG_GAME_ASKING, &bad)) goto next;
      pub.len = 0;
      if ((st = rg_game_public(og, &pubo)) != RG_OK) {
        bad += st != RG_NOMEM;
        goto next;
      }
      if (!answers(og, "b", &w, &bad) || !plays_to(og, RG_GAME_OVER, &bad)) goto next;
      rg_buf_free(&w);
      rg_game_transcript(og, &w.out);
      if (w.out.failed) goto next;
      log = rg_game_log(og, &len, &vis);
      done = 1;
      swallowed = f.hit;
      CHECK(strstr(log, "note chosen: BLUE") && strstr(log, "\n6\n") &&
            strstr(w.data, "\n4\n") && strstr(w.data, "\nRED\n") && strstr(w.data, "\nWHITE\n") &&
            strstr(w.data, "\nBLUE\n"), "oom: the game once nothing fails: %s / %s", log, w.data);
    next:
      rg_set_allocator(NULL, NULL);
      rg_buf_free(&w);
      rg_game_free(og);
    }
    CHECK(done && k > 20 && bad == 0 && !swallowed, "oom: %lu allocations failed in turn, %d "
          "wrongly, the last %s", k - 1, bad, swallowed ? "swallowed" : "never made");
    rg_rules_free(orl);
  }
  /* More dice than one question takes (7d6: past 6 at once) or than its
  ** outcomes fit in 32 bits (5d100: 10^10) are asked one die at a time:
  ** 7 + 5 questions of one die each; the log sums them, 1 + ... + 6 + 1 =
  ** 22, and 100 + 1 + 50 + 2 + 99 = 252. */
  {
    static const char many[] =
      "ruleset \"many\"\n"
      "procedure main() -> int {\n"
      "  let a = roll 7d6\n"
      "  let b = roll 5d100\n"
      "  return a + b\n"
      "}\n";
    static const char *const faces[] = { "1", "2", "3", "4", "5", "6", "1", "100", "1", "50", "2", "99" };
    rg_game_options mo = { .size = sizeof mo, .ask_dice = 1 };
    rg_rules *mr = NULL;
    rg_game *mg = NULL;
    int ones = 1, n = 0;
    CHECK(rg_rules_compile("many.rules", many, sizeof many - 1, NULL, &mr) == RG_OK &&
          rg_game_new(mr, &mo, &mg) == RG_OK, "many dice compile");
    while (mg && rg_game_play(mg) == RG_GAME_ASKING && n < 12) {
      rg_game_asking(mg, &q);
      ones &= q.range && q.dice <= 1 && q.noptions == (n < 7 ? 6u : 100u) &&
              strcmp(q.prompt, n < 7 ? "roll d6 (line 3)" : "roll d100 (line 4)") == 0;
      tell(mg, faces[n++], &why);
    }
    CHECK(n == 12 && ones && mg && rg_game_play(mg) == RG_GAME_OVER, "12 dice asked one at a time");
    log = mg ? rg_game_log(mg, &len, &vis) : "";
    CHECK(strstr(log, "roll 7d6: 1 + 2 + 3 + 4 + 5 + 6 + 1 = 22") &&
          strstr(log, "roll 5d100: 100 + 1 + 50 + 2 + 99 = 252") && strstr(log, "\n274\n"),
          "the sums: %s", log);
    rg_game_free(mg);
    rg_rules_free(mr);
  }
  /* Answers loaded without a name, the last line without its newline: a
  ** refused one is named "answers:LINE"; a transcript header without a
  ** newline still reads; "choices" with nothing after it is refused at its
  ** column (21 + 23 + 1 = 45, as "choices maybe" above). */
  {
    static const char tbl[] =
      "ruleset \"load\"\n"
      "enum side { A \"Alpha\", B \"Bravo\" }\n"
      "enum colour { RED \"RED pass\", WHITE \"White\", BLUE \"Blue\" }\n"
      "deck bag: colour = { RED: 2, WHITE: 2, BLUE: 1 }\n"
      "procedure main() -> int {\n"
      "  let w = roll d6\n"
      "  let h = draws(A, \"hand\", bag, 3)\n"
      "  return w\n"
      "}\n";
    static const char head[] = "# regula transcript: x.rules, main, seed 5\n# module abc";
    static const char bare[] = "# regula transcript: x.rules, main, seed 1, choices";
    rg_game_options lo = { .size = sizeof lo, .ask_dice = 1 };
    rg_rules *lr = NULL;
    rg_game *lg = NULL;
    rg_transcript_info ti;
    rg_status st = RG_OK;
    CHECK(rg_rules_compile("load.rules", tbl, sizeof tbl - 1, NULL, &lr) == RG_OK &&
          rg_game_new(lr, &lo, &lg) == RG_OK && rg_game_load(lg, NULL, "3\nPurple", 8) == RG_OK &&
          rg_game_answers(lg) == 2 && rg_game_play(lg) == RG_GAME_FAILED,
          "a loaded answer that fits nothing fails the game");
    CHECK(lg && strcmp(rg_game_error(lg, &st, NULL), "answers:2: 'Purple' is not an option of: "
                       "Alpha, hand: draw 3 from bag (line 7); options: RED pass, White, Blue") == 0
          && st == RG_BAD_VALUE, "named answers:2: %s", lg ? rg_game_error(lg, NULL, NULL) : "");
    tr.len = 0;
    if (lg) rg_game_public(lg, &tro);
    CHECK(!strstr(tr.buf, "? "), "a failed game asks nothing: %s", tr.buf);
    rg_game_free(lg);
    rg_rules_free(lr);
    CHECK(rg_transcript_head(head, strlen(head), &ti) == RG_OK && ti.has_seed && ti.seed == 5 &&
          ti.proc_len == 4 && ti.module_len == 3 && memcmp(ti.module, "abc", 3) == 0 && !ti.choices,
          "transcript head without a last newline");
    CHECK(rg_transcript_head(bare, strlen(bare), &ti) == RG_BAD_VALUE && ti.bad_col == 45 &&
          strcmp(ti.bad, "choices must be ask, random or first") == 0,
          "transcript head: choices with no mode (col %u)", ti.bad_col);
  }
  /* The public view of a choice among numbers lists them as they are
  ** answered, by value on one line ("  2, 4, 6"), not numbered. */
  {
    static const char nums[] =
      "ruleset \"numbers\"\n"
      "enum side { A \"Alpha\", B \"Bravo\" }\n"
      "procedure main() -> int { return choose(A, \"how many?\", [2, 4, 6]) }\n";
    rg_game_options no = { .size = sizeof no, .ask_choices = 1 };
    rg_rules *nr = NULL;
    rg_game *ng = NULL;
    tr.len = 0;
    tr.buf[0] = '\0';
    CHECK(rg_rules_compile("nums.rules", nums, sizeof nums - 1, NULL, &nr) == RG_OK &&
          rg_game_new(nr, &no, &ng) == RG_OK && rg_game_play(ng) == RG_GAME_ASKING &&
          rg_game_public(ng, &tro) == RG_OK && strstr(tr.buf, "\n? Alpha, how many?\n  2, 4, 6\n") &&
          !strstr(tr.buf, "1) "), "numbers shown by value: %s", tr.buf);
    CHECK(ng && tell(ng, "4", &why) == RG_REPLY_ANSWER && rg_game_play(ng) == RG_GAME_OVER &&
          strstr(rg_game_log(ng, &len, &vis), "\n4\n"), "4 is the value 4");
    rg_game_free(ng);
    rg_rules_free(nr);
  }
  /* A question's help quotes the sheet's words above its rule; worked out
  ** by hand from the line numbers of the text below:
  **   - top(): the comment on line 1 is the first line (none above it);
  **   - tested(): a test on the line above ends the search: no words;
  **   - strat(): likewise a strategy;
  **   - far(): 11 plain lines above the roll: the search stops after 10;
  **   - many(): 14 comment lines above, the nearest 12 shown (lines 36-47),
  **     an empty "#" and a tab before "#" trimmed;
  **   - crlf(): a rule file with CRLF lines: no CR in the words;
  **   - first(): nothing above line 1's rule. */
  {
    static const char hl[] =
      "# Top words one.\n"                                      /* 1 */
      "procedure top() -> int { return roll d6 }\n"             /* 2 */
      "test \"t\" { expect 1 == 1 }\n"                          /* 3 */
      "procedure tested() -> int { return roll d6 }\n"          /* 4 */
      "enum side { A \"Alpha\" }\n"                             /* 5 */
      "procedure pick() -> int { return choose(A, \"pick?\", [1, 2]) }\n"  /* 6 */
      "strategy s \"s\" { \"pick?\": 1 }\n"                     /* 7 */
      "procedure strat() -> int { return roll d6 }\n"           /* 8 */
      "procedure far() -> int {\n"                              /* 9 */
      "  # too far\n"                                           /* 10 */
      "  let a = 1\n  let b = 1\n  let c = 1\n  let d = 1\n"    /* 11-14 */
      "  let e = 1\n  let f = 1\n  let g = 1\n  let h = 1\n"    /* 15-18 */
      "  let i = 1\n  let j = 1\n  let k = 1\n"                 /* 19-21 */
      "  return roll d6 + a + b + c + d + e + f + g + h + i + j + k\n"  /* 22 */
      "}\n"                                                     /* 23 */
      "procedure many() -> int {\n"                             /* 24 */
      "  # w25\n  # w26\n  # w27\n  # w28\n  # w29\n"           /* 25-29 */
      "  # w30\n  # w31\n  # w32\n  # w33\n"                    /* 30-33 */
      "  # w34\n  # w35\n  # w36\n"                             /* 34-36 */
      "  #\n"                                                   /* 37 */
      "\t# w38\t\n"                                             /* 38 */
      "  return roll d6\n"                                      /* 39 */
      "}\n"                                                     /* 40 */
      "procedure crlf() -> int {\r\n"                           /* 41 */
      "  # Windows words.\r\n"                                  /* 42 */
      "  return roll d6\r\n"                                    /* 43 */
      "}\r\n";                                                  /* 44 */
    static const struct { const char *proc, *help; } want[] = {
      { "top", "the sheet: Top words one.\nrule file: help.rules:2\n" },
      { "tested", "rule file: help.rules:4\n" },
      { "strat", "rule file: help.rules:8\n" },
      { "far", "rule file: help.rules:22\n" },
      { "many", "the sheet: w27\n           w28\n           w29\n           w30\n"
                "           w31\n           w32\n           w33\n           w34\n"
                "           w35\n           w36\n           \n           w38\n"
                "rule file: help.rules:39\n" },
      { "crlf", "the sheet: Windows words.\nrule file: help.rules:43\n" },
    };
    static const char tail[] = "answer a number from 1 to 6\n"
      "a name may be shortened while only one fits; undo (or back) takes back\n"
      "the last answer; save [FILE] writes the game so far\n";
    rg_compile_options co = { .size = sizeof co, .keep_sources = 1 };
    rg_rules *hr = NULL;
    CHECK(rg_rules_compile("help.rules", hl, sizeof hl - 1, &co, &hr) == RG_OK, "help rules compile");
    for (size_t i = 0; hr && i < sizeof want / sizeof want[0]; i++) {
      rg_game_options ho = { .size = sizeof ho, .proc = want[i].proc, .ask_dice = 1 };
      rg_game *hg = NULL;
      char expect[1024];
      snprintf(expect, sizeof expect, "%s%s", want[i].help, tail);
      CHECK(rg_game_new(hr, &ho, &hg) == RG_OK && rg_game_play(hg) == RG_GAME_ASKING &&
            tell(hg, "help", &why) == RG_REPLY_HELP && strcmp(why.buf, expect) == 0,
            "%s's help: %s", want[i].proc, why.buf);
      rg_game_free(hg);
    }
    rg_rules_free(hr);
  }
  /* The edges of a game's interface, worked out from the rule text below:
  **   - before it is played a game asks nothing, has no option, an empty
  **     log, and no error at no place ("?", 0) (it named pc 0's line);
  **   - 2d6 asked at once has no single option to name ("") nor a remark;
  **     a buffer of size 0 is left alone; a writer that fails gives
  **     RG_NOMEM for the public view and the question;
  **   - an open card's public view lists each card with how many are left
  **     (BLACK 1, RED 2);
  **   - answers loaded past the game's end are kept and written back, the
  **     unplayed one without its question's comment; loading nothing adds
  **     none; the transcript says "choices first" and, with module "", no
  **     module line. */
  {
    static const char edg[] =
      "ruleset \"edges\"\n"
      "enum colour { BLACK, RED }\n"
      "deck bag: colour = { BLACK: 1, RED: 2 }\n"
      "procedure main() -> int {\n"
      "  let a = roll 2d6\n"
      "  let c = draw bag\n"
      "  return a\n"
      "}\n";
    rg_game_options eo = { .size = sizeof eo, .ask_dice = 1, .policy = { .kind = RG_CHOOSE_FIRST },
                           .title = "e", .module = "" };
    rg_rules *er = NULL;
    rg_game *eg = NULL;
    rg_out refuse = { refuse_write, NULL, 0 };
    rg_status st = RG_BAD_VALUE;
    rg_place at = { NULL, 9, 9 };
    char one[4] = "x";
    static const char head[] = "# regula transcript: e, main, seed 0, choices first, dice ask\n"
                               "# one answer a line;";
    CHECK(rg_rules_compile("edges.rules", edg, sizeof edg - 1, NULL, &er) == RG_OK &&
          rg_game_new(er, &eo, &eg) == RG_OK, "edges compile");
    if (!eg) return 1;
    log = rg_game_log(eg, &len, &vis);
    CHECK(!rg_game_asking(eg, &q) && rg_game_option(eg, 0, name, sizeof name) == RG_BAD_VALUE &&
          strcmp(log, "") == 0 && len == 0 && vis == 0, "nothing asked before the game is played");
    CHECK(strcmp(rg_game_error(eg, &st, &at), "") == 0 && strcmp(at.path, "?") == 0 &&
          at.line == 0 && at.col == 0, "no error at no place before the game is played: %s:%u:%u",
          at.path, at.line, at.col);
    CHECK(rg_game_load(eg, "none.txt", "", 0) == RG_OK && rg_game_answers(eg) == 0,
          "loading nothing adds no answer");
    CHECK(rg_game_play(eg) == RG_GAME_ASKING && rg_game_asking(eg, &q) && q.dice == 2 &&
          rg_game_option(eg, 0, name, sizeof name) == RG_OK && name[0] == '\0' &&
          rg_game_option_remark(eg, 0, name, sizeof name) == 0,
          "2d6 at once names no single option: '%s'", name);
    CHECK(rg_game_option(eg, 0, one, 0) == RG_OK && rg_game_option_remark(eg, 0, one, 0) == 0 &&
          strcmp(one, "x") == 0, "a buffer of size 0 is left alone");
    /* RG_IO: the out failed (regula.h, rg_out), not the library's memory */
    CHECK(rg_game_public(eg, &refuse) == RG_IO && rg_game_question_write(eg, 0, &refuse) ==
          RG_IO, "a writer that fails");
    CHECK(tell(eg, "3 4", &why) == RG_REPLY_ANSWER && rg_game_play(eg) == RG_GAME_ASKING,
          "then the card");
    tr.len = 0;
    tr.buf[0] = '\0';
    CHECK(rg_game_public(eg, &tro) == RG_OK &&
          strstr(tr.buf, "\n  1) BLACK  (1 left)\n  2) RED  (2 left)\n"), "each card with how "
          "many are left: %s", tr.buf);
    CHECK(rg_game_load(eg, "more.txt", "RED\nBLACK\n", 10) == RG_OK && rg_game_answers(eg) == 3 &&
          rg_game_play(eg) == RG_GAME_OVER, "two more answers: the game ends at the first");
    tr.len = 0;
    tr.buf[0] = '\0';
    rg_game_transcript(eg, &tro);
    CHECK(strncmp(tr.buf, head, sizeof head - 1) == 0 &&
          strstr(tr.buf, "\n3 4\n# ") && strstr(tr.buf, "\nRED\nBLACK\n"),
          "the transcript keeps the unplayed answer: %s", tr.buf);
    rg_game_free(eg);
    rg_rules_free(er);
  }
  /* More transcript headers, columns counted by hand as above ("# regula
  ** transcript: " is 21 bytes): no comma before the seed (no rules, no
  ** procedure); an empty procedure; a seed that is empty (col 42), ends in
  ** a letter or starts with '/'; a trailing ", "; a word that is not a
  ** mode; "ask," before "dice" without a space; "dice" with nothing after
  ** it (col 21 + 23 + 1 = 45); the header on line 2 (a comment first) or a
  ** short first comment is no header.  Then settings: a header that does
  ** not parse gives no seed but its "# set" lines; "# set " with nothing,
  ** another comment, a last line without its newline; no each. */
  {
    rg_transcript_info ti;
    rg_buf sets;
    uint64_t seed = 7;
    int has = 1;
    static const char *const badseed[] = { "# regula transcript: x.rules, main, seed ",
                                           "# regula transcript: x.rules, main, seed 1x",
                                           "# regula transcript: x.rules, main, seed /1\n" };
    static const char nocomma[] = "# regula transcript: x.rules, seed 5\n";
    static const char noproc[] = "# regula transcript: x,, seed 6, \n";
    static const char words[] = "# regula transcript: x, main, seed 8, colour red, choices ask,dice random\n";
    static const char nodice[] = "# regula transcript: x.rules, main, seed 1, dice";
    static const char second[] = "# a comment that is long enough to be a header\n"
                                 "# regula transcript: x, main, seed 3\n";
    static const char set2[] = "# regula transcript: x, main, seed -1\n# set \n# note\n# set a=1";
    CHECK(rg_transcript_head(nocomma, strlen(nocomma), &ti) == RG_OK && ti.has_seed && ti.seed == 5 &&
          !ti.rules && !ti.proc, "transcript head: no comma before the seed");
    CHECK(rg_transcript_head(noproc, strlen(noproc), &ti) == RG_OK && ti.seed == 6 &&
          ti.rules_len == 1 && ti.proc && ti.proc_len == 0, "transcript head: an empty procedure");
    for (size_t i = 0; i < 3; i++)
      CHECK(rg_transcript_head(badseed[i], strlen(badseed[i]), &ti) == RG_BAD_VALUE &&
            ti.bad_col == 42 && !ti.has_seed, "transcript head: bad seed %zu (col %u)", i, ti.bad_col);
    CHECK(rg_transcript_head(words, strlen(words), &ti) == RG_OK && ti.seed == 8 &&
          ti.choices == 'a' && ti.dice == 'r', "transcript head: other words, 'ask,dice'");
    CHECK(rg_transcript_head(nodice, strlen(nodice), &ti) == RG_BAD_VALUE && ti.bad_col == 45 &&
          strcmp(ti.bad, "dice must be ask or random") == 0, "transcript head: dice with no mode "
          "(col %u)", ti.bad_col);
    CHECK(rg_transcript_head(second, strlen(second), &ti) == RG_OK && !ti.has_seed,
          "transcript head: on line 2 it is none");
    CHECK(rg_transcript_head("# x\n", 4, &ti) == RG_OK && !ti.has_seed, "transcript head: '# x'");
    rg_buf_init(&sets);
    rg_transcript_settings(set2, strlen(set2), &seed, &has, keep_set, &sets);
    CHECK(!has && sets.data && strcmp(sets.data, "a=1|") == 0,
          "transcript settings without a seed: '%s'", sets.data ? sets.data : "");
    rg_buf_free(&sets);
    has = 1;
    rg_transcript_settings("1\n# set a=1\n", 12, &seed, &has, NULL, NULL);
    CHECK(!has, "transcript settings: no comment at the top, no each");
  }
  /* A transcript reads back as the game it records, whatever the rules'
  ** texts hold (worked out by hand from the rules below):
  **   - a prompt with a newline ("first\n3") is a comment of one line,
  **     "# 1, first\x0a3", not a comment and an answer 3;
  **   - an option whose name would read back as something else is written
  **     as its number: "#x" (a comment), "y\nz" (two lines), "undo" and
  **     "save game" (commands), " pad" (trimmed), "tab\there"; "w" and
  **     "Help me" (not the command help) by their names;
  **   - the header's path holds a newline and a backslash as \xNN and
  **     rg_transcript_rules gives the path back;
  **   - '# set' and '# module' lines after "# one answer a line" are the
  **     answers' comments, not the header;
  **   - the game of each rule file under rules/ that has a main (found
  **     by walking the folder: at least 6 of them) and these rules', answered at
  **     random for 3 seeds (the dice asked in the third), replays from its
  **     transcript to the same log, byte for byte. */
  {
    static const char odd[] =
      "procedure main() -> int {\n"
      "  let a = choose(1, \"first\\n3\", 1, 3)\n"
      "  let b = choose(2, \"second\", 1, 3)\n"
      "  let c = choose(1, \"pick\", [\"#x\", \"y\\nz\", \"w\", \"undo\", \"save game\", \" pad\",\n"
      "                            \"tab\\there\", \"Help me\"])\n"
      "  note \"picked\", c\n"
      "  return a * 10 + b\n"
      "}\n";
    static const char head[] =
      "# regula transcript: odd\\x0a\\x5cx41.rules, main, seed 1, choices ask, dice random\n"
      "# module 0123abcd\n"
      "# one answer a line; go on with: regula run --resume THIS\n"
      "# 1, first\\x0a3\n1\n"
      "# 2, second\n2\n"
      "# 1, pick\n";
    static const char *const last[] = { "1", "2", "w", "4", "5", "6", "7", "Help me" };
    static const char after[] =
      "# regula transcript: x, main, seed 2, choices ask, dice random\n"
      "# one answer a line; go on with: regula run --resume THIS\n"
      "# set a=1\n# module m\n1\n";
    char *bundled[64];
    int nbundled = rule_files("rules", bundled, 0, 64), played = 0;
    rg_game_options oo = { .size = sizeof oo, .seed = 1, .ask_choices = 1,
                           .title = "odd\n\\x41.rules", .module = "0123abcd" };
    rg_rules *ro = NULL;
    rg_buf t, path, sets;
    rg_transcript_info ti;
    uint64_t x = 88172645463325252u, seed;
    int has;
    rg_buf_init(&t);
    rg_buf_init(&path);
    CHECK(rg_rules_compile("odd.rules", odd, sizeof odd - 1, NULL, &ro) == RG_OK, "odd rules compile");
    if (!ro) return 1;
    for (uint32_t k = 0; k < 8; k++) {
      rg_game *og = NULL, *oh = NULL;
      char ans[8], whole[512];
      const char *la, *lb;
      size_t na = 0, nb = 0, v;
      snprintf(ans, sizeof ans, "%u", k + 1);
      rg_buf_free(&t);
      CHECK(rg_game_new(ro, &oo, &og) == RG_OK && rg_game_play(og) == RG_GAME_ASKING &&
            tell(og, "1", &why) == RG_REPLY_ANSWER && rg_game_play(og) == RG_GAME_ASKING &&
            tell(og, "2", &why) == RG_REPLY_ANSWER && rg_game_play(og) == RG_GAME_ASKING &&
            tell(og, ans, &why) == RG_REPLY_ANSWER && rg_game_play(og) == RG_GAME_OVER,
            "odd option %u: played", k + 1);
      if (og) rg_game_transcript(og, &t.out);
      snprintf(whole, sizeof whole, "%s%s\n", head, last[k]);
      CHECK(t.data && strcmp(t.data, whole) == 0, "odd option %u is written '%s': %s", k + 1,
            last[k], t.data ? t.data : "");
      CHECK(og && t.data && rg_game_new(ro, &oo, &oh) == RG_OK &&
            rg_game_load(oh, "t.txt", t.data, t.len) == RG_OK && rg_game_play(oh) == RG_GAME_OVER &&
            (la = rg_game_log(og, &na, &v)) && (lb = rg_game_log(oh, &nb, &v)) && na == nb &&
            memcmp(la, lb, na) == 0, "odd option %u: the transcript replays the game", k + 1);
      rg_game_free(oh);
      rg_game_free(og);
    }
    CHECK(t.data && rg_transcript_head(t.data, t.len, &ti) == RG_OK && ti.seed == 1 &&
          ti.choices == 'a' && ti.proc_len == 4 && rg_transcript_rules(&ti, &path.out) == RG_OK &&
          path.data && strcmp(path.data, "odd\n\\x41.rules") == 0,
          "the header's path read back: '%s'", path.data ? path.data : "");
    rg_buf_init(&sets);
    rg_transcript_settings(after, strlen(after), &seed, &has, keep_set, &sets);
    CHECK(has && seed == 2 && !sets.data && rg_transcript_head(after, strlen(after), &ti) == RG_OK &&
          !ti.module, "'# set' and '# module' among the answers are comments");
    rg_buf_free(&sets);
    /* the property: bundled rules and the odd ones, played and replayed */
    for (int i = 0; i <= nbundled; i++) {
      rg_rules *rb = NULL;
      const char *nm = i < nbundled ? bundled[i] : "odd.rules";
      if (i < nbundled) {
        CHECK(rg_rules_load(nm, NULL, &rb) == RG_OK, "%s loads", nm);
        if (!rb || rg_rules_find(rb, RG_PROC, "main") < 0) {   /* a table sheet alone */
          rg_rules_free(rb);
          continue;
        }
        played++;
      }
      for (uint64_t sd = 1; sd <= 3; sd++)
        CHECK(replays(rb ? rb : ro, nm, sd, sd == 3, &x, &t), "%s seed %llu replays", nm,
              (unsigned long long)sd);
      rg_rules_free(rb);
    }
    CHECK(played >= 6, "the games of rules/ replayed: %d (rule files found: %d)", played, nbundled);
    for (int i = 0; i < nbundled; i++) free(bundled[i]);
    rg_buf_free(&t);
    rg_buf_free(&path);
    rg_rules_free(ro);
  }
  return check_done("test_game");
}
