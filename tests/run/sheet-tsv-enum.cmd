regula sheet tests/run/sheet-tsv-enum.rules
