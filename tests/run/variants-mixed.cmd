regula run --variants tests/run/variant-plain.rules,tests/run/variant-record.rules
