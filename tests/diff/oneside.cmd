regula diff tests/diff/oneside-base.rules tests/diff/oneside-variant.rules
