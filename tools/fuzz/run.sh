#!/bin/sh
# tools/fuzz/run.sh REGULA DIR SECONDS NAME...: builds each harness's seed
# corpus and runs it for SECONDS under libFuzzer (`make fuzz` calls it).
#
# The harnesses are DIR/bin/fuzz_NAME.  Seeds go to DIR/corpus/NAME/:
#   parse, compile, render, fmt, native  every rule file of rules/ and tests/
#   tsv             every .tsv of tables/ and tests/
#   module          an .rbc built by REGULA from each rule file that compiles
#   answers         the answers files of tests/ (*.answers) and a few made here
#   diag            a few diagnostics made here (fuzz_diag.c says how they read)
#   setup           a few inputs files made here (fuzz_setup.c's rules)
#   lsp             the frames of tests/fuzz/lsp/ (fuzz_lsp.c says how they read)
# plus the regression inputs of tests/fuzz/NAME/.  The corpus grows as the
# fuzzer finds new paths and is kept between runs.  A crash is written to
# DIR/crashes/NAME/ (so is an input slower than 10 s, as slow-unit-*: counted
# apart, not a failure); minimize it with
#   DIR/bin/fuzz_NAME -minimize_crash=1 -runs=20000 CRASH
# and keep the result in tests/fuzz/NAME/ (make test replays it).
#
# A run that takes longer than FUZZ_TIMEOUT seconds (default 60, of the
# wall clock) is a finding (a crash file timeout-*); one slower than 10 s is
# written as slow-unit-* and counted apart.  The corpus holds legal rule sets
# of 6,000,000 table cells (tests/errors/limit-module-cells.rules): one
# compile of such a file takes 1.2 to 1.7 s of CPU under the fuzzer's
# instrumentation, and on a loaded 2-core machine (load 13) 7 to 10 s of the
# wall clock, which failed `make fuzz FUZZ_SECONDS=3` at a 10 s timeout.
#
# Prints, per harness, the executions and seconds, the edges covered after
# loading the corpus and at the end (libFuzzer's cov), and ends with the
# crashes found; exit 1 when any.

set -u
if [ $# -lt 4 ]; then
  echo "usage: tools/fuzz/run.sh REGULA DIR SECONDS NAME..." >&2
  exit 2
fi
regula=$1 dir=$2 seconds=$3
shift 3
cd "$(dirname "$0")/../.." || exit 2

# seed NAME: fills DIR/corpus/NAME with the seeds of harness NAME.
seed() {
  c=$dir/corpus/$1
  mkdir -p "$c"
  case $1 in
    parse|compile|render|fmt|native)
      find rules tests -name '*.rules' | while read -r f; do
        cp "$f" "$c/seed-$(echo "$f" | tr / _)"
      done ;;
    tsv)
      find tables tests -name '*.tsv' | while read -r f; do
        cp "$f" "$c/seed-$(echo "$f" | tr / _)"
      done ;;
    module)
      find rules tests/lang tests/dis -name '*.rules' | while read -r f; do
        "$regula" build "$f" -o "$c/seed-$(echo "$f" | tr / _).rbc" >/dev/null 2>&1 </dev/null || :
      done ;;
    answers)
      find tests -name '*.answers' | while read -r f; do
        cp "$f" "$c/seed-$(echo "$f" | tr / _)"
      done
      printf '# answers\nS\n2\n-3\nD\xc3\xa9sert\n\n  coastal  \n4\n' >"$c/seed-mixed"
      printf '1\r\n4\r\n0\r\nonly one\r\n' >"$c/seed-crlf"
      printf 'Standard\n9223372036854775807\n3\nS\n-2000000000\n' >"$c/seed-numbers" ;;
    diag)
      # flags, line, col, end col, byte col (little-endian), message NUL line
      printf '\002\003\000\000\000\005\000\000\000\010\000\000\000\005\000\000\000unknown name\000let x = foo + 1' >"$c/seed-plain"
      printf '\002\001\000\000\000\003\000\000\000\004\000\000\000\004\000\000\000bad\000\t\xc3\xa9\xe4\xb8\xad "\033[31m" \xe2\x80\xae x' >"$c/seed-unsafe"
      printf '\002\001\000\000\000\310\000\000\000\311\000\000\000\310\000\000\000long\000%0300d' 0 >"$c/seed-long"
      printf '\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000too many source files' >"$c/seed-unlocated" ;;
    setup)
      printf '# an army\nrating = C\ngrounds=S,F\nshare=25%%\nwidth=6BW\nn=-3\n' >"$c/seed-inputs"
      printf 'D=hit:3,blank\nbag=F:2,C\r\nD = miss\n' >"$c/seed-sides"
      printf 'bag=S:1000000\nD=Blänk:2,Hit\nnope=1\n' >"$c/seed-names" ;;
  esac
  if [ -d "tests/fuzz/$1" ]; then
    for f in "tests/fuzz/$1"/*; do
      [ -f "$f" ] && [ "${f##*/}" != README.md ] && cp "$f" "$c/"
    done
  fi
}

crashes=0
summary=""
for name in "$@"; do
  bin=$dir/bin/fuzz_$name
  seed "$name"
  mkdir -p "$dir/crashes/$name" "$dir/logs"
  log=$dir/logs/$name.log
  echo "fuzz: $name for ${seconds}s ($(ls "$dir/corpus/$name" | wc -l) inputs in the corpus)"
  start=$(date +%s)
  "$bin" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-60}" -report_slow_units=10 \
    -rss_limit_mb=2048 -max_len=65536 \
    -dict=tools/fuzz/regula.dict -print_final_stats=1 \
    -artifact_prefix="$dir/crashes/$name/" "$dir/corpus/$name" >"$log" 2>&1 </dev/null
  code=$?
  took=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  found=$(find "$dir/crashes/$name" -type f ! -name 'slow-unit-*' | wc -l)
  slow=$(find "$dir/crashes/$name" -type f -name 'slow-unit-*' | wc -l)
  # edges covered once the corpus was loaded, and at the end
  cov0=$(sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' "$log" | head -1)
  cov1=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' "$log" | tail -1)
  line=$(printf '%-8s %10s execs %5ss  cov %s -> %s  %s crash file(s), %s slow unit(s)' \
         "$name" "${execs:-?}" "$took" "${cov0:-?}" "${cov1:-?}" "$found" "$slow")
  if [ "$code" -ne 0 ]; then
    crashes=$((crashes + 1))
    line="$line  FAILED (exit $code; see $log)"
    grep -m3 -E 'ERROR|runtime error|SUMMARY' "$log" | sed 's/^/    /'
  fi
  echo "$line"
  summary="$summary$line
"
done
echo "---- fuzz summary (${seconds}s each)"
printf '%s' "$summary"
[ "$crashes" -eq 0 ]
