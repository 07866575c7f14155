#!/bin/sh
# tests/editors.sh: the editor files know exactly the lexer's keywords.
#
# The keywords are the quoted words of grammar/lexer.re's rules that return a
# token (`"ruleset" { TOK(RULESET); }`).  editors/vim/syntax/regula.vim lists
# them in `syn keyword` lines, editors/vscode/syntaxes/regula.tmLanguage.json
# in `\b(a|b|c)\b` alternations.  Each must hold every keyword, and nothing
# that is not one.  Prints "editors: N passed, M failed".
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT

sed -n 's/^  "\([a-z][a-z_]*\)" *{ TOK(.*/\1/p' grammar/lexer.re | sort -u >"$tmp/lexer"
sed -n 's/^syn keyword regula[A-Za-z]* \(.*\)/\1/p' editors/vim/syntax/regula.vim |
  grep -v contained | tr ' ' '\n' | grep . | sort -u >"$tmp/vim"
# the TextMate grammar's keyword alternations (the match rules named keyword.*,
# storage.type.* and constant.language.*)
python3 - editors/vscode/syntaxes/regula.tmLanguage.json >"$tmp/tm.raw" <<'PY' || exit 2
import json, re, sys
g = json.load(open(sys.argv[1]))
for p in g["patterns"]:
    n, m = p.get("name", ""), p.get("match", "")
    w = re.fullmatch(r"\\b\(([a-z_|]+)\)\\b", m)
    if w and re.match(r"(keyword|storage\.type|constant\.language)\.", n):
        print("\n".join(w.group(1).split("|")))
PY
sort -u "$tmp/tm.raw" >"$tmp/tm"

pass=0 fail=0
[ -s "$tmp/lexer" ] || { echo "editors: no keywords found in grammar/lexer.re"; exit 1; }
for ed in vim tm; do
  if diff -u "$tmp/lexer" "$tmp/$ed" >"$tmp/diff"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "editors: $ed keywords differ from grammar/lexer.re (- lexer only, + editor only):"
    sed -n '3,$p' "$tmp/diff" | grep '^[-+]'
  fi
done
echo "editors: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
