regula run rules/meg/maximus.rules --seed 2 --policy random --picture table=OUT/maximus-seed2-table.svg --picture map=OUT/maximus-seed2-map.svg
