regula run tests/run/skirmish.rules --inputs tests/run/bad.inputs
