#!/bin/sh
# tests/run.sh BINARY: the golden tests of regula.
#
# One feature per file; the expected output sits beside the rule file:
#
#   tests/lang/NAME.rules    NAME.out: the stdout of `regula test NAME.rules`,
#                            then a last line `exit: N` (the exit code).
#   tests/errors/NAME.rules  NAME.err: the stderr of `regula check NAME.rules`,
#                            then `exit: N`.  Stdout must be empty; when it is
#                            not, it is compared too, after a line `--- stdout`
#                            (before the `exit:` line).
#   tests/dis/NAME.rules     NAME.dis: the stdout of `regula dis NAME.rules`,
#                            which must exit 0.
#   tests/diff/NAME.cmd      a `regula diff ...` line; NAME.out as for tests/run.
#   tests/run/NAME.cmd       a `regula run ...` line (stdin from NAME.stdin when
#                            there); NAME.out: stdout, `--- stderr` and stderr,
#                            `exit: N`.  Run twice: both must be identical.
#   tests/svg/NAME.cmd       a `regula draw` or `regula run --svg` line writing
#                            OUT/FILE.svg: each must equal tests/svg/FILE.svg,
#                            parse as XML and render with rsvg-convert.
#   tests/*/*.expect.tsv     lines `table<TAB>key...<TAB>expected`, each checked
#                            with `regula query` (see tests/meg/README.md).
#   rules/**/*.rules         `regula test FILE` must exit 0.
#
# A lang or errors file may name another command on its first line:
#     # run: regula query {} weather 0 D
# The rest of the line is shell words (quotes allowed); `regula` is the binary
# under test and {} the rule file.
#
# Prints one line per failure, with a diff, and ends with `N passed, M failed`.
# Exit 1 on any failure.  REGULA_UPDATE=1 rewrites the expected files of lang,
# errors, dis, run and svg tests from the actual output (review the diff before
# committing!).

set -u

