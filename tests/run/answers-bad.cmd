regula run tests/run/skirmish.rules --policy answers:tests/run/bad.answers
