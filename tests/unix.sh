#!/bin/sh
# tests/unix.sh BINARY: the habits of a Unix tool: -V, `-` for standard
# input where a file is read (a rule file, --inputs, --policy answers:),
# --seed random (said on stderr; the said seed repeats the run), modules
# written with mode 0666 less the umask.
bin=$1
cd "$(dirname "$0")/.." || exit 2
test_name=unix
. "$(dirname "$0")/counts.sh"
r=tests/run/skirmish.rules

# Every run of regula below has its exit code checked: its output goes to a
# file first, and only then through sed or grep.
short=$("$bin" -V); rc1=$?
long=$("$bin" --version); rc2=$?
[ $rc1 = 0 ] && [ $rc2 = 0 ] && [ -n "$short" ] && [ "$short" = "$long" ] && ok ||
  bad "-V (exit $rc1) differs from --version (exit $rc2)"

"$bin" run "$r" --seed 5 > "$tmp/file.out"; rc1=$?
"$bin" run - --seed 5 < "$r" > "$tmp/stdin.raw"; rc2=$?
sed 's/\[-:/[skirmish.rules:/' "$tmp/stdin.raw" > "$tmp/stdin.out"
[ $rc1 = 0 ] && [ $rc2 = 0 ] && cmp -s "$tmp/file.out" "$tmp/stdin.out" && ok ||
  bad "run - (exit $rc2) differs from run FILE (exit $rc1, but for its name)"
printf 'const = 1\n' | "$bin" check - 2> "$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q '^-:1:7: error: ' "$tmp/err" && ok || bad "check -: exit $rc, $(cat "$tmp/err")"

# A folder given for a rule file: refused, saying why (it said only
# "cannot read DIR").
mkdir -p "$tmp/folder.rules"
LC_ALL=C "$bin" check "$tmp/folder.rules" 2> "$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q 'cannot read .*folder.rules: Is a directory$' "$tmp/err" && ok ||
  bad "check DIR: exit $rc, $(cat "$tmp/err")"

# A rule file whose name (or folder) holds ESC or U+202E is used like any
# other, its name shown escaped in messages (it was refused as "internal
# error: the compiled module fails verification": the module keeps names).
for f in "$(printf 'esc\033[31m.rules')" "$(printf 'bidi\342\200\256.rules')" "$(printf 'dir\033x')/s.rules"; do
  mkdir -p "$tmp/$(dirname "$f")"
  printf 'procedure main() -> int {\n  return 6 / 2\n}\nprocedure bad() -> int { return 1 / 0 }\n' > "$tmp/$f"
  "$bin" call "$tmp/$f" main > "$tmp/out" 2> "$tmp/err"; rc1=$?
  "$bin" build "$tmp/$f" -o "$tmp/esc.rbc" 2>> "$tmp/err"; rc2=$?
  "$bin" call "$tmp/$f" bad > /dev/null 2> "$tmp/err2"; rc3=$?
  [ $rc1 = 0 ] && [ $rc2 = 0 ] && [ "$(cat "$tmp/out")" = 3 ] && [ ! -s "$tmp/err" ] && [ $rc3 = 3 ] &&
    grep -q 'x1b\|u202e\|u202E' "$tmp/err2" && ! grep -q "$(printf '\033')" "$tmp/err2" && ok ||
    bad "a file name with a control character: exit $rc1, $rc2, $rc3: $(cat "$tmp/err" "$tmp/err2")"
done

"$bin" run "$r" --seed random > "$tmp/random.out" 2> "$tmp/random.err"; rc=$?
seed=$(sed -n 's/^regula: seed \([0-9][0-9]*\)$/\1/p' "$tmp/random.err")
[ $rc = 0 ] && [ -n "$seed" ] && ok || bad "--seed random: exit $rc, stderr $(cat "$tmp/random.err")"
"$bin" run "$r" --seed "$seed" > "$tmp/again.out" && cmp -s "$tmp/random.out" "$tmp/again.out" && ok ||
  bad "--seed $seed does not repeat the random run"
head -1 "$tmp/random.out" | grep -q "seed $seed," && ok || bad "the log does not name seed $seed"

printf 'retreat\n' > "$tmp/answers"
"$bin" run "$r" --policy answers:"$tmp/answers" > "$tmp/a1" 2> "$tmp/e1"; rc1=$?
"$bin" run "$r" --policy answers:- < "$tmp/answers" > "$tmp/a2" 2> "$tmp/e2"; rc2=$?
[ $rc1 = 2 ] && [ $rc2 = 2 ] && ok || bad "an answer that is no option: exit $rc1 and $rc2, not 2"
sed "s|$tmp/answers|-|" "$tmp/e1" > "$tmp/e1s"
sed "s|$tmp/answers|-|" "$tmp/a1" > "$tmp/a1s"
cmp -s "$tmp/a1s" "$tmp/a2" && cmp -s "$tmp/e1s" "$tmp/e2" && grep -q "^regula: error: -:1: 'retreat'" "$tmp/e2" &&
  ok || bad "answers:- differs from answers:FILE"

