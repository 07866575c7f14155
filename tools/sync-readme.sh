#!/bin/sh
# tools/sync-readme.sh [--check]: copies docs/language.md into README.md as
# its last section, "## Language reference" (every heading one level down).
# With --check, changes nothing and exits 1 when the copy is out of date.
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp "${TMPDIR:-/tmp}/regula-readme.XXXXXX") || exit 2
trap 'rm -f "$tmp" "$tmp.new"' EXIT

# The README up to its language reference, then the reference.
awk '/^## Language reference$/ { exit } { print }' README.md >"$tmp.new"
awk '
  /^```/ { fence = !fence }
  !fence && NR == 1 && /^# / {
    print "## Language reference"
    print ""
    print "This section is a copy of `docs/language.md`, made by"
    print "`tools/sync-readme.sh`; edit that file and run the script."
    next
  }
  !fence && /^#/ { print "#" $0; next }
  { print }
' docs/language.md >>"$tmp.new"

if [ "${1:-}" = "--check" ]; then
  if cmp -s README.md "$tmp.new"; then exit 0; fi
  echo "README.md: the language reference differs from docs/language.md; run tools/sync-readme.sh" >&2
  exit 1
fi
cp "$tmp.new" README.md
