regula run tests/run/input-kinds.rules --set flag=maybe
