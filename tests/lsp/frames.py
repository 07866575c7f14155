#!/usr/bin/env python3
"""tests/lsp/frames.py BINARY: `regula lsp` never goes silent after a bad frame.

For each kind of bad frame (a Content-Length that is negative, over the
limit, missing, given twice with different values, not a number; a body cut
short; garbage between frames; a header block without its blank line; a
body that is not JSON, or JSON that is no request) a fresh server gets the
bad frame and then 10 ordinary requests: all 10 must be answered, each
within 5 seconds, and the bad frame itself answered with a JSON-RPC error
carrying its id when its body has one.  Frames that are merely unusual (the
header in lower case, the same Content-Length twice, a Content-Type header
before it) must be served as ordinary requests.  An input cut short inside
a frame must end the server (exit 3), not hang it.  A document whose table
comes `from "/dev/stdin"` (or extends it, or names a folder) gets a
diagnostic, and the server goes on reading its protocol.
Prints one line per failed check and a count; exits 1 on any failure."""
import json, os, select, subprocess, sys, time

binary = sys.argv[1]
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("lsp frames: FAIL", what)


def body(i, method="textDocument/completion"):
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": method,
                       "params": {"textDocument": {"uri": "file:///nowhere.rules"},
                                  "position": {"line": 0, "character": 0}}}).encode()


def frame(b, name=b"Content-Length"):
    return name + b": %d\r\n\r\n" % len(b) + b


