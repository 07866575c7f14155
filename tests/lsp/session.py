#!/usr/bin/env python3
"""tests/lsp/session.py BINARY: a scripted session with `regula lsp`.

Starts the server, opens tests/lsp/variant.rules (which extends base.rules,
whose table `cover` comes from cover.tsv) with a slip in it, and checks each
reply against values read off the files by hand: the diagnostic's range and
message, the diagnostics cleared once fixed, hover (a table's cells, a
constant's value and its assumed note, an assumed note's text), definition
across extends and into the TSV, a slip in the base shown on the variant's
extends line, completion (everything; types only where a type goes, fields
only after a dot), the outline, shutdown and exit.
Prints one line per failed check and a count; exits 1 on any failure."""
import json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
variant, base = os.path.join(here, "variant.rules"), os.path.join(here, "base.rules")
uri = lambda p: "file://" + p
proc = subprocess.Popen([sys.argv[1], "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
passed = failed = 0
pending = []                      # notifications read while waiting for a reply

def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("lsp: FAIL", what)

def send(msg):
    body = json.dumps(msg).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()

def read():
    n = None
    while True:
        line = proc.stdout.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            n = int(line.split(b":")[1])
    return json.loads(proc.stdout.read(n))

def request(i, method, params):
    send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
    while True:
        m = read()
        if m is None or m.get("id") == i:
            return m
        pending.append(m)

def notify(method, params):
    send({"jsonrpc": "2.0", "method": method, "params": params})

def diagnostics():
    while not pending:
        m = read()
        if m is None:
            return None
        pending.append(m)
    m = pending.pop(0)
    check(m.get("method") == "textDocument/publishDiagnostics", "expected diagnostics, got %s" % m)
    return m["params"]

def at(path, line, char):
    return {"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": char}}

text = open(variant).read()
slip = text.replace("const wide = reach * 2", "const wide = reach * 2\nconst bad = nosuch + 1")

r = request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}})
caps = r["result"]["capabilities"]
check(caps.get("hoverProvider") and caps.get("definitionProvider") and caps.get("documentSymbolProvider")
      and caps.get("referencesProvider") and caps.get("documentFormattingProvider"),
      "initialize: capabilities %s" % caps)
notify("initialized", {})

# a slip: `nosuch` on line 5 (0-based 4), at column 12
notify("textDocument/didOpen", {"textDocument": {"uri": uri(variant), "languageId": "regula",
                                                 "version": 1, "text": slip}})
d = diagnostics()
check(d["uri"] == uri(variant) and len(d["diagnostics"]) == 1, "didOpen: one diagnostic: %s" % d)
if d["diagnostics"]:
    g = d["diagnostics"][0]
    check(g["range"] == {"start": {"line": 4, "character": 12}, "end": {"line": 4, "character": 18}},
          "the diagnostic's range: %s" % g["range"])
    check(g["message"] == "unknown name 'nosuch'" and g["severity"] == 1, "the diagnostic: %s" % g)

# fixed: the diagnostics are cleared
notify("textDocument/didChange", {"textDocument": {"uri": uri(variant), "version": 2},
                                  "contentChanges": [{"text": text}]})
d = diagnostics()
check(d["diagnostics"] == [], "didChange: diagnostics cleared: %s" % d)

# hover on the table `cover` (line 6 `  return cover[g] * 2`, 0-based 6): its cells
lines = text.split("\n")
row = next(i for i, l in enumerate(lines) if "return cover[g]" in l)
h = request(2, "textDocument/hover", at(variant, row, lines[row].index("cover") + 2))
v = h["result"]["contents"]["value"] if h.get("result") else ""
check("Standard" in v and "Coastal" in v and "cover.tsv" in v, "hover cover: %r" % v)
check(any(l.split()[:2] == ["Standard", "1"] for l in v.split("\n")) and
      any(l.split()[:2] == ["Coastal", "5"] for l in v.split("\n")),
      "hover cover: the cells (Coastal 5: the variant's override of cover.tsv's 2): %r" % v)
check("compiled module" not in v and "assumptions" not in v,
      "hover cover: the table alone, no word on a compiled module's assumptions: %r" % v)

# hover on the constant `reach`: its value, its unit, its star, its assumed note
row = next(i for i, l in enumerate(lines) if "const wide" in l)
h = request(3, "textDocument/hover", at(variant, row, lines[row].index("reach")))
v = h["result"]["contents"]["value"] if h.get("result") else ""
check("reach = 6 BW*" in v and "base widths, as elsewhere" in v, "hover reach: %r" % v)