for u in 022 077; do
  rm -f "$tmp/m.rbc"
  (umask $u && "$bin" build "$r" -o "$tmp/m.rbc") || bad "build under umask $u"
  want=$([ $u = 022 ] && echo 644 || echo 600)
  [ "$(stat -c %a "$tmp/m.rbc")" = $want ] && ok || bad "umask $u: mode $(stat -c %a "$tmp/m.rbc"), not $want"
done

# An input per player (`rating[A]`) set on the command line is kept in a
# transcript as it was written, and --resume plays the same game with it
# (a differing --set is refused).
m=rules/meg/maximus.rules
yes "$(printf '1\ny')" | head -600 > "$tmp/typed"
"$bin" run $m --seed 4 --set 'rating[A]=legendary' --set 'ugs[B]=14' \
  --policy ask --transcript "$tmp/t.txt" < "$tmp/typed" > "$tmp/played" 2>/dev/null; rc=$?
[ $rc = 0 ] && ok || bad "a game played at the terminal with per-player --set: exit $rc"
grep -qx '# set rating\[A\]=legendary' "$tmp/t.txt" && grep -qx '# set ugs\[B\]=14' "$tmp/t.txt" && ok ||
  bad "the transcript does not keep the per-player --set lines"
grep -q 'note UGs of each army (A, B): 12, 14' "$tmp/played" && ok || bad "ugs[B]=14 not used"
"$bin" run $m --resume "$tmp/t.txt" --policy ask < /dev/null > "$tmp/resumed" 2>/dev/null; rc=$?
[ $rc = 0 ] && cmp -s "$tmp/played" "$tmp/resumed" && ok ||
  bad "--resume with per-player inputs (exit $rc) plays another game"
"$bin" run $m --resume "$tmp/t.txt" --policy ask --set 'rating[A]=poor' < /dev/null > /dev/null 2> "$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "other --set values" "$tmp/err" && ok || bad "a differing --set: exit $rc"

# A game whose prompt holds a newline, and one of a rule file whose path
# holds a newline and a backslash, resume from their transcripts to the same
# game (the prompt's second line was read as an answer: 31 for 12; the
# header's path was cut: "has no transcript header").
printf 'procedure main() -> int {\n  let a = choose(1, "first\\n3", 1, 3)\n  let b = choose(2, "second", 1, 3)\n  return a * 10 + b\n}\n' > "$tmp/nl.rules"
odd=$(printf '%s/n\nl\\x41.rules' "$tmp")
cp "$tmp/nl.rules" "$odd"
for f in "$tmp/nl.rules" "$odd"; do
  printf '1\n2\n' | "$bin" run "$f" --policy ask --transcript "$tmp/nl.txt" > "$tmp/nl.played" 2>/dev/null; rc1=$?
  "$bin" run --resume "$tmp/nl.txt" < /dev/null > "$tmp/nl.resumed" 2>"$tmp/err"; rc2=$?
  [ $rc1 = 0 ] && [ $rc2 = 0 ] && [ "$(tail -1 "$tmp/nl.played")" = 12 ] &&
    cmp -s "$tmp/nl.played" "$tmp/nl.resumed" && ok ||
    bad "--resume of a game with a newline in its prompt or path: exit $rc1, $rc2, $(tail -1 "$tmp/nl.resumed") $(cat "$tmp/err")"
done

# One input set twice on the command line: refused for every command that
# takes --set (the last one won without a word).
# Spaces and tabs around or inside the name do not make it another, and
# --variants is no way around (both let the last one win).
for cmd in "run $m --seed 1" "sim $m --runs 2" "odds $m weather" \
           "run --variants $m,rules/meg/magna.rules" "sim --variants $m,rules/meg/magna.rules --runs 2" \
           "odds --variants $m,rules/meg/magna.rules weather"; do
  for second in 'ugs[B] =12' ' ugs[B]=12' "$(printf 'ugs[ B ]\t=12')"; do
    # shellcheck disable=SC2086
    "$bin" $cmd --set 'ugs[B]=14' --set "$second" > /dev/null 2> "$tmp/err"; rc=$?
    [ $rc = 2 ] && grep -q "that input is set twice (--set ugs\[B\]=14 before it)" "$tmp/err" && ok ||
      bad "$cmd with --set ugs[B]=14 and --set '$second': exit $rc, $(cat "$tmp/err")"
  done
done

