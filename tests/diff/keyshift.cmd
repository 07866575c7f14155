regula diff tests/diff/keyshift-base.rules tests/diff/keyshift-variant.rules
