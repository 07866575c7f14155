regula odds tests/run/strategy.rules game --policy bold
