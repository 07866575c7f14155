regula odds tests/run/strategy.rules game --policy nosuch
