#!/bin/sh
# tests/tokens.sh: the lexer's token names agree with the grammar's tokens.
#
# The token kinds are declared once, by grammar/parser.y's %token lines (Lemon
# numbers them into parser.h); grammar/lexer.re names each for messages in
# rgi_token_name (`case RG_TK_RULESET: return "'ruleset'";`) and spells the
# fixed ones in its rules (`"ruleset" { TOK(RULESET); }`).  Checked:
#   - every %token has a name in rgi_token_name, and every name is a %token;
#   - every token a lexer rule returns is a %token;
#   - a token spelled by a rule is named by that spelling in quotes.
# Prints "tokens: N passed, M failed".
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT

sed -n 's/^%token \([A-Z_ ]*\)\.$/\1/p' grammar/parser.y | tr ' ' '\n' | grep . | sort -u >"$tmp/declared"
sed -n "s/^ *case RG_TK_\([A-Z_]*\): return .*/\1/p" grammar/lexer.re | sort -u >"$tmp/named"
sed -n 's/.*{ TOK(\([A-Z_]*\)); }.*/\1/p' grammar/lexer.re | sort -u >"$tmp/lexed"
# spelled: TOKEN<TAB>'spelling' from `"spelling" { TOK(TOKEN); }`
sed -n 's/^  "\([^"]*\)" *{ TOK(\([A-Z_]*\)); }.*/\2	'"'"'\1'"'"'/p' grammar/lexer.re | sort >"$tmp/spelled"
# named: TOKEN<TAB>'name' from rgi_token_name's cases
sed -n "s/^ *case RG_TK_\([A-Z_]*\): return \"\(.*\)\";/\1	\2/p" grammar/lexer.re | sort >"$tmp/names"

pass=0 fail=0
# check WHAT FILE-A FILE-B: the two lists must be equal.
check() {
  if diff -u "$2" "$3" >"$tmp/diff"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "tokens: $1 (- $2, + $3):" | sed "s|$tmp/||g"
    sed -n '3,$p' "$tmp/diff" | grep '^[-+]'
  fi
}
[ -s "$tmp/declared" ] && [ -s "$tmp/named" ] && [ -s "$tmp/spelled" ] ||
  { echo "tokens: cannot read the tokens of grammar/parser.y or grammar/lexer.re"; exit 1; }
check "the %tokens of parser.y and the names of rgi_token_name differ" "$tmp/declared" "$tmp/named"
comm -23 "$tmp/lexed" "$tmp/declared" >"$tmp/undeclared"
: >"$tmp/none"
check "lexer rules return tokens that parser.y does not declare" "$tmp/none" "$tmp/undeclared"
join -t '	' "$tmp/spelled" "$tmp/names" | awk -F '\t' '$2 != $3 { print $1 ": spelled " $2 ", named " $3 }' >"$tmp/misnamed"
check "tokens named otherwise than the lexer spells them" "$tmp/none" "$tmp/misnamed"
echo "tokens: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
