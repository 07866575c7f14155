regula diff tests/diff/every-variant.rules tests/diff/every-base.rules
