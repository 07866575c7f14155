regula sheet tests/run/sheet-strategies.rules
