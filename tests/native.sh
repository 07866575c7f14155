#!/bin/sh
# tests/native.sh BINARY: the native tier against the VM, its oracle.
#
#  1. Every golden test (tests/run.sh) with REGULA_NATIVE=1: every command
#     runs its rules in the native tier, and one that cannot is an error, so
#     results, events, errors and limit stops must equal the VM's recorded
#     output byte for byte.
#  2. The bench workloads (small N), whole pre-battles of each bundled game,
#     limit stops (steps, call depth, memory) and the fuzz corpora's valid
#     rule files: the same command with and without --native must print the
#     same stdout and stderr and exit the same.
#  3. Falling back: no compiler, an instruction without a native form (a
#     frame too large), a cache folder that is not private: a note on
#     stderr, the VM's output, exit as without --native.
#  4. The cache: a private folder (0700) of private entries (0600), no
#     temporary files left, a corrupt entry rejected (and replaced).
#
# Needs a C compiler (cc); without one only part 3 runs.  Ends with
# `native: N passed, M failed`.
set -u
case $1 in
  /*) bin=$1 ;;
  *) bin=$(pwd)/$1 ;;
esac
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-native.XXXXXX") || exit 2
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
unset REGULA_CC REGULA_NATIVE
cache=$tmp/cache/regula/native
passed=0
failed=0

# ok / bad WHAT: counts a check.
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL native: $*"; }

# same LABEL ARGS...: `regula ARGS` in the VM and in the native tier
# (REGULA_NATIVE=1; with NATIVE_FLAG=1, --native after the command name
# instead) must give the same stdout, stderr and exit.
same() {
  label=$1
  shift
  "$bin" "$@" >"$tmp/vm.out" 2>"$tmp/vm.err" </dev/null
  vm=$?
  if [ -n "${NATIVE_FLAG:-}" ]; then
    cmd=$1
    shift
    "$bin" "$cmd" --native "$@" >"$tmp/nat.out" 2>"$tmp/nat.err" </dev/null
  else
    REGULA_NATIVE=1 "$bin" "$@" >"$tmp/nat.out" 2>"$tmp/nat.err" </dev/null
  fi
  nat=$?
  if [ "$vm" -ne "$nat" ]; then
    bad "$label: exit $nat native, $vm VM"; head -5 "$tmp/nat.err" | sed 's/^/    /'
  elif ! cmp -s "$tmp/vm.out" "$tmp/nat.out"; then
    bad "$label: stdout differs"; diff "$tmp/vm.out" "$tmp/nat.out" | head -10 | sed 's/^/    /'
  elif ! cmp -s "$tmp/vm.err" "$tmp/nat.err"; then
    bad "$label: stderr differs"; diff "$tmp/vm.err" "$tmp/nat.err" | head -10 | sed 's/^/    /'
  else
    ok
  fi
}

if command -v cc >/dev/null 2>&1; then
  # ---- 1. the golden tests, in the native tier ----------------------------
  if REGULA_NATIVE=1 tests/run.sh "$bin" >"$tmp/golden" 2>&1; then ok; else
    bad "golden tests with REGULA_NATIVE=1:"; grep -A12 '^FAIL' "$tmp/golden" | head -60
  fi
  tail -1 "$tmp/golden" | sed 's/^/native: golden: /'

  # ---- 2. workloads, games, limits, corpora -------------------------------
  NATIVE_FLAG=1 same "weather" call tools/bench/weather.rules main 20000
  NATIVE_FLAG=1 same "fight" call tools/bench/fight.rules main 5000
  NATIVE_FLAG=1 same "buildup" sim tools/bench/buildup.rules --runs 3000 --threads 1
  for g in rules/meg/maximus.rules rules/meg/magna.rules rules/meg/pacto.rules \
           rules/meg/revised/maximus.rules; do
    same "sim $g" sim "$g" --runs 300 --threads 2 --json
  done
  same "sim maximus, one seed" sim rules/meg/maximus.rules --runs 50 --seed 77
  # limits: where the steps run out, the call depth, the frame that does not fit
  for n in 1 5 38 39 76 77 1000 12345; do
    same "weather --max-steps $n" call tools/bench/weather.rules main 100 --max-steps "$n"
  done
  printf 'procedure down(n: int) -> int {\n  if n == 0 { return 0 }\n  return 1 + down(n - 1)\n}\n' >"$tmp/deep.rules"
  same "call depth" call "$tmp/deep.rules" down 500
  same "call depth, enough" call "$tmp/deep.rules" down 150
  same "frame memory" call "$tmp/deep.rules" down 150 --max-memory 2K
  for n in 1 7 100 1000; do same "recursion steps $n" call "$tmp/deep.rules" down 150 --max-steps "$n"; done
  for f in tests/fuzz/*/*.rules tests/lang/*.rules; do
    [ -f "$f" ] || continue
    "$bin" check "$f" >/dev/null 2>&1 || continue
    same "test $f" test "$f"
  done

  # ---- 4. the cache ------------------------------------------------------------
  mode=$(stat -c %a "$cache")
  if [ "$mode" = 700 ]; then ok; else bad "cache folder mode $mode, not 700"; fi
  if [ -z "$(find "$cache" -type f ! -perm 600)" ]; then ok; else bad "an entry is not 0600"; fi
  if [ -z "$(ls "$cache" | grep -v '\.so$')" ]; then ok; else bad "left in the cache: $(ls "$cache" | grep -v '\.so$')"; fi
  # a corrupt entry (one byte changed) is rejected and replaced, not loaded
  rm -rf "$cache"
  "$bin" call --native tools/bench/weather.rules main 1000 >"$tmp/a" 2>&1
  entry=$(ls "$cache"/*.so)
  printf '\001' | dd of="$entry" bs=1 seek=2000 conv=notrunc 2>/dev/null
  sum1=$(cksum <"$entry")
  "$bin" call --native tools/bench/weather.rules main 1000 >"$tmp/b" 2>&1
  sum2=$(cksum <"$entry")
  if cmp -s "$tmp/a" "$tmp/b" && [ "$sum1" != "$sum2" ]; then ok; else bad "a corrupt entry was not replaced"; fi
  # a foreign entry (another module's code under this key) is rejected too
  other=$(ls "$cache"/*.so)
  "$bin" call --native tools/bench/fight.rules main 10 >/dev/null 2>&1
  for e in "$cache"/*.so; do [ "$e" = "$other" ] || cp "$e" "$other"; done
  "$bin" call --native tools/bench/weather.rules main 1000 >"$tmp/c" 2>&1
  if cmp -s "$tmp/a" "$tmp/c"; then ok; else bad "a foreign entry was loaded"; fi
fi

# ---- 3. falling back -----------------------------------------------------------
REGULA_CC=/nonexistent/cc "$bin" call --native tools/bench/weather.rules main 1000 >"$tmp/out" 2>"$tmp/err"
code=$?
"$bin" call tools/bench/weather.rules main 1000 >"$tmp/vm.out" 2>/dev/null
if [ "$code" -eq 0 ] && cmp -s "$tmp/out" "$tmp/vm.out" &&
   grep -q '^regula: note: --native: no C compiler at /nonexistent/cc: the VM runs$' "$tmp/err"; then ok
else bad "no compiler: exit $code, $(cat "$tmp/err")"; fi
# a "compiler" that succeeds and writes nothing: said so (it blamed the cache)
REGULA_CC=/bin/true "$bin" call --native tools/bench/weather.rules main 1000 >"$tmp/out" 2>"$tmp/err"
code=$?
if [ "$code" -eq 0 ] && cmp -s "$tmp/out" "$tmp/vm.out" &&
   grep -q '^regula: note: --native: the C compiler /bin/true wrote no shared object: the VM runs$' "$tmp/err"; then ok
else bad "a compiler writing nothing: exit $code, $(cat "$tmp/err")"; fi
# a procedure whose frame is past what the tier translates (4096 slots)
{ printf 'procedure big() -> int {\n  let s = 0\n'
  i=0; while [ $i -lt 4200 ]; do printf '  let v%d = %d\n' $i $i; i=$((i + 1)); done
  printf '  return s + v4199\n}\n'; } >"$tmp/big.rules"
"$bin" call --native "$tmp/big.rules" big >"$tmp/out" 2>"$tmp/err"
code=$?
if [ "$code" -eq 0 ] && [ "$(cat "$tmp/out")" = 4199 ] &&
   grep -q 'has no native form: the VM runs' "$tmp/err"; then ok
else bad "untranslated instruction: exit $code, $(cat "$tmp/out") $(cat "$tmp/err")"; fi
# a cache folder that others may enter
mkdir -p "$tmp/open/regula/native"
chmod 755 "$tmp/open/regula/native"
XDG_CACHE_HOME=$tmp/open "$bin" call --native tools/bench/weather.rules main 1000 >"$tmp/out" 2>"$tmp/err"
code=$?
if [ "$code" -eq 0 ] && cmp -s "$tmp/out" "$tmp/vm.out" && grep -q 'not the user.s own and private' "$tmp/err" &&
   [ -z "$(ls "$tmp/open/regula/native")" ]; then ok
else bad "open cache folder: exit $code, $(cat "$tmp/err")"; fi

echo "native: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
