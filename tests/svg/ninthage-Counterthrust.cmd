regula draw rules/ninthage/deployment.rules draw_zones Counterthrust --svg OUT/ninthage-Counterthrust.svg
