regula run tests/run/skirmish.rules --dice ask --policy first
