regula sheet tests/run/sheet-tsv.rules
