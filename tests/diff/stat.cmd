regula diff --stat rules/meg/maximus.rules rules/meg/revised/maximus.rules
