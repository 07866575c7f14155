regula run --variants tests/run/variants-rec-a.rules,tests/run/variants-rec-b.rules
