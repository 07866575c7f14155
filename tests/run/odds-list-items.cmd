regula odds tests/run/odds-list-items.rules main
