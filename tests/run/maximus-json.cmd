regula run rules/meg/maximus.rules --seed 2 --json --policy random
