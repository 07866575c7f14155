regula sim tests/run/strategy.rules game --policy cautious --runs 6000 --seed 3 --threads 2
