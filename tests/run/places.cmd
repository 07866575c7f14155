regula run tests/run/places/revised.rules --seed 1
