regula diff tests/diff/added-base.rules tests/diff/added-revision.rules
