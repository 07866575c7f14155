#!/bin/sh
# tests/limits.sh BINARY: inputs too big to keep as files, generated here.
#
# Each check builds an input in a temporary folder, runs regula on it and
# looks at the exit code and the first line of stderr: a limit of the
# language must be a located error (exit 2), never a crash (exit >= 128) or a
# wrong answer.  Timings are not checked here (tools/bench/linear.sh does).
set -u
bin=$1
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-limits.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0
passed=0

# expect NAME CODE PATTERN CMD...: runs CMD (stdout and stderr kept in
# $tmp/out and $tmp/err); it must exit CODE and, when PATTERN is not empty,
# its stderr must hold PATTERN (a grep -E pattern).
expect() {
  name=$1 want=$2 pat=$3
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
  if [ "$code" -ne "$want" ]; then
    failed=$((failed + 1))
    echo "FAIL limits $name: exit $code, expected $want"
    head -c 600 "$tmp/err" | sed 's/^/    /'
  elif [ -n "$pat" ] && ! grep -Eq -- "$pat" "$tmp/err"; then
    failed=$((failed + 1))
    echo "FAIL limits $name: stderr does not match '$pat'"
    head -c 600 "$tmp/err" | sed 's/^/    /'
  else
    passed=$((passed + 1))
  fi
}

# repeat N TEXT: TEXT N times, no separator.
repeat() {
  awk -v n="$1" -v t="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", t }'
}

# ---- 1. long operator chains: a located error, not a stack overflow ------
{ printf 'const a = 1'; repeat 12500 '+1'; echo; } >"$tmp/plus.rules"
expect chain-plus 2 '^[^ ]*plus.rules:1:[0-9]+: error: expression too deep' \
  "$bin" check "$tmp/plus.rules"
{ printf 'procedure p(x: bool) -> bool {\n  return x'; repeat 12500 ' and x'; printf '\n}\n'; } >"$tmp/and.rules"
expect chain-and 2 'error: expression too deep' "$bin" check "$tmp/and.rules"
{ printf 'record r { a: int }\nprocedure p(x: r) -> int { return x'; repeat 12500 '.a'; printf ' }\n'; } >"$tmp/field.rules"
expect chain-field 2 'error: expression too deep' "$bin" check "$tmp/field.rules"
{ printf 'enum e { A, B }\ntable t(e) -> set e { A: {A}'; repeat 12500 ' + {B}'; printf ', B: {} }\n'; } >"$tmp/cell.rules"
expect chain-cell 2 'error: expression too deep' "$bin" check "$tmp/cell.rules"
expect chain-diff 2 'error: expression too deep' "$bin" diff "$tmp/plus.rules" "$tmp/plus.rules"
expect chain-sheet 2 'error: expression too deep' "$bin" sheet "$tmp/cell.rules"

# ---- 5. compiler limits that tell the truth -------------------------------
{ printf 'procedure p(x: int) -> int {\n  if x == 0 { return 0 }\n'
  awk 'BEGIN { for (i = 1; i <= 10001; i++) printf "  else if x == %d { return %d }\n", i, i }'
  printf '  return -1\n}\n'; } >"$tmp/elif.rules"
expect else-if-limit 2 'elif.rules:10002:8: error: too many branches in an else-if chain \(limit 10000\)' \
  "$bin" check "$tmp/elif.rules"

mkdir -p "$tmp/tsv"
printf 'n\tv\n1\t2\n' >"$tmp/tsv/t.tsv"
awk 'BEGIN { for (i = 0; i < 300; i++) printf "table t%d(n: 1..1) -> int from \"tsv/t.tsv\"\n", i }' >"$tmp/same.rules"
expect from-same-file 0 '' "$bin" check "$tmp/same.rules"
for i in $(seq 0 299); do cp "$tmp/tsv/t.tsv" "$tmp/tsv/u$i.tsv"; done
awk 'BEGIN { for (i = 0; i < 300; i++) printf "table u%d(n: 1..1) -> int from \"tsv/u%d.tsv\"\n", i, i }' >"$tmp/many.rules"
expect from-many-files 2 '^[^ ]*many.rules:256:33: error: too many source files \(limit 256\)' \
  "$bin" check "$tmp/many.rules"
n=$(grep -c 'too many source files' "$tmp/err")
if [ "$n" -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL limits from-many-files: said $n times"; fi
{ printf 'procedure p('; awk 'BEGIN { for (i = 0; i < 70000; i++) printf "a%d: int, ", i }'; printf 'z: int) -> int { return z }\n'; } >"$tmp/params.rules"
expect params 2 'params.rules:1:[0-9]+: error: too many parameters \(limit 255\)' "$bin" check "$tmp/params.rules"

echo "limits: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
