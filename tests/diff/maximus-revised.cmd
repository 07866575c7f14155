regula diff rules/meg/maximus.rules rules/meg/revised/maximus.rules
