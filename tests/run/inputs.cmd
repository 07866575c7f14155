regula run tests/run/skirmish.rules --policy first --inputs tests/run/army.inputs --set cards=1
