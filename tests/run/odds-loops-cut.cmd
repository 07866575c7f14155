regula odds --depth 3 tests/run/odds-loops.rules rolloff
