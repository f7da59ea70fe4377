#!/bin/sh
# editors_vim.sh — docs/editors.md's Vim setup tried as written: the
# ```vim blocks of its "Vim" section are the vimrc (the tree's editors/vim
# for the installed directory, the build tree's mosaic-lsp on PATH), and
# Vim runs on it in a terminal, under tmux, on a Mosaic file with an
# error, with keys sent as a user types them. What the screen shows is
# read with tmux capture-pane; what Vim knows (filetype, syntax, ALE's
# diagnostics, the cursor, the completion menu) a probe, loaded after the
# vimrc, writes to a file every tenth of a second. Skipped without vim,
# tmux or Debian's vim-ale.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
. "$here/editors_doc.sh"
command -v vim >/dev/null || skip_all "vim is not installed"
command -v tmux >/dev/null || skip_all "tmux is not installed"
vim -Nu NONE -i NONE -es -c 'try | packadd ale | catch | cquit | endtry' -c 'qall!' </dev/null \
    || skip_all "ALE is not installed (Debian: apt-get install vim-ale)"

doc_setup Vim vim /usr/local/share/vim/vimfiles "$top/editors/vim" "$tmp/vimrc"

cat > "$tmp/probe.vim" <<'EOF'
" What Vim knows of demo.mos, every tenth of a second, into $STATE (written
" beside it and renamed, so that the test never reads half of it).
let s:buf = bufnr('demo.mos')
function! s:Probe(timer) abort
  let l:out = ['mode=' . mode(), 'filetype=' . getbufvar(s:buf, '&filetype'),
        \ 'syntax=' . getbufvar(s:buf, 'current_syntax') . (exists('g:syntax_on') ? ' on' : ' off')]
  if bufnr('') == s:buf
    call add(l:out, 'group=' . synIDattr(synID(1, 1, 1), 'name'))
    call add(l:out, 'cursor=' . line('.') . ':' . col('.'))
  endif
  for l:d in ale#engine#GetLoclist(s:buf)
    call add(l:out, printf('diag %d:%d %s %s', l:d.lnum, l:d.col, get(l:d, 'code', ''), l:d.text))
  endfor
  for l:w in range(1, winnr('$'))
    if getwinvar(l:w, '&previewwindow')
      call extend(l:out, map(getbufline(winbufnr(l:w), 1, '$'), '"preview " . v:val'))
    endif
  endfor
  if pumvisible()
    call extend(l:out, map(complete_info(['items']).items, '"item " . v:val.word'))
  endif
  call writefile(l:out, $STATE . '.new')
  call rename($STATE . '.new', $STATE)
endfunction
call timer_start(100, function('s:Probe'), {'repeat': -1})
EOF

setup=$tmp/vimrc
cd "$tmp" || exit 99
tm new-session -d -s ed -x 100 -y 30 \
    "env HOME='$tmp' PATH='$tmp/bin:$PATH' STATE='$state' vim -Nu '$tmp/vimrc' -i NONE -c 'source $tmp/probe.vim' demo.mos" \
    || { echo "Bail out! tmux cannot start a session"; exit 99; }

# the file type, from editors/vim's ftdetect, and its highlighting
wait_for 20 has "$state" '^filetype=mosaic'
check "vim opens demo.mos as filetype mosaic" $?
has "$state" '^syntax=mosaic on' && has "$state" '^group=mosaicDeclaration'
check "syntax is on, with editors/vim's highlighting ('class' is a mosaicDeclaration)" $?

# ALE starts mosaic-lsp and shows its diagnostic
wait_for 20 has "$state" "^diag 8:15 E0103 no field 'balanse' in class 'Account'"
s=$?
check "ALE shows mosaic-lsp's diagnostic: 8:15 E0103 no field 'balanse' in class 'Account'" $s
[ $s -eq 0 ] || failure
wait_for 10 on_screen "^>>  println(acc.balanse) .*no field 'balanse' in class 'Account'"
check "... on the screen: line 8 with its sign and, after it, the message" $?

# K: the hover, in ALE's preview window
keys ':call cursor(7, 7)' Enter
wait_for 10 has "$state" '^cursor=7:7'
keys K
wait_for 20 has "$state" "^preview def deposit(x: int) writes(n)"
s=$?
check "K on 'deposit' opens the preview window on its hover: def deposit(x: int) writes(n)" $s
[ $s -eq 0 ] || failure
wait_for 10 on_screen "method of class Account"
check "... on the screen" $?

# gd: the definition of 'balance' on line 3, declared on line 2 column 7
keys ':call cursor(3, 36)' Enter
wait_for 10 has "$state" '^cursor=3:36'
keys g d
wait_for 20 has "$state" '^cursor=2:7'
check "gd on 'balance' goes to its declaration, 2:7" $?

# the error corrected: once the server has the change, a hover has the
# effects of a program without errors, and the diagnostic goes
keys ':8s/balanse/balance/' Enter ':call cursor(7, 7)' Enter
wait_for 10 has "$state" '^cursor=7:7'
keys K
wait_for 20 has "$state" '^preview effects: reads(n) writes(n)'
s=$?
check "with 'balanse' corrected, K on 'deposit' shows its effects, reads(n) writes(n)" $s
[ $s -eq 0 ] || failure
wait_for 20 eval "! has '$state' '^diag '"
check "... and the diagnostic goes" $?

# <C-x><C-o> after 'acc.': the class's members
keys ':call cursor(7, 1)' Enter
wait_for 10 has "$state" '^cursor=7:1'
keys o 'acc.' C-x C-o
wait_for 20 has "$state" '^item deposit'
s=$?
has "$state" '^item balance'
check "<C-x><C-o> after 'acc.' offers 'deposit' and 'balance'" $(( s | $? ))
[ $s -eq 0 ] || failure
keys C-e Escape
wait_for 10 has "$state" '^mode=n'
keys u

# the server is the build tree's, and :qa! ends it with Vim
servers | grep -qx "$build/mosaic-lsp"
check "the server ALE runs is the build tree's mosaic-lsp" $?
keys ':qa!' Enter
wait_for 20 eval "! tm has-session -t ed 2>/dev/null"
check "vim quits" $?
wait_for 20 eval '[ -z "$(servers)" ]'
check "mosaic-lsp ends with vim" $?

echo "1..$n"
exit $failed
