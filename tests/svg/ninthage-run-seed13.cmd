regula run rules/ninthage/deployment.rules --seed 13 --svg OUT/ninthage-run-seed13.svg
