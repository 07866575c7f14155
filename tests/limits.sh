#!/bin/sh
# tests/limits.sh BINARY: inputs too big to keep as files, generated here.
#
# Each check builds an input in a temporary folder, runs regula on it and
# looks at the exit code and the first line of stderr: a limit of the
# language must be a located error (exit 2), never a crash (exit >= 128) or a
# wrong answer.  Timings are not checked here (tools/bench/linear.sh does).
set -u
bin=$1
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-limits.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0
passed=0

# expect NAME CODE PATTERN CMD...: runs CMD (stdout and stderr kept in
# $tmp/out and $tmp/err); it must exit CODE and, when PATTERN is not empty,
# its stderr must hold PATTERN (a grep -E pattern).
expect() {
  name=$1 want=$2 pat=$3
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
  if [ "$code" -ne "$want" ]; then
    failed=$((failed + 1))
    echo "FAIL limits $name: exit $code, expected $want"
    head -c 600 "$tmp/err" | sed 's/^/    /'; echo
  elif [ -n "$pat" ] && ! grep -Eq -- "$pat" "$tmp/err"; then
    failed=$((failed + 1))
    echo "FAIL limits $name: stderr does not match '$pat'"
    head -c 600 "$tmp/err" | sed 's/^/    /'; echo
  else
    passed=$((passed + 1))
  fi
}

# repeat N TEXT: TEXT N times, no separator.
repeat() {
  awk -v n="$1" -v t="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", t }'
}

# ---- 1. long operator chains: a located error, not a stack overflow ------
{ printf 'const a = 1'; repeat 12500 '+1'; echo; } >"$tmp/plus.rules"
expect chain-plus 2 '^[^ ]*plus.rules:1:[0-9]+: error: expression too deep' \
  "$bin" check "$tmp/plus.rules"
{ printf 'procedure p(x: bool) -> bool {\n  return x'; repeat 12500 ' and x'; printf '\n}\n'; } >"$tmp/and.rules"
expect chain-and 2 'error: expression too deep' "$bin" check "$tmp/and.rules"
{ printf 'record r { a: int }\nprocedure p(x: r) -> int { return x'; repeat 12500 '.a'; printf ' }\n'; } >"$tmp/field.rules"
expect chain-field 2 'error: expression too deep' "$bin" check "$tmp/field.rules"
{ printf 'enum e { A, B }\ntable t(e) -> set e { A: {A}'; repeat 12500 ' + {B}'; printf ', B: {} }\n'; } >"$tmp/cell.rules"
expect chain-cell 2 'error: expression too deep' "$bin" check "$tmp/cell.rules"
expect chain-diff 2 'error: expression too deep' "$bin" diff "$tmp/plus.rules" "$tmp/plus.rules"
expect chain-sheet 2 'error: expression too deep' "$bin" sheet "$tmp/cell.rules"

# ---- 5. compiler limits that tell the truth -------------------------------
{ printf 'procedure p(x: int) -> int {\n  if x == 0 { return 0 }\n'
  awk 'BEGIN { for (i = 1; i <= 10001; i++) printf "  else if x == %d { return %d }\n", i, i }'
  printf '  return -1\n}\n'; } >"$tmp/elif.rules"
expect else-if-limit 2 'elif.rules:10002:8: error: too many branches in an else-if chain \(limit 10000\)' \
  "$bin" check "$tmp/elif.rules"

mkdir -p "$tmp/tsv"
printf 'n\tv\n1\t2\n' >"$tmp/tsv/t.tsv"
awk 'BEGIN { for (i = 0; i < 300; i++) printf "table t%d(n: 1..1) -> int from \"tsv/t.tsv\"\n", i }' >"$tmp/same.rules"
expect from-same-file 0 '' "$bin" check "$tmp/same.rules"
for i in $(seq 0 299); do cp "$tmp/tsv/t.tsv" "$tmp/tsv/u$i.tsv"; done
awk 'BEGIN { for (i = 0; i < 300; i++) printf "table u%d(n: 1..1) -> int from \"tsv/u%d.tsv\"\n", i, i }' >"$tmp/many.rules"
expect from-many-files 2 '^[^ ]*many.rules:256:33: error: too many source files \(limit 256\)' \
  "$bin" check "$tmp/many.rules"
