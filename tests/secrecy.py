#!/usr/bin/env python3
"""tests/secrecy.py BINARY [RULES...]: a secret stays secret at the table.

The promise (docs: "hands are never printed"), as a property: two games
that differ only in one player's secret draws or answers show every other
player exactly the same thing (each prompt, each line of the log, each
option) until the rules reveal the secret.

For each rule file (default: every bundled one with secrets) a base game is
played through a pseudo-terminal (`run FILE --policy ask --dice ask`) by a
fixed, deterministic table of players (see Table.answer): the dice come from
a fixed sequence, the cards are named in turn, the choices take their first
option.  Every question asked in secret is a secret moment.  For each one,
a second game is played exactly as the first except that, at that moment,
the player answers another option (another card, another choice); the rest
of the table keeps its ways.  A small terminal (table.Screen) replays the bytes
written to the pty, so that a line erased (screen and scrollback) is gone,
as on a real terminal.

At every question of the two games the whole terminal (screen and
scrollback) is compared, except while the player who holds the secret
answers in secret with the screen to themselves: the screen was passed to
them (a hand-over: "pass to X; X, press Enter ..."), or their own secret
question came just before.  Otherwise whoever answered last is taken to be
still looking, so a secret question shown straight after another player's
answer is compared like any other.  The games may differ
once the rules reveal something: the log lines on the screen (those that
end in "[FILE:LINE]") differ; the first such line must be one the rules
wrote (a choice or a note), not a roll or a draw.  A difference anywhere
else while the log lines are still the same is a leak: the test fails and
shows it.

Prints `secrecy: N moments, M games, K leaks`; exits 1 on a leak or when a
file has no secret moment.  SECRECY_EVERY=k checks every k-th moment only
(the quick tests); SECRECY_DEBUG=1 prints each question and answer.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import table  # noqa: E402  (the pty Player and question_of)

FILES = ["rules/meg/maximus.rules", "rules/meg/magna.rules", "rules/meg/pacto.rules",
         "rules/meg/revised/maximus.rules", "rules/meg/revised/magna.rules",
         "rules/meg/revised/pacto.rules"]

LOG_LINE = re.compile(r"(\[[^\]\s]+:\d+\]\s*$)|(^== )|(^run \w+: seed)|(^placeholders: )|"
                      r"(^\s+\(the only option)")


def log_lines(view):
    """The lines of the game's log in a view."""
    return [l for l in view.split("\n") if LOG_LINE.search(l)]


class Table:
    """The players: deterministic answers, one game.  override: (index of a
    question, 'alt') to answer that secret question otherwise."""

    def __init__(self, override=None):
        self.override = override
        self.dice = 0
        self.cards = 0

    def roll(self, lo, hi):
        """The next die of the fixed sequence, in lo..hi."""
        seq = [3, 5, 2, 6, 4, 1, 5, 3, 6, 2, 1, 4]
        v = seq[self.dice % len(seq)]
        self.dice += 1
        return lo + (v - 1) % (hi - lo + 1)

    def answer(self, index, q, secret):
        """Returns (answer, alternative or None) for question q (its line
        and options), the index-th question of the game."""
        lines = q.split("\n")
        first = lines[0]
        options = [l for l in lines[1:] if re.match(r"  \d+\) ", l)]
        m = re.search(r"\((\d+) numbers, each (-?\d+)\.\.(-?\d+)\): $", first)
        if "(yes or no)" in first:
            return "no", "yes"
        if m:
            return " ".join(str(self.roll(int(m.group(2)), int(m.group(3))))
                            for _ in range(int(m.group(1)))), None
        m = re.search(r"\((-?\d+)\.\.(-?\d+)\): $", first)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if ": roll " in first:
                return str(self.roll(lo, hi)), None
            return str(lo), str(lo + 1) if hi > lo else None
        m = re.search(r"\(one of ([^)]*)\): $", first)
        if m:
            vals = [v.strip() for v in m.group(1).split(",")]
            return vals[0], vals[1] if len(vals) > 1 else None
        n = max(1, len(options))
        if ": draw " in first:
            k = self.cards % n
            self.cards += 1
            return str(k + 1), str((k + 1) % n + 1) if n > 1 else None
        if ": roll " in first:
            k = self.roll(1, 6) % n
            return str(k + 1), None
        return "1", "2" if n > 1 else None


