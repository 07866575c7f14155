#!/usr/bin/env python3
"""tests/manual.py BINARY: the documentation agrees with the program.

Four checks, each a count of passes and failures:

  help      docs/manual.md has a section `### \`regula USAGE\`` for every
            command of `regula --help`, headed by that command's usage line;
            every option of `regula COMMAND --help` (the text the manual page
            is made from, tools/man.sh) appears in the command's section; and
            the section names no option that --help lacks (a line that names
            another command, as `regula sim --svg` or `sim`'s, is about that
            command).  No option named anywhere in README.md or
            docs/manual.md is unknown to every command's --help.
  keywords  the reserved words listed in docs/language.md (the bullet
            **Keywords**) are exactly the lexer's: the quoted words of
            grammar/lexer.re's rules that return a token, as
            tests/editors.sh reads them, but for the tokens that
            grammar/parser.y's `%fallback NAME ...` lets stand as names
            (`default`): those are in the bullet **Words with a meaning in
            one place** instead.
  promises  every bullet of the manual's "Promises" and "Limits and
            untrusted input" sections (its bold label) and every row of the
            limits table (its first cell) has a row in tests/promises.md,
            and every test file named there exists.
  links     every relative link of README.md, HACKING.md and docs/*.md
            names a file that exists, and a `#anchor` a heading of it.

Prints one line per failure and ends with `manual: N passed, M failed`;
exits 1 when any check fails.
"""
import glob, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z-]*[a-z]|-o\b|-V\b)")
passed = failed = 0


def ok():
    global passed
    passed += 1


