regula run tests/run/input-kinds.rules --set lands=none --set share=5% --set reach=3
