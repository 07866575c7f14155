regula sheet tests/run/sheet-marks.rules
