#!/bin/sh
# tools/install.sh install|uninstall: `make install` and `make uninstall`.
#
# Reads DESTDIR, PREFIX, BUILD and SO_VERSION from the environment (the Makefile exports
# them), never from a command line a shell re-splits: every path is quoted,
# so a space or a quote in DESTDIR or PREFIX is an ordinary character.  A
# PREFIX that is not absolute, or either holding a newline, is refused
# before anything is touched.
#
# install copies the files listed in install_files below under
# DESTDIR+PREFIX and writes a manifest, PREFIX/share/regula/MANIFEST, of
# what it created: each directory that was not there before ("d PATH"),
# each file with its SHA-256 ("f SUM PATH") and each symbolic link with its
# target ("l TARGET PATH"), PATH being the full installed path less
# DESTDIR.  Installing again over an install keeps the earlier
# entries that are still there.
#
# uninstall removes exactly what the manifest lists: a file only while its
# contents are the ones installed, a link only while it points where it
# did, a directory only when it is empty; it
# says what it removed and what it left (a file of yours in share/regula/
# keeps its folder).  Without a manifest it removes nothing.
set -u
what=${1:-}
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
BUILD=${BUILD:-build}
SO_VERSION=${SO_VERSION:-}
nl='
'
refuse() { echo "regula: $what: $*; nothing was installed or removed" >&2; exit 2; }
case $what in install|uninstall) ;; *) echo "usage: tools/install.sh install|uninstall" >&2; exit 2 ;; esac
case $PREFIX in /*) ;; *) refuse "PREFIX must be an absolute path, not '$PREFIX'" ;; esac
case $DESTDIR$PREFIX in *"$nl"*) refuse "DESTDIR and PREFIX cannot hold a newline" ;; esac
case /$PREFIX/ in */../*|*/./*) refuse "PREFIX cannot hold a '.' or '..' component: '$PREFIX'" ;; esac
PREFIX=$(printf '%s' "$PREFIX" | sed 's#//*#/#g; s#\(.\)/$#\1#')
[ "$PREFIX" = / ] && PREFIX=
root=$DESTDIR$PREFIX
manifest=$PREFIX/share/regula/MANIFEST

# ---- what install puts where ---------------------------------------------
# One line a file: `file MODE SOURCE DEST` (DEST under PREFIX); `tree SRCDIR
# DESTDIR` installs every file under SRCDIR.  Adding a file is one line here.
install_files() {
  file 0755 "$BUILD/regula"                          bin/regula
  # the library: libregula.so.X.Y.Z, its soname's link and the link a
  # program links by; the headers; pkg-config's file (made for PREFIX)
  file 0755 "$BUILD/libregula.so.$SO_VERSION"        "lib/libregula.so.$SO_VERSION"
  link "libregula.so.$SO_VERSION"                    "lib/libregula.so.${SO_VERSION%%.*}"
  link "libregula.so.$SO_VERSION"                    lib/libregula.so
  file 0644 interp/regula.h                          include/regula.h
  file 0644 interp/regula_front.h                    include/regula_front.h
  pc >"$tmp/regula.pc" || exit 3
  file 0644 "$tmp/regula.pc"                         lib/pkgconfig/regula.pc
  file 0644 "$BUILD/regula.1"                        share/man/man1/regula.1
  file 0644 editors/bash/regula                      share/bash-completion/completions/regula
  for d in syntax ftdetect ftplugin; do
    file 0644 "editors/vim/$d/regula.vim"            "share/vim/vimfiles/$d/regula.vim"
  done
  file 0644 editors/vscode/package.json              share/regula/editors/vscode/package.json
  file 0644 editors/vscode/language-configuration.json \
                                                     share/regula/editors/vscode/language-configuration.json
  file 0644 editors/vscode/syntaxes/regula.tmLanguage.json \
                                                     share/regula/editors/vscode/syntaxes/regula.tmLanguage.json
  tree rules                                         share/regula/rules
  tree tables                                        share/regula/tables
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-install.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/new"

# sum FILE: its SHA-256 (hex).
sum() { sha256sum <"$1" | cut -c1-64; }

# dirs PATH: creates the directories of PATH (under DESTDIR) that are not
# there, parents first, each listed in the manifest.
dirs() {
  rest=${1#/}
  at=
  while [ -n "$rest" ]; do
    at=$at/${rest%%/*}
    case $rest in */*) rest=${rest#*/} ;; *) rest= ;; esac
    if [ ! -d "$DESTDIR$at" ]; then
      mkdir "$DESTDIR$at" || return 1
      printf 'd %s\n' "$at" >>"$tmp/new"
    fi
  done
}

