regula diff --stat tests/diff/runs-base.rules tests/diff/runs-variant.rules
