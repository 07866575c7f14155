regula diff tests/diff/oneside-variant.rules tests/diff/oneside-base.rules
