#!/bin/sh
# tests/install.sh: `make install PREFIX=DIR` into a temporary directory, then
# the installed program runs, its manual page reads with man -l, the bundled
# rule files check, and `make uninstall` removes what install put there and
# nothing else: a file of the user's under share/regula/ stays, no empty
# folder install made is left, a file install made and the user changed
# stays, a manifest naming a path outside PREFIX removes nothing there.  A
# DESTDIR with a space installs into that folder (not into the source tree,
# not beside it) and uninstalls from it, and so does one with quotes, a
# dollar and a semicolon; a relative PREFIX is refused with nothing touched.
# The library installs with its links, headers and regula.pc, and
# examples/embed.c and tally.c build against it through pkg-config and run.
# Prints "install: N passed, M failed".
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "install: FAIL: $*"; }
mk() { make --no-print-directory -s "$@" >"$tmp/log" 2>&1; }
# the source tree's files, tracked or not, but for build/
tree_state() { git status --porcelain --ignored --untracked-files=all 2>/dev/null | grep -v ' build/'; }
before=$(tree_state)

mk install PREFIX="$tmp/usr" || { cat "$tmp/log"; bad "make install"; }
v=$("$tmp/usr/bin/regula" --version 2>&1); rc=$?
case $rc:$v in "0:regula "[0-9]*) ok ;; *) bad "installed regula --version exits $rc and says: $v" ;; esac
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
# the manifest lists every file install put there, and the folders it made
m=$tmp/usr/share/regula/MANIFEST
n=$(find "$tmp/usr" -type f | wc -l)
l=$(grep -c '^f ' "$m" 2>/dev/null)
[ "$n" = "$l" ] && ok || bad "manifest lists $l files, install made $n"
grep -qxF "d $tmp/usr/share/vim/vimfiles/ftdetect" "$m" && ok || bad "manifest does not list the folder ftdetect"

# ---- uninstall: exactly what install made ------------------------------------
mkdir -p "$tmp/usr/share/regula/rules/mine"
echo 'const mine = 1' >"$tmp/usr/share/regula/rules/mine/mine.rules"
echo 'keep' >"$tmp/usr/share/regula/rules/notes.txt"
mk uninstall PREFIX="$tmp/usr" || bad "make uninstall: $(cat "$tmp/log")"
[ -f "$tmp/usr/share/regula/rules/mine/mine.rules" ] && [ -f "$tmp/usr/share/regula/rules/notes.txt" ] &&
  ok || bad "uninstall removed the user's own files under share/regula/rules"
grep -q 'rules/ (not empty)' "$tmp/log" && ok || bad "uninstall does not say it left share/regula/rules: $(cat "$tmp/log")"
left=$(find "$tmp/usr" -type f ! -path '*/share/regula/rules/mine/mine.rules' ! -path '*/share/regula/rules/notes.txt')
[ -z "$left" ] && ok || bad "uninstall left: $(printf '%s\n' "$left" | head -3)"
empty=$(find "$tmp/usr" -type d -empty)
[ -z "$empty" ] && ok || bad "uninstall left empty folders: $(printf '%s\n' "$empty" | head -3)"
# (the folders kept for the user's files are the user's now)
rm -r "$tmp/usr"
# twice, one uninstall, and nothing is left but what was there before ($tmp)
mk install PREFIX="$tmp/usr" || bad "make install, second time"
mk install PREFIX="$tmp/usr" || bad "make install over an install"
mk uninstall PREFIX="$tmp/usr" || bad "make uninstall, second time"
[ ! -e "$tmp/usr" ] && ok || bad "uninstall left $(find "$tmp/usr" | head -3)"

# an installed file the user changed stays, and so does the manifest
mk install PREFIX="$tmp/usr" || bad "make install, third time"
echo '# my change' >>"$tmp/usr/share/regula/rules/meg/magna.rules"
mk uninstall PREFIX="$tmp/usr"
grep -q 'magna.rules (changed since install)' "$tmp/log" && [ -f "$tmp/usr/share/regula/rules/meg/magna.rules" ] &&
  ok || bad "uninstall removed or did not report a changed file: $(cat "$tmp/log")"
[ "$(find "$tmp/usr" -type f | wc -l)" -eq 2 ] && ok || bad "uninstall left $(find "$tmp/usr" -type f)"
rm -rf "$tmp/usr"

# a manifest naming a path outside PREFIX removes nothing there
echo 'outside' >"$tmp/outside"
mk install PREFIX="$tmp/usr" || bad "make install, fourth time"
printf 'f %s %s\nd %s\n' "$(sha256sum <"$tmp/outside" | cut -c1-64)" "$tmp/usr/../outside" "$tmp/usr/.." >>"$tmp/usr/share/regula/MANIFEST"
printf 'f %s %s\n' "$(sha256sum <"$tmp/outside" | cut -c1-64)" "$tmp/outside" >>"$tmp/usr/share/regula/MANIFEST"
mk uninstall PREFIX="$tmp/usr"
[ -f "$tmp/outside" ] && ok || bad "uninstall removed a file outside PREFIX that the manifest named"
grep -q 'outside (not under PREFIX' "$tmp/log" && ok || bad "uninstall did not say it left the outside path: $(cat "$tmp/log")"
rm -rf "$tmp/usr"

