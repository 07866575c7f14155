regula sim tests/run/odds-answers.rules --policy answers:tests/run/odds-answers.answers --runs 100
