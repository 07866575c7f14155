#!/bin/sh
# tools/bench/run.sh [REGULA]: `make bench`.  Runs each workload (weather,
# buildup, fight; see tools/bench/README.md) in regula (the VM, and the
# native tier: --native, its compile timed apart), in C (-O2), in
# Lua 5.4 and in LuaJIT (ref/*_jit.lua, else ref/*.lua; installed if
# missing, the column skipped if that fails), RUNS times each (default 5), checks that all of
# them print the same tallies, and prints the least wall time of the RUNS
# (on a shared machine the run least disturbed by others) and the ratios.  Then full Maximus pre-battles per second (regula sim, PB runs,
# default 1000000) and the peak memory (max RSS) of `regula sim` for 1 and
# for PB runs of Maximus, 1 and 1,000,000 of buildup.
#   N=iterations or runs of every workload (default: weather 10000000,
#   buildup 1000000, fight 2000000: each long enough that starting a
#   process and compiling the rule file do not count)
#   RUNS=repetitions (default 5)  PB=Maximus pre-battles (default 1000000)
set -u
cd "$(dirname "$0")/../.." || exit 2
regula=${1:-build/regula}
reps=${RUNS:-5}
out=build/bench
mkdir -p "$out"

# apt_install PKG: installs Debian's package PKG (quietly); fails if it cannot.
apt_install() {
  echo "bench: installing $1 from Debian's packages" >&2
  tools/apt.sh "$1"
}
if ! command -v lua5.4 >/dev/null 2>&1; then
  apt_install lua5.4 || { echo "bench: cannot install lua5.4" >&2; exit 1; }
fi
# LuaJIT is best effort: without it the LuaJIT columns show "-".
jit=luajit
if ! command -v luajit >/dev/null 2>&1; then
  apt_install luajit
  if ! command -v luajit >/dev/null 2>&1; then
    echo "bench: cannot install luajit; the LuaJIT column is skipped" >&2
    jit=""
  fi
fi
for w in weather buildup fight; do
  ${CC:-cc} -O2 -Iinterp/vm -o "$out/$w" "tools/bench/ref/$w.c" || exit 1
done

# now_ns: nanoseconds since the epoch.
now_ns() { date +%s%N; }

# best_time CMD...: runs CMD $reps times (stdout to $out/last), prints the
# least wall time in seconds: noise on a shared machine only ever adds time
# (with the median, two runs of the same build differed by 1.5x on workloads
# of 0.1 s).
best_time() {
  i=0
  : > "$out/times"
  while [ $i -lt "$reps" ]; do
    t0=$(now_ns)
    "$@" > "$out/last" || { echo "bench: '$*' failed" >&2; exit 1; }
    t1=$(now_ns)
    echo $(( (t1 - t0) / 1000 )) >> "$out/times"
    i=$((i + 1))
  done
  sort -n "$out/times" | awk 'NR == 1 { printf "%.3f", $1 / 1e6 }'
}

# regula's tallies of a sim run, as "value count" lines.
sim_tallies() { awk '/^  value/ { on = 1; next } on && NF >= 2 { print $1, $2 }'; }

# The native tier (--native) keeps its compiled code in a cache of its own
# here: the first run of a workload compiles (timed apart: "compile"), the
# timed runs load it.
XDG_CACHE_HOME=$(pwd)/$out/cache
export XDG_CACHE_HOME
rm -rf "$out/cache"

printf '%-9s %9s %9s %9s %9s %9s %9s %9s %11s %14s %9s\n' workload regula native C "Lua 5.4" LuaJIT \
  regula/C native/C Lua/regula LuaJIT/regula LuaJIT/nat
