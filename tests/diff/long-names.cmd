regula diff tests/diff/long-names-base.rules tests/diff/long-names-revision.rules
