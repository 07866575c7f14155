regula odds tests/run/strategy-override.rules game --policy bold
