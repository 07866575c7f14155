regula odds --variants tests/run/odds-wide-text.rules,tests/run/odds-wide-text.rules main
