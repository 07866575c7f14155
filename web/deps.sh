#!/bin/sh
# Installs what the page needs, when missing.
#
#   web/deps.sh build DIR   emscripten (emcc) from Debian's packages, and the
#                           source of utf8proc, the version the native build
#                           links (libutf8proc-dev), unpacked into DIR, by
#                           `apt-get source` with a private source list (the
#                           machine's apt configuration is left alone)
#   web/deps.sh test        also chromium, npm and python3 from Debian's
#                           packages, and the test driver (playwright-core,
#                           pinned by web/package-lock.json) with `npm ci`
#
# Nothing here downloads a browser: the tests drive Debian's chromium.
# Uses sudo when not root.
set -e
what=${1:-test}
dir=${2:-build/web-deps}
[ "$(id -u)" = 0 ] && sudo="" || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive

missing=""
command -v emcc >/dev/null 2>&1 || missing="$missing emscripten"
if [ "$what" = test ]; then
  command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
  command -v npm >/dev/null 2>&1 || missing="$missing npm"
  command -v python3 >/dev/null 2>&1 || missing="$missing python3"
fi
if [ -n "$missing" ]; then
  echo "regula: installing$missing from Debian's packages" >&2
  { $sudo apt-get update -qq && $sudo apt-get install -y -qq $missing; } >/dev/null || {
    echo "regula: could not install$missing; install them with apt-get and retry" >&2
    exit 1
  }
fi

if [ "$what" = build ] && [ ! -f "$dir/utf8proc/utf8proc.c" ]; then
  ver=$(dpkg-query -W -f='${Version}' libutf8proc-dev 2>/dev/null || true)
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
  echo "regula: fetching the source of utf8proc ${ver:-(newest)} from Debian" >&2
  # shellcheck disable=SC2086
  apt-get -qq $o update >/dev/null
  # shellcheck disable=SC2086
  (cd "$apt/src" && { apt-get -qq $o source --download-only "utf8proc${ver:+=$ver}" ||
                      apt-get -qq $o source --download-only utf8proc; } >/dev/null 2>&1)
  tar -xzf "$apt"/src/utf8proc_*.orig.tar.gz -C "$apt/src"
  mkdir -p "$dir/utf8proc"
  for f in utf8proc.c utf8proc.h utf8proc_data.c LICENSE.md; do
    cp "$apt"/src/utf8proc-*/"$f" "$dir/utf8proc/$f"
  done
fi

if [ "$what" = test ] && [ ! -d web/node_modules/playwright-core ]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix web --no-audit --no-fund --silent || {
    echo "regula: npm ci in web/ failed" >&2
    exit 1
  }
fi
exit 0
