regula run tests/run/expect-loop.rules --json
