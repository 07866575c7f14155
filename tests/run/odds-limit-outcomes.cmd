regula odds tests/run/odds-limits.rules fifty
