#!/bin/sh
# tools/pictures.sh BINARY [--check]: renders the pictures shown in README.md
# and docs/manual.md into docs/pictures/ (`make pictures`): the Maximus table
# and PBS Map of seed 1, the chart of `regula sim --variants` comparing the
# Maximus sheet with its revision, and the board of each Ninth Age
# Deployment Type.  The SVGs come from regula, from the rule files;
# rsvg-convert (librsvg2-bin, installed by tools/deps.sh) makes the PNGs.
# Each PNG is written through a temporary file and renamed.
#
# With --check, writes nothing: exits 1 when a PNG of docs/pictures/ differs
# from what the rule files draw now (run `make pictures`), 0 when all agree.
set -eu
bin=$1
check=${2:-}
cd "$(dirname "$0")/.."
command -v rsvg-convert >/dev/null 2>&1 || {
  echo "tools/pictures.sh: rsvg-convert not found; run tools/deps.sh (librsvg2-bin)" >&2
  exit 1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-pictures.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$bin" run rules/meg/maximus.rules --seed 1 --svg "$tmp/maximus-table.svg" \
  --map-svg "$tmp/maximus-map.svg" >/dev/null
"$bin" sim --variants rules/meg/maximus.rules,rules/meg/revised/maximus.rules \
  first_deployment --runs 20000 --seed 1 --svg "$tmp/maximus-revised-sim.svg" >/dev/null
for t in FrontlineClash DawnAssault Counterthrust Encircle RefusedFlank MarchingColumns; do
  "$bin" draw rules/ninthage/deployment.rules draw_zones "$t" --svg "$tmp/ninthage-$t.svg"
done
stale=0
for svg in "$tmp"/*.svg; do
  name=$(basename "$svg" .svg)
  rsvg-convert "$svg" -o "$tmp/$name.png"
  if [ "$check" = --check ]; then
    cmp -s "$tmp/$name.png" "docs/pictures/$name.png" || {
      echo "pictures: docs/pictures/$name.png is not what the rule files draw now; run make pictures"
      stale=$((stale + 1))
    }
  else
    mkdir -p docs/pictures
    mv "$tmp/$name.png" "docs/pictures/$name.png"
    echo "docs/pictures/$name.png"
  fi
done
if [ "$check" = --check ]; then
  n=$(ls "$tmp"/*.svg | wc -l)
  echo "pictures: $((n - stale)) of $n up to date"
  [ "$stale" -eq 0 ]
fi
