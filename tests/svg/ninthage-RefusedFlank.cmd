regula draw rules/ninthage/deployment.rules draw_zones RefusedFlank --svg OUT/ninthage-RefusedFlank.svg
