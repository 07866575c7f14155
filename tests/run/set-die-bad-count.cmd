regula run tests/run/skirmish.rules --policy first --set bag=RED:x
