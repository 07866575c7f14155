regula diff tests/diff/rules-base.rules tests/diff/rules-revised.rules
