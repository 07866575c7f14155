regula diff - -
