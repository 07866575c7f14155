regula diff tests/diff/keykind-base.rules tests/diff/keykind-variant.rules
