regula diff tests/diff/strategy-base.rules tests/diff/strategy-revised.rules
