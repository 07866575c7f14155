regula run tests/run/display.rules --json
