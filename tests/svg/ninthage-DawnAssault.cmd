regula draw rules/ninthage/deployment.rules draw_zones DawnAssault --svg OUT/ninthage-DawnAssault.svg
