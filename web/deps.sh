#!/bin/sh
# Installs what the page needs, when missing.
#
#   web/deps.sh build DIR   emscripten (emcc) from Debian's packages, and the
#                           sources of utf8proc and jansson, the versions the
#                           native build links (libutf8proc-dev,
#                           libjansson-dev), unpacked into DIR, by `apt-get
#                           source` with a private source list (the machine's
#                           apt configuration is left alone)
#   web/deps.sh test        also chromium, npm and python3 from Debian's
#                           packages, and the test driver (playwright-core,
#                           pinned by web/package-lock.json) with `npm ci`
#
# Nothing here downloads a browser: the tests drive Debian's chromium.
# Uses sudo when not root.
set -e
what=${1:-test}
dir=${2:-build/web-deps}

missing=""
command -v emcc >/dev/null 2>&1 || missing="$missing emscripten"
if [ "$what" = test ]; then
  command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
  command -v npm >/dev/null 2>&1 || missing="$missing npm"
  command -v python3 >/dev/null 2>&1 || missing="$missing python3"
fi
if [ -n "$missing" ]; then
  echo "regula: installing$missing from Debian's packages" >&2
  "$(dirname "$0")/../tools/apt.sh" $missing || {
    echo "regula: could not install$missing; install them with apt-get and retry" >&2
    exit 1
  }
fi

# fetch SRCPKG BINPKG: downloads the Debian source of SRCPKG, at the version
# of the installed BINPKG when there is one, and unpacks its upstream tarball
# into $apt/src.
fetch() {
  ver=$(dpkg-query -W -f='${Version}' "$2" 2>/dev/null || true)
  echo "regula: fetching the source of $1 ${ver:-(newest)} from Debian" >&2
  # shellcheck disable=SC2086
  (cd "$apt/src" && { apt-get -qq $o source --download-only "$1${ver:+=$ver}" ||
                      apt-get -qq $o source --download-only "$1"; } >/dev/null 2>&1)
  tar -xzf "$apt"/src/"$1"_*.orig.tar.gz -C "$apt/src"
}

if [ "$what" = build ] && { [ ! -f "$dir/utf8proc/utf8proc.c" ] ||
                            [ ! -f "$dir/jansson/jansson_config.h" ]; }; then
  apt=$(mktemp -d)
  trap 'rm -rf "$apt"' EXIT
  mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache" "$apt/src"
  : >"$apt/none.list"
  cat >"$apt/parts/src.sources" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  o="-o APT::Sandbox::User=root -o Dir::Etc::SourceList=$apt/none.list -o Dir::Etc::SourceParts=$apt/parts
     -o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache"
  # shellcheck disable=SC2086
  apt-get -qq $o update >/dev/null
  if [ ! -f "$dir/utf8proc/utf8proc.c" ]; then
    fetch utf8proc libutf8proc-dev
    mkdir -p "$dir/utf8proc"
    for f in utf8proc.c utf8proc.h utf8proc_data.c LICENSE.md; do
      cp "$apt"/src/utf8proc-*/"$f" "$dir/utf8proc/$f"
    done
  fi
  if [ ! -f "$dir/jansson/jansson_config.h" ]; then
    # jansson: its src/*.c and headers; jansson_config.h is what its
    # configure would write for a C99 compiler (inline, long long, no
    # locale: the page's decimal point is always '.').
    fetch jansson libjansson-dev
    mkdir -p "$dir/jansson"
    cp "$apt"/src/jansson-*/src/*.c "$apt"/src/jansson-*/src/*.h "$apt"/src/jansson-*/LICENSE \
       "$dir/jansson/"
    sed -e 's/@json_inline@/inline/' -e 's/@json_have_long_long@/1/' \
        -e 's/@json_have_localeconv@/0/' -e 's/@json_have_atomic_builtins@/1/' \
        -e 's/@json_have_sync_builtins@/1/' \
        "$apt"/src/jansson-*/src/jansson_config.h.in > "$dir/jansson/jansson_config.h.tmp"
    # jansson_private_config.h from its CMake template: every header and
    # function it asks about is there under Emscripten; no urandom or
    # Windows seeding (the hash seed only spreads keys, it orders nothing).
    sed -e '/USE_URANDOM\|USE_WINDOWS_CRYPTOAPI/d' -e 's/^#cmakedefine \([A-Z0-9_]*\) 1/#define \1 1/' \
        -e 's/@JANSSON_INITIAL_HASHTABLE_ORDER@/3/' \
        "$apt"/src/jansson-*/cmake/jansson_private_config.h.cmake > "$dir/jansson/jansson_private_config.h"
    mv "$dir/jansson/jansson_config.h.tmp" "$dir/jansson/jansson_config.h"
  fi
fi

if [ "$what" = test ] && [ ! -d web/node_modules/playwright-core ]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix web --no-audit --no-fund --silent || {
    echo "regula: npm ci in web/ failed" >&2
    exit 1
  }
fi
exit 0
