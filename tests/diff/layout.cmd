regula diff tests/diff/layout-base.rules tests/diff/layout-variant.rules
