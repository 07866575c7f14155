regula run tests/run/skirmish.rules --json --seed 7
