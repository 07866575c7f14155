regula run tests/run/display-last-fits.rules
