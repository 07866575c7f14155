regula run rules/meg/revised/maximus.rules --seed 7 --policy sensible
