regula run tests/lang/input-indexed.rules --set 'skill[B]=legendary' --set 'bonus[A]=3'
