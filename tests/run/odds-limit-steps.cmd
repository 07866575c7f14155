regula odds --max-steps 1000 tests/run/odds-limits.rules spin
