regula odds --depth 100000 tests/run/odds-limits.rules walk