# A game recorded at a project's top, its transcript saved in a sub-folder,
# resumes from that folder and from anywhere else: the header's relative
# rule path is found from the transcript's folder or a folder above it
# (it was read from the current folder only).  Nowhere: refused, naming it.
case $bin in /*) abs=$bin ;; *) abs=$(pwd)/$bin ;; esac
mkdir -p "$tmp/proj/rules/x" "$tmp/proj/saves"
cp "$r" "$tmp/proj/rules/x/s.rules"
yes 1 | head -50 > "$tmp/typed1"
(cd "$tmp/proj" && "$abs" run rules/x/s.rules --seed 3 --policy ask --transcript saves/t.txt \
  < "$tmp/typed1" > "$tmp/proj.played" 2>/dev/null); rc=$?
[ $rc = 0 ] && grep -q 'rules/x/s.rules' "$tmp/proj/saves/t.txt" && ok || bad "recording in a project: exit $rc"
(cd "$tmp/proj/saves" && "$abs" run --resume t.txt < /dev/null > "$tmp/proj.r1" 2>"$tmp/err"); rc1=$?
(cd / && "$abs" run --resume "$tmp/proj/saves/t.txt" < /dev/null > "$tmp/proj.r2" 2>>"$tmp/err"); rc2=$?
[ $rc1 = 0 ] && [ $rc2 = 0 ] && cmp -s "$tmp/proj.played" "$tmp/proj.r1" && cmp -s "$tmp/proj.played" "$tmp/proj.r2" &&
  ok || bad "--resume from the transcript's folder (exit $rc1) or from / (exit $rc2): $(cat "$tmp/err")"
# Going on from elsewhere keeps the header's name as it was typed (it
# became the path found from there: /x/saves/../rules/..., then drifted).
(cd "$tmp/proj" && head -1 "$tmp/typed1" | "$abs" run rules/x/s.rules --seed 3 --policy ask \
  --transcript saves/half.txt > /dev/null 2>&1)
(cd / && "$abs" run --resume "$tmp/proj/saves/half.txt" < "$tmp/typed1" > /dev/null 2>"$tmp/err"); rc=$?
[ $rc = 0 ] && [ "$(grep -c . "$tmp/proj/saves/half.txt")" -gt 4 ] &&
  head -1 "$tmp/proj/saves/half.txt" | grep -q '^# regula transcript: rules/x/s.rules, main, seed 3,' && ok ||
  bad "a game gone on from / renames its rule file: exit $rc, $(head -1 "$tmp/proj/saves/half.txt")"
# Through a link to the transcript: found from the target's folder.
ln -s "$tmp/proj/saves/t.txt" "$tmp/link.txt"
(cd "$tmp" && "$abs" run --resume link.txt < /dev/null > "$tmp/proj.r3" 2>"$tmp/err"); rc=$?
[ $rc = 0 ] && cmp -s "$tmp/proj.played" "$tmp/proj.r3" && ok || bad "--resume through a link: exit $rc, $(cat "$tmp/err")"
# A file of the same name with other rules where it is resumed from: not
# refused, the next place (beside the transcript, or above) has the rules
# the game was played with (its module's hash says which).  Only when no
# place has them is the first one found refused, saying what differs.
mkdir -p "$tmp/elsewhere/rules/x"
cp tests/run/cyclic.rules "$tmp/elsewhere/rules/x/s.rules"
(cd "$tmp/elsewhere" && "$abs" run --resume "$tmp/proj/saves/t.txt" < /dev/null > "$tmp/proj.r4" 2>"$tmp/err"); rc=$?
[ $rc = 0 ] && cmp -s "$tmp/proj.played" "$tmp/proj.r4" && ok ||
  bad "--resume beside a same-named file of other rules: exit $rc, $(cat "$tmp/err")"
cp "$tmp/proj/saves/t.txt" "$tmp/elsewhere/t.txt"
(cd "$tmp/elsewhere" && "$abs" run --resume t.txt < /dev/null > /dev/null 2>"$tmp/err"); rc=$?
[ $rc = 2 ] && grep -q "t.txt was played with rules/x/s.rules (module .*), not with\|has changed since" "$tmp/err" && ok ||
  bad "--resume with only a same-named file of other rules: exit $rc, $(cat "$tmp/err")"
"$abs" run --resume - < "$tmp/proj/saves/t.txt" > /dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q 'takes a transcript file' "$tmp/err" && ok || bad "--resume -: exit $rc, $(cat "$tmp/err")"
cp "$tmp/proj/saves/t.txt" "$tmp/lone.txt"
(cd / && "$abs" run --resume "$tmp/lone.txt" < /dev/null > /dev/null 2>"$tmp/err"); rc=$?
[ $rc = 2 ] && grep -q "lone.txt names the rule file rules/x/s.rules, found neither" "$tmp/err" && ok ||
  bad "a transcript whose rule file is nowhere: exit $rc, $(cat "$tmp/err")"

finish