status=0
compiles=
for w in weather buildup fight; do
  case $w in weather) n=${N:-10000000} ;; buildup) n=${N:-1000000} ;; *) n=${N:-2000000} ;; esac
  case $w in buildup) args="$n 1" ;; *) args=$n ;; esac
  case $w in
    buildup)
      tr=$(best_time "$regula" sim tools/bench/buildup.rules --runs "$n" --threads 1)
      sim_tallies < "$out/last" > "$out/$w.regula"
      t0=$(now_ns); "$regula" sim --native tools/bench/buildup.rules --runs 1 --threads 1 >/dev/null; t1=$(now_ns)
      tn=$(best_time "$regula" sim --native tools/bench/buildup.rules --runs "$n" --threads 1)
      sim_tallies < "$out/last" > "$out/$w.native" ;;
    *)
      tr=$(best_time "$regula" call tools/bench/$w.rules main "$n"); cp "$out/last" "$out/$w.regula"
      t0=$(now_ns); "$regula" call --native tools/bench/$w.rules main 1 >/dev/null; t1=$(now_ns)
      tn=$(best_time "$regula" call --native tools/bench/$w.rules main "$n"); cp "$out/last" "$out/$w.native" ;;
  esac
  compiles="$compiles $w $(( (t1 - t0) / 1000000 ))"
  [ -n "$(ls "$out/cache/regula/native" 2>/dev/null)" ] || { echo "bench: --native fell back to the VM" >&2; status=1; }
  # shellcheck disable=SC2086 # $args: N, or N and the seed
  tc=$(best_time "$out/$w" $args); cp "$out/last" "$out/$w.c"
  # shellcheck disable=SC2086
  tl=$(best_time lua5.4 tools/bench/ref/$w.lua $args); cp "$out/last" "$out/$w.lua"
  tj=-
  if [ -n "$jit" ]; then
    # shellcheck disable=SC2086
    ref=tools/bench/ref/${w}_jit.lua   # LuaJIT's own version, when the workload has one
    [ -f "$ref" ] || ref=tools/bench/ref/$w.lua
    tj=$(best_time "$jit" "$ref" $args); cp "$out/last" "$out/$w.luajit"
  fi
  same=""
  cmp -s "$out/$w.regula" "$out/$w.c" || same="DIFFERENT(C)"
  cmp -s "$out/$w.regula" "$out/$w.native" || same="$same DIFFERENT(native)"
  cmp -s "$out/$w.regula" "$out/$w.lua" || same="$same DIFFERENT(Lua)"
  [ -z "$jit" ] || cmp -s "$out/$w.c" "$out/$w.luajit" || same="$same DIFFERENT(LuaJIT)"
  if [ -n "$same" ]; then status=1; same=${same# }; else same=ok; fi
  awk -v w=$w -v n="$n" -v r="$tr" -v x="$tn" -v c="$tc" -v l="$tl" -v j="$tj" -v s="$same" 'BEGIN {
    if (j == "-") { js = "-"; jr = "-"; jn = "-" } else { js = sprintf("%.3fs", j); jr = sprintf("%.1fx", j / r); jn = sprintf("%.2fx", j / x) }
    printf "%-9s %8.3fs %8.3fs %8.3fs %8.3fs %9s %8.1fx %8.2fx %10.1fx %14s %9s  tallies %s  (N = %s)\n", w, r, x, c, l, js, r / c, x / c, l / r, jr, jn, s, n }'
done
if [ -n "$jit" ]; then
  echo "LuaJIT: $($jit -v | cut -d' ' -f1-2) (tallies checked against C's)"
else
  echo "LuaJIT: not installed (column skipped)"
fi
echo "(N iterations or runs; least of $reps; 1 thread; times include starting the process and compiling the rule file;"
echo " native: regula --native with its code in the cache, loaded; compiling it apart:)"
# The native tier's compile, apart: the first run of each workload (one
# iteration) with an empty cache entry, in milliseconds; then a short run
# (N = 1000) including that compile, against the VM's short run.
for c in $compiles; do printf '%s ' "$c"; done | awk '{ printf "native compile (first run, ms):"; for (i = 1; i < NF; i += 2) printf " %s %s", $i, $(i + 1); printf "\n" }'
rm -rf "$out/cache"
t0=$(now_ns); "$regula" call --native tools/bench/weather.rules main 1000 >/dev/null; t1=$(now_ns)
"$regula" call tools/bench/weather.rules main 1000 >/dev/null; t2=$(now_ns)
"$regula" call --native tools/bench/weather.rules main 1000 >/dev/null; t3=$(now_ns)
awk -v c=$((t1 - t0)) -v v=$((t2 - t1)) -v h=$((t3 - t2)) 'BEGIN {
  printf "short run (weather, N = 1000): VM %.3fs; native %.3fs compiling, %.3fs from the cache\n", v / 1e9, c / 1e9, h / 1e9 }'

# Full pre-battles per second, and memory flat in the number of runs: one
# Maximus pre-battle, then PB of them (default 1,000,000), and buildup's
# sim for 1 and 1,000,000 runs.
pb=${PB:-1000000}
/usr/bin/time -f %M -o "$out/rss" "$regula" sim rules/meg/maximus.rules --runs 1 --threads 1 > /dev/null || status=1
rss1=$(cat "$out/rss")
t0=$(now_ns)
/usr/bin/time -f %M -o "$out/rss.pb" "$regula" sim rules/meg/maximus.rules --runs "$pb" --threads 1 > /dev/null || status=1
t1=$(now_ns)
awk -v n="$pb" -v ns=$((t1 - t0)) 'BEGIN { printf "maximus pre-battles: %d runs in %.2fs = %.0f per second (1 thread)\n", n, ns / 1e9, n / (ns / 1e9) }'
vmns=$((t1 - t0))
"$regula" sim --native rules/meg/maximus.rules --runs 1 --threads 1 > /dev/null   # compiled here
t0=$(now_ns)
"$regula" sim --native rules/meg/maximus.rules --runs "$pb" --threads 1 > /dev/null || status=1
t1=$(now_ns)
awk -v n="$pb" -v ns=$((t1 - t0)) -v vm=$vmns 'BEGIN { printf "maximus pre-battles, native: %d runs in %.2fs = %.0f per second (1 thread), %.2fx the VM'"'"'s rate\n", n, ns / 1e9, n / (ns / 1e9), vm / ns }'
echo "peak memory, regula sim maximus --runs 1: $rss1 KB; --runs $pb: $(cat "$out/rss.pb") KB"
for runs in 1 1000000; do
  /usr/bin/time -f %M -o "$out/rss" "$regula" sim tools/bench/buildup.rules --runs $runs --threads 1 > /dev/null || status=1
  echo "peak memory, regula sim buildup --runs $runs: $(cat "$out/rss") KB"
done
# Work in proportion to the input: long lines, far columns, cyclic values.
echo
tools/bench/linear.sh "$regula" || status=1
exit $status
