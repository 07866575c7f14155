regula diff tests/diff/odds-helper-base.rules tests/diff/odds-helper-variant.rules
