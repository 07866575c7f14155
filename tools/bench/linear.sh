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
#   - a procedure of 65,535 local variables;
#   - exact odds of one roll followed by 1 MB of statements;
#   - fmt of a 1 MB line that leaves 970 brackets open (each re-measured the
#     whole output line: 24 s), and of 970 nested `(` around a list of
#     300,000 items (each opener scanned the rest of the line for its closer).
#   - diff and sheet of tables of a million cells filled by `else` (one
#     change, one line: both printed a line per cell), rows aligned by
#     content, and 1 MB of cell overrides each a change of its own.
#   - check and diff (with itself) of 1 MB of short constants, and of 1 MB
#     of names chosen to share a bucket of the compiler's old 1024; diff of
#     20,000 procedures, the same and each changed (the compiler's tables
#     had fixed buckets; diff found each item by a scan of the other
#     side's, 78 s, and each changed procedure's source by a walk of every
#     declaration, 360 s);
#   - the language server on a 922 KB document of 45,000 constants: open,
#     change, completion, hover, definition, references, formatting
#     (tools/bench/lsp_linear.py; completion compared every name with every
#     earlier one: 64 s before issue 29).
#   - a jump over more than 8 Mi instructions: refused (10 x LIMIT).
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

# 65,535 local variables in one procedure (0.9 MB): each name was looked
# up among all the locals before it (12 s).
awk 'BEGIN { print "procedure p() -> int {"
             for (i = 0; i < 65535; i++) printf "  let v%d = %d\n", i, i % 7
             print "  return v65534 + v1"; print "}" }' >"$tmp/locals.rules"
timed "call, 65,535 locals in one procedure" "$regula" call "$tmp/locals.rules" p

# Exact odds over 1 MB: one roll, then 100,000 statements on its value
# (each of the six chance states runs them once: work in proportion to
# the source times the states, never to their product with themselves).
awk 'BEGIN { printf "procedure p() -> int {\n  let x = roll d6\n"
             for (i = 0; i < 100000; i++) printf "  x = x + 1\n"
             printf "  return x\n}\n" }' >"$tmp/odds.rules"
timed "odds, a roll then 1 MB of statements" "$regula" odds "$tmp/odds.rules" p

# fmt: 970 brackets left open at the end of a 1 MB line, closed on the next.
awk 'BEGIN { printf "procedure p() -> int {\n  return sum([0"
             for (i = 1; i < 300000; i++) printf ", %d", i % 10
             printf ", "; for (i = 0; i < 970; i++) printf "("; printf "1\n"
             for (i = 0; i < 970; i++) printf ")"; printf "])\n}\n" }' >"$tmp/fmt-open.rules"
timed "fmt, 970 brackets open on a 1 MB line" "$regula" fmt "$tmp/fmt-open.rules"

# fmt: 970 nested ( around a list of 300,000 items, all on one line.
awk 'BEGIN { printf "procedure p() -> int {\n  return "
             for (i = 0; i < 970; i++) printf "("
             printf "sum([0"; for (i = 1; i < 300000; i++) printf ", %d", i % 10
             printf "])"; for (i = 0; i < 970; i++) printf ")"; printf "\n}\n" }' >"$tmp/fmt-nest.rules"
timed "fmt, 970 ( around a 300,000-item list" "$regula" fmt "$tmp/fmt-nest.rules"
# diff and sheet (issue 29 item 7): work in proportion to what differs and
# to the source, not to the declared cells.  Two tables of 1024 x 1024 cells
# filled by `else`, the default changed: one change each, one sheet line.
printf 'ruleset "a"\ntable t(x: 1..1024, y: 1..1024) -> int { else: 0 }\ntable u(x: 1..1024, y: 1..1024) -> int { else: 0 }\n' >"$tmp/fill-a.rules"
printf 'ruleset "b"\ntable t(x: 1..1024, y: 1..1024) -> int { else: 1 }\ntable u(x: 1..1024, y: 1..1024) -> text { else: "x" }\n' >"$tmp/fill-b.rules"
timed "diff, 2 x 1M cells filled by else" "$regula" diff "$tmp/fill-a.rules" "$tmp/fill-b.rules"
timed "... as JSON" "$regula" diff --json "$tmp/fill-a.rules" "$tmp/fill-b.rules"
timed "sheet of 2 x 1M cells filled by else" "$regula" sheet "$tmp/fill-a.rules"
# A list one row shorter: rows paired by content (every row's text compared).
printf 'ruleset "c"\ntable t(x: 1..1023, y: 1..1024) -> int { else: 0 }\n' >"$tmp/fill-c.rules"
timed "diff, 1M cells, rows aligned by content" "$regula" diff "$tmp/fill-a.rules" "$tmp/fill-c.rules"
# About 1 MB of overrides, every cell another value: 30,000 changes.
awk 'BEGIN { print "ruleset \"many\" extends \"fill-d.rules\""
             for (i = 1; i <= 30000; i++) printf "override t[%d] = %d source \"line %d\"\n", i, i, i }' \
  >"$tmp/many.rules"
