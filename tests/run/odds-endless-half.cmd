regula odds tests/run/odds-endless.rules half
