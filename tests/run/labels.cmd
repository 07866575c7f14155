regula run tests/run/labels.rules --dice ask
