#!/bin/sh
# tools/pictures.sh BINARY: renders the pictures shown in the README into
# docs/pictures/ (`make pictures`): the Maximus table and PBS Map of seed 1,
# and the board of each Ninth Age Deployment Type.  The SVGs come from
# regula; rsvg-convert (librsvg2-bin, installed by tools/deps.sh) makes the
# PNGs.  Each PNG is written through a temporary file and renamed.
set -eu
bin=$1
cd "$(dirname "$0")/.."
command -v rsvg-convert >/dev/null 2>&1 || {
  echo "tools/pictures.sh: rsvg-convert not found; run tools/deps.sh (librsvg2-bin)" >&2
  exit 1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-pictures.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p docs/pictures
"$bin" run rules/meg/maximus.rules --seed 1 --svg "$tmp/maximus-table.svg" \
  --map-svg "$tmp/maximus-map.svg" >/dev/null
for t in FrontlineClash DawnAssault Counterthrust Encircle RefusedFlank MarchingColumns; do
  "$bin" draw rules/ninthage/deployment.rules draw_zones "$t" --svg "$tmp/ninthage-$t.svg"
done
for svg in "$tmp"/*.svg; do
  name=$(basename "$svg" .svg)
  rsvg-convert "$svg" -o "$tmp/$name.png"
  mv "$tmp/$name.png" "docs/pictures/$name.png"
  echo "docs/pictures/$name.png"
done
