#!/bin/sh
# tests/builtins.sh: the language reference documents every builtin.
#
# The builtins are interp/module/builtins.h's RG_BUILTINS list (X(name, kind, argc,
# args)); docs/language.md must show each one called, as `name(`.  Prints
# "builtins: N passed, M failed".
cd "$(dirname "$0")/.." || exit 2
names=$(sed -n '/^#define RG_BUILTINS(X)/,/^$/p' interp/module/builtins.h |
  grep -o 'X([a-z_]*,' | sed 's/^X(\(.*\),$/\1/')
[ -n "$names" ] || { echo "builtins: no builtins found in interp/module/builtins.h"; exit 1; }
pass=0 fail=0
for n in $names; do
  if grep -q "\`$n(" docs/language.md; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "builtins: docs/language.md does not document $n (no \`$n( in it)"
  fi
done
echo "builtins: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
