#!/bin/sh
# tests/onlyfiles.sh REGULA: the promise "regula writes only the files the
# command line names" (docs/manual.md, Promises), for every command.
#
# Each command runs in an empty working folder, with HOME, TMPDIR and
# XDG_CACHE_HOME in folders of their own and the rule files in a copy of
# rules/ and tables/.  Before and after, every file and folder under those
# is listed with its size, mode and time; what changed must be exactly the
# files the command line names (and, for --native, the cache under
# XDG_CACHE_HOME/regula/native, which the manual names).  A command that
# wrote a stray file, touched a rule file it only reads, or left a
# temporary file fails here, whatever the file is called.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-onlyfiles.XXXXXX") || exit 2
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
passed=0 failed=0 stdin=

mkdir -p "$tmp/src" "$tmp/work" "$tmp/home" "$tmp/tmp" "$tmp/cache"
cp -R "$root/rules" "$root/tables" "$tmp/src/"
cat >"$tmp/src/small.rules" <<'EOF'
procedure p() -> int {
  let x = roll d6
  expect x >= 1
  return x
}
test "p is a die" {
  expect p() <= 6
}
EOF
grep -v '^#' "$root/docs/game.txt" >"$tmp/src/answers.txt"

# snapshot: every path under the watched folders with its kind, size, mode
# and modification time, sorted.
snapshot() {
  (cd "$tmp" && find src work home tmp cache -printf '%p %y %s %m %T@\n' | sort)
}

# only NAME ALLOWED CMD...: runs CMD in work/ (standard input from
# src/answers.txt) and fails when the paths that appeared, vanished or
# changed are not all matched by the extended regular expression ALLOWED
# (relative to the test folder, e.g. '^work/out\.rbc$'; '' allows none).
only() {
  name=$1 allowed=$2
  shift 2
  snapshot >"$tmp/before"
  (cd "$tmp/work" && HOME=$tmp/home TMPDIR=$tmp/tmp XDG_CACHE_HOME=$tmp/cache \
     "$@" <"$tmp/src/answers.txt" >/dev/null 2>"$tmp/err")
  code=$?
  snapshot >"$tmp/after"
  diff "$tmp/before" "$tmp/after" | sed -n 's/^[<>] \([^ ]*\) .*/\1/p' | sort -u >"$tmp/changed"
  if [ -n "$allowed" ]; then stray=$(grep -Ev -- "$allowed" "$tmp/changed")
  else stray=$(cat "$tmp/changed"); fi
  if [ "$code" -gt 1 ]; then
    failed=$((failed + 1))
    echo "FAIL onlyfiles $name: exit $code"; head -c 400 "$tmp/err" | sed 's/^/    /'
  elif [ -n "$stray" ]; then
    failed=$((failed + 1))
    echo "FAIL onlyfiles $name: wrote or changed files it was not asked to:"
    echo "$stray" | sed 's/^/    /'
  else
    passed=$((passed + 1))
  fi
}

# refused NAME CMD...: CMD (an output that is an input, or two outputs
# naming one file) must exit 2 and change nothing at all.  Standard input
# is $stdin, else /dev/null.
refused() {
  name=$1
  shift
  snapshot >"$tmp/before"
  (cd "$tmp/work" && HOME=$tmp/home TMPDIR=$tmp/tmp XDG_CACHE_HOME=$tmp/cache \
     "$@" <"${stdin:-/dev/null}" >/dev/null 2>"$tmp/err")
  code=$?
  snapshot >"$tmp/after"
  if [ "$code" -ne 2 ]; then
    failed=$((failed + 1))
    echo "FAIL onlyfiles $name: exit $code, expected 2 (refused)"; head -c 400 "$tmp/err" | sed 's/^/    /'
  elif ! cmp -s "$tmp/before" "$tmp/after"; then
    failed=$((failed + 1))
    echo "FAIL onlyfiles $name: refused, but files changed:"
    diff "$tmp/before" "$tmp/after" | sed 's/^/    /' | head -10
  elif ! grep -q "name another" "$tmp/err"; then
    failed=$((failed + 1))
    echo "FAIL onlyfiles $name: the refusal does not say what to do:"; sed 's/^/    /' "$tmp/err"
  else
    passed=$((passed + 1))
  fi
}

