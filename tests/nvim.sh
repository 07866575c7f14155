#!/bin/sh
# tests/nvim.sh REGULA: the manual's editor setup in Debian's Neovim, headless.
#
# Neovim is installed from Debian's packages when missing; where it cannot
# be, the test says it skipped and passes.  Neovim runs with a throwaway
# configuration: editors/vim appended to the runtimepath and the manual's
# Lua snippet (read from docs/manual.md, so the two cannot drift apart), `regula`
# on PATH being REGULA.  tests/nvim/check.lua then checks, on a copy of
# tests/lsp/ whose variant has a slip and two lines out of layout: the
# filetype is regula (Neovim calls *.rules `hog`), regula's syntax is
# loaded, the server's diagnostic of the slip arrives at its place,
# formatting gives fmt's layout, and definition on a rule's name in
# `override rule "..." in deploy` jumps to the rule in base.rules.  A
# Snort rule file keeps Neovim's `hog`.  Prints "nvim: N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 2
regula=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if ! command -v nvim >/dev/null 2>&1; then
  echo "nvim: installing neovim from Debian's packages" >&2
  tools/apt.sh -n neovim 2>/dev/null
  if ! command -v nvim >/dev/null 2>&1; then
    echo "nvim: SKIPPED: neovim could not be installed here" >&2
    exit 0
  fi
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-nvim.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/config" "$tmp/data" "$tmp/state" "$tmp/work"
ln -s "$regula" "$tmp/bin/regula"
cp tests/lsp/base.rules tests/lsp/cover.tsv "$tmp/work/"

# the variant as fmt lays it out (with the slip), and out of layout
sed 's/^const wide = reach \* 2$/const wide = reach * 2\nconst bad = nosuch + 1/' tests/lsp/variant.rules >"$tmp/want.rules"
sed -e 's/^const wide = reach \* 2$/const   wide=reach*2/' -e 's/^const bad = nosuch + 1$/const bad  =  nosuch+1/' \
  "$tmp/want.rules" >"$tmp/work/variant.rules"
cmp -s "$tmp/want.rules" "$tmp/work/variant.rules" && { echo "nvim: the messy copy is not messy"; exit 1; }
printf 'alert tcp any any -> any 80 (msg:"x";)\n' >"$tmp/work/snort.rules"

# init.lua: the runtimepath as the manual says, then its snippet
{
  printf 'vim.opt.runtimepath:append("%s/editors/vim")\n' "$(pwd)"
  awk '/^- \*\*Neovim\*\*/ { on = 1 } on && /^  ```lua/ { code = 1; next }
       code && /^  ```/ { exit } code { sub(/^  /, ""); print }' docs/manual.md
} >"$tmp/init.lua"
grep -q 'regula' "$tmp/init.lua" || { echo "nvim: no Lua snippet found in docs/manual.md"; exit 1; }

base_row=$(awk '/rule "nobody outscouted"/ && !/override/ { print NR - 1; exit }' tests/lsp/base.rules)
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state"
export PATH="$tmp/bin:$PATH" NVIM_CHECK_OUT="$tmp/out" NVIM_CHECK_BASE_ROW="$base_row"
NVIM_CHECK_WANT=$(cat "$tmp/want.rules"; printf x)
NVIM_CHECK_WANT=${NVIM_CHECK_WANT%x}
export NVIM_CHECK_WANT
check_lua=$(pwd)/tests/nvim/check.lua
(cd "$tmp/work" && timeout 60 nvim --headless -n -i NONE -u "$tmp/init.lua" variant.rules \
  -c "luafile $check_lua" >"$tmp/nvim.log" 2>&1) || :
# a Snort rule file keeps Neovim's own type
(cd "$tmp/work" && timeout 30 nvim --headless -n -i NONE -u "$tmp/init.lua" snort.rules \
  -c 'lua io.open(os.getenv("NVIM_CHECK_OUT") .. ".hog", "w"):write(vim.bo.filetype .. "\n")' \
  -c 'qa!' >/dev/null 2>&1) || :
if [ "$(cat "$tmp/out.hog" 2>/dev/null)" = hog ]; then echo "ok a Snort file stays hog" >>"$tmp/out"
else echo "FAIL a Snort file stays hog: $(cat "$tmp/out.hog" 2>/dev/null)" >>"$tmp/out"; fi

[ -s "$tmp/out" ] || { echo "nvim: FAIL no result from Neovim:"; sed 's/^/  /' "$tmp/nvim.log"; exit 1; }
grep -v "^ok" "$tmp/out" | sed "s/^/nvim: /"
pass=$(grep -c '^ok' "$tmp/out")
fail=$(grep -c '^FAIL' "$tmp/out")
# every check of check.lua must have reported (a crash part-way leaves fewer)
if [ $((pass + fail)) -lt 7 ]; then
  echo "nvim: FAIL only $((pass + fail)) of 7 checks reported"; sed 's/^/  /' "$tmp/nvim.log"
  fail=$((fail + 1))
fi
echo "nvim: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
