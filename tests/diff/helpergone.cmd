regula diff tests/diff/helpergone-base.rules tests/diff/helpergone-variant.rules
