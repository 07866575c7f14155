regula diff tests/diff/elserule-base.rules tests/diff/elserule-variant.rules
