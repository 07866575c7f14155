regula odds tests/run/default-variant.rules --policy ?
