regula sim --variants tests/run/strategy.rules,tests/run/crn-base.rules --policy bold --runs 40
