regula run tests/run/checks.rules
