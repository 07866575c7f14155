regula sheet tests/run/sheet-tab.rules
