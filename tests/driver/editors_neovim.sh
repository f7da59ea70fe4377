#!/bin/sh
# editors_neovim.sh — docs/editors.md's Neovim setup tried as written: the
# ```lua blocks of its "Neovim" section are the init.lua (the tree's
# editors/vim for the installed directory, the build tree's mosaic-lsp on
# PATH), and Neovim runs on it in a terminal, under tmux, on a Mosaic file
# with an error, with keys sent as a user types them. What the screen
# shows is read with tmux capture-pane; what Neovim knows (filetype,
# syntax, diagnostics, the cursor, the hover's floating window, the
# completion menu) a probe, loaded after init.lua, writes to a file every
# tenth of a second. Skipped without nvim or tmux.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
. "$here/editors_doc.sh"
command -v nvim >/dev/null || skip_all "nvim is not installed"
command -v tmux >/dev/null || skip_all "tmux is not installed"

setup=$tmp/init.lua
doc_setup Neovim lua /usr/local/share/vim/vimfiles "$top/editors/vim" "$setup"

cat > "$tmp/probe.lua" <<'EOF'
-- What Neovim knows of demo.mos, every tenth of a second, into $STATE
-- (written beside it and renamed, so that the test never reads half of it).
local buf = vim.fn.bufnr('demo.mos')
local function oneline(s) return (tostring(s):gsub('\n', ' ')) end
local function probe()
  local out = { 'mode=' .. vim.api.nvim_get_mode().mode,
                'filetype=' .. vim.bo[buf].filetype,
                'syntax=' .. (vim.b[buf].current_syntax or '') .. (vim.g.syntax_on and ' on' or ' off') }
  if vim.api.nvim_get_current_buf() == buf then
    out[#out + 1] = 'group=' .. vim.fn.synIDattr(vim.fn.synID(1, 1, 1), 'name')
    out[#out + 1] = 'cursor=' .. vim.fn.line('.') .. ':' .. vim.fn.col('.')
  end
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    out[#out + 1] = string.format('diag %d:%d %s %s', d.lnum + 1, d.col + 1,
                                  d.code or lsp.code or '', oneline(d.message))
  end
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then
      for _, l in ipairs(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false)) do
        out[#out + 1] = 'float ' .. l
      end
    end
  end
  if vim.fn.pumvisible() == 1 then
    for _, item in ipairs(vim.fn.complete_info({ 'items' }).items) do
      out[#out + 1] = 'item ' .. item.word
    end
  end
  for _, c in pairs(vim.lsp.buf_get_clients(buf)) do
    out[#out + 1] = 'client ' .. c.name
  end
  vim.fn.writefile(out, vim.env.STATE .. '.new')
  vim.fn.rename(vim.env.STATE .. '.new', vim.env.STATE)
end
vim.fn.timer_start(100, function() probe() end, { ['repeat'] = -1 })
EOF

cd "$tmp" || exit 99
tm new-session -d -s ed -x 100 -y 30 \
    "env HOME='$tmp' XDG_CONFIG_HOME='$tmp/config' XDG_DATA_HOME='$tmp/data' XDG_STATE_HOME='$tmp/state.d' PATH='$tmp/bin:$PATH' STATE='$state' nvim -u '$setup' -i NONE -c 'luafile $tmp/probe.lua' demo.mos" \
    || { echo "Bail out! tmux cannot start a session"; exit 99; }

# the file type, from editors/vim's ftdetect, and its highlighting
wait_for 20 has "$state" '^filetype=mosaic'
check "nvim opens demo.mos as filetype mosaic" $?
has "$state" '^syntax=mosaic on' && has "$state" '^group=mosaicDeclaration'
check "syntax is on, with editors/vim's highlighting ('class' is a mosaicDeclaration)" $?

# the built-in client starts mosaic-lsp and shows its diagnostic
wait_for 20 has "$state" '^client mosaic-lsp'
check "the FileType autocommand starts the client mosaic-lsp for the buffer" $?
wait_for 20 has "$state" "^diag 8:15 E0103 no field 'balanse' in class 'Account'"
s=$?
check "the diagnostic arrives: 8:15 E0103 no field 'balanse' in class 'Account'" $s
[ $s -eq 0 ] || failure
wait_for 10 on_screen "println(acc.balanse) *■ no field 'balanse' in class 'Account'"
check "... and is on the screen after line 8" $?

# K: the hover, in a floating window
keys ':call cursor(7, 7)' Enter
wait_for 10 has "$state" '^cursor=7:7'
keys K
wait_for 20 has "$state" "^float def deposit(x: int) writes(n)"
s=$?
check "K on 'deposit' opens a floating window on its hover: def deposit(x: int) writes(n)" $s
[ $s -eq 0 ] || failure
wait_for 10 on_screen "method of class .Account."
check "... on the screen" $?

# gd: the definition of 'balance' on line 3, declared on line 2 column 7
keys Escape ':call cursor(3, 36)' Enter
wait_for 10 has "$state" '^cursor=3:36'
keys g d
wait_for 20 has "$state" '^cursor=2:7'
check "gd on 'balance' goes to its declaration, 2:7" $?

# the error corrected: once the server has the change, a hover has the
# effects of a program without errors, and the diagnostic goes
keys Escape ':8s/balanse/balance/' Enter ':call cursor(7, 7)' Enter
wait_for 10 has "$state" '^cursor=7:7'
keys K
wait_for 20 has "$state" '^float effects: .reads(n) writes(n).'
s=$?
check "with 'balanse' corrected, K on 'deposit' shows its effects, reads(n) writes(n)" $s
[ $s -eq 0 ] || failure
wait_for 20 eval "! has '$state' '^diag '"
check "... and the diagnostic goes" $?

# <C-x><C-o> after 'acc.': the class's members
keys Escape ':call cursor(7, 1)' Enter
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

# the server is the build tree's, and :qa! ends it with Neovim
servers | grep -qx "$build/mosaic-lsp"
check "the server the client runs is the build tree's mosaic-lsp" $?
keys ':qa!' Enter
wait_for 20 eval "! tm has-session -t ed 2>/dev/null"
check "nvim quits" $?
wait_for 20 eval '[ -z "$(servers)" ]'
check "mosaic-lsp ends with nvim" $?

echo "1..$n"
exit $failed
