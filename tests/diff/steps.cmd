regula diff tests/diff/steps-base.rules tests/diff/steps-variant.rules
