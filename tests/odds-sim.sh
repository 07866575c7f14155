#!/bin/sh
# tests/odds-sim.sh BINARY: regula sim against itself and against regula odds.
#
#  - the same seed gives byte-identical tallies with 1, 2 and 4 threads
#    (for a scalar result and for a record result tallied field by field);
#  - every exact probability of 2d6 (k/36, from tests/lang/odds-2d6.rules)
#    lies inside the 95% Wilson interval sim prints for it.  The seed is
#    fixed, so this never flakes: it checks that the runs really are 2d6;
#  - charts (--svg) draw, and their titles name the settings (--set, --inputs).
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
"$bin" odds "$dice" two_d6 > "$tmp/odds2d6.txt"; rc=$?
if [ $rc = 0 ] && grep -q '^7  *1/6 ' "$tmp/odds2d6.txt"; then ok; else bad "odds 2d6 (exit $rc): 7 is not 1/6"; fi

# sim takes the inputs, placeholders and policy of run and odds: LOW set
# to HIGH's faces and the bonus off make each side win 1/2 (see
# tests/lang/odds-set-dice.rules), which must lie in both intervals; the
# header names the file, the call, the policy, every setting (the inputs
# file's lines as written, then --set) and the die set.
set_args="--set LOW=1:1,2:1,3:2 --inputs tests/lang/odds-set-dice.inputs --policy first"
"$bin" sim tests/lang/odds-set-dice.rules roll_off --runs 4000 --seed 9 $set_args > "$tmp/set.txt" || bad "sim --set exit $?"
if head -3 "$tmp/set.txt" | tr '\n' '|' | grep -q '^tests/lang/odds-set-dice.rules: roll_off(): 4000 runs, seed 9, policy first|set: bonus = 0, LOW=1:1,2:1,3:2|placeholders: dice LOW (set)|$'; then ok; else bad "sim --set: header"; head -3 "$tmp/set.txt"; fi
for side in HIGH LOW; do
  inside=$(awk -v s="$side" '$1 == s { lo = $4 + 0; hi = $6 + 0; print (lo <= 50 && hi >= 50) ? "yes" : "no " lo " " hi }' "$tmp/set.txt")
  if [ "$inside" = yes ]; then ok; else bad "sim --set: $side's interval misses 1/2 ($inside)"; fi
done

# Strategies: Maximus's `sensible` calls the strategic intercept whenever
# the roll-off's winner shows a skull.  By the exact roll-off (odds,
# default ratings) that is 5/26 + 5/26 = 10/26 of pre-battles, which must
# lie in sim's interval for `intercept: true`; the header says the policy.
"$bin" sim rules/meg/maximus.rules --runs 8000 --seed 5 --policy sensible > "$tmp/st.txt" || bad "sim --policy sensible exit $?"
"$bin" odds rules/meg/maximus.rules roll_off > "$tmp/rolloff.txt" || bad "odds roll_off exit $?"
skull=$(awk '/face: skull/ { split($(NF-2), f, "/"); n += f[1] / f[2] } END { printf "%.6f", n * 100 }' "$tmp/rolloff.txt")
inside=$(awk -v p="$skull" '/^intercept$/ { on = 1; next } on && $1 == "true" { lo = $4 + 0; hi = $6 + 0; print (lo <= p && p <= hi) ? "yes" : "no " lo " " hi; exit }' "$tmp/st.txt")
if [ "$inside" = yes ] && [ "$skull" = "38.461538" ]; then ok; else bad "sensible: intercept ($skull%) outside sim's interval ($inside)"; fi
if head -1 "$tmp/st.txt" | grep -q '^rules/meg/maximus.rules: main(): 8000 runs, seed 5, policy sensible (the default strategy of the rules; other choices at random)$'; then ok; else bad "sim --policy sensible: header"; fi
# sensible is Maximus's default strategy (`default strategy sensible`):
# without --policy, sim answers as with it, and the header says so; odds
# too; --policy random is every choice at random (the winner invades 1/2).
"$bin" sim rules/meg/maximus.rules --runs 8000 --seed 5 > "$tmp/dflt.txt" || bad "sim (default strategy) exit $?"
if cmp -s "$tmp/st.txt" "$tmp/dflt.txt"; then ok; else bad "sim without --policy differs from --policy sensible"; fi
if head -1 "$tmp/rolloff.txt" | grep -q '^rules/meg/maximus.rules: roll_off(): exact, policy sensible (the default strategy of the rules; other choices at random)$'; then ok; else bad "odds: the default strategy's header"; fi
"$bin" sim rules/meg/maximus.rules --runs 2000 --seed 5 --policy random > "$tmp/random.txt"; rc=$?
if [ $rc = 0 ] && awk '/^invader$/ { on = 1; next } on && $2 == "A" { lo = $5 + 0; hi = $7 + 0; print (lo <= 50 && 50 <= hi) ? "yes" : "no"; exit }' "$tmp/random.txt" | grep -q yes; then ok; else bad "sim --policy random (exit $rc): the invader is not 1/2"; fi

