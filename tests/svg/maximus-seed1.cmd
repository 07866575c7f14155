regula run rules/meg/maximus.rules --seed 1 --policy random --svg OUT/maximus-seed1-table.svg --map-svg OUT/maximus-seed1-map.svg
