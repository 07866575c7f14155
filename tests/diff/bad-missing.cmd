regula diff rules/meg/maximus.rules rules/meg/nonexistent.rules
