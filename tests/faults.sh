#!/bin/sh
# tests/faults.sh BINARY: every allocation failure ends cleanly.
#
# Runs whole commands on the bundled rules with RG_ALLOC_FAIL_AT=N (the Nth
# allocation of the library fails) for N = 1, 2, ... until the command runs
# as it does without injection.  Every N before that must end with exit 3 and
# exactly one "out of memory" message on stderr: never a crash (exit >= 128),
# a sanitizer report, a leak (LeakSanitizer is on under ASan), a second
# message, or a silent success.  `build` must leave no output file, or a
# complete one.  The rule file's compile is most of the allocations, so it
# runs whole under check, build, test and run; the other commands load the
# compiled module instead.  Every N up to $FAULTS_DENSE (default 400) is tried; past it,
# N grows by a stride of N/$FAULTS_SPARSE (default 40), to stay fast under the
# sanitizers.
#
# FAULTS_PART=K/N runs only the K-th of every N commands (`make test` runs
# the halves side by side under the sanitizers).
#
# Prints one line per failure and ends with `faults: N passed, M failed`.

set -u

if [ $# -ne 1 ]; then
  echo "usage: tests/faults.sh BINARY" >&2
  exit 2
fi
case $1 in
  /*) bin=$1 ;;
  *) bin=$(pwd)/$1 ;;
esac
if [ ! -x "$bin" ]; then
  echo "tests/faults.sh: $1 is not an executable" >&2
  exit 2
fi
cd "$(dirname "$0")/.." || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-faults.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
dense=${FAULTS_DENSE:-400}
sparse=${FAULTS_SPARSE:-40}
rules=rules/meg/maximus.rules
part=${FAULTS_PART:-1/1}
part_k=${part%/*} part_n=${part#*/}
case $part_k$part_n in
  *[!0-9]* | '') echo "tests/faults.sh: FAULTS_PART=$part is not K/N" >&2; exit 2 ;;
esac
if [ "$part_k" -lt 1 ] || [ "$part_k" -gt "$part_n" ]; then
  echo "tests/faults.sh: FAULTS_PART=$part is not K/N with 1 <= K <= N" >&2
  exit 2
fi
index=0
cases=0
failed=0
# A leak found by LeakSanitizer exits 23, not 3: it shows as a wrong exit.
ASAN_OPTIONS=${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}exitcode=99:detect_leaks=1
UBSAN_OPTIONS=${UBSAN_OPTIONS:-}${UBSAN_OPTIONS:+:}halt_on_error=1:exitcode=98
export ASAN_OPTIONS UBSAN_OPTIONS

# fail N LABEL WHY: reports one failed case, with the start of its stderr.
fail() {
  failed=$((failed + 1))
  echo "FAIL faults: RG_ALLOC_FAIL_AT=$1 regula $2: $3"
  sed -n '1,12s/^/    /p' "$tmp/err"
}

# inject LABEL CMD...: runs `regula CMD...` without injection (the baseline),
# then with RG_ALLOC_FAIL_AT=1, 2, ... until the output matches the baseline.
# When CMD writes $tmp/out.rbc, checks that it is absent or loads.
inject() {
  label=$1
  shift
  index=$((index + 1))
  [ $(((index - 1) % part_n + 1)) -eq "$part_k" ] || return 0
  rm -f "$tmp/out.rbc"
  "$bin" "$@" >"$tmp/base.out" 2>"$tmp/base.err" </dev/null
  base=$?
  if [ "$base" -ge 3 ]; then
    fail 0 "$label" "exits $base without injection"
    return
  fi
  n=1
  while :; do
    cases=$((cases + 1))
    rm -f "$tmp/out.rbc"
    XDG_CACHE_HOME=${cold:-$tmp/cache} RG_ALLOC_FAIL_AT=$n "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    code=$?
    if [ "$code" -eq "$base" ] && cmp -s "$tmp/out" "$tmp/base.out" \
       && cmp -s "$tmp/err" "$tmp/base.err"; then
      break            # N is past the last allocation: the normal run
    fi
    oom=$(grep -c "out of memory" "$tmp/err")
    if [ "$code" -ge 128 ]; then
      fail $n "$label" "killed by signal $((code - 128))"
    elif grep -q -e "Sanitizer" -e "runtime error:" "$tmp/err"; then
      fail $n "$label" "sanitizer report (exit $code)"
    elif [ "$code" -ne 3 ]; then
      fail $n "$label" "exit $code, not 3 (base $base; $oom 'out of memory')"
    elif [ "$oom" -ne 1 ]; then
      fail $n "$label" "$oom 'out of memory' messages, not 1"
    elif [ -f "$tmp/out.rbc" ] && ! "$bin" check "$tmp/out.rbc" >/dev/null 2>&1; then
      fail $n "$label" "left a broken $tmp/out.rbc"
    fi
    if [ "$n" -lt "$dense" ]; then
      n=$((n + 1))
    else
      n=$((n + n / sparse))
    fi
  done
  echo "faults: $label: runs clean from N=$n" >>"$tmp/summary"
}

