regula diff tests/diff/recrename-base.rules tests/diff/recrename-variant.rules
