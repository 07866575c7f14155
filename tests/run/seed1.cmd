regula run tests/run/skirmish.rules