def bad(msg):
    global failed
    failed += 1
    print("FAIL manual: " + msg)


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def sections(text, level):
    """{heading: body} for the headings of the given level ('## ')."""
    out, cur, body, fence = {}, None, [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fence = not fence
        if not fence and line.startswith("#") and not line.startswith(level + "#"):
            if cur is not None:
                out[cur] = "\n".join(body)
            cur, body = (line[len(level):].strip(), []) if line.startswith(level) else (None, [])
            continue
        body.append(line)
    if cur is not None:
        out[cur] = "\n".join(body)
    return out


def check_help(binary):
    top = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
    usages = re.findall(r"^  regula (\S+)(.*)$", top, re.M)
    if not usages:
        bad("regula --help lists no commands")
        return
    manual = read("docs/manual.md")
    secs = sections(manual, "### ")
    names = [n for n, _ in usages]
    known = {"--help", "--version", "-V"}
    helps = {}
    for name, rest in usages:
        text = subprocess.run([binary, name, "--help"], capture_output=True, text=True).stdout
        helps[name] = set(OPTION.findall(text)) - {"--help"}
        known |= helps[name]
    for name, rest in usages:
        head = "`regula " + name + rest + "`"
        body = secs.get(head)
        if body is None:
            bad(f"docs/manual.md has no section headed ### {head} (the usage line of regula --help)")
            continue
        ok()
        for opt in sorted(helps[name]):
            if re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", body):
                ok()
            else:
                bad(f"docs/manual.md, section regula {name}: no {opt}, which `regula {name} --help` has")
        others = [n for n in names if n != name]
        other = re.compile(r"regula (%s)\b|`(%s)[` ]|\b(%s)'s\b" % (("|".join(others),) * 3))
        for line in body.split("\n"):
            for opt in OPTION.findall(line):
                if opt in helps[name] or opt in ("--help", "--version", "-V"):
                    continue
                if other.search(line):
                    continue
                bad(f"docs/manual.md, section regula {name}: names {opt}, which `regula {name} --help` lacks: {line.strip()[:100]}")
    for rel in ("README.md", "docs/manual.md"):
        for n, line in enumerate(read(rel).split("\n"), 1):
            for opt in OPTION.findall(line):
                if opt not in known:
                    bad(f"{rel}:{n}: {opt} is no option of any command's --help")


def doc_files():
    files = ["README.md", "HACKING.md"]
    for d, _, ns in os.walk(os.path.join(ROOT, "docs")):
        files += [os.path.relpath(os.path.join(d, n), ROOT) for n in sorted(ns) if n.endswith(".md")]
    return files


def check_keywords():
    lexer = set(re.findall(r'^  "([a-z][a-z_]*)" *\{ TOK\(', read("grammar/lexer.re"), re.M))
    if not lexer:
        bad("no keywords found in grammar/lexer.re")
        return
    m = re.search(r"^- \*\*Keywords\*\*(.*?)(?=^- \*\*|^\S)", read("docs/language.md"), re.M | re.S)
    if not m:
        bad("docs/language.md has no bullet **Keywords**")
        return
    # the words of the code spans after the bullet's colon, up to the next
    # parenthesis (one span of several words, or a span each)
    listed = m.group(1).split(":", 1)[-1].split("(", 1)[0]
    doc = {w for span in re.findall(r"`([^`]*)`", listed) for w in span.split()}
    # tokens the parser takes as names where no keyword fits (%fallback NAME
    # A B.) are no reserved words: the "one place" bullet names them
    fb = re.search(r"^%fallback NAME ([A-Z_ ]+)\.", read("grammar/parser.y"), re.M)
    names = {t.lower() for t in fb.group(1).split()} if fb else set()
    one = re.search(r"^- \*\*Words with a meaning in one place\*\*(.*?)(?=^- \*\*|^\S)",
                    read("docs/language.md"), re.M | re.S)
    one_words = set(re.findall(r"`([a-z_]+)`", one.group(1))) if one else set()
    for w in sorted(names & lexer):
        if w in doc:
            bad(f"docs/language.md: {w} is in the **Keywords** list but grammar/parser.y lets it stand as a name (%fallback)")
        elif w not in one_words:
            bad(f"docs/language.md: {w}, a name but where grammar/parser.y takes it as a keyword, is not in the bullet **Words with a meaning in one place**")
        else:
            ok()
    lexer -= names
    for w in sorted(lexer - doc):
        bad(f"docs/language.md: the keyword {w} of grammar/lexer.re is not in the **Keywords** list")
    for w in sorted(doc - lexer):
        bad(f"docs/language.md: {w} is in the **Keywords** list but grammar/lexer.re has no such keyword")
    if lexer == doc:
        ok()


def check_promises():
    manual = sections(read("docs/manual.md"), "## ")
    claims = []
    for sec in ("Promises", "Limits and untrusted input"):
        body = manual.get(sec)
        if body is None:
            bad(f"docs/manual.md has no section ## {sec}")
            continue
        claims += [(sec, l) for l in re.findall(r"^- \*\*(.+?)\*\*", body, re.M)]
        rows = re.findall(r"^\| (?!limit \|)(?!-)([^|]+?) \|", body, re.M)
        claims += [(sec, r) for r in rows]
    table = read("tests/promises.md")
    rows = {}
    for line in table.split("\n"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 3 and not set(cells[0]) <= set("-"):
            rows[cells[0]] = cells
    for sec, claim in claims:
        key = claim.rstrip(".")
        if key in rows:
            ok()
        else:
            bad(f"tests/promises.md has no row for {sec}: {key}")
    untested = 0
    for key, cells in rows.items():
        for path in re.findall(r"`([^`]+)`", cells[2]):
            path = path.split(" ")[0].split(":")[0]
            if "/" not in path:
                continue
            if glob.glob(os.path.join(ROOT, path)):
                ok()
            else:
                bad(f"tests/promises.md, row {key}: no file {path}")
        if cells[2] in ("", "-", "none"):
            untested += 1
    print(f"promises: {len(claims)} claims, {untested} rows with no test yet")


def anchor(heading):
    h = heading.strip().lower()
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


def check_links():
    for rel in doc_files():
        text = read(rel)
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(rel), path)) if path else rel
            full = os.path.join(ROOT, dest)
            if not os.path.exists(full):
                bad(f"{rel}: link to {target}: no file {dest}")
                continue
            if frag and dest.endswith(".md"):
                heads = re.findall(r"^#+ (.*)$", re.sub(r"```.*?```", "", read(dest), flags=re.S), re.M)
                if frag not in {anchor(h) for h in heads}:
                    bad(f"{rel}: link to {target}: {dest} has no heading #{frag}")
                    continue
            ok()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tests/manual.py BINARY")
    check_help(os.path.abspath(sys.argv[1]))
    check_keywords()
    check_promises()
    check_links()
    print(f"manual: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
