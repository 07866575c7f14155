regula diff tests/diff/nohelper-base.rules tests/diff/nohelper-variant.rules
