#!/usr/bin/env python3
"""tests/docs.py BINARY [FILE...]: every example in the documentation runs.

An example is a line `$ regula ...` (or `$ ... | regula ...`: answers
piped in) inside a fenced code block of README.md or a file under docs/ (or
the FILEs named), with the output under it: the
lines up to the next `$ ` line or the end of the block.  Each is run by the
shell from a scratch folder that sees the repository's rules/, tables/,
tests/, examples/ and docs/ (so a file an example writes lands there, not in
the repository), with BINARY as `regula`, and what it prints (standard
output and error together) must be what the documentation shows:

  - a line `...` alone stands for any number of lines left out;
  - a line `> ANSWER` is an answer typed at a prompt: the answers are the
    example's standard input (regula echoes an answer it reads from a
    pipe after its prompt, as a terminal would);
  - the exit code is 0, unless the output shows an `error:` (then not 0) or
    ends with a line `[exit N]` (then N).

Prints one failure per example that differs, with both texts, and ends with
`docs: N examples, M differ`; exit 1 when any differs or there are none.
"""
import os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = ["rules", "tables", "tests", "examples", "docs", "editors"]
EXAMPLE = re.compile(r"\$ (regula |.*\| *regula )")


def doc_files(args):
    if args:
        return args
    files = [os.path.join(ROOT, "README.md")]
    for d, _, names in os.walk(os.path.join(ROOT, "docs")):
        files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".md")]
    return files


def examples(path):
    """Yields (line number, command, expected lines) for each example."""
    lines = open(path, encoding="utf-8").read().split("\n")
    in_block, cur = False, None
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            if cur:
                yield cur
                cur = None
            in_block = not in_block
            continue
        if not in_block:
            continue
        if line.startswith("$ "):
            if cur:
                yield cur
            cur = (n, line[2:], []) if EXAMPLE.match(line) else None
        elif cur:
            cur[2].append(line)


def matches(want, got):
    """Whether the lines got fit the lines want, `...` matching any run."""
    memo = {}

    def fit(i, j):
        if (i, j) in memo:
            return memo[i, j]
        if i == len(want):
            r = j == len(got)
        elif want[i] == "...":
            r = any(fit(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and want[i] == got[j] and fit(i + 1, j + 1)
        memo[i, j] = r
        return r

    sys.setrecursionlimit(100000)
    return fit(0, 0)


def run(binary, scratch, command, want):
    exit_want = None
    if want and re.fullmatch(r"\[exit \d+\]", want[-1]):
        exit_want = int(want[-1][6:-1])
        want = want[:-1]
    answers = [w[2:] for w in want if w.startswith("> ")]
    env = dict(os.environ, PATH=os.path.dirname(binary) + os.pathsep + os.environ["PATH"],
               COLUMNS="80", LC_ALL="C.UTF-8")
    env.pop("NO_COLOR", None)
    p = subprocess.run(["sh", "-c", command], cwd=scratch, env=env,
                       input="".join(a + "\n" for a in answers).encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    out = p.stdout.decode("utf-8", "replace")
    got = out.split("\n")
    if got and got[-1] == "":
        got.pop()
    got = [g.rstrip() for g in got]
    want = [w.rstrip() for w in want]
    if exit_want is None:
        exit_ok = (p.returncode != 0) if any("error:" in w for w in want) else p.returncode == 0
    else:
        exit_ok = p.returncode == exit_want
    return matches(want, got) and exit_ok, got, p.returncode


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: tests/docs.py BINARY [FILE...]")
    binary = os.path.abspath(sys.argv[1])
    scratch = tempfile.mkdtemp(prefix="regula-docs.")
    try:
        bindir = os.path.join(scratch, ".bin")
        os.mkdir(bindir)
        os.symlink(binary, os.path.join(bindir, "regula"))
        for d in SHARED:
            if os.path.isdir(os.path.join(ROOT, d)):
                os.symlink(os.path.join(ROOT, d), os.path.join(scratch, d))
        total = bad = 0
        for path in doc_files(sys.argv[2:]):
            rel = os.path.relpath(path, ROOT)
            for n, command, want in examples(path):
                total += 1
                ok, got, rc = run(os.path.join(bindir, "regula"), scratch, command, want)
                if not ok:
                    bad += 1
                    print(f"FAIL docs: {rel}:{n}: $ {command} (exit {rc})")
                    print("  --- the documentation shows")
                    print("".join(f"  | {w}\n" for w in want), end="")
                    print("  --- regula prints")
                    print("".join(f"  | {g}\n" for g in got[:60]), end="")
                    if len(got) > 60:
                        print(f"  | ... ({len(got) - 60} more lines)")
        print(f"docs: {total} examples, {bad} differ")
        return 1 if bad or not total else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
