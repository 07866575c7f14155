regula odds tests/run/strategy-edges.rules main --policy first
