regula run tests/run/input-kinds.rules --set flag=true --set reach=2.5BW --set 'span=3"' --set 'label=the other text' --set 'lands=Desert, C' --set share=40
