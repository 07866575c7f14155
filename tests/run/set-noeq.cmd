regula run tests/run/skirmish.rules --set cards
