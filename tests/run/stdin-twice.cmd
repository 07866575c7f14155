regula run - --inputs -