# file MODE SRC DEST: installs SRC as PREFIX/DEST.
file() {
  dest=$PREFIX/$3
  dirs "${dest%/*}" || exit 3
  install -m "$1" "$2" "$DESTDIR$dest" || exit 3
  printf 'f %s %s\n' "$(sum "$DESTDIR$dest")" "$dest" >>"$tmp/new"
}

# link TARGET DEST: makes PREFIX/DEST a symbolic link to TARGET (a name in
# the same folder).
link() {
  dest=$PREFIX/$2
  dirs "${dest%/*}" || exit 3
  ln -sfn "$1" "$DESTDIR$dest" || exit 3
  printf 'l %s %s\n' "$1" "$dest" >>"$tmp/new"
}

# pc: writes pkg-config's regula.pc for PREFIX: -pthread (the library
# starts threads); utf8proc and jansson as private libraries (for a static
# link: --static), not as Requires.private, whose Cflags would reach every
# embedder's compile.
pc() {
  printf '%s\n' "prefix=$PREFIX" 'libdir=${prefix}/lib' 'includedir=${prefix}/include' '' \
    'Name: regula' \
    'Description: runs wargame quick reference sheets transcribed as rule files' \
    "Version: $SO_VERSION" \
    'Cflags: -I${includedir}' \
    'Libs: -L${libdir} -lregula -pthread' \
    'Libs.private: -lutf8proc -ljansson -lm'
}

# tree SRCDIR DEST: installs every file under SRCDIR (mode 0644) under
# PREFIX/DEST, in a fixed order.
tree() {
  find "$1" -type f | LC_ALL=C sort >"$tmp/tree"
  while IFS= read -r f; do
    file 0644 "$f" "$2/${f#"$1"/}"
  done <"$tmp/tree"
}

# The manifest's entries from an earlier install that are still there and
# not installed again, appended to the new list; then the list is written
# (through a temporary file) as the manifest.  Runs however install ends.
finish() {
  if [ -f "$DESTDIR$manifest" ]; then
    while IFS= read -r line; do
      case $line in
      "f - "*) continue ;;                            # the manifest: added below
      "d "*) p=${line#d }; [ -d "$DESTDIR$p" ] || continue ;;
      "f "*) p=${line#f * }; [ -f "$DESTDIR$p" ] || continue ;;
      "l "*) p=${line#l * }; [ -L "$DESTDIR$p" ] || continue ;;
      *) continue ;;
      esac
      sed 's/^d //; s/^[fl] [^ ]* //' "$tmp/new" | grep -qxF -e "$p" && continue
      printf '%s\n' "$line" >>"$tmp/new"
    done <"$DESTDIR$manifest"
  fi
  [ -d "$DESTDIR${manifest%/*}" ] || return 0
  printf 'f - %s\n' "$manifest" >>"$tmp/new"
  { echo "# regula: what make install created (d: a directory, f: a file and its SHA-256);"
    echo "# paths less DESTDIR.  make uninstall removes these and nothing else."
    cat "$tmp/new"; } >"$DESTDIR$manifest.tmp" && mv "$DESTDIR$manifest.tmp" "$DESTDIR$manifest"
}

