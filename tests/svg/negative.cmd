regula draw tests/svg/negative.rules pictures --svg OUT/negative-first.svg --picture empty=OUT/negative-empty.svg
