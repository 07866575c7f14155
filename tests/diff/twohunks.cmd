regula diff tests/diff/twohunks-base.rules tests/diff/twohunks-variant.rules
