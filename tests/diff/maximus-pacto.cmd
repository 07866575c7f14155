regula diff rules/meg/maximus.rules rules/meg/pacto.rules