# safe PATH KIND: whether a manifest's PATH is one uninstall may remove:
# absolute, no '.' or '..' component, and under PREFIX (a directory may
# also be PREFIX or one of its parents, which install created).
safe() {
  case $1/ in /*) ;; *) return 1 ;; esac
  case $1/ in */../*|*/./*|*//*) return 1 ;; esac
  case $1 in "$PREFIX"/?*) return 0 ;; esac
  [ "$2" = d ] && case $PREFIX/ in "$1"/*) return 0 ;; esac
  return 1
}

if [ "$what" = install ]; then
  trap 'finish; rm -rf "$tmp"' EXIT
  install_files
  echo "regula: installed under $root; the list is $root/share/regula/MANIFEST"
  exit 0
fi

# ---- uninstall ------------------------------------------------------------
if [ ! -f "$DESTDIR$manifest" ]; then
  echo "regula: uninstall: no $DESTDIR$manifest (was regula installed with this DESTDIR and PREFIX?); nothing removed" >&2
  exit 1
fi
removed=0
: >"$tmp/left"
: >"$tmp/dirs"
: >"$tmp/kept"
while IFS= read -r line; do
  case $line in
  "f - "*) ;;                                         # the manifest itself: last
  "f "*)
    s=${line#f }; s=${s%% *}; p=${line#f * }
    if ! safe "$p" f; then printf '%s (not under PREFIX: not removed)\n' "$p" >>"$tmp/left"
    elif [ ! -e "$DESTDIR$p" ] && [ ! -L "$DESTDIR$p" ]; then :
    elif [ -L "$DESTDIR$p" ] || [ ! -f "$DESTDIR$p" ] || [ "$(sum "$DESTDIR$p")" != "$s" ]; then
      printf '%s (changed since install)\n' "$DESTDIR$p" >>"$tmp/left"
      printf '%s\n' "$line" >>"$tmp/kept"
    elif rm -f "$DESTDIR$p"; then removed=$((removed + 1))
    else printf '%s (cannot remove)\n' "$DESTDIR$p" >>"$tmp/left"
      printf '%s\n' "$line" >>"$tmp/kept"
    fi ;;
  "l "*)
    t=${line#l }; t=${t%% *}; p=${line#l * }
    if ! safe "$p" f; then printf '%s (not under PREFIX: not removed)\n' "$p" >>"$tmp/left"
    elif [ ! -L "$DESTDIR$p" ]; then
      [ -e "$DESTDIR$p" ] && printf '%s (changed since install)\n' "$DESTDIR$p" >>"$tmp/left"
    elif [ "$(readlink "$DESTDIR$p")" != "$t" ]; then
      printf '%s (changed since install)\n' "$DESTDIR$p" >>"$tmp/left"
    elif rm -f "$DESTDIR$p"; then removed=$((removed + 1))
    else printf '%s (cannot remove)\n' "$DESTDIR$p" >>"$tmp/left"
    fi ;;
  "d "*) printf '%s\n' "${line#d }" >>"$tmp/dirs"
    printf '%s\n' "$line" >>"$tmp/kept" ;;
  esac
done <"$DESTDIR$manifest"
# The manifest goes unless an installed file stays (changed since install):
# then it lists what stays, for an uninstall once you have dealt with it.
if grep -q '^f ' "$tmp/kept"; then
  { sed -n '/^#/p' "$DESTDIR$manifest"; cat "$tmp/kept"; printf 'f - %s\n' "$manifest"; } \
    >"$DESTDIR$manifest.tmp" && mv "$DESTDIR$manifest.tmp" "$DESTDIR$manifest"
else
  rm -f "$DESTDIR$manifest" && removed=$((removed + 1))
fi
# directories deepest first, each only when empty
rmd=0
LC_ALL=C sort -r "$tmp/dirs" >"$tmp/dirs.r"
while IFS= read -r p; do
  if ! safe "$p" d; then printf '%s (not under PREFIX: not removed)\n' "$p" >>"$tmp/left"
  elif [ ! -d "$DESTDIR$p" ] || [ -L "$DESTDIR$p" ]; then :
  elif rmdir "$DESTDIR$p" 2>/dev/null; then rmd=$((rmd + 1))
  else printf '%s/ (not empty)\n' "$DESTDIR$p" >>"$tmp/left"
  fi
done <"$tmp/dirs.r"
echo "regula: uninstall: removed $removed files and $rmd directories under $root"
if [ -s "$tmp/left" ]; then
  echo "regula: uninstall: left:"
  sed 's/^/  /' "$tmp/left"
fi
exit 0
