regula odds tests/run/odds-answers.rules main --policy answers:tests/run/ran-out.answers
