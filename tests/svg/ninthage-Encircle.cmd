regula draw rules/ninthage/deployment.rules draw_zones Encircle --svg OUT/ninthage-Encircle.svg
