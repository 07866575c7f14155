regula odds tests/run/odds-answers.rules main --policy answers:tests/run/odds-answers.answers
