regula diff tests/diff/titles-base.rules tests/diff/titles-variant.rules
