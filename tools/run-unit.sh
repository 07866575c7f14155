#!/bin/sh
# Runs each unit test program; each prints its own failures and exits non-zero on any.
status=0
for t in "$@"; do
  if ! "$t"; then echo "unit: FAIL $t"; status=1; fi
done
exit $status
