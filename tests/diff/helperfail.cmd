regula diff tests/diff/helperfail-base.rules tests/diff/helperfail-variant.rules
