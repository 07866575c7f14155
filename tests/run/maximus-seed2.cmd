regula run rules/meg/maximus.rules --seed 2 --policy random
