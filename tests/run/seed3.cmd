regula run tests/run/skirmish.rules --seed=3 --policy random
