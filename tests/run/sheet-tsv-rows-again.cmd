regula sheet tests/run/sheet-tsv-rows-again.rules