if [ $# -ne 1 ]; then
  echo "usage: tests/run.sh BINARY" >&2
  exit 2
fi
case $1 in
  /*) bin=$1 ;;
  *) bin=$(pwd)/$1 ;;
esac
if [ ! -x "$bin" ]; then
  echo "tests/run.sh: $1 is not an executable" >&2
  exit 2
fi
cd "$(dirname "$0")/.." || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-golden.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
update=${REGULA_UPDATE:-}
passed=0
failed=0

# pass: counts a passed test.
pass() {
  passed=$((passed + 1))
}

# fail WHAT [EXPECTED ACTUAL]: reports a failed test, with a diff of the two
# files when given.
fail() {
  failed=$((failed + 1))
  echo "FAIL $1"
  if [ $# -ge 3 ]; then
    diff -u --label expected --label actual "$2" "$3" | sed 's/^/    /'
  fi
}

# run FILE DEFAULT...: runs the command named on FILE's first line (`# run:
# regula ...`), or else `regula DEFAULT... FILE`, with stdout in $tmp/out,
# stderr in $tmp/err and the exit code in $code.
run() {
  f=$1
  shift
  first=$(sed -n '1p' "$f")
  case $first in
    "# run: regula "*)
      words=${first#"# run: regula "}
      # {} becomes the file, quoted for eval.
      words=$(printf '%s\n' "$words" | sed "s|{}|'$f'|g")
      eval "set -- $words"
      ;;
    *)
      set -- "$@" "$f"
      ;;
  esac
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
}

# check NAME EXPECTED ACTUAL: compares the expected file with the actual
# output (or, in update mode, rewrites it).
check() {
  if [ -n "$update" ] && ! cmp -s "$2" "$3"; then
    cp "$3" "$2"
    echo "updated $2"
  fi
  if [ -f "$2" ] && cmp -s "$2" "$3"; then
    pass
  elif [ -f "$2" ]; then
    fail "$1" "$2" "$3"
  else
    : >"$tmp/empty"
    fail "$1 (no $2)" "$tmp/empty" "$3"
  fi
}

# ---- tests/lang: stdout and exit code ------------------------------------
for f in tests/lang/*.rules; do
  [ -f "$f" ] || continue
  run "$f" test
  { cat "$tmp/out"; echo "exit: $code"; } >"$tmp/actual"
  check "$f" "${f%.rules}.out" "$tmp/actual"
done

# ---- tests/errors: stderr and exit code ----------------------------------
for f in tests/errors/*.rules; do
  [ -f "$f" ] || continue
  run "$f" check
  {
    cat "$tmp/err"
    if [ -s "$tmp/out" ]; then echo "--- stdout"; cat "$tmp/out"; fi
    echo "exit: $code"
  } >"$tmp/actual"
  check "$f" "${f%.rules}.err" "$tmp/actual"
done

# ---- tests/dis: the disassembly ------------------------------------------
for f in tests/dis/*.rules; do
  [ -f "$f" ] || continue
  run "$f" dis
  if [ "$code" -ne 0 ]; then
    fail "$f: regula dis exited $code"
    sed 's/^/    /' "$tmp/err"
    continue
  fi
  check "$f" "${f%.rules}.dis" "$tmp/out"
done

# ---- tests/run: whole runs (regula run) ----------------------------------
# NAME.cmd holds one command line (`regula run FILE OPTIONS...`, shell words);
# NAME.stdin, when there, is its stdin (else /dev/null).  NAME.out is its
# stdout, then `--- stderr` and its stderr when there is any, then `exit: N`.
# Each command runs twice and both runs must be byte-identical (the same
# seed, policy and answers give the same output); with --json, every line of
# stdout must parse as JSON (python3's json module).
have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1
for f in tests/run/*.cmd; do
  [ -f "$f" ] || continue
  name=${f%.cmd}
  words=$(sed -n '1p' "$f")
  words=${words#"regula "}
  eval "set -- $words"
  input=/dev/null
  [ -f "$name.stdin" ] && input=$name.stdin
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err" <"$input"
  code=$?
  {
    cat "$tmp/out"
    if [ -s "$tmp/err" ]; then echo "--- stderr"; cat "$tmp/err"; fi
    echo "exit: $code"
  } >"$tmp/actual"
  check "$f" "$name.out" "$tmp/actual"
  "$bin" "$@" >"$tmp/out2" 2>"$tmp/err2" <"$input"
  if cmp -s "$tmp/out" "$tmp/out2" && cmp -s "$tmp/err" "$tmp/err2"; then
    pass
  else
    fail "$f: a second run gave other output" "$tmp/out" "$tmp/out2"
  fi
  case " $* " in
    *" --json "*)
      if [ "$have_python" -eq 1 ]; then
        if python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' \
             <"$tmp/out" >/dev/null 2>"$tmp/jerr"; then
          pass
        else
          fail "$f: stdout is not one JSON object a line"
          sed 's/^/    /' "$tmp/jerr"
        fi
      fi
      ;;
  esac
done

# ---- tests/svg: pictures (regula draw, regula run --svg) ------------------
# NAME.cmd holds one command line whose SVG outputs are written as OUT/FILE;
# it must exit 0, and each FILE it writes must equal tests/svg/FILE.  Every
# SVG must parse as XML (python3's xml.etree) with an <svg> root, and render
# with rsvg-convert (librsvg2-bin, installed by tools/deps.sh) to a PNG of
# the SVG's width and height.  The SVG text is what is compared: a renderer's
# PNG bytes change with its version.
have_rsvg=0
command -v rsvg-convert >/dev/null 2>&1 && have_rsvg=1
if [ "$have_rsvg" -eq 0 ]; then
  echo "SKIP tests/svg renders: rsvg-convert not found (tools/deps.sh installs librsvg2-bin)"
fi
for f in tests/svg/*.cmd; do
  [ -f "$f" ] || continue
  rm -rf "$tmp/svg"
  mkdir -p "$tmp/svg"
  words=$(sed -n '1p' "$f")
  words=${words#"regula "}
  words=$(printf '%s\n' "$words" | sed "s|OUT/|'$tmp/svg/'|g")
  eval "set -- $words"
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
  if [ "$code" -ne 0 ]; then
    fail "$f: exited $code"
    sed 's/^/    /' "$tmp/err"
    continue
  fi
  for svg in "$tmp"/svg/*.svg; do
    [ -f "$svg" ] || { fail "$f: wrote no SVG"; continue; }
    name=$(basename "$svg")
    check "$f: $name" "tests/svg/$name" "$svg"
    if [ "$have_python" -eq 1 ]; then
      if python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
assert len(root.get("viewBox").split()) == 4
print(root.get("width"), root.get("height"))' "$svg" >"$tmp/size" 2>"$tmp/xerr"; then
        pass
      else
        fail "$f: $name is not a well-formed SVG document"
        sed 's/^/    /' "$tmp/xerr"
        continue
      fi
      if [ "$have_rsvg" -eq 1 ]; then
        if rsvg-convert "$svg" -o "$tmp/render.png" 2>"$tmp/rerr" &&
           python3 -c '
import struct, sys
data = open(sys.argv[1], "rb").read(24)
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
want = open(sys.argv[2]).read().split()
assert [str(w), str(h)] == want, "PNG is %dx%d, SVG says %s" % (w, h, "x".join(want))' \
             "$tmp/render.png" "$tmp/size" 2>>"$tmp/rerr"; then
          pass
        else
          fail "$f: $name does not render to a PNG of its size"
          sed 's/^/    /' "$tmp/rerr"
        fi
      fi
    fi
  done
done

# ---- tests/*/*.expect.tsv: table cells checked with `regula query` ---------
# Each line: table<TAB>key...<TAB>expected.  The table may be written
# table.field to check one field of a record cell (its `field: value` line).
# A line `# rules: PATH` sets the rule file for the lines after it (default
# rules/meg/maximus.rules in tests/meg, none elsewhere).  Blank lines and other # lines are skipped.
# The rule file is compiled once (`regula build`) and the checks query the
# module, which answers exactly as the rule file does, only faster.
tab=$(printf '\t')
for f in tests/*/*.expect.tsv; do
  [ -f "$f" ] || continue
  case $f in
    tests/meg/*) rules=rules/meg/maximus.rules ;;
    *) rules="" ;;
  esac
  checked=""
  n=0
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    line=${line%"$(printf '\r')"}
    case $line in
      "# rules: "*) rules=${line#"# rules: "}; continue ;;
      "#"* | "") continue ;;
    esac
    # Compile each rule file once: when it has errors, report them once and
    # count its checks as failed without running them.
    if [ "$rules" != "$checked" ]; then
      checked=$rules
      rules_ok=1
      if [ -z "$rules" ]; then
        rules_ok=0
        echo "FAIL $f:$n: no '# rules: PATH' line before the checks (they fail)"
      elif [ ! -f "$rules" ]; then
        rules_ok=0
        echo "FAIL $f:$n: no rule file $rules (its checks fail)"
      else
        # Query a module built once: loading it is faster than compiling.
        "$bin" build "$rules" -o "$tmp/rules.rbc" >/dev/null 2>"$tmp/err" </dev/null
        case $? in
          0) module=$tmp/rules.rbc ;;
          2) rules_ok=0
             echo "FAIL $f:$n: $rules does not compile (its checks fail)"
             sed -n '1,3s/^/    /p' "$tmp/err" ;;
          *) module=$rules ;;
        esac
      fi
    fi
    if [ "$rules_ok" -eq 0 ]; then
      failed=$((failed + 1))
      continue
    fi
    # Split on tabs: the first field is the table, the last the expected
    # value, the ones between the keys (which may hold spaces).
    old_ifs=$IFS
    IFS=$tab
    set -f
    # shellcheck disable=SC2086
    set -- $line
    set +f
    IFS=$old_ifs
    if [ $# -lt 3 ]; then
      fail "$f:$n: needs a table, keys and the expected value, tab-separated"
      continue
    fi
    table=$1
    shift
    eval "want=\${$#}"
    # Keep all but the last: append each to the list, then drop the originals.
    nf=$#
    i=0
    keys=""
    for k in "$@"; do
      i=$((i + 1))
      [ "$i" -lt "$nf" ] || break
      set -- "$@" "$k"
      keys="$keys $k"
    done
    shift "$nf"
    field=""
    case $table in
      *.*) field=${table#*.}; table=${table%%.*} ;;
    esac
    "$bin" query "$module" "$table" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    code=$?
    if [ -n "$field" ]; then
      got=$(sed -n "s/^$field: //p" "$tmp/out" | sed -n '1p')
    else
      got=$(cat "$tmp/out")
    fi
    label="$f:$n: $table${field:+.$field}$keys"
    if [ "$code" -ne 0 ]; then
      fail "$label: regula query exited $code: $(sed -n '1p' "$tmp/err")"
    elif [ "$got" = "$want" ]; then
      pass
    else
      fail "$label: expected '$want', got '$got'"
    fi
  done <"$f"
done

# ---- tests/diff: regula diff (see tests/diff/README.md) -------------------
# NAME.cmd holds one `regula diff ...` line; NAME.out is its stdout, then
# `--- stderr` and its stderr when there is any, then `exit: N`.
for f in tests/diff/*.cmd; do
  [ -f "$f" ] || continue
  words=$(sed -n '1p' "$f")
  words=${words#"regula "}
  eval "set -- $words"
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
  {
    cat "$tmp/out"
    if [ -s "$tmp/err" ]; then echo "--- stderr"; cat "$tmp/err"; fi
    echo "exit: $code"
  } >"$tmp/actual"
  check "$f" "${f%.cmd}.out" "$tmp/actual"
done

# ---- rules/: every rule file's own tests ---------------------------------
for f in $(find rules -name '*.rules' 2>/dev/null | LC_ALL=C sort); do
  "$bin" test "$f" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
  if [ "$code" -eq 0 ]; then
    pass
  else
    fail "$f: regula test exited $code"
    cat "$tmp/out" "$tmp/err" | sed 's/^/    /'
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
