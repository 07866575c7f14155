regula diff tests/diff/display-revised.rules tests/diff/display-base.rules
