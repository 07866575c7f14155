regula run tests/run/checks.rules --proc expecting --seed 4
