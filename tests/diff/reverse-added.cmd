regula diff tests/diff/added-revision.rules tests/diff/added-base.rules
