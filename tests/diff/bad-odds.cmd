regula diff --odds shifted=3 tests/diff/odds-base.rules tests/diff/odds-variant.rules
