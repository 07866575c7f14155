regula diff tests/diff/signature-base.rules tests/diff/signature-variant.rules
