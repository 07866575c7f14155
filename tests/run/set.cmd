regula run tests/run/skirmish.rules --policy first --set cards=3 --set grounds=F,C --set a_rating=Good
