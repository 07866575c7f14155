regula sheet tests/run/sheet-four-keys.rules
