regula sim tests/run/sim-expects-twice.rules --runs 600 --seed 1
