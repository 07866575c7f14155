regula odds tests/run/default-variant.rules pick
