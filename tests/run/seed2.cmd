regula run tests/run/skirmish.rules --seed 2
