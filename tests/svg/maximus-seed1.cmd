regula run rules/meg/maximus.rules --seed 1 --svg OUT/maximus-seed1-table.svg --map-svg OUT/maximus-seed1-map.svg
