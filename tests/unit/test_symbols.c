/*
** test_symbols.c: what rg_rules_symbols and rg_rules_uses hand an editor
** (regula.h, "Symbols, for editors"): rules and steps with their
** procedure, the cells written in a file (RG_SYMBOL_ROW), and the uses of
** names, of rules and steps (override, remove) and of cells, each at its
** line and byte column.  The text below is parsed only (it would not
** compile: an override without extends); every column was counted by hand
** (1-based bytes) and is written next to its line.
*/
#include "regula_front.h"

#include <stdio.h>
#include <string.h>
#include "check.h"

static const char text[] =
  "ruleset \"t\"\n"                                   /* 1 */
  "enum ground { S \"Standard\", C \"Coastal\" }\n"    /* 2 */
  "table bonus(ground) -> int { S: 1, C: 2 }\n"       /* 3: ground 13, S 30, C 36 */
  "procedure deploy(g: ground) -> int {\n"            /* 4: ground 21 */
  "  step \"Order\" {\n"                               /* 5: Order 9 */
  "    rule \"first\" {\n"                             /* 6: first 11 */
  "      return bonus[g] + bonus[ground.C]\n"         /* 7: bonus 14, g 20, bonus 25, ground 31, C 38 */
  "    }\n"                                           /* 8 */
  "  }\n"                                             /* 9 */
  "}\n"                                               /* 10 */
  "override rule \"first\" in deploy {\n"             /* 11: first 16, deploy 26 */
  "  return 1\n"                                      /* 12 */
  "}\n"                                               /* 13 */
  "override bonus[C] = 3\n"                           /* 14: bonus 10, C 16 */
  "remove step \"Order\" in deploy\n";                 /* 15: Order 14, deploy 24 */

/* What the callback saw, one line each: "KIND NAME CONTAINER LINE:COL USE". */
typedef struct seen {
  char s[8192];
  size_t n;
} seen;

/* rg_symbol_fn: appends s to the seen text. */
static void on_symbol(void *ctx, const rg_symbol *s) {
  seen *v = ctx;
  int k = snprintf(v->s + v->n, sizeof v->s - v->n, "%d %s %s %u:%u %d\n", (int)s->kind, s->name,
                   s->container ? s->container : "-", s->line, s->byte_col, s->use);
  if (k > 0 && (size_t)k < sizeof v->s - v->n) v->n += (size_t)k;
}

/* rg_symbol_fn: appends "KIND NAME CONTAINER LINE:COL tsv=T assumed=A" for
** the kinds the notes case looks at. */
static void on_detail(void *ctx, const rg_symbol *s) {
  static const char *const names[] = { [RG_SYMBOL_TABLE] = "TABLE", [RG_SYMBOL_NOTE] = "NOTE",
                                       [RG_SYMBOL_ROW] = "ROW", [RG_SYMBOL_STEP] = "STEP" };
  seen *v = ctx;
  if ((size_t)s->kind >= sizeof names / sizeof *names || !names[s->kind]) return;
  int k = snprintf(v->s + v->n, sizeof v->s - v->n, "%s %s %s %u:%u tsv=%s assumed=%s\n",
                   names[s->kind], s->name, s->container ? s->container : "-", s->line,
                   s->byte_col, s->tsv ? s->tsv : "-", s->assumed ? s->assumed : "-");
  if (k > 0 && (size_t)k < sizeof v->s - v->n) v->n += (size_t)k;
}

/* Whether the seen text holds the line want. */
static int has(const seen *v, const char *want) {
  return strstr(v->s, want) != NULL;
}

/* A loader that has w.tsv and nothing else. */
static rg_status tsv_load(void *ctx, const char *from, const char *name, rg_load_kind kind,
                          rg_source *src, char *err, size_t errlen) {
  (void)ctx, (void)from, (void)kind;
  if (strcmp(name, "w.tsv") != 0) {
    snprintf(err, errlen, "no %s", name);
    return RG_NOT_FOUND;
  }
  src->text = "ground\tvalue\nS\t1\nC\t2\n";
  src->len = strlen(src->text);
  src->path = "tables/w.tsv";
  return RG_OK;
}