S=$tmp/src
M=$S/rules/meg/maximus.rules
only check '' "$bin" check "$M" "$S/small.rules"
only check-assumptions '' "$bin" check --assumptions "$M"
only build '^work$|^work/out\.rbc$' "$bin" build "$M" -o out.rbc
only dis '' "$bin" dis out.rbc
only dis-fast '' "$bin" dis --fast "$S/small.rules"
only query '' "$bin" query "$M" weather 7 Standard
only call '' "$bin" call "$S/small.rules" p
only test '' "$bin" test "$S/small.rules"
only run '' "$bin" run "$M" --seed 3
only run-json '' "$bin" run "$M" --seed 3 --json
only run-ask '^work$|^work/game\.txt$' "$bin" run "$M" --policy ask --seed 4 --transcript game.txt
only run-resume '^work/game\.txt$' "$bin" run --resume game.txt
only odds '' "$bin" odds "$S/small.rules" p
only odds-svg '^work$|^work/odds\.svg$' "$bin" odds "$S/small.rules" p --svg odds.svg
only sim '' "$bin" sim "$M" --runs 20 --seed 2
only sim-svg '^work$|^work/sim\.svg$' "$bin" sim "$M" --runs 20 --seed 2 --svg sim.svg
only sim-variants '' "$bin" sim --variants "$M,$S/rules/meg/revised/maximus.rules" --runs 20
only sheet '' "$bin" sheet "$M"
only diff '' "$bin" diff "$M" "$S/rules/meg/revised/maximus.rules"
only diff-json '' "$bin" diff --json "$M" "$S/rules/meg/pacto.rules"
only fmt-check '' "$bin" fmt --check "$S/small.rules" "$M"
cp "$S/small.rules" "$S/messy.rules" && printf 'const   a=1\n' >>"$S/messy.rules"
only fmt '^src/messy\.rules$|^src$' "$bin" fmt "$S/messy.rules"
only native '^cache(/regula(/native(/.*)?)?)?$' "$bin" call --native "$S/small.rules" p
only native-sim '^cache/regula/native(/.*)?$' "$bin" sim --native "$M" --runs 20
# a session: initialize, open a document, shutdown, exit
lsp_msg() { printf 'Content-Length: %d\r\n\r\n%s' "$(printf '%s' "$1" | wc -c)" "$1"; }
{ lsp_msg '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}'
  lsp_msg '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://'"$S"'/small.rules","languageId":"regula","version":1,"text":"const a = 1\n"}}}'
  lsp_msg '{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
  lsp_msg '{"jsonrpc":"2.0","method":"exit"}'; } >"$S/lsp.in"
only lsp '' sh -c 'exec "$0" lsp <"$1"' "$bin" "$S/lsp.in"

# An output that is an input, by any name, is refused before anything is
# written (build -o, every picture option and --transcript once replaced
# the rule file being read, exit 0); two outputs naming one file too.
ln -s "$S/small.rules" "$S/link.rules"
refused out-is-input-build "$bin" build "$S/small.rules" -o "$S/small.rules"
refused out-is-input-link "$bin" build "$S/link.rules" -o "$S/small.rules"
refused out-is-input-spelt "$bin" build "$S/small.rules" -o "$S/../src/small.rules"
refused out-is-input-svg "$bin" run "$M" --seed 1 --svg "$M"
refused out-is-input-map "$bin" run "$M" --seed 1 --map-svg "$M"
refused out-is-input-picture "$bin" run "$M" --seed 1 --picture "map=$M"
refused out-is-input-sim "$bin" sim "$M" --runs 5 --svg "$M"
refused out-is-input-odds "$bin" odds "$S/small.rules" p --svg "$S/small.rules"
refused out-is-input-draw "$bin" draw "$S/small.rules" p --svg "$S/small.rules"
refused out-is-input-transcript "$bin" run "$M" --policy ask --seed 4 --transcript "$M"
refused out-is-variant "$bin" sim --variants "$S/small.rules,$M" p --runs 5 --svg "$M"
cp "$S/answers.txt" "$S/inputs.txt"
refused out-is-inputs "$bin" run "$M" --seed 1 --inputs "$S/inputs.txt" --svg "$S/inputs.txt"
refused out-is-answers "$bin" run "$M" --seed 1 --policy "answers:$S/answers.txt" --svg "$S/answers.txt"
refused two-outs-one-file "$bin" run "$M" --seed 1 --svg same.svg --map-svg ./same.svg

