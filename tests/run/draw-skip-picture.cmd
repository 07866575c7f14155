regula run tests/run/draw-skip.rules --picture board=/dev/null
