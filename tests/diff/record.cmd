regula diff tests/diff/record-base.rules tests/diff/record-variant.rules
