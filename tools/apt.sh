#!/bin/sh
# tools/apt.sh [-n] PACKAGE...: installs Debian packages, through sudo when
# not root (-n: sudo may not ask for a password; it fails instead).  The
# one way regula's scripts install what they miss (the build, fuzzing,
# coverage, benchmarks, the editor, valgrind and page tests).  Installs run one at a time, behind a
# lock in $TMPDIR: the parts of `make test` run side by side, and two
# apt-get at once would meet in dpkg's lock and one would fail.  Tries the
# install with the package lists as they are, then again after
# `apt-get update`.  Prints only apt's errors; exits 1 when a package could
# not be installed.
n=""
if [ "${1:-}" = -n ]; then n=" -n"; shift; fi
[ $# -gt 0 ] || exit 0
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo$n"; fi
lock=${TMPDIR:-/tmp}/regula-apt.lock
if (: 9>>"$lock") 2>/dev/null && command -v flock >/dev/null 2>&1; then
  exec 9>>"$lock"
  flock 9
fi
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 || {
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null &&
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
