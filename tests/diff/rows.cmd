regula diff tests/diff/rows-base.rules tests/diff/rows-variant.rules
