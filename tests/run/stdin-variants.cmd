regula sim --variants -,- --runs 5
