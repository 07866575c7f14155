regula run tests/run/log-edges.rules
