regula diff tests/diff/odds-long-base.rules tests/diff/odds-long-revision.rules
