regula odds tests/run/odds-loops.rules two
