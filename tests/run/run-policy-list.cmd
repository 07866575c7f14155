regula run tests/run/strategy.rules --policy ?