n=$(grep -c 'too many source files' "$tmp/err")
if [ "$n" -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL limits from-many-files: said $n times"; fi
# 16 rule sets may extend each other (e0 extends e1 ... e15 extends e16, the
# base); the 17th is refused at the extends of the 16th in the chain.
mkdir -p "$tmp/ext"
printf 'ruleset "e16"\nconst x = 1\n' >"$tmp/ext/e16.rules"
for i in $(seq 15 -1 0); do
  printf 'ruleset "e%d" extends "e%d.rules"\n' "$i" $((i + 1)) >"$tmp/ext/e$i.rules"
done
expect extends-16 0 '' "$bin" check "$tmp/ext/e1.rules"
expect extends-17 2 'e15.rules:1:23: error: too many rule sets extend each other \(limit 16\)' \
  "$bin" check "$tmp/ext/e0.rules"
{ printf 'procedure p('; awk 'BEGIN { for (i = 0; i < 70000; i++) printf "a%d: int, ", i }'; printf 'z: int) -> int { return z }\n'; } >"$tmp/params.rules"
expect params 2 'params.rules:1:[0-9]+: error: too many parameters \(limit 255\)' "$bin" check "$tmp/params.rules"


# ---- 2. work bounded by the input -----------------------------------------
# NFC of a long run of combining marks is quadratic in utf8proc: a run is
# at most 30 marks (stream-safe text).
{ printf 'const a = "e'; repeat 100000 "$(printf '\314\201')"; printf '"\n'; } >"$tmp/marks.rules"
expect combining-marks 2 'marks.rules:1:13: error: more than 30 combining marks in a row' \
  "$bin" check "$tmp/marks.rules"
# A value that holds itself prints in bounded time and size.
expect cyclic-call 0 '' timeout 60 "$bin" call tests/run/cyclic.rules cyc
size=$(wc -c <"$tmp/out")
if [ "$size" -lt 4000000 ] && grep -q '\.\.\.' "$tmp/out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL limits cyclic-call: $size bytes"; fi
expect cyclic-json 0 '' timeout 60 "$bin" run tests/run/cyclic.rules --json
size=$(wc -c <"$tmp/out")
if [ "$size" -lt 4000000 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL limits cyclic-json: $size bytes"; fi
# sim and odds tally such a value field by field: a list in a list's
# elements is one value, not split again (each level multiplied the values a
# run hands over: 10^7 for this file, a hang), and a value's text stops at
# its buffer.  The list holds 10 items in every run (cyclic.rules).
expect cyclic-sim 0 '' sh -c 'ulimit -t 10 && exec "$0" sim "$1" --runs 50 --threads 1' "$bin" tests/run/cyclic.rules
grep -A1 -x '  value       count    share  95% interval' "$tmp/out" | grep -q '^  10             50  100.00%' &&
  passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL limits cyclic-sim: no 10 items in 50 runs"; }
expect cyclic-odds 0 '' sh -c 'ulimit -t 10 && exec "$0" odds "$1" main' "$bin" tests/run/cyclic.rules
grep -q '^10              1/1  100.00%' "$tmp/out" &&
  passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL limits cyclic-odds: no 10 items at 1/1"; }
# A long line of bad UTF-8 is shown as an excerpt around the caret (80
# characters either side, each bad byte one '?'), not whole: a run of
# continuation bytes is many characters, not one.
{ printf 'const a = 1 "'; repeat 200000 "$(printf '\230')"; printf '"\n'; } >"$tmp/badrun.rules"
expect bad-utf8-excerpt 2 'badrun.rules:1:14: error: invalid UTF-8 byte 0x98' "$bin" check "$tmp/badrun.rules"
size=$(wc -c <"$tmp/err")
if [ "$size" -lt 400 ] && grep -q '?\.\.\.$' "$tmp/err"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL limits bad-utf8-excerpt: $size bytes of stderr"; fi

# fmt's work is bounded by the input: a bound in CPU seconds (ulimit -t, so
# a loaded machine does not matter), many times what fmt takes (0.3 s each
# here; about 1 s under ASan).  Before the fix fmt measured the whole output
# line again at each bracket left open on it (the first file, 1 MB: 52 s)
# and scanned the rest of the line for each opener's closer (the second,
# 3 MB: 6.2 s).
awk 'BEGIN { printf "procedure p() -> int {\n  return sum([0"
             for (i = 1; i < 300000; i++) printf ", %d", i % 10
             printf ", "; for (i = 0; i < 970; i++) printf "("; printf "1\n"
             for (i = 0; i < 970; i++) printf ")"; printf "])\n}\n" }' >"$tmp/fmt-open.rules"
expect fmt-open-work 1 '' sh -c 'ulimit -t 8 && exec "$0" fmt --check "$1"' "$bin" "$tmp/fmt-open.rules"
awk 'BEGIN { printf "procedure p() -> int {\n  return "
             for (i = 0; i < 970; i++) printf "("
             printf "sum([0"; for (i = 1; i < 1000000; i++) printf ", %d", i % 10
             printf "])"; for (i = 0; i < 970; i++) printf ")"; printf "\n}\n" }' >"$tmp/fmt-nest.rules"
