" ALE (Debian's vim-ale) runs the shipped editors/ale/warplint.vim linter on
" a .cu buffer; tests/editors_ale.rs reads the JSON written here.
set nocompatible
let &runtimepath = $WARPLINT_ALE_DIR . ',' . $WARPLINT_ALE_RTP . ',' . &runtimepath
let g:ale_linters = {'cuda': ['warplint']}
let g:ale_cuda_warplint_executable = $WARPLINT_BIN
filetype plugin on
runtime plugin/ale.vim
execute 'edit ' . fnameescape($WARPLINT_ALE_FILE)
call ale#Queue(0)
let s:waited = 0
while s:waited < 200 && empty(ale#engine#GetLoclist(bufnr('')))
  sleep 100m
  let s:waited += 1
endwhile
call writefile([json_encode({'filetype': &filetype, 'loclist': ale#engine#GetLoclist(bufnr(''))})], $WARPLINT_ALE_OUT)
qall!
