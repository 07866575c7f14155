regula sim --variants tests/run/simvar-fails.rules,tests/run/simvar-fails.rules --runs 50
