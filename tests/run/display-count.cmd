regula run tests/run/display-count.rules
