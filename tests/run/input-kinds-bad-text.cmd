regula run tests/run/input-kinds.rules --set 'label=a text never written'
