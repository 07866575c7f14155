#!/bin/sh
# tests/variants.sh BINARY: one seeding contract (interp/play/seed.h) for a run
# alone and side by side.  For each seed and each pair of rule sets, the
# result of `regula run A --seed S --json` (and of B) must equal that
# variant's result in `regula run --variants A,B --seed S --json`, with the
# random and the first policy.  Prints one line per failure and ends with
# `variants: N passed, M failed`; exit 1 on any failure.
set -u
bin=$1
cd "$(dirname "$0")/.." || exit 2
passed=0
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-variants.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# check A B SEED POLICY: both variants' results, alone and side by side.
check() {
  "$bin" run --variants "$1,$2" --seed "$3" --policy "$4" --json >"$tmp/side"
  rc_side=$?
  for f in "$1" "$2"; do
    "$bin" run "$f" --seed "$3" --policy "$4" --json >"$tmp/log"
    rc=$?
    tail -n 1 "$tmp/log" >"$tmp/alone"
    alone=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["result"], sort_keys=True))' "$tmp/alone")
    side=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "summary" and e.get("variant") == sys.argv[2]:
        print(json.dumps(e["result"], sort_keys=True))' "$tmp/side" "$f")
    if [ $rc_side != 0 ] || [ $rc != 0 ]; then
      failed=$((failed + 1))
      echo "FAIL variants: $f seed $3 policy $4: exit $rc alone, $rc_side in --variants $1,$2"
    elif [ -n "$alone" ] && [ "$alone" = "$side" ]; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL variants: $f seed $3 policy $4 differs alone and in --variants $1,$2"
    fi
  done
}

for seed in 1 2 3 7 42; do
  check rules/meg/maximus.rules rules/meg/magna.rules "$seed" random
  check rules/meg/pacto.rules rules/meg/revised/maximus.rules "$seed" random
done
check rules/meg/maximus.rules rules/meg/revised/pacto.rules 5 first
check tests/run/crn-base.rules tests/run/crn-extra.rules 2 random

echo "variants: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
