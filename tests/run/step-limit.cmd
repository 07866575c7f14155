regula run tests/run/skirmish.rules --max-steps 2
