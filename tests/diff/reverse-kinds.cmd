regula diff tests/diff/kinds-revised.rules tests/diff/kinds-base.rules
