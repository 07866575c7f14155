#!/usr/bin/env python3
"""tools/mutate.py MUTANTS [ID...]: mutation testing of the library.

Each mutant of MUTANTS (tests/mutants.txt) is applied in turn to a copy of
the tree (build/mutate/tree: the files git tracks), which is built and run
against the quick tests (`make test-quick`).  A mutant the tests fail on is
killed; one they pass survives.  A mutant marked `equivalent:` (it cannot
change what the program does) is expected to survive and is counted apart;
one whose text is no longer in its file is stale (the list needs mending);
one that does not compile is stillborn.  The score is the killed share of
the mutants that are neither.  With IDs, only those run.

The format, one block per mutant:

    == ID FILE
    - text to find (exactly once in FILE; several - lines: several lines)
    + its replacement (several + lines: several lines; none: deleted)
    # what the mutant breaks; or `# equivalent: why it cannot be seen`

The quick tests run one target of `make test-quick` at a time, in the
order the Makefile lists them, and a mutant stops at the first that fails
(the verdict names it): the same verdict as `make test-quick`, without
waiting for the slow targets beside the one that failed.

Not part of `make test` (minutes per mutant); `make mutate` runs it.
"""
import os, re, shutil, subprocess, sys, time

def parse(path):
    mutants, cur = [], None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.startswith("== "):
            parts = line[3:].split()
            if len(parts) != 2:
                sys.exit(f"{path}:{n}: want '== ID FILE'")
            cur = {"id": parts[0], "file": parts[1], "find": [], "repl": [],
                   "note": [], "line": n}
            mutants.append(cur)
        elif cur is None or not line.strip():
            continue
        elif line.startswith("- ") or line == "-":
            cur["find"].append(line[2:])
        elif line.startswith("+ ") or line == "+":
            cur["repl"].append(line[2:])
        elif line.startswith("#"):
            cur["note"].append(line[1:].strip())
        else:
            sys.exit(f"{path}:{n}: a line of a mutant starts with '- ', '+ ' or '#'")
    ids = [m["id"] for m in mutants]
    if len(ids) != len(set(ids)):
        sys.exit(f"{path}: two mutants share an id")
    return mutants

def make(tree, target, log, timeout):
    try:
        with open(log, "w") as f:
            return subprocess.run(["make", "--no-print-directory", "-j2", target],
                                  cwd=tree, stdout=f, stderr=subprocess.STDOUT,
                                  timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        return 124

def quick_targets(tree):
    """The prerequisites of test-quick in tree's Makefile, in order, with
    the variables set by `NAME := words` lines expanded."""
    text = open(os.path.join(tree, "Makefile"), encoding="utf-8").read()
    lines = text.replace("\\\n", " ").split("\n")      # continuation lines joined
    sets = dict(re.match(r"([A-Z_]+)\s*:=\s*(.*)", l).groups() for l in lines
                if re.match(r"[A-Z_]+\s*:=", l))

    def expand(words):
        out = []
        for w in words:
            m = re.fullmatch(r"\$\(([A-Z_]+)\)", w)
            out += expand(sets.get(m.group(1), "").split()) if m else [w]
        return out
    for line in lines:
        if line.startswith("test-quick:"):
            return expand(line.split(":", 1)[1].split())
    sys.exit("mutate: the Makefile has no test-quick target")

def quick(tree, log, timeout):
    """Runs the quick tests target by target into log (appended); returns
    None when all pass, else the target that failed."""
    for target in quick_targets(tree):
        part = log + "." + target
        code = make(tree, target, part, timeout)
        with open(log, "a") as f, open(part) as g:
            f.write(f"== make {target}: exit {code}\n" + g.read())
        os.remove(part)
        if code != 0:
            return target
    return None

def main():
    if len(sys.argv) < 2:
        sys.exit("usage: tools/mutate.py MUTANTS [ID...]")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    mutants = parse(sys.argv[1])
    if sys.argv[2:]:
        mutants = [m for m in mutants if m["id"] in sys.argv[2:]]
    tree = os.path.join(root, "build", "mutate", "tree")
    shutil.rmtree(os.path.dirname(tree), ignore_errors=True)
    files = subprocess.run(["git", "ls-files", "-z"], capture_output=True,
                           text=True, check=True).stdout.split("\0")
    for f in filter(None, files):
        if os.path.isfile(f):
            os.makedirs(os.path.join(tree, os.path.dirname(f)), exist_ok=True)
            shutil.copy2(f, os.path.join(tree, f))
    logs = os.path.join(root, "build", "mutate")
    base = os.path.join(logs, "baseline.log")
    open(base, "w").close()
    failed = quick(tree, base, 1800)
    if failed:
        sys.exit(f"mutate: the quick tests fail without any mutant (make {failed}: build/mutate/baseline.log)")
    counts = {"killed": 0, "survived": 0, "equivalent": 0, "stale": 0, "stillborn": 0}
    survivors = []
    for m in mutants:
        path = os.path.join(tree, m["file"])
        find, repl = "\n".join(m["find"]), "\n".join(m["repl"])
        try:
            text = open(path, encoding="utf-8").read()
        except OSError:
            text = ""
        equivalent = any(n.startswith("equivalent:") for n in m["note"])
        if not find or text.count(find) != 1:
            counts["stale"] += 1
            print(f"{m['id']}: stale ({m['file']} holds its text {text.count(find) if find else 0} times)")
            continue
        start = time.time()
        try:
            open(path, "w", encoding="utf-8").write(text.replace(find, repl))
            log = os.path.join(logs, m["id"] + ".log")
            by = None
            if make(tree, "all", log, 900) != 0:
                verdict = "stillborn"
            else:
                by = quick(tree, log, 900)
                verdict = "killed" if by else "equivalent" if equivalent else "survived"
        finally:
            open(path, "w", encoding="utf-8").write(text)
        if verdict == "killed" and equivalent:
            print(f"{m['id']}: killed, though marked equivalent: mend the list")
        counts[verdict] += 1
        if verdict == "survived":
            survivors.append(m)
        print(f"{m['id']}: {verdict}{' by make ' + by if by else ''} ({time.time() - start:.0f} s)",
              flush=True)
    scored = counts["killed"] + counts["survived"]
    score = 100.0 * counts["killed"] / scored if scored else 0.0
    print("mutate: " + ", ".join(f"{v} {k}" for k, v in counts.items()) +
          f"; score {score:.1f}% of {scored}")
    for m in survivors:
        print(f"  survived {m['id']} {m['file']}: {'; '.join(m['note'])}")
    return 1 if counts["stale"] or counts["stillborn"] else 0

if __name__ == "__main__":
    sys.exit(main())
