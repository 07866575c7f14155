regula run rules/ninthage/deployment.rules --seed 5 --svg OUT/ninthage-run-seed5.svg
