" warplint for ALE (Vim or Neovim), from warplint's JSON report.
" Copy to ~/.vim/ale_linters/cuda/warplint.vim (Vim) or
" ~/.config/nvim/ale_linters/cuda/warplint.vim (Neovim).
"
" ALE sends the buffer on standard input (the command has no %t), and
" --stdin-filename names it, so unsaved edits are checked under the file's
" real name.

call ale#Set('cuda_warplint_executable', 'warplint')
call ale#Set('cuda_warplint_options', '')

function! ale_linters#cuda#warplint#Handle(buffer, lines) abort
    let l:report = ale#util#FuzzyJSONDecode(a:lines, {})
    let l:output = []

    for l:d in get(l:report, 'diagnostics', [])
        " Columns in the report count characters; ALE wants byte columns.
        let l:text = getbufline(a:buffer, l:d.line)
        let l:line = empty(l:text) ? '' : l:text[0]
        let l:end_text = getbufline(a:buffer, l:d.end_line)
        let l:end_line = empty(l:end_text) ? '' : l:end_text[0]
        call add(l:output, {
        \   'lnum': l:d.line,
        \   'col': byteidx(l:line, l:d.column - 1) + 1,
        \   'end_lnum': l:d.end_line,
        \   'end_col': byteidx(l:end_line, l:d.end_column - 1),
        \   'type': l:d.severity is# 'error' ? 'E' : 'W',
        \   'code': l:d.code,
        \   'text': l:d.message . (l:d.confirmation.status is# 'undecided' ? ' [undecided]' : ''),
        \})
    endfor

    return l:output
endfunction

call ale#linter#Define('cuda', {
\   'name': 'warplint',
\   'executable': {b -> ale#Var(b, 'cuda_warplint_executable')},
\   'command': {b -> '%e check --format json --exit-zero --quiet '
\       . ale#Var(b, 'cuda_warplint_options') . ' --stdin-filename %s -'},
\   'callback': 'ale_linters#cuda#warplint#Handle',
\   'output_stream': 'stdout',
\})
