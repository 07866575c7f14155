regula run tests/run/display-64-columns.rules