# definition of `reach`, across extends: base.rules line 9 (0-based 8), column 6
btext = open(base).read()
blines = btext.split("\n")
brow = next(i for i, l in enumerate(blines) if l.startswith("const reach"))
dd = request(4, "textDocument/definition", at(variant, row, lines[row].index("reach") + 1))
check(dd["result"] == [{"uri": uri(base), "range": {"start": {"line": brow, "character": 6},
                                                   "end": {"line": brow, "character": 11}}}],
      "definition of reach: %s" % dd["result"])

# base.rules opened too: hover on `assumed`, definition from the table into the TSV
notify("textDocument/didOpen", {"textDocument": {"uri": uri(base), "languageId": "regula",
                                                 "version": 1, "text": btext}})
d = diagnostics()
check(d["uri"] == uri(base) and d["diagnostics"] == [], "base: no diagnostics: %s" % d)
arow = brow + 1
h = request(5, "textDocument/hover", at(base, arow, blines[arow].index("assumed") + 3))
v = h["result"]["contents"]["value"] if h.get("result") else ""
check(v == "**assumed** on reach: the sheet prints no unit; base widths, as elsewhere",
      "hover assumed: %r" % v)
trow = next(i for i, l in enumerate(blines) if l.startswith("table cover"))
for col in (blines[trow].index("cover"), blines[trow].index("cover.tsv") + 2):
    dd = request(6, "textDocument/definition", at(base, trow, col))
    check(dd["result"] == [{"uri": uri(os.path.join(here, "cover.tsv")),
                            "range": {"start": {"line": 0, "character": 0},
                                      "end": {"line": 0, "character": 0}}}],
          "definition into the TSV from column %d: %s" % (col, dd["result"]))

# a slip in base.rules: base gets the diagnostic at its place; the variant,
# checked again, shows it on its `extends` line (0-based 1) with base's place
bslip = btext.replace("const reach", "const oops = nowhere\nconst reach", 1)
orow = next(i for i, l in enumerate(bslip.split("\n")) if l.startswith("const oops"))
notify("textDocument/didChange", {"textDocument": {"uri": uri(base), "version": 2},
                                  "contentChanges": [{"text": bslip}]})
got = {}
for _ in range(2):
    d = diagnostics()
    got[d["uri"]] = d["diagnostics"]
bd, vd = got.get(uri(base), []), got.get(uri(variant), [])
check(len(bd) == 1 and bd[0]["range"]["start"] == {"line": orow, "character": 13}
      and bd[0]["message"] == "unknown name 'nowhere'", "base slip: %s" % bd)
check(len(vd) == 1 and vd[0]["range"]["start"]["line"] == 1 and
      vd[0]["message"] == "in base.rules:%d:14: unknown name 'nowhere'" % (orow + 1),
      "the variant shows base's error: %s" % vd)
check(len(vd) == 1 and vd[0].get("relatedInformation") ==
      [{"location": {"uri": uri(base), "range": {"start": {"line": orow, "character": 13},
                                                 "end": {"line": orow, "character": 20}}},
        "message": "unknown name 'nowhere'"}],
      "the variant's diagnostic points at base's place: %s" % vd)
notify("textDocument/didChange", {"textDocument": {"uri": uri(base), "version": 3},
                                  "contentChanges": [{"text": btext}]})
got = {}
for _ in range(2):
    d = diagnostics()
    got[d["uri"]] = d["diagnostics"]
check(got == {uri(base): [], uri(variant): []}, "base mended, both cleared: %s" % got)

# completion: members, tables, procedures, fields of both files
c = request(7, "textDocument/completion", at(variant, 0, 0))
labels = {(i["label"], i["kind"]) for i in c["result"]}
for want in [("S", 20), ("C", 20), ("cover", 9), ("main", 3), ("twice", 3), ("total", 5),
             ("reach", 21), ("wide", 21), ("ground", 13), ("outcome", 22)]:
    check(want in labels, "completion lacks %s" % (want,))

# completion by place: after `->` and after `g:` in a parameter, types only
# (the file's enums and records, the language's own); after `o.`, fields only
prow = next(i for i, l in enumerate(lines) if l.startswith("procedure twice"))
for col in (lines[prow].index("-> int") + 3, lines[prow].index(": ground") + 2):
    c = request(10, "textDocument/completion", at(variant, prow, col))
    labels = {(i["label"], i["kind"]) for i in c["result"]}
    check({("ground", 13), ("outcome", 22), ("int", 25), ("distance", 25)} <= labels and
          not any(k in (3, 9, 20, 21, 5) for _, k in labels),
          "completion of a type at %d: %s" % (col, sorted(labels)))
look = text + "\nprocedure look(o: outcome) -> int {\n  return o.total\n}\n"
notify("textDocument/didChange", {"textDocument": {"uri": uri(variant), "version": 4},
                                  "contentChanges": [{"text": look}]})
