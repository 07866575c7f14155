regula diff tests/diff/odds-base.rules tests/diff/odds-variant.rules --odds shifted=2d6-2
