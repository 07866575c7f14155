regula draw rules/ninthage/deployment.rules draw_zones FrontlineClash --svg OUT/ninthage-FrontlineClash.svg