diagnostics()
diagnostics()
lrow = next(i for i, l in enumerate(look.split("\n")) if "return o.total" in l)
c = request(11, "textDocument/completion", at(variant, lrow, look.split("\n")[lrow].index("total") + 2))
labels = {(i["label"], i["kind"]) for i in c["result"]}
check(labels == {("total", 5), ("ground", 5)}, "completion after o.: fields only: %s" % sorted(labels))
notify("textDocument/didChange", {"textDocument": {"uri": uri(variant), "version": 5},
                                  "contentChanges": [{"text": text}]})
diagnostics()
diagnostics()

# rules, steps and rows: definition, hover, references (values read off
# base.rules and variant.rules: `    rule "nobody outscouted" {` has the name
# at column 10; `table bonus(ground) -> int { S: 1, C: 2 }` its cell C at
# the index of "C: 2"; cover.tsv's row of C (Coastal) is its line 3)
brow = next(i for i, l in enumerate(blines) if 'rule "nobody outscouted"' in l)
orow = next(i for i, l in enumerate(lines) if 'override rule "nobody outscouted"' in l)
ocol = lines[orow].index("nobody") + 3
dd = request(20, "textDocument/definition", at(variant, orow, ocol))
check(dd["result"] == [{"uri": uri(base), "range": {"start": {"line": brow, "character": 10},
                                                   "end": {"line": brow, "character": 27}}}],
      "definition of an overridden rule: the base's rule: %s" % dd["result"])
h = request(21, "textDocument/hover", at(variant, orow, ocol))
v = h["result"]["contents"]["value"] if h.get("result") else ""
check(v.startswith('rule "nobody outscouted" of procedure `deploy`') and
      "base.rules:%d" % (brow + 1) in v and "variant.rules:%d" % (orow + 1) in v,
      "hover of a rule: its procedure and both places: %r" % v)
r = request(22, "textDocument/references", dict(at(variant, orow, ocol), context={"includeDeclaration": True}))
got = sorted((x["uri"], x["range"]["start"]["line"]) for x in r["result"])
check(got == sorted([(uri(variant), orow), (uri(base), brow)]), "references of a rule: %s" % got)
# a step: from `override step "Look up" in main` to base's `  step "Look up" {`
# (the name at column 8), and its references: both places
srow = next(i for i, l in enumerate(lines) if l.startswith('override step "Look up"'))
bsrow = next(i for i, l in enumerate(blines) if l.startswith('  step "Look up"'))
dd = request(33, "textDocument/definition", at(variant, srow, lines[srow].index("Look") + 2))
check(dd["result"] == [{"uri": uri(base), "range": {"start": {"line": bsrow, "character": 8},
                                                   "end": {"line": bsrow, "character": 15}}}],
      "definition of an overridden step: %s" % dd["result"])
r = request(34, "textDocument/references", dict(at(base, bsrow, 10), context={"includeDeclaration": True}))
got = sorted((x["uri"], x["range"]["start"]["line"]) for x in r["result"])
check(got == sorted([(uri(variant), srow), (uri(base), bsrow)]), "references of a step: %s" % got)
tb = next(i for i, l in enumerate(blines) if l.startswith("table bonus"))
crow = next(i for i, l in enumerate(lines) if l.startswith("override bonus[C]"))
dd = request(23, "textDocument/definition", at(variant, crow, lines[crow].index("[C]") + 1))
cc = blines[tb].index("C: 2")
check(dd["result"] == [{"uri": uri(base), "range": {"start": {"line": tb, "character": cc},
                                                   "end": {"line": tb, "character": cc + 1}}}],
      "definition of an overridden cell: the base's cell C: %s" % dd["result"])
