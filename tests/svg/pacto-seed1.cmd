regula run rules/meg/pacto.rules --seed 1 --policy random --svg OUT/pacto-seed1-table.svg
