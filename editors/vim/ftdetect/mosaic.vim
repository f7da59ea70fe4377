" Mosaic source files (editors/vim/syntax/mosaic.vim).
autocmd BufNewFile,BufRead *.mos setfiletype mosaic