trow = next(i for i, l in enumerate(lines) if l.startswith("override cover[C]"))
dd = request(24, "textDocument/definition", at(variant, trow, lines[trow].index("[C]") + 1))
check(dd["result"] == [{"uri": uri(os.path.join(here, "cover.tsv")),
                        "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}}}],
      "definition of an overridden TSV row: cover.tsv line 3 (Coastal): %s" % dd["result"])
h = request(25, "textDocument/hover", at(variant, trow, lines[trow].index("[C]") + 1))
v = h["result"]["contents"]["value"] if h.get("result") else ""
check("Coastal\t2" in v and "cover.tsv:3" in v, "hover of a TSV row: %r" % v)
# references of the table bonus: its declaration, `return bonus[g]` in base,
# `return bonus[g] + 1` and `override bonus[C]` in the variant
r = request(26, "textDocument/references", dict(at(base, tb, 7), context={"includeDeclaration": True}))
got = sorted((x["uri"], x["range"]["start"]["line"]) for x in r["result"])
want = sorted([(uri(base), tb), (uri(base), next(i for i, l in enumerate(blines) if "return bonus[g]" in l)),
               (uri(variant), next(i for i, l in enumerate(lines) if "return bonus[g] + 1" in l)),
               (uri(variant), crow)])
check(got == want, "references of bonus: %s" % got)
r = request(27, "textDocument/references", dict(at(base, tb, 7), context={"includeDeclaration": False}))
check(len(r["result"]) == 3, "references of bonus without its declaration: %s" % r["result"])

# completion by place: after `ground.` its members only; after `override `
# tables and keywords, no procedure, no member
comp = text + "\nconst pick2 = ground.S\noverride cover[S] = 4 source \"x\"\noverride rule \"nob\n"
notify("textDocument/didChange", {"textDocument": {"uri": uri(variant), "version": 6},
                                  "contentChanges": [{"text": comp}]})
diagnostics()
diagnostics()
cl = comp.split("\n")
prow = next(i for i, l in enumerate(cl) if l.startswith("const pick2"))
c = request(28, "textDocument/completion", at(variant, prow, cl[prow].index("ground.") + 7))
labels = {(i["label"], i["kind"]) for i in c["result"]}
check(labels == {("S", 20), ("C", 20)}, "completion after ground.: its members: %s" % sorted(labels))
vrow = next(i for i, l in enumerate(cl) if l.startswith("override cover[S]"))
c = request(29, "textDocument/completion", at(variant, vrow, len("override ")))
labels = {(i["label"], i["kind"]) for i in c["result"]}
check({("cover", 9), ("bonus", 9), ("rule", 14), ("step", 14)} <= labels and
      not any(k in (3, 20, 21) for _, k in labels), "completion after override: %s" % sorted(labels))
# inside `override rule "`: the rules, each completed with `" in PROCEDURE`
# over what was typed (from the column after the quote, 15, to the cursor)
rrow = next(i for i, l in enumerate(cl) if l == 'override rule "nob')
c = request(32, "textDocument/completion", at(variant, rrow, len(cl[rrow])))
items = [(i["label"], i.get("textEdit", {}).get("newText"), i.get("textEdit", {}).get("range")) for i in c["result"]]
check(items == [("nobody outscouted", 'nobody outscouted" in deploy',
                 {"start": {"line": rrow, "character": 15}, "end": {"line": rrow, "character": 18}})],
      "completion of a rule's name: %s" % items)

# formatting: a file out of layout gets one edit giving the file as it is in
# the repository (which tests/fmt-check.sh keeps in fmt's layout); a file
# in layout gets none
messy = text.replace("const wide = reach * 2", "const   wide=reach*2").replace("  return cover[g] * 2", "      return cover[g]*2")
notify("textDocument/didChange", {"textDocument": {"uri": uri(variant), "version": 7},
                                  "contentChanges": [{"text": messy}]})
diagnostics()
diagnostics()
f = request(30, "textDocument/formatting", {"textDocument": {"uri": uri(variant)},
                                            "options": {"tabSize": 2, "insertSpaces": True}})
ml = messy.split("\n")
check(len(f["result"]) == 1 and f["result"][0]["newText"] == text and
      f["result"][0]["range"] == {"start": {"line": 0, "character": 0},
                                  "end": {"line": len(ml) - 1, "character": len(ml[-1])}},
      "formatting: one edit, the file in layout: %s" % f["result"])
notify("textDocument/didChange", {"textDocument": {"uri": uri(variant), "version": 8},
                                  "contentChanges": [{"text": text}]})
diagnostics()
diagnostics()
f = request(31, "textDocument/formatting", {"textDocument": {"uri": uri(variant)},
                                            "options": {"tabSize": 2, "insertSpaces": True}})
check(f["result"] == [], "formatting a file in layout: no edit: %s" % f["result"])

# the outline of base.rules: its declarations and the step of main
s = request(8, "textDocument/documentSymbol", {"textDocument": {"uri": uri(base)}})
names = {(x["name"], x["kind"], x.get("containerName")) for x in s["result"]}
for want in [("Look up", 24, "main"), ("cover", 18, None), ("main", 12, None), ("reach", 14, None),
             ("S", 22, "ground"), ("outcome", 23, None), ("total", 8, "outcome"),
             ("coastal", 19, None), ("outcome", 2, None)]:
    check(want in names, "outline lacks %s" % (want,))
check(all(x["location"]["uri"] == uri(base) for x in s["result"]), "outline: only base.rules")

r = request(9, "shutdown", None)
check(r.get("result", 1) is None, "shutdown: %s" % r)
notify("exit", None)
check(proc.wait(timeout=10) == 0, "exit code %s" % proc.returncode)
print("lsp: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
