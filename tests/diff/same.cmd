regula diff rules/meg/maximus.rules rules/meg/maximus.rules
