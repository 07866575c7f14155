regula run rules/meg/pacto.rules --seed 1 --svg OUT/pacto-seed1-table.svg