# ---- a space in DESTDIR ---------------------------------------------------------
mkdir -p "$tmp/x/my stage"
echo 'mine' >"$tmp/x/my"
mk install DESTDIR="$tmp/x/my stage" PREFIX=/usr || bad "make install DESTDIR='my stage': $(cat "$tmp/log")"
"$tmp/x/my stage/usr/bin/regula" --version >/dev/null 2>&1 && ok || bad "DESTDIR with a space: no bin/regula in it"
[ "$(ls "$tmp/x")" = "$(printf 'my\nmy stage')" ] && ok || bad "DESTDIR with a space: made $(ls "$tmp/x")"
mk uninstall DESTDIR="$tmp/x/my stage" PREFIX=/usr || bad "make uninstall DESTDIR='my stage': $(cat "$tmp/log")"
[ "$(cat "$tmp/x/my" 2>/dev/null)" = mine ] && ok || bad "uninstall with DESTDIR='$tmp/x/my stage' removed $tmp/x/my"
[ -z "$(ls -A "$tmp/x/my stage")" ] && ok || bad "uninstall left in the stage: $(ls -A "$tmp/x/my stage")"
[ "$(tree_state)" = "$before" ] && ok || bad "install touched the source tree: $(tree_state)"

# quotes, a dollar and a semicolon are ordinary characters too
q="$tmp/q'x \"y \$z;w"
mkdir -p "$q"
mk install DESTDIR="$q" PREFIX=/opt/r && [ -x "$q/opt/r/bin/regula" ] && ok ||
  bad "make install DESTDIR='$q': $(cat "$tmp/log")"
mk uninstall DESTDIR="$q" PREFIX=/opt/r && [ -z "$(ls -A "$q")" ] && ok ||
  bad "make uninstall DESTDIR='$q': $(cat "$tmp/log"; ls -A "$q")"

# ---- the library: built against the installed copy through pkg-config ------------
# make install DESTDIR=STAGE PREFIX=/usr, then examples/embed.c and
# examples/tally.c compiled with `pkg-config --cflags --libs regula` (its
# file found in the stage, its paths moved there by PKG_CONFIG_SYSROOT_DIR),
# away from the source tree, and run against the installed libregula.so:
# the same output as examples/*.expected.  Uninstall leaves the stage empty.
st="$tmp/stage"
mkdir -p "$st" "$tmp/away"
mk install DESTDIR="$st" PREFIX=/usr || bad "make install DESTDIR=stage: $(cat "$tmp/log")"
lib=$(ls "$st/usr/lib/libregula.so."*.*.* 2>/dev/null)
major=$(printf '%s' "${lib##*.so.}" | cut -d. -f1)
[ -f "$lib" ] && [ "$(readlink "$st/usr/lib/libregula.so")" = "${lib##*/}" ] &&
  [ "$(readlink "$st/usr/lib/libregula.so.$major")" = "${lib##*/}" ] &&
  ok || bad "libregula.so.X.Y.Z and its links not installed: $(ls "$st/usr/lib")"
[ -f "$st/usr/include/regula.h" ] && [ -f "$st/usr/include/regula_front.h" ] && ok ||
  bad "the headers are not installed"
if command -v pkg-config >/dev/null 2>&1; then
  flags=$(PKG_CONFIG_PATH="$st/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$st" \
          pkg-config --cflags --libs regula 2>"$tmp/pc.err")
  case " $flags " in *" -pthread "*) ok ;; *) bad "pkg-config --libs regula lacks -pthread: $flags" ;; esac
  static=$(PKG_CONFIG_PATH="$st/usr/lib/pkgconfig" pkg-config --static --libs regula 2>/dev/null)
  case " $static " in *" -ljansson "*) case " $static " in *" -lutf8proc "*) ok ;;
    *) bad "pkg-config --static --libs regula lacks -lutf8proc: $static" ;; esac ;;
    *) bad "pkg-config --static --libs regula lacks -ljansson: $static" ;; esac
  for e in embed tally; do
    cp "examples/$e.c" "$tmp/away/$e.c"
    # shellcheck disable=SC2086 # the flags are words
    if (cd "$tmp/away" && ${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$e" "$e.c" $flags) \
         >"$tmp/cc.log" 2>&1; then
      LD_LIBRARY_PATH="$st/usr/lib" "$tmp/away/$e" >"$tmp/away/$e.out" 2>&1 &&
        cmp -s "$tmp/away/$e.out" "examples/$e.expected" && ok ||
        bad "$e against the installed library: $(head -3 "$tmp/away/$e.out")"
      LD_LIBRARY_PATH="$st/usr/lib" ldd "$tmp/away/$e" | grep -qF "$st/usr/lib/libregula.so" && ok ||
        bad "$e does not load the installed libregula.so"
    else
      bad "examples/$e.c does not build with pkg-config --cflags --libs regula: $(head -5 "$tmp/cc.log")"
    fi
  done
else
  bad "no pkg-config to build the examples against the installed library"
fi
mk uninstall DESTDIR="$st" PREFIX=/usr && [ -z "$(ls -A "$st")" ] && ok ||
  bad "make uninstall DESTDIR=stage left: $(find "$st" | head -5)"

# ---- a relative PREFIX is refused, nothing touched -------------------------------
mk install PREFIX="rel/usr" DESTDIR="$tmp/r" && bad "make install PREFIX=rel/usr succeeded"
grep -q 'PREFIX must be an absolute path' "$tmp/log" && ok || bad "relative PREFIX: $(cat "$tmp/log")"
[ ! -e "$tmp/r" ] && [ ! -e rel ] && ok || bad "a refused install made a folder"

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
