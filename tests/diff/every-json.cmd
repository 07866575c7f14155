regula diff --json tests/diff/every-base.rules tests/diff/every-variant.rules
