#!/usr/bin/env python3
"""tests/diff-hunks.py: the promise of `regula diff` over every pair of rule files.

    python3 tests/diff-hunks.py build/regula

For every ordered pair (A, B) of the bundled rule files (rules/**/*.rules)
and of the fixture tests/diff/every-{base,variant}.rules, `regula diff A B`
and `regula diff --json A B` must exit 0 or 1, and:

  - no `--- A` / `+++ B` header is printed without a hunk (`@@ ...`) under it,
    in the text and in the `source` of every JSON change;
  - where B extends A, every `override rule`, `remove rule`, `override step`
    and `override procedure` line of B is a change of the list whose B side
    is that file and line (a rule or step at its override, a procedure at
    its declaration): no override is invisible.

Exit 0 when all hold, else 1 with one line per broken pair.
"""
import glob
import json
import os
import re
import subprocess
import sys

HEADER = re.compile(r'^[^#\n]*\bextends\s+"([^"]+)"', re.M)
PART = re.compile(r'^(override|remove) (rule|step) "((?:[^"\\]|\\.)*)" in (\w+)')
PROC = re.compile(r'^override procedure (\w+)')


def headers_have_hunks(lines):
    """Returns the first line number (0-based) of a --- header with no hunk, or -1."""
    stripped = [l.strip() for l in lines]
    for i, l in enumerate(stripped):
        if l.startswith('--- ') or l == '---':
            nxt = stripped[i + 1] if i + 1 < len(stripped) else ''
            hunk = stripped[i + 2] if i + 2 < len(stripped) else ''
            if not nxt.startswith('+++') or not hunk.startswith('@@ '):
                return i
        if l.startswith('+++ ') and (i == 0 or not stripped[i - 1].startswith('---')):
            return i
    return -1


def extends_of(path):
    """The file path B extends (normalized), or None."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    m = HEADER.search(text)
    if not m:
        return None
    return os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))


def expected_places(path):
    """The (what, name, line) of each override of a rule, step or procedure in path."""
    out = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            m = PART.match(line)
            if m:
                out.append((m.group(2), m.group(3), n))
                continue
            m = PROC.match(line)
            if m:
                out.append(('procedure', m.group(1), n))
    return out


def main():
    regula = sys.argv[1] if len(sys.argv) > 1 else 'build/regula'
    files = sorted(glob.glob('rules/**/*.rules', recursive=True))
    pairs = [(a, b) for a in files for b in files if a != b]
    fx = ('tests/diff/every-base.rules', 'tests/diff/every-variant.rules')
    pairs += [fx, fx[::-1]]
    failed = 0
    checked = 0
    for a, b in pairs:
        text = subprocess.run([regula, 'diff', a, b], capture_output=True, text=True)
        js = subprocess.run([regula, 'diff', '--json', a, b], capture_output=True, text=True)
        label = f'diff {a} {b}'
        if text.returncode not in (0, 1) or js.returncode not in (0, 1):
            print(f'FAIL {label}: exit {text.returncode} / --json {js.returncode}: {text.stderr.strip()}')
            failed += 1
            continue
        lines = text.stdout.split('\n')
        bad = headers_have_hunks(lines)
        if bad >= 0:
            print(f'FAIL {label}: line {bad + 1} "{lines[bad].strip()}" has no hunk under it')
            failed += 1
        changes = [json.loads(l) for l in js.stdout.split('\n')[1:] if l.strip()]
        for ch in changes:
            src = ch.get('source')
            if src and headers_have_hunks(src.split('\n')) >= 0:
                print(f'FAIL {label} --json: change {ch["index"]} ({ch["what"]} {ch["name"]}): '
                      f'a --- / +++ header without a hunk')
                failed += 1
        if extends_of(b) == os.path.normpath(a):
            base = os.path.basename(b)
            for what, name, line in expected_places(b):
                hit = [ch for ch in changes if ch['what'] == what and ch['name'] == name and ch['b']
                       and ch['b']['line'] == line and (ch['b']['file'] or '').endswith(base)]
                if not hit:
                    print(f'FAIL {label}: {what} "{name}" overridden at {b}:{line} is not a change '
                          f'with that place')
                    failed += 1
                checked += 1
    if failed:
        sys.exit(1)
    print(f'diff-hunks: {len(pairs)} pairs, no header without a hunk; {checked} overrides each '
          f'listed at their line')


if __name__ == '__main__':
    main()
