regula run rules/meg/maximus.rules --seed 3 --policy random
