regula run tests/run/skirmish.rules --policy first --set bag=PURPLE:2
