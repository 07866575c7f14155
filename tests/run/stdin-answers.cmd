regula run - --policy answers:-
