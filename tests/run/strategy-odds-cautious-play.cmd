regula odds tests/run/strategy.rules play --policy cautious
