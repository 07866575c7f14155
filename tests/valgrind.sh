#!/bin/sh
# tests/valgrind.sh BINARY: the golden tests (tests/run.sh) with every run of
# BINARY under valgrind's memcheck:
#   valgrind --error-exitcode=1 --leak-check=full
#            --errors-for-leak-kinds=definite,indirect -q
# Installs valgrind from Debian's packages when missing (sudo when not
# root).  Each run's report goes to a log of its own; a run with any error
# is listed with its command line and report, and fails the whole.

set -u
if [ $# -ne 1 ]; then
  echo "usage: tests/valgrind.sh BINARY" >&2
  exit 2
fi
case $1 in
  /*) bin=$1 ;;
  *) bin=$(pwd)/$1 ;;
esac
cd "$(dirname "$0")/.." || exit 2
if ! command -v valgrind >/dev/null 2>&1; then
  echo "regula: installing valgrind from Debian's packages" >&2
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq >/dev/null &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq valgrind >/dev/null || {
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
tests/run.sh "$tmp/regula"
status=$?
# A module loaded from a .rbc keeps no sources: its sheet must not read them.
"$bin" build rules/meg/maximus.rules -o "$tmp/maximus.rbc" >/dev/null &&
  "$tmp/regula" sheet "$tmp/maximus.rbc" weather >/dev/null || status=1
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