def play(binary, rules, override=None, debug=False):
    """Plays one game.  Returns its list of questions, each a dict: who,
    the question's line, secret, the view (the whole terminal when it was
    asked), the answer; the last entry is the end of the game."""
    argv = [binary, "run", rules, "--policy", "ask", "--dice", "ask"]
    p = table.Player(argv, os.devnull)
    p.auto_pass = False         # the hand-overs are moments of their own here
    t = Table(override)
    screen = table.Screen()
    fed = 0
    asked = []
    while True:
        text = p.read_question()
        screen.feed(p.screen[fed:])
        fed = len(p.screen)
        if text is None:
            break
        if len(asked) > 900:
            p.proc.kill()
            raise RuntimeError("%s: more than 900 questions" % rules)
        if table.is_pass(text.encode()):
            # the screen is passed: the one who answered last sees it
            to = table.PASS.search(text.encode()[-300:]).group(1).decode()
            asked.append({"who": to, "line": "(pass to %s)" % to, "secret": False,
                          "pass": True, "alone": False, "view": screen.text(),
                          "answer": "", "alt": None})
            p.say("")
            continue
        q = table.question_of(text)
        first = q.split("\n")[0]
        secret = "(secret:" in text
        who = first.split(", ")[0] if ", " in first else ""
        ans, alt = t.answer(len(asked), q, secret)
        if override is not None and override == len(asked):
            ans = alt
        prev = asked[-1] if asked else None
        # who sees this question: its player alone only when the screen was
        # passed to them, or was theirs alone already (their secret question
        # just before); else whoever answered last is still looking
        alone = secret and prev is not None and prev["who"] == who and \
            (prev.get("pass") or prev["secret"])
        asked.append({"who": who, "line": first, "secret": secret, "alone": alone,
                      "view": screen.text(), "answer": ans, "alt": alt})
        if debug:
            print("%3d %s%r -> %s" % (len(asked) - 1, "S " if secret else "  ", first, ans))
        p.say(ans)
    code = p.finish()
    asked.append({"who": "", "line": "(the end, exit %d)" % code, "secret": False,
                  "alone": False, "view": screen.text(), "answer": None, "alt": None})
    return asked


def compare(base, alt, moment, rules):
    """Compares what the others saw in the two games from the moment on.
    Returns None, or a description of a leak."""
    owner = base[moment]["who"]
    for j in range(moment, min(len(base), len(alt))):
        b, a = base[j], alt[j]
        if (b["alone"] and b["who"] == owner) or (a["alone"] and a["who"] == owner):
            continue            # the secret's holder looks alone
        lb, la = log_lines(b["view"]), log_lines(a["view"])
        if lb != la:
            k = next((i for i in range(min(len(lb), len(la))) if lb[i] != la[i]),
                     min(len(lb), len(la)))
            first = (lb + [""])[k] if k < len(lb) else (la + [""])[k]
            if re.match(r"\s+(roll|draw) ", first):
                return ("question %d (%s): the log differs first at a %s line, which the "
                        "rules do not write to reveal: %r" % (j, b["line"], first.split()[0], first))
            return None         # the rules revealed it
        if b["view"] != a["view"]:
            vb, va = b["view"].split("\n"), a["view"].split("\n")
            k = next((i for i in range(min(len(vb), len(va))) if vb[i] != va[i]),
                     min(len(vb), len(va)))
            return ("%s: question %d, asked of %s (%s), shows a secret of %s answered at "
                    "question %d (%s):\n  base: %r\n  alt:  %r"
                    % (rules, j, b["who"] or "everyone", b["line"], owner, moment,
                       base[moment]["line"], vb[k] if k < len(vb) else "(nothing)",
                       va[k] if k < len(va) else "(nothing)"))
        if b["line"] != a["line"]:
            return None         # both at the end, or asked of the holder openly
    return None


def main():
    if len(sys.argv) < 2:
        print("usage: tests/secrecy.py BINARY [RULES...]", file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    files = sys.argv[2:] or FILES
    every = int(os.environ.get("SECRECY_EVERY", "1"))
    debug = bool(os.environ.get("SECRECY_DEBUG"))
    moments = games = leaks = 0
    bad = False
    for rules in files:
        base = play(binary, rules, debug=debug)
        games += 1
        secret_at = [i for i, q in enumerate(base[:-1]) if q["secret"] and q["alt"] is not None]
        if not secret_at:
            print("FAIL secrecy: %s: no secret moment to test" % rules)
            bad = True
            continue
        for n, i in enumerate(secret_at):
            if n % every:
                continue
            moments += 1
            alt = play(binary, rules, override=i)
            games += 1
            leak = compare(base, alt, i, rules)
            if leak:
                leaks += 1
                print("FAIL secrecy: " + leak)
    print("secrecy: %d moments, %d games, %d leaks" % (moments, games, leaks))
    return 1 if leaks or bad else 0


if __name__ == "__main__":
    sys.exit(main())