# sim --variants takes a strategy each rule set declares: bold's invader
# share (2/3 by hand, tests/run/strategy.rules) lies in the interval of a
# variant against itself, the same on 1 and 3 threads.
for k in 1 3; do
  "$bin" sim --variants tests/run/strategy.rules,tests/run/strategy.rules game --policy bold --runs 3000 --seed 2 --threads $k > "$tmp/sv.$k" || bad "sim --variants --policy bold exit $?"
done
if cmp -s "$tmp/sv.1" "$tmp/sv.3"; then ok; else bad "sim --variants --policy bold: --threads 3 differs from 1"; fi
if head -1 "$tmp/sv.1" | grep -q 'policy bold (a strategy of the rules' && grep -q '^  invader *6[5-8]\.[0-9]*% *6[5-8]\.[0-9]*% *+0\.00%' "$tmp/sv.1"; then ok; else bad "sim --variants --policy bold: not about 2/3 invader, or a difference"; cat "$tmp/sv.1"; fi

# sim --variants: the same seed gives the same comparison on 1, 2 and 4
# threads; a variant against itself differs by exactly 0 everywhere; and
# crn-extra.rules rolls one more die in step First than crn-base.rules, so
# on common random numbers step Second rolls the same in every run: every
# value of `second` has a paired interval of exactly 0 .. 0.
crn=tests/run/crn-base.rules,tests/run/crn-extra.rules
for k in 1 2 4; do
  "$bin" sim --variants "$crn" --runs 3000 --seed 8 --threads $k > "$tmp/var.$k" || bad "sim --variants --threads $k exit $?"
done
for k in 2 4; do
  if cmp -s "$tmp/var.1" "$tmp/var.$k"; then ok; else bad "sim --variants: --threads $k differs from 1"; fi
done
"$bin" sim --variants tests/lang/odds-2d6.rules,tests/lang/odds-2d6.rules two_d6 --runs 2000 --json > "$tmp/self.json" || bad "sim --variants self exit $?"
"$bin" sim --variants "$crn" --runs 2000 --json > "$tmp/crn.json" || bad "sim --variants crn exit $?"
check=$(python3 - "$tmp/self.json" "$tmp/crn.json" <<'PY'
import json, sys
self = json.load(open(sys.argv[1]))
crn = json.load(open(sys.argv[2]))
bad = []
for f in self["fields"]:
    for v in f["values"]:
        for d in v["differences"]:
            if d["difference"] != 0 or d["low"] != 0 or d["high"] != 0:
                bad.append("self " + f["name"] + " " + v["text"])
second = [f for f in crn["fields"] if f["name"] == "second"][0]
for v in second["values"]:
    d = v["differences"][0]
    if d["low"] != 0 or d["high"] != 0 or not d["unpaired_high"] > 0:
        bad.append("crn second " + v["text"])
print(" ".join(bad) if bad else "ok")
PY
)
if [ "$check" = ok ]; then ok; else bad "sim --variants: $check"; fi

# --svg: sim (one series and variants) and odds draw bar charts; the same
# seed gives the same file, which renders; a file that cannot be written is
# exit 3 and no partial file.
"$bin" sim "$dice" two_d6 --runs 2000 --seed 4 --svg "$tmp/a.svg" > /dev/null || bad "sim --svg exit $?"
"$bin" sim "$dice" two_d6 --runs 2000 --seed 4 --threads 2 --svg "$tmp/b.svg" > /dev/null || bad "sim --svg (2 threads) exit $?"
if cmp -s "$tmp/a.svg" "$tmp/b.svg"; then ok; else bad "sim --svg: not the same file for the same seed"; fi
"$bin" sim --variants "$crn" --runs 500 --svg "$tmp/v.svg" > /dev/null || bad "sim --variants --svg exit $?"
"$bin" odds tests/lang/odds-rolloff.rules roll_off --svg "$tmp/o.svg" > /dev/null || bad "odds --svg exit $?"
for f in a v o; do
  if command -v rsvg-convert >/dev/null 2>&1; then
    if rsvg-convert "$tmp/$f.svg" -o "$tmp/$f.png" 2>/dev/null; then ok; else bad "$f.svg does not render"; fi
  fi
