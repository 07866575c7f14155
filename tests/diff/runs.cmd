regula diff tests/diff/runs-base.rules tests/diff/runs-variant.rules
