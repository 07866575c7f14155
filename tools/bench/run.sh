#!/bin/sh
# tools/bench/run.sh [REGULA]: `make bench`.  Runs each workload (weather,
# buildup, fight; see tools/bench/README.md) in regula, in C (-O2) and in
# Lua 5.4 (LuaJIT too when installed: the references need 64-bit integers,
# so LuaJIT is reported as skipped), RUNS times each (default 5), checks
# that all of them print the same tallies, and prints the median wall times
# and the ratios.  Then full Maximus pre-battles per second (regula sim) and
# the peak memory (max RSS) of `regula sim` for 1 and 1,000,000 runs.
#   N=iterations (default 1000000)  RUNS=repetitions (default 5)
set -u
cd "$(dirname "$0")/../.." || exit 2
regula=${1:-build/regula}
n=${N:-1000000}
reps=${RUNS:-5}
out=build/bench
mkdir -p "$out"

if ! command -v lua5.4 >/dev/null 2>&1; then
  echo "bench: installing lua5.4 from Debian's packages" >&2
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq lua5.4 >/dev/null ||
    { echo "bench: cannot install lua5.4" >&2; exit 1; }
fi
for w in weather buildup fight; do
  ${CC:-cc} -O2 -Iinterp -o "$out/$w" "tools/bench/ref/$w.c" || exit 1
done

# now_ns: nanoseconds since the epoch.
now_ns() { date +%s%N; }

# median_time CMD...: runs CMD $reps times (stdout to $out/last), prints
# the median wall time in seconds.
median_time() {
  i=0
  : > "$out/times"
  while [ $i -lt "$reps" ]; do
    t0=$(now_ns)
    "$@" > "$out/last" || { echo "bench: '$*' failed" >&2; exit 1; }
    t1=$(now_ns)
    echo $(( (t1 - t0) / 1000 )) >> "$out/times"
    i=$((i + 1))
  done
  sort -n "$out/times" | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] / 1e6 }'
}

# regula's tallies of a sim run, as "value count" lines.
sim_tallies() { awk '/^  value/ { on = 1; next } on && NF >= 2 { print $1, $2 }'; }

printf '%-9s %10s %10s %10s %10s %10s\n' workload regula C "Lua 5.4" regula/C Lua/regula
status=0
for w in weather buildup fight; do
  case $w in
    buildup)
      tr=$(median_time "$regula" sim tools/bench/buildup.rules --runs "$n" --threads 1)
      sim_tallies < "$out/last" > "$out/$w.regula"
      tc=$(median_time "$out/$w" "$n" 1); cp "$out/last" "$out/$w.c"
      tl=$(median_time lua5.4 tools/bench/ref/$w.lua "$n" 1); cp "$out/last" "$out/$w.lua" ;;
    *)
      tr=$(median_time "$regula" call tools/bench/$w.rules main "$n"); cp "$out/last" "$out/$w.regula"
      tc=$(median_time "$out/$w" "$n"); cp "$out/last" "$out/$w.c"
      tl=$(median_time lua5.4 tools/bench/ref/$w.lua "$n"); cp "$out/last" "$out/$w.lua" ;;
  esac
  same=ok
  cmp -s "$out/$w.regula" "$out/$w.c" || same="DIFFERENT(C)"
  cmp -s "$out/$w.regula" "$out/$w.lua" || same="$same DIFFERENT(Lua)"
  [ "$same" = ok ] || status=1
  awk -v w=$w -v r="$tr" -v c="$tc" -v l="$tl" -v s="$same" 'BEGIN {
    printf "%-9s %9.3fs %9.3fs %9.3fs %9.1fx %9.1fx  tallies %s\n", w, r, c, l, r / c, l / r, s }'
done
if command -v luajit >/dev/null 2>&1; then
  echo "LuaJIT: present but skipped (the references use Lua 5.3+ 64-bit integers)"
else
  echo "LuaJIT: not installed"
fi
echo "(N = $n iterations or runs; median of $reps; 1 thread; times include compiling the rule file)"

# Full pre-battles per second, and memory flat in the number of runs.
pb=100000
t0=$(now_ns)
/usr/bin/time -f %M -o "$out/rss.pb" "$regula" sim rules/meg/maximus.rules --runs $pb --threads 1 > /dev/null || status=1
t1=$(now_ns)
awk -v n=$pb -v ns=$((t1 - t0)) 'BEGIN { printf "maximus pre-battles: %d runs in %.2fs = %.0f per second (1 thread)\n", n, ns / 1e9, n / (ns / 1e9) }'
for runs in 1 1000000; do
  /usr/bin/time -f %M -o "$out/rss" "$regula" sim tools/bench/buildup.rules --runs $runs --threads 1 > /dev/null || status=1
  echo "peak memory, regula sim buildup --runs $runs: $(cat "$out/rss") KB"
done
/usr/bin/time -f %M -o "$out/rss" "$regula" sim rules/meg/maximus.rules --runs 1 --threads 1 > /dev/null || status=1
echo "peak memory, regula sim maximus --runs 1: $(cat "$out/rss") KB; --runs $pb: $(cat "$out/rss.pb") KB"
exit $status
