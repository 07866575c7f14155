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

static int passed, failed;

#define CHECK(cond, ...) do { \
    if (cond) passed++; \
    else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)

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

  printf("test_policy: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
