regula run tests/run/bom.rules --inputs tests/run/bom.inputs --policy answers:tests/run/bom.answers
