regula sheet tests/run/sheet-revision.rules
