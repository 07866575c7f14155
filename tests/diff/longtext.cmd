regula diff tests/diff/longtext-base.rules tests/diff/longtext-variant.rules