# Nor is an output a file the command reads without naming it: a rule file
# that `extends` names, a TSV a table reads `from`, the rule file a
# --resume game names, the file on standard input (each once exit 0 and
# replaced the file).  The refusal names the file and why; the file is
# byte for byte what it was.
I=$S/imp
mkdir -p "$I" "$tmp/keep"
printf 'ruleset "base"\ntable t(k: 1..3) -> int from "t.tsv"\nprocedure main() -> int { return t[roll d3] }\n' >"$I/base.rules"
printf 'k\tvalue\n1\t1\n2\t2\n3\t3\n' >"$I/t.tsv"
printf 'ruleset "child" extends "base.rules"\nconst x = 1\n' >"$I/child.rules"
printf 'procedure main() -> int {\n  let a = choose(1, "first", 1, 3)\n  return choose(1, "second", 1, 3) + a\n}\n' >"$I/p.rules"
ln -s t.tsv "$I/tlink.tsv"
(cd "$I" && printf '2\n' | "$bin" run "$I/p.rules" --policy ask --transcript g.txt >/dev/null 2>&1)
cp "$I"/*.rules "$I/t.tsv" "$I/g.txt" "$tmp/keep/"
printf '2\n3\n' >"$I/answers.txt"       # so that a game goes on to write

# kept NAME FILE WHY: the message in err names FILE (its base name) and
# WHY, and FILE is byte for byte its copy in keep/ (else restored).
kept() {
  if ! grep -q "^regula: error: .*$(basename "$2").*$3.*name another" "$tmp/err"; then
    failed=$((failed + 1))
    echo "FAIL onlyfiles $1: the refusal does not name $(basename "$2") and '$3':"
    sed 's/^/    /' "$tmp/err"
  fi
  if ! cmp -s "$2" "$tmp/keep/$(basename "$2")"; then
    failed=$((failed + 1))
    echo "FAIL onlyfiles $1: $2 changed"
    cp "$tmp/keep/$(basename "$2")" "$2"
  fi
}

# read_refused NAME FILE WHY CMD...: refused, and kept.
read_refused() {
  name=$1 file=$2 why=$3
  shift 3
  refused "$name" "$@"
  kept "$name" "$file" "$why"
}
read_refused out-is-from-build "$I/t.tsv" 'from' "$bin" build "$I/base.rules" -o "$I/t.tsv"
read_refused out-is-from-link "$I/t.tsv" 'from' "$bin" build "$I/base.rules" -o "$I/tlink.tsv"
read_refused out-is-extends-build "$I/base.rules" 'extend' "$bin" build "$I/child.rules" -o "$I/base.rules"
read_refused out-is-from-odds "$I/t.tsv" 'from' "$bin" odds "$I/base.rules" main --svg "$I/t.tsv"
read_refused out-is-extends-odds "$I/base.rules" 'extend' "$bin" odds "$I/child.rules" main --svg "$I/base.rules"
read_refused out-is-extends-sim "$I/base.rules" 'extend' "$bin" sim "$I/child.rules" --runs 10 --svg "$I/base.rules"
read_refused out-is-from-variants "$I/t.tsv" 'from' "$bin" sim --variants "$I/base.rules,$I/child.rules" --runs 10 --svg "$I/t.tsv"
stdin=$I/answers.txt read_refused out-is-extends-transcript "$I/base.rules" 'extend' "$bin" run "$I/child.rules" --dice ask --transcript "$I/base.rules"
stdin=$I/answers.txt read_refused out-is-from-transcript "$I/t.tsv" 'from' "$bin" run "$I/base.rules" --dice ask --transcript "$I/t.tsv"
stdin=$I/answers.txt read_refused out-is-resumed-rules "$I/p.rules" 'the rule file' "$bin" run --resume "$I/g.txt" --transcript "$I/p.rules"
stdin=$I/p.rules read_refused out-is-stdin "$I/p.rules" 'standard input' "$bin" build - -o "$I/p.rules"
stdin=$I/g.txt read_refused out-is-stdin-answers "$I/g.txt" 'standard input' "$bin" run "$I/p.rules" --policy ask --transcript "$I/g.txt"
stdin=

# `save FILE` typed at a question is refused when FILE is a file the
# command reads; the game goes on.
# save_refused NAME FILE WHY CMD...: CMD, answered `save FILE`, then 2 and
# 3, ends (exit 0 or 1) and FILE is kept.
save_refused() {
  name=$1 file=$2 why=$3
  shift 3
  printf 'save %s\n2\n3\n' "$file" >"$tmp/answers"
  (cd "$tmp/work" && "$@" <"$tmp/answers" >/dev/null 2>"$tmp/err")
  code=$?
  before=$failed
  if [ "$code" -gt 1 ]; then
    failed=$((failed + 1))
    echo "FAIL onlyfiles $name: exit $code"; head -c 400 "$tmp/err" | sed 's/^/    /'
  fi
  kept "$name" "$file" "$why"
  [ "$failed" -eq "$before" ] && passed=$((passed + 1))
}
save_refused save-over-rules "$I/p.rules" 'reads' "$bin" run "$I/p.rules" --policy ask
save_refused save-over-from "$I/t.tsv" 'from' "$bin" run "$I/base.rules" --dice ask
save_refused save-over-extends "$I/base.rules" 'extend' "$bin" run "$I/child.rules" --dice ask
save_refused save-over-resumed-rules "$I/p.rules" 'reads' "$bin" run --resume "$I/g.txt"

echo "onlyfiles: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
