" regula rule files
autocmd BufRead,BufNewFile *.rules setfiletype regula
