regula run rules/meg/pacto.rules --seed 7 --policy sensible
