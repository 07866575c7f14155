regula sim tests/run/odds-answers.rules --policy answers:tests/run/misfit.answers --runs 3
