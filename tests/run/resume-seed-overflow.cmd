regula run tests/run/skirmish.rules --policy ask --resume tests/run/resume-seed-overflow.transcript
