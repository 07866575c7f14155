regula diff tests/diff/gridrows-base.rules tests/diff/gridrows-variant.rules
