/*
** test_policy.c: the library's policies (interp/play/policy.h), linked against
** the library only.  Every expectation below is worked out by hand from
** the questions and answers written here:
**
**   - first: always option 0;
**   - random: the same seed gives the same 200 choices, another seed other
**     ones, and every choice lies among the options;
**   - answers: blank and # lines skipped, spaces trimmed, an option by its
**     name in any case (Unicode case folding: "DÉSERT"), by its code, by
**     its number in the list; numeric options by value only; a range by
**     value; a wrong answer and the end of the answers name NAME:LINE;
**     a NUL byte is refused;
**   - callback: its answer, its refusal with its reason, an answer outside
**     the options refused;
**   - a person's replies: a unique prefix answers, an ambiguous one lists
**     the options it fits; y/yes/n/no for yes/no questions only; 2d6 as
**     two numbers (index (a-1) + (b-1)*6); undo, back, ?, help, save.
*/
#include <stdio.h>
#include <string.h>

#include "policy.h"
#include "seed.h"
#include "check.h"

static const char *const grounds[] = { "Standard", "Coastal", "Désert" };
static const char *const codes[] = { "S", "C", "D" };
static const char *const numbers[] = { "2", "4", "6" };

/* rgi_question.name over a list of names (codes as alt names for grounds). */
static int name_of(void *ctx, uint32_t k, int alt, char *buf, size_t size) {
  const char *const *names = ctx;
  if (alt) {
    if (names != grounds) return 0;
    snprintf(buf, size, "%s", codes[k]);
    return 1;
  }
  snprintf(buf, size, "%s", names[k]);
  return 1;
}

static const rgi_question ground = { .who = "Bravo", .prompt = "which ground?", .n = 3,
                                    .name = name_of, .ctx = (void *)grounds };
static const rgi_question count = { .who = "Alpha", .prompt = "how many?", .n = 3, .numeric = 1,
                                   .name = name_of, .ctx = (void *)numbers };
static const rgi_question score = { .prompt = "score", .n = 7, .numeric = 1, .range = 1, .lo = -3 };
static const char *const bools[] = { "false", "true" };
static const rgi_question intercept = { .who = "Alpha", .prompt = "intercept?", .n = 2,
                                       .name = name_of, .ctx = (void *)bools, .yesno = 1 };
/* 2d6 as one question: 36 outcomes, the first die least significant. */
static const rgi_question twod6 = { .prompt = "roll 2d6", .n = 36, .numeric = 1, .range = 1,
                                   .lo = 1, .dice = 2, .sides = 6 };
/* Two blades whose names fold past ASCII (a hand's examples). */
static const char *const blades_of_help[] = { "ÉPÉE", "Sabre" };
static const char *const seasons[] = { "Winter", "Spring/Autumn", "Summer", "Sandstorm" };
static const rgi_question season = { .who = "Bravo", .prompt = "season", .n = 4,
                                    .name = name_of, .ctx = (void *)seasons };

/* Returns what rgi_question_reply makes of line for q: the kind, the index
** in *k and the message in why[0..size). */
static rg_reply reply(const rgi_question *q, const char *line, int64_t *k, char *why, size_t size) {
  char copy[256];
  const char *arg;
  rg_buf b;
  rg_reply r;
  snprintf(copy, sizeof copy, "%s", line);
  rg_buf_init(&b);
  r = rgi_question_reply(q, copy, k, &arg, &b.out);
  snprintf(why, size, "%s", b.data ? b.data : "");
  rg_buf_free(&b);
  return r;
}

/* A callback policy: answers *ctx, refusing with a reason when it is -1. */
static int64_t answer_with(void *ctx, const rgi_question *q, rg_out *err) {
  int64_t k = *(int64_t *)ctx;
  (void)q;
  if (k < 0) rg_puts(err, "gave up");
  return k;
}

/* Options with how many of each are left (rgi_question.left). */
typedef struct counted {
  const char *const *names;
  const uint32_t *left;
} counted;

