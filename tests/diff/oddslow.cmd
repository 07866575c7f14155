regula diff tests/diff/oddslow-base.rules tests/diff/oddslow-variant.rules
