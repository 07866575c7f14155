# tests/counts.sh: sourced by shell tests (tests/fmt.sh, tests/unix.sh):
# a temporary folder $tmp, removed at exit; ok and bad NAME... to count
# checks (bad prints "NAME: FAIL ..."); finish NAME prints "NAME: N passed,
# M failed" and returns the status.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regula-test.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "${test_name:-test}: FAIL $*"; }
finish() {
  echo "$test_name: $passed passed, $failed failed"
  [ $failed = 0 ]
}
