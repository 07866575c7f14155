regula run tests/run/checks.rules --proc with_params
