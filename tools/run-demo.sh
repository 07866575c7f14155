#!/bin/sh
# tools/run-demo.sh BINARY: what `make run` shows: a whole MeG Maximus
# pre-battle, `regula run rules/meg/maximus.rules --seed 1` (dice, decks and
# choices from seed 1, choices at random).  When the rule file has no `main`
# procedure yet, runs its tests and looks up a few tables instead.  When the
# rule file is not there, says so and exits 0.  Exits with regula's code.

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: tools/run-demo.sh BINARY" >&2
  exit 2
fi
bin=$1
cd "$(dirname "$0")/.." || exit 2
rules=rules/meg/maximus.rules
status=0

if [ ! -f "$rules" ]; then
  echo "note: $rules is not written yet; nothing to show."
  echo "      Try \`$bin --help\`, or \`make test\` for the test suite."
  exit 0
fi

# show CMD...: prints the command as typed, then runs it.
show() {
  echo "\$ regula $*"
  "$bin" "$@" || status=$?
  echo
}

if grep -q '^procedure main()' "$rules"; then
  show run "$rules" --seed 1
  echo "Try --seed N for another run, --policy ask to answer the choices yourself,"
  echo "--dice ask to roll real dice, --json for JSON lines: see \`$bin run --help\`."
  exit $status
fi

echo "The Maximus rule file has no main procedure yet, so this runs its tests and looks up a few of its tables."
echo
show test "$rules"
show query "$rules" weather 0 Desert
show query "$rules" terrain Woods
show query "$rules" scouting RED
exit $status
