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
  - asks for help ("?") and gets the step, the sheet's words the rule file
    quotes (not its code) and the options;
  - takes an answer back ("undo": the season, Summer, replaced by Winter);
  - plays the PBS cards secretly: the answer is not echoed, and neither
    card shows before both are in; then both show;
  - saves the game mid-way ("save FILE").

Then `--resume TRANSCRIPT` (stdin empty) must print the same record byte
for byte, and so must `--resume` of the mid-way save followed by the rest
of the answers.  Prints `table: N passed, M failed`; exits 1 on a failure.
"""
import os
import re
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


CSI = re.compile(rb"\x1b\[([0-9;]*)([A-Za-z])")


class Screen:
    """A terminal of unlimited size and scrollback that understands what
    regula writes: text, CR, LF, backspace, cursor up (CSI n A), home
    (CSI H) and erase (CSI J: 0 below, 2 the screen, 3 the scrollback;
    with home and 2 and 3 together, everything)."""

    def __init__(self):
        self.lines = [""]
        self.row = 0
        self.col = 0

    def feed(self, data):
        """Replays bytes written to the terminal."""
        i = 0
        while i < len(data):
            m = CSI.match(data, i)
            if m:
                arg, cmd = m.group(1).decode(), m.group(2).decode()
                n = int(arg) if arg.isdigit() else 0
                if cmd == "A":
                    self.row = max(0, self.row - max(n, 1))
                elif cmd == "H":
                    self.row, self.col = 0, 0
                elif cmd == "J":
                    if n == 0:
                        self.lines = self.lines[:self.row + 1]
                        self.lines[self.row] = self.lines[self.row][:self.col]
                    else:   # 2 or 3: with the cursor at home, all of it
                        self.lines = [""]
                        self.row = self.col = 0
                i = m.end()
                continue
            c = data[i:i + 1]
            i += 1
            if c == b"\r":
                self.col = 0
            elif c == b"\n":
                self.row += 1
                self.col = 0
                if self.row == len(self.lines):
                    self.lines.append("")
            elif c == b"\b":
                self.col = max(0, self.col - 1)
            elif c == b"\x1b":
                continue
            else:
                # A UTF-8 sequence is kept whole.
                j = i
                while j < len(data) and 0x80 <= data[j] < 0xC0:
                    j += 1
                ch = (c + data[i:j]).decode("utf-8", "replace")
                i = j
                line = self.lines[self.row].ljust(self.col)
                self.lines[self.row] = line[:self.col] + ch + line[self.col + 1:]
                self.col += 1

    def text(self):
        """All the terminal holds, scrollback and screen."""
        return "\n".join(l.rstrip() for l in self.lines)



PASS = re.compile(rb"\(pass to ([^;]+); [^)]*press Enter[^)]*\): $")


def is_pass(text):
    """Whether text (bytes) ends at a hand-over: the screen passed to the
    one who answers the next secret question, Enter when they alone see
    it."""
    return PASS.search(text[-300:]) is not None


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
        self.auto_pass = True   # press Enter at a hand-over (see is_pass)
        self.passes = 0         # hand-overs passed so far
        self.passed_at = -1     # where the last one handled ended

    def read_question(self, timeout=20.0):
        """Reads until the output ends in a prompt ("> " or ": ") or the
        program ends.  Returns the text since the last answer, or None at
        the end."""
        end = time.time() + timeout
        while True:
            text = self.screen[self.mark:]
            if (self.auto_pass and is_pass(text) and len(self.screen) != self.passed_at):
                # the one who answers has the screen now: Enter, and on
                self.passed_at = len(self.screen)
                self.passes += 1
                os.write(self.master, b"\r")
                continue
            if (text.endswith(b"> ") or text.endswith(b": ")) and \
               not (self.auto_pass and is_pass(text)):
                # a read of a pseudo-terminal can end anywhere in what the
                # program wrote ("  roll YELLOW: " of "roll YELLOW: blank"):
                # it is the prompt only once the program waits for its answer
                if self.waiting():
                    return text.decode("utf-8", "replace")
                pending = True
            else:
                pending = False
            left = end - time.time()
            if left <= 0:
                raise RuntimeError("no question within %gs; the screen ends with:\n%s"
                                   % (timeout, self.screen[-2000:].decode("utf-8", "replace")))
            r, _, _ = select.select([self.master], [], [], min(left, 0.001 if pending else 0.5))
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

    def waiting(self):
        """True when the program waits for input with nothing more to show:
        it is blocked in a read of its stdin (/proc/PID/syscall on Linux)
        and a read that does not wait (which first takes in what the
        kernel still holds of its writes) finds nothing; where the syscall
        cannot be read, when it has written nothing for 0.3 s.  Adds what
        more it wrote to the screen."""
        blocked = None
        try:
            with open("/proc/%d/syscall" % self.proc.pid) as f:
                fields = f.read().split()
            nr = {"x86_64": "0", "aarch64": "63"}.get(os.uname().machine)
            if nr is not None and fields:
                blocked = fields[0] == nr and len(fields) > 1 and int(fields[1], 16) == 0
        except (OSError, ValueError):
            pass
        if blocked is False:
            return False        # still working: look again soon
        if blocked:
            os.set_blocking(self.master, False)
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                return True
            except OSError:
                data = b""
            finally:
                os.set_blocking(self.master, True)
        else:
            r, _, _ = select.select([self.master], [], [], 0.3)
            if not r:
                return True
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
        self.screen += data
        return not data

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


def answer_lines(path):
    """How many answers the transcript at path holds."""
    with open(path) as f:
        return sum(1 for l in f if l.strip() and not l.startswith("#"))


def play_until(p, screen, want, fed=0):
    """Answers p's questions as a plain table does (tests/secrecy.py's
    players) until one whose line starts with want.  Returns (the
    question, bytes of the screen fed), or (None, fed) at the end."""
    import secrecy
    t = secrecy.Table()
    n = 0
    while True:
        text = p.read_question()
        screen.feed(p.screen[fed:])
        fed = len(p.screen)
        if text is None:
            return None, fed
        q = question_of(text)
        if q.startswith(want):
            return q, fed
        ans, _ = t.answer(n, q, "(secret:" in text)
        n += 1
        p.say(ans)


def undo_at_secret(binary, tmp):
    """Undo at B's secret prompt: A is asked again, and B's question and
    options (B's hand) are gone from the screen and its scrollback."""
    p = Player([binary, "run", RULES, "--policy", "ask", "--dice", "ask"], os.devnull)
    screen = Screen()
    q, fed = play_until(p, screen, "player B, play a PBS card")
    check(q is not None, "B is asked to play a card")
    if q is None:
        return
    check("player B, play a PBS card" in screen.text(), "B's question shows while B answers")
    passes = p.passes
    p.say("undo")
    text = p.read_question() or ""
    # A's hand must not show in front of B: the screen is passed to A first
    check(p.passes == passes + 1 and text.find("(pass to player A;") != -1 and
          text.find("(pass to player A;") < text.rfind("player A, play a PBS card"),
          "after B takes back, the screen is passed to A before A's options show: "
          + text[-400:])
    screen.feed(p.screen[fed:])
    view = screen.text()
    check(question_of(text).startswith("player A, play a PBS card"),
          "undo at B's secret prompt asks A again: " + text[-300:])
    check("took back a secret answer" in view, "the screen says a secret answer was taken back")
    check("player B, play a PBS card" not in view,
          "B's question and hand are gone from the screen once B took back: " + view[-600:])
    p.proc.kill()
    p.finish()


def hand_at_once(binary, tmp):
    """A whole hand typed at one prompt, checked against the bag without
    showing it, and taken back at once."""
    p = Player([binary, "run", RULES, "--policy", "ask", "--dice", "ask"], os.devnull)
    screen = Screen()
    q, fed = play_until(p, screen, "player A, PBS cards from the bag: draw 6")
    check(q is not None, "A is asked for a hand of 6 cards")
    if q is None:
        return
    p.say("2 red 1 white yellow green black")
    q2 = question_of(p.read_question() or "")
    check(q2.startswith("player B, PBS cards from the bag: draw 5"),
          "a hand of 6 at one prompt, then B draws: " + q2[:200])
    p.say("undo")
    t = p.read_question() or ""
    check("took back 6 secret cards" in t and
          question_of(t).startswith("player A, PBS cards from the bag: draw 6"),
          "undo takes the whole hand back: " + t[-300:])
    p.say("red red")
    q3 = question_of(p.read_question() or "")
    check(q3.startswith("player A, PBS cards from the bag: draw 4"),
          "a part of the hand, then the rest is asked: " + q3[:200])
    p.say("5 white")
    t = p.read_question() or ""
    check("this hand is 4 cards at most" in t, "more cards than the hand is refused: " + t[-200:])
    p.say("3 red yellow")
    q4 = question_of(p.read_question() or "")
    check(q4.startswith("player B, PBS cards from the bag: draw 5"),
          "the rest of the hand at once: " + q4[:200])
    # A holds 5 of the 8 REDs: B names 5, refused without
    # saying how many are left.
    p.say("5 red")
    q5 = p.read_question() or ""
    check("none of that card is left" in q5 and "left)" not in q5,
          "more of a card than the bag holds is refused, not counted: " + q5[-300:])
    p.proc.kill()
    p.finish()


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
            check("step: Deciding Invader and Defender" in t and
                  'the sheet: "If invader wins, they pick a territory type' in t and
                  "choose(" not in t and "  1) " in t,
                  "help shows the step, the sheet's words (not rule-file code) and the "
                  "options: " + t[-800:])
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

    # Replay the transcript with no other flag: its header says how the
    # game was played; the same record, byte for byte.
    out2 = os.path.join(tmp, "resumed.out")
    with open(out2, "wb") as o, open(os.devnull, "rb") as i:
        code2 = subprocess.call([binary, "run", "--resume", transcript], stdin=i, stdout=o,
                                stderr=subprocess.DEVNULL)
    check(code2 == 0, "--resume of the transcript alone exits 0, not %s" % code2)
    check(open(out2, "rb").read() == record, "--resume alone gives the record byte for byte")

    # A flag that contradicts the header, or other rules, is refused saying which.
    for extra, says in ((["--dice", "random"], "--dice ask"), (["--policy", "random"], "--policy ask"),
                        (["--seed", "9"], "seed 1, not 9"),
                        (["rules/meg/pacto.rules"], "not with rules/meg/pacto.rules")):
        r = subprocess.run([binary, "run", "--resume", transcript] + extra, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        check(r.returncode == 2 and says in r.stderr and not r.stdout,
              "--resume with %s is refused naming %r: exit %d, %r" % (extra, says, r.returncode,
                                                                     r.stderr[-300:]))

    # A header that does not parse is an error at its line and column.
    bad = os.path.join(tmp, "bad-seed.txt")
    with open(transcript) as f, open(bad, "w") as g:
        g.write(f.read().replace(", seed 1,", ", seed -1,", 1))
    r = subprocess.run([binary, "run", "--resume", bad], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    check(r.returncode == 2 and r.stderr.startswith(bad + ":1:") and "error: the seed" in r.stderr
          and "^" in r.stderr, "a seed that does not parse is an error at the header line: %d %r"
          % (r.returncode, r.stderr[-300:]))

    # A resumed game keeps saving to its transcript: stopped again half-way,
    # then resumed again, it ends as the first game did.
    keep = os.path.join(tmp, "keep.txt")
    with open(midway, "rb") as f, open(keep, "wb") as g:
        g.write(f.read())
    before = answer_lines(keep)
    half = len(answers_after_save) // 2
    r = subprocess.run([binary, "run", "--resume", keep],
                       input="\n".join(answers_after_save[:half]) + "\n",
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, universal_newlines=True)
    check(r.returncode == 2 and answer_lines(keep) == before + half,
          "a resumed game stopped again has saved its %d new answers to its transcript "
          "(exit %d, %d answers before, %d after)" % (half, r.returncode, before, answer_lines(keep)))
    out4 = os.path.join(tmp, "kept.out")
    with open(out4, "wb") as o:
        r = subprocess.run([binary, "run", "--resume", keep],
                           input="\n".join(answers_after_save[half:]) + "\n",
                           stdout=o, stderr=subprocess.DEVNULL, universal_newlines=True)
    check(r.returncode == 0 and open(out4, "rb").read() == record,
          "resumed twice, the game ends as it was played (exit %d)" % r.returncode)

    undo_at_secret(binary, tmp)
    hand_at_once(binary, tmp)

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
