regula odds tests/run/odds-wide-text.rules main
