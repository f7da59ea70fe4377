" Vim filetype plugin for Mosaic: comments, and indentation after braces.
" Mosaic ends statements at newlines (LANGUAGE.md §1), so 'cindent',
" which expects semicolons, would indent every next line as a
" continuation; 'smartindent' indents after '{' and dedents at '}'.
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1

setlocal comments=s1:/*,mb:*,ex:*/,:// commentstring=//\ %s
setlocal formatoptions-=t formatoptions+=croql
setlocal autoindent smartindent cinwords=
setlocal suffixesadd=.mos

let b:undo_ftplugin = "setlocal comments< commentstring< formatoptions< autoindent< smartindent< cinwords< suffixesadd<"
