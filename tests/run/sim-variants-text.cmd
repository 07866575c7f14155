regula sim --variants tests/run/odds-wide-text.rules,tests/run/odds-wide-text-b.rules --runs 300
