regula run --variants tests/run/crn-base.rules,tests/run/crn-extra.rules --seed 2 --json
