regula sim --variants tests/run/simvar-tie.rules,tests/run/simvar-margin.rules --runs 360 --seed 2 --policy first
