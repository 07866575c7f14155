#!/bin/sh
# tests/fmt-check.sh BINARY: every rule file of rules/ and tests/ is in the
# canonical layout (`regula fmt --check` lists none).  Left out: files whose
# bytes are the test (a byte order mark, CR line ends: lex-crlf and
# tests/diff/crlf-*, NFD text: fmt writes the NFC text the compiler reads),
# the fuzz inputs, and files with syntax
# errors, which fmt refuses (exit 2; only tests/errors/ may hold them).
# Format them all with:
#   tests/fmt-check.sh build/regula --write
bin=$1
cd "$(dirname "$0")/.." || exit 2
test_name=fmt-check
. tests/counts.sh
files=$(find rules tests -name '*.rules' ! -path 'tests/fuzz/*' ! -name 'lex-bom.rules' \
          ! -name 'lex-crlf.rules' ! -name 'crlf-*.rules' ! -name 'unicode-nfc.rules' | sort)
for f in $files; do
  if [ "$2" = --write ]; then "$bin" fmt "$f" 2>/dev/null; fi
  "$bin" fmt --check "$f" > "$tmp/out" 2> "$tmp/err"; rc=$?
  case $rc:$f in
    0:*) ok ;;
    2:tests/errors/*) ok ;;
    1:*) bad "$f is not formatted (regula fmt $f)" ;;
    *) bad "$f: exit $rc: $(head -1 "$tmp/err")" ;;
  esac
done
finish
