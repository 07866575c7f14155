regula run --variants tests/run/variants-plain.rules,tests/run/variants-plain-b.rules
