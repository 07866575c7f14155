regula diff tests/diff/sameline-base.rules tests/diff/sameline-variant.rules
