regula odds tests/run/sim-expects-twice.rules main
