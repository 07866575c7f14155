regula run tests/run/skirmish.rules --seed 18446744073709551615
