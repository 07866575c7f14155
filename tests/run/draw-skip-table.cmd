regula run tests/run/draw-skip.rules --policy ask
