regula run tests/run/display-override.rules
