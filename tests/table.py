#!/usr/bin/env python3
"""tests/table.py BINARY: a whole Maximus pre-battle at the table, played
through a pseudo-terminal as a person would, then replayed from its
transcript.

`regula run rules/meg/maximus.rules --policy ask --dice ask` runs with its
stdin and stderr on a pseudo-terminal (the conversation and the log as it
happens) and its stdout to a file (the game's record).  The player:

  - answers by names in lower case, by prefixes ("inv", "r" for RED) and
    by numbers; two dice as "3 5"; yes/no as "no";
  - makes a typo ("invdr") that is refused, then answers;
  - asks for help ("?") and gets the step, the rule and the options;
  - takes an answer back ("undo": the season, Summer, replaced by Winter);
  - plays the PBS cards secretly: the answer is not echoed, and neither
    card shows before both are in; then both show;
  - saves the game mid-way ("save FILE").

Then `--resume TRANSCRIPT` (stdin empty) must print the same record byte
for byte, and so must `--resume` of the mid-way save followed by the rest
of the answers.  Prints `table: N passed, M failed`; exits 1 on a failure.
"""
import os
import select
import subprocess
import sys
import tempfile
import time

RULES = "rules/meg/maximus.rules"
passed = 0
failed = 0


def check(cond, what):
    """Counts a check; prints what failed."""
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL table: " + what)


class Player:
    """A person at a pseudo-terminal: reads until a question waits, answers."""

    def __init__(self, argv, out_path):
        self.master, slave = os.openpty()
        self.out = open(out_path, "wb")
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=self.out, stderr=slave,
                                     close_fds=True)
        os.close(slave)
        self.screen = b""       # everything the terminal showed
        self.mark = 0           # where the text since the last answer starts

    def read_question(self, timeout=20.0):
        """Reads until the output ends in a prompt ("> " or ": ") or the
        program ends.  Returns the text since the last answer, or None at
        the end."""
        end = time.time() + timeout
        while True:
            text = self.screen[self.mark:]
            if text.endswith(b"> ") or text.endswith(b": "):
                return text.decode("utf-8", "replace")
            left = end - time.time()
            if left <= 0:
                raise RuntimeError("no question within %gs; the screen ends with:\n%s"
                                   % (timeout, self.screen[-2000:].decode("utf-8", "replace")))
            r, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if r:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    data = b""
                if not data:
                    return None
                self.screen += data
            elif self.proc.poll() is not None:
                # Drain what is left.
                try:
                    while True:
                        r, _, _ = select.select([self.master], [], [], 0.2)
                        if not r:
                            break
                        data = os.read(self.master, 65536)
                        if not data:
                            break
                        self.screen += data
                except OSError:
                    pass
                text = self.screen[self.mark:]
                if text.endswith(b"> ") or text.endswith(b": "):
                    return text.decode("utf-8", "replace")
                return None

    def say(self, line):
        """Types line and Enter."""
        self.mark = len(self.screen)
        os.write(self.master, line.encode() + b"\r")

    def finish(self):
        """Waits for the program; returns its exit code."""
        code = self.proc.wait(timeout=60)
        self.out.close()
        os.close(self.master)
        return code


def question_of(text):
    """The question in text: its last line that names who acts or what is
    rolled or drawn, with the options after it."""
    lines = text.replace("\r", "").split("\n")
    for i in range(len(lines) - 1, -1, -1):
        s = lines[i]
        if not s.startswith("  ") and not s.startswith("> ") and s.strip() and \
           not s.startswith("'") and not s.startswith("("):
            return "\n".join(lines[i:])
    return text


def plays_in_view(screen, who):
    """How many cards who has played by what the terminal shows now (the
    text after its last clearing of the screen and scrollback)."""
    view = screen.split(b"\x1b[3J")[-1].decode("utf-8", "replace")
    return sum(1 for l in view.split("\n")
               if l.strip().startswith(who + " chooses") and "(play a PBS card" in l)


