regula run tests/run/skirmish.rules --seed 1 --policy first