printf 'ruleset "d"\ntable t(n: 1..30000) -> int { else: 0 }\n' >"$tmp/fill-d.rules"
timed "diff, 1 MB of overrides, 30,000 cells" "$regula" diff "$tmp/fill-d.rules" "$tmp/many.rules"
timed "sheet of it (30,000 sources on cells)" "$regula" sheet "$tmp/many.rules"
# 1 MB of short constants (`const ab_=0`, 72,000 names): the compiler's
# symbol table and string pool had 1024 buckets (check: 1 s at 1 MB, 35 s
# at 4 MB), and diff found each constant by a scan of the other side's
# (78 s).
awk 'BEGIN { for (i = 0; size < 1000000; i++) {
               n = ""; k = i
               do { n = substr("abcdefghijklmnopqrstuvwxyz", k % 26 + 1, 1) n; k = int(k / 26) } while (k > 0)
               line = "const " n "_=0"; size += length(line) + 1; print line } }' >"$tmp/consts.rules"
timed "check, 1 MB of short constants" "$regula" check "$tmp/consts.rules"
timed "diff of it with itself" "$regula" diff "$tmp/consts.rules" "$tmp/consts.rules"
# 1 MB of constants whose names' FNV-1a hashes are 0 modulo 1024 (each
# name a prefix and the suffix that brings the hash's low 10 bits to 0):
# all in one bucket of the old tables (30 s).
python3 - "$tmp/collide.rules" <<'PY'
import sys
A = "abcdefghijklmnopqrstuvwxyz0123456789"
inv = pow(403, -1, 1024)                  # 16777619 mod 1024 = 403
suffix, todo = {0: ""}, [0]               # state (low 10 bits) -> suffix to 0
while todo:
    y = todo.pop(0)
    for ch in A:
        x = ((y * inv) & 1023) ^ ord(ch)
        if x not in suffix:
            suffix[x] = ch + suffix[y]
            todo.append(x)
out, size, i = [], 0, 0
while size < 1000000:
    name, h = "n%x_" % i, 2166136261 & 1023
    for ch in name.encode():
        h = ((h ^ ch) * 403) & 1023
    line = "const %s%s=0\n" % (name, suffix[h])
    out.append(line)
    size += len(line)
    i += 1
open(sys.argv[1], "w").write("".join(out))
PY
timed "check, 1 MB of names in one of 1024 buckets" "$regula" check "$tmp/collide.rules"
timed "diff of it with itself" "$regula" diff "$tmp/collide.rules" "$tmp/collide.rules"
# 20,000 procedures (0.8 MB): diff found each by a scan (20 s).
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "procedure p%d() -> int {\n  return %d\n}\n", i, i % 7 }' \
  >"$tmp/procs.rules"
timed "diff, 20,000 procedures with themselves" "$regula" diff "$tmp/procs.rules" "$tmp/procs.rules"
# Each of them changed: its source found by a walk of every declaration
# for each (360 s).
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "procedure p%d() -> int {\n  return %d\n}\n", i, i % 7 + 1 }' \
  >"$tmp/procs2.rules"
timed "diff, 20,000 procedures each changed" "$regula" diff "$tmp/procs.rules" "$tmp/procs2.rules"
python3 tools/bench/lsp_linear.py "$regula" "$limit" || failed=$((failed + 1))

# The limit on a procedure's code (the manual's Limits: "jumps of 8 Mi
# instructions"): an `if` around 8.4 MB of `x = y+y+...` (one instruction a
# byte, the least source per instruction) is refused with exit 2, naming the
# limit.  Too big for `make test`: about 1 GB of syntax tree, so 10 x LIMIT.
awk 'BEGIN { printf "procedure p(y: int) -> int {\n  let x = 0\n  if y > 0 {\n"
             for (s = 0; s < 4200; s++) { printf "    x = y"; for (i = 0; i < 999; i++) printf "+y"; printf "\n" }
             printf "  }\n  return x\n}\n" }' >"$tmp/jump.rules"
limit1=$limit
limit=$((limit * 10))
timed "a jump over 8.4 Mi instructions (8.4 MB)" "$regula" check "$tmp/jump.rules"
limit=$limit1
if [ "$code" != 2 ] || ! grep -q '^.*jump.rules:3:3: error: procedure too large: a jump spans more than 8388607 instructions' "$tmp/err"; then
  echo "linear: FAIL the jump over 8.4 Mi instructions: exit $code, $(head -c 300 "$tmp/err")"
  failed=$((failed + 1))
fi

[ "$failed" -eq 0 ]
