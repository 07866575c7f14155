regula run tests/run/input-kinds.rules --set span=2BW
