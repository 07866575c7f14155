regula run tests/run/checks.rules --proc nothing
