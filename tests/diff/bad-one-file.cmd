regula diff rules/meg/maximus.rules
