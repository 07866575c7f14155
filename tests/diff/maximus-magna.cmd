regula diff rules/meg/maximus.rules rules/meg/magna.rules
