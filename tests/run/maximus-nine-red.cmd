regula run rules/meg/maximus.rules --dice ask --policy first --set pbs_cards=RED:9,BLACK:31
