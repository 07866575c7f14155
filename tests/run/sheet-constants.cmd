regula sheet tests/run/sheet-constants.rules
