regula sheet tests/run/sheet-tsv-two.rules
