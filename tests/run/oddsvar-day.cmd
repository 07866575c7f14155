regula odds --variants tests/run/oddsvar-base.rules,tests/run/oddsvar-revised.rules day 0
