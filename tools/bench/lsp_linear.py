#!/usr/bin/env python3
"""tools/bench/lsp_linear.py REGULA LIMIT: the language server in linear time.

A document of about 1 MB in the shape that was quadratic (issue 29: 45,000
constants, each a distinct name; completion compared every name with every
earlier one): `regula lsp` opens it, takes a change, and answers completion
(everything, then after `.`), hover, definition, references and formatting
at its end; then it opens a second document, 1 MB of short constants
(72,000 names: the compiler's tables had 1024 fixed buckets), and hovers
there.  Each must be answered in under LIMIT seconds.  Prints one line
per case in the layout of tools/bench/linear.sh; exits 1 if one is over.
"""
import json, os, subprocess, sys, tempfile, time

regula, limit = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
N = 45000
lines = ['ruleset "many constants"', "enum side { A, B }",
         "record pair { left: int, right: int }"]
lines += ["const c%d = %d" % (i, i) for i in range(N)]
lines += ["procedure main(p: pair) -> int {", "  return c%d + p.left" % (N - 1), "}", ""]
text = "\n".join(lines)
last = len(lines) - 3                     # the line `  return cNNN + p.left`
tmp = tempfile.mkdtemp(prefix="regula-lsp-linear.")
path = os.path.join(tmp, "many.rules")
with open(path, "w") as f:
    f.write(text)
uri = "file://" + path
p = subprocess.Popen([regula, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
failed = 0


def send(msg):
    b = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
    p.stdin.flush()


def read():
    n = None
    while True:
        line = p.stdout.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            n = int(line.split(b":")[1])
    return json.loads(p.stdout.read(n))


def until(pred):
    while True:
        m = read()
        if m is None or pred(m):
            return m


def cpu():
    """The server's CPU seconds so far (user and system; Linux), or 0."""
    try:
        f = open("/proc/%d/stat" % p.pid).read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def timed(name, msg, pred):
    """Sends msg, waits for the message pred accepts; prints the wall time
    (judged against the limit) and the server's CPU time (which a loaded
    machine does not inflate)."""
    global failed
    t0, c0 = time.time(), cpu()
    send(msg)
    m = until(pred)
    secs, csecs = time.time() - t0, cpu() - c0
    verdict = "ok" if m is not None and secs < limit else "FAIL"
    failed += verdict != "ok"
    size = len(json.dumps(m)) if m is not None else 0
    print("%-44s %7.3fs  cpu %6.3fs  %9d bytes  %s" % (name, secs, csecs, size, verdict))


def request(i, method, params):
    return {"jsonrpc": "2.0", "id": i, "method": method, "params": params}


def at(line, char):
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": char}}


diags = lambda m: m.get("method") == "textDocument/publishDiagnostics"
reply = lambda i: (lambda m: m.get("id") == i)
send(request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}}))
until(reply(1))
size = "%d KB, %d constants" % (len(text) // 1000, N)
timed("lsp open, " + size, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "regula", "version": 1, "text": text}}}, diags)
timed("lsp change (the whole text again)", {"jsonrpc": "2.0", "method": "textDocument/didChange",
      "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]}}, diags)
col = lines[last].index("c%d" % (N - 1))
timed("lsp complete: every name", request(2, "textDocument/completion", at(last, col)), reply(2))
timed("lsp complete: after `.`", request(3, "textDocument/completion",
                                          at(last, lines[last].index("left"))), reply(3))
timed("lsp hover on a constant", request(4, "textDocument/hover", at(last, col + 1)), reply(4))
timed("lsp definition of a constant", request(5, "textDocument/definition", at(last, col + 1)), reply(5))
timed("lsp references of a constant", request(6, "textDocument/references",
      dict(at(last, col + 1), context={"includeDeclaration": True})), reply(6))
timed("lsp format the document", request(7, "textDocument/formatting",
      {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}}), reply(7))
# A second document: 1 MB of short constants (`const ab_=0`, 72,000 names):
# each request compiles it again, and the compiler's tables had 1024 fixed
# buckets (a hover took 1.65 s).
def short_name(i):
    n = ""
    while True:
        n = chr(97 + i % 26) + n
        i //= 26
        if i == 0:
            return n
short, size2 = [], 0
while size2 < 1000000:
    short.append("const %s_=0" % short_name(len(short)))
    size2 += len(short[-1]) + 1
path2 = os.path.join(tmp, "short.rules")
with open(path2, "w") as f:
    f.write("\n".join(short) + "\n")
uri2 = "file://" + path2
timed("lsp open, %d KB of %d short constants" % (size2 // 1000, len(short)),
      {"jsonrpc": "2.0", "method": "textDocument/didOpen",
       "params": {"textDocument": {"uri": uri2, "languageId": "regula", "version": 1,
                                   "text": "\n".join(short) + "\n"}}},
      lambda m: diags(m) and m["params"]["uri"] == uri2)
timed("lsp hover on its last constant", request(9, "textDocument/hover",
      {"textDocument": {"uri": uri2}, "position": {"line": len(short) - 1, "character": 7}}), reply(9))
send(request(8, "shutdown", None))
until(reply(8))
send({"jsonrpc": "2.0", "method": "exit"})
p.wait(timeout=10)
os.remove(path)
os.remove(path2)
os.rmdir(tmp)
sys.exit(1 if failed else 0)
