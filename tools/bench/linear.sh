#!/bin/sh
# tools/bench/linear.sh [REGULA]: work in proportion to the input (issue 15).
#
# Timed, so not part of `make test` (tests/limits.sh checks the same limits
# for their answers); `make bench` runs it after the speed table.  Each case
# must finish in under a second (LIMIT seconds):
#   - check of a 1 MB rule file on one line (100,000 statements: the line
#     table's display columns were recomputed from the line start);
#   - 50 errors on that line (the source excerpt under each is bounded);
#   - a runtime error at column 1,000,000 (its display column was mapped
#     back to a byte by a quadratic loop);
#   - printing a list that holds itself (exponential before the budget);
#   - a strategy of 40,000 rules over 4,000 choices: compiled, verified and
#     played (rules and sites are looked up sorted, never pairwise);
#   - the language server on a 922 KB document of 45,000 constants: open,
#     change, completion, hover, definition, references, formatting
#     (tools/bench/lsp_linear.py; completion compared every name with every
#     earlier one: 64 s before issue 29).
# Prints one line per case: seconds, bytes written, and FAIL past LIMIT.
set -u
cd "$(dirname "$0")/../.." || exit 2
regula=${1:-build/regula}
limit=${LIMIT:-1}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-linear.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0

# timed NAME CMD...: runs CMD, prints its wall time and output size.
timed() {
  name=$1
  shift
  t0=$(date +%s.%N)
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  bytes=$(cat "$tmp/out" "$tmp/err" | wc -c)
  verdict=ok
  if awk -v s="$secs" -v l="$limit" 'BEGIN { exit !(s >= l) }'; then
    verdict=FAIL
    failed=$((failed + 1))
  fi
  printf '%-44s %7ss  exit %d  %9d bytes  %s\n' "$name" "$secs" "$code" "$bytes" "$verdict"
}

# One line of 1 MB: a procedure of 100,000 statements.
awk 'BEGIN { printf "procedure p(k: int) -> int { let x = 0"
             for (i = 0; i < 100000; i++) printf " x = x + 1"
             printf " return x }\n" }' >"$tmp/line.rules"
timed "check, 1 MB on one line" "$regula" check "$tmp/line.rules"

# The same line with 50 errors (and more: the compile stops at 50).
awk 'BEGIN { printf "procedure p(k: int) -> int { let x = 0"
             for (i = 0; i < 100000; i++) printf " x = x + true"
             printf " return x }\n" }' >"$tmp/errors.rules"
timed "check, 50 errors on a 1.3 MB line" "$regula" check "$tmp/errors.rules"

# A runtime error at column 1,000,000 or so.
awk 'BEGIN { printf "table t(n: 1..2) -> int { 1: 1, 2: 2 } procedure p(k: int) -> int { let x = 0"
             for (i = 0; i < 100000; i++) printf " x = x + 1"
             printf " return t[k] }\n" }' >"$tmp/runtime.rules"
timed "runtime error at column 1,000,0xx" "$regula" call "$tmp/runtime.rules" p 5
col=$(sed -n '1s/^[^:]*:1:\([0-9]*\):.*/\1/p' "$tmp/err")
echo "  (the error is at column $col)"

timed "print a list that holds itself" "$regula" call tests/run/cyclic.rules cyc
timed "print it as JSON" "$regula" run tests/run/cyclic.rules --json

# 4,000 choices, a strategy of 40,000 rules (ten per prompt, for A).
awk 'BEGIN { print "ruleset \"many rules\""; print "enum side { A, B }"
             print "procedure main() -> int {"; print "  let t = 0"
             for (i = 0; i < 4000; i++) printf "  t = t + choose(A, \"q%d\", 0, 3)\n", i
             print "  return t"; print "}"; print "strategy s {"
             for (i = 0; i < 40000; i++) printf "  \"q%d\" for A: %d\n", i % 4000, i % 4
             print "}" }' >"$tmp/strategy.rules"
timed "strategy of 40,000 rules: build" "$regula" build "$tmp/strategy.rules" -o "$tmp/strategy.rbc"
timed "... and a run by it (loaded, verified)" "$regula" run "$tmp/strategy.rbc" --policy s

python3 tools/bench/lsp_linear.py "$regula" "$limit" || failed=$((failed + 1))

[ "$failed" -eq 0 ]
