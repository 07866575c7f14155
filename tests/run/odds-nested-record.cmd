regula odds tests/run/odds-nested-record.rules main
