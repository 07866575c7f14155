regula odds tests/run/strategy.rules items --policy cautious
