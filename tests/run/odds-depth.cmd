regula odds --depth 2 tests/run/odds-depth.rules until_six