def main():
    if len(sys.argv) != 2:
        print("usage: tests/table.py BINARY", file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="regula-table.")
    transcript = os.path.join(tmp, "game.txt")
    midway = os.path.join(tmp, "midway.txt")
    out1 = os.path.join(tmp, "played.out")
    base = [binary, "run", RULES, "--policy", "ask", "--dice", "ask"]
    p = Player(base + ["--transcript", transcript], out1)

    d6 = iter([3, 4, 6, 2, 1, 5, 3, 2, 4, 6, 5, 1, 2, 3, 4, 5, 6, 1] * 4)
    cards = iter("r y g w b r y r g w y r b g y w r g b y w r g y".split())
    typo_done = help_done = undo_done = saved = False
    secret_pending = None       # A's secret answer, until B's is in
    season_answers = []
    secrets_seen = []
    answers_after_save = []
    screen_at_secret = None
    steps = 0
    while True:
        text = p.read_question()
        if text is None:
            break
        steps += 1
        if steps > 400:
            check(False, "more than 400 questions: the game does not end: "
                  + p.screen[-1500:].decode("utf-8", "replace"))
            p.proc.kill()
            break
        q = question_of(text)
        first = q.split("\n")[0]
        secret = "(secret:" in text
        if secret_pending == "AB" and not secret:
            # The moment is over: both cards show now, and not before.
            check("player A chooses" in text and "player B chooses" in text,
                  "both secret cards show together after the second: " + repr(text[-900:]))
            secret_pending = None
        if secret:
            if "player A" in first and "play a PBS card" in first:
                a_plays_before = plays_in_view(p.screen, "player A")
                secret_pending = "A"
            elif "player B" in first and "play a PBS card" in first and secret_pending == "A":
                secret_pending = "AB"
                secrets_seen.append("AB")
                check(plays_in_view(p.screen, "player A") == a_plays_before,
                      "A's secret card is not shown before B plays: "
                      + p.screen[-600:].decode("utf-8", "replace"))
        if "(yes or no)" in first:
            ans = "no"
        elif "2 numbers, each 1..6" in first:
            ans = "3 5"
        elif "roll d6" in first:
            ans = str(next(d6))
        elif "roll YELLOW" in first:
            ans = "skull"          # player A's commander die wins
        elif "roll " in first:
            ans = "bl"             # blank, by a prefix
        elif ": draw " in first:
            ans = next(cards)
        elif "invader or defender" in first:
            if not typo_done:
                typo_done = True
                p.say("invdr")
                t = p.read_question()
                check(t is not None and "'invdr' is not an option" in t,
                      "a typo is refused and asked again: " + (t or "")[-300:])
            ans = "inv"
        elif "territory type" in first and not help_done:
            help_done = True
            p.say("?")
            t = p.read_question() or ""
            check("step: Deciding Invader and Defender" in t and "the rule:" in t and
                  "choose(picker" in t and "  1) " in t,
                  "help shows the step, the rule and the options: " + t[-800:])
            ans = "1"
        elif first.endswith("season") or ", season\n" in q:
            ans = "summer" if not undo_done else "winter"
            season_answers.append(ans)
        elif not undo_done and season_answers:
            undo_done = True
            p.say("undo")
            t = p.read_question() or ""
            check("took back 'Summer'" in t and "season" in question_of(t),
                  "undo takes the season back and asks it again: " + t[-400:])
            p.say("winter")
            season_answers.append("winter")
            continue
        elif "move the item how many BW?" in first:
            ans = "2"
        elif "how many optional items?" in first:
            ans = "1"
        else:
            ans = "1"
        if not saved and "choose a compulsory item" in first:
            saved = True
            p.say("save " + midway)
            t = p.read_question() or ""
            check("saved the game so far to " + midway in t, "save says where: " + t[-300:])
        if saved:
            answers_after_save.append(ans)
        if os.environ.get("TABLE_DEBUG"):
            print(repr(first), "->", ans)
        p.say(ans)
    code = p.finish()
    check(code == 0, "the game ends with exit 0, not %s" % code)
    check(typo_done and help_done and undo_done and saved, "the typo, help, undo and save were met")
    check(len(secrets_seen) >= 3, "both players played secretly at least 3 times, not %d"
          % len(secrets_seen))
    record = open(out1, "rb").read()
    check(b"\n== Result card\n" in record and b"\nSeason: Winter; weather: " in record,
          "the record ends with the result card")
    check(b"chooses Winter (season)" in record, "the record has the season as finally chosen")
    screen = p.screen.decode("utf-8", "replace")
    check("took back 'Summer'" in screen, "the terminal said what was taken back")
    check("(player A has answered in secret)" in screen and "\x1b[3J" in screen,
          "a secret question and its options are erased (screen and scrollback) once answered")
    check(b"chooses Summer" not in record, "the record has no trace of the answer taken back")

    # Replay the transcript: the same record, byte for byte.
    out2 = os.path.join(tmp, "resumed.out")
    with open(out2, "wb") as o, open(os.devnull, "rb") as i:
        code2 = subprocess.call(base + ["--resume", transcript], stdin=i, stdout=o,
                                stderr=subprocess.DEVNULL)
    check(code2 == 0, "--resume of the transcript exits 0, not %s" % code2)
    check(open(out2, "rb").read() == record, "--resume gives the record byte for byte")

    # The save made mid-way, then the rest of the answers typed.
    out3 = os.path.join(tmp, "midway.out")
    with open(out3, "wb") as o:
        r = subprocess.run(base + ["--resume", midway], input="\n".join(answers_after_save) + "\n",
                           stdout=o, stderr=subprocess.DEVNULL, universal_newlines=True)
    check(r.returncode == 0, "--resume of the mid-way save plus the rest exits 0, not %s"
          % r.returncode)
    check(open(out3, "rb").read() == record, "the mid-way save plus the rest gives the same record")
    print("table: %d passed, %d failed" % (passed, failed))
    if failed:
        print("(files kept in %s)" % tmp)
    else:
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