expect fmt-nest-work 0 '' sh -c 'ulimit -t 4 && exec "$0" fmt --check "$1"' "$bin" "$tmp/fmt-nest.rules"
# Steps bound time: a loop whose body is 20,000 straight-line statements
# (280 KB) reaches the default step limit within seconds (each pass costs
# the body's instructions, not one step: counting only the jump, 10^8
# steps of it took about 5,000 s), at the loop's backward jump (line 2).
{ printf 'procedure spin() -> int {\n  let x = 0\n  while true {\n'
  repeat 20000 '    x = x + 1 - 1\n'; printf '  }\n  return x\n}\n'; } >"$tmp/straight.rules"
expect straight-line-loop 3 'straight.rules:3:3: error: step limit of 1000000000 reached' \
  timeout 60 "$bin" call "$tmp/straight.rules" spin
# By hand: a loop of three passes over the same body and `i = i + 1`:
# x's and i's starts are pc 0..3, the test LOAD PUSHI LT JMPF pc 4..7, each
# statement LOAD PUSHI ADD PUSHI SUB STORE (6 instructions) pc 8..120007,
# i's step pc 120008..120011, the JMP back to pc 4 at pc 120012: a pass
# costs 120,009 steps, three 360,027.
{ printf 'procedure three() -> int {\n  let x = 0\n  let i = 0\n  while i < 3 {\n'
  repeat 20000 '    x = x + 1 - 1\n'; printf '    i = i + 1\n  }\n  return i\n}\n'; } >"$tmp/three.rules"
expect straight-line-enough 0 '' "$bin" call "$tmp/three.rules" three --max-steps 360027
expect straight-line-short 3 'three.rules:4:3: error: step limit of 360026 reached' \
  "$bin" call "$tmp/three.rules" three --max-steps 360026

# Local variables: 65,535 in one procedure are fine, one more is refused
# at the 65,536th; both in time proportional to the file (a bound in CPU
# seconds: looking a name up among the locals was a scan of all of them,
# 65,536 lets took 12 s, a call of the 65,535 41 s; 0.2 s with buckets).
# v65534 is 65534 mod 7 = 0 (7 x 9362 = 65534), v1 is 1: the call gives 1.
awk 'BEGIN { print "procedure p() -> int {"
             for (i = 0; i < 65535; i++) printf "  let v%d = %d\n", i, i % 7
             print "  return v65534 + v1"; print "}" }' >"$tmp/locals.rules"
expect locals-65535 0 '' sh -c 'ulimit -t 5 && exec "$0" call "$1" p >"$2" 2>&1 && test "$(cat "$2")" = 1' \
  "$bin" "$tmp/locals.rules" "$tmp/locals.out"
awk 'BEGIN { print "procedure p() -> int {"
             for (i = 0; i < 65536; i++) printf "  let v%d = 0\n", i
             print "  return 0"; print "}" }' >"$tmp/locals1.rules"
