regula sheet tests/run/sheet-tsv-rows.rules
