regula draw tests/svg/shapes.rules shapes A --svg OUT/shapes-first.svg --picture second=OUT/shapes-second.svg