expect locals-65536 2 'locals1.rules:65537:3: error: too many local variables \(limit 65535\)' \
  sh -c 'ulimit -t 5 && exec "$0" check "$1"' "$bin" "$tmp/locals1.rules"

# Distinct constants: 150,000 in one procedure compile in time proportional
# to the file (each was compared with every one before it: about 5 s of CPU
# here; 0.2 s by hash).  The sum is 150,000 x 2^40 + 149,999 x 150,000 / 2
# = 164,926,744,166,400,000 + 11,249,925,000.
awk 'BEGIN { print "procedure p() -> int {"; print "  let x = 0"
             for (i = 0; i < 150000; i++) printf "  x = x + %.0f\n", 1099511627776 + i
             print "  return x"; print "}" }' >"$tmp/consts.rules"
expect constants-150000 0 '' sh -c 'ulimit -t 3 && exec "$0" call "$1" p >"$2" 2>&1 && test "$(cat "$2")" = 164926755416325000' \
  "$bin" "$tmp/consts.rules" "$tmp/consts.out"

# Dice and decks set again and again (an inputs file of 16 MB could set a
# die of a million faces a million times): the faces and cards set in all
# are bounded, so memory is too.  By hand: 4 dice of 1,000,000 faces fill
# the bound of 4,000,000 with the rules' own faces, the 4th line is refused.
printf 'enum f { a, b }\ndice D: f = { a: 1, b: 1 }\nprocedure main() -> f { return roll D }\n' >"$tmp/die.rules"
for k in 1 2 3 4 5 6 7 8; do echo 'D=a:1000000'; done >"$tmp/die.txt"
expect set-bounded 2 'die.txt:4: D: more than 4000000 faces and cards set in all' "$bin" run "$tmp/die.rules" --inputs "$tmp/die.txt"

# ---- 3. a module's source paths are never opened --------------------------
printf 'table t(n: 1..2) -> int { 1: 1, 2: 2 }\nprocedure p(k: int) -> int {\n  return t[k]\n}\n' >"$tmp/src.rules"
expect rbc-source-line 3 '^      return t\[k\]$' "$bin" call "$tmp/src.rules" p 5
expect rbc-build 0 '' "$bin" build "$tmp/src.rules" -o "$tmp/src.rbc"
# The path the module names now holds something else (a crafted module
# could name any file): the error gives the position, never that text.
printf 'SECRET 1\nSECRET 2\n  SECRET 3 SECRET 3 SECRET 3\n' >"$tmp/src.rules"
expect rbc-no-reopen 3 'src.rules:3:10: error: key 5 outside 1..2' "$bin" call "$tmp/src.rbc" p 5
if grep -q SECRET "$tmp/err"; then failed=$((failed + 1)); echo "FAIL limits rbc-no-reopen: printed the file the module names"; else passed=$((passed + 1)); fi

# ---- 6. line readers are bounded --------------------------------------------
printf 'cards=2\0junk\n' >"$tmp/nul.inputs"
expect inputs-nul 2 'nul.inputs:1: a NUL byte in the line' \
  "$bin" run tests/run/skirmish.rules --policy first --inputs "$tmp/nul.inputs"
expect inputs-dev-zero 2 'zero:1: a NUL byte in the line' \
  "$bin" run tests/run/skirmish.rules --policy first --inputs /dev/zero
{ printf 'cards='; repeat 70000 1; echo; } >"$tmp/long.inputs"
expect inputs-long 2 'long.inputs:1: line too long \(limit 65536 bytes\)' \
  "$bin" run tests/run/skirmish.rules --policy first --inputs "$tmp/long.inputs"
expect answers-dev-zero 2 'zero:1: a NUL byte in the line' \
  "$bin" run tests/run/skirmish.rules --policy answers:/dev/zero
{ echo 2; repeat 70000 x; echo; } >"$tmp/long.answers"
expect answers-long 2 'long.answers:2: line too long' \
  "$bin" run tests/run/skirmish.rules --policy "answers:$tmp/long.answers"
expect ask-long 2 'stdin:1: line too long' \
  sh -c '"$0" run tests/run/skirmish.rules --policy ask <"$1"' "$bin" "$tmp/long.inputs"

