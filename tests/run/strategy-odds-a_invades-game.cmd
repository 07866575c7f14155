regula odds tests/run/strategy.rules game --policy a_invades
