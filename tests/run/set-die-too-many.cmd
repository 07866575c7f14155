regula run tests/run/skirmish.rules --policy first --set bag=RED:600000,BLACK:600000
