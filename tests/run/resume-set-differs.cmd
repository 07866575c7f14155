regula run tests/run/skirmish.rules --policy ask --set cards=2 --resume tests/run/resume-settings.transcript
