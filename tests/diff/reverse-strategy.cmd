regula diff tests/diff/strategy-revised.rules tests/diff/strategy-base.rules
