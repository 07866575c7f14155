regula run --json=yes tests/run/skirmish.rules
