regula diff tests/diff/grid-base.rules tests/diff/grid-variant.rules
