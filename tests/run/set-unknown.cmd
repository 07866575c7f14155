regula run tests/run/skirmish.rules --set morale=high
