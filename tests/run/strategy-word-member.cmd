regula run tests/run/strategy-word-member.rules --policy members
