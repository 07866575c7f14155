regula draw tests/svg/value-types.rules pic --svg OUT/value-types.svg
