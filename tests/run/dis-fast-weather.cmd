regula dis --fast tools/bench/weather.rules
