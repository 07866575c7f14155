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
passed=0 failed=0

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

echo "onlyfiles: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
