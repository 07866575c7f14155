regula sim tests/run/odds-wide-text.rules --runs 300
