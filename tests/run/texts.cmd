regula run tests/run/checks.rules --proc texts
