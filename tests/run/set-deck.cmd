regula run tests/run/skirmish.rules --dice ask --policy first --set bag=RED:2,BLACK:1 --set BATTLE=hit:1,miss:1
