#!/bin/sh
# tests/odds-sim.sh BINARY: regula sim against itself and against regula odds.
#
#  - the same seed gives byte-identical tallies with 1, 2 and 4 threads
#    (for a scalar result and for a record result tallied field by field);
#  - every exact probability of 2d6 (k/36, from tests/lang/odds-2d6.rules)
#    lies inside the 95% Wilson interval sim prints for it.  The seed is
#    fixed, so this never flakes: it checks that the runs really are 2d6.
set -u
bin=$1
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-sim.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0
passed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

dice=tests/lang/odds-2d6.rules
for k in 1 2 4; do
  "$bin" sim "$dice" two_d6 --runs 30000 --seed 11 --threads $k > "$tmp/dice.$k" || bad "sim --threads $k exit $?"
  "$bin" sim tests/sim/record.rules fight --runs 3000 --seed 4 --threads $k > "$tmp/rec.$k" || bad "sim record --threads $k exit $?"
done
for k in 2 4; do
  if cmp -s "$tmp/dice.1" "$tmp/dice.$k"; then ok; else bad "sim: --threads $k differs from --threads 1"; diff "$tmp/dice.1" "$tmp/dice.$k" | head; fi
  if cmp -s "$tmp/rec.1" "$tmp/rec.$k"; then ok; else bad "sim record: --threads $k differs from --threads 1"; diff "$tmp/rec.1" "$tmp/rec.$k" | head; fi
done

# Exact odds of each sum, as 36ths; then each must lie in sim's interval.
"$bin" sim "$dice" two_d6 --runs 30000 --seed 11 --json > "$tmp/dice.json" || bad "sim --json"
for s in 2 3 4 5 6 7 8 9 10 11 12; do
  d=$((s - 7)); [ $d -lt 0 ] && d=$((-d))
  exact=$(awk -v n=$((6 - d)) 'BEGIN { printf "%.9f", n / 36 }')
  inside=$(python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
s, p = int(sys.argv[2]), float(sys.argv[3])
for v in doc["tallies"][0]["values"]:
    if v["value"] == s:
        print("yes" if v["low"] <= p <= v["high"] else "no %s %s" % (v["low"], v["high"]))
' "$tmp/dice.json" "$s" "$exact")
  if [ "$inside" = yes ]; then ok; else bad "2d6 = $s: exact $exact outside sim's interval ($inside)"; fi
done
# and odds agrees with the same fractions
if "$bin" odds "$dice" two_d6 | grep -q '^7  *1/6 '; then ok; else bad "odds 2d6: 7 is not 1/6"; fi

echo "odds/sim: $passed passed, $failed failed"
[ $failed -eq 0 ]
