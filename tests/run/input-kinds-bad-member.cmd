regula run tests/run/input-kinds.rules --set lands=S,X
