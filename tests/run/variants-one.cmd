regula run --variants tests/run/crn-base.rules --seed 1
