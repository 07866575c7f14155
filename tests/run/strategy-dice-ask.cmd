regula run tests/run/strategy.rules --policy bold --dice ask
