regula odds --variants tests/run/odds-depth.rules,tests/run/odds-depth-d3.rules until_six --depth 2 --json
