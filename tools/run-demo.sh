#!/bin/sh
# tools/run-demo.sh BINARY: what `make run` shows until a whole pre-battle can
# run: the tests of the Maximus rule file, then a few table look-ups on it.
# When the rule file is not there yet, says so and exits 0.  Exits 1 when a
# test or a look-up fails.

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: tools/run-demo.sh BINARY" >&2
  exit 2
fi
bin=$1
cd "$(dirname "$0")/.." || exit 2
rules=rules/meg/maximus.rules
status=0

echo "regula cannot run a whole pre-battle yet, so this runs the Maximus sheet's tests and looks up a few of its tables."
echo

if [ ! -f "$rules" ]; then
  echo "note: $rules is not written yet; nothing to show."
  echo "      Try \`$bin --help\`, or \`make test\` for the test suite."
  exit 0
fi

# show CMD...: prints the command as typed, then runs it.
show() {
  echo "\$ regula $*"
  "$bin" "$@" || status=1
  echo
}

show test "$rules"
show query "$rules" weather 0 Desert
show query "$rules" terrain Woods
show query "$rules" scouting RED
exit $status
