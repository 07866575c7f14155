regula diff tests/diff/crlf-base.rules tests/diff/crlf-variant.rules
