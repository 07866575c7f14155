regula run tests/run/skirmish.rules --policy answers:tests/run/no-such.answers
