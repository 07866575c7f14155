#!/bin/sh
# tools/coverage.sh BUILD: the lines and branches of the library (interp/)
# and the program (tools/*.c) that the quick tests run, per file, from a
# build made with --coverage in BUILD (`make coverage` makes it and runs
# `make test-quick` there first).  Needs gcovr (Debian's package, installed
# when missing).  Not part of `make test`: a measurement, not a check.
build=${1:?usage: tools/coverage.sh BUILD}
cd "$(dirname "$0")/.." || exit 2
if ! command -v gcovr >/dev/null 2>&1; then
  echo "regula: installing gcovr from Debian's packages" >&2
  tools/apt.sh gcovr || { echo "regula: could not install gcovr" >&2; exit 1; }
fi
# Branches the compiler makes for itself (exceptions, inlined library calls)
# are left out, so that the figures are the branches written in the source.
for part in interp tools; do
  echo "== $part/ (lines, then branches, per file) =="
  gcovr -r . --object-directory "$build" --filter "$part/" --exclude 'tools/fuzz/' \
    --exclude 'tools/bench/' --exclude-unreachable-branches --exclude-throw-branches --gcov-ignore-parse-errors \
    --sort-percentage 2>/dev/null | sed -n '/^File/,$p'
  gcovr -r . --object-directory "$build" --filter "$part/" --exclude 'tools/fuzz/' \
    --exclude 'tools/bench/' --exclude-unreachable-branches --exclude-throw-branches --gcov-ignore-parse-errors \
    -b --sort-percentage 2>/dev/null | sed -n '/^File/,$p'
done
