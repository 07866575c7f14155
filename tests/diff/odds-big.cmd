regula diff tests/diff/odds-big-base.rules tests/diff/odds-big-revision.rules