done
if grep -q '>50.0%</text>' "$tmp/o.svg" && [ "$(grep -c '<rect x="270"' "$tmp/v.svg")" -gt 0 ]; then ok; else bad "the charts miss their bars"; fi
"$bin" odds tests/lang/odds-rolloff.rules roll_off --svg "$tmp/no/such/dir/o.svg" > /dev/null 2> "$tmp/err"
rc=$?
if [ $rc -eq 3 ] && grep -q 'regula: error' "$tmp/err" && [ ! -e "$tmp/no" ]; then ok; else bad "odds --svg to a missing folder: exit $rc"; fi

# A chart's title names the settings the numbers rest on, as the header
# does: odds with --set and --inputs; variants with a setting all share
# ("; set bonus=0") or one only one of them has ("; set A: bonus=0").
# title FILE: the chart's title, its wrapped lines joined by spaces.
title() { sed -n 's/.*font-size="16" font-weight="bold">\([^<]*\)<.*/\1/p' "$1" | tr '\n' ' '; }
set_dice=tests/lang/odds-set-dice.rules
"$bin" odds "$set_dice" roll_off --set LOW=1:1,2:1,3:2 --inputs tests/lang/odds-set-dice.inputs \
  --svg "$tmp/os.svg" > /dev/null || bad "odds --set --svg exit $?"
case $(title "$tmp/os.svg") in
  *"policy first; set bonus = 0, LOW=1:1,2:1,3:2 "*) ok ;;
  *) bad "odds --svg: the title does not name the settings: $(title "$tmp/os.svg")" ;;
esac
"$bin" odds --variants "$set_dice,$set_dice" roll_off --set bonus=0 --svg "$tmp/ov.svg" > /dev/null ||
  bad "odds --variants --set --svg exit $?"
case $(title "$tmp/ov.svg") in
  *"exact, policy first; set bonus=0 ") ok ;;
  *) bad "odds --variants --svg: the title does not name the shared setting: $(title "$tmp/ov.svg")" ;;
esac
"$bin" sim --variants "$set_dice,tests/lang/odds-rolloff-custom.rules" roll_off --set bonus=0 --runs 100 \
  --svg "$tmp/sv.svg" > /dev/null || bad "sim --variants --set --svg exit $?"
case $(title "$tmp/sv.svg") in
  *"(95% intervals); set A: bonus=0 ") ok ;;
  *) bad "sim --variants --svg: the title does not name A's setting: $(title "$tmp/sv.svg")" ;;
esac

# Names with XML's special characters are escaped in a chart, and a name
# too long for its label is cut at a character's start with "..."
# (tests/run/chart-escapes.rules: 55 É, two bytes each).
"$bin" odds tests/run/chart-escapes.rules main --svg "$tmp/ce.svg" > /dev/null || bad "odds --svg (escapes) exit $?"
if python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" "$tmp/ce.svg" 2>/dev/null &&
   grep -q '>Rock &amp; &lt;Roll&gt; &quot;x&quot; &apos;y&apos;<' "$tmp/ce.svg" &&
   grep -q '>\(Éé*\)\.\.\.<' "$tmp/ce.svg"; then ok; else bad "a chart's names escaped and cut"; fi

# A heading longer than a line (a strategy's label) wraps onto a second
# line instead of running off the picture; a field with more distinct
# values than are tallied (Maximus's route over 2000 runs) says so where
# its bars would be.
"$bin" sim rules/meg/maximus.rules --runs 2000 --policy sensible --svg "$tmp/m.svg" > /dev/null || bad "sim --svg (strategy) exit $?"
if [ "$(grep -c 'y="44" font-size="16"' "$tmp/m.svg")" -eq 1 ] && grep -q '>.*random) (95% intervals)</text>' "$tmp/m.svg" &&
   grep -q '>more than 1000 distinct values: not tallied</text>' "$tmp/m.svg"; then ok; else bad "a long heading or an untallied field"; fi

echo "odds/sim: $passed passed, $failed failed"
[ $failed -eq 0 ]
