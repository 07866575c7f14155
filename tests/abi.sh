#!/bin/sh
# tests/abi.sh LIBREGULA.so: what the shared library promises.
#   - `nm -D --defined-only` lists only what interp/regula.h and
#     interp/regula_front.h declare REGULA_API (no internal rgi_ name, no
#     rg_ name the headers do not declare, nothing of jansson's);
#   - every function the headers declare is exported (none forgotten);
#   - regula.h, the core an embedder learns, declares at most 60 functions
#     (the count is printed);
#   - the soname is libregula.so.MAJOR, MAJOR from REGULA_VERSION;
#   - every function that returns an rg_status and writes to an rg_out
#     `out` is in tests/unit/test_outfail.c's table, which holds it to the
#     rule of regula.h's rg_out (RG_IO when out failed).
# Prints "abi: N passed, M failed".
cd "$(dirname "$0")/.." || exit 2
lib=${1:-build/libregula.so}
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "abi: FAIL: $*"; }
MAX=60

# declared NAME...: the names the header files declare REGULA_API: the
# identifier before the first '(' of a function's declaration, or before
# the ';' of a variable's, the declaration read up to its ';'.
declared() {
  awk '
    /^REGULA_API/ { d = ""; on = 1 }
    on { d = d " " $0; if (index($0, ";")) { on = 0; print d } }
  ' "$@" | sed -n '
    s/^ *REGULA_API[^(]*[^A-Za-z0-9_(]\([A-Za-z_][A-Za-z0-9_]*\) *(.*/\1/p; t
    s/^ *REGULA_API.*[^A-Za-z0-9_]\([A-Za-z_][A-Za-z0-9_]*\) *;.*/\1/p' | LC_ALL=C sort -u
}

declared interp/regula.h interp/regula_front.h >"$tmp/declared"
# (a sanitizer's build adds __odr_asan.NAME beside each exported variable;
# a --coverage build, `make coverage`, links libgcov's __gcov_* and mangle_path)
nm -D --defined-only "$lib" |
  awk '$2 ~ /^[TDBRVW]$/ && $3 !~ /^(__odr_asan|__gcov_)/ && $3 != "mangle_path" { print $3 }' |
  LC_ALL=C sort -u >"$tmp/exported"
[ -s "$tmp/exported" ] || { echo "abi: FAIL: $lib exports nothing (or nm failed)"; exit 1; }

extra=$(LC_ALL=C comm -13 "$tmp/declared" "$tmp/exported")
[ -z "$extra" ] && ok || bad "$lib exports what no header declares: $(echo $extra | cut -c1-300)"
missing=$(LC_ALL=C comm -23 "$tmp/declared" "$tmp/exported")
[ -z "$missing" ] && ok || bad "declared REGULA_API but not exported: $(echo $missing)"
grep -q '^rgi_' "$tmp/exported" && bad "an internal rgi_ name is exported" || ok

# the core's functions (rg_file_loader, a variable, is not one)
core=$(awk '/^REGULA_API/ { d = ""; on = 1 } on { d = d " " $0; if (index($0, ";")) { on = 0; print d } }' \
  interp/regula.h | grep -c '(')
echo "abi: regula.h declares $core functions (at most $MAX)"
[ "$core" -le "$MAX" ] && ok || bad "regula.h declares $core functions, more than $MAX"
# the count is right: each REGULA_API function of regula.h is one name
n=$(declared interp/regula.h | grep -vx rg_file_loader | wc -l)
[ "$n" = "$core" ] && ok || bad "regula.h: $core declarations but $n names"

# the writers: REGULA_API rg_status NAME(... rg_out *out ...)
writers=$(awk '/^REGULA_API/ { d = ""; on = 1 } on { d = d " " $0; if (index($0, ";")) { on = 0; print d } }' \
  interp/regula.h interp/regula_front.h |
  sed -n 's/^ *REGULA_API rg_status \([a-z_]*\) *(.*rg_out \*out[,)].*/\1/p')
[ -n "$writers" ] && ok || bad "no writer found in the headers"
for w in $writers; do
  grep -q "\"$w[\" ]" tests/unit/test_outfail.c && ok ||
    bad "$w writes to an rg_out but is not in tests/unit/test_outfail.c's table"
done

major=$(sed -n 's/^#define REGULA_VERSION "\([0-9]*\)\..*/\1/p' interp/regula.h)
so=$(readelf -d "$lib" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$so" = "libregula.so.$major" ] && ok || bad "soname '$so', not libregula.so.$major"

echo "abi: $(wc -l <"$tmp/exported") symbols exported; $pass passed, $fail failed"
[ "$fail" -eq 0 ]
