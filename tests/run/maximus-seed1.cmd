regula run rules/meg/maximus.rules --seed 1 --policy random
