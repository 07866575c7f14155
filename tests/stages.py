#!/usr/bin/env python3
"""tests/stages.py STAGE...: the library's folders draw the pipeline.

The stages are given in order (the Makefile's STAGES), and each may use
only the stages DEPENDS names for it (the arrows of DESIGN.md: compile ->
module -> front; vm -> module; render -> module; play -> vm and render; api
-> all).  Each holds:
  - interp/ has no .c file at its top, only the public headers;
  - every library file lives in a stage folder that opens with a README.md
    saying what it holds;
  - a file includes only headers of its own stage, of a stage it depends
    on, or the public headers at interp/'s top (the direction of the
    pipeline);
  - no header includes itself through others (no include cycle).
The generated front end (parser.h) belongs to the first stage.
"""
import os, re, sys

DEPENDS = {
    "front": [],
    "module": ["front"],
    "compile": ["front", "module"],
    "vm": ["front", "module"],
    "render": ["front", "module"],
    "play": ["front", "module", "vm", "render"],
    "api": ["front", "module", "compile", "vm", "render", "play"],
}

stages = sys.argv[1:]
if not stages:
    sys.exit("usage: tests/stages.py STAGE...")
rank = {s: i for i, s in enumerate(stages)}
failures = []
if sorted(stages) != sorted(DEPENDS):
    failures.append(f"the Makefile's STAGES ({' '.join(stages)}) are not "
                    f"tests/stages.py's ({' '.join(DEPENDS)})")
for s, deps in DEPENDS.items():
    for d in deps:
        if d in rank and s in rank and rank[d] >= rank[s]:
            failures.append(f"{s} depends on {d}, which STAGES lists after it")
home = {"parser.h": stages[0]}      # header -> stage
top = set()                         # public headers at interp/'s top
for name in sorted(os.listdir("interp")):
    path = os.path.join("interp", name)
    if os.path.isdir(path):
        if name not in rank:
            failures.append(f"interp/{name}/ is not a stage (the Makefile's STAGES)")
            continue
        if not os.path.isfile(os.path.join(path, "README.md")):
            failures.append(f"interp/{name}/ has no README.md saying what it holds")
        for f in os.listdir(path):
            if f.endswith(".h"):
                if f in home:
                    failures.append(f"two headers named {f}")
                home[f] = name
    elif name.endswith(".c"):
        failures.append(f"interp/{name}: a .c file at interp/'s top (put it in its stage)")
    elif name.endswith(".h"):
        top.add(name)

includes = {}                        # file path -> [header]
for s in stages:
    d = os.path.join("interp", s)
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if not f.endswith((".c", ".h")):
            continue
        text = open(os.path.join(d, f), encoding="utf-8").read()
        incs = re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M)
        includes[(s, f)] = incs
        for h in incs:
            if h in top:
                continue
            if h not in home:
                failures.append(f"interp/{s}/{f} includes {h}, which no stage holds")
            elif home[h] != s and home[h] not in DEPENDS.get(s, []):
                failures.append(f"interp/{s}/{f} includes {home[h]}/{h}: "
                                f"{s} does not depend on {home[h]}")
for h in top:
    includes[("", h)] = re.findall(r'^\s*#\s*include\s+"([^"]+)"',
                                   open(os.path.join("interp", h)).read(), re.M)

# Include cycles among headers: a depth-first search over header -> headers.
graph = {}
for (s, f), incs in includes.items():
    if f.endswith(".h"):
        graph[f] = [h for h in incs if h.endswith(".h")]
state = {}
def visit(h, stack):
    state[h] = 1
    for n in graph.get(h, []):
        if state.get(n) == 1:
            failures.append("include cycle: " + " -> ".join(stack[stack.index(n):] + [n])
                            if n in stack else f"include cycle through {n}")
        elif n not in state:
            visit(n, stack + [n])
    state[h] = 2
for h in sorted(graph):
    if h not in state:
        visit(h, [h])

for f in failures:
    print("FAIL stages:", f)
files = sum(1 for k in includes if k[0])
print(f"stages: {len(stages)} folders, {files} files, {len(failures)} failed")
sys.exit(1 if failures else 0)
