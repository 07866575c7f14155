#!/bin/sh
# tests/install.sh: `make install PREFIX=DIR` into a temporary directory, then
# the installed program runs, its manual page reads with man -l, the bundled
# rule files check, and `make uninstall` removes what install put there.
# Prints "install: N passed, M failed".
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "install: FAIL: $*"; }

make --no-print-directory -s install PREFIX="$tmp/usr" >"$tmp/log" 2>&1 || { cat "$tmp/log"; bad "make install"; }
v=$("$tmp/usr/bin/regula" --version 2>&1)
case $v in "regula "[0-9]*) ok ;; *) bad "installed regula --version said: $v" ;; esac
if command -v man >/dev/null 2>&1; then
  page=$(MANWIDTH=80 man -l "$tmp/usr/share/man/man1/regula.1" 2>"$tmp/man.err" | sed 's/.\x08//g')
  # the page holds every command's help: spot-check two lines of it
  if printf '%s\n' "$page" | grep -q '^NAME' &&
     printf '%s\n' "$page" | grep -q 'usage: regula sim' && [ ! -s "$tmp/man.err" ]; then ok
  else bad "man -l regula.1"; cat "$tmp/man.err"; fi
fi
"$tmp/usr/bin/regula" check "$tmp/usr/share/regula/rules/meg/maximus.rules" >/dev/null 2>&1 &&
  ok || bad "installed rules/meg/maximus.rules does not check (its tables installed beside it?)"
[ -f "$tmp/usr/share/bash-completion/completions/regula" ] && ok || bad "bash completion not installed"
# the installed completion offers the rule file's strategies after --policy
got=$(bash -c '. "$1/usr/share/bash-completion/completions/regula"
  COMP_WORDS=("$1/usr/bin/regula" sim "$1/usr/share/regula/rules/meg/maximus.rules" --policy se)
  COMP_CWORD=4; _regula; echo "${COMPREPLY[*]}"' sh "$tmp" 2>&1)
[ "$got" = sensible ] && ok || bad "completion of --policy se: '$got', not 'sensible'"
[ -f "$tmp/usr/share/vim/vimfiles/syntax/regula.vim" ] && ok || bad "vim syntax not installed"
make --no-print-directory -s uninstall PREFIX="$tmp/usr" >"$tmp/log" 2>&1 || bad "make uninstall"
left=$(find "$tmp/usr" -type f | head -3)
[ -z "$left" ] && ok || bad "uninstall left: $left"
echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
