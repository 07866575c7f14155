regula odds tests/run/default-override.rules pick
