regula odds tests/lang/odds-set-dice.rules roll_off --set LOW=1:0
