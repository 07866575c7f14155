regula run tests/run/skirmish.rules --policy sometimes
