regula diff tests/diff/display-base.rules tests/diff/display-revised.rules
