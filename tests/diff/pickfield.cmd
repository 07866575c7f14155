regula diff tests/diff/pickfield-base.rules tests/diff/pickfield-variant.rules
