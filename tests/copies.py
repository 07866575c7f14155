#!/usr/bin/env python3
"""tests/copies.py: how much of each rule file that extends another repeats
its base verbatim.

A variant or revision should restate only what the sheet changes (issue
"Variants restate only what changed").  For every rule file under rules/
whose header says `extends "BASE"`, this counts its code lines (not blank,
not a comment, not a lone brace; spaces collapsed) that occur verbatim among
the code lines of its bases (BASE, and the files BASE extends), and prints
the share.  It fails when a file over its limit: 15% for
rules/meg/revised/maximus.rules, the revision of the 2020 sheet.
"""
import os
import re
import sys

LIMITS = {"rules/meg/revised/maximus.rules": 15.0}


def code_lines(path):
    out = []
    for line in open(path, encoding="utf-8"):
        s = re.sub(r"\s+", " ", line.strip())
        if not s or s.startswith("#") or s in ("{", "}"):
            continue
        out.append(s)
    return out


def base_of(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'^\s*extends\s+"([^"]+)"', text, re.M)
    return os.path.normpath(os.path.join(os.path.dirname(path), m.group(1))) if m else None


def main():
    failed = 0
    rows = []
    for root, _, files in os.walk("rules"):
        for f in sorted(files):
            if not f.endswith(".rules"):
                continue
            path = os.path.join(root, f)
            seen, base, chain = set(), base_of(path), []
            while base and base not in chain:
                chain.append(base)
                seen.update(code_lines(base))
                base = base_of(base)
            if not chain:
                continue
            lines = code_lines(path)
            rep = sum(1 for s in lines if s in seen)
            share = 100.0 * rep / max(1, len(lines))
            limit = LIMITS.get(path)
            over = limit is not None and share > limit
            failed += over
            rows.append("%s%s: %d of %d code lines repeat %s verbatim (%.0f%%%s)" % (
                "FAIL " if over else "", path, rep, len(lines), chain[0], share,
                ", at most %.0f%%" % limit if limit is not None else ""))
    for r in sorted(rows):
        print(r)
    print("copies: %d over their limit" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