# ---- 7. output files --------------------------------------------------------
# A device is written to, never replaced by a regular file (as root, the
# rename of the temporary file used to replace /dev/full).
if [ -c /dev/full ] && [ -w /dev/full ]; then
  expect build-dev-full 3 '/dev/full: cannot write: No space left on device' \
    "$bin" build tests/lang/else-if-chain.rules -o /dev/full
  expect draw-dev-full 3 '/dev/full: cannot write: No space left on device' \
    "$bin" draw rules/ninthage/deployment.rules draw_zones Counterthrust --svg /dev/full
  if [ -c /dev/full ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL limits: /dev/full is no longer a device"; fi
fi
# Through a symbolic link (relative, and a link to a link) an output file is
# written to the link's target, atomically, keeping the target's mode; the
# links stay links.  A link to a missing file creates that file.
mkdir -p "$tmp/ln/real" "$tmp/ln/links"
echo old >"$tmp/ln/real/m.rbc"
echo old >"$tmp/ln/real/p.svg"
chmod 0640 "$tmp/ln/real/m.rbc" "$tmp/ln/real/p.svg"
ln -s ../real/m.rbc "$tmp/ln/links/m1"
ln -s m1 "$tmp/ln/links/m.rbc"
ln -s "$tmp/ln/real/p.svg" "$tmp/ln/links/p.svg"
ln -s ../real/new.svg "$tmp/ln/links/new.svg"
expect build-link 0 '' "$bin" build tests/lang/else-if-chain.rules -o "$tmp/ln/links/m.rbc"
expect draw-link 0 '' "$bin" draw rules/ninthage/deployment.rules draw_zones Counterthrust --svg "$tmp/ln/links/p.svg"
expect draw-dangling-link 0 '' "$bin" draw rules/ninthage/deployment.rules draw_zones Counterthrust --svg "$tmp/ln/links/new.svg"
if [ -L "$tmp/ln/links/m1" ] && [ -L "$tmp/ln/links/m.rbc" ] && [ -L "$tmp/ln/links/p.svg" ] &&
   [ -L "$tmp/ln/links/new.svg" ] && [ "$(head -c 4 "$tmp/ln/real/m.rbc")" != "old" ] &&
   grep -q '<svg' "$tmp/ln/real/p.svg" && grep -q '<svg' "$tmp/ln/real/new.svg" &&
   [ "$(stat -c %a "$tmp/ln/real/m.rbc") $(stat -c %a "$tmp/ln/real/p.svg")" = "640 640" ] &&
   [ "$(ls "$tmp/ln/real" | tr '\n' ' ')" = "m.rbc new.svg p.svg " ]; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "FAIL limits output-links: $(ls -l "$tmp/ln/real" "$tmp/ln/links")"
fi
expect run-link 0 '' "$bin" call "$tmp/ln/links/m.rbc" pick 3

# Past a file size limit the write fails (EFBIG, not SIGXFSZ) and the
# temporary file is removed.
mkdir -p "$tmp/fsize"
expect build-fsize 3 'big.rbc: cannot write: File too large' \
  sh -c 'ulimit -f 4 && exec "$0" build rules/meg/maximus.rules -o "$1"' "$bin" "$tmp/fsize/big.rbc"
if [ -z "$(ls "$tmp/fsize")" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL limits build-fsize: left $(ls "$tmp/fsize")"; fi

# ---- 10. promises ---------------------------------------------------------
for a in --help --version "help run" "check --help"; do
  # shellcheck disable=SC2086
  expect "help-full $a" 3 'cannot write the output' sh -c "exec \"\$0\" $a >/dev/full" "$bin"
done
# Every command that prints through a writer of the library, its standard
# output on /dev/full: exit 3 and exactly one line on stderr, main's
# "cannot write the output" (the writer returns RG_IO, regula.h's rule for
# rg_out, and the command adds nothing of its own).  Each output is larger
# than stdio's buffer, so that the writer itself meets the failure.
if [ -c /dev/full ] && [ -w /dev/full ]; then
  { echo 'ruleset "large outputs"'
    printf 'table words(n: 1..2) -> text { 1: "'; repeat 3000 'word '; echo '", 2: "short" }'
    printf 'procedure notes() -> int {\n  for i in 1..2000 { note "a note", i }\n  return 1\n}\n'
    echo 'procedure wide() -> int { return roll d1000 }'
    printf 'procedure shapes() {\n  canvas("board", 100, 100, "a board")\n'
    printf '  for i in 1..1000 { rect(i, i, 1, 1, "", "x") }\n}\n'
    awk 'BEGIN { for (i = 1; i <= 300; i++) printf "test \"failing test %d\" { expect 1 == 2 }\n", i }'
  } >"$tmp/large.rules"
  cp "$tmp/large.rules" "$tmp/large2.rules"
  L=$tmp/large.rules L2=$tmp/large.rules,$tmp/large2.rules
  M=rules/meg/maximus.rules M3=rules/meg/maximus.rules,rules/meg/magna.rules,rules/meg/pacto.rules
  # full NAME ARGS...: regula ARGS with stdout on /dev/full
  full() {
    name=$1
    shift
    "$bin" "$@" >/dev/full 2>"$tmp/err" </dev/null
    code=$?
    if [ "$code" -ne 3 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
       ! grep -q '^regula: error: cannot write the output: No space left on device$' "$tmp/err"; then
      failed=$((failed + 1))
      echo "FAIL limits full-$name: exit $code (3 expected), stderr (one line expected):"
      head -c 600 "$tmp/err" | sed 's/^/    /'
    else
      passed=$((passed + 1))
    fi
  }
  full dis dis $M
  full dis-fast dis --fast $M
  full query query "$L" words 1
  full call call "$L" notes
  full test test "$L"
  full run run $M --seed 1
  full run-json run $M --seed 1 --json
  full run-variants run --variants $M3 --seed 1
  full run-variants-json run --variants $M3 --seed 1 --json
  full diff diff $M rules/meg/magna.rules
  full diff-stat diff --stat $M rules/meg/magna.rules
  full diff-json diff --json $M rules/meg/magna.rules
  full sheet sheet $M
  full sheet-table sheet $M weather
  full odds odds "$L" wide
  full odds-json odds "$L" wide --json
  full odds-variants odds --variants "$L2" wide
  full odds-variants-json odds --variants "$L2" wide --json
  full sim sim "$L" wide --runs 20000
  full sim-json sim "$L" wide --runs 20000 --json
  full sim-variants sim --variants "$L2" wide --runs 5000
  full sim-variants-json sim --variants "$L2" wide --runs 5000 --json
  full draw draw "$L" shapes
  expect fmt-stdin-full 3 'cannot write the output' sh -c 'exec "$0" fmt - <"$1" >/dev/full' "$bin" $M
fi
printf 'procedure r() -> int {\n  let x = roll d6\n  expect x < 6\n  return x\n}\n' >"$tmp/exp.rules"
expect sim-expect 1 'exp.rules:3: an expectation failed in run' "$bin" sim "$tmp/exp.rules" r --runs 200
expect odds-expect 1 'exp.rules:3: an expectation failed' "$bin" odds "$tmp/exp.rules" r
# A file of exactly 16 MiB is read; one byte more is too large.
{ printf '# '; repeat 16777213 x; echo; } >"$tmp/max.rules"
expect source-16mib 0 '' "$bin" check "$tmp/max.rules"
printf 'x' >>"$tmp/max.rules"
expect source-16mib-plus-1 2 'file too large \(limit 16777216 bytes\)' "$bin" check "$tmp/max.rules"

# ---- 11. terminals: no control character from outside reaches one -------------
# A title (ESC ] 0 ; ... BEL), a clear screen (ESC [ 2 J), a C1 CSI (U+009B)
# and a lone byte 0x9b in every kind of text regula quotes: a line of an
# answers file, of an inputs file and of standard input (--policy ask), a
# --set name and value, an argument, a procedure, command, option and
# policy name, and file names (not found, in a diagnostic, listed by fmt
# --check on stdout, named by a run's header).  Each message escapes them
# (rg_write_shown: \x1b, \u009b), so neither stdout nor stderr holds one.
E=$(printf '\033]0;title\007\033[2J\302\233\233')
ctl=$(printf '[\001-\010\013-\037\177]')
c1=$(printf '\302[\200-\237]')
# raw NAME CMD...: CMD's stdout and stderr hold no control character (but
# newline and tab) and no C1 control, and its stderr shows the escape \x1b.
raw() {
  name=$1
  shift
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  if LC_ALL=C grep -q -e "$ctl" -e "$c1" "$tmp/out" "$tmp/err"; then
    failed=$((failed + 1)); echo "FAIL limits terminal-$name: a control character reached the terminal:"
    LC_ALL=C cat -v "$tmp/out" "$tmp/err" | head -3 | sed 's/^/    /'
  elif ! grep -q '\\x1b' "$tmp/out" "$tmp/err"; then
    failed=$((failed + 1)); echo "FAIL limits terminal-$name: the text is not shown escaped:"
    head -3 "$tmp/out" "$tmp/err" | sed 's/^/    /'
  else
    passed=$((passed + 1))
  fi
}
mkdir -p "$tmp/term"
sk=tests/run/skirmish.rules
printf '%s\n' "$E" >"$tmp/term/answers"
printf 'cards=%s\n' "$E" >"$tmp/term/inputs"
raw answers-line "$bin" run $sk --policy "answers:$tmp/term/answers"
raw inputs-line "$bin" run $sk --policy first --inputs "$tmp/term/inputs"
raw ask-line sh -c '"$0" run "$1" --policy ask <"$2"' "$bin" $sk "$tmp/term/answers"
raw set-value "$bin" run $sk --policy first --set "cards=$E"
raw set-name "$bin" run $sk --policy first --set "$E=1"
raw argument "$bin" call tests/lang/else-if-chain.rules pick "$E"
raw procedure "$bin" call tests/lang/else-if-chain.rules "p$E"
raw command "$bin" "x$E"
raw option "$bin" check "--x$E"
raw policy "$bin" run $sk --policy "x$E"
raw file-missing "$bin" check "$tmp/term/x$E.rules"
printf 'const = 1\n' >"$tmp/term/bad$E.rules"
raw file-diagnostic "$bin" check "$tmp/term/bad$E.rules"
printf 'const  a=1\n' >"$tmp/term/fmt$E.rules"
raw file-fmt-check "$bin" fmt --check "$tmp/term/fmt$E.rules"
printf 'Standard\nStandard\n' >"$tmp/term/a$E"
raw file-run-header "$bin" run $sk --policy "answers:$tmp/term/a$E"

# ---- 12. exact odds keep what they may (issue 29.8) -------------------------
# Every state of these runs has a heap of its own (a list built to 600, then
# a die's face added after each roll): the states kept grow by about 1.4 MB
# each, and odds stop at the memory limit with an error that names it (it
# ran to gigabytes before, no limit named).
printf 'procedure main() -> int {\n  let xs = [0]\n  for i in 1..600 { xs = xs + [i] }\n  for k in 1..8 { xs = xs + [roll d6] }\n  return len(xs)\n}\n' >"$tmp/heaps.rules"
expect odds-memory 3 '^regula: error: telling the chance states apart needs more than 8 MiB of memory \(the memory limit; raise it with --max-memory\)' \
  "$bin" odds "$tmp/heaps.rules" main --max-memory 8M
# States that share one heap (a list of 201 built before 12 dice) keep it
# once: 342 states fit in 8 MiB (each with its own copy: about 55 MB).
printf 'procedure main() -> int {\n  let xs = [0]\n  for i in 1..200 { xs = xs + [i] }\n  let s = 0\n  for k in 1..12 { s = s + roll d6 }\n  return s + len(xs)\n}\n' >"$tmp/shared.rules"
expect odds-shared-heap 0 '' "$bin" odds "$tmp/shared.rules" main --max-memory 8M
if grep -q '^213 *1/2176782336 ' "$tmp/out" && grep -q ', 342 chance states' "$tmp/out"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "FAIL limits odds-shared-heap: expected 213 at 1/6^12 and 342 states"
fi

echo "limits: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