class Server:
    def __init__(self):
        self.p = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buf = b""

    def write(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def _fill(self, deadline):
        left = deadline - time.time()
        if left <= 0:
            return False
        r, _, _ = select.select([self.p.stdout], [], [], left)
        if not r:
            return False
        chunk = os.read(self.p.stdout.fileno(), 65536)
        if not chunk:
            return False
        self.buf += chunk
        return True

    def message(self, timeout=5):
        """The next message the server writes, or None (silent or ended)."""
        deadline = time.time() + timeout
        while b"\r\n\r\n" not in self.buf:
            if not self._fill(deadline):
                return None
        head, rest = self.buf.split(b"\r\n\r\n", 1)
        n = int(head.split(b":")[1])
        while len(rest) < n:
            if not self._fill(deadline):
                return None
            head, rest = self.buf.split(b"\r\n\r\n", 1)
        self.buf = rest[n:]
        return json.loads(rest[:n])

    def reply(self, i, timeout=5):
        """The reply to request i (messages before it kept in self.seen)."""
        while True:
            m = self.message(timeout)
            if m is None or m.get("id") == i:
                return m
            self.seen.append(m)

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            return self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None


def case(name, bad, bad_id=None, served=None, code=None):
    """Sends bad, then 10 requests; bad_id: the id the bad frame's error
    must carry; served: the id of a request inside `bad` that must be
    answered normally; code: the error code expected."""
    s = Server()
    s.seen = []
    s.write(frame(body(1, "initialize")))
    check(s.reply(1) is not None, "%s: initialize answered" % name)
    s.write(bad)
    answered = 0
    for k in range(10):
        i = 1000 + k
        s.write(frame(body(i)))
        r = s.reply(i)
        if r is not None and r.get("result") == []:
            answered += 1
    check(answered == 10, "%s: %d of 10 later requests answered" % (name, answered))
    if bad_id is not None:
        errs = [m for m in s.seen if m.get("id") == bad_id]
        check(len(errs) == 1 and "error" in errs[0] and (code is None or errs[0]["error"]["code"] == code),
              "%s: one error answering id %s: %s" % (name, bad_id, s.seen))
    if served is not None:
        ok = [m for m in s.seen if m.get("id") == served and m.get("result") == []]
        check(len(ok) == 1, "%s: request %s served: %s" % (name, served, s.seen))
    s.write(frame(body(2, "shutdown")))
    s.reply(2)
    s.write(frame(json.dumps({"jsonrpc": "2.0", "method": "exit"}).encode()))
    check(s.close() == 0, "%s: shutdown and exit" % name)


b = body(100)
case("negative Content-Length", b"Content-Length: -%d\r\n\r\n" % len(b) + b, 100, code=-32600)
b = body(101)
case("Content-Length over the limit", b"Content-Length: 999999999999\r\n\r\n" + b, 101)
case("Content-Length far over the limit", b"Content-Length: 99999999999999999999999999\r\n\r\n" + body(111), 111)
b = body(102)
case("missing Content-Length", b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + b, 102)
b = body(103)
case("two Content-Lengths that differ",
     b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n" % (len(b), len(b) + 7) + b, 103)
b = body(104)
case("the same Content-Length twice",
     b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n" % (len(b), len(b)) + b, served=104)
case("content-length in lower case", frame(body(105), b"content-length"), served=105)
case("CONTENT-LENGTH in upper case", frame(body(115), b"CONTENT-LENGTH"), served=115)
case("a Content-Type header first",
     b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + frame(body(125)), served=125)
b = body(106)
case("Content-Length not a number", b"Content-Length: twelve\r\n\r\n" + b, 106)
b = body(116)
case("Content-Length with trailing junk", b"Content-Length: %dx\r\n\r\n" % len(b) + b, 116)
b = body(107)
case("a body cut short", b"Content-Length: %d\r\n\r\n" % (len(b) + 40) + b[:-3], 107)
b = body(117)
case("a body cut short by a few bytes", b"Content-Length: %d\r\n\r\n" % (len(b) + 4) + b, 117)
case("garbage between frames", b"hello\r\nworld \x00\xff\xfe{{{ ]]] \r\n\r\n")
case("garbage without a line end", b"\x1b[2J garbage")
b = body(109)
case("a header block without its blank line", b"Content-Length: %d\r\n" % len(b) + b, 109)
case("a body that is not JSON", frame(b"{not json at all"))
case("a body of JSON cut short, with its id", frame(body(119)[:40]), 119, code=-32700)
case("a request whose method is no string",
     frame(json.dumps({"jsonrpc": "2.0", "id": 108, "method": 5}).encode()), 108, code=-32600)
case("an array for a message", frame(b"[1, 2, 3]"))
case("an empty body", b"Content-Length: 0\r\n\r\n")
case("a Content-Length line that never ends", b"Content-Length: " + b"9" * 2000)
case("a header line too long", b"Content-Length: 10\r\nX-Junk: " + b"a" * 10000 + b"\r\n\r\n")

# a document whose table is `from` the server's own stdin (or a folder, or
# `extends` it): the file is refused with a diagnostic at its `from` or
# `extends` (line 0), and the protocol after it is still read and answered
for name, text, says in [
        ("/dev/stdin", 'table t(k: 1..3) -> int from "/dev/stdin"\n', "a pipe"),
        ("/proc/self/fd/0", 'table t(k: 1..3) -> int from "/proc/self/fd/0"\n', "a pipe"),
        ("extends /dev/stdin", 'ruleset "x" extends "/dev/stdin"\n', "a pipe"),
        ("a folder", 'table t(k: 1..3) -> int from "/tmp"\n', "a folder")]:
    s = Server()
    s.seen = []
    s.write(frame(body(1, "initialize")))
    s.reply(1)
    s.write(frame(json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": "file:///tmp/stdin-table.rules", "languageId": "regula",
                         "version": 1, "text": text}}}).encode()))
    answered = 0
    for k in range(10):
        s.write(frame(body(1000 + k)))
        answered += s.reply(1000 + k) is not None
    check(answered == 10, "from %s: %d of 10 later requests answered" % (name, answered))
    ds = [d for m in s.seen if m.get("method") == "textDocument/publishDiagnostics"
          for d in m["params"]["diagnostics"]]
    check(any("not a regular file (%s)" % says in d["message"] and d["range"]["start"]["line"] == 0
              for d in ds), "from %s: a diagnostic on line 1 saying so: %s" % (name, ds))
    s.write(frame(body(2, "shutdown")))
    s.reply(2)
    s.write(frame(json.dumps({"jsonrpc": "2.0", "method": "exit"}).encode()))
    check(s.close() == 0, "from %s: shutdown and exit" % name)

# the input ends inside a frame: the server ends (exit 3), it does not hang
for name, tail in [("inside a body", b"Content-Length: 500\r\n\r\n{\"jsonrpc\""),
                   ("inside the headers", b"Content-Length: 5"),
                   ("inside garbage", b"Content-Len")]:
    s = Server()
    s.seen = []
    s.write(frame(body(1, "initialize")))
    s.reply(1)
    s.write(tail)
    check(s.close() == 3, "input ending %s: exit 3" % name)

print("lsp frames: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
