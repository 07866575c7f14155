regula diff tests/diff/helper2-base.rules tests/diff/helper2-variant.rules
