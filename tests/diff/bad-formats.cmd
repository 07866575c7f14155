regula diff --stat --json rules/meg/maximus.rules rules/meg/magna.rules
