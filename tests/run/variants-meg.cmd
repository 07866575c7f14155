regula run --variants rules/meg/maximus.rules,rules/meg/magna.rules,rules/meg/pacto.rules --seed 1
