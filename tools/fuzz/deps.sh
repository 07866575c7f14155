#!/bin/sh
# Installs what `make fuzz` needs from Debian's packages when missing: clang
# and its runtime libraries (libFuzzer and the sanitizers are in
# libclang-rt-14-dev).  Uses sudo when not root.
missing=""
command -v clang >/dev/null 2>&1 || missing="$missing clang"
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 \
  || ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 \
  || missing="$missing libclang-rt-14-dev"
[ -z "$missing" ] && exit 0
echo "regula: installing$missing from Debian's packages" >&2
"$(dirname "$0")/../apt.sh" $missing || {
  echo "regula: could not install$missing; install them with apt-get and retry" >&2
  exit 1
}
