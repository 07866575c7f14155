regula sheet tests/run/sheet-fold.rules
