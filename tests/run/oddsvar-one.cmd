regula odds --variants tests/run/oddsvar-base.rules day 0
