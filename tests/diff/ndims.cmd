regula diff tests/diff/ndims-base.rules tests/diff/ndims-variant.rules
