regula diff --stat rules/meg/maximus.rules rules/meg/pacto.rules
