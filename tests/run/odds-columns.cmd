regula odds tests/run/oddsvar-revised.rules camp
