regula odds tests/run/odds-limit-sum.rules both
