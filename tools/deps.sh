#!/bin/sh
# Installs what regula needs to build, from Debian's packages, when missing:
# re2c, lemon, libutf8proc-dev, libjansson-dev (JSON), python3 and librsvg2-bin (rsvg-convert, for
# the picture tests).  Uses sudo when not root.
missing=""
command -v re2c >/dev/null 2>&1 || missing="$missing re2c"
command -v lemon >/dev/null 2>&1 || missing="$missing lemon"
[ -f /usr/share/lemon/lempar.c ] || missing="$missing lemon"
[ -f /usr/include/utf8proc.h ] || missing="$missing libutf8proc-dev"
[ -f /usr/include/jansson.h ] || missing="$missing libjansson-dev"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
# rsvg-convert renders the pictures in the tests (tests/svg) and `make pictures`
command -v rsvg-convert >/dev/null 2>&1 || missing="$missing librsvg2-bin"
[ -z "$missing" ] && exit 0
echo "regula: installing$missing from Debian's packages" >&2
"$(dirname "$0")/apt.sh" $missing || {
  echo "regula: could not install$missing; install them with apt-get and retry" >&2
  exit 1
}
