regula sheet tests/run/sheet-lines.rules