/* rgi_question.name of a counted ctx (no alt names). */
static int counted_name(void *ctx, uint32_t k, int alt, char *buf, size_t size) {
  const counted *c = ctx;
  if (alt) return 0;
  snprintf(buf, size, "%s", c->names[k]);
  return 1;
}

/* rgi_question.left of a counted ctx. */
static uint32_t counted_left(void *ctx, uint32_t k) {
  return ((const counted *)ctx)->left[k];
}

int main(void) {
  rgi_policy p, a, b;

  /* first */
  rgi_policy_first(&p);
  CHECK(rgi_policy_choose(&p, &ground) == 0, "first: option 0");
  CHECK(rgi_policy_choose(&p, &score) == 0, "first: option 0 of a range");
  CHECK(strcmp(p.name, "first") == 0, "first: its name");
  rgi_policy_free(&p);

  /* random: reproducible for a seed */
  {
    int same = 1, differ = 0, inside = 1;
    rgi_policy_random(&a);
    rgi_policy_random(&b);
    rgi_policy_random(&p);
    rgi_seed_step(NULL, &a.rng, 7, "", 0);
    rgi_seed_step(NULL, &b.rng, 7, "", 0);
    rgi_seed_step(NULL, &p.rng, 8, "", 0);
    for (int i = 0; i < 200; i++) {
      int64_t x = rgi_policy_choose(&a, &score), y = rgi_policy_choose(&b, &score),
              z = rgi_policy_choose(&p, &score);
      same &= x == y;
      differ |= x != z;
      inside &= x >= 0 && x < 7 && z >= 0 && z < 7;
    }
    CHECK(same, "random: seed 7 twice gives the same choices");
    CHECK(differ, "random: seeds 7 and 8 give different choices");
    CHECK(inside, "random: every choice is one of the 7 options");
    rgi_policy_free(&a);
    rgi_policy_free(&b);
    rgi_policy_free(&p);
  }

  /* answers */
  {
    static const char text[] =
      "# who answers\n"          /* 1 */
      "\n"                        /* 2 */
      "  coastal \n"              /* 3: Coastal by name, any case, trimmed */
      "3\n"                       /* 4: the third option, by number */
      "d\n"                       /* 5: Désert by its code */
      "DÉSERT\n"                  /* 6: by name, Unicode case folding */
      "4\n"                       /* 7: count: the value 4 is option 1 */
      "3\n"                       /* 8: count: 3 is not a value (no numbering) */
      "-3\n"                      /* 9: score: lo is option 0 */
      "3\n"                       /* 10: score: -3 + 6 = 3 is option 6 */
      "retreat\n";                /* 11: not an option */
    CHECK(rgi_policy_answers(&p, "answers.txt", text, sizeof text - 1) == 0, "answers: set up");
    CHECK(rgi_policy_choose(&p, &ground) == 1, "answers: by name (line 3)");
    CHECK(rgi_policy_choose(&p, &ground) == 2, "answers: by number (line 4)");
    CHECK(rgi_policy_choose(&p, &ground) == 2, "answers: by code (line 5)");
    CHECK(rgi_policy_choose(&p, &ground) == 2, "answers: by folded name (line 6)");
    CHECK(rgi_policy_choose(&p, &count) == 1, "answers: numeric by value (line 7)");
    CHECK(rgi_policy_choose(&p, &count) == -1, "answers: numeric options are not numbered (line 8)");
    CHECK(strcmp(rgi_policy_error(&p),
                 "answers.txt:8: '3' is not an option of: Alpha, how many?; options: 2, 4, 6") == 0,
          "answers: line 8's error: %s", rgi_policy_error(&p));
    CHECK(rgi_policy_choose(&p, &score) == 0, "answers: range lo (line 9)");
    CHECK(rgi_policy_choose(&p, &score) == 6, "answers: range hi (line 10)");
    CHECK(*rgi_policy_error(&p) == '\0', "answers: a good answer clears the error");
    CHECK(rgi_policy_choose(&p, &ground) == -1, "answers: 'retreat' (line 11)");
    CHECK(strcmp(rgi_policy_error(&p), "answers.txt:11: 'retreat' is not an option of: Bravo, "
                                      "which ground?; options: Standard, Coastal, Désert") == 0,
          "answers: line 11's error: %s", rgi_policy_error(&p));
    CHECK(rgi_policy_choose(&p, &score) == -1, "answers: none left");
    CHECK(strcmp(rgi_policy_error(&p),
                 "answers.txt:12: no answer for: score (the answers ran out)") == 0,
          "answers: the end's error: %s", rgi_policy_error(&p));
    rgi_policy_free(&p);

    CHECK(rgi_policy_answers(&p, "nul.txt", "1\0002\n", 4) == -1, "answers: a NUL byte refused");
    CHECK(strcmp(rgi_policy_error(&p), "nul.txt: a NUL byte in the answers") == 0,
          "answers: the NUL's error: %s", rgi_policy_error(&p));
    rgi_policy_free(&p);
  }

  /* a person's replies: prefixes, yes/no, dice, commands */
  {
    int64_t k;
    char why[512], text[64];
    CHECK(reply(&ground, "co", &k, why, sizeof why) == RG_REPLY_ANSWER && k == 1,
          "reply: 'co' is Coastal, the only name it starts");
    CHECK(reply(&ground, "dés", &k, why, sizeof why) == RG_REPLY_ANSWER && k == 2,
          "reply: a folded prefix 'dés'");
    CHECK(reply(&season, "s", &k, why, sizeof why) == RG_REPLY_BAD && k == -2, "reply: 's' is ambiguous");
    CHECK(strcmp(why, "'s' could be Spring/Autumn, Summer or Sandstorm; type more of the name "
                      "(? for help, undo to go back)") == 0, "reply: the ambiguity said: %s", why);
    CHECK(reply(&season, "su", &k, why, sizeof why) == RG_REPLY_ANSWER && k == 2, "reply: 'su'");
    CHECK(reply(&season, "winter", &k, why, sizeof why) == RG_REPLY_ANSWER && k == 0, "reply: whole name");
    CHECK(reply(&intercept, "y", &k, why, sizeof why) == RG_REPLY_ANSWER && k == 1, "reply: y is true");
    CHECK(reply(&intercept, "No", &k, why, sizeof why) == RG_REPLY_ANSWER && k == 0, "reply: No is false");
    CHECK(reply(&intercept, "yes", &k, why, sizeof why) == RG_REPLY_ANSWER && k == 1, "reply: yes");
    /* no numbers for yes or no: 1 might mean yes, or the first option (false) */
    CHECK(reply(&intercept, "1", &k, why, sizeof why) != RG_REPLY_ANSWER &&
          rgi_question_match(&intercept, "2") < 0, "reply: a number is not yes or no");
    CHECK(reply(&ground, "yes", &k, why, sizeof why) == RG_REPLY_BAD, "reply: yes only for yes/no");
    CHECK(reply(&twod6, "3 4", &k, why, sizeof why) == RG_REPLY_ANSWER && k == 2 + 3 * 6,
          "reply: 2d6 '3 4' is (3-1) + (4-1)*6 = 20, got %lld", (long long)k);
    CHECK(reply(&twod6, "6,6", &k, why, sizeof why) == RG_REPLY_ANSWER && k == 35, "reply: '6,6'");
    CHECK(reply(&twod6, "7", &k, why, sizeof why) == RG_REPLY_BAD, "reply: one number for 2d6");
    CHECK(strcmp(why, "'7' is not an option; answer 2 numbers from 1 to 6, such as 1 6 "
                      "(? for help, undo to go back)") == 0, "reply: 2d6's message: %s", why);
    CHECK(reply(&twod6, "3 4 5", &k, why, sizeof why) == RG_REPLY_BAD, "reply: three numbers for 2d6");
    CHECK(reply(&twod6, "0 4", &k, why, sizeof why) == RG_REPLY_BAD, "reply: 0 is no face");
    rgi_question_answer_text(&twod6, 20, text, sizeof text);
    CHECK(strcmp(text, "3 4") == 0, "answer text of 2d6 20: %s", text);
    rgi_question_answer_text(&ground, 0, text, sizeof text);
    CHECK(strcmp(text, "Standard") == 0, "answer text of ground 0: %s", text);
    CHECK(reply(&ground, " Undo ", &k, why, sizeof why) == RG_REPLY_UNDO, "reply: undo");
    CHECK(reply(&ground, "back", &k, why, sizeof why) == RG_REPLY_UNDO, "reply: back");
    CHECK(reply(&ground, "?", &k, why, sizeof why) == RG_REPLY_HELP, "reply: ?");
    CHECK(reply(&ground, "HELP", &k, why, sizeof why) == RG_REPLY_HELP, "reply: HELP");
    CHECK(reply(&ground, "save", &k, why, sizeof why) == RG_REPLY_SAVE, "reply: save");
    CHECK(reply(&ground, "9", &k, why, sizeof why) == RG_REPLY_BAD, "reply: 9 of 3");
    CHECK(strcmp(why, "'9' is not an option; answer a number from 1 to 3 or an option's name "
                      "(? for help, undo to go back)") == 0, "reply: 9's message: %s", why);
  }

  /* callback */
  {
    int64_t k = 2;
    rgi_policy_callback(&p, "ask", answer_with, &k);
    CHECK(rgi_policy_choose(&p, &ground) == 2, "callback: its answer");
    k = -1;
    CHECK(rgi_policy_choose(&p, &ground) == -1, "callback: its refusal");
    CHECK(strcmp(rgi_policy_error(&p), "gave up") == 0, "callback: its reason");
    k = 3;
    CHECK(rgi_policy_choose(&p, &ground) == -1, "callback: an answer outside 0..2");
    rgi_policy_free(&p);
  }

  /* matching on its own */
  CHECK(rgi_question_match(&ground, "standard") == 0, "match: name");
  CHECK(rgi_question_match(&ground, "0") == -1, "match: 0 is no number of the list");
  CHECK(rgi_question_match(&ground, "4") == -1, "match: 4 is past the list");
  CHECK(rgi_question_match(&score, "4") == -1, "match: 4 is outside -3..3");

  /* the start of a later word when no name starts so: "pass" is "BLACK
  ** pass"; "p" is not (no name starts with it, but "play" and "pass" are
  ** later words of two); a name's own start wins ("b" is BLACK) */
  {
    static const char *const plays[] = { "BLACK", "BLACK pass", "RED play" };
    rgi_question pq = { .who = "A", .prompt = "play", .n = 3, .name = name_of, .ctx = (void *)plays };
    CHECK(rgi_question_match(&pq, "pass") == 1, "match: pass is BLACK pass");
    CHECK(rgi_question_match(&pq, "PA") == 1, "match: PA is BLACK pass");
    CHECK(rgi_question_match(&pq, "p") == -1, "match: p could be pass or play");
    CHECK(rgi_question_match(&pq, "black") == 0, "match: a whole name before a later word");
    CHECK(rgi_question_match(&pq, "r") == 2, "match: r starts RED play");
  }

  /* The edges of a reply, each worked out from the question by hand:
  **   - numbers: a sign is a number ("+2" is 2), a number with a tail
  **     ("3x") or past int64 is not; below the range's lo is not; an
  **     empty answer never is; 2d6 with one number, with a number of 40
  **     digits, or "1+2" (1 and 2: index 0 + 1 * 6 = 6);
  **   - ten options that all start with "card": the message lists 8 and
  **     ends ", ..."; a later word shared by two names is ambiguous;
  **   - a secret question repeats neither a wrong answer nor an
  **     ambiguous one; a card none of which is left is refused, named
  **     only when the question is open;
  **   - a word longer than any command is an answer, not a command;
  **   - the help of a yes/no, a numeric and a ranged question, with the
  **     step, the rule file's place and the rule's name, and remarks;
  **   - an option whose name is another's (two "Red") is written by its
  **     number, so that the transcript answers it and not the first;
  **   - a hand (rgi_question_hand) of 0 cards, of a 300-byte name, of an
  **     ambiguous name (open: quoted; secret: not), of a card none left;
**     its example in the words answers match, case-folded ("2 épée"). */
  {
    static const char *const cards[] = { "card 1", "card 2", "card 3", "card 4", "card 5",
                                         "card 6", "card 7", "card 8", "card 9", "card 10" };
    static const char *const reds[] = { "Red", "Red", "Blue" };
    static const char *const tails[] = { "BLACK pass", "WHITE pass", "RED" };
    rgi_question deck = { .who = "A", .prompt = "card?", .n = 10, .name = name_of, .ctx = (void *)cards };
    rgi_question dup2 = { .prompt = "colour", .n = 3, .name = name_of, .ctx = (void *)reds };
    rgi_question tail = { .prompt = "play", .n = 3, .name = name_of, .ctx = (void *)tails };
    rgi_question secret = ground;
    rgi_question hand = { .who = "A", .prompt = "hand", .n = 3, .name = name_of, .ctx = (void *)reds,
                          .hand = 2 };
    int64_t k;
    char why[512], text[64], longname[300];
    rg_buf b;
    uint32_t ks[4];
    CHECK(rgi_question_match(&score, "+2") == 5, "edge: +2 is 2, option 5 of -3..3");
    CHECK(rgi_question_match(&score, "3x") == -1, "edge: 3x is no number");
    CHECK(rgi_question_match(&score, "99999999999999999999") == -1, "edge: past int64");
    CHECK(rgi_question_match(&score, "-4") == -1, "edge: below lo");
    CHECK(rgi_question_match(&ground, "") == -1, "edge: an empty answer");
    CHECK(rgi_question_match(&twod6, "3") == -1, "edge: one number for 2d6");
    CHECK(rgi_question_match(&twod6, "1+2") == 6, "edge: 1+2 is 0 + 1 * 6");
    CHECK(rgi_question_match(&twod6, "1 0000000000000000000000000000000000000002") == -1,
          "edge: a die of 40 digits");
    CHECK(reply(&deck, "card", &k, why, sizeof why) == RG_REPLY_BAD && k == -2 &&
          strcmp(why, "'card' could be card 1, card 2, card 3, card 4, card 5, card 6, card 7, "
                      "card 8, ...; type more of the name (? for help, undo to go back)") == 0,
          "edge: ten fit, eight named: %s", why);
    CHECK(reply(&deck, "card 10", &k, why, sizeof why) == RG_REPLY_ANSWER && k == 9,
          "edge: card 10 whole");
    CHECK(reply(&tail, "pa", &k, why, sizeof why) == RG_REPLY_BAD && k == -2 &&
          strcmp(why, "'pa' could be BLACK pass or WHITE pass; type more of the name (? for help, "
                      "undo to go back)") == 0, "edge: a later word of two names: %s", why);
    secret.secret = 1;
    CHECK(reply(&secret, "xyzzy", &k, why, sizeof why) == RG_REPLY_BAD &&
          strcmp(why, "that is not an option; answer a number from 1 to 3 or an option's name "
                      "(? for help, undo to go back)") == 0, "edge: secret, not repeated: %s", why);
    secret.ctx = (void *)seasons;
    secret.n = 4;
    CHECK(reply(&secret, "s", &k, why, sizeof why) == RG_REPLY_BAD && k == -2 &&
          strcmp(why, "that could be several options; type more of the name (? for help, undo to "
                      "go back)") == 0, "edge: secret ambiguity: %s", why);
    {
      /* BLACK none left, WHITE two, RED one */
      static const char *const colours[] = { "BLACK", "WHITE", "RED" };
      static const uint32_t left[] = { 0, 2, 1 };
      static const counted bag = { colours, left };
      rgi_question lq = { .who = "A", .prompt = "draw", .n = 3, .name = counted_name,
                          .left = counted_left, .ctx = (void *)&bag };
      CHECK(reply(&lq, "black", &k, why, sizeof why) == RG_REPLY_BAD && k == -1 &&
            strcmp(why, "no BLACK is left by the cards entered so far; check the card, or undo to "
                        "correct one entered before") == 0, "edge: none left, named: %s", why);
      lq.secret = 1;
      CHECK(reply(&lq, "black", &k, why, sizeof why) == RG_REPLY_BAD &&
            strcmp(why, "none of that card is left by the cards entered so far; check the card, "
                        "or undo to correct one entered before") == 0,
            "edge: none left, secret: %s", why);
      CHECK(rgi_question_match(&lq, "black") == -1 && rgi_question_match(&lq, "w") == 1,
            "edge: a card none left matches nothing");
    }
    CHECK(reply(&count, "abcdefghijklmnopqrstuvwxyz", &k, why, sizeof why) == RG_REPLY_BAD &&
          strcmp(why, "'abcdefghijklmnopqrstuvwxyz' is not an option; answer one of the numbers "
                      "listed (? for help, undo to go back)") == 0, "edge: a long word: %s", why);
    rgi_question_answer_text(&dup2, 1, text, sizeof text);
    CHECK(strcmp(text, "2") == 0, "edge: the second Red is written 2: %s", text);
    rgi_question_answer_text(&dup2, 0, text, sizeof text);
    CHECK(strcmp(text, "Red") == 0, "edge: the first by its name: %s", text);
    rgi_question_answer_text(&twod6, 35, text, 3);
    CHECK(strcmp(text, "6 ") == 0, "edge: 2d6's text cut to its buffer: '%s'", text);
    rg_buf_init(&b);
    {
      rgi_question yn = intercept, num = count, rng = score;
      yn.step = "Scouting";
      yn.where = "x.rules:4";
      yn.rule = "who intercepts";
      num.where = "";
      rgi_question_help(&b.out, &yn);
      rgi_question_help(&b.out, &num);
      rgi_question_help(&b.out, &rng);
    }
    CHECK(b.data && strcmp(b.data,
          "step: Scouting\nrule file: x.rules:4: who intercepts\nanswer yes or no\n"
          "a name may be shortened while only one fits; undo (or back) takes back\n"
          "the last answer; save [FILE] writes the game so far\n"
          "answer one of: 2, 4, 6\n"
          "a name may be shortened while only one fits; undo (or back) takes back\n"
          "the last answer; save [FILE] writes the game so far\n"
          "answer a number from -3 to 3\n"
          "a name may be shortened while only one fits; undo (or back) takes back\n"
          "the last answer; save [FILE] writes the game so far\n") == 0,
          "edge: three helps: %s", b.data ? b.data : "");
    rg_buf_free(&b);
    rg_buf_init(&b);
    CHECK(rgi_question_hand(&hand, " , ,", ks, &b.out) == -1 && b.data &&
          strcmp(b.data, "a count needs a card after it (1 red 1 blue)") == 0,
          "edge: a hand of no card: %s", b.data ? b.data : "");
    rg_buf_free(&b);
    rg_buf_init(&b);
    CHECK(rgi_question_hand(&hand, "0 blue", ks, &b.out) == -1 && b.data &&
          strcmp(b.data, "0 cards: this hand is 2 cards at most") == 0, "edge: 0 cards: %s",
          b.data ? b.data : "");
    rg_buf_free(&b);
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    rg_buf_init(&b);
    CHECK(rgi_question_hand(&hand, longname, ks, &b.out) == -1 && b.data &&
          strlen(b.data) == strlen("'' is not one of the cards (a hand is names, each may be after "
                                   "a count: 1 red 1 blue)") + 255,
          "edge: a 299-byte name is quoted cut to 255: %zu", b.data ? strlen(b.data) : 0);
    rg_buf_free(&b);
    tail.hand = 2;
    rg_buf_init(&b);
    CHECK(rgi_question_hand(&tail, "pa red", ks, &b.out) == -1 && b.data &&
          strcmp(b.data, "'pa' could be several cards; type more of it (a hand is names, each "
                         "may be after a count: 1 black 1 white)") == 0, "edge: an open hand's "
          "ambiguity: %s", b.data ? b.data : "");
    rg_buf_free(&b);
    tail.secret = 1;
    rg_buf_init(&b);
    CHECK(rgi_question_hand(&tail, "pa red", ks, &b.out) == -1 && b.data &&
          strcmp(b.data, "a card's name could be several cards; type more of it (a hand is names, "
                         "each may be after a count: 1 black 1 white)") == 0, "edge: a secret hand's "
          "ambiguity: %s", b.data ? b.data : "");
    rg_buf_free(&b);
    rg_buf_init(&b);
    CHECK(rgi_question_hand(&tail, "bl, 1 red", ks, &b.out) == 2 && ks[0] == 0 && ks[1] == 2 &&
          !b.data, "edge: bl and 1 red are cards 0 and 2");
    rg_buf_free(&b);
    {
      /* A hand's example is case-folded as answers are matched, not
      ** ASCII only: ÉPÉE (NFC) is "épée", and "2 épée" answers it. */
      static const char *const blades[] = { "ÉPÉE", "Sabre" };
      rgi_question bq = { .who = "A", .prompt = "hand", .n = 2, .name = name_of,
                          .ctx = (void *)blades, .hand = 2 };
      rg_buf_init(&b);
      CHECK(rgi_question_hand(&bq, "3", ks, &b.out) == -1 && b.data &&
            strcmp(b.data, "3 cards: this hand is 2 cards at most") == 0, "edge: 3 of 2: %s",
            b.data ? b.data : "");
      rg_buf_free(&b);
      rg_buf_init(&b);
      CHECK(rgi_question_hand(&bq, "2", ks, &b.out) == -1 && b.data &&
            strcmp(b.data, "a count needs a card after it (1 épée 1 sabre)") == 0,
            "edge: a non-ASCII card's example: %s", b.data ? b.data : "");
      rg_buf_free(&b);
      rg_buf_init(&b);
      CHECK(rgi_question_hand(&bq, "2 épée", ks, &b.out) == 2 && ks[0] == 0 && ks[1] == 0,
            "edge: the example's word answers: %s", b.data ? b.data : "");
      rg_buf_free(&b);
    }
    {
      /* The promise of a hand's examples: each, counted or listed, read
      ** back as a hand (rgi_question_hand) is the whole hand: q->hand
      ** cards, all but the last the first option, the last the next that
      ** answers to another word.  Over hands of 2 to 7 cards of a deck
      ** whose first two options share a word (Red, Red, Blue), of one word
      ** only (Red, Red), and of names past their first word. */
      static const char *const one[] = { "Red", "Red" };
      static const char *const *lists[] = { reds, one, tails, blades_of_help };
      static const uint32_t ns[] = { 3, 2, 3, 2 };
      static const uint32_t other[] = { 2, 0, 1, 1 };   /* the last card's option */
      uint32_t hk[8];
      for (int l = 0; l < 4; l++)
        for (uint32_t h = 2; h <= 7; h++)
          for (int listed = 0; listed < 2; listed++) {
            rgi_question hq = { .who = "A", .prompt = "hand", .n = ns[l], .name = name_of,
                                .ctx = (void *)lists[l], .hand = h };
            rg_buf ex, er;
            int got, whole = 1;
            rg_buf_init(&ex);
            rg_buf_init(&er);
            rgi_question_hand_example(&ex.out, &hq, listed);
            got = ex.data ? rgi_question_hand(&hq, ex.data, hk, &er.out) : -1;
            for (int i = 0; i < got; i++)
              whole &= hk[i] == (i + 1 == got && other[l] ? other[l] : 0);
            CHECK(got == (int)h && whole, "hand example %d/%u/%d: '%s' read back as %d cards (%s)",
                  l, h, listed, ex.data ? ex.data : "", got, er.data ? er.data : "");
            rg_buf_free(&ex);
            rg_buf_free(&er);
          }
      /* and a person's help at a hand names both, after the options */
      rgi_question hq = { .who = "A", .prompt = "hand", .n = 3, .name = name_of,
                          .ctx = (void *)reds, .hand = 3 };
      rg_buf_init(&b);
      rgi_question_help(&b.out, &hq);
      CHECK(b.data && strstr(b.data, "  3) Blue\nthe whole hand at once (3 cards): \"2 red 1 blue\", "
                                     "or \"red red blue\"\na name may be") != NULL,
            "hand help: %s", b.data ? b.data : "");
      rg_buf_free(&b);
    }
  }
  /* More edges, each from the questions above by hand: an answer that is
  ** not UTF-8 names nothing; "n" is no; answers with a tab and a CR after
  ** them and a last line without its newline ("coastal", then "standard":
  ** options 1 and 0), then none left on line 3; no answers at all: none
  ** for line 1; a question whose `who` is empty is written as its prompt. */
  {
    static const char text[] = "coastal\t\r\nstandard";
    int64_t k;
    char why[256];
    rgi_question nobody = { .who = "", .prompt = "which ground?", .n = 3, .name = name_of,
                            .ctx = (void *)grounds };
    rg_buf b;
    CHECK(rgi_question_match(&ground, "\xff") == -1, "edge: an answer not UTF-8");
    CHECK(reply(&intercept, "n", &k, why, sizeof why) == RG_REPLY_ANSWER && k == 0, "edge: n is no");
    CHECK(rgi_policy_answers(&p, "t.txt", text, sizeof text - 1) == 0 &&
          rgi_policy_choose(&p, &ground) == 1 && rgi_policy_choose(&p, &ground) == 0 &&
          rgi_policy_choose(&p, &ground) == -1 &&
          strcmp(rgi_policy_error(&p), "t.txt:3: no answer for: Bravo, which ground? (the answers "
                                      "ran out)") == 0, "edge: tab, CR, no last newline: %s",
          rgi_policy_error(&p));
    rgi_policy_free(&p);
    CHECK(rgi_policy_answers(&p, "e.txt", "", 0) == 0 && rgi_policy_choose(&p, &ground) == -1 &&
          strcmp(rgi_policy_error(&p), "e.txt:1: no answer for: Bravo, which ground? (the answers "
                                      "ran out)") == 0, "edge: no answers: %s", rgi_policy_error(&p));
    rgi_policy_free(&p);
    rg_buf_init(&b);
    rgi_question_write(&b.out, &nobody);
    CHECK(b.data && strcmp(b.data, "which ground?") == 0, "edge: no one named: %s",
          b.data ? b.data : "");
    rg_buf_free(&b);
  }
  /* the answers' two copies (the text, the line read): either allocation
  ** failing gives -2, and the third try, failing nothing, sets up */
  {
    int got[3];
    for (unsigned long k = 1; k <= 3; k++) {
      rg_alloc_fail_at(k);
      got[k - 1] = rgi_policy_answers(&p, "a.txt", "1\n", 2);
      rg_alloc_fail_at(0);
      rgi_policy_free(&p);
    }
    CHECK(got[0] == -2 && got[1] == -2 && got[2] == 0, "answers out of memory: %d %d %d", got[0],
          got[1], got[2]);
  }

  return check_done("test_policy");
}
