regula odds tests/run/odds-record-orders.rules main
