regula diff --json rules/meg/maximus.rules rules/meg/magna.rules
