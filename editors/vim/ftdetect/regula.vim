" regula rule files (*.rules)
"
" Vim and Neovim already claim *.rules: udev rules under /etc/udev and
" /lib/udev, polkit rules, and everything else as `hog` (Snort).  Their
" detection runs before this file's, so `setfiletype` would do nothing and
" hog's ftplugin (which sets b:did_ftplugin and no b:undo_ftplugin) would
" block regula's.  Here a *.rules file that got no type, or `hog`, becomes
" `regula` when it reads as a rule file (a declaration keyword starts one of
" its first 200 lines, or it is empty: a new file); hog's settings and
" mappings are undone first.  udev, polkit and real Snort files keep theirs.

" Returns whether the current buffer reads as a regula rule file.
function! s:RegulaLooksLike() abort
  let n = min([line('$'), 200])
  if n == 1 && getline(1) =~# '^\s*$'
    return 1
  endif
  for l in getline(1, n)
    if l =~# '^\s*\%(ruleset\|extends\|unit\|scale\|enum\|record\|const\|table\|procedure\|test\|input\|dice\|deck\|strategy\|display\|override\|remove\|extend\)\>'
      return 1
    endif
  endfor
  return 0
endfunction

" Makes the current buffer a regula one (see above).
function! s:RegulaDetect() abort
  if &filetype !=# '' && &filetype !=# 'hog'
    return
  endif
  if !s:RegulaLooksLike()
    return
  endif
  if &filetype ==# 'hog'
    " what ftplugin/hog.vim set, as its missing b:undo_ftplugin would undo it
    setlocal formatoptions< comments< commentstring< define< include<
    silent! nunmap <buffer> ]]
    silent! nunmap <buffer> [[
    unlet! b:did_ftplugin b:undo_ftplugin b:match_words b:match_skip
  endif
  set filetype=regula
endfunction

autocmd BufRead,BufNewFile *.rules call s:RegulaDetect()