int main(void) {
  seen d, u;
  char want[128];
  memset(&d, 0, sizeof d);
  memset(&u, 0, sizeof u);
  CHECK(rg_rules_symbols("t.rules", text, sizeof text - 1, NULL, on_symbol, &d) == RG_OK, "symbols");
  CHECK(rg_rules_uses("t.rules", text, sizeof text - 1, NULL, on_symbol, &u) == RG_OK, "uses");

  /* declarations: the step and the rule at their names, the two cells,
  ** the override of the rule as a rule of deploy */
  snprintf(want, sizeof want, "%d Order deploy 5:9 0\n", RG_SYMBOL_STEP);
  CHECK(has(&d, want), "the step at its name: %s", d.s);
  snprintf(want, sizeof want, "%d first deploy 6:11 0\n", RG_SYMBOL_RULE);
  CHECK(has(&d, want), "the rule at its name: %s", d.s);
  snprintf(want, sizeof want, "%d first deploy 11:16 0\n", RG_SYMBOL_RULE);
  CHECK(has(&d, want), "the overriding rule: %s", d.s);
  snprintf(want, sizeof want, "%d S bonus 3:30 0\n%d C bonus 3:36 0\n", RG_SYMBOL_ROW, RG_SYMBOL_ROW);
  CHECK(has(&d, want), "the cells S and C of bonus: %s", d.s);
  CHECK(!strstr(d.s, " 1\n"), "no use among the declarations: %s", d.s);

  /* uses */
  static const struct { rg_symbol_kind k; const char *rest; } uses[] = {
    { RG_SYMBOL_NAME, "ground - 3:13 1" },       /* the key of bonus */
    { RG_SYMBOL_MEMBER, "S - 3:30 1" },           /* its cells' keys */
    { RG_SYMBOL_MEMBER, "C - 3:36 1" },
    { RG_SYMBOL_NAME, "ground - 4:21 1" },        /* the parameter's type */
    { RG_SYMBOL_NAME, "bonus - 7:14 1" },
    { RG_SYMBOL_NAME, "g - 7:20 1" },
    { RG_SYMBOL_NAME, "bonus - 7:25 1" },
    { RG_SYMBOL_NAME, "ground - 7:31 1" },
    { RG_SYMBOL_NAME, "C ground 7:38 1" },        /* ground.C: the member, of ground */
    { RG_SYMBOL_RULE, "first deploy 11:16 1" },   /* override rule "first" in deploy */
    { RG_SYMBOL_PROCEDURE, "deploy - 11:26 1" },
    { RG_SYMBOL_TABLE, "bonus - 14:10 1" },       /* override bonus[C] */
    { RG_SYMBOL_ROW, "C bonus 14:16 1" },
    { RG_SYMBOL_STEP, "Order deploy 15:14 1" },   /* remove step "Order" in deploy */
    { RG_SYMBOL_PROCEDURE, "deploy - 15:24 1" },
  };
  for (size_t i = 0; i < sizeof uses / sizeof *uses; i++) {
    snprintf(want, sizeof want, "%d %s\n", (int)uses[i].k, uses[i].rest);
    CHECK(has(&u, want), "a use %s: %s", want, u.s);
  }
  CHECK(!strstr(u.s, " 0\n"), "no declaration among the uses: %s", u.s);

  /* A variant's parts (columns counted by hand): a member added to the
  ** base's enum is declared (of that enum); a removed name, a record
  ** copied with `with`, a field's value, a die rolled by name, a member
  ** of a record literal are uses. */
  {
    static const char variant[] =
      "ruleset \"v\" extends \"base.rules\"\n"                  /* 1 */
      "extend enum ground { F \"Forest\" after S } source \"r\"\n" /* 2: F 22 */
      "remove old source \"r\"\n"                                /* 3: old 8 */
      "record pair { a: int, b: ground }\n"                      /* 4: ground 26 */
      "procedure mk(p: pair) -> pair {\n"                        /* 5: pair 17, pair 26 */
      "  let n = roll RED\n"                                     /* 6: RED 16 */
      "  return { p with a: n, b: F }\n"                         /* 7: p 12, n 22, F 28 */
      "}\n";                                                     /* 8 */
    seen vd, vu;
    memset(&vd, 0, sizeof vd);
    memset(&vu, 0, sizeof vu);
    CHECK(rg_rules_symbols("v.rules", variant, sizeof variant - 1, NULL, on_symbol, &vd) == RG_OK &&
          rg_rules_uses("v.rules", variant, sizeof variant - 1, NULL, on_symbol, &vu) == RG_OK,
          "variant: symbols and uses");
    snprintf(want, sizeof want, "%d F ground 2:22 0\n", RG_SYMBOL_MEMBER);
    CHECK(has(&vd, want), "variant: the added member: %s", vd.s);
    static const char *const vuses[] = {
      "old - 3:8 1", "ground - 4:26 1", "pair - 5:17 1", "pair - 5:26 1", "RED - 6:16 1",
      "p - 7:12 1", "n - 7:22 1", "F - 7:28 1",
    };
    for (size_t i = 0; i < sizeof vuses / sizeof *vuses; i++) {
      snprintf(want, sizeof want, "%d %s\n", RG_SYMBOL_NAME, vuses[i]);
      CHECK(has(&vu, want), "variant: a use %s: %s", want, vu.s);
    }
  }
  /* Notes and TSV tables (columns counted by hand): an `assumed` note is a
  ** symbol of its own (RG_SYMBOL_NOTE at its keyword, on what it is on) and the first one
  ** the `assumed` of what it is on; a table from a TSV the loader finds
  ** carries the file's resolved path, one it does not find none; a cell
  ** written with a qualified member and a range is named as written; a
  ** strategy's picks are uses. */
  {
    static const char notes[] =
      "ruleset \"n\"\n"                                                      /* 1 */
      "enum ground { S, C }\n"                                               /* 2 */
      "table w(ground) -> int from \"w.tsv\" { S: assumed \"smudged\" }\n"   /* 3: w 7, assumed 42 */
      "table x(ground) -> int from \"x.tsv\"\n"                              /* 4 */
      "table r(n: 1..3, g: ground) -> int { 1..2, ground.S: 1 assumed \"guess\", _, _: 0 }\n"
                                                                             /* 5: cell 38, assumed 56 */
      "procedure p() -> ground {\n"                                          /* 6 */
      "  step \"One\" assumed \"order\" {\n"                                 /* 7: One 9, assumed 14 */
      "    return C\n"                                                       /* 8 */
      "  }\n"                                                                /* 9 */
      "}\n"                                                                  /* 10 */
      "strategy bold \"d\" {\n"                                              /* 11 */
      "  \"where?\": ground.C\n"                                             /* 12: ground 13 */
      "}\n";                                                                 /* 13 */
    rg_loader ld = { tsv_load, NULL, NULL };
    rg_compile_options opt = RG_OPTIONS(rg_compile_options);
    seen nd, nu;
    opt.loader = &ld;
    memset(&nd, 0, sizeof nd);
    memset(&nu, 0, sizeof nu);
    CHECK(rg_rules_symbols("n.rules", notes, sizeof notes - 1, &opt, on_detail, &nd) == RG_OK &&
          rg_rules_uses("n.rules", notes, sizeof notes - 1, &opt, on_symbol, &nu) == RG_OK,
          "notes: symbols and uses");
    static const char *const nwant[] = {
      "TABLE w - 3:7 tsv=tables/w.tsv assumed=-",
      "NOTE smudged w 3:42 tsv=- assumed=-",
      "TABLE x - 4:7 tsv=- assumed=-",
      "ROW 1..2, ground.S r 5:38 tsv=- assumed=guess",
      "NOTE guess r 5:56 tsv=- assumed=-",
      "STEP One p 7:9 tsv=- assumed=order",
      "NOTE order p 7:14 tsv=- assumed=-",
    };
    for (size_t i = 0; i < sizeof nwant / sizeof *nwant; i++)
      CHECK(has(&nd, nwant[i]), "notes: [%s] in:\n%s", nwant[i], nd.s);
    snprintf(want, sizeof want, "%d ground - 12:13 1\n", RG_SYMBOL_NAME);
    CHECK(has(&nu, want), "notes: the pick's value a use: %s", nu.s);
  }
  {
    /* A file that does not parse: its declarations before the error are
    ** still handed (an editor indexes a file being written) */
    static const char broken[] = "enum ground { S, C }\nconst = 1\n";
    seen bd;
    memset(&bd, 0, sizeof bd);
    rg_status st = rg_rules_symbols("b.rules", broken, sizeof broken - 1, NULL, on_symbol, &bd);
    snprintf(want, sizeof want, "%d ground - 1:6 0\n", RG_SYMBOL_ENUM);
    CHECK(st == RG_OK && has(&bd, want), "broken: %s, %s", rg_status_name(st), bd.s);
  }
  {
    /* every allocation that fails ends in RG_NOMEM, never a crash */
    unsigned long k;
    for (k = 1; k < 5000; k++) {
      seen fd;
      rg_status st;
      memset(&fd, 0, sizeof fd);
      rg_alloc_fail_at(k);
      st = rg_rules_uses("t.rules", text, sizeof text - 1, NULL, on_symbol, &fd);
      rg_alloc_fail_at(0);
      if (st == RG_OK) break;
      CHECK(st == RG_NOMEM, "uses: failure %lu gives %s", k, rg_status_name(st));
    }
    CHECK(k > 1 && k < 5000, "uses: succeeded after %lu", k);
  }
  return check_done("symbols");
}
