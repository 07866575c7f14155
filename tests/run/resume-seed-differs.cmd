regula run tests/run/skirmish.rules --policy ask --seed 9 --resume tests/run/resume-settings.transcript
