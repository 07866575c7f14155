regula run tests/run/skirmish.rules --dice loaded
