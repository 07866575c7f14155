regula run tests/run/step-loop.rules --seed 1
