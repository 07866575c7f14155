regula draw rules/ninthage/deployment.rules draw_zones MarchingColumns --svg OUT/ninthage-MarchingColumns.svg
