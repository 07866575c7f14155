#!/bin/sh
# tests/valgrind.sh [--quick] BINARY: the golden tests (tests/run.sh) with
# every run of BINARY under valgrind's memcheck (--quick: instead, one run of
# each command on the bundled rules, about half a minute, for `make test`:
# memcheck sees reads of uninitialised memory, which the sanitizers do not):
#   valgrind --error-exitcode=1 --leak-check=full
#            --errors-for-leak-kinds=definite,indirect -q
# Installs valgrind from Debian's packages when missing (sudo when not
# root).  Each run's report goes to a log of its own; a run with any error
# is listed with its command line and report, and fails the whole.

set -u
quick=0
if [ "${1:-}" = "--quick" ]; then
  quick=1
  shift
fi
if [ $# -ne 1 ]; then
  echo "usage: tests/valgrind.sh [--quick] BINARY" >&2
  exit 2
fi
case $1 in
  /*) bin=$1 ;;
  *) bin=$(pwd)/$1 ;;
esac
cd "$(dirname "$0")/.." || exit 2
if ! command -v valgrind >/dev/null 2>&1; then
  echo "regula: installing valgrind from Debian's packages" >&2
  tools/apt.sh valgrind || {
      if [ "$quick" -eq 1 ]; then
        # as the page's tests: `make test` goes on, saying what it skipped
        echo "regula: SKIPPED tests/valgrind.sh --quick: valgrind could not be installed here" >&2
        exit 0
      fi
      echo "regula: could not install valgrind; install it with apt-get and retry" >&2
      exit 1
    }
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-valgrind.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
mkdir "$tmp/logs"
# The wrapper stands for regula: valgrind's report goes to a log per run
# (%p: the process id), next to the command line.
cat >"$tmp/regula" <<WRAP
#!/bin/sh
echo "regula \$*" >"$tmp/logs/cmd.\$\$"
exec valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect -q \\
  --log-file="$tmp/logs/vg.\$\$" "$bin" "\$@"
WRAP
chmod +x "$tmp/regula"

start=$(date +%s)
status=0
# Every command once, on a rule file and on a module (a module keeps no
# sources: its sheet and errors must not read them); outputs are not
# compared (the golden tests do that), only memcheck's reports and crashes.
"$bin" build rules/meg/maximus.rules -o "$tmp/maximus.rbc" >/dev/null || status=1
"$bin" build rules/meg/magna.rules -o "$tmp/magna.rbc" >/dev/null || status=1
mx=rules/meg/maximus.rules
while IFS= read -r line; do
  [ -n "$line" ] || continue
  # shellcheck disable=SC2086
  set -- $line
  "$tmp/regula" "$@" >/dev/null 2>&1 </dev/null
  [ $? -ge 128 ] && { echo "VALGRIND regula $line: killed"; status=1; }
done <<LIST
check --assumptions $mx
test $mx
query $tmp/maximus.rbc terrain Woods
dis $tmp/maximus.rbc
call $mx squares_allowing D
call $tmp/maximus.rbc draw_cards A 3
sheet $tmp/maximus.rbc weather
sheet $mx
run $mx --seed 3 --policy first
run $tmp/maximus.rbc --seed 5 --json --map-svg $tmp/map.svg
run $mx --set RED=skull:6 --set rating[A]=legendary --policy sensible
run $mx --policy ask --dice ask --set pbs_cards=RED:4
run --variants $mx,rules/meg/revised/maximus.rules --seed 2
sim $mx --runs 20 --threads 2
odds tests/run/skirmish.rules main
diff $tmp/maximus.rbc $tmp/magna.rbc
diff rules/meg/maximus.rules rules/meg/revised/maximus.rules
draw rules/ninthage/deployment.rules draw_zones Encircle
fmt --check rules/meg/pacto.rules
LIST
[ "$quick" -eq 1 ] || { tests/run.sh "$tmp/regula" || status=1; }
runs=0
bad=0
for log in "$tmp"/logs/vg.*; do
  [ -f "$log" ] || continue
  runs=$((runs + 1))
  if [ -s "$log" ]; then
    bad=$((bad + 1))
    echo "VALGRIND $(cat "$tmp/logs/cmd.${log##*.}" 2>/dev/null)"
    sed 's/^/    /' "$log" | head -40
  fi
done
echo "valgrind: $runs runs, $bad with errors, $(( $(date +%s) - start ))s"
[ "$status" -eq 0 ] && [ "$bad" -eq 0 ]