"$bin" build "$rules" -o "$tmp/maximus.rbc" >/dev/null 2>&1 || {
  echo "FAIL faults: regula build $rules"
  exit 1
}

mod=$tmp/maximus.rbc
inject "check $rules" check --assumptions "$rules"
inject "build $rules" build "$rules" -o "$tmp/out.rbc"
inject "test $rules" test "$rules"
inject "test maximus.rbc" test "$mod"
inject "query maximus.rbc" query "$mod" weather 0 Desert
inject "query maximus.rbc (record)" query "$mod" terrain Woods
inject "call maximus.rbc squares_allowing" call "$mod" squares_allowing D
inject "call maximus.rbc draw_cards" call "$mod" draw_cards A 3
# the native tier: its code from the cache, then compiled (a cache empty
# until an injected run gets as far as writing the entry)
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
if command -v cc >/dev/null 2>&1; then
  inject "call --native maximus.rbc draw_cards" call --native "$mod" draw_cards A 3
  inject "sim --native maximus.rbc" sim --native "$mod" --runs 5 --threads 1
  cold=$tmp/cold
  inject "call --native maximus.rbc squares_allowing (compiled)" call --native "$mod" squares_allowing D
  cold=
fi
inject "dis maximus.rbc" dis "$mod"
inject "dis --fast maximus.rbc" dis --fast "$mod"
inject "draw deployment.rules draw_zones Encircle" draw rules/ninthage/deployment.rules \
  draw_zones Encircle --svg "$tmp/out.svg"
inject "sheet maximus.rbc weather" sheet "$mod" weather
# diff's rule items, runs of cells and odds through a helper; the sheet of
# a revision (its overrides read again from the rule files)
inject "diff every-base every-variant" diff tests/diff/every-base.rules tests/diff/every-variant.rules
inject "diff --json runs-base runs-variant" diff --json tests/diff/runs-base.rules \
  tests/diff/runs-variant.rules
inject "diff odds-helper" diff tests/diff/odds-helper-base.rules tests/diff/odds-helper-variant.rules
inject "sheet sheet-revision" sheet tests/run/sheet-revision.rules
if "$bin" build rules/meg/magna.rules -o "$tmp/magna.rbc" >/dev/null 2>&1; then
  inject "diff maximus.rbc magna.rbc" diff "$mod" "$tmp/magna.rbc"
  inject "diff --json maximus.rbc magna.rbc" diff --json "$mod" "$tmp/magna.rbc"
  inject "sim --variants maximus.rbc,magna.rbc --json" sim --variants "$mod,$tmp/magna.rbc" \
    --runs 5 --threads 1 --json
  inject "run --variants maximus.rbc,magna.rbc --json" run --variants "$mod,$tmp/magna.rbc" --json
else
  echo "FAIL faults: regula build rules/meg/magna.rules"
  failed=$((failed + 1))
fi
if "$bin" run --help >/dev/null 2>&1; then
  inject "run $rules" run "$rules" --seed 3 --policy first
  inject "run maximus.rbc --json" run "$mod" --seed 5 --json
  # every JSON writer: a JSON value that could not be built fails the command
  inject "sim maximus.rbc --json" sim "$mod" --runs 5 --threads 1 --json
  inject "odds skirmish --json" odds tests/run/skirmish.rules main --json
  # a record's columns, and rule sets side by side (text, JSON, chart)
  inject "odds oddsvar-revised camp --svg" odds tests/run/oddsvar-revised.rules camp \
    --svg "$tmp/odds.svg"
  inject "odds --variants oddsvar camp" odds --variants \
    tests/run/oddsvar-base.rules,tests/run/oddsvar-revised.rules camp --svg "$tmp/oddsvar.svg"
  inject "odds --variants oddsvar day --json" odds --variants \
    tests/run/oddsvar-base.rules,tests/run/oddsvar-revised.rules day 0 --json
fi

[ -n "${FAULTS_VERBOSE:-}" ] && cat "$tmp/summary"
[ "$part_n" -gt 1 ] && echo "faults (part $part): $((cases - failed)) passed, $failed failed" ||
  echo "faults: $((cases - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
