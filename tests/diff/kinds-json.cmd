regula diff tests/diff/kinds-base.rules tests/diff/kinds-revised.rules --json
